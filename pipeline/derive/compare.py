"""Compare our produced mana with a reference (Scryfall's ``produced_mana``, a peer parser).

:func:`classify` names the reason a card's sets differ, from what the derive stage knows
about the card; used by ``mtg-pipeline check-mana`` and benchmarks/compare_phase_mana.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pipeline.derive.mana import sort_types

#: Reason categories, most specific first (docs/mana.md § Disagreements).
CATEGORIES = {
    "source_value": "the source's produced_mana holds a value that is no mana type (recorded in data_quality, "
                    "dropped from source_produced_mana); the rest is compared as usual",
    "unparsed_mana_line": "an ability that mentions adding mana is not (fully) parsed by our grammar",
    "unstructured_production": "an 'Add …' the AST keeps only as wording (production kind 'other')",
    "granted_mana": "the reference counts mana the card grants to other objects (ours: granted_produced_mana)",
    "token_mana": "the reference counts mana of tokens the card creates (ours: token_produced_mana)",
    "colorless_breadth": "the sets differ only in C on an 'any type'/'could produce'/dependent ability (CR 106.7)",
    "dependent_breadth": "a dependent ability: we give the widest set the wording allows (CR 106.7), the reference a narrower one",
    "basic_land_type": "the difference is a basic land type's intrinsic ability (CR 305.6)",
    "reference_missing": "the reference lists no mana for a card whose own abilities add mana",
    "reference_extra": "the reference lists types none of the card's own abilities can add",
    "ours_extra": "we list types the reference does not, no better reason known",
    "other": "anything else",
}

_REMINDER = re.compile(r"\([^()]*\)")
_ADDS = re.compile(r"\badds?\b", re.I)


def mentions_adding_mana(text: str) -> bool:
    """True when an ability line, without its reminder text (CR 207.2a), says "add"/"adds".

    Used only to name the reason of a difference (an unparsed line that may add mana), never
    to decide what a card produces."""
    return bool(_ADDS.search(_REMINDER.sub("", text or "")))


@dataclass
class CardView:
    """What :func:`classify` needs about one card (all mana lists WUBRGC letters).

    produced/dependent/token/granted/basic_types as in :class:`pipeline.derive.mana.FaceMana`;
    kinds: production kinds of its mana rows; unparsed_mana_lines: texts of abilities that are
    not fully parsed and mention adding mana."""
    produced: list[str]
    dependent: bool = False
    token: list[str] = field(default_factory=list)
    granted: list[str] = field(default_factory=list)
    basic_types: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    unparsed_mana_lines: list[str] = field(default_factory=list)


def normalize_reference(types) -> list[str]:
    """A reference list (any order, maybe None) → WUBRGC letters. Raises ValueError for a
    letter that is no mana type."""
    return sort_types(types or [])


def classify(card: CardView, reference: list[str]) -> str | None:
    """Reason category (a key of :data:`CATEGORIES`) why ``card.produced`` differs from
    ``reference``; None when they are equal as sets."""
    ours, ref = set(card.produced), set(reference)
    if ours == ref:
        return None
    missing, extra = ref - ours, ours - ref          # missing: reference has, we don't
    if card.unparsed_mana_lines and missing:
        return "unparsed_mana_line"
    if "other" in card.kinds:
        return "unstructured_production"
    if missing and missing <= set(card.granted):
        return "granted_mana"
    if missing and missing <= set(card.token):
        return "token_mana"
    broad = {"any_type", "could_produce", "dependent", "commander_identity"} & set(card.kinds)
    if (missing | extra) == {"C"} and (broad or card.dependent):
        return "colorless_breadth"
    if card.dependent and not missing:
        return "dependent_breadth"
    if (missing or extra) and (missing | extra) <= set(card.basic_types):
        return "basic_land_type"
    if not ref and ours:
        return "reference_missing"
    if missing and not extra:
        return "unparsed_mana_line" if card.unparsed_mana_lines else "reference_extra"
    if extra and not missing:
        return "ours_extra"
    return "other"

