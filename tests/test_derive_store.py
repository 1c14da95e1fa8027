"""derive() inside a real build (refresh of real 2019 Scryfall card objects), and `check-mana`."""

from __future__ import annotations

import json

import duckdb
import pytest
from click.testing import CliRunner

from pipeline.cli import main
from pipeline.derive import derive
from tests.conftest import scryfall_objects, write_jsonl

NAMES = ("Llanowar Elves", "Birds of Paradise", "Reflecting Pool", "Forest", "Tropical Island", "Gift of Paradise",
         "Sailor of Means", "Dark Ritual", "Mana Reflection", "Command Tower", "Wild Growth", "Utopia Sprawl",
         "Gilded Goose", "Deathrite Shaman")


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    """A database built through the CLI from the real 2019 Scryfall objects of NAMES (JSON Lines)."""
    d = tmp_path_factory.mktemp("mana")
    src = write_jsonl(d / "cards.jsonl.gz", scryfall_objects(*NAMES))
    path = d / "cards.duckdb"
    result = CliRunner().invoke(main, ["refresh", "--source", str(src), "--db", str(path), "--quiet"])
    assert result.exit_code == 0, result.output
    return path


def q(path, sql, params=None):
    con = duckdb.connect(str(path), read_only=True)
    try:
        return con.execute(sql, params or []).fetchall()
    finally:
        con.close()


def test_cards_columns_filled(db):
    got = {r[0]: r[1:] for r in q(db, """SELECT name, produced_mana, produced_mana_dependent, token_produced_mana,
                                          granted_produced_mana FROM cards""")}
    assert got["Llanowar Elves"] == (["G"], False, [], [])
    assert got["Reflecting Pool"] == (["W", "U", "B", "R", "G", "C"], True, [], [])
    assert got["Forest"] == (["G"], False, [], [])
    assert got["Tropical Island"] == (["U", "G"], False, [], [])
    assert got["Gift of Paradise"] == ([], False, [], ["W", "U", "B", "R", "G"])
    assert got["Sailor of Means"] == ([], False, ["W", "U", "B", "R", "G"], [])
    assert got["Mana Reflection"] == ([], False, [], [])
    assert got["Command Tower"] == (["W", "U", "B", "R", "G"], True, [], [])
    assert got["Dark Ritual"] == (["B"], False, [], [])


def test_mana_abilities_rows(db):
    rows = q(db, """SELECT c.name, m.origin, m.produces, m.production_kind, m.amount, m.has_tap_cost,
                           m.is_triggered, m.is_mana_ability, m.ability_id IS NULL
                    FROM mana_abilities m JOIN cards c USING (oracle_id) ORDER BY c.name, m.origin""")
    by_name = {}
    for r in rows:
        by_name.setdefault(r[0], []).append(r[1:])
    assert by_name["Forest"] == [("basic_land_type", ["G"], "fixed", "1", True, False, True, True)]
    assert sorted(by_name["Tropical Island"]) == [("basic_land_type", ["G"], "fixed", "1", True, False, True, True),
                                                  ("basic_land_type", ["U"], "fixed", "1", True, False, True, True)]
    assert by_name["Dark Ritual"] == [("text", ["B"], "fixed", "3", False, False, False, False)]
    assert by_name["Wild Growth"] == [("text", ["G"], "fixed", "1", False, True, True, False)]
    assert by_name["Utopia Sprawl"] == [("text", ["W", "U", "B", "R", "G"], "chosen_color", "1", False, True, True,
                                         False)]
    assert "Mana Reflection" not in by_name and "Gift of Paradise" not in by_name
    # Deathrite's first ability targets: it adds mana but is no mana ability (CR 605.5a).
    assert ("text", ["W", "U", "B", "R", "G"], "any_color", "1", True, False, False, False) in by_name["Deathrite Shaman"]


def test_columns_have_comments(db):
    comments = dict(q(db, """SELECT table_name || '.' || column_name, comment FROM duckdb_columns()
                             WHERE table_name IN ('cards', 'mana_abilities')"""))
    for col in ("cards.produced_mana", "cards.produced_mana_dependent", "cards.token_produced_mana",
                "cards.granted_produced_mana", "mana_abilities.produces", "mana_abilities.production_kind",
                "mana_abilities.is_mana_ability", "mana_abilities.restrictions"):
        assert comments[col] and len(comments[col]) > 30, col
    assert "CR 305.6" in comments["cards.produced_mana"] and "207.2a" in comments["cards.produced_mana"]


def test_derive_returns_counts_and_is_rerunnable(db, tmp_path):
    copy = tmp_path / "copy.duckdb"
    copy.write_bytes(db.read_bytes())
    con = duckdb.connect(str(copy))
    try:
        counts = derive(con)
        again = derive(con)
    finally:
        con.close()
    assert counts == again
    # Not Gift of Paradise, Sailor of Means, Mana Reflection (no own mana), Dark Ritual (a spell,
    # CR 605.5b) nor Deathrite Shaman (its mana ability has a target, CR 605.5a).
    assert counts["mana_ability_cards"] == 9
    assert counts["token_mana_cards"] == 1 and counts["granted_mana_cards"] == 1
    assert counts["produced_mana_dependent_cards"] == 2


def test_check_mana_without_source_values(db):
    result = CliRunner().invoke(main, ["check-mana", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "0 cards with source produced_mana; 0 differ (none)"


def test_check_mana_lists_differences_with_reasons(db, tmp_path):
    copy = tmp_path / "with_source.duckdb"
    copy.write_bytes(db.read_bytes())
    con = duckdb.connect(str(copy))
    # Stand-in source values (the 2019 file predates Scryfall's produced_mana): one equal to ours,
    # one counting the granted ability, one without colorless on a CR 106.7 "any type" land.
    con.execute("UPDATE cards SET source_produced_mana = ['G'] WHERE name = 'Llanowar Elves'")
    con.execute("UPDATE cards SET source_produced_mana = ['B','G','R','U','W'] WHERE name = 'Gift of Paradise'")
    con.execute("UPDATE cards SET source_produced_mana = ['B','G','R','U','W'] WHERE name = 'Reflecting Pool'")
    con.close()
    result = CliRunner().invoke(main, ["check-mana", "--db", str(copy), "--format", "json"])
    assert result.exit_code == 0, result.output
    diffs = {d["name"]: d for d in map(json.loads, result.output.splitlines())}
    assert set(diffs) == {"Gift of Paradise", "Reflecting Pool"}
    assert diffs["Gift of Paradise"]["category"] == "granted_mana"
    assert diffs["Reflecting Pool"]["category"] == "colorless_breadth"
    assert diffs["Reflecting Pool"]["abilities"][0]["production_kind"] == "could_produce"
    text = CliRunner().invoke(main, ["check-mana", "--db", str(copy), "--strict"])
    assert text.exit_code == 1
    assert text.output.splitlines()[-1] == ("3 cards with source produced_mana; 2 differ "
                                            "(granted_mana 1, colorless_breadth 1)")


def test_check_mana_missing_database(tmp_path):
    result = CliRunner().invoke(main, ["check-mana", "--db", str(tmp_path / "none.duckdb")])
    assert result.exit_code == 1 and "no database here" in result.output


def test_check_mana_bad_source_value_is_data_quality_not_failure(tmp_path):
    """A Scryfall-shaped file whose produced_mana has a value that is no mana type (Scryfall once
    shipped "1"): the build records it in data_quality (action ignored) and drops it from
    source_produced_mana; check-mana exits 0 and lists the card under source_value."""
    objs = [dict(o) for o in scryfall_objects("Llanowar Elves", "Birds of Paradise", "Sol Ring")]  # (shared, cached)
    # Current Scryfall objects carry produced_mana; the 2019 ones predate it, so it is added as
    # Scryfall writes it (a list of letters) — Sol Ring with the bad value "1" beside "C".
    values = {"Llanowar Elves": ["G"], "Birds of Paradise": ["B", "G", "R", "U", "W"], "Sol Ring": ["1", "C"]}
    for o in objs:
        o["produced_mana"] = values[o["name"]]
    src = write_jsonl(tmp_path / "cards.jsonl.gz", objs)
    path = tmp_path / "cards.duckdb"
    built = CliRunner().invoke(main, ["refresh", "--source", str(src), "--db", str(path), "--quiet"])
    assert built.exit_code == 0, built.output
    rows = q(path, """SELECT d.source_file, d.record, c.name, d.field, d.value, d.action, d.run_id IS NOT NULL
                      FROM data_quality d JOIN cards c USING (oracle_id)""")
    assert [r[2:] for r in rows] == [("Sol Ring", "produced_mana[0]", '"1"', "ignored", True)]
    assert rows[0][0] == str(src) and "Sol Ring" in rows[0][1]
    assert q(path, "SELECT source_produced_mana FROM cards WHERE name = 'Sol Ring'") == [(["C"],)]
    result = CliRunner().invoke(main, ["check-mana", "--db", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    diffs = {d["name"]: d for d in map(json.loads, result.output.splitlines())}
    assert set(diffs) == {"Sol Ring"}
    assert (diffs["Sol Ring"]["category"], diffs["Sol Ring"]["bad_source_values"]) == ("source_value", ['"1"'])
    text = CliRunner().invoke(main, ["check-mana", "--db", str(path)])
    assert text.exit_code == 0
    assert "[source value, not a mana type; data_quality] \"1\"" in text.output
    assert text.output.splitlines()[-1] == "3 cards with source produced_mana; 1 differ (source_value 1)"
