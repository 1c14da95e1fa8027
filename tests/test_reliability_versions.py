"""Schema versions: a database made by another version of mtg-pipeline is refused with the rebuild
command — by query, card and refresh — never read wrongly or crashed on (issue 9, docs/reliability.md).

Each case builds a real database (Arabian Nights, MTGJSON 2022 set file of the corpus), then rewrites
its ``meta`` (or its ``runs`` columns) as an older or newer build would have left them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from pipeline.cli import main
from pipeline.refresh import refresh
from pipeline.store.schema import SCHEMA_VERSION
from pipeline.store.versions import SchemaMismatch, check_schema_file, rebuild_command
from tests.conftest import MTGJSON_DIR, rows

SOURCE = MTGJSON_DIR / "ARN.json.gz"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("v") / "cards.duckdb"
    assert refresh([SOURCE], db).counts["cards"] == 78
    return db


def execute(db: Path, *sql: str) -> None:
    con = duckdb.connect(str(db))
    try:
        for s in sql:
            con.execute(s)
    finally:
        con.close()


def with_schema(built: Path, tmp_path: Path, version: str | None) -> Path:
    db = tmp_path / "cards.duckdb"
    shutil.copy(built, db)
    if version is None:
        execute(db, "DELETE FROM meta WHERE key = 'schema_version'")
    else:
        execute(db, f"UPDATE meta SET value = '{version}' WHERE key = 'schema_version'")
    return db


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_current_database_records_its_versions(built):
    meta = dict(rows(built, "SELECT key, value FROM meta"))
    assert meta["schema_version"] == str(SCHEMA_VERSION)
    assert meta["grammar_version"]
    assert check_schema_file(built)["schema_version"] == str(SCHEMA_VERSION)


def test_older_schema_is_refused_by_query_card_and_refresh_with_the_rebuild_command(built, tmp_path):
    db = with_schema(built, tmp_path, "0")
    message = (f"error: {db}: the database was built by an older mtg-pipeline (schema version 0; this one reads "
               f"{SCHEMA_VERSION}); rebuild it with `mtg-pipeline refresh --force --db {db}`")
    before = rows(db, "SELECT * FROM cards ORDER BY oracle_id")
    for args in (["query", "--db", str(db), "SELECT count(*) FROM cards"],
                 ["query", "--db", str(db), "--format", "parquet", "-o", str(tmp_path / "x.parquet"),
                  "SELECT name FROM cards"],
                 ["card", "Juzám Djinn", "--db", str(db)],
                 ["refresh", "--source", str(SOURCE), "--db", str(db), "--quiet"]):
        result = run(*args)
        assert result.exit_code == 1, (args, result.output)
        assert result.output.strip() == message, args
    assert not (tmp_path / "x.parquet").exists()
    # nothing was written: same contents, no run appended, still marked old
    assert rows(db, "SELECT * FROM cards ORDER BY oracle_id") == before
    assert rows(db, "SELECT count(*) FROM runs") == [(1,)]
    assert rows(db, "SELECT value FROM meta WHERE key = 'schema_version'") == [("0",)]


def test_the_rebuild_command_works_and_keeps_the_run_history(built, tmp_path):
    db = with_schema(built, tmp_path, "0")
    # an older runs table: one column fewer
    execute(db, "ALTER TABLE runs DROP COLUMN parsed_count")
    assert rebuild_command(db) == f"mtg-pipeline refresh --force --db {db}"
    result = run("refresh", "--source", str(SOURCE), "--force", "--db", str(db), "--quiet")
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"built {db}: 78 cards")
    assert rows(db, "SELECT value FROM meta WHERE key = 'schema_version'") == [(str(SCHEMA_VERSION),)]
    # the history is carried over by column name; the column the old table lacked is NULL
    assert rows(db, "SELECT run_id, status, card_count, parsed_count IS NULL FROM runs ORDER BY run_id") == [
        (1, "ok", 78, True), (2, "ok", 78, False)]
    assert run("query", "--db", str(db), "SELECT count(*) FROM cards").exit_code == 0


def test_newer_schema_says_upgrade(built, tmp_path):
    db = with_schema(built, tmp_path, str(SCHEMA_VERSION + 1))
    result = run("query", "--db", str(db), "SELECT 1")
    assert result.exit_code == 1
    assert (f"was built by a newer mtg-pipeline (schema version {SCHEMA_VERSION + 1}; this one reads "
            f"{SCHEMA_VERSION}); upgrade mtg-pipeline, or rebuild it with `mtg-pipeline refresh --force --db {db}`"
            in result.output)
    with pytest.raises(SchemaMismatch):
        check_schema_file(db)


def test_missing_schema_version(built, tmp_path):
    db = with_schema(built, tmp_path, None)
    result = run("card", "Juzám Djinn", "--db", str(db))
    assert result.exit_code == 1
    assert "records no schema version" in result.output and f"refresh --force --db {db}" in result.output


def test_other_grammar_version_is_readable_and_reparsed_by_the_next_refresh(built, tmp_path):
    db = tmp_path / "cards.duckdb"
    shutil.copy(built, db)
    execute(db, "UPDATE meta SET value = 'old-grammar' WHERE key = 'grammar_version'",
            "UPDATE runs SET grammar_version = 'old-grammar'",
            "UPDATE parse_cache SET grammar_version = 'old-grammar'")
    result = run("query", "--db", str(db), "--format", "csv", "SELECT count(*) AS n FROM abilities")
    assert result.exit_code == 0 and result.output.split() == ["n", "107"]
    result = run("refresh", "--source", str(SOURCE), "--db", str(db), "--quiet")
    assert result.exit_code == 0 and result.output.startswith(f"built {db}: 78 cards")  # not "unchanged"
    assert "parsed 78 face texts" in result.output  # the old grammar's cache is not reused
    assert rows(db, "SELECT value <> 'old-grammar' FROM meta WHERE key = 'grammar_version'") == [(True,)]


def test_not_a_database_is_neither_read_nor_replaced(tmp_path):
    db = tmp_path / "cards.duckdb"
    db.write_text('{"this is": "somebody\'s JSON, not a database"}\n' * 200, encoding="utf-8")
    before = db.read_bytes()
    result = run("refresh", "--source", str(SOURCE), "--db", str(db), "--quiet")
    assert result.exit_code == 1
    assert result.output.strip() == (f"error: {db}: not a DuckDB database (DuckDB cannot read its header); "
                                     f"refusing to use or replace it — pass another --db, or move the file away")
    assert db.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["cards.duckdb",
                                                                                       "cards.duckdb.lock"]
    result = run("query", "--db", str(db), "SELECT 1")
    assert result.exit_code == 1 and "not a DuckDB database" in result.output


def test_empty_file_is_replaced(tmp_path):
    db = tmp_path / "cards.duckdb"
    db.touch()
    result = run("refresh", "--source", str(SOURCE), "--db", str(db), "--quiet")
    assert result.exit_code == 0 and result.output.startswith(f"built {db}: 78 cards")


def test_first_run_that_fails_leaves_no_database(tmp_path):
    """A failed first run (no database at the path yet) leaves no database file behind: there is
    no runs table to record it in, so stderr and the exit code report it (README, issue 17)."""
    db = tmp_path / "cards.duckdb"
    bad = tmp_path / "empty.json"
    bad.write_bytes(b"")
    result = run("refresh", "--source", str(bad), "--db", str(db), "--quiet")
    assert result.exit_code == 1 and result.output.startswith(f"error: {bad}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards.duckdb.lock", "empty.json"]
    result = run("query", "--db", str(db), "SELECT count(*) FROM cards")
    assert result.exit_code == 1 and "no database here" in result.output
    result = run("refresh", "--source", str(SOURCE), "--db", str(db), "--quiet")
    assert result.exit_code == 0, result.output
    assert rows(db, "SELECT run_id, status FROM runs ORDER BY run_id") == [(1, "ok")]
