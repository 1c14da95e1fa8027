"""Test hook: make a refresh kill itself at a named stage (crash-safety tests, docs/reliability.md).

Set ``MTG_PIPELINE_FAULT=after:<stage>`` and the process sends itself SIGKILL — no cleanup,
no ``finally``, no ``atexit``, exactly like a power cut or the OOM killer — right after that
stage of a refresh. The stages, in order:

* ``download`` — the remote sources (``--source scryfall``) are in the download cache;
* ``read``     — every source file is read and normalized (nothing written yet);
* ``parse``    — the new database file ``<db>.tmp-<pid>`` holds the cards and parsed abilities;
* ``load``     — every table of the new file is loaded and derived (mana);
* ``annotate`` — the rules annotation tables are in the new file;
* ``changes``  — the changelog (``card_changes``) of this run is in the new file;
* ``before_swap`` — the new file is complete and closed, just before ``os.replace``.

Unset (the normal case) it does nothing. Not for production use.
"""

from __future__ import annotations

import os
import signal

FAULT_ENV = "MTG_PIPELINE_FAULT"
STAGES = ("download", "read", "parse", "load", "annotate", "changes", "before_swap")


def fault_point(stage: str) -> None:
    """SIGKILL this process if ``$MTG_PIPELINE_FAULT`` is ``after:<stage>``; else return at once.

    ``stage`` must be one of :data:`STAGES` (ValueError otherwise, so a typo in a call site fails loudly).
    """
    if stage not in STAGES:
        raise ValueError(f"unknown fault stage {stage!r}; expected one of {STAGES}")
    if os.environ.get(FAULT_ENV) == f"after:{stage}":
        os.kill(os.getpid(), signal.SIGKILL)
