"""Frequent shapes (once ``grammar/coverage.lark``, now split by concept: replacement.lark,
zones.lark, conditions.lark, statics.lark, effects.lark, objects.lark) on real cards (MTGJSON 2022
text, verbatim).

Library positions (CR 401), prevention shields (CR 615.7), durations (CR 610.3, 611.2b),
skipped steps (CR 614.10), chaos triggers (CR 311.7), "As ~ enters, you may pay 2 life" (CR 614.12).
"""

from __future__ import annotations

from pipeline.parse import ast as A
from pipeline.parse import parse_face


def _line(text: str, name: str, type_line: str, index: int = 0) -> A.Ability:
    ab = parse_face(text, name=name, type_line=type_line)[index]
    assert ab.no_unparsed, [n.text for n in ab.body.walk() if isinstance(n, A.Unparsed)]
    return ab


def _actions(ab: A.Ability, verb: str) -> list[A.Action]:
    return [n for n in ab.body.walk() if isinstance(n, A.Action) and n.verb == verb]


def test_put_on_bottom_of_owners_library():  # Condemn (CR 401)
    ab = _line("Put target attacking creature on the bottom of its owner's library. Its controller gains life "
               "equal to its toughness.", "Condemn", "Instant")
    (act,) = _actions(ab, "put_library")
    assert act.extra == {"position": "bottom", "library": "owner"}
    assert act.obj.quantifier == "target" and act.obj.words == ["attacking", "creature"]


def test_put_the_rest_in_a_random_order():  # Ingenious Smith (CR 401.4)
    text = ("When Ingenious Smith enters the battlefield, look at the top four cards of your library. You may reveal "
            "an artifact card from among them and put it into your hand. Put the rest on the bottom of your library "
            "in a random order.\nWhenever one or more artifacts enter the battlefield under your control, put a "
            "+1/+1 counter on Ingenious Smith. This ability triggers only once each turn.")
    ab = parse_face(text, name="Ingenious Smith", type_line="Creature — Human Artificer")[0]
    (act,) = _actions(ab, "put_library")
    assert act.extra == {"position": "bottom", "library": "your", "order": "random"}
    assert act.obj.qualifiers == ["the_rest"] and act.obj.words == []


def test_put_on_top_in_any_order():  # Brainstone
    ab = _line("{2}, {T}, Sacrifice Brainstone: Draw three cards, then put two cards from your hand on top of your "
               "library in any order.", "Brainstone", "Artifact")
    (act,) = _actions(ab, "put_library")
    assert act.extra == {"position": "top", "library": "your", "order": "any"}


def test_put_third_from_the_top():  # Teferi, Hero of Dominaria (CR 401.7)
    text = ("[+1]: Draw a card. At the beginning of the next end step, untap up to two lands.\n[−3]: Put target "
            "nonland permanent into its owner's library third from the top.\n[−8]: You get an emblem with "
            "\"Whenever you draw a card, exile target permanent an opponent controls.\"")
    ab = _line(text, "Teferi, Hero of Dominaria", "Legendary Planeswalker — Teferi", 1)
    (act,) = _actions(ab, "put_library")
    assert act.extra == {"position": "nth", "library": "owner", "nth": "third"}


def test_put_the_rest_into_your_graveyard():  # Vessel of Nascency
    text = ("{1}{G}, Sacrifice Vessel of Nascency: Reveal the top four cards of your library. You may put an "
            "artifact, creature, enchantment, land, or planeswalker card from among them into your hand. Put the "
            "rest into your graveyard.")
    ab = _line(text, "Vessel of Nascency", "Enchantment")
    act = _actions(ab, "put_into")[-1]
    assert act.obj.qualifiers == ["the_rest"] and act.obj.words == []
    assert act.extra == {"zone": "graveyard", "owner": "your"}


def test_prevent_the_next_n_damage():  # Bandage (CR 615.7)
    ab = _line("Prevent the next 1 damage that would be dealt to any target this turn.\nDraw a card.",
               "Bandage", "Instant")
    (act,) = _actions(ab, "prevent_next")
    assert act.amount.value == 1
    assert "any_target" in act.obj.qualifiers
    assert act.extra["duration"] == A.Duration("this turn", A.DurationKind.THIS_TURN)


def test_exile_until_leaves_the_battlefield():  # Consulate Crackdown (CR 610.3)
    ab = _line("When Consulate Crackdown enters the battlefield, exile all artifacts your opponents control until "
               "Consulate Crackdown leaves the battlefield.", "Consulate Crackdown", "Enchantment")
    (act,) = _actions(ab, "exile")
    assert act.extra["duration"].verb == "duration:until_leaves_battlefield"
    assert act.obj.quantifier == "all"


def test_for_as_long_as_you_control():  # Mind Flayer (CR 611.2b)
    ab = _line("Dominate Monster — When Mind Flayer enters the battlefield, gain control of target creature for as "
               "long as you control Mind Flayer.", "Mind Flayer", "Creature — Horror")
    (act,) = _actions(ab, "gain_control")
    dur = act.extra["duration"]
    assert dur.verb == "duration:for_as_long_as"
    assert dur.extra["condition"].verb == "condition:control"


def test_gets_for_as_long_as_remains_tapped():  # Tawnos's Weaponry (CR 611.2b)
    text = ("You may choose not to untap Tawnos's Weaponry during your untap step.\n{2}, {T}: Target creature gets "
            "+1/+1 for as long as Tawnos's Weaponry remains tapped.")
    ab = _line(text, "Tawnos's Weaponry", "Artifact", 1)
    (act,) = _actions(ab, "pump")
    assert act.extra["pt"] == "+1/+1"
    cond = act.extra["duration"].extra["condition"]
    assert cond.verb == "condition:remains" and cond.extra == {"state": "tapped"}


def test_until_the_end_of_your_next_turn():  # Reckless Impulse
    ab = _line("Exile the top two cards of your library. Until the end of your next turn, you may play those cards.",
               "Reckless Impulse", "Sorcery")
    cond = ab.body.effect[1].condition  # a duration (CR 611.2b), the renderer reads its kind
    assert (type(cond), cond.kind) == (A.Duration, A.DurationKind.UNTIL_END_OF_YOUR_NEXT_TURN)


def test_skip_your_draw_step():  # Necropotence (CR 614.10)
    text = ("Skip your draw step.\nWhenever you discard a card, exile that card from your graveyard.\nPay 1 life: "
            "Exile the top card of your library face down. Put that card into your hand at the beginning of your "
            "next end step.")
    ab = _line(text, "Necropotence", "Enchantment")
    (act,) = _actions(ab, "skip")
    assert act.extra == {"step": "draw step", "player": "your", "next": False}


def test_skip_your_next_turn():  # Wormfang Manta
    text = ("Flying\nWhen Wormfang Manta enters the battlefield, you skip your next turn.\nWhen Wormfang Manta leaves "
            "the battlefield, you take an extra turn after this one.")
    ab = _line(text, "Wormfang Manta", "Creature — Nightmare Fish Beast", 1)
    (act,) = _actions(ab, "skip")
    assert act.extra == {"step": "turn", "player": "your", "next": True}


def test_chaos_trigger():  # Academy at Tolaria West (CR 311.7)
    text = ("At the beginning of your end step, if you have no cards in hand, draw seven cards.\nWhenever you roll "
            "{CHAOS}, discard your hand.")
    ab = _line(text, "Academy at Tolaria West", "Plane — Dominaria", 1)
    assert isinstance(ab.body, A.Triggered) and ab.body.event.verb == "event:roll_chaos"


def test_as_enters_you_may_pay_life():  # Blood Crypt (CR 614.12)
    text = ("({T}: Add {B} or {R}.)\nAs Blood Crypt enters the battlefield, you may pay 2 life. If you don't, it "
            "enters the battlefield tapped.")
    ab = _line(text, "Blood Crypt", "Land — Swamp Mountain", 1)
    first = ab.body.effect[0]
    # the replaced event "As ~ enters" is a condition node the renderer writes back (CR 614.12)
    assert first.condition.verb == "condition:as_enters" and first.condition.obj.quantifier == "self"
    (act,) = first.effects
    assert act.verb == "pay_life" and act.amount.value == 2 and act.extra["optional"] is True


def test_pump_until_end_of_turn_for_each():  # Elvish Berserker
    ab = _line("Whenever Elvish Berserker becomes blocked, it gets +1/+1 until end of turn for each creature "
               "blocking it.", "Elvish Berserker", "Creature — Elf Berserker")
    (act,) = _actions(ab, "pump")
    assert act.extra["pt"] == "+1/+1" and act.extra["duration"] == A.Duration("until end of turn", A.DurationKind.UNTIL_END_OF_TURN)
    assert act.extra["for_each"].qualifiers == ["blocking"]
    assert [r.quantifier for r in act.extra["for_each"].refs] == ["it"]  # the creature it blocks (CR 509.1)


def test_lose_life_for_each():  # Stronghold Discipline
    ab = _line("Each player loses 1 life for each creature they control.", "Stronghold Discipline", "Sorcery")
    (act,) = _actions(ab, "lose_life")
    assert act.subject.quantifier == "each" and act.amount.value == 1
    assert act.extra["for_each"].words == ["creature"]


def test_targets_each_get():  # Tandem Tactics
    ab = _line("Up to two target creatures each get +1/+2 until end of turn. You gain 2 life.",
               "Tandem Tactics", "Instant")
    (act,) = _actions(ab, "pump")
    assert act.extra["each"] is True and act.subject.quantifier == "up_to_target"  # "up to two target creatures"


def test_then_if_condition():  # Ordeal of Heliod
    text = ("Enchant creature\nWhenever enchanted creature attacks, put a +1/+1 counter on it. Then if it has three "
            "or more +1/+1 counters on it, sacrifice Ordeal of Heliod.\nWhen you sacrifice Ordeal of Heliod, you "
            "gain 10 life.")
    ab = _line(text, "Ordeal of Heliod", "Enchantment — Aura", 1)
    assert ab.body.effect[1].condition.verb == "condition:has_counter"


def test_next_time_source_would_deal_damage():  # Reverse Damage (CR 615.8)
    ab = _line("The next time a source of your choice would deal damage to you this turn, prevent that damage. You "
               "gain life equal to the damage prevented this way.", "Reverse Damage", "Instant")
    cond = ab.body.effect[0].condition
    assert cond.verb == "condition:next_time_would_deal_damage"
    assert cond.obj.words == ["source"] and cond.extra["to"].quantifier == "you"
    assert [e.verb for e in ab.body.effect[0].effects] == ["prevent_that_damage"]


def test_redirect_next_damage():  # Lancers en-Kor (CR 615.7, 614.9)
    ab = _line("Trample\n{0}: The next 1 damage that would be dealt to Lancers en-Kor this turn is dealt to target "
               "creature you control instead.", "Lancers en-Kor", "Creature — Kor Soldier", 1)
    (act,) = _actions(ab, "redirect_next")
    assert act.amount.value == 1 and act.obj.quantifier == "self"
    assert act.extra["to"].qualifiers == ["you_control"]


def test_damage_divided_among_targets():  # Magic Missile, Kuldotha Flamefiend (CR 601.2d)
    ab = _line("This spell can't be countered.\nMagic Missile deals 3 damage divided as you choose among one, two, "
               "or three targets.", "Magic Missile", "Sorcery", 1)
    (act,) = _actions(ab, "damage_divided")
    assert act.obj.count.text == "one, two, or three" and act.obj.count.value == 3
    text = ("When Kuldotha Flamefiend enters the battlefield, you may sacrifice an artifact. If you do, Kuldotha "
            "Flamefiend deals 4 damage divided as you choose among any number of targets.")
    ab = _line(text, "Kuldotha Flamefiend", "Creature — Elemental")
    (act,) = _actions(ab, "damage_divided")
    assert act.obj.quantifier == "any_number"


def test_search_target_opponents_library():  # Bribery (CR 701.23)
    ab = _line("Search target opponent's library for a creature card and put that card onto the battlefield under "
               "your control. Then that player shuffles.", "Bribery", "Sorcery")
    (act,) = _actions(ab, "search")
    assert act.extra["zone"] == {"owner": "target_opponent", "zones": ["library"]}  # closed values


def test_cast_with_mana_value_without_paying():  # Sram's Expertise (CR 118.9)
    text = ("Create three 1/1 colorless Servo artifact creature tokens.\nYou may cast a spell with mana value 3 or "
            "less from your hand without paying its mana cost.")
    ab = _line(text, "Sram's Expertise", "Sorcery", 1)
    (act,) = _actions(ab, "cast_free")
    assert act.obj.text == "a spell with mana value 3 or less from your hand"
    assert "without_paying" not in act.obj.qualifiers


def test_damage_to_each_creature_and_each_player():  # Pestilence (ANDLIST)
    text = ("At the beginning of the end step, if no creatures are on the battlefield, sacrifice Pestilence.\n{B}: "
            "Pestilence deals 1 damage to each creature and each player.")
    ab = _line(text, "Pestilence", "Enchantment", 1)
    (act,) = _actions(ab, "damage")
    # audit cause A1: the later item with its own determiner is an Obj of its own (CR 115.3 reads each "target" apart)
    assert act.obj.quantifier == "each" and act.obj.words == ["creature"] and "list_and" in act.obj.qualifiers
    (player,) = act.obj.refs
    assert player.quantifier == "each" and player.words == ["player"]


def test_destroy_all_artifacts_and_enchantments():  # Purify
    ab = _line("Destroy all artifacts and enchantments.", "Purify", "Sorcery")
    (act,) = _actions(ab, "destroy")
    assert act.obj.words == ["artifacts", "and", "enchantments"]


def test_damage_split_between_two_recipients():  # Orcish Artillery (ANDDMG)
    ab = _line("{T}: Orcish Artillery deals 2 damage to any target and 3 damage to you.", "Orcish Artillery",
               "Creature — Orc Warrior")
    act = _actions(ab, "damage")[0]
    assert act.amount.value == 2 and "any_target" in act.obj.qualifiers
    also = act.extra["also"]
    assert also.amount.value == 3 and also.obj.quantifier == "you"


def test_reveal_until():  # Treasure Keeper (CR 701.20)
    text = ("When Treasure Keeper dies, reveal cards from the top of your library until you reveal a nonland card with "
            "mana value 3 or less. You may cast that card without paying its mana cost. Put all revealed cards not "
            "cast this way on the bottom of your library in a random order.")
    ab = parse_face(text, name="Treasure Keeper", type_line="Artifact Creature — Construct")[0]
    (act,) = _actions(ab, "reveal_until")
    assert act.obj.qualifiers == ["zone:top_of_library"]  # "the top of your library" (other owners: zone:top_of:<owner>)
    assert act.extra["until"].verb == "reveal" and act.extra["until"].obj.words == ["nonland", "card"]


def test_exchange_control_and_distribute():  # Switcheroo (CR 701.12), Splendid Agony (CR 601.2d)
    (act,) = _actions(_line("Exchange control of two target creatures.", "Switcheroo", "Sorcery"), "exchange_control")
    assert act.obj.count.value == 2
    ab = _line("Distribute two -1/-1 counters among one or two target creatures.", "Splendid Agony", "Instant")
    (act,) = _actions(ab, "distribute_counters")
    assert act.amount.value == 2 and act.extra["counter"] == "-1/-1" and act.obj.count.text == "one or two"


def test_assign_no_combat_damage():  # Orcish Squatters (CR 510.1a)
    text = ("Whenever Orcish Squatters attacks and isn't blocked, you may gain control of target land defending player "
            "controls for as long as you control Orcish Squatters. If you do, Orcish Squatters assigns no combat "
            "damage this turn.")
    ab = _line(text, "Orcish Squatters", "Creature — Orc")
    (act,) = _actions(ab, "assign_no_combat_damage")
    assert act.subject.quantifier == "self" and act.extra["duration"] == A.Duration("this turn", A.DurationKind.THIS_TURN)


def test_switch_power_and_toughness():  # Twisted Image (CR 613.4d)
    ab = _line("Switch target creature's power and toughness until end of turn.\nDraw a card.", "Twisted Image",
               "Instant")
    (act,) = _actions(ab, "switch_pt")
    assert act.obj.words == ["creature"] and act.extra["duration"] == A.Duration("until end of turn", A.DurationKind.UNTIL_END_OF_TURN)


def test_sacrifice_unless_you_return():  # Coral Atoll
    text = ("Coral Atoll enters the battlefield tapped.\nWhen Coral Atoll enters the battlefield, sacrifice it unless "
            "you return an untapped Island you control to its owner's hand.\n{T}: Add {C}{U}.")
    ab = _line(text, "Coral Atoll", "Land", 1)
    (act,) = _actions(ab, "sacrifice")
    other = act.extra["unless"]
    assert other.verb == "return" and other.obj.words == ["untapped", "island"]
    assert other.extra["zone"].kind == A.Destination.OWNER_HAND and other.extra["zone"].owner == A.OwnerWording.ITS_OWNER
    assert ab.fully_parsed  # the return renders as render_zones.render_return writes it (CR 400.7)


def test_put_one_into_hand_and_the_other_into_graveyard():  # Tower Geist
    text = ("Flying\nWhen Tower Geist enters the battlefield, look at the top two cards of your library. Put one of "
            "them into your hand and the other into your graveyard.")
    ab = _line(text, "Tower Geist", "Creature — Spirit", 1)
    (act,) = _actions(ab, "put_into")
    assert act.extra == {"zone": "hand", "owner": "your", "other": {"zone": "graveyard", "owner": "your"}}


def test_tribute_condition():  # Ornitharch (CR 702.104b)
    text = ("Flying\nTribute 2 (As this creature enters the battlefield, an opponent of your choice may put two +1/+1 "
            "counters on it.)\nWhen Ornitharch enters the battlefield, if tribute wasn't paid, create two 1/1 white "
            "Bird creature tokens with flying.")
    ab = _line(text, "Ornitharch", "Creature — Archon", 2)
    assert ab.body.intervening_if.verb == "condition:tribute_not_paid"  # CR 603.4 intervening "if"


def test_kicker_and_or():  # Degavolver (CR 702.33d)
    text = ("Kicker {1}{B} and/or {R} (You may pay an additional {1}{B} and/or {R} as you cast this spell.)\nIf "
            "Degavolver was kicked with its {1}{B} kicker, it enters the battlefield with two +1/+1 counters on it "
            "and with \"Pay 3 life: Regenerate Degavolver.\"\nIf Degavolver was kicked with its {R} kicker, it enters "
            "the battlefield with a +1/+1 counter on it and with first strike.")
    (kw,) = _line(text, "Degavolver", "Creature — Volver").body.keywords
    assert kw.name == "kicker"
    assert [s.raw for s in kw.cost.components[0].symbols] == ["{1}", "{B}"]
    assert [s.raw for s in kw.param.components[0].symbols] == ["{R}"]


def test_gains_trample_and_gets():  # Berserk
    text = ("Cast this spell only before the combat damage step.\nTarget creature gains trample and gets +X/+0 until "
            "end of turn, where X is its power. At the beginning of the next end step, destroy that creature if it "
            "attacked this turn.")
    ab = parse_face(text, name="Berserk", type_line="Instant")[1]
    first = ab.body.effect[0].effects
    assert isinstance(first[0], A.GrantAbility) and first[0].abilities[0].name == "trample"
    assert first[1].verb == "pump" and first[1].extra["pt"] == "+X/+0"


def test_life_total_becomes():  # Form of the Dragon (CR 119.5)
    text = ("At the beginning of your upkeep, Form of the Dragon deals 5 damage to any target.\nAt the beginning of "
            "each end step, your life total becomes 5.\nCreatures without flying can't attack you.")
    ab = _line(text, "Form of the Dragon", "Enchantment", 1)
    (act,) = _actions(ab, "life_total_becomes")
    assert act.amount.value == 5


def test_cant_be_blocked_this_turn_except_by():  # Joven's Tools (CR 509.1b)
    ab = _line("{4}, {T}: Target creature can't be blocked this turn except by Walls.", "Joven's Tools", "Artifact")
    (act,) = _actions(ab, "unblockable_except")
    assert act.extra["except"].words == ["walls"] and act.extra["duration"] == A.Duration("this turn", A.DurationKind.THIS_TURN)


def test_if_no_one_does():  # Browbeat
    ab = parse_face("Any player may have Browbeat deal 5 damage to them. If no one does, target player draws three "
                    "cards.", name="Browbeat", type_line="Sorcery")[0]
    assert ab.body.effect[1].condition.verb == "condition:no_one_does"


def test_instant_and_or_sorcery_cards_condition():  # Unholy Hunger (spell mastery)
    text = ("Destroy target creature.\nSpell mastery — If there are two or more instant and/or sorcery cards in your "
            "graveyard, you gain 2 life.")
    ab = _line(text, "Unholy Hunger", "Instant", 1)
    assert ab.body.effect[0].condition.verb == "condition:there_are"


def test_total_power_restriction():  # Atarka Pummeler (formidable)
    text = ("Formidable — {3}{R}{R}: Creatures you control gain menace until end of turn. Activate only if creatures "
            "you control have total power 8 or greater. (They can't be blocked except by two or more creatures.)")
    ab = _line(text, "Atarka Pummeler", "Creature — Ogre Warrior")
    cond = ab.body.restrictions[0].extra["condition"]
    assert cond.verb == "condition:total_power" and cond.amount.value == 8


def test_cast_during_main_phase():  # Return to Dust
    ab = _line("Exile target artifact or enchantment. If you cast this spell during your main phase, you may exile up "
               "to one other target artifact or enchantment.", "Return to Dust", "Instant")
    assert ab.body.effect[1].condition.verb.startswith("condition:")


def test_dealt_damage_this_way():  # Pillar of Flame
    ab = _line("Pillar of Flame deals 2 damage to any target. If a creature dealt damage this way would die this "
               "turn, exile it instead.", "Pillar of Flame", "Sorcery")
    assert ab.body.effect[1].condition.obj.qualifiers == ["dealt_damage_this_way"]


def test_x_cant_be_zero():  # Aladdin's Lamp (CR 107.3)
    text = ("{X}, {T}: The next time you would draw a card this turn, instead look at the top X cards of your library, "
            "put all but one of them on the bottom of your library in a random order, then draw a card. X can't be 0.")
    ab = parse_face(text, name="Aladdin's Lamp", type_line="Artifact")[0]
    (act,) = _actions(ab, "x_cant_be")
    assert act.amount.value == 0


def test_battalion_and_day_night_triggers():  # Frontline Medic, Celestus Sanctifier (CR 726)
    text = ("Battalion — Whenever Frontline Medic and at least two other creatures attack, creatures you control gain "
            "indestructible until end of turn.\nSacrifice Frontline Medic: Counter target spell with {X} in its mana "
            "cost unless its controller pays {3}.")
    ab = _line(text, "Frontline Medic", "Creature — Human Cleric")
    assert ab.body.event.verb == "event:attacks_with_others" and ab.body.event.amount.value == 2
    text = ("If it's neither day nor night, it becomes day as Celestus Sanctifier enters the battlefield.\nWhenever "
            "day becomes night or night becomes day, look at the top two cards of your library. Put one of them into "
            "your graveyard.")
    ab = parse_face(text, name="Celestus Sanctifier", type_line="Creature — Human Cleric")[1]
    assert ab.body.event.verb == "event:day_night"


def test_fight_each_other():  # Magus of the Arena
    text = ("{3}, {T}: Tap target creature you control and target creature of an opponent's choice they control. "
            "Those creatures fight each other. (Each deals damage equal to its power to the other.)")
    ab = parse_face(text, name="Magus of the Arena", type_line="Creature — Human Wizard")[0]
    assert _actions(ab, "fight_each_other")


def test_during_your_turn():  # Personal Sanctuary
    ab = _line("During your turn, prevent all damage that would be dealt to you.", "Personal Sanctuary", "Enchantment")
    cond = ab.body.effect[0].condition
    assert (cond.verb, cond.extra) == ("condition:during_turn", {"whose": "your"})
    assert ab.fully_parsed


def test_escalate_reinforce_splice_costs():  # Blessed Alliance, Hunting Triad, Torrent of Stone (CR 702)
    text = ("Escalate {2} (Pay this cost for each mode chosen beyond the first.)\nChoose one or more —\n• Target player "
            "gains 4 life.\n• Untap up to two target creatures.\n• Target opponent sacrifices an attacking creature.")
    (kw,) = _line(text, "Blessed Alliance", "Instant").body.keywords
    assert kw.name == "escalate" and kw.cost.components[0].symbols[0].generic == 2
    text = ("Create three 1/1 green Elf Warrior creature tokens.\nReinforce 3—{3}{G} ({3}{G}, Discard this card: Put "
            "three +1/+1 counters on target creature.)")
    (kw,) = _line(text, "Hunting Triad", "Tribal Sorcery — Elf", 1).body.keywords
    assert kw.name == "reinforce" and kw.amount.value == 3
    text = ("Torrent of Stone deals 4 damage to target creature.\nSplice onto Arcane—Sacrifice two Mountains. (As you "
            "cast an Arcane spell, you may reveal this card from your hand and pay its splice cost. If you do, add "
            "this card's effects to that spell.)")
    (kw,) = _line(text, "Torrent of Stone", "Instant — Arcane", 1).body.keywords
    assert kw.name == "splice" and kw.param == A.Obj(None, None, ["arcane"], "arcane")  # CR 702.47a quality
    assert kw.cost.components[0].action == "sacrifice"


def test_becomes_an_artifact_in_addition():  # Ashnod's Transmogrant (CR 205.1b)
    ab = _line("{T}, Sacrifice Ashnod's Transmogrant: Put a +1/+1 counter on target nonartifact creature. That "
               "creature becomes an artifact in addition to its other types.", "Ashnod's Transmogrant", "Artifact")
    (act,) = _actions(ab, "becomes")
    assert act.subject.words == ["creature"] and act.extra["also"] == "its" and ab.fully_parsed


def test_put_a_number_of_counters_equal_to():  # Scourge of Skola Vale
    text = ("Trample\nScourge of Skola Vale enters the battlefield with two +1/+1 counters on it.\n{T}, Sacrifice "
            "another creature: Put a number of +1/+1 counters on Scourge of Skola Vale equal to the sacrificed "
            "creature's toughness.")
    ab = _line(text, "Scourge of Skola Vale", "Creature — Hydra", 2)
    (act,) = _actions(ab, "put_counters")
    assert act.extra["counter"] == "+1/+1" and act.amount.kind == "equal_to"


def test_prevent_all_damage_a_source_would_deal():  # Pay No Heed (CR 615)
    ab = _line("Prevent all damage a source of your choice would deal this turn.", "Pay No Heed", "Instant")
    (act,) = _actions(ab, "prevent_from_source")
    assert act.obj.words == ["source"] and act.extra["duration"] == A.Duration("this turn", A.DurationKind.THIS_TURN)


def test_would_be_put_into_graveyard_this_turn():  # Goblin Dark-Dwellers
    text = ("Menace\nWhen Goblin Dark-Dwellers enters the battlefield, you may cast target instant or sorcery card "
            "with mana value 3 or less from your graveyard without paying its mana cost. If that spell would be put "
            "into your graveyard this turn, exile it instead.")
    ab = _line(text, "Goblin Dark-Dwellers", "Creature — Goblin", 1)
    assert ab.body.effect[1].condition.verb == "condition:would_put"


def test_each_players_life_total_becomes():  # Biorhythm (CR 119.5)
    ab = _line("Each player's life total becomes the number of creatures they control.", "Biorhythm", "Sorcery")
    (act,) = _actions(ab, "life_total_becomes")
    assert act.subject.quantifier == "each" and act.amount.kind == "equal_to"


def test_unattach_cost():  # Blinding Powder (CR 701.3d)
    text = ("Equipped creature has \"Unattach Blinding Powder: Prevent all combat damage that would be dealt to this "
            "creature this turn.\"\nEquip {2} ({2}: Attach to target creature you control. Equip only as a sorcery.)")
    ab = _line(text, "Blinding Powder", "Artifact — Equipment")
    costs = [n for n in ab.body.walk() if isinstance(n, A.ActionCost)]
    assert [c.action for c in costs] == ["unattach"] and costs[0].obj.quantifier == "self"


def test_spend_only_black_mana_on_x():  # Consume Spirit (CR 107.3)
    text = "Spend only black mana on X.\nConsume Spirit deals X damage to any target and you gain X life."
    ab = _line(text, "Consume Spirit", "Sorcery")
    (r,) = ab.body.effect[0].effects
    assert isinstance(r, A.ManaRestriction) and r.kind == "spend_only"


def test_countered_this_way_exile_instead():  # Horribly Awry (CR 614.1a)
    text = ("Devoid (This card has no color.)\nCounter target creature spell with mana value 4 or less. If that spell "
            "is countered this way, exile it instead of putting it into its owner's graveyard.")
    ab = _line(text, "Horribly Awry", "Instant", 1)
    sent = ab.body.effect[1]
    assert sent.condition.verb == "condition:countered_this_way"
    (act,) = sent.effects
    assert act.verb == "exile" and act.extra == {"instead": True, "instead_of": "graveyard"}
