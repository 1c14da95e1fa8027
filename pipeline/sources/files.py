"""Open plain or gzip files as binary streams and sniff what they hold, without reading them whole."""

from __future__ import annotations

import errno
import gzip
import io
import os
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Iterator

from pipeline.sources.errors import SourceError

GZIP_MAGIC = b"\x1f\x8b"

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def require_regular_file(path: str | Path) -> Path:
    """Return ``path`` if it is (or a symlink chain ends at) a regular file; raise SourceError otherwise.

    Checked before anything opens the file: opening a FIFO blocks until a writer comes, and
    ``/dev/zero`` never ends — either would hold the refresh lock forever. A symlink loop,
    a dangling link, a directory named like a file, devices and sockets are refused by name.
    """
    path = Path(path)
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise SourceError(path, "symlink loop: the link never reaches a file") from None
        raise SourceError(path, f"cannot open: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        what = next((name for test, name in _KINDS if test(mode)), "not a regular file")
        raise SourceError(path, f"is {what}, not a regular file; refusing to read it")
    return path


@contextmanager
def open_binary(path: str | Path) -> Iterator[BinaryIO]:
    """Open ``path`` for streaming reads, transparently decompressing gzip (by magic bytes, not suffix).

    Raises SourceError if the file does not exist or cannot be read.
    """
    path = require_regular_file(path)
    try:
        raw = open(path, "rb")
    except OSError as exc:
        raise SourceError(path, f"cannot open: {exc.strerror or exc}") from exc
    try:
        head = raw.read(2)
        raw.seek(0)
        stream: BinaryIO = gzip.GzipFile(fileobj=raw, mode="rb") if head == GZIP_MAGIC else raw
        yield io.BufferedReader(stream, buffer_size=1 << 20) if stream is not raw else raw
    finally:
        raw.close()


def first_significant_byte(stream: BinaryIO, path: str | Path) -> bytes:
    """Return the first non-whitespace byte of a buffered stream without consuming it.

    Skips a UTF-8 byte-order mark. Returns ``b""`` for an empty stream.
    Raises SourceError on a corrupt gzip stream.
    """
    try:
        head = stream.peek(4096)[:4096]  # type: ignore[attr-defined]
    except (OSError, EOFError) as exc:
        raise SourceError(path, f"unreadable (corrupt or truncated gzip?): {exc}") from exc
    return head.removeprefix(b"\xef\xbb\xbf").lstrip()[:1]


def set_files(directory: str | Path) -> list[Path]:
    """Return the MTGJSON set files (``*.json``, ``*.json.gz``) of ``directory``, sorted by name.

    Raises SourceError if there are none.
    """
    directory = Path(directory)
    try:
        names = sorted(p for p in directory.iterdir() if p.name.endswith((".json", ".json.gz")))
    except OSError as exc:
        raise SourceError(directory, f"cannot list: {exc.strerror or exc}") from None
    files = [require_regular_file(p) for p in names]  # a FIFO, device, loop or directory *.json: one-line error
    if not files:
        raise SourceError(directory, "no MTGJSON set files (*.json, *.json.gz) in this directory")
    return files
