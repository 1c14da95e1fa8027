"""Read-only queries: every statement kind that writes, reaches outside the database or loads code is
refused through the CLI with a message naming the flag that allows it (issue 9, docs/reliability.md).

The database is a real one (Arabian Nights, MTGJSON 2022 set file of the corpus). Each refusal is
checked for: exit code 1, one line on stderr saying why and naming the flag, and no effect (the
database's contents unchanged, no file written). The flags are then shown to allow exactly what
they name and nothing more.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from pipeline.cli import main
from pipeline.refresh import refresh
from tests.conftest import MTGJSON_DIR

READ_ONLY = "refused: the database is opened read-only; pass --allow-writes to modify it"
EXTERNAL = ("refused: the statement reads or writes outside the database (files, ATTACH, COPY, extensions); "
            "pass --allow-external to permit it")
LOCKED = "refused: settings are locked while access outside the database is off; pass --allow-external"


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("q") / "cards.duckdb"
    outcome = refresh([MTGJSON_DIR / "ARN.json.gz"], path)
    assert outcome.counts["cards"] == 78
    return path


def contents(db: Path) -> str:
    con = duckdb.connect(str(db), read_only=True)
    try:
        tables = [r[0] for r in con.execute("SELECT table_name FROM information_schema.tables "
                                            "WHERE table_type = 'BASE TABLE' ORDER BY 1").fetchall()]
        digest = hashlib.sha256()
        for t in tables:
            digest.update(repr((t, con.execute(f'SELECT * FROM "{t}" ORDER BY ALL').fetchall())).encode())
        return digest.hexdigest()
    finally:
        con.close()


def query(db: Path, sql: str, *flags: str):
    return CliRunner().invoke(main, ["query", "--db", str(db), "--format", "csv", *flags, sql])


WRITES = {
    "insert": "INSERT INTO meta VALUES ('owner', 'mallory')",
    "update": "UPDATE cards SET name = 'x'",
    "delete": "DELETE FROM cards",
    "create table": "CREATE TABLE t AS SELECT 1 AS x",
    "create view": "CREATE VIEW v AS SELECT 1 AS x",
    "drop table": "DROP TABLE rulings",
    "alter table": "ALTER TABLE cards ADD COLUMN x INTEGER",
    "attach in-memory": "ATTACH ':memory:' AS scratch",
}


@pytest.mark.parametrize("kind", sorted(WRITES))
def test_writes_are_refused(kind, db):
    before = contents(db)
    result = query(db, WRITES[kind])
    assert result.exit_code == 1
    assert result.output.startswith(f"error: {READ_ONLY} [") and result.output.count("\n") == 1
    assert contents(db) == before


def external_cases(tmp: Path) -> dict[str, tuple[str, Path | None]]:
    """statement → (SQL, the file it would create or None)."""
    return {
        "attach a file": (f"ATTACH '{tmp / 'other.duckdb'}' AS other", tmp / "other.duckdb"),
        "copy to csv": (f"COPY cards TO '{tmp / 'cards.csv'}'", tmp / "cards.csv"),
        "copy query to parquet": (f"COPY (SELECT name FROM cards) TO '{tmp / 'names.parquet'}' (FORMAT parquet)",
                                  tmp / "names.parquet"),
        "export database": (f"EXPORT DATABASE '{tmp / 'dump'}'", tmp / "dump"),
        "install extension": ("INSTALL httpfs", None),
        "load extension": ("LOAD httpfs", None),
        "read_csv a system file": ("SELECT * FROM read_csv('/etc/passwd')", None),
        "read_text a system file": ("SELECT content FROM read_text('/etc/hostname')", None),
        "read_json a system file": ("SELECT * FROM read_json_auto('/etc/os-release')", None),
        "glob the file system": ("SELECT * FROM glob('/etc/*')", None),
        "a file path as a table": ("SELECT * FROM 'data/rule_features.csv'", None),
        "read_parquet": (f"SELECT * FROM read_parquet('{tmp / 'x.parquet'}')", None),
    }


@pytest.mark.parametrize("kind", sorted(external_cases(Path("/x"))))
def test_access_outside_the_database_is_refused(kind, db, tmp_path):
    sql, created = external_cases(tmp_path)[kind]
    before = contents(db)
    result = query(db, sql)
    assert result.exit_code == 1
    assert result.output.startswith(f"error: {EXTERNAL} [Permission Error: ") and result.output.count("\n") == 1
    assert contents(db) == before
    assert created is None or not created.exists()
    assert "root:" not in result.output  # nothing of /etc/passwd leaks into the message


@pytest.mark.parametrize("sql", ["SET enable_external_access = true", "SET lock_configuration = false",
                                 "RESET enable_external_access", "SET allow_unsigned_extensions = true"])
def test_settings_cannot_reopen_access(sql, db):
    result = query(db, sql)
    assert result.exit_code == 1
    assert result.output.startswith(f"error: {LOCKED}")
    # and the next statement of a fresh connection is still refused
    assert query(db, "SELECT * FROM read_csv('/etc/passwd')").exit_code == 1


def test_read_only_work_is_allowed(db):
    assert query(db, "SELECT name FROM cards WHERE name = 'Juzám Djinn'").output.strip().splitlines() == ["name", "Juzám Djinn"]
    # temporary objects live in memory for the session only; they touch neither the file nor the disk
    assert query(db, "CREATE TEMP TABLE t AS SELECT 1 AS x").exit_code == 0


def test_parquet_output_runs_under_the_same_rules(db, tmp_path):
    out = tmp_path / "x.parquet"
    result = CliRunner().invoke(main, ["query", "--db", str(db), "--format", "parquet", "-o", str(out),
                                       "SELECT * FROM read_csv('/etc/passwd')"])
    assert result.exit_code == 1 and "Permission Error" in result.output and not out.exists()


def test_allow_writes_allows_writes_only(db, tmp_path):
    copy = tmp_path / "copy.duckdb"
    copy.write_bytes(db.read_bytes())
    result = query(copy, "DELETE FROM rulings WHERE oracle_id IN (SELECT oracle_id FROM cards WHERE name = 'Juzám Djinn')",
                   "--allow-writes")
    assert result.exit_code == 0, result.output
    assert query(copy, "SELECT count(*) AS n FROM rulings r JOIN cards c USING (oracle_id) "
                       "WHERE c.name = 'Juzám Djinn'").output.strip().splitlines() == ["n", "0"]
    result = query(copy, f"COPY cards TO '{tmp_path / 'cards.csv'}'", "--allow-writes")
    assert result.exit_code == 1 and "--allow-external" in result.output
    assert not (tmp_path / "cards.csv").exists()


def test_allow_external_allows_files_but_not_writes(db, tmp_path):
    out = tmp_path / "names.csv"
    result = query(db, f"COPY (SELECT name FROM cards WHERE name LIKE 'Juz%') TO '{out}' (HEADER)", "--allow-external")
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == "name\nJuzám Djinn\n"
    before = contents(db)
    result = query(db, "DELETE FROM cards", "--allow-external")
    assert result.exit_code == 1 and result.output.startswith(f"error: {READ_ONLY}")
    assert contents(db) == before
