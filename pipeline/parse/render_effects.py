"""Renderers of effects (``grammar/effects.lark``): :class:`Sentence` and the one-shot
:class:`Action` verbs (CR 608.2, 701 keyword actions)."""

from __future__ import annotations

from pipeline.parse import ast as A
from pipeline.parse.render import NotRendered, cap, extra_keys, render, renders, renders_verb
from pipeline.parse.lexicon import is_object_word
from pipeline.parse.render_objects import amount_number, article, counted, is_plural

_PT = __import__("re").compile(r"^[+-](?:\d+|X)/[+-](?:\d+|X)$")


@renders(A.Sentence)
def render_sentence(s: A.Sentence, **_) -> str:
    """Effects of one sentence joined by " and ", capitalised, ending with "." (the Oracle
    sentence); a condition leads ("If …, …", CR 608.2c)."""
    if not s.effects:
        raise NotRendered("Sentence:empty")
    if s.optional:
        raise NotRendered("Sentence:optional")
    parts = [render(e) for e in s.effects]
    joins = getattr(s, "joins", [])
    if len(joins) != len(parts) - 1:
        raise NotRendered("Sentence:joins")
    body = parts[0]
    for j, p in zip(joins, parts[1:]):
        body += (j if j.startswith(",") else " " + j) + " " + p
    if s.condition is not None:
        cond = s.condition
        if isinstance(cond, A.Action) and cond.verb == "condition:as_long_as":
            body = f"{render(cond)}, {body[:1].lower() + body[1:]}"
        elif isinstance(cond, A.Action) and cond.verb.startswith("condition:"):
            body = f"if {render(cond)}, {body[:1].lower() + body[1:]}"
        elif isinstance(cond, A.Duration):  # "Until end of turn, …" (CR 611.2b)
            body = f"{render(cond)}, {body[:1].lower() + body[1:]}"
        else:
            raise NotRendered("Sentence:condition:" + type(cond).__name__)
    # a sentence ending in a quoted ability ends inside the quotes: 'have "{T}: Add {G}."'
    return cap(body) if body.endswith('."') else cap(body) + "."


def subject_verb(action: A.Action, base: str, third: str) -> str:
    """"draw" (imperative, no subject), "you draw", "target player draws", "~ deals"; "you may
    draw" when ``extra["optional"]`` (CR 608.2d: the controller chooses)."""
    optional = action.extra.get("optional") is True
    if action.subject is None:
        if optional:
            raise NotRendered(f"Action:{action.verb}:optional_without_subject")
        return base
    subj = render(action.subject, role="subject")
    if optional:
        return f"{subj} may {base}"
    if subj == "you" or is_plural(action.subject):
        return f"{subj} {base}"
    return f"{subj} {third}"


def _obj(action: A.Action) -> str:
    if action.obj is None:
        raise NotRendered(f"Action:{action.verb}:no_obj")
    return render(action.obj)


# verb → (base form, third person) of actions written "[subject] verb obj"
_SIMPLE = {
    "destroy": ("destroy", "destroys"), "exile": ("exile", "exiles"), "tap": ("tap", "taps"),
    "untap": ("untap", "untaps"), "sacrifice": ("sacrifice", "sacrifices"), "counter": ("counter", "counters"),
    "regenerate": ("regenerate", "regenerates"), "reveal": ("reveal", "reveals"),
    "discard_obj": ("discard", "discards"), "transform": ("transform", "transforms"),
}


def _simple(action: A.Action, **_) -> str:
    extra_keys(action, {"optional"})
    if action.amount is not None:
        raise NotRendered(f"Action:{action.verb}+amount")
    base, third = _SIMPLE[action.verb]
    return f"{subject_verb(action, base, third)} {_obj(action)}"


renders_verb(*_SIMPLE)(_simple)


@renders_verb("draw")
def render_draw(a: A.Action, **_) -> str:
    extra_keys(a, {"optional"})
    if a.obj is not None:
        raise NotRendered("Action:draw+obj")
    return f"{subject_verb(a, 'draw', 'draws')} {counted(a.amount, 'card', 'cards')}"


@renders_verb("mill", "scry", "surveil")
def render_mill(a: A.Action, **_) -> str:
    extra_keys(a, {"optional"})
    if a.obj is not None:
        raise NotRendered(f"Action:{a.verb}+obj")
    if a.verb == "mill":
        return f"{subject_verb(a, 'mill', 'mills')} {counted(a.amount, 'card', 'cards')}"
    return f"{subject_verb(a, a.verb, a.verb + 's')} {amount_number(a.amount, words=False)}"


@renders_verb("gain_life", "lose_life")
def render_life(a: A.Action, **_) -> str:
    extra_keys(a, {"optional"})
    if a.obj is not None:
        raise NotRendered(f"Action:{a.verb}+obj")
    base = "gain" if a.verb == "gain_life" else "lose"
    return f"{subject_verb(a, base, base + 's')} {amount_number(a.amount, words=False)} life"


@renders_verb("damage")
def render_damage(a: A.Action, **_) -> str:
    """"~ deals 3 damage to any target" (CR 120.1)."""
    extra_keys(a, set())
    return f"{subject_verb(a, 'deal', 'deals')} {amount_number(a.amount, words=False)} damage to {_obj(a)}"


@renders_verb("pump")
def render_pump(a: A.Action, **_) -> str:
    """"target creature gets +3/+3 [until end of turn]" (CR 613.4c)."""
    extra_keys(a, {"pt", "duration"})
    pt = a.extra.get("pt")
    if not isinstance(pt, str) or not _PT.match(pt) or a.obj is not None or a.amount is not None:
        raise NotRendered("Action:pump")
    out = f"{subject_verb(a, 'get', 'gets')} {pt}"
    if "duration" in a.extra:
        out += " " + render(a.extra["duration"])
    return out


@renders(A.CreateToken)
def render_create(t: A.CreateToken, **_) -> str:
    """"create a Treasure token" (CR 111.10 predefined tokens), "create two 1/1 white Soldier
    creature tokens with flying" (CR 111.4: P/T, colors, types; keyword abilities)."""
    if t.token_name is not None:
        if t.pt is not None or t.abilities:
            raise NotRendered("CreateToken")
        return "create " + counted(t.count, f"{t.token_name} token", f"{t.token_name} tokens")
    if t.pt is None or not _TOKEN_PT.match(t.pt) or not t.words:
        raise NotRendered("CreateToken")
    for w in t.words:
        if not is_object_word(w.lower()):
            raise NotRendered("CreateToken:word")
    desc = f"{t.pt} {' '.join(t.words)}"
    out = "create " + counted(t.count, f"{desc} token", f"{desc} tokens")
    if t.abilities:
        if not all(isinstance(k, A.Keyword) for k in t.abilities):
            raise NotRendered("CreateToken:ability")
        kws = [render(k) for k in t.abilities]
        out += " with " + (kws[0] if len(kws) == 1 else
                           f"{kws[0]} and {kws[1]}" if len(kws) == 2 else ", ".join(kws[:-1]) + f", and {kws[-1]}")
    return out


_TOKEN_PT = __import__("re").compile(r"^(?:\d+|X|\*)/(?:\d+|X|\*)$")


# CR 611.2b durations (DurationKind) as Oracle writes them
DURATION_WORDS = {
    A.DurationKind.UNTIL_END_OF_TURN: "until end of turn", A.DurationKind.THIS_TURN: "this turn",
    A.DurationKind.UNTIL_YOUR_NEXT_TURN: "until your next turn",
    A.DurationKind.UNTIL_END_OF_YOUR_NEXT_TURN: "until the end of your next turn",
}


@renders(A.Duration)
def render_duration(d: A.Duration, **_) -> str:
    if d.kind is None:
        raise NotRendered("Duration")
    return DURATION_WORDS[A.DurationKind(d.kind)]


def _quoted(body: A.Node) -> str:
    """A granted ability in quotes; quotes inside it become single quotes (Oracle style)."""
    if isinstance(body, (A.Unparsed, A.Text)):
        raise NotRendered("GrantAbility:quoted")
    return '"' + render(body).replace('"', "'") + '"'


@renders(A.GrantAbility)
def render_grant(g: A.GrantAbility, **_) -> str:
    """"[subject] has/have/gains/gain [keywords and quoted abilities] [duration]" (CR 113.1,
    611). The verb ("has" or "gains") is not kept in the AST, so a grant with a duration
    is written "gains" and one without "has" — the Oracle convention for static vs. one-shot."""
    if not g.abilities:
        raise NotRendered("GrantAbility")
    # keywords by name, any other ability in quotes ("{T}: Add {G}.", CR 113.1a)
    kws = [render(k) if isinstance(k, A.Keyword) else _quoted(k) for k in g.abilities]
    kw = kws[0] if len(kws) == 1 else (f"{kws[0]} and {kws[1]}" if len(kws) == 2 else ", ".join(kws[:-1]) + f", and {kws[-1]}")
    if g.duration is None:
        base, third = "have", "has"
    else:
        base, third = "gain", "gains"
    subj = g.subject
    if not (isinstance(subj, A.Obj) and (subj.quantifier is not None or subj.words)):
        raise NotRendered("GrantAbility:subject")
    who = render(subj, role="subject")
    verb = base if (who == "you" or is_plural(subj)) else third
    out = f"{who} {verb} {kw}"
    if g.duration is not None:
        out += " " + render(g.duration)
    return out


# CR 602.5b restrictions on activation ("Activate only …"), by the grammar's rule name
ACTIVATE_ONLY = {
    "sorcery": "Activate only as a sorcery.", "instant": "Activate only as an instant.",
    "once": "Activate only once each turn.", "your_turn": "Activate only during your turn.",
    "upkeep": "Activate only during your upkeep.", "combat": "Activate only during combat.",
}


@renders_verb("activate_only")
def render_activate_only(a: A.Action, **_) -> str:
    extra_keys(a, {"restriction", "condition"})
    if a.extra.get("restriction") == "if" and isinstance(a.extra.get("condition"), A.Action):
        # CR 602.5b: "Activate only if you control an Island."
        return f"Activate only if {render(a.extra['condition'])}."
    if "condition" in a.extra:
        raise NotRendered("Action:activate_only+condition")
    words = ACTIVATE_ONLY.get(a.extra.get("restriction"))
    if words is None or a.obj is not None or a.amount is not None:
        raise NotRendered(f"Action:activate_only:{a.extra.get('restriction')}")
    return words


@renders_verb("return")
def render_return(a: A.Action, **_) -> str:
    """"return target creature to its owner's hand", "return all creatures to their owners'
    hands", "return target creature card from your graveyard to the battlefield" (CR 400.7)."""
    extra_keys(a, {"zone", "optional"})
    dest = a.extra.get("zone")
    if not isinstance(dest, A.Zone) or dest.kind is None or a.amount is not None:
        raise NotRendered("Action:return:destination")
    many = is_plural(a.obj)
    words = {A.Destination.OWNER_HAND: "their owners' hands" if many else "its owner's hand",
             A.Destination.YOUR_HAND: "your hand", A.Destination.BATTLEFIELD: "the battlefield",
             A.Destination.OWNER_LIBRARY_TOP: "the top of its owner's library"}[A.Destination(dest.kind)]
    return f"{subject_verb(a, 'return', 'returns')} {_obj(a)} to {words}"
