"""Renderers of keyword abilities (``grammar/keywords.lark``, CR 702): :class:`KeywordLine`,
:class:`Keyword`. Names must be keywords of the CR (:func:`pipeline.parse.lexicon.is_keyword`)."""

from __future__ import annotations

from pipeline.parse import ast as A
import re

from pipeline.parse.lexicon import is_keyword, is_object_word
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
    if not is_keyword(name.removesuffix(" from")):  # "hexproof from" (CR 702.11d)
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
        elif name == "splice" and type(kw.param) is A.Text and _type_words(kw.param.text):
            # "Splice onto Arcane {2}{B}" / "Splice onto Arcane—Sacrifice two Mountains." (CR 702.47a)
            out = "splice onto " + kw.param.text.lower()
        elif name == "offering" and type(kw.param) is A.Text and _type_words(kw.param.text, "offering"):
            return kw.param.text.lower()  # "Artifact offering" (CR 702.48a: [quality] offering)
        elif name in ("protection", "hexproof from") and type(kw.param) is A.Text:
            out = ("protection from " if name == "protection" else "hexproof from ") + _qualities(kw.param.text)
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
_FIXED_QUALITIES = ("everything", "all colors", "each color", "the color of your choice", "the chosen color",
                    "the chosen player", "monocolored", "multicolored", "colorless")
_QUALITY_SEPS = re.compile(r", and from |, from | and from |, and | and |, ")


def _qualities(text: str) -> str:
    """The qualities of a protection keyword, from the words the grammar's ``prot_list`` matched:
    each quality must be a fixed wording or closed-lexicon words (colors, types), so the span
    holds nothing but lexicon words and separators (written back in the Oracle form)."""
    items = _QUALITY_SEPS.split(text.lower())
    seps = _QUALITY_SEPS.findall(text.lower())
    for it in items:
        if it not in _FIXED_QUALITIES and not (it and all(is_object_word(w) for w in it.split())):
            raise NotRendered("Keyword:protection:quality")
    out = items[0]
    for sep, it in zip(seps, items[1:]):
        if sep not in (" and from ", ", from ", ", and from "):
            raise NotRendered("Keyword:protection:separator")
        out += sep + it
    return out


def _type_words(text: str, last: str | None = None) -> bool:
    """``text`` (a keyword's parameter as the grammar matched it) is closed-lexicon type words
    only, ending with ``last`` when given: it can be written back like an enum."""
    from pipeline.parse.lexicon import type_words

    words = text.lower().split()
    if last is not None:
        if not words or words[-1] != last:
            return False
        words = words[:-1]
    return bool(words) and all(w in type_words() for w in words)


def _landwalk(kw: A.Keyword) -> str:
    """CR 702.14: "[land type]walk"; the param is the one word the grammar's WALKWORD matched."""
    from pipeline.parse.lexicon import type_words

    p = kw.param
    word = p.text if isinstance(p, A.Text) else None
    # the lexer matched one closed word ("forestwalk"); anything longer is free text
    if word and " " not in word and word.endswith("walk") and word[:-4] in type_words():
        return word
    raise NotRendered("Keyword:landwalk")
