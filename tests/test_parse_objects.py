"""Objects and quantities (grammar/objects.lark; transformer pipeline/parse/transform_objects.py,
renderer render_objects.py) round-trip on real cards, and the objects that post-modifiers name are
nodes (``Obj.refs``), not text: "a spell that targets ~" (CR 115.1), "other than ~", "with the same
name as that permanent" (CR 201.2), "each creature … and each player" (CR 608.2c), "one of them",
"each of up to two target creatures", "up to one other target creature" (CR 115.3), "that much",
"twice …" / "half …, rounded down" (CR 107.1a), "the total …" / "the greatest … among …".
Every line is read from the corpora by card name (tests/test_parse_metamorphic.py:ability)."""

from __future__ import annotations

import pytest

from pipeline.parse import ast as A
from tests.test_parse_metamorphic import ability

ROUND_TRIPS = [
    ("Gnarlback Rhino", "Whenever you cast a spell that targets this creature, draw a card."),
    ("Outwit", "Counter target spell that targets a player."),
    ("Hurricane", "each creature with flying and each player"),
    ("Demonic Taskmaster", "sacrifice a creature other than this creature"),
    ("Maelstrom Pulse", "all other permanents with the same name as that permanent"),
    ("Currency Converter", "{T}: Put a card exiled with this artifact into its owner's graveyard."),
    ("Soldevi Sage", "then discard one of them"),
    ("Travel Preparations", "Put a +1/+1 counter on each of up to two target creatures."),
    ("Phantom Blade", "Destroy up to one other target creature."),
    ("Spirit Link", "you gain that much life"),
    ("Courser of Kruphix", "You may play lands from the top of your library."),
    ("Poxwalkers", "Whenever you cast a spell from anywhere other than your hand"),
    ("Majestic Myriarch", "each equal to twice the number of creatures you control"),
    ("Endless Ranks of the Dead", "where X is half the number of Zombies you control, rounded down"),
    ("Metalwork Colossus", "where X is the total mana value of noncreature artifacts you control"),
    ("Moonveil Regent", "where X is the number of colors among permanents you control"),  # CR 105.2
    ("Radiant Flames", "where X is the number of colors of mana spent to cast this spell"),  # CR 601.2h
    ("Lay Down Arms", "with mana value less than or equal to the number of Plains you control"),
    ("Aether Vial", "with mana value equal to the number of charge counters on this artifact from your hand"),
    ("Latchkey Faerie", "if its prowl cost was paid, draw a card."),  # CR 702.76 (a keyword's cost)
    ("Requiting Hex", "If this spell's additional cost was paid, you gain 2 life."),  # CR 118.8
    ("Everflowing Chalice", "for each time it was kicked."),  # CR 702.33
    ("Tajuru Stalwart", "for each color of mana spent to cast it."),  # CR 601.2h
    ("Culling Dais", "Draw a card for each charge counter on this artifact."),  # CR 122.1
    ("Scroll of the Masters", "gets +1/+1 until end of turn for each lore counter on this artifact."),
    ("Embalmed Brawler", "you lose 1 life for each +1/+1 counter on it."),
    ("Memory Deluge", "where X is the amount of mana spent to cast this spell."),  # CR 601.2h
    ("Blessing of Frost", "where X is the amount of {S} spent to cast this spell."),
    ("Neverwinter Hydra", "equal to the total of those results."),  # CR 706.2
    ("Razorfield Ripper", "where X is the amount of {E} you have."),  # CR 107.14
    ("Windswift Slice", "equal to the amount of excess damage dealt this way."),  # CR 120.10
    # reflexive "itself", characteristics compared with a quantity, {X} in a mana cost, Adventure, untap step
    ("Wave of Reckoning", "Each creature deals damage to itself equal to its power."),
    ("Psionic Entity", "deals 2 damage to any target and 3 damage to itself."),
    ("Stone Giant", "with toughness less than this creature's power gains flying"),
    ("Master Symmetrist", "Whenever a creature you control with power equal to its toughness attacks"),
    ("Ensnaring Bridge", "Creatures with power greater than the number of cards in your hand can't attack."),
    ("Fell the Mighty", "Destroy all creatures with power greater than target creature's power."),
    ("Ironclaw Curse", "with power equal to or greater than the enchanted creature's toughness"),
    ("Elementalist's Palette", "Whenever you cast a spell with {X} in its mana cost"),
    ("Edgewall Innkeeper", "Whenever you cast a creature spell that has an Adventure, draw a card."),
    ("Frost Breath", "Those creatures don't untap during their controller's next untap step."),
]


@pytest.mark.parametrize("name,fragment", ROUND_TRIPS, ids=[f"{n}:{f[:24]}" for n, f in ROUND_TRIPS])
def test_round_trip(name, fragment):
    a = ability(name, fragment)
    assert a.render_mismatch is None and a.fully_parsed, (a.normalized, a.render_mismatch)


def _nodes(a: A.Ability, cls):
    return [n for n in a.body.walk() if isinstance(n, cls)]


def _action(a: A.Ability, verb: str) -> A.Action:
    return next(n for n in _nodes(a, A.Action) if n.verb == verb)


def test_that_targets_holds_the_targeted_object():
    """CR 115.1: what the spell targets is an object of its own (was the text "that_targets:…")."""
    spell = _action(ability("Outwit", "Counter target spell"), "counter").obj
    assert (spell.quantifier, spell.words, spell.qualifiers) == ("target", ["spell"], ["that_targets"])
    (player,) = spell.refs
    assert (player.quantifier, player.words) == ("a", ["player"])


def test_object_list_and_other_than_hold_objects():
    each = _action(ability("Hurricane", "each creature with flying and each player"), "damage").obj
    assert each.qualifiers == ["with_keyword:flying", "and"]
    assert [(r.quantifier, r.words) for r in each.refs] == [("each", ["player"])]
    sac = _action(ability("Demonic Taskmaster", "other than this creature"), "sacrifice").obj
    assert sac.qualifiers == ["other_than"] and [r.quantifier for r in sac.refs] == ["self"]


def test_partitives_keep_their_numbers():
    """"one of them" counts one; "each of up to two target creatures" keeps its count (was None)."""
    one = _action(ability("Soldevi Sage", "discard one of them"), "discard_obj").obj
    assert (one.quantifier, one.count.value, one.qualifiers) == ("them", 1, ["n_of"])
    each = _action(ability("Travel Preparations", "each of up to two target creatures"), "put_counters").obj
    assert (each.quantifier, each.count.value, each.qualifiers) == ("up_to_target", 2, ["each_of"])


def test_scaled_quantities():
    """CR 107.1a: "half …" says how it rounds; the factor and the rounding are fields."""
    (twice,) = _nodes(ability("Majestic Myriarch", "twice the number"), A.Scaled)
    assert (twice.factor, twice.rounding) == ("twice", None)
    assert twice.amount.kind == "equal_to" and twice.amount.ref.words == ["creatures"]
    (half,) = _nodes(ability("Endless Ranks of the Dead", "half the number"), A.Scaled)
    assert (half.factor, half.rounding) == ("half", "down")


def test_that_much_is_an_amount():
    gain = _action(ability("Spirit Link", "you gain that much life"), "gain_life")
    assert gain.amount.kind == "that_much"


def test_zone_after_a_placed_object_belongs_to_the_outer_object():
    """CR 109.4: "the number of charge counters on ~ from your hand" — ~ is on the battlefield, so
    "from your hand" places the creature card put onto the battlefield, not ~."""
    card = _action(ability("Aether Vial", "charge counters on this artifact from your hand"), "put_onto_battlefield").obj
    assert card.qualifiers == ["mv_equal_to", "zone:your_hand"]
    (amount,) = card.refs
    assert amount.ref.verb == "quantity:counters" and amount.ref.obj.qualifiers == []


def test_zone_keeps_the_preposition_written():
    """"cards in your graveyard" names where the cards are, "a card from your graveyard" where a
    card moves from (CR 400.7): the written "in" is the zone's form (the normalizer folds the two
    only for comparing alternatives), so both lines render back as written."""
    dryad = ability("Gnarlwood Dryad", "among cards in your graveyard")
    raise_dead = ability("Raise Dead", "from your graveyard")
    assert dryad.fully_parsed and raise_dead.fully_parsed
    zones = [o.qualifiers for a in (dryad, raise_dead) for o in _nodes(a, A.Obj)
             if any(q.startswith("zone:") for q in o.qualifiers)]
    assert zones == [["zone:your_graveyard", "form:in"], ["zone:your_graveyard"]]


def test_cost_object_names_the_keyword_and_whose():
    """"its prowl cost" / "this spell's additional cost" (CR 118.8, 702): the cost word and whose it is."""
    (cost,) = [n for n in _nodes(ability("Latchkey Faerie", "if its prowl cost was paid"), A.Obj) if n.quantifier == "cost"]
    assert (cost.words, cost.qualifiers) == (["prowl", "cost"], ["form:it"])
    (cost,) = [n for n in _nodes(ability("Requiting Hex", "If this spell's additional cost was paid"), A.Obj) if n.quantifier == "cost"]
    assert (cost.words, cost.qualifiers) == (["additional", "cost"], ["of:~"])


def test_for_each_counts_events_and_counters_as_quantities():
    """CR 107.1 "for each …": a counted event or counter is a quantity node, not text — "for each time
    it was kicked" (CR 702.33), "… color of mana spent to cast it" (CR 601.2h), "… charge counter on ~"."""
    (kicked,) = [n.amount for n in _nodes(ability("Everflowing Chalice", "for each time"), A.CounterSpec)]
    assert (kicked.kind, kicked.ref.verb, kicked.ref.obj.quantifier) == ("for_each", "quantity:times_kicked", "it")
    (conv,) = [n.amount for n in _nodes(ability("Tajuru Stalwart", "for each color"), A.CounterSpec)]
    assert (conv.kind, conv.ref.verb) == ("for_each", "quantity:colors_spent")
    draw = _action(ability("Culling Dais", "Draw a card for each"), "draw")
    each = draw.extra["for_each"]
    assert (each.verb, each.extra, each.obj.quantifier, draw.amount.value) == ("quantity:counters", {"counter": "charge"}, "self", 1)


def test_the_chosen_type_is_a_reference_to_the_choice():
    """Audit cause A3: "~ is the chosen type in addition to its other types" names the type chosen as it
    entered (CR 614.12) — a Chosen node, no longer an ``extra.words`` entry "chosen type"."""
    a = ability("Adaptive Automaton", "is the chosen type")
    act = _action(a, "is_also")
    assert act.extra["chosen"] == A.Chosen("type") and "words" not in act.extra
    assert a.fully_parsed


def test_post_modifier_of_the_last_list_item_is_that_items():
    """"target nonland permanent and all other permanents with the same name as that permanent" (CR 201.2):
    the name clause is the second item's, not the target's (it was a qualifier of the list head); a zone
    after the list is every item's ("… artifact card and … enchantment card from your graveyard", CR 400.1)."""
    obj = _action(ability("Maelstrom Pulse", "Destroy target nonland permanent"), "destroy").obj
    (rest,) = obj.refs
    assert (obj.qualifiers, rest.quantifier, rest.qualifiers) == (["list_and"], "all_other", ["same_name_as"])
    assert [(r.quantifier, r.words) for r in rest.refs] == [("that", ["permanent"])]
    ret = _action(ability("Restoration Specialist", "artifact card and up to one"), "return").obj
    assert ret.qualifiers == ["list_and", "zone:your_graveyard"] and ret.refs[0].qualifiers == []


def test_mana_spent_is_a_quantity_of_the_spell():
    """CR 601.2h: "the amount of mana spent to cast this spell" (was free text after "the amount of");
    "the amount of {S} spent …" keeps the symbol counted — {S} and mana are different quantities."""
    (deluge,) = [n for n in _nodes(ability("Memory Deluge", "amount of mana spent"), A.Action) if n.verb == "quantity:mana_spent"]
    assert deluge.obj.quantifier == "self" and deluge.extra == {}
    (snow,) = [n for n in _nodes(ability("Blessing of Frost", "amount of {S} spent"), A.Action) if n.verb == "quantity:mana_spent"]
    assert [s.raw for s in snow.extra["symbols"]] == ["{S}"]


def test_itself_is_the_clause_subject():
    """"deals damage to itself" names the dealing creature (a reflexive), not another object "it" refers to:
    qualifier ``reflexive`` (the normaliser of forms folds "itself" into "it", so the rule is its own)."""
    dmg = _action(ability("Wave of Reckoning", "to itself"), "damage_equal")
    assert (dmg.obj.quantifier, dmg.obj.qualifiers) == ("it", ["reflexive"])
    assert dmg.subject.quantifier == "each"


def test_characteristic_compared_with_a_quantity():
    """CR 208.1: "with toughness less than ~'s power" — the characteristic and the comparator are the
    qualifier (ast.STAT_COMPARISONS), the quantity an Amount in refs; "equal to or greater than" is >=."""
    obj = next(o for o in _nodes(ability("Stone Giant", "with toughness less than"), A.Obj)
               if "toughness_lt" in o.qualifiers)
    assert obj.qualifiers == ["you_control", "toughness_lt"] and A.STAT_COMPARISONS["toughness_lt"][:2] == ("toughness", "<")
    (amount,) = obj.refs
    assert (amount.kind, amount.ref.quantifier, amount.ref.qualifiers) == ("equal_to", "self", ["stat", "stat:power"])
    curse = next(o for o in _nodes(ability("Ironclaw Curse", "equal to or greater"), A.Obj) if o.refs)
    assert curse.qualifiers == ["power_eq_or_gt"] and A.STAT_COMPARISONS["power_eq_or_gt"][1] == ">="
    bridge = next(o for o in _nodes(ability("Ensnaring Bridge", "power greater than"), A.Obj) if o.refs)
    assert bridge.qualifiers == ["power_gt"] and bridge.refs[0].ref.words == ["cards"]


def test_mana_symbol_and_adventure_post_modifiers_keep_what_they_name():
    """"with {X} in its mana cost" / "with {H} …" (CR 107.3, 202.1) and "that has an Adventure" (CR 715.1)
    kept their symbol and type word (the qualifier was the bare rule name: {X} = {H})."""
    x = next(o for o in _nodes(ability("Elementalist's Palette", "with {X}"), A.Obj) if o.words == ["spell"])
    h = next(o for o in _nodes(ability("Rage Extractor", "with {H}"), A.Obj) if o.words == ["spell"])
    assert (x.qualifiers, h.qualifiers) == (["with_mana_symbol:{X}"], ["with_mana_symbol:{H}"])
    adv = next(o for o in _nodes(ability("Edgewall Innkeeper", "that has an Adventure"), A.Obj) if o.qualifiers)
    assert (adv.words, adv.qualifiers) == (["creature", "spell"], ["that_has:adventure"])


def test_untap_step_wording_after_a_plural_subject():
    """CR 502.3: "Those creatures don't untap during their controller's next untap step" (Frost Breath) and
    "… their controllers' next untap steps" are both printed; the AST says which (``their_controller_next``)."""
    act = _action(ability("Frost Breath", "their controller's next untap step"), "no_untap")
    assert act.extra["untap_step"] == "their_controller_next"


@pytest.mark.parametrize("name,fragment,op,numerals", [
    ("Black Vise", "where X is the number of cards in their hand minus 4", "minus", "digits"),
    ("The Rack", "where X is 3 minus the number of cards in their hand", "minus", "digits"),
    ("Storm World", "where X is 4 minus the number of cards in their hand", "minus", "digits"),
])
def test_computed_quantity_is_an_arithmetic_node(name, fragment, op, numerals):
    """CR 107.1: "the number of cards in their hand minus 4" — both sides are Amounts and the operator an
    enum (ast.ARITHMETIC_OPS); whether the constant is written as digits or a word is kept for the renderer."""
    a = ability(name, fragment)
    assert a.fully_parsed, (a.normalized, a.render_mismatch)
    (ar,) = _nodes(a, A.Arithmetic)
    assert (ar.op, ar.numerals) == (op, numerals)
    const, counted = (ar.right, ar.left) if ar.right.kind == "fixed" else (ar.left, ar.right)
    assert const.value in (3, 4) and counted.kind == "equal_to" and isinstance(counted.ref, A.Obj)


def test_x_defined_in_a_sentence_of_its_own():
    """CR 107.3a: "X is the mana value of that card." (a sentence of its own after the effect that uses X)
    renders as that sentence, its quantity a node."""
    a = ability("Soul Foundry", "X is the mana value of that card.")
    assert a.fully_parsed, (a.normalized, a.render_mismatch)
    (where,) = _nodes(a, A.WhereX)
    assert where.definition.kind == "equal_to" and where.definition.ref.qualifiers[-1] == "stat:mana value"


def test_intensity_is_a_characteristic():
    """MTG Arena's digital-only intensity (no CR rule; "Starting intensity N" sets it) is read like power:
    "where X is this Equipment's intensity" → the object's ``stat:intensity``."""
    a = ability("Quickbeast Amulet", "where X is this Equipment's intensity")
    assert a.fully_parsed, (a.normalized, a.render_mismatch)
    (where,) = _nodes(a, A.WhereX)
    assert where.definition.ref.quantifier == "self" and where.definition.ref.qualifiers == ["stat", "stat:intensity"]
