"""Renderers of triggered abilities and trigger events (``grammar/triggers.lark``, CR 603)."""

from __future__ import annotations

from pipeline.parse import ast as A
from pipeline.parse.render import NotRendered, cap, extra_keys, render, renders, renders_verb
from pipeline.parse.render_objects import is_plural


@renders(A.Triggered)
def render_triggered(t: A.Triggered, **_) -> str:
    """"When/Whenever/At [event], [effect]" (CR 603.1); the intervening "if" (CR 603.4)."""
    if t.word not in ("when", "whenever", "at"):
        raise NotRendered("Triggered:word")
    head = f"{t.word} {render(t.event)}"
    if t.intervening_if is not None:
        raise NotRendered("Triggered:intervening_if")
    if not t.effect:
        raise NotRendered("Triggered:no_effect")
    effect = " ".join(render(e) for e in t.effect)
    return cap(head) + ", " + effect[:1].lower() + effect[1:]


def _event(third: str, plural: str):
    def f(a: A.Action, **_) -> str:
        extra_keys(a, set())
        if a.obj is None or a.amount is not None:
            raise NotRendered(f"Action:{a.verb}")
        subj = render(a.obj, role="subject")
        return f"{subj} {plural if is_plural(a.obj) else third}"
    return f


renders_verb("event:enters")(_event("enters", "enter"))
renders_verb("event:dies")(_event("dies", "die"))
renders_verb("event:attacks")(_event("attacks", "attack"))
