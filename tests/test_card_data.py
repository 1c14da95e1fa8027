"""Card data on real records: printings, legalities, card_names and card-level facts, from the
2019 Scryfall file and MTGJSON 2022 set files; name lookup that folds accents and case."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import duckdb
import pytest

from pipeline.normalize.facts import card_facts, commander_by_rule
from pipeline.normalize.ingest import collect
from pipeline.refresh import refresh
from pipeline.serve.card_page import render_card_page
from pipeline.store.card_data import load_card_data
from pipeline.store.schema import create_tables
from tests.conftest import MTGJSON_DIR, rows, scryfall_2019, write_gzip_json

pytestmark = pytest.mark.corpus

SCRYFALL_NAMES = {"Llanowar Elves", "Gaea's Cradle", "Chicken à la King", "Treetop Warden", "Jace Beleren",
                  "Delver of Secrets // Insectile Aberration", "Cliffside Rescuer", "Jötun Grunt",
                  "Lim-Dûl's Vault", "Ornithopter", "Bruna, the Fading Light", "Brisela, Voice of Nightmares"}
LLANOWAR = "68954295-54e3-4303-a6bc-fc4547a4e3a3"


@pytest.fixture(scope="module")
def scryfall_db(tmp_path_factory):
    """A database built by `refresh` from every 2019 Scryfall object (all languages) of SCRYFALL_NAMES."""
    tmp = tmp_path_factory.mktemp("scryfall")
    objs = [o for o in scryfall_2019() if o["name"] in SCRYFALL_NAMES]
    db = tmp / "cards.duckdb"
    assert refresh([write_gzip_json(tmp / "cards.json.gz", objs)], db).status == "ok"
    return db


def one(db, sql, params=None):
    (row,) = rows(db, sql, params)
    return row


def test_scryfall_llanowar_elves_legalities_and_first_printing(scryfall_db):
    # Scryfall lists every format, not_legal included; values are the newest printing's (wc02 here)
    got = dict(rows(scryfall_db, "SELECT format, status FROM legalities WHERE oracle_id = ?", [LLANOWAR]))
    assert got == {"standard": "legal", "future": "legal", "frontier": "legal", "modern": "legal", "legacy": "legal",
                   "pauper": "legal", "vintage": "legal", "penny": "not_legal", "commander": "legal", "duel": "legal",
                   "oldschool": "not_legal"}
    assert rows(scryfall_db, "SELECT DISTINCT status = source_status FROM legalities") == [(True,)]
    assert one(scryfall_db, "SELECT first_released_at, first_set_code, reserved, is_digital_only, is_funny, edhrec_rank "
                            "FROM cards WHERE oracle_id = ?", [LLANOWAR]) == (dt.date(1993, 8, 5), "lea", False, False,
                                                                             False, 102)
    assert one(scryfall_db, "SELECT set_name, released_at, rarity, artist, games, frame, border_color, tcgplayer_id "
                            "FROM printings WHERE oracle_id = ? AND set_code = 'ath'", [LLANOWAR]) == (
        "Anthologies", dt.date(1998, 11, 1), "common", "Anson Maddocks", ["paper"], "1997", "white", 79596)


def test_scryfall_every_printing_has_set_name_date_and_rarity(scryfall_db):
    total, named, dated, rare, cardmarket = one(
        scryfall_db, "SELECT count(*), count(set_name), count(released_at), count(rarity), count(cardmarket_id) "
                     "FROM printings")
    assert total == len([o for o in scryfall_2019() if o["name"] in SCRYFALL_NAMES])
    assert (named, dated, rare) == (total, total, total)
    assert cardmarket == 0  # the 2019 file predates cardmarket_id: NULL, never invented


def test_scryfall_reserved_funny_digital_only_cards(scryfall_db):
    facts = dict((name, rest) for name, *rest in rows(
        scryfall_db, "SELECT name, reserved, is_funny, is_digital_only, first_set_code FROM cards"))
    assert facts["Gaea's Cradle"] == [True, False, False, "jgp"]  # Judge gift dated 1998-01-01, before Urza's Saga
    assert facts["Chicken à la King"] == [False, True, False, "ugl"]  # silver border
    assert facts["Treetop Warden"] == [False, False, True, "ana"]  # Arena New Player Experience only
    assert facts["Ornithopter"][:3] == [False, False, False]
    assert one(scryfall_db, "SELECT games, digital, arena_id FROM printings p JOIN cards c USING (oracle_id) "
                            "WHERE c.name = 'Treetop Warden'") == (["arena"], True, 69119)


def test_scryfall_images_per_face_and_prices(scryfall_db):
    (images,) = one(scryfall_db, "SELECT image_uris FROM printings p JOIN cards c USING (oracle_id) "
                                 "WHERE c.name LIKE 'Delver of Secrets%' AND set_code = 'v17'")
    assert [(i["face_index"], i["normal"]) for i in images] == [
        (0, "https://img.scryfall.com/cards/normal/en/v17/7a.jpg?1519598434"),
        (1, "https://img.scryfall.com/cards/normal/en/v17/7b.jpg?1519598434")]
    # prices as the object gives them; a local file carries no date, so prices_date stays NULL
    assert one(scryfall_db, "SELECT price_usd, price_usd_foil, price_eur, price_tix, prices_date FROM printings "
                            "WHERE set_code = 'c19' AND collector_number = '1'") == (
        Decimal("0.51"), None, Decimal("0.18"), None, None)


def test_scryfall_printed_name_in_card_names(scryfall_db):
    assert one(scryfall_db, "SELECT c.name, n.lang FROM card_names n JOIN cards c USING (oracle_id) "
                            "WHERE n.name = 'ジェイス・ベレレン'") == ("Jace Beleren", "ja")
    assert one(scryfall_db, "SELECT printed_name, lang FROM printings WHERE set_code = 'pdd2' AND lang = 'ja' "
                            "AND collector_number = '1'") == ("ジェイス・ベレレン", "ja")


@pytest.mark.parametrize("typed, found", [
    ("Jotun Grunt", "Jötun Grunt"), ("lim-dul's vault", "Lim-Dûl's Vault"), ("LIM-DÛL’S VAULT", "Lim-Dûl's Vault"),
    ("chicken a la king", "Chicken à la King"), ("ジェイス・ベレレン", "Jace Beleren"), ("insectile aberration",
                                                                                     "Delver of Secrets // Insectile Aberration")])
def test_card_lookup_folds_accents_case_and_languages(scryfall_db, typed, found):
    con = duckdb.connect(str(scryfall_db), read_only=True)
    try:
        assert render_card_page(con, typed).splitlines()[0] == found
    finally:
        con.close()


def test_card_lookup_suggests_the_closest_names(scryfall_db):
    con = duckdb.connect(str(scryfall_db), read_only=True)
    try:
        with pytest.raises(LookupError) as err:
            render_card_page(con, "Llanowar Elfs")
    finally:
        con.close()
    assert str(err.value).startswith("no card named 'Llanowar Elfs' in the database; closest names: Llanowar Elves")


def test_card_lookup_shows_tokens(bundled_db):
    con = duckdb.connect(str(bundled_db), read_only=True)
    try:
        page = render_card_page(con, "treasure")
    finally:
        con.close()
    lines = page.splitlines()
    assert lines[:4] == ["Treasure", "========", "Not a card: a token (other_objects)", "Token Artifact — Treasure"]
    assert lines[4] == "{T}, Sacrifice this artifact: Add one mana of any color."


# --- MTGJSON: set files read without the parse stage (collect → card data tables) -------------------

MTGJSON_SETS = ("LEA", "DOM", "M19", "ZNR", "UGL", "CSP")


@pytest.fixture(scope="module")
def mtgjson():
    collection, info = collect([MTGJSON_DIR / f"{code}.json.gz" for code in MTGJSON_SETS])
    con = duckdb.connect()
    create_tables(con)
    cards = list(collection.cards.values())
    counts = load_card_data(con, cards, info)
    yield collection, con, counts
    con.close()


def named(collection, name):
    (card,) = [c for c in collection.cards.values() if c.name == name]
    return card


def test_mtgjson_llanowar_elves(mtgjson):
    collection, con, _ = mtgjson
    elves = named(collection, "Llanowar Elves")
    # MTGJSON lists only formats where the card is legal/banned/restricted: no standard row (rotated by 2022)
    assert con.execute("SELECT format, status, source_status FROM legalities WHERE oracle_id = ? ORDER BY format",
                       [LLANOWAR]).fetchall() == [
        (f, "legal", "Legal") for f in ("commander", "duel", "explorer", "gladiator", "historic", "historicbrawl",
                                       "legacy", "modern", "pauper", "paupercommander", "penny", "pioneer",
                                       "premodern", "vintage")]
    facts = card_facts(elves)
    assert (facts.first_released_at, facts.first_set_code, facts.edhrec_rank) == (dt.date(1993, 8, 5), "LEA", 54)
    assert con.execute("SELECT set_code, set_name, set_type, released_at, rarity, artist, mtgjson_uuid, cardmarket_id, "
                       "arena_id, multiverse_ids FROM printings WHERE oracle_id = ? AND set_code = 'DOM'",
                       [LLANOWAR]).fetchone() == (
        "DOM", "Dominaria", "expansion", dt.date(2018, 4, 27), "common", "Chris Rahn",
        "8e40b6d6-c40b-5ce9-91e1-9b8eb48e81f0", 319744, 67440, [443056])


def test_mtgjson_foreign_names_use_scryfall_codes(mtgjson):
    _, con, _ = mtgjson
    assert con.execute("SELECT oracle_id, lang FROM card_names WHERE name = 'Llanowarelfen'").fetchall() == [
        (LLANOWAR, "de")]
    langs = {r[0] for r in con.execute("SELECT DISTINCT lang FROM card_names").fetchall()}
    assert {"en", "de", "fr", "it", "es", "pt", "ja", "ko", "ru", "zhs", "zht"} <= langs
    assert not {"German", "Japanese", "Portuguese (Brazil)"} & langs


def test_mtgjson_digital_only_funny_reserved(mtgjson):
    collection, _, _ = mtgjson
    assert card_facts(named(collection, "A-Base Camp")).is_digital_only is True  # Alchemy rebalanced: Arena only
    assert card_facts(named(collection, "Base Camp")).is_digital_only is False
    assert card_facts(named(collection, "Chicken à la King")).is_funny is True
    assert card_facts(named(collection, "Forest")).is_funny is False  # printed in UGL and in normal sets
    assert card_facts(named(collection, "Black Lotus")).reserved is True
    assert card_facts(named(collection, "Llanowar Elves")).reserved is False


def test_mtgjson_every_printing_has_set_name_date_and_rarity(mtgjson):
    _, con, counts = mtgjson
    total, named_, dated, rare, images, prices = con.execute(
        "SELECT count(*), count(set_name), count(released_at), count(rarity), count(image_uris), count(price_usd) "
        "FROM printings").fetchone()
    assert total == counts["printings"] > 1000
    assert (named_, dated, rare) == (total, total, total)
    assert (images, prices) == (0, 0)  # MTGJSON set files have neither


def test_commander_leadership_skills_agree_with_cr_903_3_except_vehicles(mtgjson):
    # MTGJSON 2022 leadershipSkills follow the rules of 2022; CR 903.3 (2026) also admits legendary Vehicles
    collection, _, _ = mtgjson
    differ = sorted(c.name for c in collection.cards.values() if commander_by_rule(c) != card_facts(c).can_be_commander)
    assert differ == ["Weatherlight"]
    assert card_facts(named(collection, "Teshar, Ancestor's Apostle")).can_be_commander is True
    assert card_facts(named(collection, "Llanowar Elves")).can_be_commander is False


def test_bundled_snapshot_keeps_the_card_data(bundled_db):
    # the snapshot is AllPrintings-shaped: each set object keeps its name, type and release date
    assert one(bundled_db, "SELECT count(*), count(set_name), count(set_type), count(released_at), count(rarity) "
                           "FROM printings") == (4377,) * 5
    assert one(bundled_db, "SELECT set_name, set_type, released_at FROM printings WHERE set_code = 'DOM' LIMIT 1") == (
        "Dominaria", "expansion", dt.date(2018, 4, 27))
    assert one(bundled_db, "SELECT count(*) FROM legalities") == (35489,)
    # the README's first query without digital-only cards: A-Base Camp (Arena only) no longer comes first
    first = rows(bundled_db, "SELECT name FROM cards WHERE list_contains(produced_mana, 'G') ORDER BY name LIMIT 1")
    paper = rows(bundled_db, "SELECT name FROM cards WHERE list_contains(produced_mana, 'G') AND NOT is_digital_only "
                             "ORDER BY name LIMIT 1")
    assert (first, paper) == ([("A-Base Camp",)], [("Abandoned Outpost",)])


def test_scryfall_commander_by_cr_903_3_not_for_a_meld_result(scryfall_db):
    got = dict(rows(scryfall_db, "SELECT name, can_be_commander FROM cards WHERE name IN "
                                 "('Bruna, the Fading Light', 'Brisela, Voice of Nightmares', 'Jace Beleren', "
                                 "'Llanowar Elves')"))
    # Bruna: legendary creature (CR 903.3); Brisela: the melded back face, no card of a deck (CR 712.4)
    assert got == {"Bruna, the Fading Light": True, "Brisela, Voice of Nightmares": False, "Jace Beleren": False,
                   "Llanowar Elves": False}
    assert rows(scryfall_db, "SELECT DISTINCT can_be_brawl_commander, can_be_oathbreaker FROM cards") == [(None, None)]
