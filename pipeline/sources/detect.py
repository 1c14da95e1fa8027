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
    if path.is_dir():
        return MTGJSON_DIR
    with open_binary(path) as stream:
        try:
            head = stream.peek(_SNIFF_BYTES)[:_SNIFF_BYTES]  # type: ignore[attr-defined]
        except (OSError, EOFError) as exc:
            raise SourceError(path, f"unreadable (corrupt or truncated gzip?): {exc}") from exc
    head = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if not head:
        raise SourceError(path, "empty file")
    events = _first_events(head)
    if head[:1] == b"[":
        first_key = next((v for p, e, v in events if p == "item" and e == "map_key"), None)
        obj = _value_of(events, "item.object")
    elif head[:1] == b"{":
        first_key = next((v for p, e, v in events if p == "" and e == "map_key"), None)
        if first_key in ("meta", "data"):
            return MTGJSON
        obj = _value_of(events, "object")
    else:
        raise SourceError(path, f"not a JSON file: starts with {head[:1]!r}")
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


def _first_events(head: bytes) -> list[tuple[str, str, object]]:
    events: list[tuple[str, str, object]] = []
    try:
        for event in ijson.parse(io.BytesIO(head)):
            events.append(event)
            if len(events) > 2000:
                break
    except (ijson.JSONError, UnicodeDecodeError):  # truncated sniff window or garbage
        pass
    return events


def _value_of(events, prefix: str):
    for p, e, v in events:
        if p == prefix and e in ("string", "number", "boolean", "null"):
            return v
    return None
