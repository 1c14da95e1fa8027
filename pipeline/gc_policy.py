"""Fewer cyclic garbage collections while a refresh holds millions of live objects.

CPython's cyclic collector runs a young-generation pass every 700 net allocations and, now and
then, a full pass that visits every live container object. A refresh allocates the whole card
collection (every printing, ruling and decoded JSON value: millions of dicts, lists and
dataclasses) and keeps it alive to the end, so those passes find almost nothing to free but
visit everything: on the MTGJSON corpus reading alone took 9.4 s CPU with the default thresholds
and 5.9 s with :data:`THRESHOLDS` (benchmarks/README.md § Where the time went). Reference counting
still frees every acyclic object at once; only cycles wait longer to be found.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

#: (generation 0, 1, 2) thresholds during a refresh (CPython's default: 700, 10, 10).
THRESHOLDS = (100_000, 50, 100)


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Run the body with :data:`THRESHOLDS`, then restore the thresholds that were set before."""
    before = gc.get_threshold()
    gc.set_threshold(*THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def use_in_this_process() -> None:
    """Set :data:`THRESHOLDS` for the rest of this process (a parse worker: it only builds ASTs)."""
    gc.set_threshold(*THRESHOLDS)
