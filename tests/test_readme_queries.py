"""Every statement of every ```sql block in README.md runs as written on the bundled database and returns rows.

Statements on the changelog (card_changes, ability_changes, change_log, latest_changes) run on a
bundled build that replaced a real older one (see :func:`changelog_database`): a first build
records no changes, so the bundled database alone has none to show.
"""

from __future__ import annotations

import atexit
import json
import re
import shutil
import tempfile
from functools import lru_cache
from pathlib import Path

import duckdb
import pytest

from pipeline.parse.ast import Ability, Unparsed
from pipeline.refresh import refresh
from pipeline.serve.query import run_query
from tests.conftest import bundled_database, scryfall_objects, write_jsonl

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


@lru_cache(maxsize=1)
def changelog_database() -> Path:
    """The bundled snapshot built over a database of three real 2019 Scryfall cards (Lotus Field and
    Food Chain had errata since; Llanowar Elves did not), the latter as an older grammar left it
    (its mana ability unread), so the changelog holds additions, errata and a grammar-caused change."""
    tmp = Path(tempfile.mkdtemp(prefix="mtg-changelog-"))
    atexit.register(shutil.rmtree, tmp, True)
    db = tmp / "cards.duckdb"
    refresh([write_jsonl(tmp / "2019.jsonl.gz", scryfall_objects("Lotus Field", "Food Chain", "Llanowar Elves"))], db)
    con = duckdb.connect(str(db))
    try:
        oracle_id, text = con.execute("SELECT oracle_id, text FROM abilities JOIN cards USING (oracle_id) "
                                      "WHERE name = 'Llanowar Elves'").fetchone()
        old = Ability(index=0, text=text, kind="activated", normalized=text, body=Unparsed(text=text),
                      grammar_version="0.older").to_json()
        con.execute("UPDATE abilities SET ast = ?, fully_parsed = false WHERE oracle_id = ?", [json.dumps(old), oracle_id])
        con.execute("UPDATE meta SET value = '0.older' WHERE key = 'grammar_version'")
        # lend it the bundled build's parse cache, so the next build parses nothing
        con.execute(f"INSERT INTO parse_cache SELECT * FROM read_parquet('{_parse_cache_parquet(tmp)}')")
    finally:
        con.close()
    assert refresh(["bundled"], db).status == "ok"
    return db


def _parse_cache_parquet(tmp: Path) -> Path:
    out = tmp / "parse_cache.parquet"
    con = duckdb.connect(str(bundled_database()), read_only=True)
    try:
        con.execute(f"COPY parse_cache TO '{out}' (FORMAT parquet)")
    finally:
        con.close()
    return out


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
