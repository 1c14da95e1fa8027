"""Counter lines (grammar/counters.lark, CR 122) that round-trip from their structure, read from the
corpora (real card texts, never written here): objects by the counters on them with no count, keyword
counters of two words, counters named by a pronoun, moving all counters, "the number of counters on …"
(any kind); and metamorphic pairs (issue 13 item 2) of real cards that differ in one such word."""

from __future__ import annotations

import pytest

from tests.test_parse_metamorphic import _drop, _faces, ability, select, strip

# (card, fragment of its line): the whole line must round-trip
ROUND_TRIP = [
    # objects by their counters, no count (CR 122.1): qualifier with_counter:some|no|one_or_more, without_counter
    ("Sphere Grid", "Creatures you control with +1/+1 counters on them have reach and trample."),
    ("Tyrant Guard", "Creatures you control with counters on them gain hexproof and indestructible"),
    ("Heartless Act", "Destroy target creature with no counters on it."),
    ("Oblivion Stone", "Destroy each nonland permanent without a fate counter on it"),
    # keyword counters of two words (CR 122.1b)
    ("Heightened Reflexes", "Put a first strike counter on it."),
    # counters named by a pronoun (CR 122.1, 603.10a)
    ("Selfless Police Captain", "put its +1/+1 counters on target creature you control"),
    ("The Ozolith", "put those counters on"),
    ("Heirloom Mirror", "remove them and transform it"),
    ("Strixhaven Stadium", "remove them all"),
    # moving all counters (CR 122.5)
    ("Fate Transfer", "Move all counters from target creature onto another target creature."),
    # "the number of counters on …" / "for each counter on …" (any kind, CR 122.1, 107.1)
    ("Parting Thoughts", "where X is the number of counters on that creature"),
    ("Gavel of the Righteous", "Equipped creature gets +1/+1 for each counter on"),
]


@pytest.mark.parametrize("name, fragment", ROUND_TRIP, ids=[n for n, _ in ROUND_TRIP])
def test_round_trip(name, fragment):
    a = ability(name, fragment)
    assert a.fully_parsed, (name, a.render_mismatch)


# (cause, (card, fragment), (card, fragment), select, drop) — as tests/test_parse_metamorphic.PAIRS
PAIRS = [
    ("with / without a +1/+1 counter (object)", ("Wave Goodbye", "without a +1/+1 counter on it"),
     ("Sporeback Troll", "with a +1/+1 counter on it"), "Obj", ("words", "quantifier")),
    ("with +1/+1 counters / with counters on them (object)",
     ("Sphere Grid", "with +1/+1 counters on them"), ("Tyrant Guard", "with counters on them"), "Obj", ()),
    ("its counters / its +1/+1 counters (put)", ("Essence Channeler", "put its counters on"),
     ("Selfless Police Captain", "put its +1/+1 counters on"), "put_counters", ("obj",)),
    ("for each counter / for each +1/+1 counter (pump)", ("Gavel of the Righteous", "for each counter on"),
     ("Lion Sash", "for each +1/+1 counter on"), "pump_for_each_counter", ("subject", "obj", "extra.pt")),
    ("first strike / flying counter", ("Heightened Reflexes", "Put a first strike counter on it."),
     ("Spontaneous Flight", "Put a flying counter on it."), "put_counters", ()),
]


@pytest.mark.parametrize("cause, left, right, what, drop", PAIRS, ids=[p[0] for p in PAIRS])
def test_metamorphic(cause, left, right, what, drop):
    a, b = ability(*left), ability(*right)
    assert a.fully_parsed and b.fully_parsed, cause
    na = _drop(select(strip(a.to_json()["body"]), what), drop)
    nb = _drop(select(strip(b.to_json()["body"]), what), drop)
    assert na != nb, f"{cause}: {left[0]!r} and {right[0]!r} give the same AST: {na}"


def test_cards_exist():
    faces = _faces()
    for name, _ in ROUND_TRIP:
        assert name in faces
