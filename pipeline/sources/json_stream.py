"""Stream JSON records from a bulk file in either shape Scryfall has served.

* JSON Lines: one object per line (Scryfall's only bulk format since 20 July 2026,
  served gzipped via ``jsonl_download_uri``);
* one JSON array of objects (the older ``download_uri`` shape, e.g. the 2019 corpus file).

Both may be gzipped. Records are yielded one at a time; memory stays bounded by one record.
A record nested deeper than :data:`MAX_DEPTH` levels is refused (card objects nest 4 deep);
records are built from prefix-free parser events, because ijson's prefix-tracking readers build
a prefix string per level: a hostile record 100,000 levels deep would need tens of GB.
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Iterator

import ijson
from ijson.common import ObjectBuilder

from pipeline.sources.errors import SourceError
from pipeline.sources.files import first_significant_byte, open_binary

_STREAM_ERRORS = (OSError, EOFError, zlib.error, ijson.JSONError, UnicodeDecodeError, ValueError)

MAX_DEPTH = 512  # nesting levels allowed inside one record (json.loads stops near 1,000)


#: Most bytes one record (one array item, one JSON line, one member of MTGJSON ``data``) may take.
#: Scryfall's largest card objects are ~100 kB, MTGJSON's set objects a few MB; a record past
#: this is refused while it streams, before it is held in memory (a 1 GiB string costs 1 GiB).
MAX_RECORD_BYTES = 64 << 20


class _TooDeep(ValueError):
    """A JSON value nested deeper than allowed."""


class RecordTooLarge(ValueError):
    """One record is longer than :data:`MAX_RECORD_BYTES`."""


#: Most bytes one JSON token (a string, a number) may take: the parser reports nothing until a string
#: ends, and its cost grows faster than the string (yajl: > 5 minutes for a 1 GiB string). The
#: longest text accepted is 65,536 characters (pipeline.refresh.MAX_TEXT_CHARS), ≤ 256 KiB of UTF-8.
MAX_TOKEN_BYTES = 1 << 20


class _Bounded:
    """A binary stream that refuses to read more than ``limit`` bytes past the last :meth:`mark`
    (one record) or more than :data:`MAX_TOKEN_BYTES` past the last parser event (``event_at``)."""

    def __init__(self, stream, limit: int):
        self.stream, self.limit, self.count, self.marked, self.event_at = stream, limit, 0, 0, 0

    def mark(self) -> None:
        self.marked = self.count

    def read(self, n: int = -1) -> bytes:
        data = self.stream.read(n if n is not None and n >= 0 else 1 << 16)
        self.count += len(data)
        if self.count - self.marked > self.limit:
            raise RecordTooLarge(f"a record longer than {self.limit:,} bytes")
        if self.count - self.event_at > MAX_TOKEN_BYTES + (1 << 17):
            raise RecordTooLarge(f"a string or number longer than {MAX_TOKEN_BYTES:,} bytes")
        return data


def object_items(stream, max_depth: int = MAX_DEPTH, *, under: str | None = None,
                 events: Iterator[tuple[str, object]] | None = None) -> Iterator[tuple[str, object]]:
    """``(key, value)`` of each member of the top-level JSON object on ``stream`` — or, with ``under``,
    of the object that is the top-level member ``under`` (MTGJSON's ``data``); built like :func:`array_items`.

    The bounded, prefix-free replacement of ``ijson.kvitems(stream, under or "")``: other top-level
    members are parsed and skipped, never built. Raises ValueError past ``max_depth`` levels inside
    a value or when the document (or ``under``) is not an object; ijson.JSONError on invalid JSON.
    ``events``: ``ijson.basic_parse`` events to read instead of ``stream``.
    """
    base = 1 if under is None else 2  # depth of the members yielded
    depth = 0
    key = top_key = None
    inside = under is None
    builder: ObjectBuilder | None = None
    bounded = _Bounded(stream, MAX_RECORD_BYTES) if events is None else None
    for event, value in (events if events is not None else ijson.basic_parse(bounded, use_float=True)):
        if bounded is not None:
            bounded.event_at = bounded.count
        opens = event in ("start_map", "start_array")
        closes = event in ("end_map", "end_array")
        if depth == 0:
            if event != "start_map":
                raise ValueError("expected a JSON object")
            depth = 1
            continue
        if under is not None and depth == 1 and not closes:
            if event == "map_key":
                top_key = value
                continue
            inside = top_key == under
            if inside and event != "start_map":
                raise ValueError(f"'{under}' is not a JSON object")
        if depth == base and event == "map_key" and inside:
            key = value
            continue
        if opens:
            depth += 1
            if depth - base > max_depth:
                raise _TooDeep(f"nested more than {max_depth} levels deep")
            if depth == base + 1 and inside:
                builder = ObjectBuilder()
        if builder is not None:
            builder.event(event, value)
        if closes:
            depth -= 1
            if depth == base and builder is not None:
                if bounded is not None:
                    bounded.mark()
                yield key, builder.value
                builder = None
            elif depth == 0:
                return
        elif depth == base and inside and not opens:  # a scalar member
            if bounded is not None:
                bounded.mark()
            yield key, value
        elif depth == 1 and bounded is not None:
            bounded.mark()  # a skipped top-level member ended


def iter_json_records(path: str | Path) -> Iterator[tuple[int, object]]:
    """Yield ``(index, record)`` for every top-level record of a JSON array or JSON Lines file.

    ``index`` counts records from 0. Blank lines in JSON Lines are skipped.
    Raises SourceError (naming the file and record index) for an empty file, a file that is
    neither shape, invalid JSON, invalid UTF-8 or a truncated/corrupt gzip stream.
    """
    with open_binary(path) as stream:
        first = first_significant_byte(stream, path)
        if first == b"[":
            yield from _iter_array(stream, path)
        elif first == b"{":
            yield from _iter_lines(stream, path)
        elif first == b"":
            raise SourceError(path, "empty file: expected a JSON array or JSON Lines")
        else:
            raise SourceError(path, f"not JSON: starts with {first!r}")


def _iter_array(stream, path) -> Iterator[tuple[int, object]]:
    index = 0
    try:
        for index, record in enumerate(array_items(stream)):
            yield index, record
        index += 1
    except _TooDeep as exc:
        raise SourceError(path, f"record nested more than {MAX_DEPTH} levels deep", record=f"#{index}") from exc
    except RecordTooLarge as exc:
        raise SourceError(path, f"{exc}: refused while reading", record=f"#{index}") from exc
    except _STREAM_ERRORS as exc:
        raise SourceError(path, f"invalid JSON array at record #{index}: {exc}", record=f"#{index}") from exc


def array_items(stream, max_depth: int = MAX_DEPTH, max_bytes: int = MAX_RECORD_BYTES) -> Iterator[object]:
    """The items of the top-level JSON array on ``stream``, built from prefix-free parser events.

    Linear in the input: no per-level prefix strings (ijson's ``items``/``kvitems``/``parse``
    build one per level, quadratic in the depth). Raises ValueError (``_TooDeep``) past ``max_depth``
    levels inside an item, RecordTooLarge for an item longer than ``max_bytes`` (while it
    streams), ijson.JSONError on invalid JSON.
    """
    bounded = _Bounded(stream, max_bytes)
    depth = 0
    builder: ObjectBuilder | None = None
    for event, value in ijson.basic_parse(bounded, use_float=True):
        bounded.event_at = bounded.count
        opens = event in ("start_map", "start_array")
        closes = event in ("end_map", "end_array")
        if opens:
            depth += 1
            if depth > max_depth + 1:
                raise _TooDeep(f"nested more than {max_depth} levels deep")
            if depth == 2:
                builder = ObjectBuilder()
        if builder is not None:
            builder.event(event, value)
        if closes:
            depth -= 1
            if depth == 1:
                bounded.mark()
                yield builder.value
                builder = None
        elif depth == 1 and not opens:  # a scalar item of the top-level array
            bounded.mark()
            yield value


def _iter_lines(stream, path) -> Iterator[tuple[int, object]]:
    index = 0
    lineno = 0
    try:
        for lineno, line in enumerate(iter(lambda: stream.readline(MAX_RECORD_BYTES + 1), b""), start=1):
            if len(line) > MAX_RECORD_BYTES:
                raise SourceError(path, f"line {lineno} is longer than {MAX_RECORD_BYTES:,} bytes", record=f"#{index}")
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except RecursionError as exc:
                raise SourceError(path, f"record on line {lineno} nested too deeply", record=f"#{index}") from exc
            except ValueError as exc:
                raise SourceError(path, f"invalid JSON on line {lineno}: {exc}", record=f"#{index}") from exc
            yield index, record
            index += 1
    except SourceError:
        raise
    except _STREAM_ERRORS as exc:
        raise SourceError(path, f"unreadable after line {lineno} (truncated or corrupt?): {exc}", record=f"#{index}") from exc
