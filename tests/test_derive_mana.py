"""Pure produced-mana functions (pipeline.derive.mana / compare) on parses of real Oracle text.

Texts are the cards' real Oracle lines (2019 Scryfall / 2022 MTGJSON wording, from the corpus)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.derive.compare import CATEGORIES, CardView, classify, mentions_adding_mana
from pipeline.derive.mana import (
    BASIC_LAND_TYPES,
    COLOR_ORDER,
    add_mana_types,
    analyze_ability,
    card_mana,
    face_mana,
    produced_mana_for_face,
    sort_types,
    subject_includes_self,
    symbol_types,
)
from pipeline.parse import PRODUCTION_KINDS, parse_face
from pipeline.parse.transform import mana_symbol
from tests.conftest import scryfall_objects


def abilities(obj: dict) -> list[dict]:
    """AST dicts of a real single-faced Scryfall card object."""
    return [a.to_json() for a in parse_face(obj["oracle_text"], name=obj["name"], type_line=obj["type_line"])]


# --------------------------------------------------------------------------- symbols, CR 106.8-106.11
@pytest.mark.parametrize("raw, types", [
    ("{G}", {"G"}), ("{C}", {"C"}),
    ("{2}", {"C"}),            # CR 106.10 generic → colorless
    ("{S}", {"C"}),            # CR 106.11 snow → colorless
    ("{W/U}", {"W", "U"}),     # CR 106.8 hybrid: either half
    ("{2/W}", {"W", "C"}),     # CR 106.8 two-brid: the generic half is colorless
    ("{G/P}", {"G"}),          # CR 106.9 Phyrexian
    ("{T}", set()), ("{Q}", set()), ("{X}", set()), ("{E}", set()),
])
def test_symbol_types_follow_cr_106(raw, types):
    assert symbol_types(mana_symbol(raw).to_json()) == types


def test_every_production_kind_is_handled_and_unknown_is_an_error():
    for kind in PRODUCTION_KINDS:
        types, _ = add_mana_types({"node": "AddMana", "production": kind, "symbols": [], "options": [], "text": ""})
        assert types <= set(COLOR_ORDER)
    with pytest.raises(ValueError, match="Add seven mana"):
        add_mana_types({"node": "AddMana", "production": "seven", "text": "Add seven mana"})


@given(st.lists(st.sampled_from(list(COLOR_ORDER))))
def test_sort_types_is_wubrgc_and_idempotent(letters):
    out = sort_types(letters)
    assert out == [c for c in COLOR_ORDER if c in letters]
    assert sort_types(out) == out


def test_sort_types_names_the_bad_letter():
    with pytest.raises(ValueError, match="'X'"):
        sort_types(["G", "X"])


# --------------------------------------------------------------------------- basic land types, CR 305.6
@given(st.lists(st.sampled_from(sorted(BASIC_LAND_TYPES)), unique=True),
       st.sampled_from(["Land", "Basic Land", "Snow Land", "Land Creature", "Basic Snow Land", "Artifact Land"]))
def test_land_with_basic_land_types_produces_their_colors(subtypes, head):
    type_line = head + (" — " + " ".join(subtypes) if subtypes else "")
    assert produced_mana_for_face([], type_line) == sort_types(BASIC_LAND_TYPES[t] for t in subtypes)


@given(st.lists(st.sampled_from(sorted(BASIC_LAND_TYPES)), min_size=1, unique=True))
def test_basic_land_type_words_on_a_nonland_produce_nothing(subtypes):
    # "Forest" as a word in a creature/enchantment type line is no land type (CR 305.6 needs a land).
    assert produced_mana_for_face([], "Enchantment — Aura " + " ".join(subtypes)) == []


# --------------------------------------------------------------------------- real cards
def test_reminder_text_never_counts_cr_207_2a():
    forest, tropical, goose = scryfall_objects("Forest", "Tropical Island", "Gilded Goose")
    # The basic Forest's only line is reminder text: produced mana comes from the type line.
    assert [a["kind"] for a in abilities(forest)] == ["reminder"]
    assert face_mana(abilities(forest), "Creature").produced == []
    assert face_mana(abilities(forest), forest["type_line"]).produced == ["G"]
    assert face_mana(abilities(tropical), tropical["type_line"]).produced == ["U", "G"]
    # Gilded Goose's Food reminder text adds nothing; its own "Sacrifice a Food" ability adds any color.
    fm = face_mana(abilities(goose), goose["type_line"])
    assert fm.produced == ["W", "U", "B", "R", "G"] and fm.token == []


def test_token_with_quoted_ability_2019_wording():
    (sailor,) = scryfall_objects("Sailor of Means")
    assert "Treasure artifact token with" in sailor["oracle_text"]
    fm = face_mana(abilities(sailor), sailor["type_line"])
    assert (fm.produced, fm.token, fm.granted) == ([], ["W", "U", "B", "R", "G"], [])


def test_loyalty_and_targeted_abilities_add_mana_but_are_no_mana_abilities():
    deathrite, = scryfall_objects("Deathrite Shaman")
    first = analyze_ability(abilities(deathrite)[0], deathrite["type_line"])
    assert first.produces == ["W", "U", "B", "R", "G"]
    assert first.has_target and not first.is_mana_ability          # CR 605.5a


def test_granted_ability_reaches_the_card_only_when_it_is_in_the_group():
    subject = {"node": "Obj", "quantifier": None, "count": None, "words": ["creatures", "you", "control"],
               "text": "creatures you control"}
    assert subject_includes_self(subject, "Creature — Human Druid") == (True, True)
    assert subject_includes_self(subject, "Enchantment") == (False, True)
    other = dict(subject, words=["other", "creatures", "you", "control"], text="other creatures you control")
    assert subject_includes_self(other, "Creature — Elf") == (False, True)
    elves = dict(subject, words=["elves", "you", "control"], text="elves you control")
    assert subject_includes_self(elves, "Creature — Elf Druid") == (True, True)
    assert subject_includes_self({"node": "SelfRef", "text": "~"}, "Land") == (True, False)


@settings(max_examples=20, deadline=None)
@given(st.permutations([0, 1]))
def test_card_mana_is_the_union_of_faces_in_any_order(order):
    # Real modal double-faced card: Emeria's Call (sorcery) // Emeria, Shattered Skyclave (land).
    faces = [
        ("Create two 4/4 white Angel Warrior creature tokens with flying. Non-Angel creatures you control "
         "gain indestructible until your next turn.", "Emeria's Call", "Sorcery"),
        ("As Emeria, Shattered Skyclave enters the battlefield, you may pay 3 life. If you don't, it enters "
         "the battlefield tapped.\n{T}: Add {W}.", "Emeria, Shattered Skyclave", "Land"),
    ]
    parsed = [([a.to_json() for a in parse_face(t, name=n, type_line=tl)], tl) for t, n, tl in faces]
    got = card_mana([parsed[i] for i in order])
    assert got.produced == ["W"] and not got.dependent
    assert got.produced == sort_types(itertools.chain.from_iterable(
        produced_mana_for_face(a, tl) for a, tl in parsed))


# --------------------------------------------------------------------------- compare
def test_classify_categories_on_real_derivations():
    gift, pool = scryfall_objects("Gift of Paradise", "Reflecting Pool")
    g = face_mana(abilities(gift), gift["type_line"])
    view = CardView(produced=g.produced, granted=g.granted, token=g.token)
    # A reference that counts the granted ability (Scryfall-style) → granted_mana.
    assert classify(view, ["B", "G", "R", "U", "W"]) == "granted_mana"
    assert classify(view, []) is None
    p = face_mana(abilities(pool), pool["type_line"])
    pview = CardView(produced=p.produced, dependent=p.dependent,
                     kinds=[pr.production_kind for _, am in p.abilities for pr in am.own])
    assert classify(pview, ["W", "U", "B", "R", "G"]) == "colorless_breadth"
    assert classify(pview, ["W", "U", "B", "R", "G", "C"]) is None
    assert set(CATEGORIES) >= {"granted_mana", "token_mana", "unparsed_mana_line", "colorless_breadth"}


def test_mentions_adding_mana_ignores_reminder_text():
    assert mentions_adding_mana("{T}: Add {G}.")
    assert mentions_adding_mana("Whenever enchanted land is tapped for mana, its controller adds an additional {G}.")
    assert not mentions_adding_mana('Create a Treasure token. (It\'s an artifact with "{T}, Sacrifice this '
                                    'artifact: Add one mana of any color.")')


@pytest.mark.parametrize("name, type_line, text, targeted, mana_ability", [
    # CR 115.1c: "Target creature" makes the ability targeted → not a mana ability (CR 605.5a),
    # though it could add {R}x8.
    ("Soulbright Flamekin", "Creature — Elemental Shaman",
     "{2}: Target creature gains trample until end of turn. If this is the third time this ability has "
     "resolved this turn, you may add {R}{R}{R}{R}{R}{R}{R}{R}.", True, False),
    # "choose new targets for the copy" is no "target [something]" of this ability: a mana ability.
    ("Pyromancer's Goggles", "Legendary Artifact",
     "{T}: Add {R}. When that mana is spent to cast a red instant or sorcery spell, copy that spell and you "
     "may choose new targets for the copy.", False, True),
    # A quoted ability granted to a token is not the granting ability's own text.
    ("Llanowar Elves", "Creature — Elf Druid", "{T}: Add {G}.", False, True),
])
def test_targets_by_cr_115_1c(name, type_line, text, targeted, mana_ability):
    (ability,) = [a.to_json() for a in parse_face(text, name=name, type_line=type_line)]
    am = analyze_ability(ability, type_line)
    assert (am.has_target, am.is_mana_ability) == (targeted, mana_ability)
    assert am.produces == (["R"] if "{R}" in text else ["G"])
