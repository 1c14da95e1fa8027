"""Transformer rules for keyword shapes of ``grammar/keywords.lark`` that ``transform.py``'s
keyword rules do not read: "Kicker {1}{B} and/or {R}" (CR 702.33d: two kicker costs →
``Keyword{cost, param: Cost}``) and "Splice onto Arcane—<cost>" (CR 702.47 →
``Keyword{name: splice, param: Obj (the quality's type words), cost: Cost}``).

:class:`KeywordRules` is a mixin of :class:`pipeline.parse.transform.ToAst`.
"""

from __future__ import annotations

from lark import Transformer, v_args

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
