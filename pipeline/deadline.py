"""A whole-refresh deadline (issue 16 § 2: "a total deadline per download and per refresh").

Downloads have their own deadlines (``--deadline``, pipeline.sources.http); this one bounds the
whole run — reading, parsing, annotating, writing — so that a scheduled refresh stuck on any
stage ends, releases its lock and leaves the previous database untouched instead of holding the
lock until the next cron run finds it busy (exit 75).

:func:`refresh_deadline` arms ``SIGALRM`` (a POSIX interval timer, wall-clock seconds) in the
main thread; when it fires, :class:`RefreshTimedOut` is raised in the main thread wherever it is,
once — unless the build has called :func:`disarm` just before it swaps the new database in
(a refresh stopped after the swap would report a failure for a database it already replaced). The
refresh then fails like any other failed build: the temporary database is removed, the
failed run is recorded in the previous database, parse workers are terminated
(``multiprocessing.Pool`` on exit). A single DuckDB statement running in C is not interrupted:
the exception arrives when it returns.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Iterator

from pipeline.sources.errors import SourceError


class RefreshTimedOut(SourceError):
    """The refresh ran past its ``--max-time``; the message says how long it was allowed."""


@contextmanager
def refresh_deadline(seconds: float | None, where: str) -> Iterator[None]:
    """Raise :class:`RefreshTimedOut` (naming ``where``, the database path) in the main thread when
    the block runs longer than ``seconds`` (None or 0: no deadline). Outside the main thread, or
    where ``SIGALRM`` does not exist, no deadline is armed. Restores the previous handler and timer."""
    if not seconds or threading.current_thread() is not threading.main_thread() \
            or not hasattr(signal, "setitimer"):
        yield
        return

    def expired(signum, frame):
        signal.setitimer(signal.ITIMER_REAL, 0)
        raise RefreshTimedOut(where, f"the refresh took more than {seconds:g} s (--max-time) and was stopped; "
                                     f"the previous database is untouched")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def disarm() -> None:
    """Cancel a pending :func:`refresh_deadline` (no-op when none is armed or off the main thread).
    The builds call it right before ``os.replace`` swaps the new database in."""
    if hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
        signal.setitimer(signal.ITIMER_REAL, 0)
