"""Conditions and trigger events round-trip on real cards from the wording of the grammar alternative
their fields select (pipeline/parse/render_alternatives.py; CR 603.2 trigger events, 603.4
intervening "if", 608.2c conditional effects). Every line is read from the corpora by card name
(tests/test_parse_metamorphic.py:ability)."""

from __future__ import annotations

import gzip
import json
from functools import lru_cache

import pytest

from pipeline.parse import parse_face

from pipeline.parse import ast as A
from tests.test_parse_metamorphic import MTGJSON, ability

ROUND_TRIPS = [
    # conditions of effects.lark (cd_*) and conditions.lark (cd2_*), one node per verb
    ("Webweaver Changeling", "When this creature enters, if there are three or more creature cards in your graveyard"),
    ("River Serpent", "This creature can't attack unless there are five or more cards in your graveyard"),
    ("Avatar of Hope", "If you have 3 or less life"),                     # "or less" life (CR 107.1)
    ("Fatal Push", "Destroy target creature if it has mana value 2 or less."),
    ("Glimmervoid", "if you control no artifacts"),
    ("Smothering Tithe", "If the player doesn't"),                          # the present tense kept
    ("Contaminant Grafter", "if an opponent has three or more poison counters"),  # CR 122.1f
    # linked costs and designations (CR 702.166b, 702.174k, 700.11), what left a zone (revolt)
    ("Realm-Scorcher Hellkite", "if it was bargained"),
    ("Mind Spiral", "If the gift was promised"),
    ("Ruin-Lurker Bat", "if you descended this turn"),
    ("Hidden Stockpile", "if a permanent left the battlefield under your control this turn"),
    ("Relic Retriever", "if a card left your graveyard this turn"),
    ("Prairie Dog", "if you haven't cast a spell from your hand this turn"),
    # leads: "Otherwise, …", "For each …, …", "For each of them, …" (CR 608.2c)
    ("Coiling Oracle", "Otherwise,"),
    ("Midnight Ritual", "For each creature card exiled this way"),
    # trigger events: crimes (CR 700.13), expend (CR 700.14), unlocking a door (CR 709.5e),
    # the next spell cast this turn (a delayed trigger, CR 603.7), two trigger conditions (CR 603.2)
    ("Forsaken Miner", "Whenever you commit a crime"),
    ("Teapot Slinger", "Whenever you expend 4"),
    ("Spiked Corridor", "When you unlock this door"),
    ("Cursed Recording", "When you next cast an instant or sorcery spell this turn"),
    ("Naya Sojourners", "When you cycle this card and when this creature dies"),
    # g-triggers (issue 13, 2026-12-03): tribute (CR 702.104b) with its negation, "if a player does"
    # (CR 608.2c), a keyword a permanent has (CR 702), a step joined to another trigger event
    # (CR 603.2), the planar die's chaos symbol (CR 107.12, 901.9b), and the conditions of
    # statics.lark whose verb names its wording
    ("Ornitharch", "if tribute wasn't paid"),
    ("Vexing Devil", "If a player does"),
    ("Earthbind", "if enchanted creature has flying"),
    ("Floodgate", "has flying, sacrifice it"),
    ("Finale of Devastation", "If you search your library this way"),
    ("Demonic Rising", "if you control exactly one creature"),
    ("Bountiful Promenade", "unless you have two or more opponents"),
    ("Jace's Phantasm", "as long as an opponent has ten or more cards in their graveyard"),
    ("Homarid", "As long as there is exactly one tide counter"),
    ("Mogg Salvage", "If an opponent controls an Island and you control a Mountain"),
    ("Okina Nightwatch", "As long as you have more cards in hand than each opponent"),
    ("Aven Heartstabber", "five or more mana values among cards in your graveyard"),
    # "Then <effect> if <condition>." (CR 608.2c), damage dealt to a player this turn (CR 120; lexer
    # DEALTTO), the player with the most cards in hand, a land not played (CR 305.2), tokens created
    # or artifacts sacrificed this turn, whose turn it is (CR 500), "is blocked" (CR 509.1h)
    ("Weatherlight Compleated", "Then draw a card if it has seven or more phyresis counters on it."),
    ("Compelling Deterrence", "Then that player discards a card if you control a Zombie."),
    ("Whirling Dervish", "if this creature dealt damage to an opponent this turn"),
    ("Wave of Rats", "if it dealt combat damage to a player this turn"),
    ("Battle Angels of Tyr", "if that player has more cards in hand than each other player"),
    ("Skarrgan Firebird", "Activate only if an opponent was dealt damage this turn."),
    ("Mercadian Atlas", "if you didn't play a land this turn"),
    ("Idol of Oblivion", "Activate only if you created a token this turn."),
    ("Detective's Satchel", "Activate only if you've sacrificed an artifact this turn."),
    ("Price of Glory", "if it's not that player's turn"),
    ("Cinder Crawler", "Activate only if this creature is blocked."),
]


@pytest.mark.parametrize("name,fragment", ROUND_TRIPS, ids=[f"{n}:{f[:24]}" for n, f in ROUND_TRIPS])
def test_round_trip(name, fragment):
    a = ability(name, fragment)
    assert a.render_mismatch is None and a.fully_parsed, (a.normalized, a.render_mismatch)


def test_counted_zone_is_kept():
    """"there are three or more creature cards in your graveyard": the zone is a qualifier of the
    counted cards (it was dropped by the effects.lark condition builder)."""
    cond = ability("Webweaver Changeling", "if there are three or more creature cards").body.intervening_if
    assert cond.verb == "condition:there_are"
    assert cond.extra["comparison"].comparator == ">=" and cond.amount.value == 3
    assert cond.extra["words"] == ["creature", "cards"]
    assert cond.extra["qualifiers"] == ["zone:your_graveyard", "form:in"]  # "in your graveyard" (the preposition written)


def test_two_trigger_conditions():
    """CR 603.2: "When you cycle ~ and when ~ dies" is one ability with two trigger events."""
    t = ability("Naya Sojourners", "When you cycle this card and when this creature dies").body
    assert isinstance(t, A.Triggered) and t.word == "when"
    assert t.event.verb == "event:and_when" and t.event.extra["word"] == "when"
    assert t.event.extra["first"].verb == "event:cycle" and t.event.extra["event"].verb == "event:dies"


def test_otherwise_is_a_condition():
    """"Otherwise, …" applies when the preceding condition is false (CR 608.2c): a condition node,
    not a text span."""
    a = ability("Coiling Oracle", "Otherwise,")
    last = a.body.effect[-1]
    assert isinstance(last.condition, A.Action) and last.condition.verb == "condition:otherwise"


def test_for_each_lead():
    a = ability("Midnight Ritual", "For each creature card exiled this way")
    cond = a.body.effect[-1].condition
    assert isinstance(cond, A.Amount) and cond.kind == "for_each"
    assert cond.ref.words == ["creature", "card"]


def test_negation_tense_is_kept():
    """"If the player doesn't" (Smothering Tithe) and "if it didn't …" are different conditions:
    the negation word stays in the form where it tells the alternatives apart."""
    a = ability("Smothering Tithe", "If the player doesn't")
    cond = a.body.effect[-1].condition
    assert cond.verb == "condition:does" and cond.extra["negated"] is True
    assert cond.extra["form"] == ["doesn't"]


# (cause, (card, fragment), (card, fragment), select): two real lines that differ in one meaningful
# word give different ASTs once free text is stripped (tests/test_parse_metamorphic.py style)
PAIRS = [
    ("combat damage / damage dealt to a player this turn (CR 120.2a)",
     ("Wave of Rats", "if it dealt combat damage to a player this turn"),
     ("Whirling Dervish", "if this creature dealt damage to an opponent this turn"), "condition:dealt_damage_to"),
    ("an opponent's turn / not that player's turn (CR 500)", ("Discordant Spirit", "if it's an opponent's turn"),
     ("Price of Glory", "if it's not that player's turn"), "condition:whose_turn"),
    ("card types / mana values among cards in your graveyard (CR 205.2a, 202.3)",
     ("Aven Heartstabber", "five or more mana values among"), ("Dragon's Rage Channeler", "four or more card types among"),
     "condition:card_types_among"),
]


@pytest.mark.parametrize("cause,a,b,what", PAIRS, ids=[p[0] for p in PAIRS])
def test_one_word_changes_the_ast(cause, a, b, what):
    from tests.test_parse_metamorphic import select, strip

    sa = select(strip(ability(*a).to_json()["body"]), what)
    sb = select(strip(ability(*b).to_json()["body"]), what)
    assert sa != sb, f"{cause}: {sa}"


def test_tribute_negation_is_a_field():
    """"if tribute wasn't paid" (CR 702.104b): the negation is ``extra.negated``, not a text span."""
    cond = ability("Ornitharch", "if tribute wasn't paid").body.intervening_if
    assert cond.verb == "condition:tribute_not_paid" and cond.extra["negated"] is True


def test_step_joined_to_an_event():
    """"When you planeswalk to ~ or at the beginning of your upkeep" (CR 603.2, 901.8): the step is
    an event:step Action with its Step/StepOwner enums."""
    ev = ability_2022("The Aether Flues", "When you planeswalk to").body.event
    step = ev.extra["step"]
    assert ev.verb == "event:planeswalk_or_step" and step.verb == "event:step"
    assert step.extra["phase"] == A.Step.UPKEEP and step.extra["owner"] == A.StepOwner.YOUR


@lru_cache(maxsize=1)
def _faces_2022() -> dict[str, dict]:
    """Face name → {name, type_line, oracle_text} of the MTGJSON 2022 corpus alone (its wording
    where oracle-2026 rewrote a card: "Whenever you roll {CHAOS}" became "Whenever chaos ensues")."""
    out: dict[str, dict] = {}
    for path in sorted(MTGJSON.glob("*.json.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for c in json.load(fh)["data"].get("cards", []):
                name = c.get("faceName") or c["name"]
                if c.get("text"):
                    out.setdefault(name, {"name": name, "type_line": c.get("type", ""), "oracle_text": c["text"]})
    return out


def ability_2022(name: str, fragment: str):
    face = _faces_2022()[name]
    for a in parse_face(face["oracle_text"], name=face["name"], type_line=face["type_line"]):
        if fragment in a.text:
            return a
    raise AssertionError(f"{name}: no line contains {fragment!r}")


ROUND_TRIPS_2022 = [
    ("Academy at Tolaria West", "Whenever you roll {CHAOS}"),          # CR 107.12, 901.9b
    ("The Aether Flues", "When you planeswalk to"),                      # CR 603.2, 901.8
    ("Orcish Mine", "At the beginning of your upkeep or whenever enchanted land becomes tapped"),
]


@pytest.mark.parametrize("name,fragment", ROUND_TRIPS_2022, ids=[f"{n}:{f[:24]}" for n, f in ROUND_TRIPS_2022])
def test_round_trip_2022(name, fragment):
    a = ability_2022(name, fragment)
    assert a.render_mismatch is None and a.fully_parsed, (a.normalized, a.render_mismatch)
