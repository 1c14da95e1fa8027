"""Run SQL against the database and format the result (table, csv, json).

Queries run on a connection that is read-only and has DuckDB's external access disabled
(``enable_external_access = false``, configuration locked): statements that write, ``ATTACH``,
``COPY … TO``, ``EXPORT DATABASE``, ``INSTALL`` and file-reading table functions (``read_csv``,
``glob``, …) are refused with :class:`QueryRefused` unless the caller allows them explicitly.
A database of another schema version is refused with
:class:`~pipeline.store.versions.SchemaMismatch` (naming the rebuild command); a refresh that
is appending its run record holds the file for a moment, and opening waits for it.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

import duckdb

from pipeline.paths import pid_alive

from pipeline.store.runs import connect_retrying
from pipeline.store.versions import check_schema

if TYPE_CHECKING:  # pandas is imported where it is used: it costs ~1 s at CLI start-up
    import pandas as pd


class DatabaseMissing(Exception):
    """The database file does not exist (run ``mtg-pipeline refresh`` first)."""


class QueryRefused(Exception):
    """The statement needs a permission the connection does not grant; the message says which flag allows it."""


#: Most a read-only query may spill to disk (DuckDB ``max_temp_directory_size``); DuckDB's default is 90 % of free disk.
SPILL_LIMIT = "4GiB"


def spill_dir() -> Path:
    """This process's spill directory for read-only queries, under the system temp dir, removed at exit.

    Spill directories of dead processes (killed queries) are removed when the next one is made.
    Not beside the database: a read-only reader must not leave files there (``<db>.tmp/``).
    """
    global _SPILL
    if _SPILL is None:
        root = Path(tempfile.gettempdir()) / f"mtg-pipeline-spill-{os.getuid()}"
        root.mkdir(mode=0o700, exist_ok=True)
        for old in root.iterdir():
            pid = old.name.split("-", 1)[0]
            if pid.isdigit() and not pid_alive(int(pid)):
                shutil.rmtree(old, ignore_errors=True)
        _SPILL = Path(tempfile.mkdtemp(prefix=f"{os.getpid()}-", dir=root))
        atexit.register(shutil.rmtree, _SPILL, True)
    return _SPILL


_SPILL: Path | None = None


def connect(db_path: str | Path, *, allow_writes: bool = False, allow_external: bool = False
            ) -> duckdb.DuckDBPyConnection:
    """Open ``db_path`` for queries: read-only and without external access unless allowed.

    A read-only connection spills to :func:`spill_dir`, at most :data:`SPILL_LIMIT`.
    Raises DatabaseMissing if the file does not exist; SchemaMismatch (another schema version)
    or NotADatabase (another kind of file), both
    :class:`~pipeline.store.versions.DatabaseUnusable`; DatabaseBusy when another process holds
    the file read-write for longer than a few seconds.
    """
    db_path = Path(db_path)
    if not db_path.exists():
        raise DatabaseMissing(f"{db_path}: no database here; build one with `mtg-pipeline refresh --db {db_path}`")
    config = {"autoinstall_known_extensions": False, "autoload_known_extensions": allow_external}
    if not allow_external:  # (DuckDB 2.0 applies temp_directory only when it comes after this key)
        config.update(enable_external_access=False)
    if not allow_writes:
        config.update(temp_directory=str(spill_dir()), max_temp_directory_size=SPILL_LIMIT)
    if not allow_external:
        config.update(lock_configuration=True)
    con = connect_retrying(db_path, read_only=not allow_writes, wait=5.0, config=config)
    try:
        check_schema(con, db_path)
    except BaseException:
        con.close()
        raise
    return con


def connect_read_only(db_path: str | Path) -> duckdb.DuckDBPyConnection:
    """Open ``db_path`` read-only without external access (see :func:`connect`)."""
    return connect(db_path)


@dataclass(frozen=True)
class QueryResult:
    """A query's ``relation`` (None for a statement that returns no rows) on its ``connection``."""

    connection: duckdb.DuckDBPyConnection
    relation: duckdb.DuckDBPyRelation | None
    sql: str


@contextmanager
def query_result(db_path: str | Path, sql: str, params: dict[str, object] | None = None, *,
                 allow_writes: bool = False, allow_external: bool = False) -> Iterator[QueryResult]:
    """Run ``sql`` with named ``$name`` parameters bound from ``params`` on a connection opened by
    :func:`connect`, and yield its :class:`QueryResult` (read the rows inside the ``with``; the
    connection is closed after it).

    Raises QueryRefused for a statement the connection's permissions forbid (also while the rows
    are read), DatabaseMissing for a missing file, and duckdb.Error for any other SQL error.
    """
    con = connect(db_path, allow_writes=allow_writes, allow_external=allow_external)
    try:
        try:
            yield QueryResult(con, execute(con, db_path, sql, params, allow_writes=allow_writes), sql)
        except duckdb.Error as exc:
            refusal = _refusal(exc)
            if refusal is None:
                raise
            raise refusal from exc
    finally:
        con.close()


def execute(con: duckdb.DuckDBPyConnection, db_path: str | Path, sql: str, params: dict[str, object] | None = None,
            *, allow_writes: bool = False) -> duckdb.DuckDBPyRelation | None:
    """Execute ``sql`` on a :func:`connect` connection, statement by statement; return the last one's result.

    The last statement's rows come back as a lazy relation (streamed by whoever reads it:
    ``to_arrow_reader``, ``df``), None when it returns none. ``params`` bind ``$name`` in the
    statements that use them. Without ``allow_writes``, an ``ATTACH`` (possible with
    --allow-external) that reaches the database itself read-write — through a hard link, a
    symlink or another spelling of its path — is detached and refused before the next statement
    runs, so writes stay refused. Raises duckdb.Error (turned into QueryRefused by :func:`query_result`).
    """
    # One statement at a time: an ATTACH is checked before the next statement runs.
    statements = con.extract_statements(sql)
    result = None
    for n, statement in enumerate(statements, start=1):
        used = {k: v for k, v in (params or {}).items() if f"${k}" in statement.query}
        if n < len(statements):
            con.execute(statement.query, used) if used else con.execute(statement.query)
        else:
            result = con.sql(statement.query, params=used) if used else con.sql(statement.query)
        if statement.type == duckdb.StatementType.ATTACH and not allow_writes:
            _refuse_writable_self(con, Path(db_path))
    return result


def _refuse_writable_self(con: duckdb.DuckDBPyConnection, db_path: Path) -> None:
    for name, path, readonly in con.execute("SELECT database_name, path, readonly FROM duckdb_databases() "
                                            "WHERE NOT internal AND path IS NOT NULL").fetchall():
        if readonly:
            continue
        try:
            same = os.path.samefile(path, db_path)
        except OSError:
            same = False
        if same:
            con.execute(f'DETACH "{name}"')
            raise QueryRefused(f"refused: ATTACH of the database itself ({path}) read-write; pass --allow-writes "
                               f"to modify it, or ATTACH … (READ_ONLY)")


def run_query(db_path: str | Path, sql: str, params: dict[str, object] | None = None, *,
              allow_writes: bool = False, allow_external: bool = False) -> pd.DataFrame:
    """Execute ``sql`` (see :func:`query_result`) and return its rows as a DataFrame (empty for a
    statement that returns no rows). Raises what :func:`query_result` raises."""
    import pandas as pd

    with query_result(db_path, sql, params, allow_writes=allow_writes, allow_external=allow_external) as result:
        return result.relation.df() if result.relation is not None else pd.DataFrame()


def _refusal(exc: duckdb.Error) -> QueryRefused | None:
    """The :class:`QueryRefused` that a DuckDB error of a forbidden statement means, else None."""
    if isinstance(exc, duckdb.PermissionException):
        return QueryRefused(f"refused: the statement reads or writes outside the database "
                            f"(files, ATTACH, COPY, extensions); pass --allow-external to permit it "
                            f"[{_first_line(exc)}]")
    if "read-only mode" in str(exc):  # INSERT/UPDATE/DELETE/CREATE/DROP…, ATTACH ':memory:'
        return QueryRefused(f"refused: the database is opened read-only; pass --allow-writes to modify it "
                            f"[{_first_line(exc)}]")
    if "configuration has been locked" in str(exc):  # SET enable_external_access = true, SET threads …
        return QueryRefused(f"refused: settings are locked while access outside the database is off; "
                            f"pass --allow-external to change them [{_first_line(exc)}]")
    return None


def _first_line(exc: Exception) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
