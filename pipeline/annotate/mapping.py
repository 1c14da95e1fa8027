"""The feature → rule mapping, kept as data in ``data/rule_features.csv``.

CSV columns: ``feature`` (a name :mod:`pipeline.annotate.features` emits), ``rule``
(a CR number, or ``@keyword``: the CR 701/702 rule whose title is the feature's detail,
e.g. keyword ``Flying`` → 702.9), ``reason`` (why the rule governs a card with that
feature). A feature may have several rows (``mana_ability`` → 605 and 106).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from pipeline.paths import DATA_DIR
from pipeline.sources.comprehensive_rules import is_rule_number

RULE_FEATURES_FILE = DATA_DIR / "rule_features.csv"
KEYWORD_RULE = "@keyword"


class MappingError(ValueError):
    """The mapping file is malformed; the message names the file, line and field."""


@dataclass(frozen=True)
class MappingRow:
    """One mapping row: ``feature`` → ``rule`` (a CR number or ``@keyword``), with ``reason``."""

    feature: str
    rule: str
    reason: str


def load_mapping(path: str | Path = RULE_FEATURES_FILE) -> dict[str, list[MappingRow]]:
    """Read the mapping CSV into ``{feature: [MappingRow, …]}`` (file order kept).

    Raises :class:`MappingError` for a missing column, an empty field or a rule that is
    neither a CR number nor ``@keyword``.
    """
    path = Path(path)
    out: dict[str, list[MappingRow]] = {}
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        missing = {"feature", "rule", "reason"} - set(reader.fieldnames or [])
        if missing:
            raise MappingError(f"{path}: missing column(s) {sorted(missing)}")
        for lineno, row in enumerate(reader, start=2):
            feature, rule, reason = ((row.get(k, "") or "").strip() for k in ("feature", "rule", "reason"))
            if not feature or not rule or not reason:
                raise MappingError(f"{path}: line {lineno}: empty feature, rule or reason")
            if rule != KEYWORD_RULE and not is_rule_number(rule):
                raise MappingError(f"{path}: line {lineno}: field rule: {rule!r} is not a CR number")
            out.setdefault(feature, []).append(MappingRow(feature, rule, reason))
    return out


def keyword_rule_index(rules: list[tuple[str, str | None]]) -> dict[str, str]:
    """Map lower-cased titles of CR 701.x / 702.x rules to their numbers, from
    ``(rule, title)`` pairs (``("702.9", "Flying")`` → ``{"flying": "702.9"}``)."""
    index: dict[str, str] = {}
    for rule, title in rules:
        if title and rule.count(".") == 1 and rule.split(".")[0] in ("701", "702") and rule[-1].isdigit():
            index.setdefault(title.lower(), rule)
    return index


def keyword_ability_kind(rule_a_text: str) -> str | None:
    """``"activated"`` or ``"triggered"`` when the first sentence of a keyword's CR 702.xa
    text says so (``"Equip is an activated ability of Equipment cards."``), else ``None``."""
    first = (rule_a_text or "").split(". ")[0].lower()
    if "triggered abilit" in first:
        return "triggered"
    if "activated abilit" in first:
        return "activated"
    return None
