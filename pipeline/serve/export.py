"""Parquet export: every public table and view of a database, and single query results.

Files are streamed by pyarrow (:func:`pipeline.serve.formats.write_parquet`); each file carries
key-value metadata naming the database's source, source version, grammar version, schema
version, the exported relation and the export time, so a Parquet file can be traced back to the
build it came from, and each column carries its database comment as Arrow field metadata
``description``. Each file is written under a temporary name and renamed, so a reader never
sees a half-written file.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import duckdb

from pipeline.serve.formats import column_comments, query_descriptions, write_parquet
from pipeline.serve.query import DatabaseMissing, QueryResult
from pipeline.store.runs import connect_retrying
from pipeline.store.views import DEPRECATED_ALIASES

#: Tables not exported: the parse cache is the build's own memo (face-text hash → ability
#: records), not data for users.
INTERNAL_TABLES: tuple[str, ...] = ("parse_cache",)

#: ``meta`` keys copied into every file's key-value metadata.
META_KEYS: tuple[str, ...] = ("source", "source_version", "grammar_version", "schema_version")


@dataclass(frozen=True)
class ExportedFile:
    """One written Parquet file: relation ``name``, ``kind`` ('table' or 'view'), ``rows``, ``path``."""

    name: str
    kind: str
    rows: int
    path: Path


def public_relations(con: duckdb.DuckDBPyConnection) -> list[tuple[str, str]]:
    """Return ``[(name, 'table'|'view')]`` of the user-facing relations in schema ``main``, by name.

    Leaves out :data:`INTERNAL_TABLES`, the deprecated view aliases
    (:data:`pipeline.store.views.DEPRECATED_ALIASES`), DuckDB's internal views and temporary objects.
    """
    rows = con.execute("""
        SELECT table_name, 'table' FROM duckdb_tables()
        WHERE schema_name = 'main' AND database_name = current_database() AND NOT internal AND NOT temporary
        UNION ALL
        SELECT view_name, 'view' FROM duckdb_views()
        WHERE schema_name = 'main' AND database_name = current_database() AND NOT internal AND NOT temporary
        ORDER BY 1""").fetchall()
    return [(name, kind) for name, kind in rows if name not in INTERNAL_TABLES and name not in DEPRECATED_ALIASES]


def export_metadata(con: duckdb.DuckDBPyConnection, exported_at: datetime | None = None) -> dict[str, str]:
    """Key-value metadata for the files exported from ``con``: :data:`META_KEYS` from the ``meta``
    table ('' when absent) and ``exported_at`` (ISO 8601 UTC, seconds)."""
    try:
        meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
    except duckdb.Error:
        meta = {}
    out = {k: str(meta.get(k) or "") for k in META_KEYS}
    out["exported_at"] = (exported_at or datetime.now(timezone.utc)).isoformat(timespec="seconds")
    return out


def export_parquet(db_path: str | Path, out_dir: str | Path, *,
                   exported_at: datetime | None = None) -> list[ExportedFile]:
    """Write every public table and view of the database ``db_path`` to ``out_dir/<name>.parquet``.

    The database is opened read-only. Every file has the key-value metadata of
    :func:`export_metadata` plus ``relation`` (the table or view name) and ``relation_kind``, and
    each column its comment in the database as Arrow field metadata ``description``.
    Returns the files written, by name. Raises
    :class:`~pipeline.serve.query.DatabaseMissing` when ``db_path`` does not exist and
    ``duckdb.Error`` (naming the relation) when one cannot be exported.
    """
    require_database(db_path)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    con = connect_retrying(Path(db_path), read_only=True)  # trusted statements only: SELECT * of each relation
    try:
        con.execute("SET enable_progress_bar = false")
        meta = export_metadata(con, exported_at)
        written = []
        for name, kind in public_relations(con):
            path = out_dir / f"{name}.parquet"
            try:
                rows = write_parquet(con.table(name), path, {**meta, "relation": name, "relation_kind": kind},
                                     column_comments(con, name))
            except duckdb.Error as exc:
                raise type(exc)(f"export of {kind} {name} to {path}: {exc}") from None
            written.append(ExportedFile(name, kind, rows, path))
        return written
    finally:
        con.close()


def write_query_parquet(result: QueryResult, path: str | Path) -> int:
    """Write the rows of ``result`` (:func:`pipeline.serve.query.query_result`: read-only, DuckDB
    external access disabled unless allowed) to the Parquet file ``path`` (zstd, streamed), with
    the metadata of :func:`export_metadata` plus ``query`` (the SQL text), and as each column's
    ``description`` the comment of the same-named column of the tables and views the query reads
    (:func:`pipeline.serve.formats.query_descriptions`). Column types survive (lists, structs,
    dates; JSON becomes text). Returns the row count; a statement without rows writes no file
    and returns 0. Raises ``duckdb.Error``.
    """
    if result.relation is None:
        return 0
    meta = export_metadata(result.connection)
    descriptions = query_descriptions(result.connection, result.sql, result.relation.columns)
    return write_parquet(result.relation, path, {**meta, "query": result.sql}, descriptions)


def require_database(db_path: str | Path) -> None:
    """Raise :class:`~pipeline.serve.query.DatabaseMissing` when ``db_path`` does not exist."""
    if not Path(db_path).exists():
        raise DatabaseMissing(f"{db_path}: no database here; build one with `mtg-pipeline refresh --db {db_path}`")
