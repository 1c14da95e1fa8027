"""One-shot effects and the objects they name (grammar/effects.lark, grammar/objects.lark; transformers
pipeline/parse/transform_effects.py / transform_objects.py, renderers render_effects.py /
render_objects.py) round-trip on real cards: two "non-" words joined by a comma ("nonartifact, nonblack
creature", CR 109.2), "any other target" (CR 115.4), "each creature that player or that planeswalker's
controller controls" (CR 115.1), "that dealt damage to you this turn" (CR 120.1).
Every line is read from the corpora by card name (tests/test_parse_metamorphic.py:ability)."""

from __future__ import annotations

import pytest

from tests.test_parse_metamorphic import ability

ROUND_TRIPS = [
    ("Terror", "Destroy target nonartifact, nonblack creature."),
    ("Builder's Talent", "return target noncreature, nonland permanent card from your graveyard"),
    ("Arc Trail", "deals 2 damage to any target and 1 damage to any other target."),
    ("Flame Wave", "and each creature that player or that planeswalker's controller controls."),
    ("Reciprocate", "Exile target creature that dealt damage to you this turn."),
    ("Giltspire Avenger", "{T}: Destroy target creature that dealt damage to you this turn."),
]


@pytest.mark.parametrize("name,fragment", ROUND_TRIPS, ids=[f"{n}:{f[:24]}" for n, f in ROUND_TRIPS])
def test_round_trip(name, fragment):
    a = ability(name, fragment)
    assert a.render_mismatch is None and a.fully_parsed, (a.normalized, a.render_mismatch)


def test_non_words_joined_by_a_comma_are_both_descriptors():
    """Terror's "nonartifact, nonblack creature": both "non-" words are descriptor words of one object
    (not a list of alternatives, CR 109.2)."""
    a = ability("Terror", "Destroy target nonartifact, nonblack creature.")
    obj = next(n for n in a.body.walk() if type(n).__name__ == "Obj")
    assert obj.words == ["nonartifact", "nonblack", "creature"] and obj.quantifier == "target"


TAPPED_AND_EACH = [
    ("Harmony of Nature", "You gain 4 life for each creature tapped this way."),  # CR 608.2c
    ("Guild Summit", "Draw a card for each Gate tapped this way."),
    ("Keldon Battlewagon", "where X is the power of the creature tapped this way."),
    ("Secret Rendezvous", "You and target opponent each draw three cards."),
    ("Sky Crier", "{3}{W}: You and target opponent each draw a card."),
]


@pytest.mark.parametrize("name,fragment", TAPPED_AND_EACH, ids=[f"{n}:{f[:24]}" for n, f in TAPPED_AND_EACH])
def test_round_trip_tapped_this_way_and_each(name, fragment):
    a = ability(name, fragment)
    assert a.render_mismatch is None and a.fully_parsed, (a.normalized, a.render_mismatch)


def test_you_and_target_opponent_each_names_both_players():
    """Secret Rendezvous: the subject is "you" with the target opponent in its refs (CR 608.2c)."""
    a = ability("Secret Rendezvous", "You and target opponent each draw three cards.")
    act = next(n for n in a.body.walk() if type(n).__name__ == "Action" and n.verb == "draw")
    assert act.subject.quantifier == "you" and act.extra.get("each") is True
    assert act.subject.refs and act.subject.refs[0].quantifier == "target" and act.subject.refs[0].words == ["opponent"]
