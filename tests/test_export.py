"""Parquet export (`mtg-pipeline export --parquet`, `query --format parquet`): every public
table and view round-trips into DuckDB and pandas with the same row counts, with metadata."""

from __future__ import annotations

from datetime import datetime

import duckdb
import pandas as pd
import pytest
from click.testing import CliRunner

from pipeline.cli import main
from pipeline.store.views import DEPRECATED_ALIASES
from tests.conftest import bundled_database, rows


@pytest.fixture(scope="module")
def db():
    return bundled_database()


@pytest.fixture(scope="module")
def exported(db, tmp_path_factory):
    out = tmp_path_factory.mktemp("parquet")
    result = CliRunner().invoke(main, ["export", "--parquet", str(out), "--db", str(db)])
    assert result.exit_code == 0, result.output
    return out


def kv_metadata(path) -> dict[str, str]:
    return dict(duckdb.sql(f"SELECT decode(key), decode(value) FROM parquet_kv_metadata('{path}')").fetchall())


def test_every_public_relation_is_exported_and_parse_cache_and_deprecated_aliases_are_not(db, exported):
    public = {name for (name,) in rows(db, """SELECT table_name FROM duckdb_tables() WHERE NOT internal
                                              UNION SELECT view_name FROM duckdb_views() WHERE NOT internal""")}
    files = {p.stem for p in exported.glob("*.parquet")}
    assert files == public - {"parse_cache"} - set(DEPRECATED_ALIASES)
    assert set(DEPRECATED_ALIASES) <= public
    assert {"cards", "abilities", "rulings", "mana_abilities", "mana_producers", "copy_effects",
            "cost_components", "tap_abilities", "untap_abilities", "x_enters_effects"} <= files
    assert not list(exported.glob(".*"))  # no temporary files left


def test_parquet_round_trips_into_duckdb_and_pandas_with_same_row_counts(db, exported):
    for path in sorted(exported.glob("*.parquet")):
        (expected,) = rows(db, f'SELECT count(*) FROM "{path.stem}"')[0]
        (in_duckdb,) = duckdb.sql(f"SELECT count(*) FROM read_parquet('{path}')").fetchall()[0]
        in_pandas = len(pd.read_parquet(path))
        assert (path.stem, in_duckdb, in_pandas) == (path.stem, expected, expected)
    assert rows(db, "SELECT count(*) FROM cards") == [(4372,)]


def test_values_and_types_survive(db, exported):
    cards = pd.read_parquet(exported / "cards.parquet")
    elves = cards[cards["name"] == "Llanowar Elves"].iloc[0]
    assert (elves["mana_cost"], elves["mana_value"], list(elves["produced_mana"])) == ("{G}", 1.0, ["G"])
    back = duckdb.sql(f"SELECT name, produced_mana, mana_value FROM read_parquet('{exported / 'cards.parquet'}') "
                      "WHERE name = 'Birds of Paradise'").fetchall()
    assert back == [("Birds of Paradise", ["W", "U", "B", "R", "G"], 1.0)]
    copies, cards_file = exported / "copy_effects.parquet", exported / "cards.parquet"
    copy = duckdb.sql(f"SELECT extra_counters FROM read_parquet('{copies}') c JOIN read_parquet('{cards_file}') k "
                      "USING (oracle_id) WHERE k.name = 'Altered Ego'").fetchall()
    assert copy == [([{"counter": "+1/+1", "amount": "X", "is_x": True}],)]


def test_key_value_metadata(db, exported):
    meta = dict(rows(db, "SELECT key, value FROM meta"))
    kv = kv_metadata(exported / "mana_producers.parquet")
    assert kv["source"] == "mtgjson" and kv["source_version"] == meta["source_version"]
    assert kv["source_version"].startswith("5.2.0+20220425+sha256:")
    assert kv["grammar_version"] == meta["grammar_version"] and kv["schema_version"] == meta["schema_version"]
    assert (kv["relation"], kv["relation_kind"]) == ("mana_producers", "view")
    assert datetime.fromisoformat(kv["exported_at"]).tzinfo is not None
    assert kv_metadata(exported / "rulings.parquet")["relation_kind"] == "table"


def test_export_help_names_the_skipped_tables():
    result = CliRunner().invoke(main, ["export", "--help"])
    assert result.exit_code == 0 and "parse_cache" in result.output


def test_query_parquet_with_bound_parameter(db, tmp_path):
    out = tmp_path / "q.parquet"
    runner = CliRunner()
    result = runner.invoke(main, ["query", "--db", str(db), "--format", "parquet", "--output", str(out),
                                  "--param", "n=Dack's Duplicate",
                                  "SELECT name, copy_kind, exceptions FROM copy_effects WHERE name = $n"])
    assert result.exit_code == 0, result.output
    assert pd.read_parquet(out).to_dict("records")[0]["copy_kind"] == "enter_as_copy"
    assert duckdb.sql(f"SELECT name, exceptions[1].kind FROM read_parquet('{out}')").fetchall() == [
        ("Dack's Duplicate", "has_keyword")]
    kv = kv_metadata(out)
    assert kv["query"] == "SELECT name, copy_kind, exceptions FROM copy_effects WHERE name = $n"
    assert kv["source_version"].startswith("5.2.0+20220425+sha256:")
    # the value is bound, not formatted into the SQL: a quote trick matches nothing
    result = runner.invoke(main, ["query", "--db", str(db), "--format", "parquet", "--output", str(out),
                                  "--param", "n=x' OR '1'='1", "SELECT name FROM cards WHERE name = $n"])
    assert result.exit_code == 0, result.output
    assert len(pd.read_parquet(out)) == 0


def test_query_parquet_needs_output_and_stays_read_only(db, tmp_path):
    runner = CliRunner()
    result = runner.invoke(main, ["query", "--db", str(db), "--format", "parquet", "SELECT 1"])
    assert result.exit_code == 2 and "--output" in result.output
    secret = tmp_path / "outside.csv"
    secret.write_text("a\n1\n")
    result = runner.invoke(main, ["query", "--db", str(db), "--format", "parquet", "--output",
                                  str(tmp_path / "x.parquet"), f"SELECT * FROM read_csv('{secret}')"])
    assert result.exit_code == 1 and result.output.startswith("error: ")
    assert not (tmp_path / "x.parquet").exists()


def test_query_output_file_for_text_formats(db, tmp_path):
    out = tmp_path / "untap.csv"
    result = CliRunner().invoke(main, ["query", "--db", str(db), "--format", "csv", "--output", str(out),
                                       "SELECT name FROM untap_abilities WHERE name LIKE 'P%' ORDER BY name"])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").splitlines() == ["name", "Pale Wayfarer", "Patrol Signaler", "Pili-Pala",
                                                              "Puresight Merrow"]
