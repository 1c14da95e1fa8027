"""Source values the derive stage cannot take as the source meant them (``data_quality`` rows).

Scryfall's ``produced_mana`` is a list of mana-type letters (W U B R G C, CR 106.1a/b); a
value that is none of them (Scryfall once shipped ``"1"``) is dropped from
``cards.source_produced_mana`` and recorded in ``data_quality`` with action ``ignored``
(pipeline/store/data_quality.py), so one bad value never makes ``check-mana`` fail as a whole.
"""

from __future__ import annotations

from pipeline.derive.mana import MANA_TYPES
from pipeline.normalize.model import OracleCard
from pipeline.store.data_quality import DataQualityIssue

#: The ``data_quality.field`` prefix of a produced_mana value (``produced_mana[3]``).
PRODUCED_MANA_FIELD = "produced_mana"


def source_produced_mana(card: OracleCard) -> tuple[list[str] | None, list[DataQualityIssue]]:
    """``(values kept, issues)`` for the card's source ``produced_mana``.

    Kept: the values that are mana-type letters, in source order (None when the source has no
    ``produced_mana``). One :class:`DataQualityIssue` (field ``produced_mana[i]``, action
    "ignored", source file and record from ``card.source_produced_mana_at``) per other value."""
    values = card.source_produced_mana
    if values is None:
        return None, []
    where = card.source_produced_mana_at or (None, None)
    kept, issues = [], []
    for i, v in enumerate(values):
        if isinstance(v, str) and v in MANA_TYPES:
            kept.append(v)
        else:
            issues.append(DataQualityIssue(source_file=where[0], record=where[1], oracle_id=card.oracle_id,
                                           field=f"{PRODUCED_MANA_FIELD}[{i}]", value=v, action="ignored"))
    return kept, issues
