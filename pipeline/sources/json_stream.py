"""Stream JSON records from a bulk file in either shape Scryfall has served.

* JSON Lines: one object per line (Scryfall's only bulk format since 20 July 2026,
  served gzipped via ``jsonl_download_uri``);
* one JSON array of objects (the older ``download_uri`` shape, e.g. the 2019 corpus file).

Both may be gzipped. Records are yielded one at a time; memory stays bounded by one record.
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Iterator

import ijson

from pipeline.sources.errors import SourceError
from pipeline.sources.files import first_significant_byte, open_binary

_STREAM_ERRORS = (OSError, EOFError, zlib.error, ijson.JSONError, UnicodeDecodeError, ValueError)


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
    index = -1
    try:
        for index, record in enumerate(ijson.items(stream, "item", use_float=True)):
            yield index, record
    except _STREAM_ERRORS as exc:
        raise SourceError(path, f"invalid JSON array after record #{index}: {exc}", record=f"#{index + 1}") from exc


def _iter_lines(stream, path) -> Iterator[tuple[int, object]]:
    index = 0
    lineno = 0
    try:
        for lineno, line in enumerate(stream, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError as exc:
                raise SourceError(path, f"invalid JSON on line {lineno}: {exc}", record=f"#{index}") from exc
            yield index, record
            index += 1
    except SourceError:
        raise
    except _STREAM_ERRORS as exc:
        raise SourceError(path, f"unreadable after line {lineno} (truncated or corrupt?): {exc}", record=f"#{index}") from exc
