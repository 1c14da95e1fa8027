"""Ability lines already parsed in this process, so that a line repeated across faces is parsed once.

Of the 40,542 ability lines of the MTGJSON 2022 faces only 24,636 are distinct once normalised
("Flying" 1,779 times, "Enchant creature" 774, "{T}: Add {C}." 313): the self-name is already
``~`` (pipeline/parse/normalize.py), and the :class:`~pipeline.parse.ast.Ability` of a line is a
function of its normalised text and of whether the face is an instant or sorcery (``kind``
"spell" instead of "static", pipeline/parse/parser.py) alone; its ``index`` and original ``text``
are set per face. A line is kept from its second sighting on, so lines seen once (most of them)
cost only their key.
"""

from __future__ import annotations

#: At most this many abilities are kept (≈ 5 KB each with their AST); later repeated lines are parsed again.
MAX_KEPT = 20_000


class LineMemo:
    """``key → Ability`` for lines seen at least twice (module docstring).

    ``key``: (normalised line, instant-or-sorcery face). The abilities handed out share their AST
    nodes with the kept one: whoever uses a memo treats the ASTs as read-only. ``hits`` counts the
    lines answered from the memo."""

    def __init__(self, max_kept: int = MAX_KEPT):
        self.max_kept = max_kept
        self.seen: set[tuple[str, bool]] = set()
        self.kept: dict[tuple[str, bool], object] = {}
        self.hits = 0

    def get(self, key: tuple[str, bool]):
        """The kept Ability of ``key``, or None."""
        ability = self.kept.get(key)
        if ability is not None:
            self.hits += 1
        return ability

    def put(self, key: tuple[str, bool], ability) -> None:
        """Remember that ``key`` was parsed to ``ability``; keep it when ``key`` was seen before."""
        if key in self.seen:
            if len(self.kept) < self.max_kept:
                self.kept[key] = ability
        else:
            self.seen.add(key)
