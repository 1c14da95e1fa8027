"""Renderers of ability bodies (``grammar/abilities.lark``): activated (CR 602), static
(CR 604) and spell (CR 608.2) bodies, modal (CR 700.2), chapter (CR 714), class level (CR 716),
station striations (CR 721.2), Unfinity stickers (CR 123.1) and spree modes (CR 702.172)."""

from __future__ import annotations

import re

from pipeline.parse import ast as A
from pipeline.parse.render import NotRendered, cap, render, render_ability, renders

_PT = re.compile(r"[+-]?(\d+|X|\*)/[+-]?(\d+|X|\*)")


def effects(nodes: list[A.Node]) -> str:
    if not nodes:
        raise NotRendered("effect:empty")
    return " ".join(render(n) for n in nodes)


@renders(A.Activated)
def render_activated(a: A.Activated, **_) -> str:
    """"[Cost]: [Effect.] [Activate only …]" (CR 602.1)."""
    out = f"{render(a.cost)}: {cap(effects(a.effect))}"
    for r in a.restrictions:
        out += " " + render(r)
    return out


@renders(A.Static)
def render_static(s: A.Static, **_) -> str:
    """A static ability's or spell's sentences; a die-roll table row "1—9 | [effect]" (CR 706.2)."""
    if (len(s.effect) == 1 and isinstance(s.effect[0], A.Sentence)
            and isinstance(s.effect[0].condition, A.DieResult)):
        row = s.effect[0]
        if row.optional or getattr(row, "joins", []):
            raise NotRendered("Static:die_result")
        r = row.condition
        head = str(r.low) if r.low == r.high else f"{r.low}—{r.high}"
        return f"{head} | " + effects(row.effects)
    return effects(s.effect)


@renders(A.ClassLevel)
def render_class_level(c: A.ClassLevel, **_) -> str:
    return f"{render(c.cost)}: Level {c.level}"  # CR 716.2a


@renders(A.LevelBlock)
def render_level_block(b: A.LevelBlock, **_) -> str:
    """"LEVEL 2-3" / "LEVEL 4+", the P/T box, then each ability of the striation on its own line
    (CR 711.2a–b: the level symbol's range, base P/T and abilities)."""
    if b.high is not None and b.high < b.low:
        raise NotRendered("LevelBlock:range")
    lines = [f"LEVEL {b.low}-{b.high}" if b.high is not None else f"LEVEL {b.low}+"]
    if b.pt is not None:
        if not _PT.fullmatch(b.pt):
            raise NotRendered("LevelBlock:pt")
        lines.append(b.pt)
    for ab in b.abilities:
        if not isinstance(ab, A.Ability):
            raise NotRendered("LevelBlock:ability")
        lines.append(render_ability(ab))
    return "\n".join(lines)


@renders(A.StationLevel)
def render_station_level(b: A.StationLevel, **_) -> str:
    """"7+ | Flying" (CR 721.2: the station symbol {N+}, then the striation's ability)."""
    if b.threshold < 1:
        raise NotRendered("StationLevel:threshold")
    return f"{b.threshold}+ | {cap(render(b.body))}"


@renders(A.Sticker)
def render_sticker(s: A.Sticker, **_) -> str:
    """"{TK}{TK} — Deathtouch", "{TK}{TK}{TK} — 3/6" (CR 123.1 ability and power/toughness
    stickers; the ticket cost in {TK} symbols, CR 107.17a, 123.3c)."""
    if s.tickets < 1 or (s.pt is None) == (s.body is None):
        raise NotRendered("Sticker")
    if s.pt is not None and not _PT.fullmatch(s.pt):
        raise NotRendered("Sticker:pt")
    return "{TK}" * s.tickets + " — " + (s.pt if s.pt is not None else cap(render(s.body)))


@renders(A.SpreeMode)
def render_spree_mode(s: A.SpreeMode, **_) -> str:
    """"+ {1} — [effect]" (CR 702.172a–b: a spree mode after its plus sign and additional cost)."""
    if not isinstance(s.cost, A.Cost) or not all(isinstance(c, A.ManaCost) for c in s.cost.components):
        raise NotRendered("SpreeMode:cost")
    return f"+ {render(s.cost)} — {cap(effects(s.effect))}"


@renders(A.Chapter)
def render_chapter(c: A.Chapter, **_) -> str:
    """"I, II — [effect]" (CR 714.2b: roman numerals)."""
    if not c.chapters:
        raise NotRendered("Chapter:none")
    return ", ".join(_roman(n) for n in c.chapters) + " — " + effects(c.effect)


def _roman(n: int) -> str:
    vals = ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))
    out = ""
    for v, s in vals:
        while n >= v:
            out += s
            n -= v
    return out


_COUNTS = ("zero", "one", "two", "three", "four", "five")


def choose_words(c: A.ChooseCount) -> str:
    """"one", "one or both", "one or more", "any number", "up to two" (CR 700.2)."""
    if c.low == c.high and 1 <= c.low < len(_COUNTS):
        return _COUNTS[c.low]
    if (c.low, c.high) == (1, 2):
        return "one or both"
    if (c.low, c.high) == (1, None):
        return "one or more"
    if (c.low, c.high) == (0, None):
        return "any number"
    if c.low == 0 and c.high is not None and 1 <= c.high < len(_COUNTS):
        return "up to " + _COUNTS[c.high]
    raise NotRendered("ChooseCount")


@renders(A.Modal)
def render_modal(m: A.Modal, **_) -> str:
    """"Choose one —" then each mode after a bullet (CR 700.2); "An opponent chooses one —"
    (CR 700.2e); "Choose three. You may choose the same mode more than once." (CR 700.2d)."""
    if m.head is not None or not isinstance(m.choose, A.ChooseCount) or len(m.modes) < 2:
        raise NotRendered("Modal")
    c = m.choose
    if c.chooser not in (None, "opponent"):
        raise NotRendered("Modal:chooser")
    out = ("An opponent chooses " if c.chooser == "opponent" else "Choose ") + choose_words(c)
    if c.unchosen is not None:  # "Choose one that hasn't been chosen [this turn] —"
        if c.unchosen not in ("game", "turn") or c.same_mode or c.upgrade is not None:
            raise NotRendered("Modal:unchosen")
        out += " that hasn't been chosen" + (" this turn" if c.unchosen == "turn" else "")
    if c.upgrade is not None:  # "Choose one. If …, you may choose both instead." (no dash)
        up = c.upgrade
        if c.same_mode or not isinstance(up, A.ChooseCount) or c.upgrade_condition is None:
            raise NotRendered("Modal:upgrade")
        both = up.low == up.high == len(m.modes) == 2
        words = "both" if both else choose_words(up)
        may = "you may " if c.upgrade_optional else ""
        out += f". If {render(c.upgrade_condition)}, {may}choose {words} instead."
    # CR 700.2d: "Choose three. You may choose the same mode more than once." (no dash)
    elif c.same_mode:
        out += ". You may choose the same mode more than once."
    else:
        out += " —"
    for mode in m.modes:
        out += "\n• " + effects(mode)
    return out
