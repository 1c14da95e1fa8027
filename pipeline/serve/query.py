"""Run SQL against the database read-only and format the result (table, csv, json)."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pandas as pd


class DatabaseMissing(Exception):
    """The database file does not exist (run ``mtg-pipeline refresh`` first)."""


def connect_read_only(db_path: str | Path) -> duckdb.DuckDBPyConnection:
    """Open ``db_path`` read-only. Raises DatabaseMissing if the file does not exist."""
    db_path = Path(db_path)
    if not db_path.exists():
        raise DatabaseMissing(f"{db_path}: no database here; build one with `mtg-pipeline refresh --db {db_path}`")
    return duckdb.connect(str(db_path), read_only=True)


def run_query(db_path: str | Path, sql: str, params: dict[str, object] | None = None) -> pd.DataFrame:
    """Execute ``sql`` (with named ``$name`` parameters bound from ``params``) read-only; return a DataFrame."""
    con = connect_read_only(db_path)
    try:
        return con.execute(sql, params or None).df() if params else con.sql(sql).df()
    finally:
        con.close()


def format_frame(df: pd.DataFrame, fmt: str) -> str:
    """Render ``df`` as ``table`` (aligned text), ``csv`` or ``json`` (one JSON array of row objects)."""
    if fmt == "csv":
        return df.to_csv(index=False)
    if fmt == "json":
        return json.dumps(json.loads(df.to_json(orient="records", date_format="iso")), ensure_ascii=False, indent=1)
    if df.empty:
        return "(no rows)"
    with pd.option_context("display.max_rows", None, "display.max_columns", None, "display.width", 200,
                           "display.max_colwidth", 80):
        return df.to_string(index=False)
