"""Conditions (CR 603.4 intervening "if" clauses, CR 608.2c conditional effects) and trigger events
(CR 603.2) read by grammar/conditions.lark + pipeline/parse/transform_conditions.py.

Every card text below is the MTGJSON 2022 corpus text verbatim (test_inputs_are_corpus_text checks it).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from pipeline.parse import ast as A
from pipeline.parse import parse_face

CORPUS = Path(__file__).parents[1].parent / "shared" / "corpus"

CARDS = {
    "Ornitharch": ("Creature — Archon", "Flying\nTribute 2 (As this creature enters the battlefield, an opponent of your choice may put two +1/+1 counters on it.)\nWhen Ornitharch enters the battlefield, if tribute wasn't paid, create two 1/1 white Bird creature tokens with flying."),
    "Frontline Medic": ("Creature — Human Cleric", "Battalion — Whenever Frontline Medic and at least two other creatures attack, creatures you control gain indestructible until end of turn.\nSacrifice Frontline Medic: Counter target spell with {X} in its mana cost unless its controller pays {3}."),
    "Guerrilla Tactics": ("Instant", "Guerrilla Tactics deals 2 damage to any target.\nWhen a spell or ability an opponent controls causes you to discard Guerrilla Tactics, Guerrilla Tactics deals 4 damage to any target."),
    "Celestus Sanctifier": ("Creature — Human Cleric", "If it's neither day nor night, it becomes day as Celestus Sanctifier enters the battlefield.\nWhenever day becomes night or night becomes day, look at the top two cards of your library. Put one of them into your graveyard."),
    "Animist's Awakening": ("Sorcery", "Reveal the top X cards of your library. Put all land cards from among them onto the battlefield tapped and the rest on the bottom of your library in a random order.\nSpell mastery — If there are two or more instant and/or sorcery cards in your graveyard, untap those lands."),
    "Candlegrove Witch": ("Creature — Human Warlock", "Coven — At the beginning of combat on your turn, if you control three or more creatures with different powers, Candlegrove Witch gains flying until end of turn."),
    "Haunting Hymn": ("Instant", "Target player discards two cards. If you cast this spell during your main phase, that player discards four cards instead."),
    "Pact of Negation": ("Instant", "Counter target spell.\nAt the beginning of your next upkeep, pay {3}{U}{U}. If you don't, you lose the game."),
    "Battle Cry Goblin": ("Creature — Goblin", "{1}{R}: Goblins you control get +1/+0 and gain haste until end of turn.\nPack tactics — Whenever Battle Cry Goblin attacks, if you attacked with creatures with total power 6 or greater this combat, create a 1/1 red Goblin creature token that's tapped and attacking."),
    "Howling Mine": ("Artifact", "At the beginning of each player's draw step, if Howling Mine is untapped, that player draws an additional card."),
    "Cemetery Protector": ("Creature — Human Soldier", "Flash\nWhen Cemetery Protector enters the battlefield, exile a card from a graveyard.\nWhenever you play a land or cast a spell, if it shares a card type with the exiled card, create a 1/1 white Human creature token."),
    "Flame-Blessed Bolt": ("Instant", "Flame-Blessed Bolt deals 2 damage to target creature or planeswalker. If that creature or planeswalker would die this turn, exile it instead."),
    "Scaleguard Sentinels": ("Creature — Human Soldier", "As an additional cost to cast this spell, you may reveal a Dragon card from your hand.\nScaleguard Sentinels enters the battlefield with a +1/+1 counter on it if you revealed a Dragon card or controlled a Dragon as you cast this spell."),
    "Solitary Camel": ("Creature — Camel", "Solitary Camel has lifelink as long as you control a Desert or there is a Desert card in your graveyard. (Damage dealt by this creature also causes you to gain that much life.)"),
    "Boneyard Scourge": ("Creature — Zombie Dragon", "Flying\nWhenever a Dragon you control dies while Boneyard Scourge is in your graveyard, you may pay {1}{B}. If you do, return Boneyard Scourge from your graveyard to the battlefield."),
    "Blind Hunter": ("Creature — Bat", "Flying\nHaunt (When this creature dies, exile it haunting target creature.)\nWhen Blind Hunter enters the battlefield or the creature it haunts dies, target player loses 2 life and you gain 2 life."),
    "Whispering Snitch": ("Creature — Vampire Rogue", "Whenever you surveil for the first time each turn, Whispering Snitch deals 1 damage to each opponent and you gain 1 life."),
    "Cho-Arrim Legate": ("Creature — Human Soldier", "If an opponent controls a Swamp and you control a Plains, you may cast this spell without paying its mana cost.\nProtection from black"),
    "Voice of Resurgence": ("Creature — Elemental", "Whenever an opponent casts a spell during your turn or when Voice of Resurgence dies, create a green and white Elemental creature token with \"This creature's power and toughness are each equal to the number of creatures you control.\""),
}


def _abilities(name):
    type_line, text = CARDS[name]
    return parse_face(text, name=name, type_line=type_line)


def _actions(name, prefix):
    return [n for a in _abilities(name) for n in a.body.walk()
            if isinstance(n, A.Action) and n.verb.startswith(prefix)]


def _fully(name, index):
    return _abilities(name)[index].no_unparsed


def test_tribute_intervening_if():
    trig = _abilities("Ornitharch")[2].body
    assert isinstance(trig, A.Triggered)
    assert trig.intervening_if.verb == "condition:tribute_not_paid"  # CR 702.104b
    assert _fully("Ornitharch", 2)


def test_battalion_event():
    ev = _abilities("Frontline Medic")[0].body.event
    assert ev.verb == "event:attacks_with_others"
    assert ev.obj.quantifier == "self" and ev.amount.value == 2 and ev.extra["words"] == ["creatures"]
    assert _fully("Frontline Medic", 0)


def test_spell_or_ability_causes_discard():
    ev = _abilities("Guerrilla Tactics")[1].body.event
    assert ev.verb == "event:causes"
    assert ev.obj.words == ["spell", "or", "ability"] and "opp_controls" in ev.obj.qualifiers
    assert ev.extra["objects"][0].quantifier == "you"
    assert _fully("Guerrilla Tactics", 1)


def test_day_night_event():
    ev = _abilities("Celestus Sanctifier")[1].body.event
    assert ev.verb == "event:day_night"  # CR 726.2
    assert _fully("Celestus Sanctifier", 1)


def test_there_are_and_or_list():
    cond = _abilities("Animist's Awakening")[1].body.effect[0].condition
    assert cond.verb == "condition:there_are"
    assert cond.amount.value == 2
    assert cond.extra["words"] == ["instant", "and/or", "sorcery", "cards"]
    assert cond.extra["qualifiers"] == ["zone:your_graveyard", "form:in"]  # "in your graveyard" (the preposition written)
    assert _fully("Animist's Awakening", 1)


def test_coven_different_powers():
    cond = _abilities("Candlegrove Witch")[0].body.intervening_if
    assert cond.verb == "condition:control"
    assert "with_different:powers" in cond.obj.qualifiers
    assert _fully("Candlegrove Witch", 0)


def test_cast_during_main_phase():
    cond = _abilities("Haunting Hymn")[0].body.effect[1].condition
    assert cond.verb == "condition:cast_during" and cond.obj.quantifier == "self"
    assert _fully("Haunting Hymn", 0)


def test_next_upkeep_trigger():
    ev = _abilities("Pact of Negation")[1].body.event
    assert ev.verb == "event:step" and ev.extra["step"] == "the beginning of your next upkeep"
    assert _fully("Pact of Negation", 1)


def test_attacked_with_total_power():
    cond = _abilities("Battle Cry Goblin")[1].body.intervening_if
    assert cond.verb == "condition:attacked_with"
    assert "total_power:6:>=" in cond.obj.qualifiers
    assert _fully("Battle Cry Goblin", 1)


def test_self_is_untapped_still_reads():
    """A rule starting "~ is …" must not shadow "if ~ is untapped" (cd_state, CR 603.4)."""
    cond = _abilities("Howling Mine")[0].body.intervening_if
    assert cond.verb == "condition:state"
    assert _fully("Howling Mine", 0)


def test_or_there_is_condition():
    """"or" before a second condition is the ORV lookahead terminal, not a type-list "or" (lexer.py)."""
    (cond,) = _actions("Solitary Camel", "condition:control_or")
    assert cond.obj.words == ["desert"] and cond.extra["objects"][0].qualifiers == ["zone:your_graveyard", "form:in"]
    assert _fully("Solitary Camel", 0)


def test_revealed_or_controlled_as_cast():
    conds = _actions("Scaleguard Sentinels", "condition:revealed_or_controlled")
    assert len(conds) == 1 and conds[0].obj.words == ["dragon", "card"]
    assert _fully("Scaleguard Sentinels", 1)


def test_play_or_cast_event():
    ev = _abilities("Cemetery Protector")[2].body.event
    assert ev.verb == "event:play_or_cast"
    assert ev.obj.quantifier == "you" and [o.words for o in ev.extra["objects"]] == [["land"], ["spell"]]
    assert _fully("Cemetery Protector", 2)


def test_that_creature_or_planeswalker_would_die():
    cond = _abilities("Flame-Blessed Bolt")[0].body.effect[1].condition
    assert cond.verb == "condition:would_die" and cond.obj.text == "that creature or planeswalker"
    assert _fully("Flame-Blessed Bolt", 0)


def test_qualified_events():
    """CR 603.2: "… for the first time each turn", "… while ~ is in your graveyard"."""
    ev = _abilities("Whispering Snitch")[0].body.event
    assert ev.verb == "event:scry" and ev.extra["when"] == "first_time_each_turn"
    assert _fully("Whispering Snitch", 0)
    ev = _abilities("Boneyard Scourge")[1].body.event
    assert ev.verb == "event:dies" and ev.extra["when"] == "while"
    assert ev.extra["while"].verb == "condition:in_zone" and ev.extra["while"].obj.quantifier == "self"


def test_compound_haunt_event():
    ev = _abilities("Blind Hunter")[2].body.event
    assert ev.verb == "event:compound" and ev.obj.quantifier == "self"
    assert ev.extra["event"].verb == "event:dies" and "haunted" in ev.extra["event"].obj.qualifiers


def test_opponent_controls_and_you_control():
    (cond,) = _actions("Cho-Arrim Legate", "condition:and")
    first, second = cond.extra["conds"]
    assert first.verb == "condition:opp_controls" and first.obj.words == ["swamp"]
    assert second.verb == "condition:control" and second.obj.words == ["plains"]


def test_cast_during_period_or_when():
    """"casts a spell during your turn or when ~ dies": the period is read, not kept as REST."""
    ev = _abilities("Voice of Resurgence")[0].body.event
    assert ev.verb == "event:cast" and ev.extra["during"] == "your turn"
    assert ev.extra["or_event"].verb == "event:dies" and ev.extra["or_event"].obj.quantifier == "self"
    assert not any(isinstance(n, A.Unparsed) for n in ev.walk())


@pytest.mark.corpus
def test_inputs_are_corpus_text():
    found = {}
    for path in sorted((CORPUS / "mtgjson-v5-20220425").glob("*.json.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for c in json.load(fh)["data"].get("cards", []):
                name = c.get("faceName") or c["name"]
                if name in CARDS and c.get("text") == CARDS[name][1]:
                    found[name] = c.get("type")
        if len(found) == len(CARDS):
            break
    assert found == {n: t for n, (t, _) in CARDS.items()}
