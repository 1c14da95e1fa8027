"""Open plain or gzip files as binary streams and sniff what they hold, without reading them whole."""

from __future__ import annotations

import gzip
import io
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Iterator

from pipeline.sources.errors import SourceError

GZIP_MAGIC = b"\x1f\x8b"


@contextmanager
def open_binary(path: str | Path) -> Iterator[BinaryIO]:
    """Open ``path`` for streaming reads, transparently decompressing gzip (by magic bytes, not suffix).

    Raises SourceError if the file does not exist or cannot be read.
    """
    path = Path(path)
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
