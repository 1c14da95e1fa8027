"""Tell what kind of source a path holds by sniffing its first bytes (never reading it whole)."""

from __future__ import annotations

import io
from pathlib import Path

import ijson

from pipeline.sources.errors import SourceError
from pipeline.sources.files import open_binary

SCRYFALL_CARDS = "scryfall_cards"
SCRYFALL_RULINGS = "scryfall_rulings"
MTGJSON = "mtgjson"
MTGJSON_DIR = "mtgjson_dir"

_SNIFF_BYTES = 1 << 16


def detect_source(path: str | Path) -> str:
    """Return the source kind of ``path``: one of SCRYFALL_CARDS, SCRYFALL_RULINGS, MTGJSON, MTGJSON_DIR.

    * a directory → MTGJSON set files (``*.json`` / ``*.json.gz``) inside it;
    * a JSON array or JSON Lines whose first record has ``"object": "card"`` → Scryfall cards,
      ``"object": "ruling"`` → Scryfall rulings;
    * a JSON object whose first key is ``meta`` or ``data`` → an MTGJSON file.

    Raises SourceError naming the file when it is none of these (wrong kind, empty, not JSON).
    """
    path = Path(path)
    try:
        if path.is_dir():
            return MTGJSON_DIR
    except OSError as exc:  # a symlink loop
        raise SourceError(path, f"cannot open: {exc.strerror or exc}") from None
    with open_binary(path) as stream:
        try:
            head = stream.peek(_SNIFF_BYTES)[:_SNIFF_BYTES]  # type: ignore[attr-defined]
        except (OSError, EOFError) as exc:
            raise SourceError(path, f"unreadable (corrupt or truncated gzip?): {exc}") from exc
    head = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if not head:
        raise SourceError(path, "empty file")
    if head[:1] not in (b"[", b"{"):
        raise SourceError(path, f"not a JSON file: starts with {head[:1]!r}")
    first_key, obj = _sniff(head)
    if head[:1] == b"{" and first_key in ("meta", "data"):
        return MTGJSON
    if obj == "card":
        return SCRYFALL_CARDS
    if obj == "ruling":
        return SCRYFALL_RULINGS
    raise SourceError(
        path,
        "not a Scryfall bulk file (cards or rulings) nor an MTGJSON file "
        f"(first record's 'object' is {obj!r}, first key {first_key!r})",
        record="#0",
        field="object",
    )


def _sniff(head: bytes) -> tuple[object, object]:
    """(first key, value of ``object``) of the first record (a ``[``) or of the document (a ``{``).

    Reads prefix-free parser events of the sniff window (at most 2,000, nesting at most 64 deep):
    a hostile file costs no more than its first 64 KiB.
    """
    level = 2 if head[:1] == b"[" else 1
    depth = 0
    first_key = obj = None
    want_object = False
    try:
        for n, (event, value) in enumerate(ijson.basic_parse(io.BytesIO(head))):
            if n > 2000 or depth > 64:
                break
            if event in ("start_map", "start_array"):
                depth += 1
            elif event in ("end_map", "end_array"):
                depth -= 1
                if depth < level:
                    break
            elif depth == level and event == "map_key":
                first_key = value if first_key is None else first_key
                want_object = value == "object"
                continue
            elif depth == level and want_object:
                obj = value
                break
            want_object = False
    except (ijson.JSONError, UnicodeDecodeError):  # truncated sniff window or garbage
        pass
    return first_key, obj
