"""The normalized card model every source is turned into.

One :class:`OracleCard` per Scryfall oracle_id (the identity of a card's Oracle text
across printings and languages), holding its card faces in printed order. Objects that
are not traditional Magic cards (tokens CR 111, emblems CR 114, art cards, planes CR 901,
schemes CR 904, vanguards CR 902, unknown layouts) become :class:`OtherObject` rows, kept
in their own table instead of ``cards`` (see :data:`GAME_LAYOUTS`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

# Layouts of traditional Magic cards (CR 108): these go to `cards`.  Every other layout
# (token, double_faced_token, emblem, art_series, planar, scheme, vanguard, and any layout
# a source adds later, e.g. Scryfall's `front_card`) goes to `other_objects`.
# `aftermath` is MTGJSON's name for the split-card variant Scryfall calls `split`.
GAME_LAYOUTS: frozenset[str] = frozenset(
    {
        "normal", "split", "aftermath", "flip", "transform", "modal_dfc", "meld",
        "leveler", "class", "case", "saga", "adventure", "mutate", "prototype",
        "host", "augment", "reversible_card", "battle",
    }
)

# Layouts whose faces are two sides of one double-faced card (CR 712).
DOUBLE_FACED_LAYOUTS: frozenset[str] = frozenset({"transform", "modal_dfc", "meld", "reversible_card"})

COLOR_ORDER = "WUBRGC"


def sort_colors(symbols) -> list[str]:
    """Return the distinct color/mana-type letters of ``symbols`` in WUBRGC order.

    ``symbols``: any iterable of single letters among W, U, B, R, G, C.
    Raises ValueError for any other letter.
    """
    letters = set(symbols)
    unknown = letters - set(COLOR_ORDER)
    if unknown:
        raise ValueError(f"not a color or mana type letter: {sorted(unknown)}")
    return [c for c in COLOR_ORDER if c in letters]


@dataclass
class Face:
    """One card face (CR 200.1 / 709 / 710 / 711 / 712): a single-faced card has one, at index 0."""

    face_index: int
    name: str
    mana_cost: str | None
    type_line: str | None
    oracle_text: str
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    defense: str | None = None
    colors: list[str] | None = None


@dataclass
class OracleCard:
    """One oracle card: the Oracle identity shared by every printing and language of a card.

    ``name`` is the full name (``"A // B"`` for multi-face cards); ``oracle_text`` joins
    the faces' texts with ``"\\n//\\n"``; ``mana_value`` is a float (CR 202.3);
    ``source_produced_mana`` is Scryfall's ``produced_mana`` where the source has it, else None.
    ``printings`` are ``(set_code, collector_number, lang)`` tuples, deduplicated.
    """

    oracle_id: str
    name: str
    layout: str
    mana_cost: str | None
    mana_value: float | None
    type_line: str | None
    colors: list[str]
    color_identity: list[str]
    keywords: list[str]
    faces: list[Face]
    source_produced_mana: list[str] | None = None
    printings: set[tuple[str, str, str]] = field(default_factory=set)

    @property
    def oracle_text(self) -> str:
        """The faces' Oracle texts joined with ``"\\n//\\n"`` (one face: its text)."""
        return "\n//\n".join(f.oracle_text for f in self.faces)


@dataclass
class OtherObject:
    """A non-traditional-card object (token, emblem, art card, plane, scheme, vanguard, unknown layout).

    ``rulings``: its rulings where the source embeds them (MTGJSON), kept in the ``rulings`` table.
    """

    oracle_id: str | None
    name: str
    layout: str
    type_line: str | None
    oracle_text: str
    rulings: list["Ruling"] = field(default_factory=list)


@dataclass
class Ruling:
    """One ruling: ``source`` is ``"wotc"`` or ``"scryfall"``; ``published_at`` a date."""

    oracle_id: str
    source: str
    published_at: date
    comment: str


@dataclass
class SourceInfo:
    """What a refresh read: ``kind`` (e.g. ``"mtgjson"``, ``"scryfall"``), ``version`` (the source's own), files."""

    kind: str
    version: str
    files: list[str] = field(default_factory=list)
