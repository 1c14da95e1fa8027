"""The ``runs`` table: the one place refresh state is read and written.

A run is recorded in the database it produced (carried over on every rebuild). A run that
built nothing — ``unchanged`` or ``failed`` — is appended to the existing database in place
(only ``runs`` changes); if there is no database yet, one with the empty schema is created
so the failure is still on record.
"""

from __future__ import annotations

from dataclasses import astuple, dataclass
from datetime import datetime, timezone
from pathlib import Path

import duckdb

from pipeline.store.schema import TABLES, create_tables


@dataclass
class RunRecord:
    """One ``runs`` row; field order is the table's column order (see pipeline.store.schema)."""

    run_id: int
    started_at: datetime
    finished_at: datetime | None
    source: str
    source_version: str | None
    status: str
    card_count: int | None = None
    face_count: int | None = None
    ability_count: int | None = None
    ruling_count: int | None = None
    parsed_count: int | None = None
    grammar_version: str | None = None
    seconds: float | None = None
    error: str | None = None

    def row(self) -> tuple:
        """The record as a tuple in column order."""
        return astuple(self)


def now() -> datetime:
    """The current time, UTC, timezone-aware."""
    return datetime.now(timezone.utc)


def previous_runs(db_path: Path) -> list[dict]:
    """Return the ``runs`` rows of ``db_path`` as dicts, oldest first ([] if there is no readable database)."""
    if not db_path.exists():
        return []
    try:
        con = duckdb.connect(str(db_path), read_only=True)
    except duckdb.Error:
        return []
    try:
        cur = con.execute("SELECT * FROM runs ORDER BY run_id")
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r)) for r in cur.fetchall()]
    except duckdb.Error:
        return []
    finally:
        con.close()


def next_run_id(runs: list[dict]) -> int:
    """The run id after the largest in ``runs`` (1 for none)."""
    return max((r["run_id"] for r in runs), default=0) + 1


def last_ok(runs: list[dict]) -> dict | None:
    """The most recent run with status 'ok', or None."""
    return next((r for r in reversed(runs) if r["status"] == "ok"), None)


def append_run(db_path: Path, record: RunRecord) -> None:
    """Append ``record`` to the ``runs`` table of ``db_path`` in place, creating an empty-schema database if absent.

    Raises duckdb.Error if the database is locked by another process.
    """
    db_path.parent.mkdir(parents=True, exist_ok=True)
    fresh = not db_path.exists()
    con = duckdb.connect(str(db_path))
    try:
        if fresh:
            create_tables(con)
        placeholders = ", ".join("?" * len(TABLES["runs"][1]))
        con.execute(f"INSERT INTO runs VALUES ({placeholders})", list(record.row()))
    finally:
        con.close()
