"""Remove the temporary database files (``<db>.tmp-<pid>`` and their ``.wal``) of killed refreshes.

Kept apart from :mod:`pipeline.store.build` so that an unchanged refresh, which calls it first,
imports nothing heavy.
"""

from __future__ import annotations

import re
from pathlib import Path

_LEFTOVER = re.compile(r"\.tmp-\d+(\.sub)?(\.wal)?$")  # .sub: an incremental build's scratch database


def clean_leftovers(db_path: Path) -> list[Path]:
    """Remove ``<db>.tmp-<pid>`` and ``<db>.tmp-<pid>.sub`` (and their ``.wal``) files of killed refreshes; return what was removed.

    Call only while holding the refresh lock on ``db_path``: then no other refresh is writing
    such a file, so every one present is a leftover of a dead process.
    """
    removed = []
    if not db_path.parent.is_dir():
        return removed
    prefix = db_path.name
    for p in sorted(db_path.parent.iterdir()):
        if p.name.startswith(prefix) and _LEFTOVER.fullmatch(p.name[len(prefix):]) and p.is_file():
            p.unlink()
            removed.append(p)
    return removed
