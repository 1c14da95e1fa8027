"""Mana lines that round-trip (CR 106, 605): dependent productions, the player who chooses the
color, spend restrictions and their uses, two productions in one instruction. Real card text,
verbatim (oracle-2026 unless the test says MTGJSON 2022)."""

from __future__ import annotations

from pipeline.parse import ast as A
from pipeline.parse import parse_face


def _mana(text: str, name: str, type_line: str) -> tuple[A.Ability, list[A.AddMana]]:
    (ab,) = parse_face(text, name=name, type_line=type_line)
    assert ab.fully_parsed, ab.to_json()["render_mismatch"]
    return ab, [n for n in ab.body.walk() if isinstance(n, A.AddMana)]


def test_dependent_colors_of_the_exiled_card():  # Chrome Mox (CR 106.7, 607.2a)
    _, (add,) = _mana("{T}: Add one mana of any of the exiled card's colors.", "Chrome Mox", "Artifact")
    assert add.production == "dependent" and add.dependent == "colors_of"
    assert add.source.quantifier == "the_exiled:exiled" and add.source.words == ["card"]


def test_dependent_colors_of_the_exiled_cards():  # Pit of Offerings: the plural possessive
    _, (add,) = _mana("{T}: Add one mana of any of the exiled cards' colors.", "Pit of Offerings", "Land")
    assert add.dependent == "colors_of" and add.source.words == ["cards"]


def test_dependent_any_color_among():  # Plaza of Heroes, The Grey Havens (CR 106.7)
    _, (add,) = _mana("{T}: Add one mana of any color among legendary permanents you control.",
                      "Plaza of Heroes", "Land")
    assert add.dependent == "among" and add.source.words == ["legendary", "permanents"]
    assert add.source.qualifiers == ["you_control"]
    _, (add,) = _mana("{T}: Add one mana of any color among legendary creature cards in your graveyard.",
                      "The Grey Havens", "Legendary Land")
    assert add.dependent == "among" and "zone:your_graveyard" in add.source.qualifiers


def test_dependent_among_two_kinds():  # Mox Amber
    _, (add,) = _mana("{T}: Add one mana of any color among legendary creatures and planeswalkers you control.",
                      "Mox Amber", "Legendary Artifact")
    assert add.dependent == "among" and add.source.words == ["legendary", "creatures", "and", "planeswalkers"]


def test_the_player_adding_the_mana_chooses_its_color():  # Spectral Searchlight, Stadium Vendors (CR 106.1)
    _, (add,) = _mana("{T}: Choose a player. That player adds one mana of any color they choose.",
                      "Spectral Searchlight", "Artifact")
    assert add.production == "any_color" and add.chooser == "they" and not add.any_one_color
    assert add.player_obj is not None
    _, (add,) = _mana("When this creature enters, choose a player. That player adds two mana of any one color "
                      "they choose.", "Stadium Vendors", "Creature — Goblin Citizen")
    assert add.chooser == "they" and add.any_one_color and add.amount.value == 2


def test_spend_only_and_that_spell_cant_be_countered():  # Cavern of Souls (CR 106.6)
    _, (add,) = _mana("{T}: Add one mana of any color. Spend this mana only to cast a creature spell of the "
                      "chosen type, and that spell can't be countered.", "Cavern of Souls", "Land")
    (r,) = add.restrictions
    assert r.kind == "spend_only" and [u.purpose for u in r.uses] == ["cast"]
    (sentence,) = r.effect
    (act,) = sentence.effects
    assert act.verb == "uncounterable" and act.subject.qualifiers == ["that_spell"]


def test_spend_only_unlock_a_door():  # Creeping Peeper (CR 709.5e), Smoky Lounge
    _, (add,) = _mana("{T}: Add {U}. Spend this mana only to cast an enchantment spell, unlock a door, or turn a "
                      "permanent face up.", "Creeping Peeper", "Enchantment Creature — Eye")
    (r,) = add.restrictions
    assert [u.purpose for u in r.uses] == ["cast", "unlock_door", "turn_face_up"] and r.joins == [",", ", or"]
    assert not r.uses[1].plural
    _, (add,) = _mana("At the beginning of your first main phase, add {R}{R}. Spend this mana only to cast Room "
                      "spells and unlock doors.", "Smoky Lounge", "Enchantment — Room")
    (r,) = add.restrictions
    assert [u.purpose for u in r.uses] == ["cast", "unlock_door"] and r.uses[1].plural and r.joins == ["and"]


def test_spend_only_gain_a_class_level():  # Sorcerer Class (CR 716.2)
    _, (add,) = _mana('Creatures you control have "{T}: Add {U} or {R}. Spend this mana only to cast an instant or '
                      'sorcery spell or to gain a Class level."', "Sorcerer Class", "Enchantment — Class")
    (r,) = add.restrictions
    assert [(u.purpose, u.to) for u in r.uses] == [("cast", True), ("gain_class_level", True)]


def test_spend_only_foretell_and_equip():  # Karfell Harbinger (CR 702.143a), Ronin (CR 702.6a)
    _, (add,) = _mana("{T}: Add {U}. Spend this mana only to foretell a card from your hand or cast an instant or "
                      "sorcery spell.", "Karfell Harbinger", "Creature — Human Wizard")
    (r,) = add.restrictions
    assert [u.purpose for u in r.uses] == ["foretell", "cast"]
    assert r.uses[0].obj.qualifiers == ["zone:your_hand"] and not r.uses[1].to
    ab, (add,) = _mana("Pay 2 life: Add two mana of any one color. Spend this mana only to cast Equipment spells "
                       "or activate equip abilities. Activate only once each turn.", "Ronin, Shadow Stalker",
                       "Legendary Creature — Human Ninja Hero")
    (r,) = add.restrictions
    # "equip abilities" is a KeywordAbilities object (statics.lark, CR 602.2b): the use is "activate" it
    assert r.uses[1].purpose == "activate" and r.uses[1].obj.keyword == "equip" and ab.fully_parsed


def test_two_mana_of_any_one_color_and_two_of_any_other():  # Open the Omenpaths (CR 106.1)
    text = ("Choose one —\n• Add two mana of any one color and two mana of any other color. Spend this mana only to "
            "cast creature or enchantment spells.\n• Creatures you control get +1/+0 until end of turn.")
    _, adds = _mana(text, "Open the Omenpaths", "Instant")
    first, second = adds
    assert first.any_one_color and first.amount.value == 2 and first.also is second
    assert second.other_color and second.production == "any_color" and second.amount.value == 2
    assert len(first.restrictions) == 1 and not second.restrictions  # the restriction is on the instruction


def test_for_each_1_life_your_opponents_have_lost():  # Neheb, the Eternal (MTGJSON 2022 text; CR 119.3)
    _, (add,) = _mana("At the beginning of your postcombat main phase, add {R} for each 1 life your opponents "
                      "have lost this turn.", "Neheb, the Eternal", "Legendary Creature — Zombie Minotaur Warrior")
    ref = add.amount.ref
    assert add.amount.kind == "for_each" and ref.verb == "quantity:life_lost_this_turn"
    assert ref.amount.value == 1 and ref.obj.words == ["opponents"]


def test_mana_added_at_your_next_main_phase_this_turn():  # Conduit of Storms (CR 603.7 delayed trigger)
    ab, (add,) = _mana("Whenever this creature attacks, add {R} at the beginning of your next main phase this turn.",
                       "Conduit of Storms", "Creature — Werewolf Horror")
    (sentence,) = ab.body.effect
    assert sentence.condition.kind == A.DelayedTime.YOUR_NEXT_MAIN_THIS_TURN and sentence.condition.after
    assert [s.raw for s in add.symbols] == ["{R}"]


def test_mana_ability_granted_until_this_card_is_cast_from_exile():  # Glamorous Outlaw (CR 611.2b)
    text = ('{2}, Exile this card from your hand: Target land gains "{T}: Add {U}, {B}, or {R}" until this card is '
            'cast from exile. You may cast this card for as long as it remains exiled.')
    (ab,) = parse_face(text, name="Glamorous Outlaw", type_line="Creature — Human Rogue")
    assert ab.fully_parsed, ab.to_json()["render_mismatch"]
    (grant,) = [n for n in ab.body.walk() if isinstance(n, A.GrantAbility)]
    assert grant.duration.verb == "duration:until_cast_from_exile" and grant.duration.subject.quantifier == "self"
    (add,) = [n for n in grant.walk() if isinstance(n, A.AddMana)]
    assert add.production == "one_of" and len(add.options) == 3


def test_quoted_mana_ability_before_a_duration_has_no_period():  # Wrenn and One: 'gains "{T}: Add {G}" until …'
    (ab,) = parse_face('+1: Wrenn and One gains "{T}: Add {G}" until your next turn.', name="Wrenn and One",
                       type_line="Legendary Planeswalker — Wrenn")
    assert ab.fully_parsed and ab.to_json()["rendered"] == '+1: ~ gains "{T}: Add {G}" until your next turn.'


def _spend_on_x(text: str, name: str, type_line: str) -> A.ManaUse:
    ab = next(a for a in parse_face(text, name=name, type_line=type_line) if "Spend only" in a.text)
    assert ab.fully_parsed, ab.to_json()["render_mismatch"]
    (r,) = [n for n in ab.body.walk() if isinstance(n, A.ManaRestriction)]
    assert r.kind == "spend_only" and not r.negated and len(r.uses) == 1
    return r.uses[0]


def test_spend_only_black_mana_on_x():  # Consume Spirit, Crypt Rats (CR 107.3: the mana paid for X)
    u = _spend_on_x("Spend only black mana on X.\nConsume Spirit deals X damage to any target and you gain X life.",
                    "Consume Spirit", "Sorcery")
    assert u.purpose == "pay_x" and [s.raw for s in u.symbols] == ["{B}"] and not u.to
    u = _spend_on_x("{X}: This creature deals X damage to each creature and each player. Spend only black mana on X.",
                    "Crypt Rats", "Creature — Rat")
    assert u.purpose == "pay_x" and [s.colors for s in u.symbols] == [["B"]]


def test_spend_only_red_mana_on_x_differs_from_black():  # Crimson Hellkite vs Crypt Rats: the color is kept
    u = _spend_on_x("Flying\n{X}, {T}: This creature deals X damage to target creature. Spend only red mana on X.",
                    "Crimson Hellkite", "Creature — Dragon")
    assert [s.raw for s in u.symbols] == ["{R}"]


def test_add_one_of_two_symbols_for_each_permanent_destroyed_this_way():  # Culling Ritual (CR 106.1, 107.1)
    ab = next(a for a in parse_face("Destroy each nonland permanent with mana value 2 or less. Add {B} or {G} for "
                                    "each permanent destroyed this way.", name="Culling Ritual", type_line="Sorcery"))
    assert ab.fully_parsed, ab.to_json()["render_mismatch"]
    (add,) = [n for n in ab.body.walk() if isinstance(n, A.AddMana)]
    assert add.production == "one_of" and [[s.raw for s in o] for o in add.options] == [["{B}"], ["{G}"]]
    assert add.amount.kind == "for_each" and add.amount.ref.qualifiers == ["this_way:destroyed"]
