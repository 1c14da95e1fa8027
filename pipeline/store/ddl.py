"""DDL and bulk-insert helpers shared by every stage that adds tables or views to the database.

Every table and view carries a comment on itself and on each column (``COMMENT ON``), so
docs/schema.md can be generated from the live database (:mod:`pipeline.serve.schema_doc`).
"""

from __future__ import annotations

import contextlib
import itertools
from typing import TYPE_CHECKING

from typing import Iterable, Mapping, Sequence

import duckdb

if TYPE_CHECKING:  # pandas is imported where it is used: it costs ~1 s at CLI start-up
    import pandas as pd
    import pyarrow as pa

Column = tuple[str, str, str]  # (name, SQL type, one-line comment)


def sql_literal(text: str) -> str:
    """``text`` as a single-quoted SQL string literal (quotes doubled)."""
    return "'" + text.replace("'", "''") + "'"


_COMMENTS = [True]  # False inside without_comments()


@contextlib.contextmanager
def without_comments():
    """Leave out the ``COMMENT ON`` statements of :func:`comment_relation` in this block: for a scratch
    database whose rows are merged into another (pipeline/store/incremental.py); ≈ 300 statements."""
    _COMMENTS.append(False)
    try:
        yield
    finally:
        _COMMENTS.pop()


def comment_relation(con: duckdb.DuckDBPyConnection, name: str, comment: str,
                     column_comments: Mapping[str, str], *, kind: str = "TABLE") -> None:
    """Set the comment of table or view ``name`` (``kind`` 'TABLE' or 'VIEW') and of its columns
    (nothing inside :func:`without_comments`)."""
    if not _COMMENTS[-1]:
        return
    con.execute(f"COMMENT ON {kind} {name} IS {sql_literal(comment)}")
    for column, text in column_comments.items():
        con.execute(f"COMMENT ON COLUMN {name}.{column} IS {sql_literal(text)}")


def create_table(con: duckdb.DuckDBPyConnection, name: str, comment: str, columns: Sequence[Column],
                 *, replace: bool = False) -> None:
    """Create table ``name`` with ``columns`` and their comments (dropping an existing one if ``replace``)."""
    if replace:
        con.execute(f"DROP TABLE IF EXISTS {name}")
    con.execute(f"CREATE TABLE {name} ({', '.join(f'{n} {t}' for n, t, _ in columns)})")
    comment_relation(con, name, comment, {n: c for n, _, c in columns})


#: Rows per Arrow batch when :func:`insert_rows` is given tuples: the Python rows and their Arrow copy
#: of one batch are alive at a time, not those of the whole table (the parse cache is ≈ 0.3 GB as one batch).
BATCH_ROWS = 4096


def insert_rows(con: duckdb.DuckDBPyConnection, table: str, columns: Sequence[str],
                rows: Iterable[Sequence] | pd.DataFrame | pa.Table) -> int:
    """Insert ``rows`` (tuples in ``columns`` order, a DataFrame or an Arrow table with those columns).

    Tuples go to DuckDB as Arrow tables built column by column, :data:`BATCH_ROWS` rows at a time
    (a bulk load, no pandas and no row-wise INSERT; memory bounded by one batch); each value is cast
    to the table's column type by the INSERT. Returns the number of rows inserted.
    """
    import pyarrow as pa

    if hasattr(rows, "num_rows"):  # a pyarrow Table: DuckDB scans its buffers directly
        return _insert(con, table, columns, rows, rows.num_rows)
    if _is_frame(rows):
        return _insert(con, table, columns, rows, len(rows))
    count = 0
    it = iter(rows)
    while True:
        batch = list(itertools.islice(it, BATCH_ROWS))
        if not batch:
            return count
        try:
            data = pa.table({c: pa.array([r[i] for r in batch]) for i, c in enumerate(columns)})
        except (pa.ArrowInvalid, pa.ArrowTypeError):  # a column mixing Python types: let pandas hold it as objects
            import pandas as pd
            data = pd.DataFrame(batch, columns=list(columns))
        count += _insert(con, table, columns, data, len(batch))
        del batch, data


def _insert(con: duckdb.DuckDBPyConnection, table: str, columns: Sequence[str], data, count: int) -> int:
    """INSERT the Arrow table or DataFrame ``data`` (``count`` rows) into ``table``; return ``count``."""
    if not count:
        return 0
    view = f"_insert_{table}"
    con.register(view, data)
    try:
        con.execute(f"INSERT INTO {table} ({', '.join(columns)}) SELECT {', '.join(columns)} FROM {view}")
    finally:
        con.unregister(view)
    return count


def _is_frame(rows) -> bool:
    """True for a pandas DataFrame, told without importing pandas."""
    return type(rows).__name__ == "DataFrame" and hasattr(rows, "columns")
