"""Renderers of static abilities and continuous effects (CR 604, 611–613; ``grammar/statics.lark``,
transformer ``transform_statics.py``, and the restriction verbs of ``grammar/effects.lark``):
canonical Oracle text from the structured fields of combat restrictions and requirements
(CR 508.1c–d, 509.1b–c), "doesn't untap" (CR 502.3), "can't be countered" (CR 101.2),
"can't be regenerated" (CR 701.19), ability loss (CR 613.1f) and base P/T (CR 613.4b).

Every verb is written "[subject] <predicate>[ duration]" with the predicate in the third person
singular or the plural form by the subject (``render_objects.is_plural``); a verb's renderer
refuses (``NotRendered``) any field it does not write (docs/ast.md § Rendering).
"""

from __future__ import annotations

import re

from pipeline.parse import ast as A
from pipeline.parse.render import NotRendered, extra_keys, render, renders, renders_verb
from pipeline.parse.render_effects import _duration_tail
from pipeline.parse.render_objects import descriptor, is_plural, quantity

#: verb → (predicate after a singular subject, after a plural one); ``{obj}`` is the action's object
PREDICATES = {
    "cant_attack_block": ("can't attack or block", "can't attack or block"),  # CR 508.1c, 509.1b
    "uncounterable": ("can't be countered", "can't be countered"),            # CR 101.2
    "cant_regenerate": ("can't be regenerated", "can't be regenerated"),      # CR 701.19
    "unblockable_by": ("can't be blocked by {obj}", "can't be blocked by {obj}"),  # CR 509.1b
    "lose_all_abilities": ("loses all abilities", "lose all abilities"),     # CR 613.1f
    "cant_block_obj": ("can't block {obj}", "can't block {obj}"),            # CR 509.1b
    "cant_be_activated": ("can't be activated", "can't be activated"),      # CR 602.5
    # the wording hexproof and shroud stand for (CR 702.11b, 702.18a)
    "cant_be_targeted": ("can't be the target of {obj}", "can't be the targets of {obj}"),
    "no_max_hand": ("has no maximum hand size", "have no maximum hand size"),  # CR 402.2
    "cant_gain_life": ("can't gain life", "can't gain life"),                # CR 119.7
    "block_any_number": ("can block any number of creatures", "can block any number of creatures"),  # CR 509.1a
    "assign_no_combat_damage": ("assigns no combat damage", "assign no combat damage"),  # CR 510.1a
    "cant_play": ("can't play {obj}", "can't play {obj}"),                   # CR 305.1
}

#: combat requirements (CR 508.1d, 509.1c): verb → (singular, plural) verb words
REQUIREMENTS = {
    "must_attack": ("attacks", "attack"), "must_block": ("blocks", "block"),
    "must_attack_block": ("attacks or blocks", "attack or block"),
}

#: whose untap step (transform_statics ``untap_step`` values) → words, by plural subject
UNTAP_STEPS = {
    ("your", False): "your untap step", ("your_next", False): "your next untap step",
    ("controller", False): "its controller's untap step", ("controller", True): "their controllers' untap steps",
    ("controller_next", False): "its controller's next untap step",
    ("controller_next", True): "their controllers' next untap steps",
    ("their_controller_next", True): "their controller's next untap step",
}

_PT = re.compile(r"[+-]?(\d+|X|\*)/[+-]?(\d+|X|\*)")


def _subject(a: A.Action) -> tuple[str, bool]:
    """(rendered subject, plural?) of a static predicate; NotRendered without a subject."""
    if not isinstance(a.subject, A.Obj):
        raise NotRendered(f"Action:{a.verb}:no_subject")
    who = render(a.subject, role="subject")
    return who, who == "you" or is_plural(a.subject)


@renders_verb(*PREDICATES)
def render_predicate(a: A.Action, **_) -> str:
    """"enchanted creature can't attack or block", "~ can't be blocked by creatures with power 2
    or less", "target creature can't be regenerated this turn"."""
    extra_keys(a, {"duration"})
    if a.amount is not None:
        raise NotRendered(f"Action:{a.verb}+amount")
    who, plural = _subject(a)
    pred = PREDICATES[a.verb][plural]
    if "{obj}" in pred:
        if a.obj is None:
            raise NotRendered(f"Action:{a.verb}:no_obj")
        pred = pred.format(obj=render(a.obj))
    elif a.obj is not None:
        raise NotRendered(f"Action:{a.verb}+obj")
    return f"{who} {pred}{_duration_tail(a)}"


@renders_verb(*REQUIREMENTS)
def render_requirement(a: A.Action, **_) -> str:
    """"~ attacks each combat if able", "target creature blocks ~ this turn if able" (CR 508.1d,
    509.1c): ``extra.each_combat`` or a duration (``this turn``) says when."""
    extra_keys(a, {"duration", "each_combat", "all_able"})
    who, plural = _subject(a)
    if a.extra.get("all_able") is True:  # Lure: "all creatures able to block enchanted creature do so"
        if a.verb != "must_block" or a.obj is None or len(a.extra) != 1 or a.amount is not None:
            raise NotRendered("Action:must_block+all_able")
        return f"{who} able to block {render(a.obj)} do so"
    if a.amount is not None or ("duration" in a.extra) == bool(a.extra.get("each_combat")):
        raise NotRendered(f"Action:{a.verb}")
    out = f"{who} {REQUIREMENTS[a.verb][plural]}"
    if a.obj is not None:
        out += " " + render(a.obj)
    when = " each combat" if a.extra.get("each_combat") else _duration_tail(a)
    return f"{out}{when} if able"


@renders_verb("attack_as_though")
def render_attack_as_though(a: A.Action, **_) -> str:
    """"~ can attack [this turn] as though it didn't have defender" (CR 702.3b)."""
    extra_keys(a, {"duration"})
    if a.obj is not None or a.amount is not None:
        raise NotRendered("Action:attack_as_though")
    who, plural = _subject(a)
    if plural:
        raise NotRendered("Action:attack_as_though:plural")
    return f"{who} can attack{_duration_tail(a)} as though it didn't have defender"


@renders_verb("no_untap")
def render_no_untap(a: A.Action, **_) -> str:
    """"~ doesn't untap during your untap step", "they don't untap during their controllers'
    untap steps [for as long as …]" (CR 502.3: effects that keep a permanent from untapping)."""
    extra_keys(a, {"untap_step", "duration"})
    if a.obj is not None or a.amount is not None:
        raise NotRendered("Action:no_untap")
    who, plural = _subject(a)
    step = a.extra.get("untap_step")
    words = UNTAP_STEPS.get((step, plural)) or UNTAP_STEPS.get((step, False))
    if words is None:
        raise NotRendered("Action:no_untap:step")
    return f"{who} {'don' if plural else 'doesn'}'t untap during {words}{_duration_tail(a)}"


@renders_verb("base_pt")
def render_base_pt(a: A.Action, **_) -> str:
    """"enchanted creature has base power and toughness 1/1" (CR 613.4b)."""
    extra_keys(a, {"pt", "duration"})
    pt = a.extra.get("pt")
    if not isinstance(pt, str) or not _PT.fullmatch(pt) or a.obj is not None or a.amount is not None:
        raise NotRendered("Action:base_pt")
    who, plural = _subject(a)
    return f"{who} {'have' if plural else 'has'} base power and toughness {pt}{_duration_tail(a)}"


@renders_verb("lose_kw")
def render_lose_kw(a: A.Action, **_) -> str:
    """"~ loses flying [until end of turn]", "creatures lose flying and trample" (CR 613.1f)."""
    extra_keys(a, {"keywords", "duration"})
    kws = a.extra.get("keywords")
    if not kws or not all(isinstance(k, A.Keyword) for k in kws) or a.obj is not None or a.amount is not None:
        raise NotRendered("Action:lose_kw")
    names = [render(k) for k in kws]
    kw = names[0] if len(names) == 1 else (f"{names[0]} and {names[1]}" if len(names) == 2
                                           else ", ".join(names[:-1]) + f", and {names[-1]}")
    who, plural = _subject(a)
    return f"{who} {'lose' if plural else 'loses'} {kw}{_duration_tail(a)}"


@renders_verb("choose_as_enters")
def render_choose_as_enters(a: A.Action, **_) -> str:
    """"As ~ enters, choose a creature type" (CR 614.12: a choice made as the permanent enters); a second
    choice (``extra.and_choice``, ``extra.and_obj``: "choose a color and an opponent"); ``extra.secretly``
    ("secretly choose an opponent")."""
    extra_keys(a, {"choice", "and_choice", "and_obj", "secretly"})

    def one(kind, obj):
        if kind not in ("object", "type", "name") or not isinstance(obj, A.Obj):
            raise NotRendered("Action:choose_as_enters")
        return render(obj) + ("" if kind == "object" else " " + kind)

    if a.amount is not None or a.extra.get("secretly") not in (None, True) \
            or (a.extra.get("secretly") and "and_choice" in a.extra):
        raise NotRendered("Action:choose_as_enters")
    what = one(a.extra.get("choice"), a.obj)
    if "and_choice" in a.extra or "and_obj" in a.extra:
        what += " and " + one(a.extra.get("and_choice"), a.extra.get("and_obj"))
    who, _ = _subject(a)
    secretly = "secretly " if a.extra.get("secretly") else ""
    return f"as {who} enters, {secretly}choose {what}"


#: characteristic-defining abilities (CR 604.3): extra.what → the words before "equal to"
CDA = {"power_toughness": "power and toughness are each", "power": "power is", "toughness": "toughness is"}


@renders_verb("characteristic")
def render_characteristic(a: A.Action, **_) -> str:
    """"~'s power and toughness are each equal to the number of creatures you control" (CR 604.3);
    with ``extra.toughness_plus`` (an Amount) "~'s power is equal to … and its toughness is equal to that
    number plus 1" (the number in digits, CR 208.2)."""
    from pipeline.parse.render_objects import amount_number

    extra_keys(a, {"what", "toughness_plus"})
    what = CDA.get(a.extra.get("what"))
    plus = a.extra.get("toughness_plus")
    if (what is None or not isinstance(a.amount, A.Amount) or a.obj is not None
            or (plus is not None and (a.extra.get("what") != "power" or not isinstance(plus, A.Amount)))):
        raise NotRendered("Action:characteristic")
    who, _ = _subject(a)
    tail = "" if plus is None else f" and its toughness is equal to that number plus {amount_number(plus, words=False)}"
    return f"{who}'s {what} equal to {quantity(a.amount)}{tail}"


#: rules-modifying sentences whose rule has no variable part but ``~`` (verb → wording)
FIXED_SENTENCES = {
    "draft_face_up": "draft ~ face up",  # CR 905.2 (Conspiracy draft)
    "reveal_as_drafted": "reveal ~ as you draft it",
    "play_revealed": "play with the top card of your library revealed",  # CR 401.5 (library order public)
    "effect_doesnt_remove_self": "this effect doesn't remove ~",  # CR 702.16c: protection vs. the Aura granting it
    "cost_reduction_floor_one": "this effect can't reduce the mana in that cost to less than one mana",  # CR 601.2f
    "cost_reduction_colored_only": "this effect reduces only the amount of colored mana you pay",  # CR 601.2f
    "triggers_only_once_each_turn": "this ability triggers only once each turn",  # CR 603.2c, 603.2h
    "token_doubling": ("if an effect would create one or more tokens under your control, it creates twice that "
                       "many of those tokens instead"),  # CR 614.1a
}


@renders_verb(*FIXED_SENTENCES)
def render_fixed_sentence(a: A.Action, **_) -> str:
    """A sentence with one wording (:data:`FIXED_SENTENCES`); any field set fails the round trip."""
    extra_keys(a, set())
    if a.subject is not None or a.obj is not None or a.amount is not None:
        raise NotRendered(f"Action:{a.verb}")
    return FIXED_SENTENCES[a.verb]


@renders_verb("sacrifice_if_cast_at_instant_speed")
def render_flash_sacrifice(a: A.Action, **_) -> str:
    """"If you cast it any time a sorcery couldn't have been cast, the controller of the permanent it
    becomes sacrifices it at the beginning of the next cleanup step" (CR 307.1, 514)."""
    extra_keys(a, {"words"})
    words = a.extra.get("words") or []
    if len(words) != 1 or a.subject is not None or a.obj is not None or a.amount is not None:
        raise NotRendered("Action:sacrifice_if_cast_at_instant_speed")
    kind = descriptor(words)
    return (f"if you cast it any time a {kind} couldn't have been cast, the controller of the permanent it "
            "becomes sacrifices it at the beginning of the next cleanup step")


@renders_verb("control")
def render_control(a: A.Action, **_) -> str:
    """"You control enchanted creature" (a control-changing effect, CR 613.1b)."""
    from pipeline.parse.render_effects import _obj, subject_verb

    extra_keys(a, {"duration", "optional"})
    if a.subject is None or a.amount is not None:
        raise NotRendered("Action:control")
    return f"{subject_verb(a, 'control', 'controls')} {_obj(a)}{_duration_tail(a)}"


@renders_verb("begin_with")
def render_begin_with(a: A.Action, **_) -> str:
    """"you may begin the game with it on the battlefield" (CR 103.6a: opening-hand actions)."""
    extra_keys(a, {"optional"})
    if a.extra.get("optional") is not True or a.obj is not None or a.amount is not None:
        raise NotRendered("Action:begin_with")
    who, _ = _subject(a)
    return f"{who} may begin the game with it on the battlefield"


@renders_verb("exert")
def render_exert(a: A.Action, **_) -> str:
    """"You may exert ~ as it attacks" (CR 701.43a)."""
    from pipeline.parse.render_effects import _obj

    extra_keys(a, {"optional"})
    if a.extra.get("optional") is not True or a.amount is not None:
        raise NotRendered("Action:exert")
    who, _ = _subject(a)
    return f"{who} may exert {_obj(a)} as it attacks"


@renders_verb("has_activated_abilities_of")
def render_has_activated_abilities_of(a: A.Action, **_) -> str:
    """"~ has all activated abilities of all creature cards in all graveyards" (CR 613.1f: an
    ability-adding effect)."""
    from pipeline.parse.render_effects import _obj

    extra_keys(a, {"duration"})
    if a.amount is not None:
        raise NotRendered("Action:has_activated_abilities_of")
    who, plural = _subject(a)
    return f"{who} {'have' if plural else 'has'} all activated abilities of {_obj(a)}{_duration_tail(a)}"


@renders_verb("pump_additional")
def render_pump_additional(a: A.Action, **_) -> str:
    """"It gets an additional -1/-1 until end of turn for each card named ~ in your graveyard",
    "Zombie creatures you control get an additional +2/+2" (CR 613.4c)."""
    extra_keys(a, {"pt", "duration", "for_each"})
    pt = a.extra.get("pt")
    if not isinstance(pt, str) or not _PT.fullmatch(pt) or a.obj is not None or a.amount is not None:
        raise NotRendered("Action:pump_additional")
    who, plural = _subject(a)
    out = f"{who} {'get' if plural else 'gets'} an additional {pt}{_duration_tail(a)}"
    if "for_each" in a.extra:
        each = a.extra["for_each"]
        if not isinstance(each, A.Obj):
            raise NotRendered("Action:pump_additional:for_each")
        out += " for each " + render(each, prep="in")
    return out


@renders_verb("escapes_with")
def render_escapes_with(a: A.Action, **_) -> str:
    """"~ escapes with two +1/+1 counters on it" (CR 702.138c)."""
    from pipeline.parse.render_counters import counters

    extra_keys(a, {"counter"})
    if a.obj is not None or a.amount is None:
        raise NotRendered("Action:escapes_with")
    who, plural = _subject(a)
    if plural:
        raise NotRendered("Action:escapes_with:plural")
    return f"{who} escapes with {counters(a.amount, a.extra.get('counter'))} on it"


def _type_words(a: A.Action) -> str:
    if "chosen" in a.extra:  # "the chosen type" (a type chosen as the permanent entered, CR 614.12)
        if "words" in a.extra:
            raise NotRendered(f"Action:{a.verb}:chosen")
        return render(a.extra["chosen"])
    return descriptor(list(a.extra.get("words") or []))


@renders_verb("is")
def render_is(a: A.Action, **_) -> str:
    """"Enchanted land is a Swamp", "All Mountains are Plains" (type-changing effects, CR 205.1a,
    305.7): the article is the form the rule kept."""
    from pipeline.parse.render_objects import article

    extra_keys(a, {"words", "form", "chosen"})
    form = a.extra.get("form") or []
    if form not in ([], ["a"]) or a.obj is not None or a.amount is not None:
        raise NotRendered("Action:is")
    who, plural = _subject(a)
    what = _type_words(a)
    if form:
        what = f"{article(what)} {what}"
    return f"{who} {'are' if plural else 'is'} {what}"


@renders_verb("is_also")
def render_is_also(a: A.Action, **_) -> str:
    """"~ is the chosen type in addition to its other types", "Creatures you control are artifacts in
    addition to their other types", "… is a Vampire in addition to its other creature types", "Lands
    you control are every basic land type in addition to their other types", "~ is also a Cleric,
    Rogue, Warrior, and Wizard" (CR 205.1b: types added, the old ones kept)."""
    from pipeline.parse.render_objects import article

    extra_keys(a, {"words", "form", "every", "other_types", "other", "chosen"})
    if a.obj is not None or a.amount is not None:
        raise NotRendered("Action:is_also")
    who, plural = _subject(a)
    verb = "are" if plural else "is"
    form = a.extra.get("form") or []
    words = a.extra.get("words") or []
    if not form and "every" not in a.extra and "other_types" not in a.extra:  # c_is_also_list
        names = [descriptor([w]) for w in words]
        if len(names) < 2 or plural:
            raise NotRendered("Action:is_also:list")
        listed = (f"{names[0]} and {names[1]}" if len(names) == 2
                  else ", ".join(names[:-1]) + f", and {names[-1]}")
        return f"{who} is also {article(names[0])} {listed}"
    pron = "its" if "it" in form else "their" if "their" in form else None
    if pron is None or (pron == "their") != plural:
        raise NotRendered("Action:is_also:form")
    if a.extra.get("every") == "basic land type":  # CR 305.6
        what = "every basic land type"
    else:
        what = _type_words(a)
        if "a" in form:
            what = f"{article(what)} {what}"
    kind = a.extra.get("other_types")
    other = f"{descriptor([kind])} types" if kind else "types"
    if a.extra.get("other") == "colors_and_types" and not kind:  # CR 105.3 + 205.1b: both kept
        other = "colors and types"
    elif "other" in a.extra:
        raise NotRendered("Action:is_also:other")
    return f"{who} {verb} {what} in addition to {pron} other {other}"


@renders_verb("condition:control_as_cast")
def render_control_as_cast(a: A.Action, **_) -> str:
    """"you control a commander as you cast ~" (a modal upgrade's condition, CR 700.2, 601.2)."""
    extra_keys(a, set())
    if a.obj is None or a.amount is not None:
        raise NotRendered(a.verb)
    return f"you control {render(a.obj)} as you cast ~"


@renders(A.TypesAmong)
def render_types_among(obj: A.TypesAmong, **_) -> str:
    """"basic land type among lands you control" (after "for each"), "creature types among creatures
    you control" (CR 205.3, the types of the ``among`` object)."""
    *kind, noun = obj.words or ["?"]
    if noun not in ("type", "types") or not kind or not isinstance(obj.among, A.Obj) or obj.qualifiers \
            or obj.count is not None:
        raise NotRendered("TypesAmong")
    return f"{descriptor(kind)} {noun} among {render(obj.among, prep='in')}"


#: conditions of statics.lark with one wording and no object (``condition:<name>`` → words)
FIXED_CONDITIONS = {
    "completed_dungeon": "you've completed a dungeon",  # CR 309.7
    "city_blessing": "you have the city's blessing",  # CR 702.131c
    "neither_day_nor_night": "it's neither day nor night",  # CR 730.1
    "revolt": "a permanent you controlled left the battlefield this turn",  # revolt, CR 207.2c
    "attacking_alone": "it's attacking alone",  # CR 506.5
}


@renders_verb(*("condition:" + k for k in FIXED_CONDITIONS))
def render_fixed_condition(a: A.Action, **_) -> str:
    """A condition of :data:`FIXED_CONDITIONS`; any field set fails the round trip."""
    extra_keys(a, set())
    if a.obj is not None or a.amount is not None or a.subject is not None:
        raise NotRendered(a.verb)
    return FIXED_CONDITIONS[a.verb.split(":", 1)[1]]


#: conditions of statics.lark "[object] <predicate>" (``condition:<name>`` → the predicate)
OBJECT_CONDITIONS = {
    "opp_controls": "an opponent controls {obj}",
    "would_enter": "{obj} would enter",  # CR 614.12
    "would_be_destroyed": "{obj} would be destroyed",  # CR 614.8 (regeneration-style replacements)
    "would_leave": "{obj} would leave the battlefield",  # CR 614.1a, 400.7
    "would_begin_extra_turn": "{obj} would begin an extra turn",  # CR 500.7, 614.10 (replacement.lark)
    "would_gain_life": "{obj} would gain life",  # CR 119.3, 614.1a (replacement.lark)
}


@renders_verb(*("condition:" + k for k in OBJECT_CONDITIONS))
def render_object_condition(a: A.Action, **_) -> str:
    """A condition of :data:`OBJECT_CONDITIONS` with its object."""
    extra_keys(a, set())
    if a.obj is None or a.amount is not None or a.subject is not None:
        raise NotRendered(a.verb)
    return OBJECT_CONDITIONS[a.verb.split(":", 1)[1]].format(obj=render(a.obj, role="subject"))


@renders_verb("condition:is_color")
def render_is_color(a: A.Action, **_) -> str:
    """"it's red" / "enchanted creature is black" (CR 105.2: an object's color)."""
    from pipeline.parse.lexicon import COLORS

    extra_keys(a, {"color"})
    color = a.extra.get("color")
    if color not in COLORS or a.amount is not None:
        raise NotRendered(a.verb)
    if a.obj is None:
        return f"it's {color}"
    return f"{render(a.obj, role='subject')} is {color}"


@renders_verb("condition:entered_this_turn")
def render_entered_this_turn(a: A.Action, **_) -> str:
    """"it entered this turn" (statics.lark ``cd_entered_this_turn``); "two or more nonland permanents
    entered under your control this turn" (conditions.lark ``cd2_entered_this_turn``, its wording)."""
    if a.obj is not None:
        from pipeline.parse.render_alternatives import render_alternative

        return render_alternative(a, ("cd2_entered_this_turn",))
    extra_keys(a, set())
    if a.amount is not None:
        raise NotRendered(a.verb)
    return "it entered this turn"


@renders_verb("condition:attached_to")
def render_attached_to(a: A.Action, **_) -> str:
    """"~ is attached to a creature" (CR 301.5, 303.4: an Equipment or Aura attached)."""
    extra_keys(a, {"to"})
    to = a.extra.get("to")
    if a.obj is None or not isinstance(to, A.Obj) or a.obj is to or a.amount is not None:
        raise NotRendered(a.verb)
    return f"{render(a.obj, role='subject')} is attached to {render(to)}"


@renders_verb("goaded")
def render_goaded(a: A.Action, **_) -> str:
    """"enchanted creature is goaded" (CR 701.15a: a goaded creature attacks each combat if able and
    attacks a player other than the goading player if able, CR 701.15b)."""
    extra_keys(a, set())
    if a.obj is not None or a.amount is not None:
        raise NotRendered("Action:goaded")
    who, plural = _subject(a)
    return f"{who} {'are' if plural else 'is'} goaded"


#: "as though its power were N greater" (CR 702.122a crew, 702.171a saddle, 702.184a station): verb → the
#: keyword actions it applies to, in the third person singular
POWER_AS_THOUGH = {"crew_as_though": "crews Vehicles", "saddle_crew_as_though": "saddles Mounts and crews Vehicles",
                   "crew_station_as_though": "crews Vehicles and stations permanents"}


@renders_verb(*POWER_AS_THOUGH)
def render_power_as_though(a: A.Action, **_) -> str:
    """"~ crews Vehicles as though its power were 2 greater" (CR 702.122a: the tapped creatures' total
    power counts that much more)."""
    extra_keys(a, set())
    if a.obj is not None or not isinstance(a.amount, A.Amount) or a.amount.kind != "fixed":
        raise NotRendered(f"Action:{a.verb}")
    who, plural = _subject(a)
    if plural:
        raise NotRendered(f"Action:{a.verb}:plural")
    return f"{who} {POWER_AS_THOUGH[a.verb]} as though its power were {a.amount.value} greater"


_COLORS = frozenset(("white", "blue", "black", "red", "green"))
#: what mana is spent / what it counts as (transform_statics.a_spend_as_though, CR 609.4b)
_SPENT = _COLORS | {"colored", "colorless"}
_SPEND_AS = {"any_color": "mana of any color", "any_type": "mana of any type"}


@renders_verb("spend_as_though")
def render_spend_as_though(a: A.Action, **_) -> str:
    """"You may spend white mana as though it were red mana", "Players may spend mana as though it were
    mana of any color", "… to cast that spell" (CR 609.4b: how a cost may be paid)."""
    from pipeline.parse.render_effects import subject_verb

    extra_keys(a, {"spent", "as", "optional"})
    spent, as_ = a.extra.get("spent"), a.extra.get("as")
    if (spent is not None and spent not in _SPENT) or a.amount is not None or a.subject is None:
        raise NotRendered("Action:spend_as_though")
    if as_ in _COLORS:
        target = f"{as_} mana"
    elif as_ in _SPEND_AS:
        target = _SPEND_AS[as_]
    else:
        raise NotRendered("Action:spend_as_though:as")
    out = f"{subject_verb(a, 'spend', 'spends')} {spent + ' ' if spent else ''}mana as though it were {target}"
    return out + (f" to cast {render(a.obj)}" if a.obj is not None else "")


@renders_verb("is_base")
def render_is_base(a: A.Action, **_) -> str:
    """"Enchanted creature is a blue Frog creature with base power and toughness 1/1" (CR 205.1a sets the
    types, 613.1e the color, 613.4b the base power and toughness)."""
    from pipeline.parse.render_effects import _type_words
    from pipeline.parse.render_objects import article

    extra_keys(a, {"words", "article", "pt"})
    words, pt = a.extra.get("words") or [], a.extra.get("pt")
    if not words or not isinstance(pt, str) or not _PT.fullmatch(pt) or a.extra.get("article") is None \
            or a.obj is not None or a.amount is not None:
        raise NotRendered("Action:is_base")
    _type_words(words)
    who, plural = _subject(a)
    if plural:
        raise NotRendered("Action:is_base:plural")
    desc = " ".join(words)
    return f"{who} is {article(desc)} {desc} with base power and toughness {pt}"


@renders_verb("damage_cant_be_prevented")
def render_damage_cant_be_prevented(a: A.Action, **_) -> str:
    """"Damage can't be prevented [this turn]", "Damage that would be dealt by ~ can't be prevented"
    (CR 615.12)."""
    extra_keys(a, {"source", "duration"})
    src = a.extra.get("source")
    if a.subject is not None or a.obj is not None or a.amount is not None or (src is not None and not isinstance(src, A.Obj)):
        raise NotRendered("Action:damage_cant_be_prevented")
    by = f" that would be dealt by {render(src)}" if src is not None else ""
    return f"damage{by} can't be prevented{_duration_tail(a)}"


@renders_verb("deck_any_number")
def render_deck_any_number(a: A.Action, **_) -> str:
    """"A deck can have any number of cards named ~." (CR 100.2a: an exception to the four-copy limit)."""
    extra_keys(a, set())
    if not (isinstance(a.subject, A.Obj) and a.subject.quantifier == "self") or a.obj is not None or a.amount is not None:
        raise NotRendered("Action:deck_any_number")
    return "a deck can have any number of cards named ~"


@renders_verb("play_hands_revealed")
def render_play_hands_revealed(a: A.Action, **_) -> str:
    """"Your opponents play with their hands revealed" (CR 402.3: a hand revealed by an effect)."""
    extra_keys(a, {"form"})
    form = a.extra.get("form") or []
    if form not in (["your"], ["their"]) or a.obj is not None or a.amount is not None:
        raise NotRendered("Action:play_hands_revealed")
    who, plural = _subject(a)
    if not plural:
        raise NotRendered("Action:play_hands_revealed:singular")
    return f"{who} play with {form[0]} hands revealed"


@renders_verb("becomes_day")
def render_becomes_day(a: A.Action, **_) -> str:
    """"it becomes day as ~ enters" (CR 702.145d: day/night begins as a permanent with daybound enters)."""
    extra_keys(a, {"words"})
    if a.extra.get("words") != ["~"] or a.obj is not None or a.amount is not None:
        raise NotRendered("Action:becomes_day")
    who, plural = _subject(a)
    if who != "it":
        raise NotRendered("Action:becomes_day:subject")
    return "it becomes day as ~ enters"


@renders_verb("is_creature")
def render_is_creature(a: A.Action, **_) -> str:
    """"All Forests are 1/1 creatures that are still lands", "Enchanted land is a 4/4 Elemental creature
    that's still a land" (CR 205.1b: the land keeps its types, 613.4b its P/T)."""
    from pipeline.parse.render_effects import _type_words

    extra_keys(a, {"pt", "words", "still", "form"})
    pt, words, still = a.extra.get("pt"), a.extra.get("words") or [], a.extra.get("still") or []
    if not isinstance(pt, str) or not _PT.fullmatch(pt) or not words or not still or a.obj is not None \
            or a.amount is not None:
        raise NotRendered("Action:is_creature")
    _type_words(words)
    _type_words(still)
    who, plural = _subject(a)
    form = a.extra.get("form") or []
    if plural and not form:
        return f"{who} are {pt} {' '.join(words)} that are still {' '.join(still)}"
    if not plural and form == ["a", "a"]:
        return f"{who} is a {pt} {' '.join(words)} that's still {' '.join(['a'] + still)}"
    raise NotRendered("Action:is_creature:form")


#: "~ can't attack alone" (CR 508.1c, 509.1b restrictions): verb → (predicate words, the form words of
#: statics.lark ``a_cant_alone`` that say which)
ALONE = {"cant_attack_alone": ("can't attack alone", {"attack"}), "cant_block_alone": ("can't block alone", {"block"}),
         "cant_attack_block_alone": ("can't attack or block alone", {"attack", "block"})}


@renders_verb(*ALONE)
def render_cant_alone(a: A.Action, **_) -> str:
    """"~ can't attack alone", "~ can't attack or block alone" (CR 508.1c, 509.1b)."""
    extra_keys(a, {"form"})
    words, said = ALONE[a.verb]
    form = a.extra.get("form") or []
    if not isinstance(form, list) or (set(form) - {"or"}) != said or a.obj is not None or a.amount is not None:
        raise NotRendered(f"Action:{a.verb}")
    who, _ = _subject(a)
    return f"{who} {words}"


@renders_verb("cant_lose_opponents_cant_win")
def render_cant_lose(a: A.Action, **_) -> str:
    """"You can't lose the game and your opponents can't win the game." (CR 104.3: exceptions to losing)."""
    extra_keys(a, set())
    who, _ = _subject(a)
    if who != "you" or a.obj is not None or a.amount is not None:
        raise NotRendered("Action:cant_lose_opponents_cant_win")
    return "you can't lose the game and your opponents can't win the game"


# ------------------------------------------------------------ rules-modifying predicates with one wording
#: verb → (predicate after a singular subject, after a plural one; None: that number is not read by
#: the grammar). No object, amount or extra field is read, so any set one fails the round trip.
FIXED_PREDICATES = {
    "cant_search": ("can't search libraries", "can't search libraries"),  # CR 701.23 (search)
    "all_colors": ("is all colors", None),  # CR 105.2 (an object can be all five colors)
    "every_creature_type": ("is every creature type", None),  # CR 205.3m, 702.73a (changeling's wording)
    "cant_have_counters": ("can't have counters put on it", None),  # CR 122.1
    "cant_be_cast": ("can't be cast", "can't be cast"),  # CR 601.3
    "enters_under_opp": ("enters under the control of an opponent of your choice", None),  # CR 110.2b
    "play_top_revealed": (None, "play with the top card of their libraries revealed"),  # CR 401.5
    "entering_doesnt_trigger": (None, "entering don't cause abilities to trigger"),  # CR 603.6a, 603.2
    "indestructible": ("is indestructible", None),  # CR 702.12 (the older wording of the keyword)
}


@renders_verb(*FIXED_PREDICATES)
def render_fixed_predicate(a: A.Action, **_) -> str:
    """"Players can't search libraries", "~ is all colors", "Creature spells can't be cast", "Players play
    with the top card of their libraries revealed", "Creatures entering don't cause abilities to trigger"."""
    extra_keys(a, set())
    if a.obj is not None or a.amount is not None:
        raise NotRendered(f"Action:{a.verb}")
    who, plural = _subject(a)
    pred = FIXED_PREDICATES[a.verb][plural]
    if pred is None:
        raise NotRendered(f"Action:{a.verb}:{'plural' if plural else 'singular'}")
    return f"{who} {pred}"


@renders_verb("untap_limit")
def render_untap_limit(a: A.Action, **_) -> str:
    """"Players can't untap more than one creature during their untap steps" (CR 502.3: an effect
    limiting what untaps; the card type from the lexicon)."""
    extra_keys(a, {"words", "comparison"})
    cmp = a.extra.get("comparison")
    words = a.extra.get("words") or []
    if (not isinstance(cmp, A.Comparison) or cmp.comparator != ">" or cmp.amount is not None or len(words) != 1
            or a.obj is not None or a.amount is not None):
        raise NotRendered("Action:untap_limit")
    who, plural = _subject(a)
    if not plural:
        raise NotRendered("Action:untap_limit:singular")
    return f"{who} can't untap more than one {descriptor(words)} during their untap steps"


@renders_verb("cant_draw")
def render_cant_draw(a: A.Action, **_) -> str:
    """"Players can't draw cards", "Each opponent can't draw more than one card each turn" (CR 121.1;
    the limit is the comparison and the form the grammar kept)."""
    extra_keys(a, {"comparison", "form"})
    if a.obj is not None or a.amount is not None:
        raise NotRendered("Action:cant_draw")
    who, _ = _subject(a)
    cmp, form = a.extra.get("comparison"), a.extra.get("form")
    if cmp is None and form is None:
        return f"{who} can't draw cards"
    if (isinstance(cmp, A.Comparison) and cmp.comparator == ">" and cmp.amount is None
            and form == ["one", "each", "turn"]):
        return f"{who} can't draw more than one card each turn"
    raise NotRendered("Action:cant_draw:form")


@renders_verb("max_hand_size_reduced", "max_hand_size_increased")
def render_max_hand_size(a: A.Action, **_) -> str:
    """"Your maximum hand size is reduced by four" / "increased by one" (CR 402.2)."""
    from pipeline.parse.render_objects import amount_number

    extra_keys(a, set())
    if a.subject is not None or a.obj is not None or a.amount is None:
        raise NotRendered(f"Action:{a.verb}")
    how = "reduced" if a.verb.endswith("reduced") else "increased"
    return f"your maximum hand size is {how} by {amount_number(a.amount)}"


@renders_verb("dont_lose_game_for_life", "dont_lose_game")
def render_dont_lose_game(a: A.Action, **_) -> str:
    """"You don't lose the game for having 0 or less life" (CR 104.3b, 119.6: the state-based action
    replaced); the number in digits (life, CR 119)."""
    from pipeline.parse.render_objects import amount_number

    extra_keys(a, {"comparison", "negated"} if a.verb == "dont_lose_game" else set())
    cmp = a.extra.get("comparison")
    amount = a.amount
    if a.verb == "dont_lose_game":  # the generic builder: the comparison holds the number
        if (not isinstance(cmp, A.Comparison) or cmp.comparator != "<=" or cmp.amount is not amount
                or a.extra.get("negated") is not True):
            raise NotRendered("Action:dont_lose_game:comparison")
    if a.obj is not None or amount is None:
        raise NotRendered(f"Action:{a.verb}")
    who, plural = _subject(a)
    verb = "don't" if plural else "doesn't"
    return f"{who} {verb} lose the game for having {amount_number(amount, words=False)} or less life"


@renders_verb("activate_as_haste")
def render_activate_as_haste(a: A.Action, **_) -> str:
    """"You may activate abilities of creatures you control as though those creatures had haste"
    (CR 302.6, 702.10: the summoning-sickness rule waived for {T} abilities)."""
    from pipeline.parse.render_effects import _obj

    extra_keys(a, {"optional"})
    if a.extra.get("optional") is not True or a.amount is not None:
        raise NotRendered("Action:activate_as_haste")
    who, _ = _subject(a)
    return f"{who} may activate abilities of {_obj(a)} as though those creatures had haste"


@renders_verb("max_one_attacker", "max_one_blocker")
def render_max_one(a: A.Action, **_) -> str:
    """"No more than one creature can attack each combat" / "… can block …" (CR 508.1c, 509.1b);
    the card type from the lexicon."""
    extra_keys(a, {"words"})
    words = a.extra.get("words") or []
    if len(words) != 1 or a.subject is not None or a.obj is not None or a.amount is not None:
        raise NotRendered(f"Action:{a.verb}")
    what = "attack" if a.verb.endswith("attacker") else "block"
    return f"no more than one {descriptor(words)} can {what} each combat"


@renders_verb("is_not")
def render_is_not(a: A.Action, **_) -> str:
    """"~ isn't a creature" (a type-removing effect, CR 205.1a, 613.1d: Theros gods under their
    devotion), "… aren't creatures"; the type words from the lexicon."""
    from pipeline.parse.render_objects import article

    extra_keys(a, {"words", "form"})
    words = a.extra.get("words") or []
    form = a.extra.get("form") or []
    if not words or a.obj is not None or a.amount is not None or not set(form) <= {"isn't", "aren't"}:
        raise NotRendered("Action:is_not")
    who, plural = _subject(a)
    if plural or form != ["isn't"]:
        raise NotRendered("Action:is_not:plural")
    kind = descriptor(list(words))
    return f"{who} isn't {article(kind)} {kind}"


@renders_verb("can_be_commander")
def render_can_be_commander(a: A.Action, **_) -> str:
    """"~ can be your commander" (CR 903.3d: a permission to be chosen as a commander)."""
    extra_keys(a, set())
    if a.obj is not None or a.amount is not None:
        raise NotRendered("Action:can_be_commander")
    who, plural = _subject(a)
    if plural:
        raise NotRendered("Action:can_be_commander:plural")
    return f"{who} can be your commander"


@renders_verb("becomes_color")
def render_becomes_color(a: A.Action, **_) -> str:
    """"Target creature becomes the color or colors of your choice [until end of turn]" (CR 105.3: a
    color-changing effect, CR 613.1e)."""
    from pipeline.parse.render_effects import subject_verb

    extra_keys(a, {"duration"})
    if a.subject is None or a.obj is not None or a.amount is not None:
        raise NotRendered("Action:becomes_color")
    return f"{subject_verb(a, 'become', 'becomes')} the color or colors of your choice{_duration_tail(a)}"


@renders_verb("damage_plus")
def render_damage_plus(a: A.Action, **_) -> str:
    """"it deals that much damage plus 2 to that permanent or player instead" (CR 614.1a: a
    replacement that adds to the damage, CR 120.3); the number in digits (damage, CR 120)."""
    from pipeline.parse.render_effects import _obj, instead_tail, subject_verb
    from pipeline.parse.render_objects import amount_number

    extra_keys(a, {"instead"})
    if a.subject is None or a.amount is None or a.extra.get("instead") is not True:
        raise NotRendered("Action:damage_plus")
    return (f"{subject_verb(a, 'deal', 'deals')} that much damage plus {amount_number(a.amount, words=False)} "
            f"to {_obj(a)}{instead_tail(a)}")


@renders_verb("condition:devotion_less_than")
def render_devotion_less_than(a: A.Action, **_) -> str:
    """"your devotion to black is less than five", "… to black and green is less than seven" (CR 700.5a:
    devotion to one or two colors)."""
    from pipeline.parse.lexicon import COLORS
    from pipeline.parse.render_objects import amount_number

    extra_keys(a, {"colors"})
    colors = a.extra.get("colors") or []
    if (not 1 <= len(colors) <= 2 or any(c not in COLORS for c in colors) or a.amount is None
            or a.obj is not None or a.subject is not None):
        raise NotRendered(a.verb)
    return f"your devotion to {' and '.join(colors)} is less than {amount_number(a.amount)}"


@renders_verb("enters_tapped_no_untap")
def render_enters_tapped_no_untap(a: A.Action, **_) -> str:
    """"~ enters tapped and doesn't untap during your untap step" (CR 614.1c, 502.3)."""
    extra_keys(a, {"untap_step"})
    if a.obj is not None or a.amount is not None:
        raise NotRendered("Action:enters_tapped_no_untap")
    who, plural = _subject(a)
    step = UNTAP_STEPS.get((a.extra.get("untap_step"), plural))
    if plural or step is None:
        raise NotRendered("Action:enters_tapped_no_untap:step")
    return f"{who} enters tapped and doesn't untap during {step}"
