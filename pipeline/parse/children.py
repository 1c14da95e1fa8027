"""What the transformer modules share for reading a grammar rule's children (Lark passes them as a
list of tokens, nodes and lists)."""

from __future__ import annotations

from typing import Any


def first_of(children: list[Any], cls: type | tuple[type, ...]) -> Any:
    """The first of ``children`` that is an instance of ``cls`` (a node class or a tuple of
    them), else None."""
    for c in children:
        if isinstance(c, cls):
            return c
    return None
