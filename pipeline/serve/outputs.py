"""Where ``--output`` may write: never over the database or one of its files (issue 16 § 1).

A CSV written over ``cards.duckdb`` (or over its WAL, lock or temp files, or over the same file
through a symlink or a hard link) would destroy the database, and every later refresh would
refuse the file. :func:`check_output` is called before anything is opened for writing.

:func:`atomic_output` is how every ``--output`` is written: a regular file is replaced atomically
(temp file beside it, then a rename); a symlink, device or FIFO (``/dev/stdout``, ``/dev/null``) is
written into, never renamed over — as root a rename replaced ``/dev/full`` and the ``/dev/stdout``
link with regular files.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


class OutputRefused(Exception):
    """``--output`` names the database or one of its files, or cannot be written; the message says which."""


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def check_output(output: Path, db_path: Path) -> None:
    """Raise OutputRefused when writing ``output`` could touch the database ``db_path`` or its files.

    Refused: the database path itself (also through a symlink or a hard link: compared by inode),
    ``<db>.wal``, ``<db>.lock``, ``<db>.tmp…`` (temp files and the spill directory), and an
    existing directory.
    """
    db_real = Path(os.path.realpath(db_path))
    out_real = Path(os.path.realpath(output))
    owned = [db_real, db_real.with_name(db_real.name + ".wal"), db_real.with_name(db_real.name + ".lock")]
    if out_real in owned or out_real.name.startswith(db_real.name + ".tmp") and out_real.parent == db_real.parent \
            or any(_same_file(output, p) for p in owned):
        raise OutputRefused(f"{output}: refusing to write over the database {db_path} or one of its files; "
                            f"choose another --output")
    if out_real.is_dir():
        raise OutputRefused(f"{output}: is a directory; --output needs a file path")


def _written_into(path: Path) -> bool:
    """True when ``path`` exists and is not a plain regular file: a symlink (``/dev/stdout`` →
    ``/proc/self/fd/1``, or a link the user keeps to a file elsewhere), a character device
    (``/dev/null``, ``/dev/full``), a FIFO or a socket. Renaming over such a path would replace the
    link or the device node itself instead of writing where it leads."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


@contextmanager
def atomic_output(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path to write ``path``'s content to; on a clean exit publish it.

    A regular file (or a new path) is replaced atomically: the temp file sits beside it
    (``.<name>.tmp-<pid>``) and is renamed over it, so a reader never sees half a file and a failed
    write leaves the old file as it was. An existing path that is not a plain regular file — a
    symlink (``/dev/stdout``), a device (``/dev/null``), a FIFO — is *written into* once the content
    is complete (the temp file is in ``$TMPDIR``): renaming over it would replace the link or the
    device node itself (as root) or fail. The temp file is removed in every case.
    Raises ``OSError`` from the write or the copy (e.g. ENOSPC on a full disk or ``/dev/full``).
    """
    path = Path(path)
    special = _written_into(path)
    if special:
        fd, name = tempfile.mkstemp(prefix="mtg-output-")
        os.close(fd)
        tmp = Path(name)
    else:
        tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        yield tmp
        if special:
            with tmp.open("rb") as src, path.open("wb") as dst:
                shutil.copyfileobj(src, dst)
        else:
            os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_text_output(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through :func:`atomic_output`. Raises ``OSError``."""
    with atomic_output(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
