"""Costs (grammar/costs.lark; transformer transform.py / transform_costs.py, renderer render_costs.py)
round-trip on real cards, and what a cost or a restriction says is in structured fields: keyword
actions paid as costs (CR 701.9a–b discard your hand / at random, 701.59a collect evidence, 701.67a
waterbend, 701.68a blight, 701.3d unattach), restrictions on activating (CR 602.5b, 602.5d–e) and on
casting (CR 601.3) with their times (``ast.Timing``, CR 500.1, 508.1, 509.1). Every line is read from
the corpora by card name (tests/test_parse_metamorphic.py:ability)."""

from __future__ import annotations

import pytest

from pipeline.parse import ast as A
from tests.test_parse_metamorphic import ability

ROUND_TRIPS = [
    ("Forensic Researcher", "{T}, Collect evidence 3:"),
    ("Null Brooch", "{2}, {T}, Discard your hand:"),
    ("Coral Helm", "{3}, Discard a card at random:"),
    ("Aang's Iceberg", "Waterbend {3}:"),
    ("Spiral into Solitude", "{1}{W}, Blight 1, Sacrifice this Aura:"),
    ("Pyromancy", "{3}, Discard a card at random:"),
    ("Tornado", "Pay 3 life for each velocity counter on this enchantment:"),
    ("Sunforger", "{R}{W}, Unattach this Equipment:"),
    ("Eaten Alive", "sacrifice a creature or pay {3}{B}."),
    ("Betrayer's Bargain", "sacrifice a creature or enchantment or pay {2}."),
    ("Champion of the Clachan", "behold a Kithkin and exile it."),
    ("Draconic Fealty", "you may behold a Dragon."),
    ("Ruthless Disposal", "discard a card and sacrifice a creature."),
    ("King's Assassin", "Activate only during your turn, before attackers are declared."),
    ("Rootwalla", "Activate only once each turn."),
    ("Vampire Bats", "Activate no more than twice each turn."),
    ("Colossus of Sardia", "Activate only during your upkeep."),
    ("Spinal Embrace", "Cast this spell only during combat."),
    ("Teleport", "Cast this spell only during the declare attackers step."),
    ("Wake the Dead", "Cast this spell only during combat on an opponent's turn."),
    ("Heavy Fog", "and only if you've been attacked this step."),
]


@pytest.mark.parametrize("name,fragment", ROUND_TRIPS, ids=[f"{n}:{f[:24]}" for n, f in ROUND_TRIPS])
def test_round_trip(name, fragment):
    a = ability(name, fragment)
    assert a.render_mismatch is None and a.fully_parsed, (a.normalized, a.render_mismatch)


def _costs(a: A.Ability) -> list[A.ActionCost]:
    return [n for n in a.body.walk() if isinstance(n, A.ActionCost)]


def _restriction(a: A.Ability, verb: str) -> A.Action:
    return next(n for n in a.body.walk() if isinstance(n, A.Action) and n.verb == verb)


def test_keyword_action_costs_keep_their_number():
    """CR 701.59a "collect evidence N", 701.68a "blight N": the N is an Amount, no object."""
    (ev,) = _costs(ability("Forensic Researcher", "Collect evidence 3:"))
    assert (ev.action, ev.obj, ev.amount.value) == ("collect_evidence", None, 3)
    (blight, sac) = _costs(ability("Spiral into Solitude", "Blight 1, Sacrifice"))
    assert (blight.action, blight.amount.value, sac.action) == ("blight", 1, "sacrifice")


def test_discard_at_random_is_its_own_cost():
    """CR 701.9b: a random discard is not the player's choice — "at random" is not dropped (it was
    read as a plain discard, so the cost of Coral Helm and of Peace of Mind were one AST)."""
    (rand,) = _costs(ability("Coral Helm", "Discard a card at random:"))
    (plain,) = _costs(ability("Peace of Mind", "{W}, Discard a card:"))
    assert (rand.action, plain.action) == ("discard_random", "discard")
    assert rand.obj.words == plain.obj.words == ["card"]
    (hand,) = _costs(ability("Null Brooch", "Discard your hand"))
    assert (hand.action, hand.obj) == ("discard_hand", None)


def test_remove_all_counters_keeps_the_kind():
    """"Remove all elixir counters from this artifact" (CR 122.1): its own action, the kind kept."""
    (rm,) = _costs(ability("Essence Bottle", "Remove all elixir counters"))
    assert (rm.action, rm.counter, rm.amount, rm.obj.quantifier) == ("remove_all_counters", "elixir", None, "self")


def test_waterbend_holds_the_mana_paid():
    """CR 701.67a: "Waterbend {3}" pays {3}, the ManaCost in the cost's obj."""
    (wb,) = _costs(ability("Aang's Iceberg", "Waterbend {3}:"))
    assert wb.action == "waterbend" and [s.raw for s in wb.obj.symbols] == ["{3}"]


def test_activation_timing_is_structured():
    """CR 602.5b: "during your turn, before attackers are declared" is a Timing with a narrower one."""
    r = _restriction(ability("King's Assassin", "Activate only during"), "activate_only")
    t = r.extra["timing"]
    assert r.extra["restriction"] == "during"
    assert (t.relation, t.whose, t.period) == ("during", "your", A.TimingPeriod.TURN)
    assert (t.then.relation, t.then.period) == ("before", A.TimingPeriod.ATTACKERS_DECLARED)


def test_restriction_parts_joined_by_and_only():
    """"Activate only during your upkeep and only once each turn." — the first part in the Action's
    extra, each further part one Action of the same verb in ``and_only`` (CR 602.5b)."""
    r = _restriction(ability("Gate to Phyrexia", "Activate only during your upkeep and only once"), "activate_only")
    assert (r.extra["restriction"], r.extra["timing"].whose, r.extra["timing"].period) == \
        ("during", "your", A.TimingPeriod.UPKEEP)
    assert [m.extra for m in r.extra["and_only"]] == [{"restriction": "once_each_turn"}]
    once = _restriction(ability("Spitting Drake", "Activate only once each turn."), "activate_only")
    assert once.extra == {"restriction": "once_each_turn"}


def test_cast_only_during_opponents_turn():
    """CR 601.3: "Cast this spell only during combat on an opponent's turn." — the spell (~) is the subject."""
    r = _restriction(ability("Wake the Dead", "Cast this spell only"), "cast_only")
    t = r.extra["timing"]
    assert r.subject.quantifier == "self"
    assert (t.relation, t.whose, t.period, t.on_turn) == ("during", None, A.TimingPeriod.COMBAT, "opponent")


def test_additional_cost_choice_holds_each_option():
    """CR 601.2b: "sacrifice a creature or pay {3}{B}" is a choice of two costs (was a Sentence of the
    two components, its "or" lost); the "or" of "a creature or enchantment" stays the object's."""
    (add,) = [n for n in ability("Eaten Alive", "As an additional cost").body.walk() if isinstance(n, A.AdditionalCost)]
    sac, pay = add.cost.options
    assert isinstance(add.cost, A.CostChoice) and not add.optional
    assert (sac.components[0].action, sac.components[0].obj.words) == ("sacrifice", ["creature"])
    assert [s.raw for s in pay.components[0].symbols] == ["{3}", "{B}"]
    (add,) = [n for n in ability("Betrayer's Bargain", "As an additional cost").body.walk() if isinstance(n, A.AdditionalCost)]
    sac = add.cost.options[0].components[0]
    assert sac.obj.words == ["creature", "or", "enchantment"]


def test_behold_cost():
    """CR 701.4a "behold a Dragon": an ActionCost with the object beheld; "you may" makes it optional."""
    (add,) = [n for n in ability("Draconic Fealty", "behold a Dragon").body.walk() if isinstance(n, A.AdditionalCost)]
    (beh,) = add.cost.components
    assert add.optional and (beh.action, beh.obj.words) == ("behold", ["dragon"])


def test_cast_only_two_parts():
    """"Cast this spell only during the declare attackers step and only if you've been attacked this step."
    (CR 601.3, 508.1): a Timing part and the attacked part in and_only."""
    r = _restriction(ability("Heavy Fog", "Cast this spell only"), "cast_only")
    assert (r.extra["restriction"], r.extra["timing"].period) == ("during", A.TimingPeriod.DECLARE_ATTACKERS_STEP)
    assert [m.extra for m in r.extra["and_only"]] == [{"restriction": "attacked_this_step"}]


# ---- issue 13, g-counters (2026-12-04): alternative costs under a condition, counters of any kind and
# "from among" as costs, energy counted in words
ROUND_TRIPS_CONDITIONED = [
    ("Snuff Out", "If you control a Swamp, you may pay 4 life rather than pay"),
    ("Force of Vigor", "If it's not your turn, you may exile a green card from your hand rather than pay"),
    ("Mine Collapse", "If it's your turn, you may sacrifice a Mountain rather than pay"),
    ("Arrow Volley Trap", "If four or more creatures are attacking, you may pay {1}{W} rather than pay"),
    ("Burdened Stoneback", "{1}{W}, Remove a counter from this creature:"),
    ("Loch Mare", "{2}{U}, Remove two counters from this creature:"),
    ("Aethersquall Ancient", "Pay eight {E}:"),
    ("Soratami Mirror-Mage", "{3}, Return three lands you control to their owner's hand:"),
]


@pytest.mark.parametrize("name,fragment", ROUND_TRIPS_CONDITIONED, ids=[n for n, _ in ROUND_TRIPS_CONDITIONED])
def test_round_trip_alternative_and_counter_costs(name, fragment):
    a = ability(name, fragment)
    assert a.render_mismatch is None and a.fully_parsed, (a.normalized, a.render_mismatch)


def _alternative(name: str, fragment: str) -> A.AlternativeCost:
    (alt,) = [n for n in ability(name, fragment).body.walk() if isinstance(n, A.AlternativeCost)]
    return alt


def test_alternative_cost_keeps_its_condition():
    """CR 118.9: "If you control a Swamp, you may pay 4 life rather than pay this spell's mana cost" — the
    alternative cost is available only under its condition, which is the AlternativeCost's ``condition``
    (a leading "If …," was an Unparsed lead); written after the cost it is marked ``after``."""
    snuff = _alternative("Snuff Out", "rather than pay")
    assert snuff.condition.verb == "condition:control" and snuff.condition.obj.words == ["swamp"]
    (life,) = snuff.cost.components
    assert (life.action, life.amount.value) == ("pay_life", 4)
    force = _alternative("Force of Vigor", "rather than pay")
    assert force.condition.verb == "condition:not_your_turn"
    (exile,) = force.cost.components
    assert exile.action == "exile" and exile.obj.words == ["green", "card"]
    edict = _alternative("Blasphemous Edict", "rather than pay")
    assert edict.condition.verb.startswith("condition:") and edict.condition.extra["after"] is True


def test_remove_a_counter_of_any_kind():
    """"Remove a counter from this creature" (CR 122.1: a counter of any kind) — kind "" and the count kept,
    apart from "Remove a +1/+1 counter from …"."""
    (rm,) = [c for c in _costs(ability("Burdened Stoneback", "Remove a counter")) if c.action == "remove_counters"]
    assert (rm.counter, rm.amount.value, rm.obj.quantifier) == ("", 1, "self")
    two = [c for c in _costs(ability("Loch Mare", "Remove two counters")) if c.action == "remove_counters"]
    assert [(c.counter, c.amount.value) for c in two] == [("", 2)]


def test_remove_counters_from_among_is_its_own_action():
    """"Remove one or more +1/+1 counters from among creatures you control" (Ooze Flux): the counters may
    come from several objects — ``remove_counters_among`` (the "among" was dropped: it read as "from
    creatures you control"); "one or more" is Amount ``one_or_more``."""
    (rm,) = [c for c in _costs(ability("Ooze Flux", "Remove one or more")) if c.action.startswith("remove")]
    assert (rm.action, rm.counter, rm.amount.kind) == ("remove_counters_among", "+1/+1", "one_or_more")
    assert rm.obj.words == ["creatures"] and rm.obj.qualifiers == ["you_control"]


def test_pay_energy_counted_in_words():
    """"Pay eight {E}" (CR 107.14): a pay_energy cost with the Amount 8, not eight {E} symbols."""
    (pay,) = _costs(ability("Aethersquall Ancient", "Pay eight {E}"))
    assert (pay.action, pay.amount.value, pay.obj) == ("pay_energy", 8, None)


def test_returned_lands_cost_is_plural():
    """"Return three lands you control to their owner's hand" (Soratami Mirror-Mage): the possessive agrees with
    the objects returned (CR 108.3), the count is the object's — the renderer wrote "its owner's hand"."""
    (ret,) = [c for c in _costs(ability("Soratami Mirror-Mage", "Return three lands")) if c.action == "return_to_hand"]
    assert ret.obj.count.value == 3 and ret.obj.words == ["lands"] and ret.obj.qualifiers == ["you_control"]
