"""Renderers of mana (``grammar/mana.lark``): :class:`ManaSymbol`, :class:`AddMana`,
:class:`ManaRestriction` (CR 106, 107.4, 605)."""

from __future__ import annotations

import re

from pipeline.parse import ast as A
from pipeline.parse.render import NotRendered, render, renders
from pipeline.parse.render_objects import amount_number

_SYMBOL_RE = re.compile(r"^\{(?:\d+|[WUBRGCSXYZTQE]|H[WUBRG]|[WUBRGC2]/[WUBRGCP]|[WUBRG]/[WUBRG]/P)\}$")


@renders(A.ManaSymbol)
def render_symbol(sym: A.ManaSymbol, **_) -> str:
    """A mana symbol is structured (CR 107.4): ``raw`` is checked against the symbol set."""
    if not _SYMBOL_RE.match(sym.raw):
        raise NotRendered("ManaSymbol")
    return sym.raw


def symbols(syms: list[A.ManaSymbol]) -> str:
    if not syms:
        raise NotRendered("ManaSymbol:none")
    return "".join(render_symbol(s) for s in syms)


def one_of(options: list[list[A.ManaSymbol]]) -> str:
    """"{R} or {G}" / "{W}, {U}, or {B}" (the Oracle list form)."""
    parts = [symbols(o) for o in options]
    if len(parts) < 2:
        raise NotRendered("AddMana:one_of")
    if len(parts) == 2:
        return f"{parts[0]} or {parts[1]}"
    return ", ".join(parts[:-1]) + f", or {parts[-1]}"


def _mana_count(amount: A.Amount | None) -> str:
    """"one mana" / "two mana" / "X mana" (CR 106.1)."""
    return amount_number(amount) + " mana"


def _production(add: A.AddMana) -> str:
    p = add.production
    amt = add.amount
    if p == "fixed":
        if amt is None or not (amt.kind == "fixed" and amt.value == 1):
            raise NotRendered("AddMana:fixed_amount")
        return symbols(add.symbols)
    if p == "one_of":
        if amt is None or not (amt.kind == "fixed" and amt.value == 1):
            raise NotRendered("AddMana:one_of_amount")
        return one_of(add.options)
    if p == "chosen_color" and len(add.options) == 1 and add.source is None:
        # "{G} or one mana of the chosen color" (Thriving lands; CR 106.7)
        return f"{symbols(add.options[0])} or {_mana_count(amt)} of the chosen color"
    if add.options or add.source is not None:
        raise NotRendered(f"AddMana:{p}")
    if p == "any_color":
        if add.any_one_color:
            return _mana_count(amt) + " of any one color"
        if add.different:
            return _mana_count(amt) + " of different colors"
        return _mana_count(amt) + " of any color"
    if p == "any_type":
        return _mana_count(amt) + " of any type"
    if p == "combination":
        return _mana_count(amt) + " in any combination of colors"
    if p == "chosen_color":
        return _mana_count(amt) + " of the chosen color"
    if p == "commander_identity":
        return _mana_count(amt) + " of any color in your commander's color identity"
    raise NotRendered(f"AddMana:{p}")


@renders(A.AddMana)
def render_add(add: A.AddMana, **_) -> str:
    """"Add {G}" / "Add {R} or {G}" / "Add two mana of any one color" (CR 106.3)."""
    if add.player is not None or add.additional or add.instead or add.of_type and add.production != "any_type":
        raise NotRendered("AddMana:rider")
    out = "Add " + _production(add)
    for r in add.restrictions:
        out += ". " + render(r)
    return out


@renders(A.ManaRestriction)
def render_restriction(r: A.ManaRestriction, **_) -> str:
    # the restriction's wording is kept only as text: not structured yet
    raise NotRendered(f"ManaRestriction:{r.kind}")
