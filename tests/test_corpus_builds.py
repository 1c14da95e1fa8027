"""Whole-corpus builds: the Scryfall 2019 file (array and JSON Lines), then the MTGJSON 2022 set files
over it — which also gives the changelog (card_changes) the real errata between the two dates."""

from __future__ import annotations

import gzip
import json
import shutil

import duckdb
import pytest

from pipeline.refresh import refresh
from tests.conftest import MTGJSON_DIR, SCRYFALL_2019, rows

pytestmark = pytest.mark.corpus

COMPARED_TABLES = ("cards", "faces", "abilities", "rulings", "printings", "other_objects")


def table_rows(db, table):
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(f"SELECT * FROM {table} ORDER BY ALL").fetchall()
    finally:
        con.close()


def counts(db):
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in COMPARED_TABLES}
    finally:
        con.close()


@pytest.fixture(scope="module")
def scryfall_2019_db(corpus, tmp_path_factory):
    """The Scryfall 2019 array file built once for this module (read it, never write it)."""
    db = tmp_path_factory.mktemp("scryfall") / "array.duckdb"
    assert refresh([SCRYFALL_2019], db).status == "ok"
    return db


@pytest.fixture(scope="module")
def mtgjson_over_scryfall(scryfall_2019_db, tmp_path_factory):
    """(database, outcome): a copy of the Scryfall 2019 database refreshed from the MTGJSON 2022 corpus."""
    db = tmp_path_factory.mktemp("mtgjson") / "mtgjson.duckdb"
    shutil.copy(scryfall_2019_db, db)
    outcome = refresh([MTGJSON_DIR], db)
    assert outcome.status == "ok" and outcome.run_id == 2
    return db, outcome


def test_mtgjson_corpus_builds_every_card_and_face(mtgjson_over_scryfall):
    db, _ = mtgjson_over_scryfall
    got = counts(db)
    assert (got["cards"], got["faces"], got["rulings"]) == (23_549, 23_995, 45_047)
    con = duckdb.connect(str(db), read_only=True)
    try:
        # every face with text has ability rows; no ability line was dropped
        assert con.execute("""SELECT count(*) FROM faces f WHERE oracle_text <> '' AND NOT EXISTS
            (SELECT 1 FROM abilities a WHERE a.oracle_id = f.oracle_id AND a.face_index = f.face_index)""").fetchone() == (0,)
        assert con.execute("SELECT count(*) FROM abilities WHERE kind IS NULL OR kind = ''").fetchone() == (0,)
        (text,) = con.execute("SELECT oracle_text FROM cards WHERE name = 'Bruna, the Fading Light'").fetchone()
        assert text.startswith("When you cast this spell, you may return target Angel or Human creature card")
        assert_card_data(con, printings=58_362, legalities=191_843)
        # MTGJSON lists only legal/banned/restricted formats: Llanowar Elves (rotated out of standard) has 14
        assert con.execute("SELECT count(*), count(*) FILTER (WHERE status = 'legal') FROM legalities "
                           "JOIN cards USING (oracle_id) WHERE name = 'Llanowar Elves'").fetchone() == (14, 14)
        assert con.execute("SELECT first_set_code, first_released_at::VARCHAR FROM cards "
                           "WHERE name = 'Llanowar Elves'").fetchone() == ("LEA", "1993-08-05")
        assert con.execute("SELECT lang FROM card_names WHERE name = 'Llanowarelfen'").fetchall() == [("de",)]
        # no --rules: the rules tables are there, filled from the bundled CR (CR 2026-02-27)
        assert con.execute("SELECT count(*), max(effective_date)::VARCHAR FROM rules").fetchone() == (3275, "2026-02-27")
        assert con.execute("SELECT value FROM meta WHERE key = 'rules_effective_date'").fetchone() == ("2026-02-27",)
        assert con.execute("SELECT count(*) FROM ruling_rule_refs").fetchone() == (17,)
        # casualty (CR 702.153a, Streets of New Capenna 2022) copies the spell: a copy_effects row
        assert con.execute("SELECT copy_kind, copied_object, new_targets, rule FROM copy_effects "
                           "WHERE name = 'Cut of the Profits' AND source = 'keyword'").fetchall() == [
            ("copy_spell", "this spell", True, "CR 702.153a")]
    finally:
        con.close()


def assert_card_data(con, *, printings, legalities):
    """Every printing has its set name, release date and rarity; counts of printings and legality rows."""
    assert con.execute("SELECT count(*), count(set_name), count(released_at), count(rarity) FROM printings"
                       ).fetchone() == (printings,) * 4
    assert con.execute("SELECT count(*) FROM legalities").fetchone() == (legalities,)
    assert con.execute("SELECT count(*) FROM cards WHERE first_released_at IS NULL").fetchone() == (0,)


def test_scryfall_2019_array_and_jsonl_copy_build_identical_databases(scryfall_2019_db, tmp_path):
    array_db = scryfall_2019_db
    got = counts(array_db)
    assert (got["cards"], got["faces"], got["other_objects"]) == (19_771, 20_015, 259)
    assert got["printings"] == 45_558  # every printing of a game card (45,851 objects less 293 tokens etc.)
    con = duckdb.connect(str(array_db), read_only=True)
    try:
        # Scryfall lists all 11 formats of 2019 on every object, not_legal included: 11 rows per card
        assert_card_data(con, printings=45_558, legalities=19_771 * 11)
        assert con.execute("SELECT first_set_code, first_released_at::VARCHAR FROM cards "
                           "WHERE name = 'Llanowar Elves'").fetchone() == ("lea", "1993-08-05")
    finally:
        con.close()

    jsonl = tmp_path / "cards-2019.jsonl.gz"
    with gzip.open(SCRYFALL_2019, "rt", encoding="utf-8") as src, gzip.open(jsonl, "wt", encoding="utf-8") as dst:
        for obj in json.load(src):
            dst.write(json.dumps(obj, ensure_ascii=False) + "\n")
    jsonl_db = tmp_path / "jsonl.duckdb"
    shutil.copy(array_db, jsonl_db)  # the copy only lends its parse cache: the build reads every record anew
    outcome = refresh([jsonl], jsonl_db, force=True)
    assert outcome.status == "ok" and outcome.parsed == 0
    assert outcome.changes == {}  # the same cards in another container: nothing changed
    for table in COMPARED_TABLES:
        assert table_rows(array_db, table) == table_rows(jsonl_db, table), table


def changes(db, name):
    return rows(db, "SELECT change, cause, face_index, detail, old_value, new_value FROM card_changes "
                    "WHERE name = ? ORDER BY change", [name])


def test_changelog_lists_the_real_errata_between_2019_and_2022(mtgjson_over_scryfall):
    db, outcome = mtgjson_over_scryfall
    # what the source data alone decides (grammar-made kinds, abilities and produced_mana, move with the grammar)
    assert {k: outcome.changes[k] for k in ("added", "removed", "type_line", "faces", "oracle_text")} == {
        "added": 3_799, "removed": 21, "type_line": 357, "faces": 25, "oracle_text": 2_310}
    assert rows(db, "SELECT DISTINCT run_id FROM card_changes") == [(2,)]
    # Oracle errata of 2021 ("converted mana cost" became "mana value"), with the raw texts
    assert changes(db, "Food Chain")[1] == (
        "oracle_text", "source", 0, None,
        "Exile a creature you control: Add X mana of any one color, where X is 1 plus the exiled creature's "
        "converted mana cost. Spend this mana only to cast creature spells.",
        "Exile a creature you control: Add X mana of any one color, where X is 1 plus the exiled creature's "
        "mana value. Spend this mana only to cast creature spells.")
    # errata at ability level: the mana ability of Lotus Field now says "any one color"
    assert rows(db, "SELECT face_index, change, old_index, new_index, old_kind, new_kind, old_text, new_text, "
                    "is_mana_ability FROM ability_changes JOIN cards USING (oracle_id) WHERE name = 'Lotus Field'") == [
        (0, "changed", 3, 3, "activated", "activated", "{T}: Add three mana of any color.",
         "{T}: Add three mana of any one color.", True)]
    # a type-line update (the Phyrexian creature type, 2022) and a layout the two sources name differently
    assert changes(db, "Plague Myr") == [
        ("type_line", "source", None, None, "Artifact Creature — Myr", "Artifact Creature — Phyrexian Myr")]
    assert changes(db, "Appeal // Authority") == [
        ("faces", "source", None, None, '{"layout":"split","faces":["Appeal","Authority"]}',
         '{"layout":"aftermath","faces":["Appeal","Authority"]}')]
    # a card added since 2019 and one the 2022 files do not hold
    assert changes(db, "Lurrus of the Dream-Den") == [("added", "source", None, None, None, None)]
    assert changes(db, "Angelic Reward") == [("removed", "source", None, None, None, None)]
    # same normalized text (MTGJSON's "[+1]:" is Scryfall's "+1:"): no text, ability or mana change
    # (their legalities did change: formats rotate)
    for name in ("Ajani Goldmane", "Llanowar Elves"):
        assert [c for c in changes(db, name) if c[0] != "legality"] == [], name
    # a ban of January 2020: Mox Opal, legal in Modern in the 2019 file, banned there in 2022
    assert ("legality", "source", None, "modern", "legal", "banned") in changes(db, "Mox Opal")
