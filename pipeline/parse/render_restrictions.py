"""Renderers of restrictions and permissions of static abilities (``grammar/statics.lark`` and the
restriction verbs of ``grammar/effects.lark``, transformer ``transform_statics.py``): what can't
attack or block or be blocked (CR 508.1c, 509.1b), what may block more (CR 509.1b), casting and
activation restrictions (CR 601.3, 602.5), cost changes (CR 601.2f), untap choices (CR 502.3),
extra land plays (CR 305.2), hand size (CR 402.2) and "as though it had flash" (CR 601.3b).

Each verb is written "[subject] <predicate>" with the verb agreeing with its subject
(``render_objects.is_plural``); every renderer refuses (``NotRendered``) a field it does not
write (docs/ast.md § Rendering), and the words it writes come from the structure — objects,
mana symbols, closed-list ``extra`` values and the grammar literals kept as ``form``.
"""

from __future__ import annotations

from pipeline.parse import ast as A
from pipeline.parse.render import NotRendered, extra_keys, render, renders, renders_verb
from pipeline.parse.render_effects import _duration_tail, _obj
from pipeline.parse.render_objects import OBJ_FORMS, descriptor, is_plural, posts
from pipeline.parse.render_statics import UNTAP_STEPS, _subject


def _its_desc(obj: A.Obj, role: str = "object", prep: str | None = None, **_) -> str:
    """"its activated abilities", "their activated abilities" (objects.lark ``o_its_desc``: the
    pronoun is the form kept right after the qualifier)."""
    quals = obj.qualifiers
    pron = {"form:it": "its", "form:their": "their"}.get(quals[1] if len(quals) > 1 else "")
    if pron is None or obj.quantifier is not None or obj.count is not None or not obj.words:
        raise NotRendered("Obj:its_desc")
    return " ".join([pron, descriptor(obj.words)] + posts(quals[2:], obj.words, prep))


OBJ_FORMS["its_desc"] = _its_desc


@renders(A.AbilitiesOf)
def render_abilities_of(obj: A.AbilitiesOf, **_) -> str:
    """"activated abilities of creature cards in your graveyard", "enchanted creature's activated
    abilities" (CR 602: the abilities of the ``source`` object)."""
    if not isinstance(obj.source, A.Obj) or obj.qualifiers or obj.count is not None or obj.quantifier != "of":
        raise NotRendered("AbilitiesOf")
    words = descriptor(obj.words)
    if obj.possessive:
        return f"{render(obj.source)}'s {words}"
    return f"{words} of {render(obj.source, prep='in')}"


@renders(A.KeywordAbilities)
def render_keyword_abilities(obj: A.KeywordAbilities, **_) -> str:
    """"equip abilities you activate [that target ~]" (CR 602.2b: the abilities of one CR 702 keyword)."""
    from pipeline.parse.lexicon import is_keyword

    if not is_keyword(obj.keyword) or obj.words != ["abilities"] or obj.quantifier is not None or obj.count is not None:
        raise NotRendered("KeywordAbilities")
    return " ".join([obj.keyword, "abilities"] + posts(obj.qualifiers, obj.words, refs=obj.refs, plural=True))


def _bare(a: A.Action, *allowed: str) -> None:
    """Refuse extra keys outside ``allowed`` and an amount (the predicates below have none)."""
    extra_keys(a, set(allowed))
    if a.amount is not None:
        raise NotRendered(f"Action:{a.verb}+amount")


def _form(a: A.Action) -> list[str]:
    form = a.extra.get("form") or []
    if not isinstance(form, list) or not all(isinstance(w, str) for w in form):
        raise NotRendered(f"Action:{a.verb}:form")
    return form


def _one_word(a: A.Action) -> str:
    """The single type word a rule took as a terminal ("an additional creature", "more than one
    creature"), from the closed lexicons (``render_objects.descriptor``)."""
    words = a.extra.get("words") or []
    if len(words) != 1:
        raise NotRendered(f"Action:{a.verb}:words")
    return descriptor(words)


def _mana(a: A.Action) -> str:
    from pipeline.parse.render_mana import symbols

    if not a.extra.get("mana"):
        raise NotRendered(f"Action:{a.verb}:mana")
    return symbols(a.extra["mana"])


# ------------------------------------------------------------------ combat (CR 508.1c, 509.1b)
@renders_verb("unblockable_except")
def render_unblockable_except(a: A.Action, **_) -> str:
    """"~ can't be blocked [this turn] except by Walls and/or creatures with flying" (CR 509.1b);
    the ``rest`` wording of effects.lark's rule is free text and is not rendered."""
    _bare(a, "except", "duration")
    by = a.extra.get("except")
    if not isinstance(by, A.Obj) or a.obj is not None:
        raise NotRendered("Action:unblockable_except")
    who, _ = _subject(a)
    return f"{who} can't be blocked{_duration_tail(a)} except by {render(by)}"


@renders_verb("menace_like")
def render_menace_like(a: A.Action, **_) -> str:
    """"~ can't be blocked by more than one creature" (CR 509.1b)."""
    _bare(a, "words", "comparison")
    cmp = a.extra.get("comparison")
    if not isinstance(cmp, A.Comparison) or cmp.comparator != ">" or a.obj is not None:
        raise NotRendered("Action:menace_like")
    who, _ = _subject(a)
    return f"{who} can't be blocked by more than one {_one_word(a)}"


@renders_verb("block_only_flyers")
def render_block_only_flyers(a: A.Action, **_) -> str:
    """"~ can block only creatures with flying" (CR 509.1b)."""
    _bare(a, "words")
    if a.obj is not None:
        raise NotRendered("Action:block_only_flyers")
    who, _ = _subject(a)
    return f"{who} can block only {_one_word(a)} with flying"


@renders_verb("block_additional")
def render_block_additional(a: A.Action, **_) -> str:
    """"~ can block an additional creature each combat" (CR 509.1b: the number it may block)."""
    _bare(a, "words")
    if a.obj is not None:
        raise NotRendered("Action:block_additional")
    who, _ = _subject(a)
    word = _one_word(a)
    from pipeline.parse.render_objects import article

    return f"{who} can block {article('additional')} additional {word} each combat"


@renders_verb("cant_attack_you")
def render_cant_attack_you(a: A.Action, **_) -> str:
    """"Creatures can't attack you [or planeswalkers you control]" (CR 508.1c)."""
    _bare(a, "form")
    form = _form(a)
    if a.obj is not None or form not in ([], ["or", "planeswalkers", "control"]):
        raise NotRendered("Action:cant_attack_you")
    who, _ = _subject(a)
    return f"{who} can't attack you" + (" or planeswalkers you control" if form else "")


@renders_verb("propaganda")
def render_propaganda(a: A.Action, **_) -> str:
    """"Creatures can't attack you unless their controller pays {2} for each creature they control
    that's attacking you" / "… you or planeswalkers you control unless their controller pays {X}
    for each of those creatures" (CR 508.1d, 508.1h: a cost to attack)."""
    _bare(a, "mana", "form")
    form = _form(a)
    if a.obj is not None:
        raise NotRendered("Action:propaganda")
    who, _ = _subject(a)
    mana = _mana(a)
    if form == ["it", "that", "attacking"]:
        return (f"{who} can't attack you unless their controller pays {mana} for each creature they "
                "control that's attacking you")
    if form == ["or", "planeswalkers", "control", "of", "those"]:
        return (f"{who} can't attack you or planeswalkers you control unless their controller pays {mana} "
                "for each of those creatures")
    raise NotRendered("Action:propaganda:form")


@renders_verb("lure")
def render_lure(a: A.Action, **_) -> str:
    """"~ must be blocked [this turn] if able" (CR 509.1c)."""
    _bare(a, "duration")
    if a.obj is not None:
        raise NotRendered("Action:lure")
    who, _ = _subject(a)
    return f"{who} must be blocked{_duration_tail(a)} if able"


@renders_verb("assign_as_though_unblocked")
def render_assign_unblocked(a: A.Action, **_) -> str:
    """"You may have ~ assign its combat damage as though it weren't blocked" (CR 510.1c)."""
    _bare(a, "optional")
    if a.extra.get("optional") is not True or a.obj is not None:
        raise NotRendered("Action:assign_as_though_unblocked")
    who, plural = _subject(a)
    if plural:
        raise NotRendered("Action:assign_as_though_unblocked:plural")
    return f"you may have {who} assign its combat damage as though it weren't blocked"


@renders_verb("assign_by_toughness")
def render_assign_by_toughness(a: A.Action, **_) -> str:
    """"Each creature you control assigns combat damage equal to its toughness rather than its
    power" (CR 510.1a exception)."""
    _bare(a, "form")
    form = _form(a)
    who, plural = _subject(a)
    pron = {("it", "it"): "its", ("their", "their"): "their"}.get(tuple(form))
    if pron is None or a.obj is not None or (pron == "their") != plural:
        raise NotRendered("Action:assign_by_toughness")
    verb = "assign" if plural else "assigns"
    return f"{who} {verb} combat damage equal to {pron} toughness rather than {pron} power"


# ------------------------------------------------------------------ casting and activating
@renders_verb("cant_cast")
def render_cant_cast(a: A.Action, **_) -> str:
    """"You can't cast creature spells", "your opponents can't cast spells during your turn"
    (CR 601.3: a rule or effect that says a spell can't be cast)."""
    _bare(a, "form", "duration")
    form = _form(a)
    tail = {(): "", ("during", "your", "turn"): " during your turn",
            ("during", "their", "turn"): " during their turn"}.get(tuple(form))
    if tail is None:
        raise NotRendered("Action:cant_cast:form")
    who, _ = _subject(a)
    return f"{who} can't cast {_obj(a)}{tail}{_duration_tail(a)}"


@renders_verb("cant_cast_more_than_one")
def render_cant_cast_more_than_one(a: A.Action, **_) -> str:
    """"Each player can't cast more than one spell each turn" (CR 601.3)."""
    _bare(a, "comparison")
    cmp = a.extra.get("comparison")
    if not isinstance(cmp, A.Comparison) or cmp.comparator != ">" or a.obj is not None:
        raise NotRendered("Action:cant_cast_more_than_one")
    who, _ = _subject(a)
    return f"{who} can't cast more than one spell each turn"


@renders_verb("cast_flash")
def render_cast_flash(a: A.Action, **_) -> str:
    """"You may cast spells as though they had flash", "you may cast ~ as though it had flash"
    (CR 601.3b)."""
    _bare(a, "optional", "duration")
    if a.extra.get("optional") is not True:
        raise NotRendered("Action:cast_flash")
    who, _ = _subject(a)
    pron = "they" if is_plural(a.obj) else "it"
    return f"{who} may cast {_obj(a)}{_duration_tail(a)} as though {pron} had flash"


def _cost_change(a: A.Action, more: bool, to: str = "cast") -> str:
    """"~ costs {1} less to cast [for each …]", "White spells cost {3} more to cast" (CR 601.2f);
    ``to="activate"``: "Equip abilities you activate cost {1} less to activate" (CR 602.2b) — there
    the form "less"/"more" the rule kept is the verb's own word."""
    _bare(a, "mana", "form", "per")
    if _form(a) not in ([], ["more" if more else "less"]) or (to == "cast" and "form" in a.extra):
        raise NotRendered(f"Action:{a.verb}:form")
    if a.subject is None:
        raise NotRendered(f"Action:{a.verb}:no_subject")
    subj = render(a.subject, role="subject")
    verb = "cost" if is_plural(a.subject) else "costs"
    out = f"{subj} {verb} {_mana(a)} {'more' if more else 'less'} to {to}"
    per = a.extra.get("per")
    if per is not None:
        if per not in COST_PER or a.obj is not None:
            raise NotRendered(f"Action:{a.verb}:per")
        return f"{out} {COST_PER[per]}"
    if a.obj is not None:
        out += " for each " + render(a.obj, prep="in")
    return out


#: what a cost change counts when it is no object (``Action.extra.per``, CR 601.2f)
COST_PER = {"target_beyond_first": "for each target beyond the first"}  # CR 601.2c: the targets chosen


@renders_verb("cost_more", "cost_less", "cost_more_activate", "cost_less_activate")
def render_cost_change(a: A.Action, **_) -> str:
    """Cost increases and reductions of spells and abilities (CR 601.2f, 602.2b)."""
    return _cost_change(a, more=a.verb.startswith("cost_more"),
                        to="activate" if a.verb.endswith("_activate") else "cast")


# ------------------------------------------------------------------ untapping, lands, hand size
@renders_verb("may_not_untap")
def render_may_not_untap(a: A.Action, **_) -> str:
    """"You may choose not to untap ~ during your untap step" (CR 502.3)."""
    _bare(a, "untap_step", "optional")
    if a.extra.get("optional") is not True:
        raise NotRendered("Action:may_not_untap")
    who, _ = _subject(a)
    step = a.extra.get("untap_step")
    words = UNTAP_STEPS.get((step, is_plural(a.obj))) or UNTAP_STEPS.get((step, False))
    if words is None:
        raise NotRendered("Action:may_not_untap:step")
    return f"{who} may choose not to untap {_obj(a)} during {words}"


@renders_verb("untap_during_others")
def render_untap_during_others(a: A.Action, **_) -> str:
    """"Untap all permanents you control during each other player's untap step" (CR 502.3)."""
    _bare(a)
    if a.subject is not None:
        raise NotRendered("Action:untap_during_others")
    return f"untap {_obj(a)} during each other player's untap step"


#: extra land plays (CR 305.2): the alternative's words → the wording after "an additional land"
_EXTRA_LAND = {("on", "each", "of", "your"): "on each of your turns", ("this",): "this turn",
               ("on", "each", "of", "their"): "on each of their turns"}


@renders_verb("extra_land")
def render_extra_land(a: A.Action, **_) -> str:
    """"You may play an additional land on each of your turns" (CR 305.2)."""
    _bare(a, "words", "form", "optional")
    tail = _EXTRA_LAND.get(tuple(_form(a)))
    if tail is None or a.obj is not None:
        raise NotRendered("Action:extra_land")
    who = render(a.subject, role="subject") if a.subject is not None else None
    may = "may " if a.extra.get("optional") is True else ""
    if who is None:
        if may:
            raise NotRendered("Action:extra_land:optional_without_subject")
        return f"play an additional {_one_word(a)} {tail}"
    return f"{who} {may}play an additional {_one_word(a)} {tail}"



@renders_verb("any_player_may_activate")
def render_any_player_may_activate(a: A.Action, **_) -> str:
    """"Any player may activate this ability [but only during their turn before the end step]." (CR 602.2:
    an object's controller activates its abilities unless the object says otherwise); ``extra.only``:
    "their_turn_before_end_step" for the timing rider."""
    extra_keys(a, {"only"})
    only = a.extra.get("only")
    if a.subject is not None or a.obj is not None or a.amount is not None or only not in (None, "their_turn_before_end_step"):
        raise NotRendered("Action:any_player_may_activate")
    tail = " but only during their turn before the end step" if only else ""
    return "any player may activate this ability" + tail


@renders_verb("blockable_as_though")
def render_blockable_as_though(a: A.Action, **_) -> str:
    """"~ can be blocked as though it didn't have flying", "Creatures with plainswalk can be blocked as though
    they didn't have plainswalk" (CR 509.1b, 609.4); the keyword a Keyword node or a landwalk word (CR 702.14c)."""
    from pipeline.parse.lexicon import is_keyword

    extra_keys(a, {"keyword", "words", "negated"})
    kw, words = a.extra.get("keyword"), a.extra.get("words")
    if a.extra.get("negated") is not True or a.obj is not None or a.amount is not None or (kw is None) == (words is None):
        raise NotRendered("Action:blockable_as_though")
    if kw is not None:
        if not isinstance(kw, A.Keyword):
            raise NotRendered("Action:blockable_as_though")
        name = render(kw)
    elif isinstance(words, list) and len(words) == 1 and is_keyword(words[0]):
        name = words[0]
    else:
        raise NotRendered("Action:blockable_as_though:keyword")
    who, plural = _subject(a)
    return f"{who} can be blocked as though {'they' if plural else 'it'} didn't have {name}"
