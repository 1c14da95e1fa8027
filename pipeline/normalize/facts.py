"""Card-level facts drawn from a card's printings: first release, legalities, names, commander, flags.

Each function reads one :class:`OracleCard` (its ``printings``, faces and MTGJSON
``leadership``) and returns plain values for the ``cards``, ``legalities`` and ``card_names``
tables. Where printings disagree, the newest printing wins (:func:`newest_printing`).
"""

from __future__ import annotations

import re
from datetime import date
from typing import NamedTuple

from pipeline.normalize.model import OracleCard, Printing, normalize_legality


class CardFacts(NamedTuple):
    """The ``cards`` columns after ``source_produced_mana``, in table order (see pipeline/store/schema.py)."""

    first_released_at: date | None
    first_set_code: str | None
    reserved: bool | None
    edhrec_rank: int | None
    is_digital_only: bool | None
    is_funny: bool | None
    can_be_commander: bool | None
    can_be_brawl_commander: bool | None
    can_be_oathbreaker: bool | None


def _age_key(p: Printing) -> tuple:
    """Sort key, oldest first: release date (unknown first), then set code, number, language."""
    return (p.released_at or date.min, p.set_code, p.collector_number, p.lang)


def newest_printing(card: OracleCard, having: str | None = None) -> Printing | None:
    """The card's newest printing (latest ``released_at``; ties: largest set code, number, language).

    ``having``: consider only printings whose attribute of that name is not None. None when none qualifies.
    """
    pool = [p for p in card.printings.values() if having is None or getattr(p, having) is not None]
    return max(pool, key=_age_key) if pool else None


# CR 903.3: "Each deck has a legendary card designated as its commander. That card must be either
# (a) a creature card, (b) a Vehicle card, or (c) a Spacecraft card with one or more
# power/toughness boxes."  CR 903.3a: "Some cards have an ability that states the card can be
# your commander."
_LEGENDARY = re.compile(r"\bLegendary\b")
_CREATURE_OR_VEHICLE = re.compile(r"\b(Creature|Vehicle)\b")
_SPACECRAFT = re.compile(r"\bSpacecraft\b")
_CAN_BE_COMMANDER = re.compile(r"can be your commander", re.IGNORECASE)


def commander_by_rule(card: OracleCard) -> bool:
    """Whether ``card`` can be your commander by CR 903.3 / 903.3a, read from its front face and text.

    The combined back face of a meld pair (``card.is_meld_result``) is no card of a deck: outside
    the battlefield a meld card has only its front face's characteristics (CR 712.4, 712.8a).
    """
    if card.is_meld_result:
        return False
    front = card.faces[0] if card.faces else None
    type_line = (front.type_line or "") if front else ""
    if _LEGENDARY.search(type_line):
        if _CREATURE_OR_VEHICLE.search(type_line):
            return True
        if _SPACECRAFT.search(type_line) and front.power is not None:
            return True
    return any(_CAN_BE_COMMANDER.search(f.oracle_text or "") for f in card.faces)


def card_facts(card: OracleCard) -> CardFacts:
    """The card-level facts of ``card`` (see :class:`CardFacts` and the ``cards`` column comments).

    First release: the oldest printing with a date. Reserved: any printing. EDHREC rank: newest
    printing that has one. Digital only: no printing lists 'paper' in its games (NULL when no
    printing lists games). Funny: every printing is. Commander: MTGJSON ``leadershipSkills`` when
    the source has them, else :func:`commander_by_rule` (brawl and oathbreaker then NULL).
    """
    printings = list(card.printings.values())
    dated = [p for p in printings if p.released_at is not None]
    first = min(dated, key=_age_key) if dated else None
    reserved = [p.reserved for p in printings if p.reserved is not None]
    ranked = newest_printing(card, "edhrec_rank")
    games = [p.games for p in printings if p.games is not None]
    funny = [p.is_funny for p in printings if p.is_funny is not None]
    if card.leadership is not None:
        skills = card.leadership
        commander = (bool(skills.get("commander")), bool(skills.get("brawl")), bool(skills.get("oathbreaker")))
    else:
        commander = (commander_by_rule(card), None, None)
    return CardFacts(
        first.released_at if first else None,
        first.set_code if first else None,
        any(reserved) if reserved else None,
        ranked.edhrec_rank if ranked else None,
        not any("paper" in g for g in games) if games else None,
        all(funny) if funny else None,
        *commander,
    )


def legality_rows(card: OracleCard) -> list[tuple[str, str, str, str]]:
    """``(oracle_id, format, status, source_status)`` from the newest printing that lists legalities.

    ``status`` is :func:`normalize_legality` of the source's value; formats in the source's order.
    """
    newest = newest_printing(card, "legalities")
    if newest is None:
        return []
    return [(card.oracle_id, fmt, normalize_legality(value), value) for fmt, value in newest.legalities.items()]


def _with_face_names(name: str) -> list[str]:
    parts = [p for p in name.split(" // ") if p]
    return [name] + (parts if len(parts) > 1 else [])


def card_name_rows(card: OracleCard) -> list[tuple[str, str, str]]:
    """``(oracle_id, lang, name)``: the English card and face names, then every printed and translated name.

    A name 'A // B' also gives 'A' and 'B'. Deduplicated, first-seen order (printings in source order).
    """
    names: dict[tuple[str, str], None] = {}
    for name in _with_face_names(card.name) + [f.name for f in card.faces]:
        names[("en", name)] = None
    for p in card.printings.values():
        pairs = ([(p.lang, p.printed_name)] if p.printed_name else []) + p.foreign_names
        for lang, printed in pairs:
            for name in _with_face_names(printed):
                names[(lang, name)] = None
    return [(card.oracle_id, lang, name) for lang, name in names]
