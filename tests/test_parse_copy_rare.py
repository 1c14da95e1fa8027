"""Copy effects (CR 707) in rarer wordings, on real card text (MTGJSON 2022 corpus, verbatim):
the 32 copy lines the grammar could not read before (docs/ast.md § Coverage). Each test
asserts the copy effect is structured — no Unparsed inside it, and no unread sentence about
a copy left on the face — and checks the parts that carry the rules meaning."""

from __future__ import annotations

import re

from pipeline.parse import parse_face
from pipeline.parse import ast as A

_COPY_RX = re.compile(r"\b(copy of|copies of|copy (target|it|that|the|~|this|each)|as a copy)\b", re.I)


def copies(text, name, type_line):
    """Parse one face; assert its copy effects are structured; return the CopyEffect nodes."""
    out = []
    for a in parse_face(text, name=name, type_line=type_line):
        for n in a.body.walk():
            assert not (isinstance(n, A.Unparsed) and _COPY_RX.search(n.text)), n.text
            if isinstance(n, A.CopyEffect):
                assert not any(isinstance(x, A.Unparsed) for x in n.walk()), n.to_json()
                out.append(n)
    assert out, name
    return out


def test_progenitor_mimic_granted_trigger_with_intervening_if():
    outer, inner = copies('You may have Progenitor Mimic enter the battlefield as a copy of any creature on the '
                          'battlefield, except it has "At the beginning of your upkeep, if this creature isn\'t a '
                          'token, create a token that\'s a copy of this creature."',
                          "Progenitor Mimic", "Creature — Shapeshifter")
    assert outer.mode == "enter_as_copy" and outer.optional
    (exc,) = outer.exceptions
    assert exc.kind == "has_ability"
    trig = next(n for n in exc.walk() if isinstance(n, A.Triggered))
    assert trig.intervening_if.verb == "condition:is_not_a"  # CR 603.4
    assert inner.mode == "create_token_copy" and inner.original.quantifier == "self"


def test_vizier_of_many_faces_leading_condition_applies_to_every_exception():
    (c,) = copies("You may have Vizier of Many Faces enter the battlefield as a copy of any creature on the "
                  "battlefield, except if Vizier of Many Faces was embalmed, the token has no mana cost, it's "
                  "white, and it's a Zombie in addition to its other types.\nEmbalm {3}{U}{U}",
                  "Vizier of Many Faces", "Creature — Shapeshifter Cleric")
    assert [e.kind for e in c.exceptions] == ["no_mana_cost", "is_type", "is_type"]
    assert [e.value for e in c.exceptions[1:]] == [["white"], ["Zombie"]]
    assert all(e.condition is not None and e.condition.verb == "condition:was" for e in c.exceptions)
    assert c.exceptions[0].condition.extra["words"] == ["embalmed"]


def test_moritte_condition_in_the_middle_of_the_exceptions():
    (c,) = copies("Changeling (This card is every creature type.)\nYou may have Moritte of the Frost enter the "
                  "battlefield as a copy of a permanent you control, except it's legendary and snow in addition "
                  "to its other types and, if it's a creature, it enters with two additional +1/+1 counters on "
                  "it and has changeling.", "Moritte of the Frost", "Legendary Snow Creature — Shapeshifter")
    kinds = [(e.kind, e.condition is not None) for e in c.exceptions]
    assert kinds == [("is_type", False), ("enters_with_counters", True), ("has_keyword", True)]
    assert c.counters[0].counter == "+1/+1" and c.counters[0].amount.value == 2
    assert c.exceptions[1].condition.extra["words"] == ["creature"]


def test_imposter_mech_type_with_crew():
    (c,) = copies("You may have Imposter Mech enter the battlefield as a copy of a creature an opponent controls, "
                  "except it's a Vehicle artifact with crew 3 and it loses all other card types.\nCrew 3",
                  "Imposter Mech", "Artifact — Vehicle")
    assert c.original.qualifiers == ["opp_controls"]
    assert [e.kind for e in c.exceptions] == ["is_type", "has_keyword", "loses_other_card_types"]
    assert c.exceptions[1].value[0].name == "crew" and c.exceptions[1].value[0].amount.value == 3


def test_transcantation_card_name_as_original():
    (c,) = copies("Target instant or sorcery spell becomes a copy of Lightning Bolt. Its controller may choose "
                  "new targets for it.", "Transcantation", "Instant")
    assert c.mode == "becomes_copy"
    assert c.original.qualifiers == ["named:Lightning Bolt"]
    assert c.subject.words == ["instant", "or", "sorcery", "spell"]


def test_tibalt_cast_a_copy_of_a_random_card():
    cs = copies("[+1]: Cast a copy of one of the following cards chosen at random—Ignorant Bliss, Crack the "
                "Earth, Blazing Volley.\n[−3]: Cast a copy of one of the following cards chosen at random—"
                "Seething Song, Dance with Devils, Flamebreak.\n[−6]: Cast a copy of one of the following cards "
                "chosen at random—Hellion Eruption, Insurrection, Warp World.",
                "Tibalt the Chaotic", "Legendary Planeswalker — Tibalt")
    assert [c.mode for c in cs] == ["copy_card"] * 3  # CR 707.12
    assert cs[1].original.qualifiers == ["named:Seething Song", "named:Dance with Devils", "named:Flamebreak"]


def test_domesticated_mammoth_token_copy_of_a_named_card_attached():
    (c,) = copies("Domesticated Mammoth enters the battlefield with a token copy of Pacifism attached to it.",
                  "Domesticated Mammoth", "Snow Creature — Mammoth")
    assert c.mode == "create_token_copy" and c.original.qualifiers == ["named:Pacifism"]


def test_the_mimeoplasm_counters_equal_to_the_other_cards_power():
    (c,) = copies("As The Mimeoplasm enters the battlefield, you may exile two creature cards from graveyards. If "
                  "you do, it enters the battlefield as a copy of one of those cards with a number of additional "
                  "+1/+1 counters on it equal to the power of the other card.", "The Mimeoplasm",
                  "Legendary Creature — Ooze")
    assert c.mode == "enter_as_copy"
    (spec,) = c.counters
    assert spec.counter == "+1/+1" and spec.amount.kind == "equal_to"
    assert "stat:power" in spec.amount.ref.qualifiers


def test_twinning_staff_replacement_of_copying():
    cs = copies("If you would copy a spell one or more times, instead copy it that many times plus an additional "
                "time. You may choose new targets for the additional copy.\n{7}, {T}: Copy target instant or "
                "sorcery spell you control. You may choose new targets for the copy.", "Twinning Staff", "Artifact")
    assert cs[0].count.kind == "other" and cs[0].count.text == "that many times plus an additional time"
    assert cs[1].new_targets


def test_banish_into_fable_conditional_copies():
    cs = copies("When you cast this spell from your hand, copy it if you control an artifact, then copy it if you "
                "control an enchantment. You may choose new targets for the copies.\nReturn target nonland "
                "permanent to its owner's hand. You create a 2/2 white Knight creature token with vigilance.",
                "Banish into Fable", "Instant")
    assert len(cs) == 2
    face = parse_face("When you cast this spell from your hand, copy it if you control an artifact, then copy it "
                      "if you control an enchantment. You may choose new targets for the copies.",
                      name="Banish into Fable", type_line="Instant")
    # the condition is the copy's own (CopyEffect.condition, CR 608.2c), written after it
    conds = [n.condition for n in face[0].body.walk() if isinstance(n, A.CopyEffect) and n.condition is not None]
    assert [c.obj.words for c in conds] == [["artifact"], ["enchantment"]]


def test_mystic_reflection_next_time_they_enter_as_copies():
    (c,) = copies("Choose target nonlegendary creature. The next time one or more creatures or planeswalkers "
                  "enter the battlefield this turn, they enter as copies of the chosen creature.\nForetell {U}",
                  "Mystic Reflection", "Instant")
    assert c.mode == "enter_as_copy" and c.original.text == "the chosen creature"
    face = parse_face("Choose target nonlegendary creature. The next time one or more creatures or planeswalkers "
                      "enter the battlefield this turn, they enter as copies of the chosen creature.",
                      name="Mystic Reflection", type_line="Instant")
    sent = face[0].body.effect[1]
    assert sent.condition.verb == "condition:next_time"
    assert sent.condition.extra["event"].verb == "event:enters"


def test_howl_of_the_horde_delayed_trigger_under_raid():
    cs = copies("When you cast your next instant or sorcery spell this turn, copy that spell. You may choose new "
                "targets for the copy.\nRaid — If you attacked this turn, when you cast your next instant or "
                "sorcery spell this turn, copy that spell an additional time. You may choose new targets for the "
                "copy.", "Howl of the Horde", "Sorcery")
    assert cs[1].count.value == 1 and cs[1].new_targets
    raid = parse_face("Raid — If you attacked this turn, when you cast your next instant or sorcery spell this "
                      "turn, copy that spell an additional time.", name="Howl of the Horde", type_line="Sorcery")[0]
    sent = raid.body.effect[0]
    assert sent.condition.verb == "condition:attacked"
    assert isinstance(sent.effects[0], A.Triggered) and sent.effects[0].event.verb == "event:cast"  # CR 603.7


def test_repeated_reverberation_loyalty_ability_is_not_a_counter():
    (c,) = copies("When you next cast an instant spell, cast a sorcery spell, or activate a loyalty ability this "
                  "turn, copy that spell or ability twice. You may choose new targets for the copies.",
                  "Repeated Reverberation", "Instant")
    assert c.count.value == 2 and c.new_targets


def test_kefnet_copy_that_card_and_cast_the_copy():
    (c,) = copies("Flying\nYou may reveal the first card you draw each turn as you draw it. Whenever you reveal an "
                  "instant or sorcery card this way, copy that card and you may cast the copy. That copy costs {2} "
                  "less to cast.", "God-Eternal Kefnet", "Legendary Creature — Zombie God")
    assert c.mode == "copy_card"


def test_back_from_the_brink_cost_exile_and_pay_mana_cost():
    face = parse_face("Exile a creature card from your graveyard and pay its mana cost: Create a token that's a "
                      "copy of that card. Activate only as a sorcery.", name="Back from the Brink",
                      type_line="Enchantment")
    assert face[0].no_unparsed
    assert [c.action for c in face[0].body.cost.components] == ["exile", "pay_mana_cost"]


def test_glimmervoid_basin_each_player_except_the_controller():
    cs = copies("Whenever you roll {CHAOS}, choose target creature. Each player except that creature's controller "
                "creates a token that's a copy of that creature.", "Glimmervoid Basin", "Plane — Mirrodin")
    assert cs[0].subject.qualifiers == ["except:that creature's controller"]


def test_sea_gate_stormcaller_copy_when_you_cast_it():
    cs = copies("Kicker {4}{U}\nWhen Sea Gate Stormcaller enters the battlefield, copy the next instant or sorcery "
                "spell with mana value 2 or less you cast this turn when you cast it. If Sea Gate Stormcaller was "
                "kicked, copy that spell twice instead. You may choose new targets for the copies.",
                "Sea Gate Stormcaller", "Creature — Human Wizard")
    assert cs[0].original.qualifiers[-1] == "you_cast_this_turn"
    assert cs[1].count.value == 2


def test_dollhouse_quoted_ability_ends_the_sentence():
    (c,) = copies('{1}, {T}, Exile a creature card from your graveyard: Create a token that\'s a copy of the exiled '
                  'card, except it\'s a 0/0 Construct artifact in addition to its other types and it has "This '
                  'creature gets +1/+1 for each Construct you control." It gains haste until end of turn. Activate '
                  'only as a sorcery.', "Dollhouse of Horrors", "Artifact")
    assert [e.kind for e in c.exceptions] == ["is_type", "has_ability"]
