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


class _TooDeep(ValueError):
    pass


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
        for index, record in enumerate(_array_items(stream)):
            yield index, record
        index += 1
    except _TooDeep as exc:
        raise SourceError(path, f"record nested more than {MAX_DEPTH} levels deep", record=f"#{index}") from exc
    except _STREAM_ERRORS as exc:
        raise SourceError(path, f"invalid JSON array at record #{index}: {exc}", record=f"#{index}") from exc


def _array_items(stream) -> Iterator[object]:
    """The items of the top-level JSON array on ``stream``, built from prefix-free parser events."""
    depth = 0
    builder: ObjectBuilder | None = None
    for event, value in ijson.basic_parse(stream, use_float=True):
        opens = event in ("start_map", "start_array")
        closes = event in ("end_map", "end_array")
        if opens:
            depth += 1
            if depth > MAX_DEPTH + 1:
                raise _TooDeep()
            if depth == 2:
                builder = ObjectBuilder()
        if builder is not None:
            builder.event(event, value)
        if closes:
            depth -= 1
            if depth == 1:
                yield builder.value
                builder = None
        elif depth == 1 and not opens:  # a scalar item of the top-level array
            yield value


def _iter_lines(stream, path) -> Iterator[tuple[int, object]]:
    index = 0
    lineno = 0
    try:
        for lineno, line in enumerate(stream, start=1):
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
