"""Transformer rules for ``grammar/zones.lark``: one-shot actions that move objects between zones
or reveal information (CR 400–406 zones, CR 701 keyword actions).

:class:`ZoneRules` is a mixin of :class:`pipeline.parse.transform.ToAst`; every method takes
``(meta, children)`` like ``ToAst``'s (the literal words of the matched alternative are in
``self._lits``, normalised, see :mod:`pipeline.parse.forms`) and returns nodes of
:mod:`pipeline.parse.ast`. The words whose alternatives change the meaning become closed-list
``extra`` values (and ``self._form_used`` is set, so no generic form is added):

* ``Action{verb: "put_into", obj, extra: {zone: hand|graveyard, owner: your|their|owner}}``
  ("put it into your hand" / "… into its owner's graveyard", CR 400.1);
* ``Action{verb: "reveal_hand" | "discard_hand", extra: {whose: your|their}}`` ("reveals their
  hand", CR 701.20; "discard your hand", CR 701.9), ``discard_hand`` also ``all_cards: True``
  for "discard all the cards in your hand";
* ``Action{verb: "shuffle_into", obj, extra: {zones: [hand|graveyard…], whose, library:
  your|their|owner}}`` (CR 701.24);
* ``Action{verb: "investigate", amount}`` (CR 701.16: "N times"), ``Action{verb: "emblem",
  extra: {abilities}}`` (CR 114.2);
* ``Action{verb: "choose", obj, extra: {choice: object|type|name}}`` ("choose target creature",
  "choose a creature type", "choose a card name"; CR 608.2d);
* objects that are a part of a zone: "the top N cards of your library" →
  ``Obj{count, qualifiers: ["top_cards", "of:<owner>_<library|graveyard>"]}`` (CR 401.1),
  "target player's hand" → ``Obj{quantifier, words, qualifiers: ["poss_zone:hand", …]}``.
"""

from __future__ import annotations

from lark import Transformer, v_args

from pipeline.parse import ast as A

#: owner of a library/graveyard by the words before it ("the top card of target player's library")
_TOP_OWNERS = {("your",): "your", ("their",): "their", ("that", "player"): "that_player",
               ("target", "player"): "target_player", ("each", "player"): "each_player"}
#: whose hand/library/graveyard the literal words name
_WHOSE = {"your": "your", "their": "their", "its": "owner", "owner": "owner"}


def _first(children, cls):
    for c in children:
        if isinstance(c, cls):
            return c
    return None


@v_args(meta=True)
class ZoneRules(Transformer):
    """Mixin of ToAst for zones.lark (see the module docstring for the shapes)."""

    # ------------------------------------------------------------------ zone objects
    def o_top_cards(self, meta, ch):
        """"the top card of your library", "the top three cards of target player's library"."""
        lits = list(self._lits)
        self._form_used = True
        i = lits.index("of") if "of" in lits else -1
        owner = _TOP_OWNERS.get(tuple(lits[i + 1:-1]))
        zone = lits[-1] if lits else ""
        count = _first(ch, A.Amount)
        quals = ["top_cards", f"of:{owner}_{zone}" if owner and zone in ("library", "graveyard") else "of:?"]
        return A.Obj(None, count, [], self._t(meta), quals)

    def o_poss_zone(self, meta, ch):
        """"target player's hand", "that player's graveyard": the zone of the object before "'s"."""
        base = _first(ch, A.Obj)
        zone = next((w for w in self._lits if w in ("hand", "graveyard", "library")), "?")
        self._form_used = True
        quals = [f"poss_zone:{zone}"] + (list(base.qualifiers) if base else [])
        return A.Obj(base.quantifier if base else None, base.count if base else None,
                     list(base.words) if base else [], self._t(meta), quals)

    # ------------------------------------------------------------------ actions
    def _whose(self, default: str = "your") -> str:
        return next((_WHOSE[w] for w in self._lits if w in _WHOSE), default)

    def a_put_into(self, meta, ch):
        """"put it into your hand" / "into their graveyard" / "into its owner's hand" (CR 400.1)."""
        self._form_used = True
        zone = "hand" if "hand" in self._lits else "graveyard"
        return A.Action("put_into", obj=_first(ch, A.Obj), extra={"zone": zone, "owner": self._whose()},
                        text=self._t(meta))

    def a_reveal_hand(self, meta, ch):
        """"reveal your hand" / "target player reveals their hand" (CR 701.20)."""
        self._form_used = True
        return A.Action("reveal_hand", extra={"whose": self._whose()}, text=self._t(meta))

    def a_discard_hand(self, meta, ch):
        """"discard your hand", "each player discards their hand", "discard all the cards in your
        hand" (CR 701.9)."""
        self._form_used = True
        extra = {"whose": self._whose()}
        if "all" in self._lits:
            extra["all_cards"] = True
        return A.Action("discard_hand", extra=extra, text=self._t(meta))

    def a_shuffle_into(self, meta, ch):
        """"shuffle ~ into its owner's library", "shuffle your graveyard into your library",
        "each player shuffles their hand and graveyard into their library" (CR 701.24)."""
        self._form_used = True
        lits = list(self._lits)
        i = lits.index("into") if "into" in lits else len(lits)
        before, after = lits[:i], lits[i + 1:]
        zones = [w for w in before if w in ("hand", "graveyard")]
        extra = {}
        if zones:
            extra["zones"] = zones
            extra["whose"] = next((_WHOSE[w] for w in before if w in _WHOSE), "your")
        extra["library"] = next((_WHOSE[w] for w in after if w in _WHOSE), "your")
        return A.Action("shuffle_into", obj=_first(ch, A.Obj), extra=extra, text=self._t(meta))

    def a_investigate(self, meta, ch):
        """"investigate" / "investigate twice"-style "investigate N times" (CR 701.16)."""
        return A.Action("investigate", amount=_first(ch, A.Amount), text=self._t(meta))

    def a_choose(self, meta, ch):
        """"choose target creature you control", "choose a creature type", "choose a card name"
        (CR 608.2d); ``extra.choice`` says which of the three."""
        c = _first(ch, _Choice)
        if c is None:
            return A.Action("choose", obj=_first(ch, A.Obj), text=self._t(meta))
        return A.Action("choose", obj=c.obj, extra={"choice": c.kind}, text=self._t(meta))

    def cw_obj(self, meta, ch):
        return _Choice("object", _first(ch, A.Obj))

    def cw_type(self, meta, ch):
        return _Choice("type", _first(ch, A.Obj))

    def cw_name(self, meta, ch):
        return _Choice("name", _first(ch, A.Obj))


class _Choice:
    """Internal: what "choose" picks — ``kind`` object|type|name and the object words."""

    def __init__(self, kind, obj):
        self.kind, self.obj = kind, obj

