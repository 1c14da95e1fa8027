"""Parquet export: every public table and view of a database, and single query results.

Files are written by DuckDB's ``COPY … TO … (FORMAT parquet, KV_METADATA {…})``; each file
carries key-value metadata naming the database's source, source version, grammar version,
schema version, the exported relation and the export time, so a Parquet file can be traced
back to the build it came from. Each file is written under a temporary name and renamed, so a
reader never sees a half-written file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import duckdb

from pipeline.serve.query import DatabaseMissing
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
    :func:`export_metadata` plus ``relation`` (the table or view name) and ``relation_kind``.
    Returns the files written, by name. Raises
    :class:`~pipeline.serve.query.DatabaseMissing` when ``db_path`` does not exist and
    ``duckdb.Error`` (naming the relation) when one cannot be exported.
    """
    require_database(db_path)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect(str(db_path), read_only=True)  # trusted statements only: COPY of each relation
    try:
        con.execute("SET enable_progress_bar = false")
        meta = export_metadata(con, exported_at)
        written = []
        for name, kind in public_relations(con):
            path = out_dir / f"{name}.parquet"
            try:
                _copy(con, f'SELECT * FROM "{name}"', path, {**meta, "relation": name, "relation_kind": kind})
                (rows,) = con.execute(f"SELECT count(*) FROM read_parquet({_quote(str(path))})").fetchall()[0]
            except duckdb.Error as exc:
                raise type(exc)(f"export of {kind} {name} to {path}: {exc}") from None
            written.append(ExportedFile(name, kind, rows, path))
        return written
    finally:
        con.close()


def write_query_parquet(db_path: str | Path, sql: str, params: dict[str, object] | None,
                        path: str | Path) -> int:
    """Run ``sql`` on ``db_path`` with named parameters ``params`` (``$name``; bound, never
    formatted into the SQL) and write the result to the Parquet file ``path`` (zstd), with the
    metadata of :func:`export_metadata` plus ``query`` (the SQL text). Returns the row count.

    The query runs like ``mtg-pipeline query``: read-only, DuckDB external access disabled (no
    files, ATTACH, COPY or extensions; configuration locked). The result is fetched as Arrow and
    written by pyarrow, so column types survive (lists, dates; JSON becomes text). Raises
    :class:`~pipeline.serve.query.DatabaseMissing` or ``duckdb.Error``.
    """
    import pyarrow.parquet as pq

    path = Path(path)
    require_database(db_path)
    con = duckdb.connect(str(db_path), read_only=True, config={
        "autoinstall_known_extensions": False, "autoload_known_extensions": False,
        "enable_external_access": False, "lock_configuration": True})
    try:
        meta = export_metadata(con)
        rel = con.sql(sql, params=params) if params else con.sql(sql)
        table = rel.to_arrow_table()
    finally:
        con.close()
    kv = {**(table.schema.metadata or {}), **{k.encode(): v.encode() for k, v in {**meta, "query": sql}.items()}}
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        pq.write_table(table.replace_schema_metadata(kv), tmp, compression="zstd")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return table.num_rows


def require_database(db_path: str | Path) -> None:
    """Raise :class:`~pipeline.serve.query.DatabaseMissing` when ``db_path`` does not exist."""
    if not Path(db_path).exists():
        raise DatabaseMissing(f"{db_path}: no database here; build one with `mtg-pipeline refresh --db {db_path}`")


def _copy(con: duckdb.DuckDBPyConnection, select: str, path: Path, kv: dict[str, str]) -> None:
    """COPY ``select`` to ``path`` as zstd Parquet with key-value metadata ``kv``, atomically."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}.parquet")
    kv_sql = ", ".join(f'"{k}": {_quote(v)}' for k, v in kv.items())
    try:
        con.execute(f"COPY ({select}) TO {_quote(str(tmp))} "
                    f"(FORMAT parquet, COMPRESSION zstd, KV_METADATA {{{kv_sql}}})")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
