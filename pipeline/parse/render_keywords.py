"""Renderers of keyword abilities (``grammar/keywords.lark``, CR 702): :class:`KeywordLine`,
:class:`Keyword`. Names must be keywords of the CR (:func:`pipeline.parse.lexicon.is_keyword`)."""

from __future__ import annotations

from pipeline.parse import ast as A
import re

from pipeline.parse.lexicon import is_keyword, is_non_cr_keyword, is_object_word
from pipeline.parse.render import NotRendered, cap, render, renders
from pipeline.parse.render_objects import amount_number


@renders(A.KeywordLine)
def render_keyword_line(line: A.KeywordLine, **_) -> str:
    """Keywords joined by ", ", the first capitalised (CR 702.1)."""
    if not line.keywords:
        raise NotRendered("KeywordLine:empty")
    out = cap(", ".join(render(k) for k in line.keywords))
    # a keyword with a non-mana cost after an em dash is a sentence: "Ward—Pay 3 life." (CR 702.21a)
    last = line.keywords[-1]
    if isinstance(last, A.Keyword) and isinstance(last.cost, A.Cost) and not all(
            isinstance(c, A.ManaCost) for c in last.cost.components):
        out += "."
    return out


def _cost(cost: A.Node) -> str:
    """A keyword cost: "{2}{G}" right after the name, any other cost after an em dash
    ("Ward—Pay 3 life", CR 702.21a)."""
    text = render(cost)
    if isinstance(cost, A.Cost) and all(isinstance(c, A.ManaCost) for c in cost.components):
        return " " + text
    return "—" + text


@renders(A.Keyword)
def render_keyword(kw: A.Keyword, **_) -> str:
    """"flying", "equip {2}", "bushido 2", "crew 3", "plainscycling {2}", "enchant creature"."""
    name = kw.name
    if name == "landwalk":
        return _landwalk(kw)
    # "hexproof from" (CR 702.11d); keywords the bundled CR does not define, digital ones included (lexicon)
    if not (is_keyword(name.removesuffix(" from")) or is_non_cr_keyword(name)):
        raise NotRendered("Keyword:name")
    out = name
    if kw.param is not None:
        if name in ("enchant",) and isinstance(kw.param, A.Obj):
            out += " " + render(kw.param)
        elif name == "affinity" and isinstance(kw.param, A.Obj):
            out += " for " + render(kw.param)
        elif name == "champion" and isinstance(kw.param, A.Obj):
            out += " " + render(kw.param)
        elif name == "kicker" and isinstance(kw.param, A.Cost) and kw.cost is not None:
            # "Kicker {1}{B} and/or {R}": two kicker costs (CR 702.33d)
            return f"kicker {render(kw.cost)} and/or {render(kw.param)}"
        elif name == "splice" and _type_words(kw.param):
            # "Splice onto Arcane {2}{B}" / "Splice onto Arcane—Sacrifice two Mountains." (CR 702.47a)
            out = "splice onto " + " ".join(kw.param.words)
        elif name == "offering" and _type_words(kw.param):
            return " ".join(kw.param.words) + " offering"  # "Artifact offering" (CR 702.48a)
        elif name == "gift" and isinstance(kw.param, A.Gift) and kw.param.kind in A.GIFTS:
            out += " " + A.GIFTS[kw.param.kind]  # CR 702.174d–i
        elif name == "prototype" and isinstance(kw.param, A.PowerToughness) and kw.cost is not None:
            # "Prototype {1}{W} — 2/2" (CR 702.160a, 718.3)
            return f"prototype {render(kw.cost)} — {_pt(kw.param.pt)}"
        elif name in ("craft", "equip") and isinstance(kw.param, A.Obj) and kw.cost is not None:
            # "Craft with artifact {3}{W}" (CR 702.167a), "Equip legendary creature {3}" (CR 702.6c)
            return f"{'craft with' if name == 'craft' else 'equip'} {render(kw.param)}{_cost(kw.cost)}"
        elif name in ("protection", "hexproof from") and isinstance(kw.param, A.QualityList):
            out = ("protection from " if name == "protection" else "hexproof from ") + _qualities(kw.param)
        else:
            raise NotRendered(f"Keyword:{name}:param")
    if kw.amount is not None:
        if kw.amount.kind == "x" and kw.cost is None:
            out += " X"
        else:
            out += " " + amount_number(kw.amount, words=False)
    if kw.cost is not None:
        out += ("—" + render(kw.cost)) if kw.amount is not None else _cost(kw.cost)
    return out


# CR 702.16a / 702.11d: "protection from [quality]" — colors, card types, "everything" …
_SEPARATORS = ("and from", ", from", ", and from")


def _quality(q: A.Quality) -> str:
    if not isinstance(q, A.Quality):
        raise NotRendered("Keyword:protection:quality")
    if q.fixed is not None:
        if q.fixed not in A.FIXED_QUALITIES or q.words or q.mana_value is not None:
            raise NotRendered("Keyword:protection:quality")
        return A.FIXED_QUALITIES[q.fixed]
    if q.mana_value is not None:
        return ("converted mana cost " if q.cmc else "mana value ") + str(q.mana_value)
    if q.words and all(is_object_word(w) for w in q.words):
        return " ".join(q.words)
    raise NotRendered("Keyword:protection:quality")


def _qualities(ql: A.QualityList) -> str:
    """The qualities of a protection keyword (CR 702.16a), each a fixed quality, closed-lexicon
    words or a mana value, joined by the separators Oracle uses ("from black and from red")."""
    if not ql.items or len(ql.seps) != len(ql.items) - 1:
        raise NotRendered("Keyword:protection:quality")
    out = _quality(ql.items[0])
    for sep, it in zip(ql.seps, ql.items[1:]):
        if sep not in _SEPARATORS:
            raise NotRendered("Keyword:protection:separator")
        out += (" " if not sep.startswith(",") else "") + sep + " " + _quality(it)
    return out


def _type_words(param) -> bool:
    """``param`` is a keyword's quality held as an Obj of closed-lexicon type words only."""
    from pipeline.parse.lexicon import type_words

    return (isinstance(param, A.Obj) and param.quantifier is None and not param.qualifiers
            and bool(param.words) and all(w in type_words() for w in param.words))


def _landwalk(kw: A.Keyword) -> str:
    """CR 702.14a: "[land type]walk", the land type held in ``param`` (an Obj's one word)."""
    from pipeline.parse.lexicon import type_words

    p = kw.param
    # the land type (CR 205.3i) as a closed-lexicon word of an Obj ("swampwalk" → ["swamp"])
    if isinstance(p, A.Obj) and p.quantifier is None and len(p.words) == 1 and p.words[0] in type_words():
        return p.words[0] + "walk"
    raise NotRendered("Keyword:landwalk")


_PT = re.compile(r"(\d+|X|\*)/(\d+|X|\*)")


def _pt(pt: str) -> str:
    """A printed power/toughness "2/2" (CR 208.1): two numbers, else not rendered."""
    if not _PT.fullmatch(pt):
        raise NotRendered("Keyword:pt")
    return pt
