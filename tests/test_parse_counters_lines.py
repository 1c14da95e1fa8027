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
    # one per counter on another object (CR 122.1, 107.1)
    ("Grief Tyrant", "put a -1/-1 counter on target creature for each -1/-1 counter on this creature."),
    ("Alien Invasion", "Put a +1/+1 counter on it for each invasion counter on this enchantment"),
    # a choice of kinds (CR 122.1, 608.2d)
    ("Vivien, Monsters' Advocate", "Put your choice of a vigilance counter, a reach counter, or a trample counter"),
    ("The Night of the Doctor", "Put your choice of a first strike, vigilance, or lifelink counter on it."),
    ("Elspeth Conquers Death", "Put a +1/+1 counter or a loyalty counter on it"),
    # "for each" counting counters where an object was expected (CR 122.1, 107.1)
    ("Soulstinger", "you may put a -1/-1 counter on target creature for each -1/-1 counter on this creature."),
    ("Arctic Nishoba", "When this creature dies, you gain 2 life for each age counter on it."),
    ("Bioessence Hydra", "enters with a +1/+1 counter on it for each loyalty counter on planeswalkers you control."),
    ("Ascendant Acolyte", "for each +1/+1 counter among other creatures you control."),
    ("Thief of Blood", "This creature enters with a +1/+1 counter on it for each counter removed this way."),
    ("Geometric Nexus", "where X is the number of charge counters removed this way."),
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


def _put(name: str, fragment: str) -> dict:
    return select(strip(ability(name, fragment).to_json()["body"]), "put_counters")


def test_for_each_counter_keeps_both_kinds():
    """Grief Tyrant: "put a -1/-1 counter on target creature for each -1/-1 counter on this creature" — the
    counter put and the counters counted each keep their kind (CR 122.1); the counted ones are
    ``quantity:counters`` on ~ (the line did not parse: "for each" took an object only)."""
    put = _put("Grief Tyrant", "for each -1/-1 counter on")
    each = put["extra"]["for_each"]
    assert put["extra"]["counter"] == "-1/-1" and put["obj"]["quantifier"] == "target"
    assert (each["verb"], each["extra"], each["obj"]["quantifier"]) == ("quantity:counters", {"counter": "-1/-1"}, "self")
    invasion = _put("Alien Invasion", "for each invasion counter")["extra"]
    assert (invasion["counter"], invasion["for_each"]["extra"]["counter"]) == ("+1/+1", "invasion")


def test_counter_choice_holds_each_kind():
    """"Put your choice of a vigilance counter, a reach counter, or a trample counter on it" (CR 122.1; the
    player chooses, CR 608.2d): one CounterSpec per kind in ``extra.choice``; "Put a +1/+1 counter or a
    loyalty counter on it" has no chooser named."""
    vivien = _put("Vivien, Monsters' Advocate", "Put your choice of")["extra"]
    assert [c["counter"] for c in vivien["choice"]] == ["vigilance", "reach", "trample"] and vivien["chooser"] == "your"
    doctor = _put("The Night of the Doctor", "Put your choice of")["extra"]
    assert [c["counter"] for c in doctor["choice"]] == ["first strike", "vigilance", "lifelink"]
    assert doctor["shared_noun"] is True
    elspeth = _put("Elspeth Conquers Death", "Put a +1/+1 counter or a loyalty counter")["extra"]
    assert [c["counter"] for c in elspeth["choice"]] == ["+1/+1", "loyalty"] and "chooser" not in elspeth


def test_enters_with_for_each_counter_names_what_it_counts():
    """CR 614.1c, 122.1: "enters with a +1/+1 counter on it for each loyalty counter on planeswalkers you
    control" / "… among other creatures you control" / "… for each counter removed this way" — the counted
    counters are the for-each ref (kind, object, "among" or removed), the line did not parse."""
    def spec(name, fragment):
        (ew,) = [n for n in ability(name, fragment).body.walk() if n.__class__.__name__ == "EntersWith"]
        (c,) = ew.counters
        return c

    hydra = spec("Bioessence Hydra", "for each loyalty counter")
    assert (hydra.counter, hydra.amount.kind, hydra.amount.value) == ("+1/+1", "for_each", 1)
    assert (hydra.amount.ref.verb, hydra.amount.ref.extra) == ("quantity:counters", {"counter": "loyalty"})
    assert hydra.amount.ref.obj.words == ["planeswalkers"]
    acolyte = spec("Ascendant Acolyte", "among other creatures")
    assert acolyte.amount.ref.extra == {"counter": "+1/+1", "among": True}
    thief = spec("Thief of Blood", "for each counter removed this way")
    assert (thief.amount.ref.verb, thief.amount.ref.extra) == ("quantity:counters_removed", {"counter": ""})


def test_gain_life_for_each_counter_keeps_the_kind():
    """Arctic Nishoba: "you gain 2 life for each age counter on it" — gain_life 2 per ``quantity:counters``
    of kind age on it (CR 119.1, 122.1)."""
    gain = select(strip(ability("Arctic Nishoba", "you gain 2 life").to_json()["body"]), "gain_life")
    assert gain["amount"]["value"] == 2
    assert (gain["extra"]["for_each"]["verb"], gain["extra"]["for_each"]["extra"]) == ("quantity:counters", {"counter": "age"})
