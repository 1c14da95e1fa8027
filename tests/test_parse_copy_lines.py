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
