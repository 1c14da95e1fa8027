"""The ``runs`` table: the one place refresh state is read and written.

A run is recorded in the database it produced (carried over on every rebuild). A run that
built nothing — ``unchanged`` or ``failed`` — is appended to the existing database in place
(only ``runs`` changes); if there is no database yet, one with the empty schema (and its
``meta.schema_version``) is created so the failure is still on record.

DuckDB lets one process hold a file read-write, or any number hold it read-only. A query that
has the database open read-only therefore blocks the in-place append for a moment, and a
``query --allow-writes`` blocks the refresh's read of the previous database: both are retried
for a few seconds (:data:`BUSY_WAIT`), then reported as :class:`DatabaseBusy`.
"""

from __future__ import annotations

import time
from dataclasses import astuple, dataclass
from datetime import datetime, timezone
from pathlib import Path

import duckdb

from pipeline.store.schema import SCHEMA_VERSION, columns_of, create_tables
from pipeline.store.storage import new_database_config
from pipeline.store.versions import NotADatabase

#: Seconds to retry opening a database another process holds (DuckDB file lock), then give up.
BUSY_WAIT = 10.0


class DatabaseBusy(Exception):
    """Another process holds the database file open in a conflicting mode (DuckDB's file lock) for too long."""


def _is_lock_conflict(exc: BaseException) -> bool:
    return isinstance(exc, duckdb.IOException) and "lock" in str(exc).lower()


def connect_retrying(db_path: Path, *, read_only: bool, wait: float = BUSY_WAIT, config: dict | None = None
                     ) -> duckdb.DuckDBPyConnection:
    """``duckdb.connect`` that retries for ``wait`` seconds while another process holds a conflicting lock.

    Raises DatabaseBusy after ``wait`` seconds; NotADatabase when the file exists but is not a
    DuckDB database; other duckdb.Error as they come.
    """
    import stat

    try:  # a FIFO or device at the path would block or never end inside DuckDB
        mode = Path(db_path).stat().st_mode
        if not stat.S_ISREG(mode):
            raise NotADatabase(db_path, "not a regular file")
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise NotADatabase(db_path, exc.strerror or str(exc)) from None
    deadline = time.monotonic() + wait
    delay = 0.05
    while True:
        try:
            return duckdb.connect(str(db_path), read_only=read_only, config=config or {})
        except duckdb.Error as exc:
            if "not a valid DuckDB database" in str(exc):
                raise NotADatabase(db_path, "DuckDB cannot read its header") from exc
            if not _is_lock_conflict(exc):
                raise
            if time.monotonic() >= deadline:
                raise DatabaseBusy(f"{db_path}: another process has the database open "
                                   f"({'for writing' if read_only else 'or is reading it'}) and kept it for "
                                   f"{wait:.0f}s; retry later [{str(exc).splitlines()[0]}]") from exc
        time.sleep(delay)
        delay = min(delay * 2, 0.5)


def open_previous(db_path: Path, wait: float = BUSY_WAIT) -> duckdb.DuckDBPyConnection | None:
    """Open the existing database read-only, or return None when there is none (missing or 0 bytes).

    Raises DatabaseBusy (held read-write by another process for ``wait`` seconds) or
    NotADatabase (some other file is at that path).
    """
    if not db_path.exists() or db_path.stat().st_size == 0:
        return None
    return connect_retrying(db_path, read_only=True, wait=wait)


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
    """Return the ``runs`` rows of ``db_path`` as dicts, oldest first ([] if there is no database or no runs table).

    Raises DatabaseBusy or NotADatabase (see :func:`open_previous`).
    """
    con = open_previous(db_path)
    if con is None:
        return []
    try:
        cur = con.execute("SELECT * FROM runs ORDER BY run_id")
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r)) for r in cur.fetchall()]
    except duckdb.Error:
        return []
    finally:
        con.close()


@dataclass
class PreviousState:
    """What a refresh reads of the existing database before deciding anything, in one read-only open:
    ``schema_version`` (``meta``, None when absent), ``runs`` (as :func:`previous_runs`) and
    ``files`` (the ``source_files`` rows of its build, by path: :class:`pipeline.sources.version.FileState`)."""

    schema_version: str | None
    runs: list[dict]
    files: dict


def read_state(db_path: Path) -> PreviousState:
    """Read :class:`PreviousState` of ``db_path`` (empty for no database; a missing table gives an empty part).

    Raises DatabaseBusy or NotADatabase (see :func:`open_previous`).
    """
    from pipeline.sources.version import FileState

    con = open_previous(db_path)
    if con is None:
        return PreviousState(None, [], {})
    try:
        version = _first(con, "SELECT value FROM meta WHERE key = 'schema_version'")
        runs = []
        try:
            cur = con.execute("SELECT * FROM runs ORDER BY run_id")
            names = [d[0] for d in cur.description]
            runs = [dict(zip(names, r)) for r in cur.fetchall()]
        except duckdb.Error:
            pass
        try:
            files = {r[0]: FileState(*r) for r in con.execute(
                "SELECT path, size, mtime_ns, sha256, kind, label FROM source_files").fetchall()}
        except duckdb.Error:  # a database built before source_files existed: every file is hashed
            files = {}
        return PreviousState(version, runs, files)
    finally:
        con.close()


def _first(con, sql: str):
    try:
        row = con.execute(sql).fetchone()
    except duckdb.Error:
        return None
    return row[0] if row else None


def next_run_id(runs: list[dict]) -> int:
    """The run id after the largest in ``runs`` (1 for none)."""
    return max((r["run_id"] for r in runs), default=0) + 1


def last_ok(runs: list[dict]) -> dict | None:
    """The most recent run with status 'ok', or None."""
    return next((r for r in reversed(runs) if r["status"] == "ok"), None)


def append_run(db_path: Path, record: RunRecord) -> None:
    """Append ``record`` to the ``runs`` table of ``db_path`` in place, creating an empty-schema database if absent.

    Retries while readers hold the file (see :data:`BUSY_WAIT`); raises DatabaseBusy after that,
    NotADatabase when the path holds another kind of file.
    """
    db_path.parent.mkdir(parents=True, exist_ok=True)
    fresh = not db_path.exists() or db_path.stat().st_size == 0
    if fresh and db_path.exists():
        db_path.unlink()  # a 0-byte file holds nothing; DuckDB cannot open it
    con = connect_retrying(db_path, read_only=False, config=new_database_config() if fresh else None)
    try:
        if fresh:
            create_tables(con)
            con.execute("INSERT INTO meta VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)])
        placeholders = ", ".join("?" * len(columns_of("runs")))
        con.execute(f"INSERT INTO runs VALUES ({placeholders})", list(record.row()))
    finally:
        con.close()
