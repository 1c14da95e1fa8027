"""Generate ``docs/schema.md`` from a live database: every table and view, its columns, types
and the one-line meaning stored with each (``COMMENT ON``), read from DuckDB's catalog
functions ``duckdb_tables()``, ``duckdb_views()`` and ``duckdb_columns()``.

The output depends only on the database's catalog (no row counts, no build time), so a fresh
build from the bundled snapshot regenerates the committed file byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb

from pipeline.serve.export import INTERNAL_TABLES, require_database
from pipeline.store.schema import META_KEYS
from pipeline.store.views import DEPRECATED_ALIASES

REGENERATE = "mtg-pipeline schema-doc --fresh --output docs/schema.md"

NO_COMMENT = "(no comment in the database)"


@dataclass(frozen=True)
class Column:
    """One column: ``name``, DuckDB ``type`` as the catalog spells it, ``comment`` (None when absent)."""

    name: str
    type: str
    comment: str | None


@dataclass(frozen=True)
class Relation:
    """One table or view (``kind`` 'table' | 'view') of schema ``main`` with its comment and columns."""

    name: str
    kind: str
    comment: str | None
    columns: tuple[Column, ...]


def read_catalog(con: duckdb.DuckDBPyConnection) -> list[Relation]:
    """Return every non-internal, non-temporary table and view of schema ``main``: tables first,
    then views, each group by name; columns in their order."""
    rels = con.execute("""
        SELECT table_name, 'table' AS kind, comment FROM duckdb_tables()
        WHERE schema_name = 'main' AND database_name = current_database() AND NOT internal AND NOT temporary
        UNION ALL
        SELECT view_name, 'view', comment FROM duckdb_views()
        WHERE schema_name = 'main' AND database_name = current_database() AND NOT internal AND NOT temporary
        ORDER BY kind, 1""").fetchall()
    cols: dict[str, list[Column]] = {}
    for table, name, type_, comment in con.execute("""
            SELECT table_name, column_name, data_type, comment FROM duckdb_columns()
            WHERE schema_name = 'main' AND database_name = current_database() AND NOT internal
            ORDER BY table_name, column_index""").fetchall():
        cols.setdefault(table, []).append(Column(name, type_, comment or None))
    return [Relation(name, kind, comment or None, tuple(cols.get(name, ()))) for name, kind, comment in rels]


def read_meta_keys(con: duckdb.DuckDBPyConnection) -> list[tuple[str, str | None]]:
    """``[(key, meaning)]`` of every key in the database's ``meta`` table, by key; the meaning
    from :data:`pipeline.store.schema.META_KEYS` (None for a key not documented there).
    Empty when there is no ``meta`` table."""
    try:
        keys = [k for (k,) in con.execute("SELECT key FROM meta ORDER BY key").fetchall()]
    except duckdb.CatalogException:
        return []
    return [(k, META_KEYS.get(k)) for k in keys]


def missing_comments(relations: list[Relation], meta_keys: list[tuple[str, str | None]] = ()) -> list[str]:
    """Names ('table', 'table.column' or 'meta[key]') that have no comment, in document order."""
    out = []
    for rel in relations:
        if not rel.comment:
            out.append(rel.name)
        out += [f"{rel.name}.{c.name}" for c in rel.columns if not c.comment]
    return out + [f"meta[{key}]" for key, meaning in meta_keys if not meaning]


def render(relations: list[Relation], meta_keys: list[tuple[str, str | None]] = ()) -> str:
    """Render ``relations`` (and, under the ``meta`` table, ``meta_keys`` as from
    :func:`read_meta_keys`) as the Markdown text of docs/schema.md."""
    lines = [
        "# Database schema",
        "",
        "<!-- Generated from a live database by pipeline/serve/schema_doc.py; do not edit by hand. -->",
        "",
        "Generated from a database built from the bundled snapshot: every table and view, its columns,",
        "their DuckDB types and the one-line meaning stored with each in the database itself",
        "(`COMMENT ON`; query them with `SELECT table_name, column_name, comment FROM duckdb_columns()`).",
        f"Regenerate with `{REGENERATE}`; a test fails when this file differs from a fresh build.",
        "",
        "Views are built on the ability ASTs (`abilities.ast`, docs/ast.md) and return no rows, rather than",
        "an error, where the grammar produces no such node. Tables marked *internal* and views marked",
        "*deprecated alias* (the old `v_…` names, kept for one release) are left out of",
        "`mtg-pipeline export --parquet`.",
        "",
        "## Contents",
        "",
        "| name | kind | meaning |",
        "|---|---|---|",
    ]
    for rel in relations:
        kind = rel.kind + (" (internal)" if rel.name in INTERNAL_TABLES else
                           " (deprecated alias)" if rel.name in DEPRECATED_ALIASES else "")
        lines.append(f"| [`{rel.name}`](#{_anchor(rel.name)}) | {kind} | "
                     f"{_cell(rel.comment)} |")
    for heading, kind in (("Tables", "table"), ("Views", "view")):
        group = [r for r in relations if r.kind == kind]
        if not group:
            continue
        lines += ["", f"## {heading}"]
        for rel in group:
            internal = (" *(internal: not exported)*" if rel.name in INTERNAL_TABLES else
                        " *(deprecated alias: not exported)*" if rel.name in DEPRECATED_ALIASES else "")
            lines += ["", f"### {rel.name}", "", f"{_text(rel.comment)}{internal}", "",
                      "| column | type | meaning |", "|---|---|---|"]
            lines += [f"| `{c.name}` | `{_cell(c.type)}` | {_cell(c.comment)} |" for c in rel.columns]
            if rel.name == "meta" and meta_keys:
                lines += ["", "Keys:", "", "| key | meaning |", "|---|---|"]
                lines += [f"| `{key}` | {_cell(meaning)} |" for key, meaning in meta_keys]
    return "\n".join(lines) + "\n"


def generate(db_path: str | Path) -> str:
    """Open ``db_path`` read-only and return its docs/schema.md text.
    Raises :class:`~pipeline.serve.query.DatabaseMissing` when the file does not exist."""
    require_database(db_path)
    from pipeline.store.runs import connect_retrying

    con = connect_retrying(Path(db_path), read_only=True)  # waits out a refresh appending its run record
    try:
        return render(read_catalog(con), read_meta_keys(con))
    finally:
        con.close()


def _anchor(name: str) -> str:
    # GitHub heading anchors: lower case, spaces → '-', underscores kept
    return name.lower()


def _text(comment: str | None) -> str:
    return " ".join((comment or NO_COMMENT).split())


def _cell(text: str | None) -> str:
    return _text(text).replace("|", "\\|")
