"""The one place that decides whether a database file can be read by this version of the code.

Every database records ``schema_version`` (:data:`pipeline.store.schema.SCHEMA_VERSION`) and
``grammar_version`` in its ``meta`` table. Readers — ``query``, ``card``, the refresh's
carry-over of ``runs`` and ``parse_cache`` — call :func:`check_schema` right after opening a
file; a file made with another schema version raises :class:`SchemaMismatch`, whose one-line
message names the rebuild command (``mtg-pipeline refresh --force --db PATH``). A different
grammar version is not an error: the ASTs stay valid for the grammar they name, and the next
refresh re-parses them (see docs/reliability.md § Schema versions).
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from pipeline.store.schema import SCHEMA_VERSION


class DatabaseUnusable(Exception):
    """The file at the database path cannot be used as this version's database; the message says what to do."""


class SchemaMismatch(DatabaseUnusable):
    """The database was built with another schema version (``found``: its ``meta.schema_version`` or None)."""

    def __init__(self, db_path: str | Path, found: str | None):
        self.db_path = str(db_path)
        self.found = found
        hint = rebuild_command(db_path)
        if found is None:
            what = "records no schema version (built before versions were recorded, or not by mtg-pipeline)"
        elif _as_int(found) is not None and _as_int(found) > SCHEMA_VERSION:
            what = (f"was built by a newer mtg-pipeline (schema version {found}; this one reads {SCHEMA_VERSION}); "
                    f"upgrade mtg-pipeline, or")
        else:
            what = f"was built by an older mtg-pipeline (schema version {found}; this one reads {SCHEMA_VERSION});"
        super().__init__(f"{db_path}: the database {what} rebuild it with `{hint}`")


class NotADatabase(DatabaseUnusable):
    """The file at the database path is not a DuckDB database (refresh refuses to overwrite it)."""

    def __init__(self, db_path: str | Path, reason: str):
        self.db_path = str(db_path)
        super().__init__(f"{db_path}: not a DuckDB database ({reason}); refusing to use or replace it — "
                         f"pass another --db, or move the file away")


def rebuild_command(db_path: str | Path) -> str:
    """The command that rebuilds ``db_path`` from scratch with this version."""
    return f"mtg-pipeline refresh --force --db {db_path}"


def read_versions(con: duckdb.DuckDBPyConnection) -> dict[str, str | None]:
    """``{"schema_version": …, "grammar_version": …}`` from ``meta`` (None for a missing key or table)."""
    try:
        meta = dict(con.execute("SELECT key, value FROM meta WHERE key IN ('schema_version', 'grammar_version')"
                                ).fetchall())
    except duckdb.Error:
        meta = {}
    return {"schema_version": meta.get("schema_version"), "grammar_version": meta.get("grammar_version")}


def check_schema(con: duckdb.DuckDBPyConnection, db_path: str | Path) -> dict[str, str | None]:
    """Raise :class:`SchemaMismatch` unless ``con``'s ``meta.schema_version`` is :data:`SCHEMA_VERSION`.

    Returns the versions (:func:`read_versions`) when they match.
    """
    versions = read_versions(con)
    if versions["schema_version"] != str(SCHEMA_VERSION):
        raise SchemaMismatch(db_path, versions["schema_version"])
    return versions


def check_schema_file(db_path: str | Path) -> dict[str, str | None] | None:
    """Open ``db_path`` read-only and :func:`check_schema` it; None when the file does not exist.

    Raises SchemaMismatch, or duckdb.Error when the file cannot be opened.
    """
    path = Path(db_path)
    if not path.exists():
        return None
    from pipeline.store.runs import connect_retrying  # runs imports this module

    con = connect_retrying(path, read_only=True)
    try:
        return check_schema(con, path)
    finally:
        con.close()


def _as_int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None
