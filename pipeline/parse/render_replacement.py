"""Renderers of replacement and prevention effects (CR 614, 615; ``grammar/replacement.lark``,
transformer ``transform_replacement.py``): canonical Oracle text from the structured fields of
``prevent_next`` … actions (docs/ast.md § Rendering)."""

from __future__ import annotations

from pipeline.parse import ast as A
from pipeline.parse.render import NotRendered, extra_keys, renders_verb
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
