"""Serving stays read-only and terminal-safe (issue 16 § 1, § 2): --allow-external cannot ATTACH the database
read-write, --output never overwrites the database or its files, escape sequences in card names are
neutralised, the table format stops at 1,000 rows, read-only queries spill to a bounded private directory."""

from __future__ import annotations

import json
import os
import shutil

import pytest
from click.testing import CliRunner

from pipeline.cli import main
from pipeline.serve.query import SPILL_LIMIT, connect, spill_dir
from tests.conftest import table_fingerprint, write_jsonl
from tests.test_download_http import m20_cards

# Window title, clear screen + home, carriage return overwrite, a bidi override: terminal commands, not text.
HOSTILE = "Goblin\x1b]0;pwned\x07 \x1b[2J\x1b[HSmasher\rX\u202e"


def cli(*args):
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    """A database of 30 real M20 cards; one name carries terminal escape sequences."""
    d = tmp_path_factory.mktemp("serve")
    objs = [dict(c) for c in m20_cards()[:30]]
    objs[0]["name"] = HOSTILE
    path = d / "cards.duckdb"
    assert cli("refresh", "--source", str(write_jsonl(d / "cards.jsonl.gz", objs)), "--db", str(path),
               "--quiet").exit_code == 0
    return path


def copy_of(db, tmp_path):
    out = tmp_path / "cards.duckdb"
    shutil.copy(db, out)
    return out


def test_attach_of_a_hard_link_read_write_is_refused(db, tmp_path):
    mine = copy_of(db, tmp_path)
    link = tmp_path / "link.duckdb"
    os.link(mine, link)
    before = table_fingerprint(mine, ("cards",))
    for sql in (f"ATTACH '{link}' AS x; DELETE FROM x.cards",
                f"ATTACH '{link}' AS x (READ_WRITE); UPDATE x.cards SET name = 'x'",
                f"ATTACH '{tmp_path}/./cards.duckdb' AS x; DELETE FROM x.cards"):
        result = cli("query", "--db", str(mine), "--allow-external", sql)
        assert result.exit_code == 1
        # DuckDB 2.0 itself attaches read-only from a read-only database; an explicit READ_WRITE is ours to refuse.
        expected = "error: refused: ATTACH of the database itself" if "READ_WRITE" in sql else "error: refused: "
        assert result.output.startswith(expected) and result.output.count("\n") == 1, result.output
    assert table_fingerprint(mine, ("cards",)) == before
    # READ_ONLY is fine, and so is attaching another database read-write (external access was allowed).
    ok = cli("query", "--db", str(mine), "--allow-external", "--format", "csv",
             f"ATTACH '{link}' AS x (READ_ONLY); SELECT count(*) AS n FROM x.cards")
    assert ok.exit_code == 0 and ok.output.splitlines() == ["n", "30"], ok.output


@pytest.mark.parametrize("fmt", ["csv", "json", "table", "parquet"])
def test_output_never_overwrites_the_database_or_its_files(db, tmp_path, fmt):
    mine = copy_of(db, tmp_path)
    os.symlink(mine, tmp_path / "alias.duckdb")
    os.link(mine, tmp_path / "hard.duckdb")
    before = mine.read_bytes()
    for target in (mine, tmp_path / "alias.duckdb", tmp_path / "hard.duckdb", tmp_path / "cards.duckdb.wal",
                   tmp_path / "cards.duckdb.lock", tmp_path / "cards.duckdb.tmp-123"):
        result = cli("query", "--db", str(mine), "--format", fmt, "--output", str(target), "SELECT * FROM cards")
        assert result.exit_code == 1, (target, result.output)
        assert result.output.startswith(f"error: {target}: refusing to write over the database"), result.output
    assert mine.read_bytes() == before
    assert not (tmp_path / "cards.duckdb.wal").exists()


def test_unwritable_output_is_one_error_line(db, tmp_path):
    result = cli("query", "--db", str(db), "--format", "csv", "--output", str(tmp_path / "no" / "such" / "x.csv"),
                 "SELECT name FROM cards")
    assert result.exit_code == 1 and result.output.startswith("error: ") and result.output.count("\n") == 1
    assert "No such file or directory" in result.output


def test_parquet_of_a_type_it_cannot_hold_is_one_error_line(db, tmp_path):
    result = cli("query", "--db", str(db), "--format", "parquet", "--output", str(tmp_path / "x.parquet"),
                 "SELECT MAP {'a': 1} AS m, NULL::INTERVAL AS i, union_value(k := 1) AS u")
    assert "Traceback" not in result.output
    assert result.exit_code in (0, 1) and result.output.count("\n") == 1, result.output
    if result.exit_code == 1:
        assert result.output.startswith("error: ")
    assert not list(tmp_path.glob(".x.parquet.tmp-*"))


def test_escape_sequences_are_neutralised_in_card_text_and_tables(db):
    page = cli("card", "--db", str(db), HOSTILE)
    assert page.exit_code == 0, page.output
    for out in (page.output, cli("query", "--db", str(db), "SELECT name FROM cards ORDER BY name").output):
        assert "\x1b" not in out and "\x07" not in out and "\r" not in out and "\u202e" not in out
        assert "Goblin\\x1b]0;pwned\\x07 \\x1b[2J\\x1b[HSmasher\\x0dX\\u202e" in out
    # The data itself is kept as given; csv/json output (for programs) carries it unchanged.
    data = json.loads(cli("query", "--db", str(db), "--format", "json", "SELECT name FROM cards").output)
    assert {"name": HOSTILE} in data


def test_table_format_shows_1000_rows_and_says_how_many_more(db):
    result = cli("query", "--db", str(db), "SELECT range AS n FROM range(2500)")
    lines = result.output.splitlines()
    assert result.exit_code == 0
    assert lines[0].strip() == "n" and lines[1].strip() == "0" and lines[1000].strip() == "999"
    assert lines[1001].startswith("… 1,500 more rows (2,500 in all;") and len(lines) == 1002


def test_streamed_csv_output_of_a_large_result(db, tmp_path):
    out = tmp_path / "big.csv"
    result = cli("query", "--db", str(db), "--format", "csv", "--output", str(out),
                 "SELECT range AS n, 'x' || range AS s FROM range(200000)")
    assert result.exit_code == 0 and result.output == f"wrote 200000 rows to {out}\n"
    lines = out.read_text().splitlines()
    assert lines[0] == "n,s" and lines[1] == "0,x0" and lines[-1] == "199999,x199999" and len(lines) == 200001


def test_read_only_queries_spill_to_a_bounded_private_directory(db):
    con = connect(db)
    try:
        temp, limit = con.execute("SELECT current_setting('temp_directory'), "
                                  "current_setting('max_temp_directory_size')").fetchone()
    finally:
        con.close()
    assert temp == str(spill_dir()) and not temp.startswith(str(db))
    assert limit.replace(" ", "") == SPILL_LIMIT.replace("GiB", ".0GiB")
    assert not db.with_name(db.name + ".tmp").exists()
