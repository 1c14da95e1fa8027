"""Spree modes (CR 702.172): each "+ {cost} — effect" line of a spree spell is a SpreeMode with the
mode's additional cost and its effect sentences, and round-trips (pipeline/parse/parser.py reads the
line's layout, render_abilities.render_spree_mode writes it back). Real cards of oracle-2026."""

from __future__ import annotations

import pytest

from pipeline.parse import ast as A
from tests.test_parse_metamorphic import ability

ROUND_TRIPS = [
    ("Final Showdown", "+ {3}{W}{W} — Destroy all creatures."),
    ("Final Showdown", "+ {1} — Choose a creature you control. It gains indestructible until end of turn."),
    ("Three Steps Ahead", "+ {1}{U} — Counter target spell."),
    ("Three Steps Ahead", "+ {2} — Draw two cards, then discard a card."),
    ("Insatiable Avarice", "+ {B}{B} — Target player draws three cards and loses 3 life."),
    ("Explosive Derailment", "+ {2} — Destroy target artifact."),
]


@pytest.mark.parametrize("name,fragment", ROUND_TRIPS, ids=[f"{n}:{f[:24]}" for n, f in ROUND_TRIPS])
def test_spree_mode_round_trips(name, fragment):
    a = ability(name, fragment.split(" — ", 1)[1])
    assert a.kind == "spell" and isinstance(a.body, A.SpreeMode)
    assert a.render_mismatch is None and a.fully_parsed, (a.normalized, a.render_mismatch)


def test_spree_mode_keeps_its_cost_and_every_sentence():
    """Final Showdown's second mode: the cost {1} and both sentences belong to the mode (CR 702.172a:
    the mode's cost is added when the mode is chosen; the whole effect is the mode's)."""
    a = ability("Final Showdown", "Choose a creature you control.")
    body = a.body
    assert [c.symbols[0].raw for c in body.cost.components] == ["{1}"]
    assert len(body.effect) == 2 and all(isinstance(s, A.Sentence) for s in body.effect)
    verbs = [e.verb for s in body.effect for e in s.effects if isinstance(e, A.Action)]
    assert verbs[0] == "choose"


def test_spree_costs_differ():
    """Two modes of Three Steps Ahead: different costs give different ASTs ({1}{U} / {2})."""
    counter = ability("Three Steps Ahead", "Counter target spell.").body
    draw = ability("Three Steps Ahead", "Draw two cards, then discard a card.").body
    assert [s.raw for s in counter.cost.components[0].symbols] == ["{1}", "{U}"]
    assert [s.raw for s in draw.cost.components[0].symbols] == ["{2}"]
