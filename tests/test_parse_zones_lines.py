"""Zone lines (grammar/zones.lark, CR 400–406, 701) that round-trip from their structure, read from the
corpora (real card texts, never written here): a library position the player chooses ("on their choice of
the top or bottom of their library"), "the owner of target …" as a subject (CR 108.3), "shuffle the rest
into your library", "mills cards equal to …", "Return to your hand <object>"; and metamorphic pairs
(issue 13 item 2) of real cards that differ in one such word."""

from __future__ import annotations

import pytest

from tests.test_parse_metamorphic import _drop, ability, select, strip

# (card, fragment of its line): the whole line must round-trip
ROUND_TRIP = [
    ("Dire Downdraft", "Target creature's owner puts it on their choice of the top or bottom of their library."),
    ("Power of Persuasion", "Its owner puts it on their choice of the top or bottom of their library."),
    ("A-You Come to a River", "puts it on the top or bottom of their library."),  # the older wording
    ("Oblation", "The owner of target nonland permanent shuffles it into their library, then draws two cards."),
    ("Cathartic Parting", "The owner of target artifact or enchantment an opponent controls shuffles it"),
    ("Folio of Fancies", "Each opponent mills cards equal to the number of cards in their hand."),
    ("Space-Time Anomaly", "Target player mills cards equal to your life total."),
    ("Desecrator Hag", "return to your hand the creature card in your graveyard with the greatest power"),
    ("Genesis Hydra", "shuffle the rest into your library"),
    ("Not Forgotten", "Put target card from a graveyard on your choice of the top or bottom of its owner's library."),
]


@pytest.mark.parametrize("name, fragment", ROUND_TRIP, ids=[n for n, _ in ROUND_TRIP])
def test_round_trip(name, fragment):
    a = ability(name, fragment)
    assert a.fully_parsed, (name, a.render_mismatch)


# (cause, (card, fragment), (card, fragment), select, drop) — as tests/test_parse_metamorphic.PAIRS
PAIRS = [
    ("their choice of the top or bottom / on top (library position, CR 401.1)",
     ("Dire Downdraft", "on their choice of the top or bottom"), ("Griptide", "Put target creature on top of its owner's library."),
     None, ()),
    ("cards in their hand / in your hand (mill equal to)", ("Folio of Fancies", "number of cards in their hand"),
     ("The Water Crystal", "number of cards in your hand"), "mill", ("subject",)),
]


@pytest.mark.parametrize("cause, left, right, what, drop", PAIRS, ids=[p[0] for p in PAIRS])
def test_metamorphic(cause, left, right, what, drop):
    a, b = ability(*left), ability(*right)
    assert a.fully_parsed and b.fully_parsed, cause
    na = _drop(select(strip(a.to_json()["body"]), what), drop)
    nb = _drop(select(strip(b.to_json()["body"]), what), drop)
    assert na != nb, f"{cause}: {left[0]!r} and {right[0]!r} give the same AST: {na}"
