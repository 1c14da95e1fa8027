"""Families of one-shot effects (grammar/effects.lark, grammar/digital.lark; transformers transform_effects.py /
transform_digital.py, renderers render_effects.py / render_digital.py) round-trip on real cards and keep their
meaning in the AST: changing the target of a spell or ability (CR 115.7a), sacrificing "the rest" of a choice
(CR 701.21a), a card at random from a hand (CR 701.20a), voting (CR 701.38), tickets and stickers (CR 107.17,
123.3) and MTG Arena boons (not in the CR).
Every line is read from the corpora by card name (tests/test_parse_metamorphic.py:ability)."""

from __future__ import annotations

import pytest

from pipeline.parse import ast as A
from tests.test_parse_metamorphic import ability


def _actions(a):
    return [n for n in a.body.walk() if isinstance(n, A.Action)]


ROUND_TRIPS = [
    ("Deflection", "Change the target of target spell with a single target."),
    ("Bolt Bend", "Change the target of target spell or ability with a single target."),
    ("Reroute", "Change the target of target activated ability with a single target."),
    ("Goblin Flectomancer", "You may change the targets of target instant or sorcery spell."),
    ("Torchling", "{R}: Change the target of target spell that targets only this creature."),
    ("Razia's Purification", "Each player chooses three permanents they control, then sacrifices the rest."),
    ("Covetous Elegy", "Each player chooses up to two creatures they control, then sacrifices the rest."),
    ("Limited Resources", "each player chooses five lands they control and sacrifices the rest."),
    ("Single Combat", "Each player chooses a creature or planeswalker they control, then sacrifices the rest."),
]


def test_change_target_single_target_restriction_is_kept():
    """Deflection's spell must have a single target (CR 115.7a); Torchling's names the spell by what it
    targets: two verbs, the object a target spell either way."""
    single = next(x for x in _actions(ability("Deflection", "Change the target")) if x.verb.startswith("change"))
    only = next(x for x in _actions(ability("Torchling", "Change the target")) if x.verb.startswith("change"))
    assert single.verb == "change_target_single" and only.verb == "change_target"
    assert single.obj.quantifier == "target" and single.obj.words == ["spell"]
    assert only.obj.qualifiers[:1] == ["that_targets"]


def test_change_the_targets_is_plural_and_optional():
    """Goblin Flectomancer: "change the targets" (all of them, CR 115.7a) and "you may" (CR 608.2d)."""
    act = next(x for x in _actions(ability("Goblin Flectomancer", "change the targets")) if x.verb.startswith("change"))
    assert act.verb == "change_targets" and act.extra.get("optional") is True


def test_sacrifice_the_rest_takes_the_choosing_player():
    """Razia's Purification: each player chooses three permanents, then that player sacrifices the rest
    (the subject "each player" carries to the joined predicate; CR 701.21a)."""
    acts = _actions(ability("Razia's Purification", "sacrifices the rest"))
    choose, rest = acts[0], acts[-1]
    assert choose.verb == "choose" and choose.obj.count.value == 3 and choose.obj.qualifiers == ["they_control"]
    assert rest.verb == "sacrifice_rest" and rest.subject.quantifier == "each" and rest.subject.words == ["player"]


# MTG Arena boons (grammar/digital.lark a_boon, docs/ast.md § Digital-only actions)
BOONS = [
    ("Illuminating Lash", "You get a one-time boon"),
    ("Tasteful Offering", "two-time boon"),
    ("Merfolk Tunnel-Guide", "three-time boon"),
    ("Flaming Fist Duskguard", "you get a boon with"),
]


def test_boon_keeps_how_many_times_and_its_ability():
    """A two-time boon's ability works twice; a boon written without a count has no limit (None); the
    quoted ability is a parsed Triggered body, not text."""
    two = next(x for x in _actions(ability("Tasteful Offering", "two-time boon")) if x.verb == "boon")
    plain = next(x for x in _actions(ability("Flaming Fist Duskguard", "boon with")) if x.verb == "boon")
    assert two.extra["times"] == 2 and plain.extra["times"] is None
    assert isinstance(two.extra["abilities"][0], A.Triggered)
    assert two.extra["abilities"][0].word == "whenever"


# Unfinity: "you get {TK}{TK}" (CR 107.17) and "put a sticker on …" (CR 123.3)
TICKETS = [
    ("Park Bleater", "you get {TK}."),
    ("Finishing Move", "You get {TK}{TK}, then you may put a sticker on a nonland permanent you own."),
    ("Lineprancers", "you may put a power and toughness sticker on a creature you own."),
    ("Scampire", "you may put a sticker on a creature card in your graveyard."),
]


def test_tickets_count_and_sticker_kind():
    """{TK}{TK} is two ticket counters (CR 107.17), "seven {TK}" seven; a power and toughness sticker
    (CR 123.8) is told from any sticker (CR 123.3)."""
    two = next(x for x in _actions(ability("Finishing Move", "{TK}{TK}")) if x.verb == "get_tickets")
    seven = next(x for x in _actions(ability("Animate Object", "seven {TK}")) if x.verb == "get_tickets")
    assert two.amount.value == 2 and two.extra["symbols"] is True
    assert seven.amount.value == 7 and "symbols" not in seven.extra
    pt = next(x for x in _actions(ability("Lineprancers", "sticker")) if x.verb == "put_sticker")
    anyk = next(x for x in _actions(ability("Finishing Move", "sticker")) if x.verb == "put_sticker")
    assert pt.extra["sticker"] == "power_toughness" and anyk.extra["sticker"] is None
    assert anyk.extra.get("optional") is True and anyk.obj.qualifiers == ["you_own"]


def test_vote_for_objects_round_trips_and_keeps_voters_and_choices():
    """Council's Judgment (CR 701.38a): each player votes, starting with you, for a nonland permanent you
    don't control; the exiled permanents are those with the most votes or tied for most votes."""
    a = ability("Council's Judgment", "votes for")
    assert a.render_mismatch is None and a.fully_parsed, (a.normalized, a.render_mismatch)
    vote = next(x for x in _actions(a) if x.verb == "vote")
    assert vote.extra == {"starting": "you"}
    assert vote.subject.quantifier == "each" and vote.subject.words == ["player"]
    assert vote.obj.words == ["nonland", "permanent"] and vote.obj.qualifiers == ["you_dont_control"]
    exile = next(x for x in _actions(a) if x.verb == "exile")
    assert exile.obj.quantifier == "each" and exile.obj.qualifiers == ["most_votes"]


def test_vote_custodi_squire_round_trips():
    """Custodi Squire: the vote inside a triggered ability; the most-voted cards return to your hand."""
    a = ability("Custodi Squire", "votes for")
    assert a.render_mismatch is None and a.fully_parsed, (a.normalized, a.render_mismatch)


# CR 701.20a: the revealed card is chosen at random
RANDOM_FROM_HAND = [
    ("Planeswalker's Mirth", "Target opponent reveals a card at random from their hand."),
    ("Ignite Memories", "Target player reveals a card at random from their hand."),
    ("Hired Torturer", "Target opponent loses 2 life, then reveals a card at random from their hand."),
]


ALL_ROUND_TRIPS = ROUND_TRIPS + BOONS + TICKETS + RANDOM_FROM_HAND


@pytest.mark.parametrize("name,fragment", ALL_ROUND_TRIPS, ids=[f"{n}:{f[:24]}" for n, f in ALL_ROUND_TRIPS])
def test_round_trip(name, fragment):
    """Every line of the families above renders back to its normalized text (fully parsed)."""
    a = ability(name, fragment)
    assert a.render_mismatch is None and a.fully_parsed, (a.normalized, a.render_mismatch)


def test_at_random_from_whose_hand():
    """Cursed Scroll reveals from your hand, Planeswalker's Mirth from the target opponent's ("their");
    Lumbering Lightshield's card is a nonland card; Elkin Lair exiles (CR 701.13a) rather than reveals."""
    mine = next(x for x in _actions(ability("Cursed Scroll", "at random")) if x.verb == "reveal_random")
    theirs = next(x for x in _actions(ability("Planeswalker's Mirth", "at random")) if x.verb == "reveal_random")
    assert mine.extra["owner"] == "your" and theirs.extra["owner"] == "their"
    assert theirs.subject.quantifier == "target" and theirs.subject.words == ["opponent"]
    nonland = next(x for x in _actions(ability("Lumbering Lightshield", "at random")) if x.verb == "reveal_random")
    assert nonland.obj.words == ["nonland", "card"]
    assert any(x.verb == "exile_random" for x in _actions(ability("Elkin Lair", "at random")))
