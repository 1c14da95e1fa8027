"""Every statement of every ```sql block in README.md runs as written on the bundled database and returns rows,
and every shell example after them runs as written in the directory the quick start leaves.

Statements on the changelog (card_changes, ability_changes, change_log, latest_changes) run on a
bundled build that replaced a real older one (see :func:`changelog_database`): a first build
records no changes, so the bundled database alone has none to show.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from pipeline.cli import main
from pipeline.serve.query import run_query
from tests.conftest import bundled_database, changelog_database

README = Path(__file__).resolve().parents[1] / "README.md"


def readme_statements() -> list[str]:
    """The SQL statements of README.md's ```sql blocks, in order (comments kept with their statement)."""
    blocks = re.findall(r"^```sql\n(.*?)^```", README.read_text(encoding="utf-8"), flags=re.S | re.M)
    con = duckdb.connect()
    try:
        return [str(s.query).strip() for block in blocks for s in con.extract_statements(block)]
    finally:
        con.close()


STATEMENTS = readme_statements()
CHANGELOG_RELATIONS = ("card_changes", "ability_changes", "change_log", "latest_changes")


def test_readme_has_example_queries_for_every_view():
    text = "\n".join(STATEMENTS)
    assert len(STATEMENTS) >= 15
    for view in ("mana_producers", "tap_abilities", "untap_abilities", "cost_components", "copy_effects",
                 "x_enters_effects", "ast_nodes", "card_rules", "legalities", "legal_cards", "sets",
                 "newest_printings", "card_names", "printings"):
        assert f"FROM {view}" in text or f"JOIN {view}" in text, view


@pytest.mark.parametrize("sql", STATEMENTS, ids=[s.splitlines()[0].lstrip("- ")[:60] for s in STATEMENTS])
def test_readme_query_returns_rows(sql):
    # run exactly as `mtg-pipeline query` does: read-only, no external access
    changelog = any(name in sql for name in CHANGELOG_RELATIONS)
    df = run_query(changelog_database() if changelog else bundled_database(), sql)
    assert len(df) > 0, sql


def readme_shell_examples() -> list[str]:
    """The command lines of the ```bash block of README § Example queries (after the SQL)."""
    text = README.read_text(encoding="utf-8")
    start = text.index("Values go in as named parameters")
    (block,) = re.findall(r"^```bash\n(.*?)^```", text[start:], flags=re.S | re.M)[:1]
    return [line for line in block.splitlines() if line.strip()]


SHELL = readme_shell_examples()


@pytest.mark.parametrize("line", SHELL, ids=[" ".join(shlex.split(s, comments=True)[1:4]) for s in SHELL])
def test_readme_shell_example_runs_as_written_after_the_quick_start(line, tmp_path, monkeypatch):
    # the quick start leaves cards.duckdb in the current directory
    (tmp_path / "cards.duckdb").symlink_to(bundled_database())
    monkeypatch.chdir(tmp_path)
    argv = shlex.split(line, comments=True)
    assert argv[0] == "mtg-pipeline" and "--db" in argv
    result = CliRunner().invoke(main, argv[1:])
    assert result.exit_code == 0, result.output
    if "--output" in argv:
        out = tmp_path / argv[argv.index("--output") + 1]
        assert f"wrote " in result.output and out.stat().st_size > 0
    elif "--parquet" in argv:
        assert (tmp_path / "parquet" / "cards.parquet").is_file()
    else:
        assert "enter_as_copy" in result.output  # Altered Ego's copy effect


def test_readme_has_a_shell_example_per_output_format():
    assert len(SHELL) >= 5
    assert {f for line in SHELL for f in ("csv", "json", "parquet") if f"--format {f}" in line} == {"csv", "json", "parquet"}
