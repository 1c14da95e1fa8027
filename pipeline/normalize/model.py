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
    ``printings`` maps ``(set_code, collector_number, lang)`` to that :class:`Printing`
    (iterating it gives the key tuples); ``leadership``: MTGJSON ``leadershipSkills``
    (``{"brawl", "commander", "oathbreaker"}`` → bool) when the source has that field, else None.
    ``source_produced_mana_at``: ``(source file, record label)`` the produced_mana was read from,
    so a bad value in it can be reported in ``data_quality`` (pipeline/derive/quality.py).
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
    source_produced_mana_at: tuple[str, str] | None = None
    printings: dict[tuple[str, str, str], "Printing"] = field(default_factory=dict)
    leadership: dict[str, bool] | None = None
    is_meld_result: bool = False

    @property
    def oracle_text(self) -> str:
        """The faces' Oracle texts joined with ``"\\n//\\n"`` (one face: its text)."""
        return "\n//\n".join(f.oracle_text for f in self.faces)


#: Scryfall's legality values, also the normalized ``legalities.status`` (formats are tournament rules, CR 100.6).
LEGALITY_STATUSES: frozenset[str] = frozenset({"legal", "not_legal", "banned", "restricted"})


def normalize_legality(value: str) -> str:
    """Map a source's legality value to Scryfall's spelling: ``'Legal'`` → ``'legal'``, ``'Not Legal'`` → ``'not_legal'``.

    Raises ValueError for a value that is none of legal / not legal / banned / restricted.
    """
    status = value.strip().lower().replace(" ", "_")
    if status not in LEGALITY_STATUSES:
        raise ValueError(f"unknown legality {value!r}")
    return status


@dataclass(slots=True)
class Printing:
    """One printing of a card: one (set, collector number, language), every face of it.

    Field values are the source's, NULL (None) where the source lacks them. ``released_at``: the
    printing's date (Scryfall ``released_at``; MTGJSON ``originalReleaseDate``, else the set's
    ``releaseDate``); ``games``: where it exists (Scryfall ``games``, MTGJSON ``availability``:
    paper, arena, mtgo, …); ``image_uris``: one dict per face that has images (Scryfall
    ``image_uris`` / ``card_faces[].image_uris``; MTGJSON has none); ``prices``: Scryfall
    ``prices`` (``usd``, ``usd_foil``, ``eur``, ``tix`` as decimal strings); ``legalities``:
    format → the source's own status spelling; ``foreign_names``: (language code, printed name)
    of translations the record lists (MTGJSON ``foreignData``); ``is_funny``: MTGJSON
    ``isFunny``, Scryfall set type ``funny`` or a silver border (Un-sets, playtest, acorn).
    """

    set_code: str
    collector_number: str
    lang: str
    set_name: str | None = None
    set_type: str | None = None
    released_at: date | None = None
    rarity: str | None = None
    artist: str | None = None
    printed_name: str | None = None
    games: list[str] | None = None
    digital: bool | None = None
    promo: bool | None = None
    frame: str | None = None
    border_color: str | None = None
    full_art: bool | None = None
    scryfall_id: str | None = None
    multiverse_ids: list[int] | None = None
    mtgo_id: int | None = None
    arena_id: int | None = None
    tcgplayer_id: int | None = None
    cardmarket_id: int | None = None
    mtgjson_uuid: str | None = None
    image_uris: list[dict] | None = None
    prices: dict[str, str | None] | None = None
    legalities: dict[str, str] | None = None
    foreign_names: list[tuple[str, str]] = field(default_factory=list)
    is_funny: bool | None = None
    reserved: bool | None = None
    edhrec_rank: int | None = None

    @property
    def key(self) -> tuple[str, str, str]:
        """``(set_code, collector_number, lang)``: what identifies the printing within a card."""
        return (self.set_code, self.collector_number, self.lang)

    def merge_face(self, other: "Printing") -> None:
        """Fold in another face record of the same printing (MTGJSON: one record per face).

        Multiverse ids and foreign names are united, artists joined with ' & ' (Scryfall's
        spelling for several artists), fields this record lacks are taken from ``other``.
        """
        for name in self.__slots__:
            if name in ("multiverse_ids", "foreign_names", "artist"):
                continue
            if getattr(self, name) is None and getattr(other, name) is not None:
                setattr(self, name, getattr(other, name))
        if other.multiverse_ids:
            ids = list(self.multiverse_ids or [])
            self.multiverse_ids = ids + [i for i in other.multiverse_ids if i not in ids]
        for pair in other.foreign_names:
            if pair not in self.foreign_names:
                self.foreign_names.append(pair)
        if other.artist and other.artist not in (self.artist or "").split(" & "):
            self.artist = f"{self.artist} & {other.artist}" if self.artist else other.artist


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
