"""docs/schema.md is generated from a live database and must match a fresh bundled build."""

from __future__ import annotations

import difflib
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from pipeline.cli import main
from pipeline.serve.schema_doc import REGENERATE, generate, missing_comments, read_catalog, read_meta_keys
from tests.conftest import bundled_database, rows

SCHEMA_MD = Path(__file__).resolve().parents[1] / "docs" / "schema.md"


@pytest.fixture(scope="module")
def db():
    return bundled_database()


def test_committed_schema_doc_matches_a_fresh_build(db):
    fresh = generate(db)
    committed = SCHEMA_MD.read_text(encoding="utf-8") if SCHEMA_MD.exists() else ""
    if committed != fresh:
        diff = "".join(difflib.unified_diff(committed.splitlines(keepends=True), fresh.splitlines(keepends=True),
                                            "docs/schema.md (committed)", "docs/schema.md (fresh build)"))
        print(diff)
        pytest.fail(f"docs/schema.md differs from the database; regenerate with `{REGENERATE}`\n{diff}")


def test_every_table_view_and_column_is_documented(db):
    text = generate(db)
    con = duckdb.connect(str(db), read_only=True)
    try:
        relations = read_catalog(con)
    finally:
        con.close()
    names = {r.name for r in relations}
    assert names == {n for (n,) in rows(db, "SELECT table_name FROM duckdb_tables() UNION "
                                            "SELECT view_name FROM duckdb_views() WHERE NOT internal")}
    for rel in relations:
        assert f"\n### {rel.name}\n" in text
        assert f"[`{rel.name}`](#{rel.name}) | {rel.kind}" in text
    # real rows of the document: type and meaning from the database
    assert ("| `produced_mana` | `VARCHAR[]` | Mana types (W,U,B,R,G,C; WUBRGC order; [] when none) this card "
            "could produce") in text
    assert "| `copy_kind` | `VARCHAR` | Copy mode (docs/ast.md COPY_MODES)" in text
    assert "| [`parse_cache`](#parse_cache) | table (internal) |" in text
    # a '|' inside a comment is escaped so the Markdown table keeps its columns
    card_rules = next(r for r in relations if r.name == "card_rules")
    if "|" in (card_rules.comment or ""):
        assert card_rules.comment.replace("|", "\\|") in text
    # every table, view, column and meta key is commented
    con = duckdb.connect(str(db), read_only=True)
    try:
        meta_keys = read_meta_keys(con)
    finally:
        con.close()
    assert {k for k, _ in meta_keys} >= {"schema_version", "grammar_version", "built_at", "source",
                                         "source_version", "text_conflicts"}
    assert missing_comments(relations, meta_keys) == []
    assert ("| `text_conflicts` | Number of oracle ids for which the sources gave two different Oracle texts "
            "for one face") in text
    assert "| `how` | `VARCHAR` | 'cited' (a ruling of the card cites the rule" in text
    assert "| [`v_ast_nodes`](#v_ast_nodes) | view (deprecated alias) | Deprecated alias of ast_nodes" in text


def test_schema_doc_command_writes_the_same_text(db, tmp_path):
    out = tmp_path / "schema.md"
    result = CliRunner().invoke(main, ["schema-doc", "--db", str(db), "--output", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == generate(db)
    result = CliRunner().invoke(main, ["schema-doc", "--db", str(tmp_path / "none.duckdb")])
    assert result.exit_code == 1 and "no database here" in result.output
