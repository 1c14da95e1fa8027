"""Copy lines that round-trip (CR 707): exceptions written with "he"/"his" (CR 707.9b), keywords and
"this ability" in one exception clause (CR 707.9a), "any number of the copies" (CR 707.12). Real card
text, verbatim (oracle-2026)."""

from __future__ import annotations

from pipeline.parse import ast as A
from pipeline.parse import parse_face


def _copy(text: str, name: str, type_line: str) -> tuple[A.Ability, A.CopyEffect]:
    (ab,) = parse_face(text, name=name, type_line=type_line)
    assert ab.fully_parsed, ab.to_json()["render_mismatch"]
    (c,) = [n for n in ab.body.walk() if isinstance(n, A.CopyEffect)]
    return ab, c


def test_except_his_name_is_self():  # Impossible Man (CR 707.9b: the copy keeps this name)
    _, c = _copy("{2}{U}: Impossible Man becomes a copy of another target permanent until end of turn, except his "
                 "name is Impossible Man.", "Impossible Man", "Legendary Creature — Shapeshifter Hero")
    (e,) = c.exceptions
    assert c.mode == "becomes_copy" and e.kind == "name_is" and e.value == "~" and e.form == ["his"]


def test_he_is_and_he_has_flying_and_this_ability():  # Hulkling, Young Avenger (CR 707.9a–b)
    _, c = _copy("Whenever you cast a noncreature spell, Hulkling becomes a copy of up to one other target creature "
                 "until end of turn, except his name is Hulkling, Young Avenger, he's 4/4, and he has flying and this "
                 "ability.", "Hulkling, Young Avenger", "Legendary Creature — Skrull Kree Hero")
    assert [e.kind for e in c.exceptions] == ["name_is", "is_type", "has_keyword", "has_this_ability"]
    assert c.exceptions[1].value == ["4/4"] and c.exceptions[1].form == ["he"]
    assert [k.name for k in c.exceptions[2].value] == ["flying"] and c.exceptions[3].form == ["and"]


def test_he_is_a_legendary_creature_in_addition_to_his_other_types():  # Absorbing Man
    _, c = _copy("At the beginning of your first main phase, until your next turn, Absorbing Man becomes a copy of up "
                 "to one target artifact, non-Aura enchantment, or land, except his name is Absorbing Man, he's a "
                 "legendary 4/4 Human Villain creature in addition to his other types, and he has vigilance.",
                 "Absorbing Man", "Legendary Creature — Human Villain")
    name, is_type, has = c.exceptions
    assert is_type.kind == "is_type" and is_type.addition == "types" and "his" in is_type.form
    assert has.kind == "has_keyword" and has.form == ["he", "has"]


def test_except_he_has_hexproof():  # Oko, the Ringleader
    _, c = _copy("At the beginning of combat on your turn, Oko becomes a copy of up to one target creature you control "
                 "until end of turn, except he has hexproof.", "Oko, the Ringleader", "Legendary Planeswalker — Oko")
    (e,) = c.exceptions
    assert e.kind == "has_keyword" and [k.name for k in e.value] == ["hexproof"]


def test_cast_any_number_of_the_copies():  # The Tale of Tamiyo, Wizard's Spellbook (CR 707.12)
    (ab,) = parse_face("IV — Exile any number of target instant, sorcery, and/or Tamiyo planeswalker cards from your "
                       "graveyard. Copy them. You may cast any number of the copies.", name="The Tale of Tamiyo",
                       type_line="Legendary Enchantment — Saga")
    assert ab.fully_parsed
    (cast,) = [n for n in ab.body.walk() if isinstance(n, A.Action) and n.verb == "cast"]
    assert cast.obj.qualifiers == ["any_number_of_the_copies"]
    (ab,) = parse_face("20 | Copy each card exiled with this artifact. You may cast any number of the copies without "
                       "paying their mana costs.", name="Wizard's Spellbook", type_line="Artifact")
    assert ab.fully_parsed
    (cast,) = [n for n in ab.body.walk() if isinstance(n, A.Action) and n.verb == "cast_free"]
    assert cast.obj.qualifiers == ["any_number_of_the_copies"]


def test_copy_exception_adds_a_creature_type():  # Sakashima's Student (CR 707.9b, 205.3m)
    _, c = _copy("You may have this creature enter as a copy of any creature on the battlefield, except it's a Ninja "
                 "in addition to its other creature types.", "Sakashima's Student", "Creature — Human Ninja")
    (e,) = c.exceptions
    assert e.kind == "is_type" and e.value == ["Ninja"] and e.addition == "creature_types"


def test_copy_it_if_you_control():  # Mentor's Guidance (CR 608.2c: the copy only if the condition holds)
    _, c = _copy("When you cast this spell, copy it if you control a planeswalker, Cleric, Druid, Shaman, Warlock, or "
                 "Wizard.", "Mentor's Guidance", "Sorcery")
    assert c.mode == "copy_spell" and c.condition.verb == "condition:control"
    assert c.condition.obj.words[:3] == ["planeswalker", "or", "cleric"]


# ---- conditions of exceptions (CR 707.9): written after the one exception they condition, or
# before every exception after them ("except if ~ was embalmed, …")
def _line(face_text: str, name: str, type_line: str, line: int = 0) -> A.Ability:
    ab = parse_face(face_text, name=name, type_line=type_line)[line]
    assert ab.fully_parsed, ab.to_json()["render_mismatch"]
    return ab


def _copies(ab: A.Ability) -> list[A.CopyEffect]:
    return [n for n in ab.body.walk() if isinstance(n, A.CopyEffect)]


def test_exception_with_trailing_condition():  # Double Major, Undercover Operative (CR 707.9)
    _, c = _copy("Copy target creature spell you control, except it isn't legendary if the spell is legendary. (A copy "
                 "of a creature spell becomes a token.)", "Double Major", "Instant")
    (e,) = c.exceptions
    assert e.kind == "not_legendary" and e.condition.verb == "condition:is_supertype"
    assert e.condition.extra == {"words": ["legendary"]} and e.condition.obj.words == ["spell"]
    _, c = _copy("You may have this creature enter as a copy of any creature on the battlefield, except it enters with a "
                 "shield counter on it if you control that creature. (If it would be dealt damage or destroyed, remove "
                 "a shield counter from it instead.)", "Undercover Operative", "Creature — Shapeshifter Rogue")
    (e,) = c.exceptions
    assert e.kind == "enters_with_counters" and e.value.counter == "shield" and not e.value.additional
    assert e.condition.verb == "condition:control" and "lead" not in e.condition.extra


def test_exception_type_with_keyword_and_loses_card_types():  # Dino DNA, Espers to Magicite (CR 707.9b, 205.1b)
    ab = _line("Imprint — {1}, {T}: Exile target creature card from a graveyard. Activate only as a sorcery.\n{6}: "
               "Create a token that's a copy of target creature card exiled with this artifact, except it's a 6/6 green "
               "Dinosaur creature with trample. Activate only as a sorcery.", "Dino DNA", "Artifact", line=1)
    (c,) = _copies(ab)
    assert [e.kind for e in c.exceptions] == ["is_type", "has_keyword"]
    assert c.exceptions[0].value == ["6/6", "green", "Dinosaur", "creature"] and c.exceptions[1].form == ["with"]
    _, c = _copy("Exile each opponent's graveyard. When you do, choose up to one target creature card exiled this way. "
                 "Create a token that's a copy of that card, except it's an artifact and it loses all other card types.",
                 "Espers to Magicite", "Instant")
    assert [e.kind for e in c.exceptions] == ["is_type", "loses_other_card_types"]


def test_exception_has_haste_and_loses_soulbond():  # Mirage Phalanx (CR 707.9b: an ability removed)
    ab = _line("Soulbond (You may pair this creature with another unpaired creature when either enters. They remain "
               "paired for as long as you control both of them.)\nAs long as Mirage Phalanx is paired with another "
               "creature, each of those creatures has \"At the beginning of combat on your turn, create a token that's a "
               "copy of this creature, except it has haste and loses soulbond. Exile it at end of combat.\"",
               "Mirage Phalanx", "Creature — Human Soldier", line=1)
    (c,) = _copies(ab)
    assert [e.kind for e in c.exceptions] == ["has_keyword", "loses_ability"]
    assert c.exceptions[1].value[0].name == "soulbond"


# ---- copies for each object a spell could target (CR 707.10d) and a copy's target set (CR 707.10e)
def test_copy_for_each_other_creature_each_copy_targets_one():  # Ink-Treader Nephilim, Mirrorwing Dragon
    _, c = _copy("Whenever a player casts an instant or sorcery spell, if that spell targets only this creature, copy "
                 "the spell for each other creature that spell could target. Each copy targets a different one of those "
                 "creatures.", "Ink-Treader Nephilim", "Creature — Nephilim")
    assert c.count.kind == "for_each" and "could_target" in c.count.ref.qualifiers
    ab = _line("Flying\nWhenever a player casts an instant or sorcery spell that targets only this creature, that player "
               "copies that spell for each other creature they control that the spell could target. Each copy targets "
               "a different one of those creatures.", "Mirrorwing Dragon", "Creature — Dragon", line=1)
    (c,) = _copies(ab)
    assert c.mode == "copy_spell" and c.subject.qualifiers == ["that_player"] and c.count.kind == "for_each"
    assert any(isinstance(n, A.Action) and n.verb == "each_copy_targets_different" for n in ab.body.walk())


def test_the_copy_targets_the_chosen_creature():  # Beamsplitter Mage (CR 707.10e)
    ab = _line("Whenever you cast an instant or sorcery spell that targets only this creature, if you control one or "
               "more other creatures that spell could target, choose one of those creatures. Copy that spell. The copy "
               "targets the chosen creature.", "Beamsplitter Mage", "Creature — Vedalken Wizard")
    (t,) = [n for n in ab.body.walk() if isinstance(n, A.Action) and n.verb == "copy_targets"]
    assert t.obj.words == ["creature"]


def test_create_a_tapped_token_copy():  # Compy Swarm, Scouring Swarm (CR 110.5b, 707.2; 608.2c the "if")
    _, c = _copy("At the beginning of your end step, if a creature died this turn, create a tapped token that's a copy "
                 "of this creature.", "Compy Swarm", "Creature — Dinosaur")
    assert c.mode == "create_token_copy" and c.tapped and not c.attacking and c.condition is None
    ab = _line("Flying\nWhenever you sacrifice a land, create a tapped token that's a copy of this creature if seven or "
               "more land cards are in your graveyard. Otherwise, create a tapped 1/1 black Insect creature token with "
               "flying.", "Scouring Swarm", "Creature — Insect", line=1)
    (c,) = _copies(ab)
    assert c.tapped and c.condition is not None


def test_populate_x_times():  # Full Flowering (CR 701.36a)
    ab = _line("Populate X times. (To populate, create a token that's a copy of a creature token you control. Do this "
               "X times.)", "Full Flowering", "Sorcery", line=0)
    (act,) = [n for n in ab.body.walk() if isinstance(n, A.Action) and n.verb == "populate"]
    assert act.amount.kind == "x" and act.amount.variable == "X"


def test_spell_that_targets_only_a_single_creature():  # Leyline of Resonance (CR 115.1, 707.10)
    ab = _line("If this card is in your opening hand, you may begin the game with it on the battlefield.\nWhenever you "
               "cast an instant or sorcery spell that targets only a single creature you control, copy that spell. You "
               "may choose new targets for the copy.", "Leyline of Resonance", "Enchantment", line=1)
    (spell,) = ab.body.event.extra["objects"]
    assert spell.qualifiers == ["that_targets", "form:only+a+single"]
    (ref,) = spell.refs
    assert ref.words == ["creature"] and ref.qualifiers == ["you_control"]
    (c,) = [n for n in ab.body.walk() if isinstance(n, A.CopyEffect)]
    assert c.mode == "copy_spell" and c.new_targets


def test_choose_target_spell_that_targets_only_a_single_permanent_or_player():  # Radiate (CR 707.10d)
    ab = _line("Choose target instant or sorcery spell that targets only a single permanent or player. Copy that spell "
               "for each other permanent or player the spell could target. Each copy targets a different one of those "
               "permanents and players.", "Radiate", "Instant", line=0)
    (choose,) = [n for n in ab.body.walk() if isinstance(n, A.Action) and n.verb == "choose"]
    assert choose.obj.quantifier == "target" and "form:only+a+single" in choose.obj.qualifiers
    assert choose.obj.refs[0].words == ["permanent", "or", "player"]


def test_ability_that_isnt_a_mana_ability():  # Locus of Enlightenment, Burning-Tree Shaman (CR 605.1)
    ab = _line("Locus of Enlightenment has each activated ability of the exiled cards used to craft it. You may "
               "activate each of those abilities only once each turn.\nWhenever you activate an ability that isn't a "
               "mana ability, copy it. You may choose new targets for the copy.", "Locus of Enlightenment",
               "Legendary Artifact", line=1)
    (what,) = ab.body.event.extra["objects"]
    assert what.words == ["ability"] and what.qualifiers == ["not_mana_ability"]
    (c,) = [n for n in ab.body.walk() if isinstance(n, A.CopyEffect)]
    assert c.original.quantifier == "it" and c.new_targets
    ab = _line("Whenever a player activates an ability that isn't a mana ability, this creature deals 1 damage to "
               "that player.", "Burning-Tree Shaman", "Creature — Centaur Shaman")
    assert ab.body.event.extra["objects"][0].qualifiers == ["not_mana_ability"]


def test_token_copy_of_a_creature_token_that_entered_this_turn():  # Octomancer (CR 400.7, 707.2)
    ab = _line("Gift an Octopus (You may promise an opponent a gift as you cast this spell. If you do, when it enters, "
               "they create an 8/8 blue Octopus creature token.)\nAt the beginning of each end step, create a token "
               "that's a copy of target creature token that entered the battlefield this turn.", "Octomancer",
               "Creature — Frog Druid", line=1)
    (c,) = [n for n in ab.body.walk() if isinstance(n, A.CopyEffect)]
    assert c.mode == "create_token_copy" and c.original.quantifier == "target"
    assert c.original.words == ["creature", "token"] and c.original.qualifiers == ["entered_this_turn"]


def test_for_each_token_that_entered_this_turn_create_a_copy_of_it():  # Renewed Solidarity
    ab = _line("As this enchantment enters, choose a creature type.\nCreatures you control of the chosen type get "
               "+1/+0.\nAt the beginning of your end step, for each token you control of the chosen type that entered "
               "this turn, create a token that's a copy of it.", "Renewed Solidarity", "Enchantment", line=2)
    (s,) = ab.body.effect
    assert s.condition.kind == "for_each" and "entered_this_turn" in s.condition.ref.qualifiers
    (c,) = s.effects
    assert c.mode == "create_token_copy" and c.original.quantifier == "it"


def test_that_player_copies_it_and_may_choose_new_targets():  # Bonus Round (CR 707.10, 707.10c)
    ab = _line("Until end of turn, whenever a player casts an instant or sorcery spell, that player copies it and may "
               "choose new targets for the copy.", "Bonus Round", "Sorcery")
    (c,) = [n for n in ab.body.walk() if isinstance(n, A.CopyEffect)]
    assert c.mode == "copy_spell" and c.subject.qualifiers == ["that_player"] and c.original.quantifier == "it"
    assert c.new_targets and c.new_targets_join == "and_may" and not c.optional


def test_copy_a_loyalty_ability_of_a_chandra_planeswalker():  # Chandra's Regulator (CR 606.1, 707.10)
    ab = _line("Whenever you activate a loyalty ability of a Chandra planeswalker, you may pay {1}. If you do, copy "
               "that ability. You may choose new targets for the copy.\n{1}, {T}, Discard a Mountain card or a red card: "
               "Draw a card.", "Chandra's Regulator", "Legendary Artifact", line=0)
    (what,) = ab.body.event.extra["objects"]
    assert what.words == ["loyalty", "ability"] and what.qualifiers == ["of_a:chandra,planeswalker"]
    (c,) = [n for n in ab.body.walk() if isinstance(n, A.CopyEffect)]
    assert c.mode == "copy_ability" and c.new_targets


def test_as_this_enters_you_may_have_it_become_a_copy_until_end_of_turn():  # Cursed Mirror (CR 614.1c, 707.9)
    ab = _line("{T}: Add {R}.\nAs this artifact enters, you may have it become a copy of any creature on the "
               "battlefield until end of turn, except it has haste.", "Cursed Mirror", "Artifact", line=1)
    (s,) = ab.body.effect
    assert s.condition.verb == "condition:as_enters" and s.condition.obj.quantifier == "self"
    (c,) = s.effects
    assert c.mode == "becomes_copy" and c.optional and c.subject.quantifier == "it"
    assert c.duration.kind == "until_end_of_turn" and [k.name for k in c.exceptions[0].value] == ["haste"]


def test_copy_a_card_you_exiled_with_cards_named_self():  # Arcane Savant (CR 607.2a, 707.12)
    ab = _line("Before you shuffle your deck to start the game, you may reveal this card from your deck and exile an "
               "instant or sorcery card you drafted that isn't in your deck.\nWhen this creature enters, copy a card "
               "you exiled with cards named Arcane Savant. You may cast the copy without paying its mana cost.",
               "Arcane Savant", "Creature — Human Wizard", line=1)
    (c,) = [n for n in ab.body.walk() if isinstance(n, A.CopyEffect)]
    assert c.mode == "copy_card" and c.original.qualifiers == ["exiled_with_named:~"]

