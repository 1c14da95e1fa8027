"""``query`` output read back by other tools: every file format (CSV, JSON, Parquet) read with pandas
and with DuckDB gives the database's values on list, struct and NULL columns; table output prints
NULL as ``NULL``; Parquet columns carry the database comment as Arrow field metadata."""

from __future__ import annotations

import json
import math

import duckdb
import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from pipeline.cli import main
from tests.conftest import bundled_database, rows

# Real cards: Altered Ego (an exception with a NULL condition, X extra counters), Clone (empty
# lists), Dack's Duplicate (a has_keyword exception), Forest (NULL mana cost; no copy effect: NULL lists).
SQL = """SELECT c.name, c.mana_cost, c.mana_value, c.colors, c.source_produced_mana, e.copy_kind, e.exceptions,
       e.extra_counters, e.copies
FROM cards c LEFT JOIN copy_effects e USING (oracle_id)
WHERE c.name IN ('Altered Ego', 'Clone', 'Dack''s Duplicate', 'Forest') ORDER BY c.name"""
COLUMNS = ["name", "mana_cost", "mana_value", "colors", "source_produced_mana", "copy_kind", "exceptions",
           "extra_counters", "copies"]
# the DuckDB types of SQL's columns, for reading CSV cells (JSON text) back
TYPES = {"colors": '["VARCHAR"]', "source_produced_mana": '["VARCHAR"]',
         "exceptions": '[{"kind": "VARCHAR", "text": "VARCHAR", "condition": {"text": "VARCHAR"}}]',
         "extra_counters": '[{"counter": "VARCHAR", "amount": "VARCHAR", "is_x": "BOOLEAN"}]'}


@pytest.fixture(scope="module")
def db():
    return bundled_database()


@pytest.fixture(scope="module")
def expected(db) -> list[dict]:
    got = [dict(zip(COLUMNS, r)) for r in rows(db, SQL)]
    by_name = {r["name"]: r for r in got}
    # the cases this test is about are really there
    assert by_name["Forest"]["mana_cost"] is None and by_name["Forest"]["exceptions"] is None
    assert by_name["Clone"]["exceptions"] == [] and by_name["Clone"]["colors"] == ["U"]
    assert by_name["Altered Ego"]["exceptions"] == [
        {"kind": "enters_with_counters", "text": "it enters with X additional +1/+1 counters on it", "condition": None}]
    assert by_name["Altered Ego"]["extra_counters"] == [{"counter": "+1/+1", "amount": "X", "is_x": True}]
    assert by_name["Dack's Duplicate"]["exceptions"] == [
        {"kind": "has_keyword", "text": "it has haste and dethrone", "condition": None}]
    return got


def query_to(db, fmt: str, path) -> None:
    result = CliRunner().invoke(main, ["query", "--db", str(db), "--format", fmt, "--output", str(path), SQL])
    assert result.exit_code == 0, result.output
    assert f"wrote 4 rows to {path}" in result.output


def plain(value):
    """A value read by pandas as plain Python: NaN/None → None, numpy arrays → lists (recursively)."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def pandas_records(df: pd.DataFrame) -> list[dict]:
    return [{k: plain(v) for k, v in r.items()} for r in df.to_dict("records")]


def test_csv_reads_back_with_pandas_and_duckdb(db, expected, tmp_path):
    out = tmp_path / "r.csv"
    query_to(db, "csv", out)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == ",".join(COLUMNS)
    assert lines[4] == "Forest,,0.0,[],,,,,"  # NULL is an empty field; an empty list is []
    nested = {c: (lambda v: json.loads(v) if v else None) for c in TYPES}
    assert pandas_records(pd.read_csv(out, converters=nested)) == expected
    cells = ", ".join(f"from_json({c}, '{TYPES[c]}') AS {c}" if c in TYPES else
                      f"CAST({c} AS DOUBLE) AS {c}" if c == "mana_value" else c for c in COLUMNS)
    back = duckdb.sql(f"SELECT {cells} FROM read_csv('{out}', all_varchar = true)").fetchall()
    assert [dict(zip(COLUMNS, r)) for r in back] == expected


def test_json_reads_back_with_pandas_and_duckdb(db, expected, tmp_path):
    out = tmp_path / "r.json"
    query_to(db, "json", out)
    assert json.loads(out.read_text(encoding="utf-8")) == expected  # native lists and objects, null
    assert pandas_records(pd.read_json(out, orient="records", dtype=False)) == expected
    back = duckdb.sql(f"SELECT {', '.join(COLUMNS)} FROM read_json('{out}', columns = {{"
                      f"name: 'VARCHAR', mana_cost: 'VARCHAR', mana_value: 'DOUBLE', colors: 'VARCHAR[]', "
                      f"source_produced_mana: 'VARCHAR[]', copy_kind: 'VARCHAR', "
                      f"exceptions: 'STRUCT(kind VARCHAR, text VARCHAR, condition STRUCT(text VARCHAR))[]', "
                      f"extra_counters: 'STRUCT(counter VARCHAR, amount VARCHAR, is_x BOOLEAN)[]', "
                      f"copies: 'VARCHAR'}})").fetchall()
    assert [dict(zip(COLUMNS, r)) for r in back] == expected


def test_parquet_reads_back_with_pandas_and_duckdb_and_carries_descriptions(db, expected, tmp_path):
    out = tmp_path / "r.parquet"
    query_to(db, "parquet", out)
    assert [dict(zip(COLUMNS, r)) for r in duckdb.sql(f"SELECT * FROM read_parquet('{out}')").fetchall()] == expected
    assert pandas_records(pd.read_parquet(out)) == expected
    fields = {f.name: (f.metadata or {}).get(b"description", b"").decode() for f in pq.read_schema(out)}
    comments = dict(rows(db, "SELECT table_name || '.' || column_name, comment FROM duckdb_columns() "
                             "WHERE table_name IN ('cards', 'copy_effects')"))
    # a column of one relation read by the query carries its comment; 'name' (both relations,
    # two different comments) and 'oracle_id'-like ambiguities carry none
    assert fields["mana_cost"] == comments["cards.mana_cost"]
    assert fields["exceptions"] == comments["copy_effects.exceptions"]
    assert fields["name"] == ""
    assert fields["extra_counters"].startswith("Counters the copy enters with: list of {counter, amount, is_x}")


def test_table_output_prints_null_as_null(db):
    result = CliRunner().invoke(main, ["query", "--db", str(db), SQL])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == COLUMNS
    forest = lines[4].split()
    assert forest == ["Forest", "NULL", "0.0", "[]", "NULL", "NULL", "NULL", "NULL", "NULL"]
    assert "None" not in result.output and "nan" not in result.output.lower().split()
    assert "[{'counter': +1/+1, 'amount': X, 'is_x': true}]" in lines[1]  # DuckDB's own rendering
