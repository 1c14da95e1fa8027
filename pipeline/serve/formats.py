"""Result formats that other tools read back: CSV and JSON (DuckDB's own writers), Parquet (pyarrow,
with each column's description), and the aligned text table of ``mtg-pipeline query``.

A result is a DuckDB relation of the read-only query connection (:mod:`pipeline.serve.query`).
It is streamed as Arrow record batches into a second, in-memory DuckDB connection that only
runs our own ``COPY … TO <file>`` (the query connection has external access off), or into a
pyarrow Parquet writer; the rows are never all held in memory.

* **CSV** (RFC 4180, DuckDB's CSV writer): a header row; NULL is an empty field and an empty
  string is ``""``; booleans ``true``/``false``, dates and timestamps ISO 8601; LIST, ARRAY,
  STRUCT, MAP and UNION values are JSON text (``["W","U"]``,
  ``[{"counter":"+1/+1","amount":"X","is_x":true}]``, NULL inside them ``null``); JSON columns
  are their JSON text. Read back with ``json.loads`` per cell (pandas:
  ``read_csv(f, converters={"produced_mana": json.loads})``) or DuckDB
  (``from_json(produced_mana, '["VARCHAR"]')``).
* **JSON**: one array of row objects (DuckDB's JSON writer): native lists and objects, NULL
  ``null``, JSON columns as nested JSON, dates ISO 8601.
* **Parquet**: native types; the file's key-value metadata is the caller's; each column whose
  description is known carries it as Arrow field metadata under ``description``.
* **table**: every value as DuckDB prints it (``[W, U]``, ``{'counter': +1/+1, …}``) and NULL
  as ``NULL``.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path
from typing import IO

import duckdb

from pipeline.serve.outputs import atomic_output
from pipeline.serve.terminal import safe_cell

#: Rows per Arrow record batch streamed from the query connection.
BATCH_ROWS = 10_000

#: The text NULL prints as in table output (as DuckDB's own CLI prints it).
NULL_TEXT = "NULL"

#: Rows the table format prints; a last line says how many more there are (the other formats write all).
TABLE_ROWS = 1_000

_NESTED = {"list", "array", "struct", "map", "union"}


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _is_nested(t: duckdb.typing.DuckDBPyType) -> bool:
    return t.id in _NESTED


def _is_json(t: duckdb.typing.DuckDBPyType) -> bool:
    return str(t) == "JSON"


def _copy(rel: duckdb.DuckDBPyRelation, projection: list[str], path: Path, options: str) -> int:
    """Stream ``rel`` into a private in-memory connection and ``COPY (SELECT projection) TO path``."""
    out = duckdb.connect(config={"autoinstall_known_extensions": False, "autoload_known_extensions": False})
    try:
        out.register("result", rel.to_arrow_reader(BATCH_ROWS))
        (rows,) = out.execute(f"COPY (SELECT {', '.join(projection)} FROM result) TO {_literal(str(path))} "
                              f"({options})").fetchone()
        return int(rows)
    finally:
        out.close()


def csv_projection(rel: duckdb.DuckDBPyRelation) -> list[str]:
    """SELECT list that writes ``rel``'s nested columns as JSON text and keeps the others."""
    return [f"to_json({_ident(c)}) AS {_ident(c)}" if _is_nested(t) else _ident(c)
            for c, t in zip(rel.columns, rel.types)]


def json_projection(rel: duckdb.DuckDBPyRelation) -> list[str]:
    """SELECT list that turns JSON columns (text after Arrow) back into JSON values."""
    return [f"json({_ident(c)}) AS {_ident(c)}" if _is_json(t) else _ident(c)
            for c, t in zip(rel.columns, rel.types)]


def write_file(rel: duckdb.DuckDBPyRelation, fmt: str, path: str | Path) -> int:
    """Write ``rel`` as ``fmt`` ('csv' or 'json', see the module docstring) to ``path`` through
    :func:`pipeline.serve.outputs.atomic_output` (a regular file is replaced atomically; a device or
    FIFO such as ``/dev/stdout`` is written into). Returns the row count. Raises ``duckdb.Error``
    for a query that fails while its rows are read, ``OSError`` for an unwritable path."""
    if fmt not in ("csv", "json"):
        raise ValueError(f"not a text file format: {fmt!r}")
    with atomic_output(path) as tmp:
        if fmt == "csv":
            return _copy(rel, csv_projection(rel), tmp, "FORMAT csv, HEADER true")
        return _copy(rel, json_projection(rel), tmp, "FORMAT json, ARRAY true")


def write_stream(rel: duckdb.DuckDBPyRelation, fmt: str, stream: IO[str] | None = None) -> int:
    """Write ``rel`` as ``fmt`` ('csv' or 'json') to ``stream`` (default ``sys.stdout``), through a
    temporary file. Returns the row count."""
    with tempfile.TemporaryDirectory(prefix="mtg-query-") as tmp:
        path = Path(tmp) / f"result.{fmt}"
        rows = write_file(rel, fmt, path)
        with path.open(encoding="utf-8") as fh:
            shutil.copyfileobj(fh, stream or sys.stdout)
    return rows


def table_output(rel: duckdb.DuckDBPyRelation | None) -> str:
    """The table format of ``rel`` (None: a statement without rows): :func:`table_text` of the
    first :data:`TABLE_ROWS` rows and :func:`more_rows_line`, or ``(no rows)``."""
    if rel is None:
        return "(no rows)"
    text = table_text(rel.columns, table_rows(rel, TABLE_ROWS))
    return text + more_rows_line(rel, TABLE_ROWS) if text != "(no rows)" else text


def print_result(rel: duckdb.DuckDBPyRelation | None, fmt: str, stream: IO[str] | None = None) -> None:
    """Print ``rel`` (None: a statement without rows) as ``fmt`` ('table', 'csv' or 'json') to
    ``stream`` (default ``sys.stdout``): :func:`table_output`, or :func:`write_stream`."""
    stream = stream or sys.stdout
    if fmt == "table":
        stream.write(table_output(rel) + "\n")
    elif rel is not None:
        write_stream(rel, fmt, stream)


def table_rows(rel: duckdb.DuckDBPyRelation, limit: int | None = None) -> list[tuple[str, ...]]:
    """``rel``'s rows (at most ``limit``) with every value as DuckDB prints it and NULL as ``NULL``."""
    text = rel.project(", ".join(f"CAST({_ident(c)} AS VARCHAR) AS {_ident(c)}" for c in rel.columns))
    if limit is not None:
        text = text.limit(limit)
    return [tuple(NULL_TEXT if v is None else v for v in row) for row in text.fetchall()]


def more_rows_line(rel: duckdb.DuckDBPyRelation, shown: int) -> str:
    """``"\n… N more rows (T in all; …)"`` when ``rel`` has more than ``shown`` rows, else ''.
    Counts by running the query once more as ``count(*)`` (no rows are held)."""
    ((total,),) = rel.aggregate("count(*)").fetchall()
    if total <= shown:
        return ""
    more = total - shown
    return (f"\n… {more:,} more row{'s' if more != 1 else ''} ({total:,} in all; "
            f"use --format csv|json|parquet --output FILE for all)")


def table_text(columns: list[str], rows: list[tuple[str, ...]]) -> str:
    """Aligned text of ``rows`` (strings, from :func:`table_rows`) under ``columns``; values longer
    than 80 characters are cut with '…'; control characters made visible
    (:func:`pipeline.serve.terminal.safe_cell`: an escape sequence in a card name cannot retitle the
    window or clear the screen); ``(no rows)`` when there are none."""
    if not rows:
        return "(no rows)"
    columns = [safe_cell(c) for c in columns]  # values are data, never terminal commands
    cut = [[v if len(v) <= 80 else v[:79] + "…" for v in map(safe_cell, row)] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in cut]) for i, c in enumerate(columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths)).rstrip()]
    lines += ["  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in cut]
    return "\n".join(lines)


def write_parquet(rel: duckdb.DuckDBPyRelation, path: str | Path, kv: dict[str, str],
                  descriptions: dict[str, str]) -> int:
    """Write ``rel`` to the Parquet file ``path`` (zstd), streaming, through
    :func:`pipeline.serve.outputs.atomic_output`.

    ``kv``: the file's key-value metadata. ``descriptions``: column name → description, stored
    as the Arrow field metadata ``description`` of that column (columns not named get none).
    Types survive (lists, structs, dates); JSON columns become text. Returns the row count.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = Path(path)
    reader = rel.to_arrow_reader(BATCH_ROWS)
    fields = [f.with_metadata({"description": descriptions[f.name]}) if f.name in descriptions else f
              for f in reader.schema]
    schema = pa.schema(fields, metadata={**(reader.schema.metadata or {}), **kv})
    rows = 0
    with atomic_output(path) as tmp:
        with pq.ParquetWriter(tmp, schema, compression="zstd") as writer:
            for batch in reader:
                writer.write_batch(pa.RecordBatch.from_arrays(batch.columns, schema=schema))
                rows += batch.num_rows
    return rows


def column_comments(con: duckdb.DuckDBPyConnection, relation: str) -> dict[str, str]:
    """Column name → comment of table or view ``relation`` (columns without a comment left out)."""
    return {c: comment for c, comment in con.execute(
        "SELECT column_name, comment FROM duckdb_columns() WHERE table_name = ? AND comment IS NOT NULL "
        "AND comment <> '' ORDER BY column_index", [relation]).fetchall()}


def referenced_relations(con: duckdb.DuckDBPyConnection, sql: str) -> set[str]:
    """Names of the tables and views ``sql`` reads, from DuckDB's own parse tree
    (``json_serialize_sql``: every ``BASE_TABLE`` reference); empty when it cannot be parsed."""
    import json

    try:
        # fetchall, not fetchone: DuckDB 2 keeps a result that was not fetched to its end pending on
        # the connection, and the query's own relation (read next) then raises ResourceInUseException
        ((tree,),) = con.execute("SELECT json_serialize_sql(?)", [sql]).fetchall()
    except duckdb.Error:
        return set()
    found: set[str] = set()
    stack = [json.loads(tree)]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("type") == "BASE_TABLE" and isinstance(node.get("table_name"), str):
                found.add(node["table_name"])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def query_descriptions(con: duckdb.DuckDBPyConnection, sql: str, columns: list[str]) -> dict[str, str]:
    """Descriptions for the result ``columns`` of ``sql``: a column named like a column of the
    tables and views the query reads (:func:`referenced_relations`) gets that column's comment,
    when those relations agree on one comment for that name; computed columns and ambiguous
    names get none."""
    found: dict[str, set[str]] = {}
    for relation in referenced_relations(con, sql):
        for column, comment in column_comments(con, relation).items():
            found.setdefault(column, set()).add(comment)
    return {c: next(iter(found[c])) for c in columns if len(found.get(c, ())) == 1}
