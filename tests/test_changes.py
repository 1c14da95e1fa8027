"""The card changelog (pipeline/store/changes.py): card_changes and ability_changes, on real data.

Small builds from real records (2019 Scryfall card objects, MTGJSON 2022 set files) and the
bundled database; the whole-corpus Scryfall 2019 → MTGJSON 2022 errata are in
tests/test_changes_corpus.py.
"""

from __future__ import annotations

import json
import shutil

import duckdb
from click.testing import CliRunner

from pipeline.cli import main
from pipeline.refresh import refresh
from pipeline.store.changes import _Ability, _match
from tests.conftest import as_older_grammar_left_it, mtgjson_set, rows, scryfall_objects, write_gzip_json, write_jsonl


def _changes(db, run_id):
    return rows(db, "SELECT name, change, cause, face_index, detail, old_value, new_value FROM card_changes "
                    "WHERE run_id = ? ORDER BY name, change, face_index, detail", [run_id])


def test_first_build_records_no_changes_unless_asked(bundled_db, tmp_path):
    assert rows(bundled_db, "SELECT count(*) FROM card_changes") == [(0,)]
    source = write_jsonl(tmp_path / "cards.jsonl.gz", scryfall_objects("Llanowar Elves", "Sol Ring"))
    db = tmp_path / "cards.duckdb"
    outcome = refresh([source], db, record_initial=True)
    assert outcome.changes == {"added": 2}
    assert _changes(db, 1) == [("Llanowar Elves", "added", "source", None, None, None, None),
                               ("Sol Ring", "added", "source", None, None, None, None)]


def test_new_grammar_version_records_only_grammar_caused_changes(bundled_db, tmp_path):
    """Same source, new grammar version: only 'grammar' rows, one per card whose ASTs changed."""
    db = tmp_path / "cards.duckdb"
    shutil.copy(bundled_db, db)
    con = duckdb.connect(str(db))
    try:
        as_older_grammar_left_it(con, "Llanowar Elves")  # its mana ability unread, no produced mana
    finally:
        con.close()

    outcome = refresh(["bundled"], db)  # not forced: the grammar version alone makes it rebuild
    assert outcome.status == "ok"
    assert outcome.changes == {"abilities": 1, "produced_mana": 1}
    (abilities, mana) = _changes(db, outcome.run_id)
    assert abilities[:5] == ("Llanowar Elves", "abilities", "grammar", None, "1")
    assert json.loads(abilities[5]) == json.loads(abilities[6]) == [
        {"ability_index": 0, "kind": "activated", "text": "{T}: Add {G}."}]
    assert mana == ("Llanowar Elves", "produced_mana", "grammar", None, None, "[]", '["G"]')
    assert rows(db, "SELECT count(*) FROM ability_changes") == [(0,)]  # no text changed: no errata rows


def test_errata_removals_and_history_between_two_real_sources(tmp_path):
    """2019 Scryfall objects, then Core Set 2020's MTGJSON 2022 record of Lotus Field (real errata), then both again."""
    db = tmp_path / "cards.duckdb"
    first = write_jsonl(tmp_path / "2019.jsonl.gz", scryfall_objects("Lotus Field", "Sol Ring"))
    assert refresh([first], db).changes == {}
    m20 = mtgjson_set("M20")
    lotus = [c for c in m20["data"]["cards"] if c["name"] == "Lotus Field"]
    second = write_gzip_json(tmp_path / "M20.json.gz",
                             {"meta": m20["meta"], "data": {**m20["data"], "cards": lotus, "tokens": []}})
    outcome = refresh([second], db)
    assert outcome.changes == {"removed": 1, "oracle_text": 1, "legality": 5, "abilities": 1}
    got = _changes(db, 2)
    assert got[0][:5] == ("Lotus Field", "abilities", "source", None, "1")
    # the 2019 object is Scryfall's preview of Lotus Field (legal in 'future' only); MTGJSON 2022 lists where
    # it is legal, and a format MTGJSON knows but does not list for the card is not legal there
    assert [g[4:] for g in got[1:6]] == [(fmt, "not_legal", "legal") for fmt in
                                         ("commander", "duel", "legacy", "modern", "vintage")]
    assert got[6] == ("Lotus Field", "oracle_text", "source", 0, None,
                      "Hexproof\nLotus Field enters the battlefield tapped.\nWhen Lotus Field enters the battlefield, "
                      "sacrifice two lands.\n{T}: Add three mana of any color.",
                      "Hexproof\nLotus Field enters the battlefield tapped.\nWhen Lotus Field enters the battlefield, "
                      "sacrifice two lands.\n{T}: Add three mana of any one color.")
    assert got[7] == ("Sol Ring", "removed", "source", None, None, None, None)
    assert rows(db, "SELECT change, old_index, new_index, old_text, new_text, is_mana_ability FROM ability_changes") == [
        ("changed", 3, 3, "{T}: Add three mana of any color.", "{T}: Add three mana of any one color.", True)]
    # the history survives later builds, and each run's rows keep their run
    assert refresh([first], db).changes == {"added": 1, "oracle_text": 1, "legality": 5, "abilities": 1}
    assert rows(db, "SELECT run_id, name, change, count(*) FROM card_changes GROUP BY ALL ORDER BY ALL") == [
        (2, "Lotus Field", "abilities", 1), (2, "Lotus Field", "legality", 5), (2, "Lotus Field", "oracle_text", 1),
        (2, "Sol Ring", "removed", 1), (3, "Lotus Field", "abilities", 1), (3, "Lotus Field", "legality", 5),
        (3, "Lotus Field", "oracle_text", 1), (3, "Sol Ring", "added", 1)]
    assert rows(db, "SELECT run_id, change FROM ability_changes ORDER BY run_id") == [(2, "changed"), (3, "changed")]


def test_abilities_match_by_text_first_then_by_position():
    def ab(index, norm):
        return _Ability(index, norm, norm, "static", False, "{}")
    before = [ab(0, "Flying"), ab(1, "When ~ enters, draw a card."), ab(2, "{T}: Add {G}.")]
    after = [ab(0, "Flying"), ab(1, "{T}: Add {G}."), ab(2, "When ~ enters, draw two cards.")]
    pairs = [(o and o.norm, n and n.norm) for o, n in _match(before, after)]
    assert pairs == [("Flying", "Flying"), ("{T}: Add {G}.", "{T}: Add {G}."),
                     ("When ~ enters, draw a card.", "When ~ enters, draw two cards.")]
    assert [(o and o.index, n and n.index) for o, n in _match(before, after[:1])] == [(0, 0), (1, None), (2, None)]


def test_changes_command_lists_the_latest_build_and_filters(bundled_db, tmp_path):
    db = tmp_path / "cards.duckdb"
    first = write_jsonl(tmp_path / "a.jsonl.gz", scryfall_objects("Llanowar Elves", "Sol Ring"))
    second = write_jsonl(tmp_path / "b.jsonl.gz", scryfall_objects("Llanowar Elves", "Birds of Paradise"))
    runner = CliRunner()
    out = runner.invoke(main, ["refresh", "--source", str(first), "--db", str(db), "--quiet"])
    assert out.exit_code == 0 and out.output.rstrip().endswith("; no changes recorded"), out.output
    out = runner.invoke(main, ["refresh", "--source", str(second), "--db", str(db), "--quiet"])
    assert out.exit_code == 0 and out.output.rstrip().endswith("; changes: 1 added, 1 removed"), out.output
    out = runner.invoke(main, ["changes", "--db", str(db), "--format", "json"])
    assert out.exit_code == 0, out.output
    assert [(r["name"], r["change"], r["run_id"]) for r in json.loads(out.output)] == [
        ("Birds of Paradise", "added", 2), ("Sol Ring", "removed", 2)]
    out = runner.invoke(main, ["changes", "--db", str(db), "--change", "removed", "--format", "json"])
    assert [r["name"] for r in json.loads(out.output)] == ["Sol Ring"]
    out = runner.invoke(main, ["changes", "--db", str(db), "--run", "1", "--format", "json"])
    assert json.loads(out.output) == []
    out = runner.invoke(main, ["changes", "--db", str(db), "--since", "2000-01-01", "--format", "json"])
    assert len(json.loads(out.output)) == 2
    assert rows(db, "SELECT name, change FROM latest_changes ORDER BY name") == [
        ("Birds of Paradise", "added"), ("Sol Ring", "removed")]
