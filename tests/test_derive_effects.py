"""Golden values of effects on characteristics, conditional self-abilities, dependence and
recipients (docs/mana.md), on real cards: fresh parses of their MTGJSON 2022 Oracle text.
Each test name says the rule the value follows."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.derive.mana import FaceMana, face_mana, mana_ability_rows
from pipeline.normalize.ingest import collect
from pipeline.parse import parse_face

MTGJSON = Path(__file__).parents[1].parent / "shared" / "corpus" / "mtgjson-v5-20220425"

#: name → (set file, oracle_id): real cards, first printing in the corpus.
CARDS = {
    "Urborg, Tomb of Yawgmoth": ("M15", "db6174d7-211d-4817-b8e4-8384594c83f9"),
    "Yavimaya, Cradle of Growth": ("MH2", "8dd5f5af-d2d8-4356-8617-8381081b930c"),
    "Blood Moon": ("2XM", "94fac5fe-97d5-4c12-a80c-8efff9d853ae"),
    "Magus of the Moon": ("FUT", "6800d01c-345d-4932-a2a4-8df0fb1902f2"),
    "Spreading Seas": ("ZEN", "af32757c-9d3c-4f6c-a6fa-d5729a440382"),
    "Prismatic Omen": ("SHM", "d90882ae-6572-4214-8d9c-0bdfb75f9be2"),
    "Dryad of the Ilysian Grove": ("PTHB", "bdbde5d0-f5e4-44da-b27c-b4ad6f374cc9"),
    "Life and Limb": ("PLC", "d0d7250b-70d2-43f9-ae15-837227061ccb"),
    "Honored Hierarch": ("CP3", "ae42fa8a-b0f6-43dc-a4c6-e2531890ca3a"),
    "Orochi Merge-Keeper": ("NEO", "53e39011-3d77-4883-9c8e-4707f6fc5c47"),
    "Riftstone Portal": ("JUD", "8d7e05ba-5406-4d5e-bb8f-a4a6f3b0eaa7"),
    "Bloom Tender": ("EVE", "0c23fefe-9891-4dd8-9bb1-eebdb3274e31"),
    "Faeburrow Elder": ("ELD", "70a6f08e-854d-4e2f-9d8c-c45ec3231157"),
    "Buy Your Silence": ("SNC", "2fd01a30-0c0e-4ac5-b96d-b2a6dad31f0c"),
    "Wanted Scoundrels": ("XLN", "1c63c4ca-5d5a-4ab9-af0d-ed1254b581cc"),
    "Smothering Tithe": ("PRNA", "153376c9-dffd-458c-8ce3-a4c8269bc4e9"),
    "Joraga Treespeaker": ("PLIST", "a011aefe-5853-4435-b686-179e931ba897"),
    "Sorcerer Class": ("AFR", "19ba0f2d-4de3-49a0-be7d-da0aa220cd8a"),
    "Stonework Packbeast": ("ZNR", "782c47c5-b108-415c-9b70-a033ac52956f"),
    "Song of the Dryads": ("C14", "7c3944fa-7c86-4979-85a9-86196aa94594"),
    "Ashaya, Soul of the Wild": ("PZNR", "162572f2-1757-42e9-bd97-e6bd9a762c0e"),
    "Nature's Embrace": ("DBL", "9ab101c2-215b-4736-873a-4a1ef6666b6d"),
}

pytestmark = pytest.mark.corpus


@pytest.fixture(scope="module")
def mana() -> dict[str, FaceMana]:
    collection, _ = collect([MTGJSON / f"{s}.json.gz" for s in sorted({s for s, _ in CARDS.values()})])
    out = {}
    for name, (_, oid) in CARDS.items():
        total = FaceMana()
        for face in collection.cards[oid].faces:
            asts = [a.to_json() for a in parse_face(face.oracle_text, name=face.name, type_line=face.type_line or "")]
            total = total.merge(face_mana(asts, face.type_line))
        out[name] = total
    return out


def _effects(fm: FaceMana, kind: str) -> list:
    return [e for e in fm.effects if e.effect == kind]


# ----------------------------------------------------------------- CR 305.7 / 205.1b land types
@pytest.mark.parametrize("name, letter", [("Urborg, Tomb of Yawgmoth", "B"), ("Yavimaya, Cradle of Growth", "G")])
def test_cr_305_7_land_type_added_to_each_land_reaches_the_land_itself(mana, name, letter):
    fm = mana[name]
    assert fm.produced == [letter] and fm.granted == [letter]
    (e,) = _effects(fm, "land_types_added")
    assert (e.includes_self, e.includes_others, e.zone, e.grants_mana) == (True, True, "battlefield", [letter])
    rows = [r for r in mana_ability_rows(fm) if r["origin"] == "land_type_effect"]
    assert [(r["produces"], r["is_mana_ability"], r["has_tap_cost"]) for r in rows] == [([letter], True, True)]
    assert "305.7" in rows[0]["rule"] and "305.6" in rows[0]["rule"]


@pytest.mark.parametrize("name", ["Blood Moon", "Magus of the Moon"])
def test_cr_305_7_land_type_set_on_nonbasic_lands_grants_red_to_others_only(mana, name):
    fm = mana[name]
    assert (fm.produced, fm.granted) == ([], ["R"])
    (e,) = _effects(fm, "land_types_set")
    assert (e.values, e.includes_self, e.includes_others) == (["mountain"], False, True)


def test_cr_305_7_enchanted_land_is_an_island_grants_blue_spreading_seas(mana):
    fm = mana["Spreading Seas"]
    assert (fm.produced, fm.granted) == ([], ["U"])
    (e,) = _effects(fm, "land_types_set")
    assert (e.affected, e.includes_self) == ("Enchanted land", False)


@pytest.mark.parametrize("name", ["Prismatic Omen", "Dryad of the Ilysian Grove"])
def test_cr_305_6_every_basic_land_type_in_addition_grants_all_five_colors(mana, name):
    fm = mana[name]
    assert fm.produced == [] and fm.granted == ["W", "U", "B", "R", "G"]
    (e,) = _effects(fm, "land_types_added")
    assert e.values == ["plains", "island", "swamp", "mountain", "forest"] and not e.includes_self


def test_cr_305_7_enchanted_permanent_is_a_forest_land_never_the_aura_song_of_the_dryads(mana):
    fm = mana["Song of the Dryads"]
    assert (fm.produced, fm.granted) == ([], ["G"])
    (e,) = _effects(fm, "land_types_set")
    assert (e.includes_self, e.includes_others) == (False, True)


def test_cr_305_6_nontoken_creatures_become_forest_lands_ashaya_itself_included(mana):
    fm = mana["Ashaya, Soul of the Wild"]           # a nontoken creature you control: a Forest land too
    assert (fm.produced, fm.granted) == (["G"], ["G"])


def test_cr_305_7_saprolings_become_forest_lands_life_and_limb(mana):
    fm = mana["Life and Limb"]                      # an Enchantment: neither a Forest nor a Saproling
    assert (fm.produced, fm.granted) == ([], ["G"])
    land, types = _effects(fm, "land_types_added"), _effects(fm, "types_added")
    assert [(e.values, e.includes_self, e.pt) for e in land] == [(["forest"], False, "1/1")]
    assert [e.values for e in types] == [["saproling", "creature", "land"]]


def test_cr_205_1b_is_also_a_adds_creature_types_to_itself_stonework_packbeast(mana):
    (e,) = _effects(mana["Stonework Packbeast"], "types_added")
    assert (e.values, e.includes_self, e.includes_others, e.rule) == (
        ["cleric", "rogue", "warrior", "wizard"], True, False, "CR 205.1b")


# ----------------------------------------------------------------- conditional self-abilities
@pytest.mark.parametrize("name, produced, condition", [
    ("Honored Hierarch", ["W", "U", "B", "R", "G"], "~ is renowned"),
    ("Orochi Merge-Keeper", ["G"], "~ is modified"),
])
def test_cr_613_1f_as_long_as_it_has_is_the_cards_own_ability_with_its_condition(mana, name, produced, condition):
    fm = mana[name]
    assert fm.produced == produced and fm.granted == [] and fm.token == []
    rows = [r for r in mana_ability_rows(fm) if r["origin"] == "granted_to_self"]
    assert [(r["condition"], r["is_mana_ability"]) for r in rows] == [(condition, True)]


def test_cr_613_1f_it_under_a_condition_about_another_object_is_that_object_natures_embrace(mana):
    """"As long as enchanted permanent is a land, it has '{T}: Add two mana of any one color.'": "it"
    is the enchanted permanent, never the Aura."""
    fm = mana["Nature's Embrace"]
    assert (fm.produced, fm.granted) == ([], ["W", "U", "B", "R", "G"])


def test_cr_711_2_leveler_abilities_hold_under_their_level_joraga_treespeaker(mana):
    rows = mana_ability_rows(mana["Joraga Treespeaker"])
    assert sorted((r["origin"], r["condition"], r["is_mana_ability"], r["has_tap_cost"]) for r in rows) == [
        ("granted_to_self", "level 5+", True, True), ("text", "level 1-4", True, True)]


def test_cr_716_2a_class_level_abilities_hold_from_their_level_sorcerer_class(mana):
    fm = mana["Sorcerer Class"]
    assert (fm.produced, fm.granted) == ([], ["U", "R"])       # creatures you control; a Class is no creature
    (e,) = _effects(fm, "ability_granted")
    assert e.condition == "class level 2 or greater"


# ----------------------------------------------------------------- zones (CR 109.2, 113.6b)
def test_cr_109_2_graveyard_grant_to_lands_does_not_reach_the_card_riftstone_portal(mana):
    fm = mana["Riftstone Portal"]
    assert (fm.produced, fm.granted) == (["C"], ["W", "G"])
    (e,) = _effects(fm, "ability_granted")
    assert (e.zone, e.includes_self, e.includes_others) == ("graveyard", False, True)


# ----------------------------------------------------------------- dependence (CR 106.7)
@pytest.mark.parametrize("name", ["Bloom Tender", "Faeburrow Elder"])
def test_cr_106_7_for_each_color_among_permanents_is_dependent(mana, name):
    fm = mana[name]
    assert fm.produced == ["W", "U", "B", "R", "G"] and fm.dependent
    (row,) = [r for r in mana_ability_rows(fm) if r["origin"] == "text"]
    assert (row["production_kind"], row["is_dependent"]) == ("dependent", True)


# ----------------------------------------------------------------- recipients (CR 111.2)
@pytest.mark.parametrize("name, recipient, kind, counted", [
    ("Buy Your Silence", "Its controller", "other_controller", True),     # you may exile your own permanent
    ("Wanted Scoundrels", "target opponent", "opponent", False),
    ("Smothering Tithe", "you", "you", True),
])
def test_cr_111_2_token_recipient_is_recorded(mana, name, recipient, kind, counted):
    fm = mana[name]
    (index, t), = fm.tokens
    assert (t.token, t.recipient, t.recipient_kind, t.produces) == ("Treasure", recipient, kind, ["W", "U", "B", "R", "G"])
    assert fm.token == (["W", "U", "B", "R", "G"] if counted else [])
