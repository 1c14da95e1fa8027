"""Copy effects (CR 707) on real card text (MTGJSON 2022 corpus, verbatim oracle text):
the shapes the copy grammar (grammar/copy.lark) reads, each a structured CopyEffect."""

from __future__ import annotations

from pipeline.parse import parse_face
from pipeline.parse import ast as A


def copy_of(text, name, type_line="Instant"):
    """Parse one face; assert it is fully parsed and return its CopyEffect nodes in order."""
    abilities = parse_face(text, name=name, type_line=type_line)
    assert all(a.no_unparsed for a in abilities), [a.to_json()["body"] for a in abilities if not a.no_unparsed]
    return [n for a in abilities for n in a.body.walk() if isinstance(n, A.CopyEffect)]


def test_fork_except_that_the_copy_is_red():
    (c,) = copy_of("Copy target instant or sorcery spell, except that the copy is red. "
                   "You may choose new targets for the copy.", "Fork")
    assert c.mode == "copy_spell" and c.new_targets
    assert c.original.quantifier == "target" and c.original.words == ["instant", "or", "sorcery", "spell"]
    assert [(e.kind, e.value) for e in c.exceptions] == [("is_type", ["red"])]


def test_show_of_confidence_copy_for_each_spell_cast_this_turn():
    (c,) = copy_of("When you cast this spell, copy it for each other instant and sorcery spell you've cast "
                   "this turn. You may choose new targets for the copies.", "Show of Confidence")
    assert c.original.quantifier == "it" and c.new_targets
    assert c.count.kind == "for_each"
    assert "youve_cast" in c.count.ref.qualifiers


def test_tawnos_copy_ability_from_an_artifact_source():
    (c,) = copy_of("{U}{R}, {T}: Copy target activated or triggered ability you control from an artifact "
                   "source. You may choose new targets for the copy. (Mana abilities can't be targeted.)",
                   "Tawnos, Urza's Apprentice", "Legendary Creature — Human Artificer")
    assert c.mode == "copy_ability" and c.new_targets
    assert c.original.qualifiers == ["you_control", "from_source:artifact,source"]  # the source's words (CR 113.7)


def test_errant_copy_spell_that_wasnt_cast():
    (c,) = copy_of("{1}{U}, {T}: Copy target spell you control that wasn't cast. You may choose new targets "
                   "for the copy.", "Errant, Street Artist", "Legendary Creature — Human Rogue")
    assert c.original.qualifiers == ["you_control", "not_cast"]


def test_echoing_equation_each_becomes_copy_with_conditional_exception():
    (c,) = copy_of("Choose target creature you control. Each other creature you control becomes a copy of it "
                   "until end of turn, except those creatures aren't legendary if the chosen creature is "
                   "legendary.", "Echoing Equation", "Sorcery")
    assert c.mode == "becomes_copy" and c.duration is not None
    assert c.subject.quantifier == "each_other"
    assert [e.kind for e in c.exceptions] == ["not_legendary"]


def test_krark_copy_comma_and_new_targets():
    cs = copy_of("Whenever you cast an instant or sorcery spell, flip a coin. If you lose the flip, return "
                 "that spell to its owner's hand. If you win the flip, copy that spell, and you may choose "
                 "new targets for the copy.", "Krark, the Thumbless", "Legendary Creature — Goblin Wizard")
    assert len(cs) == 1 and cs[0].new_targets and cs[0].original.text == "that spell"


def test_curse_of_echoes_each_other_player_may_copy():
    (c,) = copy_of("Enchant player\nWhenever enchanted player casts an instant or sorcery spell, each other "
                   "player may copy that spell and may choose new targets for the copy they control.",
                   "Curse of Echoes", "Enchantment — Aura Curse")
    assert c.optional and c.new_targets and c.subject.text == "each other player"


def test_storm_of_forms_copy_for_each_kind_of_counter():
    (c,) = copy_of("When you cast this spell, copy it for each kind of counter among permanents you control. "
                   "You may choose new targets for the copies.", "Storm of Forms", "Sorcery")
    assert c.count.kind == "for_each"


def copy_nodes(text, name, type_line):
    """CopyEffect nodes of a face (other sentences may stay Unparsed); each has no Unparsed inside."""
    cs = [n for a in parse_face(text, name=name, type_line=type_line) for n in a.body.walk()
          if isinstance(n, A.CopyEffect)]
    assert cs and not any(isinstance(u, A.Unparsed) for c in cs for u in c.walk())
    return cs


def test_nightmare_shepherd_pt_and_type_exceptions():
    (c,) = copy_of("Flying\nWhenever another nontoken creature you control dies, you may exile it. If you do, "
                   "create a token that's a copy of that creature, except it's 1/1 and it's a Nightmare in "
                   "addition to its other types.", "Nightmare Shepherd", "Enchantment Creature — Demon")
    assert c.mode == "create_token_copy"
    assert [(e.kind, e.value) for e in c.exceptions] == [("is_type", ["1/1"]), ("is_type", ["Nightmare"])]


def test_volrath_pt_exception_and_this_ability():
    (c,) = copy_of("At the beginning of combat on your turn, put a -1/-1 counter on up to one target creature.\n"
                   "{1}: Until your next turn, Volrath, the Shapestealer becomes a copy of target creature with a "
                   "counter on it, except it's 7/5 and it has this ability.", "Volrath, the Shapestealer",
                   "Legendary Creature — Phyrexian Shapeshifter")
    assert c.mode == "becomes_copy" and c.subject.quantifier == "self"
    assert [e.kind for e in c.exceptions] == ["is_type", "has_this_ability"]


def test_mirage_phalanx_has_and_loses_keyword():
    (c,) = copy_nodes('Soulbond (You may pair this creature with another unpaired creature when either enters the '
                      'battlefield. They remain paired for as long as you control both of them.)\nAs long as Mirage '
                      'Phalanx is paired with another creature, each of those creatures has "At the beginning of '
                      'combat on your turn, create a token that\'s a copy of this creature, except it has haste and '
                      'loses soulbond. Exile it at end of combat."', "Mirage Phalanx", "Creature — Human Soldier")
    assert [(e.kind, [k.name for k in e.value]) for e in c.exceptions] == [("has_keyword", ["haste"]),
                                                                           ("loses_ability", ["soulbond"])]


def test_radiant_performer_copy_spell_or_ability_for_each_other_target():
    (c,) = copy_nodes("Flash\nWhen Radiant Performer enters the battlefield, if you cast it from your hand, choose "
                      "target spell or ability that targets only a single permanent or player. Copy that spell or "
                      "ability for each other permanent or player the spell or ability could target. Each copy "
                      "targets a different one of those permanents and players.", "Radiant Performer",
                      "Creature — Human Wizard")
    assert c.original.text == "that spell or ability" and c.count.kind == "for_each"
    assert "could_target" in c.count.ref.qualifiers


def test_mirage_mirror_comma_list_of_types():
    (c,) = copy_of("{2}: Mirage Mirror becomes a copy of target artifact, creature, enchantment, or land until "
                   "end of turn.", "Mirage Mirror", "Artifact")
    assert c.mode == "becomes_copy" and c.duration is not None
    assert c.original.words == ["artifact", "or", "creature", "or", "enchantment", "or", "land"]


def test_jin_gitaxias_comma_list_inside_trigger_head():
    (c,) = copy_of("Whenever you cast an artifact, instant, or sorcery spell, copy that spell. You may choose new "
                   "targets for the copy. This ability triggers only once each turn. (A copy of a permanent spell "
                   "becomes a token.)\nWhenever an opponent casts an artifact, instant, or sorcery spell, counter "
                   "that spell. This ability triggers only once each turn.", "Jin-Gitaxias, Progress Tyrant",
                   "Legendary Creature — Phyrexian Praetor")
    assert c.original.text == "that spell" and c.new_targets


def test_mentors_guidance_copy_if_you_control_a_list():
    (c,) = copy_of("When you cast this spell, copy it if you control a planeswalker, Cleric, Druid, Shaman, "
                   "Warlock, or Wizard.\nScry 1, then draw a card.", "Mentor's Guidance", "Sorcery")
    assert c.original.quantifier == "it"



def test_narsets_reversal_copy_then_return():
    abilities = parse_face("Copy target instant or sorcery spell, then return it to its owner's hand. You may choose "
                           "new targets for the copy.", name="Narset's Reversal", type_line="Instant")
    (a,) = abilities
    assert a.no_unparsed
    first = a.body.effect[0]
    assert isinstance(first.effects[0], A.CopyEffect) and first.effects[0].new_targets
    assert [type(e).__name__ for e in first.effects] == ["CopyEffect", "Action"]


def test_delina_die_roll_row_with_copy_exceptions():
    abilities = parse_face('Whenever Delina, Wild Mage attacks, choose target creature you control, then roll a d20.\n'
                           '1—14 | Create a tapped and attacking token that\'s a copy of that creature, except it\'s not '
                           'legendary and it has "Exile this creature at end of combat."\n15—20 | Create one of those '
                           'tokens. You may roll again.', name="Delina, Wild Mage",
                           type_line="Legendary Creature — Elf Shaman")
    row = abilities[1]
    assert row.no_unparsed
    sent = row.body.effect[0]
    assert sent.condition.text == "die_result:1-14"  # CR 706.2
    (c,) = [n for n in row.body.walk() if isinstance(n, A.CopyEffect)]
    assert [e.kind for e in c.exceptions] == ["not_legendary", "has_ability"]


def test_spark_double_exceptions_with_conditions():
    (c,) = copy_of("You may have Spark Double enter the battlefield as a copy of a creature or planeswalker you "
                   "control, except it enters with an additional +1/+1 counter on it if it's a creature, it enters "
                   "with an additional loyalty counter on it if it's a planeswalker, and it isn't legendary if that "
                   "permanent is legendary.", "Spark Double", "Creature — Illusion")
    assert c.mode == "enter_as_copy" and c.optional
    assert [e.kind for e in c.exceptions] == ["enters_with_counters", "enters_with_counters", "not_legendary"]
    assert [(s.counter, s.amount.value) for s in c.counters] == [("+1/+1", 1), ("loyalty", 1)]
    assert c.exceptions[2].text == "it isn't legendary if that permanent is legendary"


def test_undercover_operative_shield_counter_if_you_control():
    (c,) = copy_of("You may have Undercover Operative enter the battlefield as a copy of any creature on the "
                   "battlefield, except it enters with a shield counter on it if you control that creature. (If it "
                   "would be dealt damage or destroyed, remove a shield counter from it instead.)",
                   "Undercover Operative", "Creature — Shapeshifter Rogue")
    assert [(s.counter, s.amount.value) for s in c.counters] == [("shield", 1)]


def test_chun_li_copy_each_exiled_card():
    cs = copy_nodes("Multikicker {W/U}\nWhen Chun-Li enters the battlefield, exile up to X target instant cards from "
                    "your graveyard, where X is the number of times Chun-Li was kicked. Put a kick counter on each of "
                    "them.\nLightning Kick — Whenever Chun-Li attacks, copy each exiled card you own with a kick "
                    "counter on it. You may cast the copies.", "Chun-Li, Countless Kicks",
                    "Legendary Creature — Human Soldier")
    (c,) = cs
    assert c.mode == "copy_card" and c.original.quantifier == "each_exiled"


def test_cursed_mirror_as_enters_may_have_it_become_a_copy():
    cs = copy_of("{T}: Add {R}.\nAs Cursed Mirror enters the battlefield, you may have it become a copy of any "
                 "creature on the battlefield until end of turn, except it has haste.", "Cursed Mirror", "Artifact")
    (c,) = cs
    assert c.mode == "becomes_copy" and c.optional and c.duration is not None
    assert c.subject.quantifier == "it" and c.original.qualifiers == ["battlefield"]
    assert [e.kind for e in c.exceptions] == ["has_keyword"]


def test_vesuvan_doppelganger_not_color_and_nested_copy_ability():
    outer, inner = copy_of('You may have Vesuvan Doppelganger enter the battlefield as a copy of any creature on the '
                           'battlefield, except it doesn\'t copy that creature\'s color and it has "At the beginning '
                           'of your upkeep, you may have this creature become a copy of target creature, except it '
                           'doesn\'t copy that creature\'s color and it has this ability."', "Vesuvan Doppelganger",
                           "Creature — Shapeshifter")
    assert outer.mode == "enter_as_copy" and [e.kind for e in outer.exceptions] == ["not_color", "has_ability"]
    assert inner.mode == "becomes_copy" and inner.optional and inner.original.quantifier == "target"
    assert [e.kind for e in inner.exceptions] == ["not_color", "has_this_ability"]


def test_mindlink_mech_creature_that_crewed_it_and_three_exceptions():
    (c,) = copy_nodes("Flying\nWhenever Mindlink Mech becomes crewed for the first time each turn, until end of "
                      "turn, Mindlink Mech becomes a copy of target nonlegendary creature that crewed it this turn, "
                      "except it's 4/3, it's a Vehicle artifact in addition to its other types, and it has flying.\n"
                      "Crew 1", "Mindlink Mech", "Artifact — Vehicle")
    assert c.mode == "becomes_copy" and "crewed_it" in c.original.qualifiers
    assert [(e.kind, e.value if e.kind == "is_type" else None) for e in c.exceptions] == [
        ("is_type", ["4/3"]), ("is_type", ["Vehicle", "artifact"]), ("has_keyword", None)]


def test_lazav_name_is_self_then_more_exceptions():
    (c,) = copy_of("Hexproof\nWhenever a creature card is put into an opponent's graveyard from anywhere, you may have "
                   "Lazav, Dimir Mastermind become a copy of that card, except its name is Lazav, Dimir Mastermind, "
                   "it's legendary in addition to its other types, and it has hexproof and this ability.",
                   "Lazav, Dimir Mastermind", "Legendary Creature — Shapeshifter")
    assert c.mode == "becomes_copy" and c.optional
    assert [(e.kind, e.value if e.kind != "has_keyword" else [k.name for k in e.value]) for e in c.exceptions] == [
        ("name_is", "~"), ("is_type", ["legendary"]), ("has_keyword", ["hexproof"]), ("has_this_ability", None)]
    # "it has hexproof and this ability": both abilities are gained (CR 707.9a), each an exception


def test_garth_create_a_copy_of_the_card():
    (c,) = copy_nodes("{T}: Choose a card name that hasn't been chosen from among Disenchant, Braingeyser, Terror, "
                      "Shivan Dragon, Regrowth, and Black Lotus. Create a copy of the card with the chosen name. You "
                      "may cast the copy. (You still pay its costs.)", "Garth One-Eye",
                      "Legendary Creature — Human Wizard")
    assert c.mode == "copy_card" and c.original.qualifiers == ["chosen_name"]
