"""Unit tests of pipeline.parse on real card text (MTGJSON 2022 corpus wording).

Current-wording variants ("enters", "this creature") are derived from the corpus text by the
documented substitution (docs/ast.md § Normalisation) — the corpus predates that wording.
"""

from __future__ import annotations

import json

import pytest

from pipeline.parse import GRAMMAR_VERSION, parse_face
from pipeline.parse import ast as A
from pipeline.parse.normalize import normalize_text, self_names


def body_json(abilities):
    return [a.body.to_json() for a in abilities]


def first(abilities, cls):
    for a in abilities:
        for n in a.body.walk():
            if isinstance(n, cls):
                return n
    raise AssertionError(f"no {cls.__name__}")


def test_llanowar_elves_mana_ability():
    (a,) = parse_face("{T}: Add {G}.", name="Llanowar Elves", type_line="Creature — Elf Druid")
    assert a.kind == "activated" and a.no_unparsed and a.is_mana_ability
    add = first([a], A.AddMana)
    assert add.production == "fixed" and [s.raw for s in add.symbols] == ["{G}"]
    js = a.to_json()
    assert js["grammar_version"] == GRAMMAR_VERSION
    json.dumps(js)


def test_reflecting_pool_and_exotic_orchard_could_produce():
    rp = parse_face("{T}: Add one mana of any type that a land you control could produce.", name="Reflecting Pool")
    add = first(rp, A.AddMana)
    assert add.production == "could_produce" and add.of_type
    assert add.source.words == ["land"] and add.source.qualifiers == ["you_control"]
    eo = parse_face("{T}: Add one mana of any color that a land an opponent controls could produce.", name="Exotic Orchard")
    add = first(eo, A.AddMana)
    assert add.production == "could_produce" and not add.of_type
    assert add.source.qualifiers == ["opp_controls"]
    assert eo[0].is_mana_ability and rp[0].is_mana_ability


def test_one_of_and_any_one_color():
    add = first(parse_face("{T}: Add {R} or {G}.", name="Karplusan Forest"), A.AddMana)
    assert add.production == "one_of" and [[s.raw for s in o] for o in add.options] == [["{R}"], ["{G}"]]
    add = first(parse_face("{T}, Sacrifice Black Lotus: Add three mana of any one color.", name="Black Lotus"), A.AddMana)
    assert add.production == "any_color" and add.any_one_color and add.amount.value == 3


def test_wild_growth_triggered_mana_ability():
    ab = parse_face("Enchant land\nWhenever enchanted land is tapped for mana, its controller adds an additional {G}.",
                    name="Wild Growth", type_line="Enchantment — Aura")
    assert [a.kind for a in ab] == ["keyword", "triggered"]
    assert ab[1].is_mana_ability and ab[1].no_unparsed  # CR 605.1b
    add = first(ab[1:], A.AddMana)
    assert add.additional and add.player == "its controller"


def test_gemstone_mine_cost_components():
    ab = parse_face("{T}, Remove a mining counter from Gemstone Mine: Add one mana of any color.", name="Gemstone Mine")
    cost = ab[0].body.cost
    assert isinstance(cost.components[0], A.TapCost)
    rc = cost.components[1]
    assert rc.action == "remove_counters" and rc.counter == "mining" and rc.obj.quantifier == "self"


def test_untap_symbol_cost():
    (a,) = parse_face("{1}{W}, {Q}: Create a 1/1 white Kithkin Soldier creature token. ({Q} is the untap symbol.)",
                      name="Patrol Signaler")
    assert [type(c).__name__ for c in a.body.cost.components] == ["ManaCost", "UntapCost"]
    assert a.reminders == ["{Q} is the untap symbol."]


@pytest.mark.parametrize("text", ["-2: Target player sacrifices a creature.", "−2: Target player sacrifices a creature.",
                                  "[−2]: Target player sacrifices a creature.", "[-2]: Target player sacrifices a creature."])
def test_loyalty_cost_spellings(text):
    (a,) = parse_face(text, name="Liliana of the Veil", type_line="Legendary Planeswalker — Liliana")
    assert a.kind == "loyalty"
    lc = a.body.cost.components[0]
    assert lc.sign == "-" and lc.amount.value == 2 and a.no_unparsed and not a.is_mana_ability


def test_loyalty_x_and_zero():
    (a,) = parse_face("−X: Exile each permanent with mana value X or less that's one or more colors.", name="Ugin, the Spirit Dragon")
    assert a.body.cost.components[0].amount.kind == "x"
    (b,) = parse_face("0: Draw a card.", name="Test")
    assert b.kind == "loyalty" and b.body.cost.components[0].sign == ""


def test_clone_copy_effect_both_wordings():
    old = "You may have Clone enter the battlefield as a copy of any creature on the battlefield."
    new = "You may have this creature enter as a copy of any creature on the battlefield."
    a_old = parse_face(old, name="Clone", type_line="Creature — Shapeshifter")
    a_new = parse_face(new, name="Clone", type_line="Creature — Shapeshifter")
    assert body_json(a_old) == body_json(a_new)
    cp = first(a_old, A.CopyEffect)
    assert cp.mode == "enter_as_copy" and cp.optional and cp.subject.quantifier == "self"
    assert cp.original.words == ["creature"] and a_old[0].no_unparsed


def test_altered_ego_exception_counters():
    text = ("You may have Altered Ego enter the battlefield as a copy of any creature on the battlefield, "
            "except it enters with X additional +1/+1 counters on it.")
    cp = first(parse_face(text, name="Altered Ego"), A.CopyEffect)
    (exc,) = cp.exceptions
    assert exc.kind == "enters_with_counters"
    assert exc.value.counter == "+1/+1" and exc.value.amount.kind == "x"  # CR 107.3m
    assert cp.counters == [exc.value]


def test_llanowar_elves_damage_wording_variants():
    # "CARDNAME deals" (corpus) and "this creature deals" (current) → one tree
    a = parse_face("Prodigal Pyromancer deals 1 damage to any target.", name="Prodigal Pyromancer")
    b = parse_face("This creature deals 1 damage to any target.", name="Prodigal Pyromancer")
    assert body_json(a) == body_json(b)


def test_normalisation_self_names():
    assert self_names("Adeline, Resplendent Cathar", "Legendary Creature — Human Knight") == (
        "Adeline, Resplendent Cathar", "Adeline")
    assert normalize_text("Whenever Adeline attacks, Adeline, Resplendent Cathar's power …",
                          "Adeline, Resplendent Cathar", "Legendary Creature") == "Whenever ~ attacks, ~'s power …"
    assert normalize_text("When Llanowar Elves enters the battlefield, he or she draws.", "Llanowar Elves") == \
        "When ~ enters, they draws."
    assert normalize_text("“This spell’s” cost", "X") == "\"~'s\" cost"


def test_ability_word_and_modal_and_saga():
    ab = parse_face("Landfall — Whenever a land enters the battlefield under your control, you gain 1 life.", name="X")
    assert ab[0].ability_word == "Landfall" and ab[0].kind == "triggered" and ab[0].no_unparsed
    cc = parse_face("Choose two —\n• Counter target spell.\n• Draw a card.", name="Cryptic Command", type_line="Instant")
    assert len(cc) == 1 and cc[0].kind == "modal" and len(cc[0].body.modes) == 2
    saga = parse_face("I, II — Draw a card.", name="X", type_line="Enchantment — Saga")
    assert saga[0].kind == "chapter" and saga[0].body.chapters == [1, 2]


def test_keywords_with_parameters():
    kws = {k.name: k for a in parse_face("Flying, vigilance\nEquip {2}\nCycling {2}\nKicker {1}{G}\nWard—Pay 3 life.\n"
                                         "Protection from red\nSwampcycling {2}", name="X") for k in a.body.keywords}
    assert set(kws) == {"flying", "vigilance", "equip", "cycling", "kicker", "ward", "protection", "swampcycling"}
    assert kws["ward"].cost.components[0].action == "pay_life"
    assert kws["kicker"].cost.components[0].symbols[1].colors == ["G"]
    assert kws["protection"].param == A.QualityList([A.Quality(words=["red"])], [])  # CR 702.16a


def test_mana_symbol_kinds():
    from pipeline.parse.transform import mana_symbol
    assert mana_symbol("{2/W}").kind == "twobrid" and mana_symbol("{2/W}").generic == 2
    assert mana_symbol("{W/P}").kind == "phyrexian"
    assert mana_symbol("{G/U}").kind == "hybrid"
    assert mana_symbol("{S}").kind == "snow" and mana_symbol("{C}").kind == "colorless"
    assert mana_symbol("{X}").kind == "x"


def test_unparsed_kept_and_never_raises():
    ab = parse_face("Gibberish frobnicate the wibble.", name="X")
    assert not ab[0].no_unparsed
    assert any(isinstance(n, A.Unparsed) and n.text == "Gibberish frobnicate the wibble." for n in ab[0].body.walk())
