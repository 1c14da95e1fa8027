"""Where ``--output`` may write: never over the database or one of its files (issue 16 § 1).

A CSV written over ``cards.duckdb`` (or over its WAL, lock or temp files, or over the same file
through a symlink or a hard link) would destroy the database, and every later refresh would
refuse the file. :func:`check_output` is called before anything is opened for writing.
"""

from __future__ import annotations

import os
from pathlib import Path


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
