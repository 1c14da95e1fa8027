"""Transformer rules for keyword shapes of ``grammar/keywords.lark`` that ``transform.py``'s
keyword rules do not read: "Kicker {1}{B} and/or {R}" (CR 702.33d: two kicker costs →
``Keyword{cost, param: Cost}``) and "Splice onto Arcane—<cost>" (CR 702.47 →
``Keyword{name: splice, param: Obj (the quality's type words), cost: Cost}``); "Gift a card" (CR 702.174 →
``param: Gift``), "Prototype {1}{W} — 2/2" (CR 702.160a → ``cost``, ``param: PowerToughness``), "Craft with
artifact {3}{W}" (CR 702.167a → ``param: Obj`` the materials, ``cost``) and "Equip legendary creature {3}"
(CR 702.6c → ``param: Obj`` the quality).

:class:`KeywordRules` is a mixin of :class:`pipeline.parse.transform.ToAst`.
"""

from __future__ import annotations

from lark import Token, Transformer, v_args

from pipeline.parse import ast as A
from pipeline.parse.children import first_of as _first


def quality_obj(words: list[str]) -> A.Node:
    """A keyword's quality ("Splice onto Arcane", "Artifact offering"; CR 702.47a, 702.48a) as an
    ``Obj`` whose words are the type words (a structured field); other words stay ``Text``."""
    from pipeline.parse.lexicon import type_words

    words = [w.lower() for w in words]
    if words and all(w in type_words() for w in words):
        return A.Obj(None, None, words, " ".join(words))
    return A.Text(" ".join(words))


@v_args(meta=True)
class KeywordRules(Transformer):
    """Mixin with keyword rules of ``grammar/keywords.lark`` (see the module docstring)."""

    # ------------------------------------------------------------ CR 702.33d kicker with two costs, CR 702.47 splice
    def kw_cost_andor(self, meta, ch):  # CR 702.33d "Kicker [cost 1] and/or [cost 2]"
        from pipeline.parse.transform import _Name
        name = next((c.name for c in ch if isinstance(c, _Name)), "")
        costs = [c for c in ch if isinstance(c, list)]
        return A.Keyword(name, cost=A.Cost([A.ManaCost(costs[0])]), param=A.Cost([A.ManaCost(costs[1])]),
                         text=self._t(meta))

    def kw_splice_cost(self, meta, ch):  # CR 702.47: "Splice onto Arcane—<cost>"
        words = [w for c in ch if isinstance(c, list) for w in c if isinstance(w, str)]
        return A.Keyword("splice", cost=_first(ch, A.Cost), param=quality_obj(words), text=self._t(meta))

    # ------------------------------------------------------------ CR 702.174 gift, 702.160 prototype, 702.167 craft, 702.6c equip
    def kw_gift(self, meta, ch):  # "Gift a tapped Fish" (CR 702.174a, f)
        return A.Keyword("gift", param=_first(ch, A.Gift), text=self._t(meta))

    def gift_card(self, meta, ch):  # CR 702.174e
        return A.Gift("card")

    def gift_food(self, meta, ch):  # CR 702.174d
        return A.Gift("food")

    def gift_tapped_fish(self, meta, ch):  # CR 702.174f
        return A.Gift("tapped_fish")

    def gift_extra_turn(self, meta, ch):  # CR 702.174g
        return A.Gift("extra_turn")

    def gift_treasure(self, meta, ch):  # CR 702.174h
        return A.Gift("treasure")

    def gift_octopus(self, meta, ch):  # CR 702.174i
        return A.Gift("octopus")

    def kw_prototype(self, meta, ch):  # "Prototype {1}{W} — 2/2" (CR 702.160a, 718.3)
        from pipeline.parse.transform import _Name, _flat_syms
        name = next((c.name for c in ch if isinstance(c, _Name)), "")
        pt = next(str(c) for c in ch if isinstance(c, Token) and c.type == "PT")
        return A.Keyword(name, cost=A.Cost([A.ManaCost(_flat_syms(ch))]), param=A.PowerToughness(pt),
                         text=self._t(meta))

    def kw_craft(self, meta, ch):  # "Craft with [materials] [cost]" (CR 702.167a)
        return self._kw_obj_cost("craft", meta, ch)

    def kw_equip_quality(self, meta, ch):  # "Equip [quality] [cost]" (CR 702.6c)
        return self._kw_obj_cost("equip", meta, ch)

    def _kw_obj_cost(self, name, meta, ch):
        from pipeline.parse.transform import _flat_syms
        return A.Keyword(name, cost=A.Cost([A.ManaCost(_flat_syms(ch))]), param=_first(ch, A.Obj),
                         text=self._t(meta))
