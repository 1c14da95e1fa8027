"""The version of a set of local source files, computed without parsing them.

A refresh compares it with the last successful run's ``source_version`` to skip unchanged
sources before reading them. It is ``<label>+sha256:<16 hex>``: the label is the MTGJSON
``meta.version`` where the files carry one (read from the file's first object), and the hash
covers every file's bytes (file names and contents, in sorted order), so any edit — even one
that keeps ``meta.version`` — changes the version.
"""

from __future__ import annotations

import hashlib
import itertools
import zlib
from pathlib import Path
from typing import Iterable

import ijson

from pipeline.sources import detect
from pipeline.sources.errors import SourceError
from pipeline.sources.files import open_binary, require_regular_file
from pipeline.sources.json_stream import object_items
from pipeline.sources.mtgjson import set_files


def source_files(paths: Iterable[str | Path]) -> list[tuple[Path, str]]:
    """Expand ``paths`` to ``(file, kind)`` pairs: a directory becomes its MTGJSON set files.

    Raises SourceError for a path of no supported kind (see :func:`detect.detect_source`).
    """
    out: list[tuple[Path, str]] = []
    for path in map(Path, paths):
        kind = detect.detect_source(path)
        if kind == detect.MTGJSON_DIR:
            out.extend((f, detect.MTGJSON) for f in set_files(path))
        else:
            out.append((path, kind))
    return out


def mtgjson_meta_version(path: str | Path) -> str | None:
    """``meta.version`` of an MTGJSON file (MTGJSON writes ``meta`` first), or None when absent or unreadable.

    Reads only the first member of the top-level object, built without prefix tracking and at
    most :data:`META_MAX_DEPTH` levels deep (a hostile file cannot cost more than its first member).
    """
    try:
        with open_binary(path) as stream:
            events = ijson.basic_parse(stream, use_float=True)
            if next(events, None) != ("start_map", None) or next(events, None) != ("map_key", "meta"):
                return None
            replay = itertools.chain([("start_map", None), ("map_key", "meta")], events)
            meta = next(object_items(None, max_depth=META_MAX_DEPTH, events=replay), (None, None))[1]
    except (OSError, EOFError, zlib.error, ijson.JSONError, UnicodeDecodeError, ValueError, SourceError):
        return None
    if not isinstance(meta, dict) or "version" not in meta:
        return None
    return str(meta["version"])[:200]


#: Nesting allowed in the ``meta`` object read for the version (MTGJSON's is flat).
META_MAX_DEPTH = 8


def source_version(paths: Iterable[str | Path]) -> str:
    """Return the version string of the files behind ``paths`` (see the module docstring).

    Raises SourceError for a path of no supported kind.
    """
    digest = hashlib.sha256()
    labels: set[str] = set()
    for file, kind in source_files(paths):
        digest.update(file.name.encode() + b"\0")
        with open(require_regular_file(file), "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
        if kind == detect.MTGJSON:
            labels.add(mtgjson_meta_version(file) or "unknown")
    label = ",".join(sorted(labels))
    return f"{label}+sha256:{digest.hexdigest()[:16]}" if label else f"sha256:{digest.hexdigest()[:16]}"
