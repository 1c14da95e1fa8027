"""Activation restrictions on mana abilities (CR 602.5b), read from real card text (bundled snapshot)."""

from __future__ import annotations

import pytest

from pipeline.parse import parse_face
from pipeline.parse import ast as A
from tests.conftest import bundled_db, rows  # noqa: F401  (bundled_db is a fixture)

CARDS = ("Nimbus Maze", "Manaforge Cinder", "Pyramid of the Pantheon")


@pytest.fixture(scope="module")
def texts(bundled_db):
    return {name: text for name, text in rows(bundled_db, "SELECT name, oracle_text FROM cards WHERE name IN (?, ?, ?)",
                                              list(CARDS))}


def restriction(ability):
    return next(n for n in ability.body.walk() if isinstance(n, A.Action) and n.verb == "activate_only")


def test_activate_only_if_you_control(texts):
    abilities = parse_face(texts["Nimbus Maze"], name="Nimbus Maze", type_line="Land")
    island = next(a for a in abilities if "Island" in a.text)
    assert island.text == "{T}: Add {W}. Activate only if you control an Island."
    assert island.is_mana_ability and island.no_unparsed
    cond = restriction(island).extra["condition"]
    assert cond.verb == "condition:control" and cond.obj.words[-1] == "island"


def test_activate_no_more_than_n_times_each_turn(texts):
    (ability,) = parse_face(texts["Manaforge Cinder"], name="Manaforge Cinder", type_line="Creature — Elemental Shaman")
    assert ability.is_mana_ability and ability.no_unparsed
    limit = restriction(ability)
    assert limit.extra == {"restriction": "limit_per_turn"} and limit.amount.value == 3


def test_activate_only_if_counters(texts):
    abilities = parse_face(texts["Pyramid of the Pantheon"], name="Pyramid of the Pantheon", type_line="Artifact")
    three = next(a for a in abilities if "brick counters" in a.text)
    assert three.is_mana_ability and three.no_unparsed
    cond = restriction(three).extra["condition"]
    assert cond.verb == "condition:counters_at_least" and cond.amount.value == 3
