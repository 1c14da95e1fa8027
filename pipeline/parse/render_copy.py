"""Renderers of copy effects (``grammar/copy.lark``, CR 707): :class:`CopyEffect`, populate
(CR 701.36), with their exceptions (CR 707.9: types set or added, abilities gained, extra
counters, not legendary); the duration of a "becomes a copy" effect (CR 611.2a)."""

from __future__ import annotations

import re

from pipeline.parse import ast as A
from pipeline.parse.lexicon import is_counter_kind, is_object_word
from pipeline.parse.render import NotRendered, extra_keys, render, renders, renders_verb
from pipeline.parse.render_effects import SUPERTYPES, _quoted
from pipeline.parse.render_objects import (BASES, PLURAL_BASES, POST_FORMS, POSTS, REF_POSTS, amount_number, article,
                                           counted, is_plural, number_word)

# "the copy" / "the copies": what a copy effect made (transform_copy.o_the_copy, CR 707.10, 707.12)
BASES.update({"the_copy": "the copy", "the_copies": "the copies",
              "any_number_of_the_copies": "any number of the copies"})
PLURAL_BASES.update(("the_copies", "any_number_of_the_copies"))
# "each other creature that spell could target" (objects.lark p_could_target; CR 707.10d: a copy for
# each object the spell could target): the words before "spell" and "or ability" kept as the form
for _lead in ("that", "the", "that+the", "that+that"):
    for _ability in ("", "+or+ability"):
        POST_FORMS[("could_target", _lead + _ability)] = \
            " ".join(_lead.split("+")) + " spell" + (" or ability" if _ability else "") + " could target"
del _lead, _ability
# the object post-modifiers of copy.lark: "that targets only a single creature you control" (CR 115.1,
# 707.10), "an ability that isn't a mana ability" (CR 605.1), "a token that entered this turn" (CR 400.7),
# "a card you exiled with cards named ~" (CR 607.2a)
REF_POSTS[("that_targets", "only+a+single")] = "that targets only a single"
POSTS.update({"not_mana_ability": "that isn't a mana ability", "entered_this_turn": "that entered this turn",
              "exiled_with_named:~": "you exiled with cards named ~"})


@renders(A.CopyEffect)
def render_copy(c: A.CopyEffect, **_) -> str:
    """"You may have ~ enter as a copy of any creature on the battlefield" (CR 707.5), "copy
    target instant or sorcery spell. You may choose new targets for the copy" (CR 707.10),
    "create a token that's a copy of target creature you control" (CR 707.2, 111.4),
    "~ becomes a copy of target creature" (CR 707.2)."""
    if (c.duration is not None and c.mode != "becomes_copy") or c.original is None \
            or (c.condition is not None and c.mode not in _SPELL_COPIES + ("create_token_copy",)):
        raise NotRendered(f"CopyEffect:{c.mode}:rider")
    if [e for e in c.exceptions if e.kind == "enters_with_counters"] and not c.counters:
        raise NotRendered(f"CopyEffect:{c.mode}:rider")
    if c.counters and [e.value for e in c.exceptions if e.kind == "enters_with_counters"] != c.counters:
        raise NotRendered(f"CopyEffect:{c.mode}:rider")
    # "becomes a copy of target creature until end of turn, except it has haste" (CR 611.2a, 707.9)
    duration = " " + render(c.duration) if c.duration is not None else ""
    original = render(c.original) + duration + exceptions(c.exceptions)
    may = "you may " if c.optional else ""
    if c.attacking and (c.mode != "create_token_copy" or not c.tapped):
        raise NotRendered(f"CopyEffect:{c.mode}:attacking")
    if c.tapped and c.mode not in ("create_token_copy", "enter_as_copy"):
        raise NotRendered(f"CopyEffect:{c.mode}:tapped")
    out = _render_copy(c, original, may)
    if c.instead == "lead":
        return "instead " + out
    if c.instead == "trail" and c.mode not in _SPELL_COPIES:  # (spell copies place it before their rider)
        return out + " instead"
    return out


#: copy modes of "copy …" (CR 707.10 spells and abilities, 707.12 cards)
_SPELL_COPIES = ("copy_spell", "copy_ability", "copy_card")


def _render_copy(c: A.CopyEffect, original: str, may: str) -> str:
    if c.mode == "enter_as_copy" and _is_self(c.subject):
        if c.count is not None or c.new_targets:
            raise NotRendered("CopyEffect:enter_as_copy")
        tapped = "tapped " if c.tapped else ""  # CR 614.1c: "enter tapped as a copy of"
        return (f"you may have ~ enter {tapped}as a copy of {original}" if c.optional
                else f"~ enters {tapped}as a copy of {original}")
    if c.mode == "enter_as_copy" and c.subject is not None and not c.optional and c.count is None \
            and not c.new_targets and not c.tapped:
        # "Creatures you control enter as a copy of ~" (a replacement effect, CR 614.1c, 707.5)
        subj = render(c.subject, role="subject")
        return f"{subj} {_agree(c.subject, subj, 'enter', 'enters')} as a copy of {original}"
    if c.mode in _SPELL_COPIES and (c.subject is None or c.optional):
        # CR 707.10 (spells, abilities), 707.12 (a card copied, then cast); the copy's controller
        # is the player who copies it ("each other player may copy that spell", CR 707.10)
        if c.subject is not None and not _is_you(c.subject):
            may = render(c.subject, role="subject") + " may "
        out = f"{may}copy {original}{_times(c.count)}"
        if c.condition is not None:  # "copy it if you control an artifact" (CR 608.2c)
            out += " if " + render(c.condition)
        if c.instead == "trail":  # "copy that spell twice instead. You may choose new targets …"
            out += " instead"
        return out + _new_targets(c)
    if c.mode in _SPELL_COPIES and c.subject is not None and not c.optional and c.condition is None \
            and c.instead is None:
        # "that player copies that spell for each other Golem that spell could target" (CR 707.10:
        # the player who copies it controls the copy; 707.10d a copy per object it could target)
        who = render(c.subject, role="subject")
        return f"{who} {_agree(c.subject, who, 'copy', 'copies')} {original}{_times(c.count)}" + _new_targets(c)
    if c.mode == "create_token_copy" and not c.new_targets:
        # the player who creates the token gets it (CR 111.2): "you" unless a subject says otherwise
        verb = "create"
        if c.subject is not None and not (c.optional and _is_you(c.subject)):
            who = render(c.subject, role="subject")
            verb = f"{who} {'may create' if c.optional else _agree(c.subject, who, 'create', 'creates')}"
        elif c.optional:
            verb = "you may create"
        n = c.count
        one = n is None or (n.kind == "fixed" and n.value == 1 and n.ref is None)
        # CR 110.5b, 508.4: "a tapped token", "a tapped and attacking token", "… and that's tapped and attacking"
        status = "tapped and attacking" if c.attacking else "tapped" if c.tapped else ""
        before = status + " " if status and not c.status_last else ""
        after = (" and that's " if one else " and that are ") + status if status and c.status_last else ""
        # "create a tapped token that's a copy of ~ if seven or more land cards are in your graveyard" (CR 608.2c)
        cond = " if " + render(c.condition) if c.condition is not None else ""
        if one:
            return f"{verb} a {before}token that's a copy of {original}{after}{cond}"
        return f"{verb} {amount_number(n)} {before}tokens that are copies of {original}{after}{cond}"
    if c.mode == "becomes_copy" and c.subject is not None and c.count is None and not c.new_targets:
        subj = render(c.subject, role="subject")
        # the verb agrees with its subject: "Shapeshifters you control become copies of …" (CR 707.2)
        plural = is_plural(c.subject)
        what = "copies" if plural else "a copy"
        if c.optional:
            return f"{may}have {subj} become {what} of {original}"
        return f"{subj} {'become' if plural else 'becomes'} {what} of {original}"
    if c.mode == "is_copy" and c.subject is not None and c.count is None and not c.new_targets and not c.optional \
            and not c.tapped:
        # "Enchanted creature is a copy of the chosen creature." (Metamorphic Alteration, CR 707.2)
        return f"{render(c.subject, role='subject')} is a copy of {original}"
    raise NotRendered(f"CopyEffect:{c.mode}")


#: the words before "choose new targets" by CopyEffect.new_targets_join (CR 707.10c)
_NEW_TARGETS_LEAD = {"sentence": ". You may", "and_you_may": " and you may", "and_may": " and may", "and": " and"}


def _new_targets(c: A.CopyEffect) -> str:
    """" You may choose new targets for the copies" after a spell copy (CR 707.10c): "" without
    one; "the copies" for more than one copy (a count other than one, or a plural original)."""
    if not c.new_targets:
        return ""
    lead = _NEW_TARGETS_LEAD.get(c.new_targets_join or "sentence")
    if lead is None:
        raise NotRendered("CopyEffect:new_targets_join")
    n = c.count
    several = (n is not None and not (n.kind == "fixed" and n.value == 1)) or is_plural(c.original)
    own = " they control" if c.new_targets_own else ""
    what = "a new target" if c.new_targets_single else "new targets"
    if c.new_targets_that:
        if several:
            raise NotRendered("CopyEffect:new_targets_that")
        return f"{lead} choose {what} for that copy{own}"
    return f"{lead} choose {what} for the {'copies' if several else 'copy'}{own}"


def _agree(subject, rendered: str, base: str, third: str) -> str:
    """The verb form agreeing with its subject: "you create", "opponents create", "its controller creates"."""
    return base if rendered == "you" or is_plural(subject) else third


def _list(parts: list[str]) -> str:
    """Oracle list form: "A", "A and B", "A, B, and C"."""
    if len(parts) <= 2:
        return " and ".join(parts)
    return ", ".join(parts[:-1]) + ", and " + parts[-1]


def exceptions(excs: list[A.CopyException]) -> str:
    """", except it's an artifact and it has \"{T}: Add {U}.\"" (CR 707.9); "" for none. A type
    exception followed by the keywords it has "with" is one clause ("it's a 4/4 Dragon creature
    with flying in addition to its other types"), as are keywords and "this ability" joined by "and"
    ("he has flying and this ability")."""
    if not excs:
        return ""
    parts = []
    i = 0
    while i < len(excs):
        e = excs[i]
        nxt = excs[i + 1] if i + 1 < len(excs) else None
        if e.kind == "is_type" and nxt is not None and nxt.kind == "has_keyword" and nxt.form == ["with"] \
                and nxt.condition is None:
            parts.append(_is_type(e, " with " + _abilities(nxt.value)))
            i += 2
            continue
        if e.kind == "has_keyword" and nxt is not None and nxt.kind == "has_this_ability" and nxt.form == ["and"] \
                and nxt.condition is None and nxt.value is None:
            parts.append(render(e) + " and this ability")  # "he has flying and this ability": one clause (CR 707.9a)
            i += 2
            continue
        parts.append(render(e))
        i += 1
    # CR 707.9: a condition written before the exceptions ("except if ~ was embalmed, the token has no
    # mana cost, it's white, …") heads the first one it conditions; one written after an exception
    # ("… on it if it's a creature") conditions that one only
    parts = _conditioned(excs, parts)
    return ", except " + _list(parts)


def _conditioned(excs: list[A.CopyException], parts: list[str]) -> list[str]:
    """``parts`` (one per exception clause, a merged clause standing for its first exception) with
    each exception's condition written where it stands."""
    if all(e.condition is None for e in excs):
        return parts
    heads = [e for i, e in enumerate(excs) if not (i and _merged(excs[i - 1], e))]
    if len(heads) != len(parts):
        raise NotRendered("CopyException:condition")
    out, lead = [], None
    for e, part in zip(heads, parts):
        c = e.condition
        if c is None:
            if lead is not None:  # a leading condition holds for every exception after it (CR 707.9)
                raise NotRendered("CopyException:condition")
            out.append(part)
        elif c.extra.get("lead"):
            out.append(part if c == lead else f"{copy_condition(c)}, {part}")
            lead = c
        else:
            out.append(f"{part} {copy_condition(c)}")
    return out


def _merged(prev: A.CopyException, e: A.CopyException) -> bool:
    """True when ``e`` is written in one clause with ``prev`` (see :func:`exceptions`)."""
    return (prev.kind == "is_type" and e.kind == "has_keyword" and e.form == ["with"]) or \
        (prev.kind == "has_keyword" and e.kind == "has_this_ability" and e.form == ["and"] and e.value is None)


#: the past participles of "if ~ was …" (CR 702.128 embalm, 702.129 eternalize: the token copy made)
_WAS_WORDS = ("embalmed", "eternalized")


def copy_condition(c) -> str:
    """The condition of one copy exception (transform_copy ``cif_*``): "if it's a creature",
    "if you control that creature", "if the spell is legendary", "if ~ was embalmed"."""
    if not isinstance(c, A.Action):
        raise NotRendered("CopyException:condition")
    words = c.extra.get("words") or []
    extra_keys(c, {"words", "lead"})
    if c.amount is not None or c.subject is not None or not all(isinstance(w, str) for w in words):
        raise NotRendered("CopyException:condition")
    if c.verb == "condition:is_a" and c.obj is None and words and all(is_object_word(w.lower()) for w in words):
        return f"if it's {article(words[0])} {' '.join(words)}"
    if c.verb == "condition:control" and isinstance(c.obj, A.Obj) and not words:
        return "if you control " + render(c.obj)
    if c.verb == "condition:is_supertype" and isinstance(c.obj, A.Obj) and len(words) == 1 \
            and words[0] in SUPERTYPES:
        return f"if {render(c.obj, role='subject')} is {words[0]}"
    if c.verb == "condition:was" and isinstance(c.obj, A.Obj) and len(words) == 1 and words[0] in _WAS_WORDS:
        return f"if {render(c.obj, role='subject')} was {words[0]}"
    raise NotRendered("CopyException:condition")


#: the words of an addition (CR 707.9b) after "in addition to its/their other …"
_ADDITION_WORDS = {"types": ["types"], "colors_and_types": ["colors", "and", "types"],
                   "creature_types": ["creature", "types"]}
#: the subject and verb of a type exception (its form without the article) → their wording
_IS_HEADS = {("it",): "it's", ("it", "is"): "it is", ("they", "are"): "they are", ("they're",): "they're",
             ("is",): "is", ("the", "token", "is"): "the token is", ("the", "copy", "is"): "the copy is",
             ("that", "the", "copy", "is"): "that the copy is", ("he",): "he's"}
_PT = re.compile(r"^\d+/\d+$")


def _is_type(e: A.CopyException, with_: str = "") -> str:
    """"it's an artifact [in addition to its other types]", "the token is 1/1", "is a Reflection …"
    (CR 707.9b: the types set, or added to the copied ones)."""
    f = e.form
    tail = []
    if e.addition:
        words = _ADDITION_WORDS.get(e.addition)
        n = len(words or []) + 5
        tail = f[len(f) - n:]
        if words is None or tail[:3] != ["in", "addition", "to"] or tail[3] not in ("its", "their", "his") \
                or tail[4] != "other" or tail[5:] != words:
            raise NotRendered("CopyException:is_type")
    head = f[:len(f) - len(tail)]
    art = head[-1] in ("a", "an") if head else False
    who = _IS_HEADS.get(tuple(head[:-1] if art else head))
    if who is None:
        raise NotRendered("CopyException:is_type")
    items = _type_items(e.value)
    out = f"{who} {article(items) + ' ' if art else ''}{items}{with_}"
    return out + (" " + " ".join(tail) if tail else "")


def _type_items(items) -> str:
    if not isinstance(items, list) or not items:
        raise NotRendered("CopyException:is_type")
    for w in items:
        if not (isinstance(w, str) and (_PT.match(w) or is_object_word(w.lower()))):
            raise NotRendered("CopyException:is_type")
    return " ".join(items)


def _abilities(abilities) -> str:
    """Keywords by name, other abilities in quotes (CR 113.1a), as an Oracle list."""
    if not isinstance(abilities, list) or not abilities:
        raise NotRendered("CopyException:has")
    return _list([render(a) if isinstance(a, A.Keyword) else _quoted(a) for a in abilities])


@renders(A.CopyException)
def render_exception(e: A.CopyException, **_) -> str:
    """One exception of a copy effect (CR 707.9): "it's an artifact [in addition to its other
    types]" (707.9b), "it has haste" / "it has \"…\"" (707.9a), "it enters with X additional
    +1/+1 counters on it" (707.9e, 107.3m), "the token isn't legendary" (707.9b)."""
    f = e.form  # (a condition is written by :func:`exceptions`, CR 707.9)
    if e.kind == "is_type":
        return _is_type(e)
    if e.kind in ("has_keyword", "has_ability"):
        who = {("it", "has"): "it has", ("has",): "has", ("the", "token", "has"): "the token has", ("they", "have"): "they have",
               ("the", "token", "gains"): "the token gains", (): "it has", ("he", "has"): "he has"}.get(tuple(f))
        if who is None:
            raise NotRendered(f"CopyException:{e.kind}")
        return f"{who} {_abilities(e.value)}"
    if e.kind == "enters_with_counters" and isinstance(e.value, A.CounterSpec):
        kind = e.value.counter
        if not is_counter_kind(kind):
            raise NotRendered("counter_kind")
        if f == ["it", "enters", "with", "additional", "counters", "on", "it"] or \
                f == ["it", "enters", "with", "additional", "counter", "on", "it"]:
            n = e.value.amount
            return f"it enters with {counted(n, 'additional ' + kind + ' counter', 'additional ' + kind + ' counters')} on it"
        if f == ["it", "enters", "with", "an", "additional", "counter", "on", "it"]:
            return f"it enters with an additional {kind} counter on it"
        if f in (["it", "enters", "with", "counter", "on", "it"], ["it", "enters", "with", "counters", "on", "it"]) \
                and not e.value.additional:
            # "except it enters with a shield counter on it" (CR 707.9e, 122.6: counters it enters with)
            n = e.value.amount
            return f"it enters with {counted(n, kind + ' counter', kind + ' counters')} on it"
        raise NotRendered("CopyException:enters_with_counters")
    if e.kind == "not_color" and isinstance(e.value, list) and len(e.value) == 1 and is_object_word(e.value[0]):
        # "it doesn't copy that creature's color" (CR 707.9b: a characteristic not copied)
        who = {("it", "doesn't"): "it doesn't", ("they", "don't"): "they don't"}.get(tuple(f[:2]))
        color = f[-1] if f[-1] in ("color", "colors") else None
        if who is None or color is None or f[2:-1] != ["copy", "that"]:
            raise NotRendered("CopyException:not_color")
        return f"{who} copy that {e.value[0]}'s {color}"
    if e.kind == "has_this_ability" and e.value is None:
        # "except it has this ability" (CR 707.9a: the copy also has the ability that made it)
        who = {("it", "has", "this", "ability"): "it has ", ("they", "have", "this", "ability"): "they have ",
               ("has", "this", "ability"): "has ", (): ""}.get(tuple(f))
        if who is None:
            raise NotRendered("CopyException:has_this_ability")
        return who + "this ability"
    if e.kind == "not_legendary" and e.value is None:
        who = {("the", "token", "isn't"): "the token isn't", ("it", "isn't"): "it isn't",
               ("it", "not"): "it's not", ("the", "copy", "isn't"): "the copy isn't",
               ("they", "aren't"): "they aren't", ("they", "not"): "they're not",
               ("they're", "not"): "they're not"}.get(tuple(f))
        if who is None:
            raise NotRendered("CopyException:not_legendary")
        return f"{who} legendary"
    if e.kind == "lacks_this_ability" and e.value is None and f[:2] in (["it", "doesn't"], ["they", "don't"]):
        # "except it doesn't have this ability" (CR 707.9b: an ability left out of the copy)
        return f"{f[0]} {f[1]} have this ability"
    if e.kind == "no_mana_cost" and e.value is None:
        return "the token has no mana cost"  # CR 702.128a, 702.129a: the embalmed/eternalized token copy
    if e.kind == "loses_other_card_types" and e.value is None and f in (["it"], ["they"]):
        # "it loses all other card types" (CR 205.1b: the type the exception sets replaces the others)
        return f"{f[0]} {'loses' if f[0] == 'it' else 'lose'} all other card types"
    if e.kind == "loses_ability" and isinstance(e.value, list) and e.value and f in (["loses"], ["it", "loses"]) \
            and all(isinstance(k, A.Keyword) for k in e.value):
        # "except it has haste and loses soulbond" (CR 707.9b: an ability the copy does not have)
        return " ".join(f) + " " + _abilities(e.value)
    if e.kind == "name_is" and e.value == "~" and f in (["its"], ["his"]):
        return f"{f[0]} name is ~"  # CR 707.9b: the copy keeps this object's name
    if e.kind == "loyalty" and isinstance(e.value, A.Amount) and f == ["its", "starting", "loyalty", "is"]:
        return f"its starting loyalty is {amount_number(e.value, words=False)}"  # CR 306.5b (digits)
    raise NotRendered(f"CopyException:{e.kind}")


def _times(n: A.Amount | None) -> str:
    """How many copies (CR 707.10): "" (one), " twice", " three times", " an additional time",
    " for each other instant and sorcery spell you've cast before it this turn"."""
    if n is None:
        return ""
    if n.kind == "fixed" and n.ref is None and n.value is not None:
        if n.value == 1:
            return " an additional time"
        if n.value == 2:
            return " twice"
        return f" {number_word(n.value)} times"
    if n.kind == "x" and n.variable == "X" and n.ref is None:  # "copy it X times" (CR 107.3)
        return " X times"
    if n.kind == "for_each" and isinstance(n.ref, A.Action) and n.ref.verb == "quantity:commander_casts" \
            and n.ref.obj is None and not n.ref.extra:  # CR 903.8
        return " for each time you've cast your commander from the command zone this game"
    if n.kind == "for_each" and isinstance(n.ref, A.Obj) and n.value is None:
        return " for each " + render(n.ref, prep="in")
    raise NotRendered(f"Amount:{n.kind}")


def _is_you(obj) -> bool:
    return isinstance(obj, A.Obj) and obj.quantifier == "you" and not obj.qualifiers


@renders_verb("event:cast_or_copy")
def render_cast_or_copy(a: A.Action, **_) -> str:
    """"[player] cast(s) or cop(y/ies) [a spell]" (a trigger event; CR 707.10: copying a spell
    is not casting it, so the trigger names both)."""
    extra_keys(a, {"objects"})
    objs = a.extra.get("objects") or []
    if a.obj is None or a.subject is not None or a.amount is not None or len(objs) != 1:
        raise NotRendered("Action:event:cast_or_copy")
    verbs = "cast or copy" if _is_you(a.obj) else "casts or copies"
    return f"{render(a.obj, role='subject')} {verbs} {render(objs[0])}"


def _is_self(obj) -> bool:
    return isinstance(obj, A.Obj) and obj.quantifier == "self" and not obj.qualifiers


@renders_verb("populate")
def render_populate(a: A.Action, **_) -> str:
    """CR 701.36a: "populate" (create a token that's a copy of a creature token you control);
    "populate X times" with an amount (Full Flowering)."""
    extra_keys(a, set())
    if a.obj is not None or a.subject is not None:
        raise NotRendered("Action:populate")
    if a.amount is not None:
        return f"populate {amount_number(a.amount, words=False)} times"
    return "populate"


@renders_verb("duration:until_unattached")
def render_until_unattached(a: A.Action, **_) -> str:
    """"until this Equipment becomes unattached from it" (CR 611.2b: the effect ends then)."""
    extra_keys(a, set())
    if a.subject is None or a.obj is None or a.amount is not None:
        raise NotRendered("Action:duration:until_unattached")
    return f"until {render(a.subject, role='subject')} becomes unattached from {render(a.obj)}"


@renders_verb("each_copy_targets_different")
def render_each_copy_targets_different(a: A.Action, **_) -> str:
    """"each copy targets a different one of those creatures" (CR 707.10d: one copy for each object
    the spell could target, each copy targeting one of them)."""
    extra_keys(a, set())
    if not isinstance(a.obj, A.Obj) or a.amount is not None or a.subject is not None:
        raise NotRendered("Action:each_copy_targets_different")
    return "each copy targets a different one of " + render(a.obj)


@renders_verb("copy_targets")
def render_copy_targets(a: A.Action, **_) -> str:
    """"the copy targets the chosen creature" (CR 707.10e: an effect that copies a spell and
    specifies the copy's new target)."""
    extra_keys(a, set())
    if not isinstance(a.obj, A.Obj) or a.amount is not None or a.subject is not None:
        raise NotRendered("Action:copy_targets")
    return "the copy targets " + render(a.obj)
