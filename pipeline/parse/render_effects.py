"""Renderers of effects (``grammar/effects.lark``): :class:`Sentence` and the one-shot
:class:`Action` verbs (CR 608.2, 701 keyword actions)."""

from __future__ import annotations

from pipeline.parse import ast as A
from pipeline.parse.render import NotRendered, cap, extra_keys, render, renders, renders_verb
from pipeline.parse.render_objects import amount_number, counted, is_plural

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
    body = parts[0] if len(parts) == 1 else " and ".join(parts)
    if s.condition is not None:
        cond = s.condition
        if isinstance(cond, A.Action) and cond.verb.startswith("condition:"):
            body = f"if {render(cond)}, {body[:1].lower() + body[1:]}"
        else:
            raise NotRendered("Sentence:condition:" + type(cond).__name__)
    return cap(body) + "."


def subject_verb(action: A.Action, base: str, third: str) -> str:
    """"draw" (imperative, no subject), "you draw", "target player draws", "~ deals"."""
    if action.subject is None:
        return base
    subj = render(action.subject, role="subject")
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
    extra_keys(action, set())
    if action.amount is not None:
        raise NotRendered(f"Action:{action.verb}+amount")
    base, third = _SIMPLE[action.verb]
    return f"{subject_verb(action, base, third)} {_obj(action)}"


renders_verb(*_SIMPLE)(_simple)


@renders_verb("draw")
def render_draw(a: A.Action, **_) -> str:
    extra_keys(a, set())
    if a.obj is not None:
        raise NotRendered("Action:draw+obj")
    return f"{subject_verb(a, 'draw', 'draws')} {counted(a.amount, 'card', 'cards')}"


@renders_verb("mill", "scry", "surveil")
def render_mill(a: A.Action, **_) -> str:
    extra_keys(a, set())
    if a.obj is not None:
        raise NotRendered(f"Action:{a.verb}+obj")
    if a.verb == "mill":
        return f"{subject_verb(a, 'mill', 'mills')} {counted(a.amount, 'card', 'cards')}"
    return f"{subject_verb(a, a.verb, a.verb + 's')} {amount_number(a.amount, words=False)}"


@renders_verb("gain_life", "lose_life")
def render_life(a: A.Action, **_) -> str:
    extra_keys(a, set())
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
    """"create a Treasure token" / "create two Food tokens" (CR 111.10 predefined tokens)."""
    if t.token_name is None or t.pt is not None or t.abilities:
        raise NotRendered("CreateToken")
    return "create " + counted(t.count, f"{t.token_name} token", f"{t.token_name} tokens")
