"""Renderers of replacement and prevention effects (CR 614, 615; ``grammar/replacement.lark``,
transformer ``transform_replacement.py``): canonical Oracle text from the structured fields of
``prevent_next`` … actions (docs/ast.md § Rendering)."""

from __future__ import annotations

from pipeline.parse import ast as A
from pipeline.parse.render import NotRendered, extra_keys, render, renders_verb
from pipeline.parse.render_effects import _duration_tail, _obj
from pipeline.parse.render_objects import amount_number


@renders_verb("prevent_next")
def render_prevent_next(a: A.Action, **_) -> str:
    """"prevent the next 3 damage that would be dealt to any target this turn" (CR 615.7)."""
    extra_keys(a, {"duration"})
    if a.subject is not None:
        raise NotRendered("Action:prevent_next")
    n = amount_number(a.amount, words=False)
    return f"prevent the next {n} damage that would be dealt to {_obj(a)}{_duration_tail(a)}"


@renders_verb("prevent_that_damage")
def render_prevent_that_damage(a: A.Action, **_) -> str:
    """"prevent that damage" (the damage of the replaced event, CR 615.1)."""
    extra_keys(a, set())
    if a.obj is not None or a.amount is not None or a.subject is not None:
        raise NotRendered("Action:prevent_that_damage")
    return "prevent that damage"


#: where the damage a "prevent all damage" effect stops goes or comes from (``extra.direction``)
DIRECTIONS = {"to": "to", "by": "by", "to_and_by": "to and dealt by"}


@renders_verb("prevent")
def render_prevent(a: A.Action, **_) -> str:
    """"prevent all combat damage that would be dealt to and dealt by enchanted creature",
    "prevent all damage that would be dealt this turn to creatures you control" (CR 615.1)."""
    extra_keys(a, {"direction", "combat", "duration", "duration_first"})
    direction = DIRECTIONS.get(a.extra.get("direction"))
    if direction is None or a.amount is not None or a.subject is not None:
        raise NotRendered("Action:prevent")
    head = f"prevent all {'combat ' if a.extra.get('combat') else ''}damage that would be dealt"
    if a.extra.get("duration_first"):
        return f"{head}{_duration_tail(a)} {direction} {_obj(a)}"
    return f"{head} {direction} {_obj(a)}{_duration_tail(a)}"


@renders_verb("condition:next_time_would_deal_damage")
def render_next_time(a: A.Action, **_) -> str:
    """"the next time a source of your choice would deal damage to you this turn" (a prevention
    shield's event, CR 615.8, 609.7a)."""
    extra_keys(a, {"to", "duration"})
    to = a.extra.get("to")
    if a.obj is None or not isinstance(to, A.Obj) or a.amount is not None:
        raise NotRendered(a.verb)
    return f"the next time {render(a.obj, role='subject')} would deal damage to {render(to)}{_duration_tail(a)}"
