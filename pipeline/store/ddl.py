"""DDL and bulk-insert helpers shared by every stage that adds tables or views to the database.

Every table and view carries a comment on itself and on each column (``COMMENT ON``), so
docs/schema.md can be generated from the live database (:mod:`pipeline.serve.schema_doc`).
"""

from __future__ import annotations

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


def comment_relation(con: duckdb.DuckDBPyConnection, name: str, comment: str,
                     column_comments: Mapping[str, str], *, kind: str = "TABLE") -> None:
    """Set the comment of table or view ``name`` (``kind`` 'TABLE' or 'VIEW') and of its columns."""
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


def insert_rows(con: duckdb.DuckDBPyConnection, table: str, columns: Sequence[str],
                rows: Iterable[Sequence] | pd.DataFrame | pa.Table) -> int:
    """Insert ``rows`` (tuples in ``columns`` order, a DataFrame or an Arrow table with those columns) in one statement.

    Returns the number of rows inserted.
    """
    import pandas as pd
    if hasattr(rows, "num_rows"):  # a pyarrow Table: DuckDB scans its buffers directly
        df = rows
        if rows.num_rows == 0:
            return 0
    else:
        df = rows if isinstance(rows, pd.DataFrame) else pd.DataFrame(list(rows), columns=list(columns))
        if df.empty:
            return 0
    view = f"_insert_{table}"
    con.register(view, df)
    try:
        con.execute(f"INSERT INTO {table} ({', '.join(columns)}) SELECT {', '.join(columns)} FROM {view}")
    finally:
        con.unregister(view)
    return len(df)
