"""Rulings ↔ Comprehensive Rules ↔ abilities: the annotation tables (docs/annotate.md).

:func:`annotate` adds to a database that already holds ``cards``, ``faces``,
``abilities`` and ``rulings``:

``rules``             every CR section, rule and subrule (CR text parsed by
                      :mod:`pipeline.sources.comprehensive_rules`)
``glossary``          the CR glossary
``ruling_rule_refs``  CR numbers a ruling cites (:mod:`pipeline.annotate.citations`)
``inferred_rules``    rules a card's features bring in (:mod:`pipeline.annotate.features`
                      + ``data/rule_features.csv``), each naming its feature
``card_rules``        view: cited ∪ inferred, per card
``ruling_abilities``  the ability a ruling talks about (:mod:`pipeline.annotate.ruling_links`)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb

from pipeline.annotate.citations import extract_citations
from pipeline.annotate.features import Feature, card_features
from pipeline.annotate.mapping import (
    KEYWORD_RULE,
    RULE_FEATURES_FILE,
    keyword_ability_kind,
    keyword_rule_index,
    load_mapping,
)
from pipeline.annotate.ruling_links import link_ruling
from pipeline.sources.comprehensive_rules import parse_comprehensive_rules
from pipeline.store.ddl import comment_relation, create_table, insert_rows

__all__ = ["annotate", "ANNOTATION_TABLES"]

# table → (comment, [(column, type, comment)])
ANNOTATION_TABLES: dict[str, tuple[str, list[tuple[str, str, str]]]] = {
    "rules": ("Every numbered section, rule and subrule of the Comprehensive Rules.", [
        ("rule", "VARCHAR PRIMARY KEY", "CR number as printed, no trailing period: '1', '107', '107.3', '107.3i'."),
        ("parent", "VARCHAR", "Enclosing number (107.3i → 107.3 → 107 → 1); NULL for a section."),
        ("section", "VARCHAR", "Section digit '1'..'9'."),
        ("title", "VARCHAR", "Heading of a section/rule, or of a numbered rule that is only a heading (702.19 'Trample'); else NULL."),
        ("text", "VARCHAR", "Full rule text; 'Example:' lines follow the rule text after a newline."),
        ("effective_date", "DATE", "Effective date of the CR edition the row comes from."),
        ("position", "INTEGER", "0-based order in the CR document."),
    ]),
    "glossary": ("The Comprehensive Rules glossary.", [
        ("term", "VARCHAR", "Glossary term."),
        ("text", "VARCHAR", "Definition (several numbered senses are separate lines)."),
    ]),
    "ruling_rule_refs": ("CR numbers a ruling cites explicitly ('rule 107.3i', '(704.5a)', 'rules 702.19a–c').", [
        ("ruling_id", "VARCHAR", "The ruling (rulings.ruling_id)."),
        ("rule", "VARCHAR", "Cited CR number (a range is expanded to every number in it)."),
        ("how", "VARCHAR", "Always 'cited'."),
        ("resolved", "BOOLEAN", "True when `rule` exists in the `rules` table (the CR edition loaded)."),
        ("written", "VARCHAR", "The reference as written in the ruling ('702.19a–c')."),
    ]),
    "inferred_rules": ("Rules that govern a card because of one of its features (data/rule_features.csv).", [
        ("oracle_id", "VARCHAR", "The card (cards.oracle_id)."),
        ("rule", "VARCHAR", "CR number."),
        ("feature", "VARCHAR", "Feature that caused the row (tap_cost, keyword, aura, …)."),
        ("ability_id", "VARCHAR", "Ability the feature was found in; NULL for card-level features (type line, layout, mana cost)."),
        ("reason", "VARCHAR", "Feature name, its detail and why the rule applies."),
    ]),
    "ruling_abilities": ("The ability a ruling talks about (no row when unsure).", [
        ("ruling_id", "VARCHAR", "The ruling (rulings.ruling_id)."),
        ("ability_id", "VARCHAR", "The ability (abilities.ability_id)."),
        ("method", "VARCHAR", "How the link was found: quoted, keyword, cost, topic or words (docs/annotate.md)."),
    ]),
}

CARD_RULES_VIEW = """
CREATE VIEW card_rules AS
SELECT r.oracle_id, x.rule, 'cited' AS how,
       'cited by ruling ' || x.ruling_id || ' (' || x.written || ')'
         || CASE WHEN x.resolved THEN '' ELSE ' — not in the loaded CR' END AS reason
FROM ruling_rule_refs x JOIN rulings r USING (ruling_id)
UNION ALL
SELECT oracle_id, rule, 'inferred' AS how, reason FROM inferred_rules
"""

CARD_RULES_COLUMNS = {
    "oracle_id": "The card (cards.oracle_id).",
    "rule": "CR number (rules.rule) that governs the card.",
    "how": "'cited' (a ruling of the card cites the rule, ruling_rule_refs) or 'inferred' (from a feature, inferred_rules).",
    "reason": "Why: 'cited by ruling <ruling_id> (<rule as written>)', with ' — not in the loaded CR' when the cited "
              "number is not in rules; for inferred rows inferred_rules.reason.",
}


def _rows(con: duckdb.DuckDBPyConnection, sql: str) -> list[dict[str, Any]]:
    cur = con.execute(sql)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, row)) for row in cur.fetchall()]


def _columns(con: duckdb.DuckDBPyConnection, table: str) -> set[str]:
    return {r[0] for r in con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = ?", [table]).fetchall()}


def _create(con: duckdb.DuckDBPyConnection) -> None:
    con.execute("DROP VIEW IF EXISTS card_rules")
    for table, (comment, columns) in ANNOTATION_TABLES.items():
        create_table(con, table, comment, columns, replace=True)
    con.execute(CARD_RULES_VIEW)
    comment_relation(con, "card_rules", "Rules per card: cited by its rulings ∪ inferred from its features "
                     "(how = 'cited'|'inferred').", CARD_RULES_COLUMNS, kind="VIEW")


def _insert(con: duckdb.DuckDBPyConnection, table: str, rows: list[tuple]) -> None:
    """Insert ``rows`` (tuples in column order) into ``table`` in one statement."""
    insert_rows(con, table, [n for n, _, _ in ANNOTATION_TABLES[table][1]], rows)


def annotate(con: duckdb.DuckDBPyConnection, rules_text: str,
             mapping_file: str | Path = RULE_FEATURES_FILE) -> dict[str, int]:
    """Create and fill rules, glossary, ruling_rule_refs, inferred_rules, card_rules (a view)
    and ruling_abilities in the open database ``con``, which already holds cards, faces,
    abilities and rulings (docs/schema.md). Existing annotation tables are replaced.

    ``rules_text``: the CR text (any line endings, BOM allowed). Returns row counts per
    table (``card_rules`` counted through the view). Raises
    :class:`~pipeline.sources.comprehensive_rules.RulesFormatError` for unreadable rules
    text and :class:`~pipeline.annotate.mapping.MappingError` for a bad mapping file.
    """
    cr = parse_comprehensive_rules(rules_text)
    mapping = load_mapping(mapping_file)
    _create(con)

    _insert(con, "rules",
            [(r.rule, r.parent, r.section, r.title, r.text, cr.effective_date, r.position) for r in cr.rules])
    _insert(con, "glossary", [(g.term, g.text) for g in cr.glossary])
    numbers = {r.rule for r in cr.rules}

    # Cited references.
    rulings = _rows(con, "SELECT ruling_id, oracle_id, comment FROM rulings ORDER BY ruling_id")
    refs = []
    for ruling in rulings:
        for c in extract_citations(ruling["comment"] or ""):
            refs.append((ruling["ruling_id"], c.rule, "cited", c.rule in numbers, c.written))
    _insert(con, "ruling_rule_refs", refs)

    # Inferred rules.
    kw_index = keyword_rule_index([(r.rule, r.title) for r in cr.rules])
    granted = frozenset(t for t, rule in kw_index.items() if rule.startswith("702."))
    titles = frozenset(kw_index)
    by_number = cr.by_number()
    kw_kind = {rule: keyword_ability_kind(by_number.get(f"{rule}a").text if f"{rule}a" in by_number else "")
               for rule in kw_index.values()}
    card_cols = _columns(con, "cards")
    wanted = [c for c in ("oracle_id", "name", "layout", "mana_cost", "type_line", "keywords") if c in card_cols]
    cards = _rows(con, f"SELECT {', '.join(wanted)} FROM cards ORDER BY oracle_id")
    faces_by: dict[str, list[dict]] = {}
    for f in _rows(con, "SELECT oracle_id, face_index, name, mana_cost, type_line FROM faces"):
        faces_by.setdefault(f["oracle_id"], []).append(f)
    abilities_by: dict[str, list[dict]] = {}
    for a in _rows(con, "SELECT ability_id, oracle_id, face_index, ability_index, text, kind, "
                        "is_mana_ability, ast FROM abilities ORDER BY oracle_id, face_index, ability_index"):
        abilities_by.setdefault(a["oracle_id"], []).append(a)

    inferred = []
    for card in cards:
        oid = card["oracle_id"]
        seen: set[tuple[str, str]] = set()
        feats = card_features(card, faces_by.get(oid, []), abilities_by.get(oid, []), titles, granted)
        for feat in list(feats):
            kind = kw_kind.get(kw_index.get(feat.detail.lower(), "")) if feat.name == "keyword" else None
            if kind:  # CR 702.xa says "… is an activated/triggered ability"
                feats.append(Feature(f"keyword_{kind}", feat.detail, feat.ability_id, feat.evidence))
        for feat in feats:
            for row in mapping.get(feat.name, []):
                rule = kw_index.get(feat.detail.lower()) if row.rule == KEYWORD_RULE else row.rule
                if rule is None or (rule, feat.name) in seen:
                    continue
                seen.add((rule, feat.name))
                detail = f" {feat.detail}" if feat.detail and feat.name.startswith("keyword") else ""
                inferred.append((oid, rule, feat.name, feat.ability_id, f"{feat.name}{detail}: {row.reason}"))
    _insert(con, "inferred_rules", inferred)

    # Ruling → ability links.
    names = {c["oracle_id"]: c.get("name") or "" for c in cards}
    kws = {c["oracle_id"]: list(c.get("keywords") or []) for c in cards}
    text_cards: dict[str, set[str]] = {}
    for ruling in rulings:
        text_cards.setdefault(ruling["comment"] or "", set()).add(ruling["oracle_id"])
    links = []
    for ruling in rulings:
        oid = ruling["oracle_id"]
        link = link_ruling(ruling["ruling_id"], ruling["comment"] or "", names.get(oid, ""),
                           abilities_by.get(oid, []), kws.get(oid, []),
                           shared=len(text_cards.get(ruling["comment"] or "", ())) > 1)
        if link:
            links.append((link.ruling_id, link.ability_id, link.method))
    _insert(con, "ruling_abilities", links)

    counts = {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ANNOTATION_TABLES}
    counts["card_rules"] = con.execute("SELECT count(*) FROM card_rules").fetchone()[0]
    return counts
