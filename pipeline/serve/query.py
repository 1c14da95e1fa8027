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

from typing import TYPE_CHECKING

import json
from pathlib import Path

import duckdb

from pipeline.store.runs import connect_retrying
from pipeline.store.versions import check_schema

if TYPE_CHECKING:  # pandas is imported where it is used: it costs ~1 s at CLI start-up
    import pandas as pd


class DatabaseMissing(Exception):
    """The database file does not exist (run ``mtg-pipeline refresh`` first)."""


class QueryRefused(Exception):
    """The statement needs a permission the connection does not grant; the message says which flag allows it."""


def connect(db_path: str | Path, *, allow_writes: bool = False, allow_external: bool = False
            ) -> duckdb.DuckDBPyConnection:
    """Open ``db_path`` for queries: read-only and without external access unless allowed.

    Raises DatabaseMissing if the file does not exist; SchemaMismatch (another schema version)
    or NotADatabase (another kind of file), both
    :class:`~pipeline.store.versions.DatabaseUnusable`; DatabaseBusy when another process holds
    the file read-write for longer than a few seconds.
    """
    db_path = Path(db_path)
    if not db_path.exists():
        raise DatabaseMissing(f"{db_path}: no database here; build one with `mtg-pipeline refresh --db {db_path}`")
    config = {"autoinstall_known_extensions": False, "autoload_known_extensions": allow_external}
    if not allow_external:
        config.update(enable_external_access=False, lock_configuration=True)
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


def run_query(db_path: str | Path, sql: str, params: dict[str, object] | None = None, *,
              allow_writes: bool = False, allow_external: bool = False) -> pd.DataFrame:
    """Execute ``sql`` with named ``$name`` parameters bound from ``params``; return a DataFrame.

    Raises QueryRefused for a statement the connection's permissions forbid, DatabaseMissing for a
    missing file, and duckdb.Error for any other SQL error.
    """
    con = connect(db_path, allow_writes=allow_writes, allow_external=allow_external)
    try:
        result = con.execute(sql, params) if params else con.execute(sql)
        import pandas as pd
        return result.df() if result.description else pd.DataFrame()
    except duckdb.PermissionException as exc:
        raise QueryRefused(f"refused: the statement reads or writes outside the database "
                           f"(files, ATTACH, COPY, extensions); pass --allow-external to permit it "
                           f"[{_first_line(exc)}]") from exc
    except duckdb.Error as exc:
        if "read-only mode" in str(exc):  # INSERT/UPDATE/DELETE/CREATE/DROP…, ATTACH ':memory:'
            raise QueryRefused(f"refused: the database is opened read-only; pass --allow-writes to modify it "
                               f"[{_first_line(exc)}]") from exc
        if "configuration has been locked" in str(exc):  # SET enable_external_access = true, SET threads …
            raise QueryRefused(f"refused: settings are locked while access outside the database is off; "
                               f"pass --allow-external to change them [{_first_line(exc)}]") from exc
        raise
    finally:
        con.close()


def _first_line(exc: Exception) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def format_frame(df: pd.DataFrame, fmt: str) -> str:
    """Render ``df`` as ``table`` (aligned text), ``csv`` or ``json`` (one JSON array of row objects)."""
    if fmt == "csv":
        return df.to_csv(index=False)
    if fmt == "json":
        return json.dumps(json.loads(df.to_json(orient="records", date_format="iso")), ensure_ascii=False, indent=1)
    if df.empty:
        return "(no rows)"
    import pandas as pd
    with pd.option_context("display.max_rows", None, "display.max_columns", None, "display.width", 200,
                           "display.max_colwidth", 80):
        return df.to_string(index=False)
