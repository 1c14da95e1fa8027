"""The version of a set of local source files, computed without parsing them.

A refresh compares it with the last successful run's ``source_version`` to skip unchanged
sources before reading them. It is ``<label>+sha256:<16 hex>``: the label is the MTGJSON
``meta.version`` where the files carry one (read from the file's first object), and the hash
covers every file's name and the sha256 of its bytes, in sorted order, so any edit — even one
that keeps ``meta.version`` — changes the version.

**Trusting size and modification time.** Hashing 62 MB of set files costs about a second, more
than everything else an unchanged refresh does. So each build records, per source file, its
size, modification time (ns), sha256 and label (table ``source_files``, see
:mod:`pipeline.store.schema`); the next refresh takes a file whose path, size and mtime equal
the recorded ones as unchanged **without reading it**, and hashes only the others. A file
rewritten in place with the same size within the same mtime tick (or whose mtime was reset on
purpose) is therefore not noticed: ``refresh --force`` rebuilds from scratch. This is the
trade-off ``make`` and ``rsync`` make by default.
"""

from __future__ import annotations

import hashlib
import json
import re
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping

from pipeline.sources import detect
from pipeline.sources.errors import SourceError
from pipeline.sources.files import read_prefix, require_regular_file, set_files


@dataclass(frozen=True)
class FileState:
    """What a build records about one source file: ``path`` (absolute, as a string), ``size``
    (bytes), ``mtime_ns`` (``st_mtime_ns``), ``sha256`` (hex of its bytes as stored, compressed or
    not), ``kind`` (a :mod:`pipeline.sources.detect` kind) and ``label`` (MTGJSON ``meta.version``,
    ``"unknown"`` when an MTGJSON file has none, None for other kinds)."""

    path: str
    size: int
    mtime_ns: int
    sha256: str
    kind: str
    label: str | None

    def row(self) -> tuple:
        """The state as a ``source_files`` row (column order of pipeline.store.schema)."""
        return (self.path, self.size, self.mtime_ns, self.sha256, self.kind, self.label)


@dataclass(frozen=True)
class SourceState:
    """The version of a set of sources (see the module docstring) and the state of each file,
    in reading order; ``hashed``: how many files had to be read to compute it (0 when every
    file's size and mtime matched the last build's)."""

    version: str
    files: list[FileState]
    hashed: int


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


def _expand_trusted(paths: Iterable[str | Path], known: Mapping[str, FileState]) -> list[tuple[Path, str]]:
    """Like :func:`source_files`, but a file recorded in ``known`` with its current size and
    mtime keeps its recorded kind without being opened (directories are still listed)."""
    out: list[tuple[Path, str]] = []
    for path in map(Path, paths):
        if path.is_dir():
            out.extend((f, detect.MTGJSON) for f in set_files(path))
            continue
        # a FIFO, device or symlink loop is refused by name here (Path.resolve raises RuntimeError on a loop)
        state = known.get(str(require_regular_file(path).resolve()))
        if state is not None and _same_stat(path, state):
            out.append((path, state.kind))
        else:
            out.append((path, detect.detect_source(path)))
    return out


def _same_stat(path: Path, state: FileState) -> bool:
    try:
        st = path.stat()
    except OSError:
        return False
    return st.st_size == state.size and st.st_mtime_ns == state.mtime_ns


def mtgjson_meta_version(path: str | Path) -> str | None:
    """``meta.version`` of an MTGJSON file (MTGJSON writes ``meta`` first), or None when absent or unreadable.

    Reads only the first :data:`META_PREFIX_BYTES` (decompressed) of the file — first
    :data:`META_FIRST_BYTES` of them, which hold MTGJSON's ``meta`` (reading 64 KiB of each of 579 set
    files through a stream that buffers a MiB was most of this function's time) — and decodes the
    value of its first member when that is ``"meta"`` and ends within them, at most
    :data:`META_MAX_DEPTH` levels deep (a hostile file cannot cost more than that prefix).
    """
    try:
        head = read_prefix(path, META_FIRST_BYTES)
        meta = _meta_in(head)
        if meta is None and len(head) == META_FIRST_BYTES:
            meta = _meta_in(read_prefix(path, META_PREFIX_BYTES))
    except (OSError, EOFError, zlib.error, SourceError):
        return None
    if not isinstance(meta, dict) or "version" not in meta or _depth(meta) > META_MAX_DEPTH:
        return None
    return str(meta["version"])[:200]


def _meta_in(head: bytes):
    """The JSON value of a leading ``"meta"`` member within ``head`` (bytes of the file's start), or None."""
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as exc:  # the prefix may end inside a character; invalid UTF-8 before that is refused
        if exc.start < len(head) - 3:
            return None
        text = head[:exc.start].decode("utf-8")
    start = _META_START.match(text)
    if start is None:
        return None
    try:
        meta, _ = json.JSONDecoder().raw_decode(text, start.end())
    except (ValueError, RecursionError):  # not JSON, or the value does not end within the prefix
        return None
    return meta


def _depth(value, level: int = 1) -> int:
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level)
    return level - 1


#: Nesting allowed in the ``meta`` object read for the version (MTGJSON's is flat).
META_MAX_DEPTH = 8
#: Bytes (decompressed) read from the start of an MTGJSON file for its ``meta`` (MTGJSON's is ~60 bytes).
META_PREFIX_BYTES = 1 << 16
#: ... of which this much is read first (enough for MTGJSON's own ``meta``).
META_FIRST_BYTES = 1 << 12
_META_START = re.compile(r'[ \t\n\r]*\{[ \t\n\r]*"meta"[ \t\n\r]*:[ \t\n\r]*')


def file_state(path: Path, kind: str) -> FileState:
    """Hash one file and read its label (see :class:`FileState`). Raises OSError when unreadable."""
    st = path.stat()
    digest = hashlib.sha256()
    with open(require_regular_file(path), "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    label = (mtgjson_meta_version(path) or "unknown") if kind == detect.MTGJSON else None
    return FileState(str(path.resolve()), st.st_size, st.st_mtime_ns, digest.hexdigest(), kind, label)


def source_state(paths: Iterable[str | Path], known: Mapping[str, FileState] | None = None) -> SourceState:
    """Return the version of the files behind ``paths`` and each file's state.

    ``known``: the states recorded by the last build, by path; a file whose size and mtime equal
    its recorded state's is trusted without reading it (module docstring). Raises SourceError
    for a path of no supported kind.
    """
    known = known or {}
    states: list[FileState] = []
    hashed = 0
    for file, kind in _expand_trusted(paths, known):
        state = known.get(str(file.resolve()))
        if state is None or state.kind != kind or not _same_stat(file, state):
            state = file_state(file, kind)
            hashed += 1
        states.append(state)
    return SourceState(version_of_states(states), states, hashed)


def version_of_states(states: Iterable[FileState]) -> str:
    """The version string (module docstring) of files with these states."""
    digest = hashlib.sha256()
    labels: set[str] = set()
    for state in states:
        digest.update(Path(state.path).name.encode() + b"\0" + state.sha256.encode() + b"\0")
        if state.label is not None:
            labels.add(state.label)
    label = ",".join(sorted(labels))
    return f"{label}+sha256:{digest.hexdigest()[:16]}" if label else f"sha256:{digest.hexdigest()[:16]}"


def source_version(paths: Iterable[str | Path]) -> str:
    """Return the version string of the files behind ``paths``, hashing every file (module docstring).

    Raises SourceError for a path of no supported kind.
    """
    return source_state(paths).version
