"""Renderers of copy effects (``grammar/copy.lark``, CR 707): :class:`CopyEffect`, populate
(CR 701.36). Exceptions (CR 707.9), extra counters and durations are not rendered yet."""

from __future__ import annotations

from pipeline.parse import ast as A
from pipeline.parse.render import NotRendered, extra_keys, render, renders, renders_verb
from pipeline.parse.render_objects import amount_number


@renders(A.CopyEffect)
def render_copy(c: A.CopyEffect, **_) -> str:
    """"You may have ~ enter as a copy of any creature on the battlefield" (CR 707.5), "copy
    target instant or sorcery spell. You may choose new targets for the copy" (CR 707.10),
    "create a token that's a copy of target creature you control" (CR 707.2, 111.4),
    "~ becomes a copy of target creature" (CR 707.2)."""
    if c.exceptions or c.counters or c.duration is not None or c.original is None:
        raise NotRendered(f"CopyEffect:{c.mode}:rider")
    original = render(c.original)
    may = "you may " if c.optional else ""
    if c.mode == "enter_as_copy" and _is_self(c.subject):
        if c.count is not None or c.new_targets:
            raise NotRendered("CopyEffect:enter_as_copy")
        return (f"you may have ~ enter as a copy of {original}" if c.optional
                else f"~ enters as a copy of {original}")
    if c.mode == "copy_spell" and c.subject is None and c.count is None:
        out = f"{may}copy {original}"
        return out + (". You may choose new targets for the copy" if c.new_targets else "")
    if c.mode == "create_token_copy" and c.subject is None and not c.new_targets:
        n = c.count
        if n is None or (n.kind == "fixed" and n.value == 1 and n.ref is None):
            return f"{may}create a token that's a copy of {original}"
        return f"{may}create {amount_number(n)} tokens that are copies of {original}"
    if c.mode == "becomes_copy" and c.subject is not None and c.count is None and not c.new_targets:
        subj = render(c.subject, role="subject")
        return f"{subj} becomes a copy of {original}" if not c.optional else f"{may}have {subj} become a copy of {original}"
    raise NotRendered(f"CopyEffect:{c.mode}")


def _is_self(obj) -> bool:
    return isinstance(obj, A.Obj) and obj.quantifier == "self" and not obj.qualifiers


@renders_verb("populate")
def render_populate(a: A.Action, **_) -> str:
    """CR 701.36a: "populate" (create a token that's a copy of a creature token you control)."""
    extra_keys(a, set())
    if a.obj is not None or a.amount is not None or a.subject is not None:
        raise NotRendered("Action:populate")
    return "populate"
