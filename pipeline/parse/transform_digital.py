"""Transformer rules for ``grammar/digital.lark``: the actions of MTG Arena's digital-only cards,
which the Comprehensive Rules do not define (docs/ast.md § Digital-only actions):

* ``Action{verb: "seek", subject?, obj}`` — "Seek a nonland card": a card of that description, at
  random from the player's library, is put into their hand;
* ``Action{verb: "draft_spellbook", amount}`` — "Draft a card from ~'s spellbook";
* ``Action{verb: "conjure_duplicate", obj, extra: {zone: hand | graveyard | library | exile |
  battlefield, owner: your | their | None}}`` — "Conjure a duplicate of it into your hand";
  ``Action{verb: "conjure_spellbook", extra: {zone, owner, random: True}}`` — "Conjure a random card
  from ~'s spellbook into your hand"; the object "the duplicate" / "those duplicates" →
  ``Obj{qualifiers: ["duplicate:the" | "duplicates:those" …]}``;
* ``Action{verb: "boon", extra: {abilities: [the quoted ability], times: N | None}}`` — "You get a one-time
  boon with "…"": a boon (like an emblem, CR 114.2) whose triggered ability works N times ("a boon with"
  writes no limit: None);
* "perpetually" before a predicate ("It perpetually gets +1/+1", "… perpetually gains flying"):
  ``extra["perpetually"] = True`` on the Action, or the duration ``Action("duration:perpetually")``
  of a GrantAbility.

:class:`DigitalRules` is a mixin of :class:`pipeline.parse.transform.ToAst`; every method takes
``(meta, children)`` like ``ToAst``'s and returns nodes of :mod:`pipeline.parse.ast`.
"""

from __future__ import annotations

from lark import Transformer, v_args

from pipeline.parse import ast as A
from pipeline.parse.children import first_of as _first


class _ConjureDest:
    """Internal: the zone a conjured card is put into (closed values, see the module docstring)."""

    def __init__(self, zone: str, owner: str | None):
        self.zone, self.owner = zone, owner


#: the words of grammar rule ``boon_times``, in order: "one-time" is 1
BOON_TIMES = ("one-time", "two-time", "three-time", "four-time", "five-time", "six-time", "seven-time",
               "eight-time", "nine-time", "ten-time", "eleven-time", "twelve-time")

#: the duration of a perpetual grant ("It perpetually gains flying")
PERPETUALLY = "duration:perpetually"


@v_args(meta=True)
class DigitalRules(Transformer):
    """Mixin with the digital-only rules of ``grammar/digital.lark`` (see the module docstring)."""

    def a_seek(self, meta, ch):
        self._form_used = True  # "seek" / "seeks" agree with the subject
        return A.Action("seek", obj=_first(ch, A.Obj), text=self._t(meta))

    def a_draft_spellbook(self, meta, ch):
        self._form_used = True
        return A.Action("draft_spellbook", amount=_first(ch, A.Amount), text=self._t(meta))

    def cdest_zone(self, meta, ch):
        lits = self._lits
        zone = next(z for z in ("hand", "graveyard", "library") if z in lits)
        return _ConjureDest(zone, "their" if "their" in lits else "your")

    def cdest_exile(self, meta, ch):
        return _ConjureDest("exile", None)

    def cdest_battlefield(self, meta, ch):
        return _ConjureDest("battlefield", None)

    def a_conjure_duplicate(self, meta, ch):
        self._form_used = True
        dest = next(c for c in ch if isinstance(c, _ConjureDest))
        return A.Action("conjure_duplicate", obj=_first(ch, A.Obj), extra={"zone": dest.zone, "owner": dest.owner},
                        text=self._t(meta))

    def a_conjure_spellbook(self, meta, ch):
        self._form_used = True
        dest = next(c for c in ch if isinstance(c, _ConjureDest))
        return A.Action("conjure_spellbook", extra={"zone": dest.zone, "owner": dest.owner, "random": True},
                        text=self._t(meta))

    def o_the_duplicate(self, meta, ch):
        """"the duplicate" / "that duplicate" / "the duplicates" → ``Obj{qualifiers: [duplicate:<the |
        that | those>]}``, plural for "duplicates"."""
        self._form_used = True
        det = next(w for w in self._lits if w in ("the", "that", "those"))
        plural = "duplicates" in self._lits
        return A.Obj(None, None, [], self._t(meta), [f"duplicate{'s' if plural else ''}:{det}"])

    def a_boon(self, meta, ch):
        """"you get a one-time boon with "…"" → ``Action("boon", extra={abilities, times})``."""
        self._form_used = True
        q = next(c for c in ch if getattr(c, "type", None) == "QUOTED")
        times = next((c for c in ch if isinstance(c, int) and not isinstance(c, bool)), None)
        return A.Action("boon", extra={"abilities": [self._tok(q)], "times": times}, text=self._t(meta))

    def boon_times(self, meta, ch):
        """"one-time" … "twelve-time" → the number of times (an int)."""
        self._form_used = True
        return BOON_TIMES.index(self._lits[0]) + 1

    def c_perpetually(self, meta, ch):
        """"It perpetually gets +1/+1" — the predicate with its subject, marked perpetual."""
        act = self.c_subject(meta, ch[:2])
        mark_perpetual(act)
        return act


def mark_perpetual(node) -> None:
    """Mark an effect node as perpetual: ``extra["perpetually"]`` of an Action, the duration
    :data:`PERPETUALLY` of a GrantAbility (other nodes are left as they are)."""
    if isinstance(node, A.Action):
        node.extra["perpetually"] = True
    elif isinstance(node, A.GrantAbility):
        node.duration = A.Action(PERPETUALLY)


def is_perpetual(node) -> bool:
    """True for a node :func:`mark_perpetual` marked."""
    if isinstance(node, A.Action):
        return node.extra.get("perpetually") is True
    return isinstance(node, A.GrantAbility) and isinstance(node.duration, A.Action) and node.duration.verb == PERPETUALLY
