"""Rulings ↔ Comprehensive Rules ↔ abilities: the annotation tables (docs/annotate.md).

:func:`annotate` adds to a database that already holds ``cards``, ``faces``,
``abilities`` and ``rulings``:

``rules``             every CR section, rule and subrule (CR text parsed by
                      :mod:`pipeline.sources.comprehensive_rules`)
``glossary``          the CR glossary
``ruling_rule_refs``  CR numbers a ruling cites (:mod:`pipeline.annotate.citations`), each
                      checked against the ruling's words (:mod:`pipeline.annotate.citation_check`)
``ruling_rules``      the 0–3 rules each ruling applies (:mod:`pipeline.annotate.ruling_rules`)
``inferred_rules``    rules a card's features bring in (:mod:`pipeline.annotate.features`
                      + ``data/rule_features.csv``), each naming its feature
``card_rules``        view: cited ∪ ruling_rules ∪ inferred, per card
``ruling_abilities``  the ability a ruling talks about (:mod:`pipeline.annotate.ruling_links`)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from pipeline.annotate.citation_check import check_citation, citation_starts
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
from pipeline.annotate.ruling_rules import RulingRuleLinker
from pipeline.sources.comprehensive_rules import parse_comprehensive_rules
from pipeline.store.ddl import comment_relation, create_table, insert_rows

__all__ = ["annotate", "annotate_rulings", "start_features", "annotate_abilities", "ANNOTATION_TABLES"]

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
    "ruling_rule_refs": ("CR numbers a ruling cites explicitly ('rule 107.3i', '(704.5a)', 'rules 702.19a–c'), each "
                         "checked against what the ruling says around it.", [
        ("ruling_id", "VARCHAR", "The ruling (rulings.ruling_id)."),
        ("rule", "VARCHAR", "Cited CR number (a range is expanded to every number in it)."),
        ("how", "VARCHAR", "Always 'cited'."),
        ("status", "VARCHAR", "'resolved' (the number exists and the ruling's words match its text), 'renumbered?' "
                              "(it exists but another rule of the same 3-digit rule matches the words clearly better: "
                              "rulings cite the CR of their date) or 'missing' (not in the loaded CR)."),
        ("evidence", "VARCHAR", "Why: the ruling's words around the citation and the BM25 scores of the cited rule "
                                "and of the best rule of its family ('now probably 704.6a')."),
        ("resolved", "BOOLEAN", "Deprecated (kept one release): status = 'resolved'."),
        ("written", "VARCHAR", "The reference as written in the ruling ('702.19a–c')."),
    ]),
    "ruling_rules": ("The 0–3 rules each ruling applies, most specific subrule first; a ruling that states no "
                     "rules point has no row (docs/annotate.md § Rules a ruling applies).", [
        ("ruling_id", "VARCHAR", "The ruling (rulings.ruling_id)."),
        ("oracle_id", "VARCHAR", "The ruling's card (cards.oracle_id)."),
        ("rule", "VARCHAR", "CR number (rules.rule): a subrule ('608.2b') or, when no subrule stands out, "
                            "the numbered rule ('702.19')."),
        ("rank", "INTEGER", "1 = the rule the ruling is most surely about; at most 3."),
        ("how", "VARCHAR", "Signal that found it: cited, phrase, keyword, glossary_term, ability_feature or "
                           "text_match (docs/annotate.md)."),
        ("score", "DOUBLE", "Confidence 0..1 (cited 1.0 > phrase > keyword > glossary_term > ability_feature > "
                            "text_match); rows that only fill ranks 2–3 (text_match, and a named family's best "
                            "subrule) score ≤ 0.3, every other row more; comparable within one ruling."),
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
         || CASE x.status WHEN 'resolved' THEN '' WHEN 'missing' THEN ' — not in the loaded CR'
            ELSE ' — ' || x.status || ' ' || x.evidence END AS reason
FROM ruling_rule_refs x JOIN rulings r USING (ruling_id)
UNION ALL
SELECT a.oracle_id, a.rule, a.how,
       'the ruling of ' || strftime(u.published_at, '%Y-%m-%d') || ' (' || a.ruling_id || ') applies it ('
         || a.how || ', rank ' || a.rank || ')' AS reason
FROM ruling_rules a JOIN rulings u USING (ruling_id) WHERE a.how <> 'cited'
UNION ALL
SELECT oracle_id, rule, 'inferred' AS how, reason FROM inferred_rules
"""

CARD_RULES_COLUMNS = {
    "oracle_id": "The card (cards.oracle_id).",
    "rule": "CR number (rules.rule) that governs the card.",
    "how": "'cited' (a ruling of the card cites the rule, ruling_rule_refs), a ruling_rules signal (phrase, keyword, "
           "glossary_term, ability_feature, text_match: a ruling of the card applies the rule) or 'inferred' (from a "
           "feature, inferred_rules).",
    "reason": "Why: 'cited by ruling <ruling_id> (<rule as written>)', with ' — not in the loaded CR' or "
              "' — renumbered? <evidence>' when the citation did not check out; 'the ruling of <date> "
              "(<ruling_id>) applies it (<how>, rank <n>)'; for inferred rows inferred_rules.reason.",
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
    comment_relation(con, "card_rules", "Rules per card: cited by its rulings ∪ applied by its rulings (ruling_rules) "
                     "∪ inferred from its features.", CARD_RULES_COLUMNS, kind="VIEW")


def _insert(con: duckdb.DuckDBPyConnection, table: str, rows: list[tuple]) -> None:
    """Insert ``rows`` (tuples in column order) into ``table`` in one statement."""
    insert_rows(con, table, [n for n, _, _ in ANNOTATION_TABLES[table][1]], rows)


def annotate(con: duckdb.DuckDBPyConnection, rules_text: str,
             mapping_file: str | Path = RULE_FEATURES_FILE) -> dict[str, int]:
    """Create and fill rules, glossary, ruling_rule_refs, inferred_rules, card_rules (a view),
    ruling_abilities and ruling_rules in the open database ``con``, which already holds cards, faces,
    abilities and rulings (docs/schema.md). Existing annotation tables are replaced.

    ``rules_text``: the CR text (any line endings, BOM allowed). Returns row counts per
    table (``card_rules`` counted through the view). Raises
    :class:`~pipeline.sources.comprehensive_rules.RulesFormatError` for unreadable rules
    text and :class:`~pipeline.annotate.mapping.MappingError` for a bad mapping file.
    The same as :func:`annotate_rulings` then :func:`annotate_abilities` (a build runs the first
    while its parse workers work: it needs only ``rulings``).
    """
    return annotate_abilities(con, annotate_rulings(con, rules_text, mapping_file))


@dataclass
class RulingsAnnotated:
    """What :func:`annotate_rulings` leaves for :func:`annotate_abilities`: the parsed CR, the rule-feature
    mapping, the ruling linker, the ``rulings`` rows (dicts, by ruling id) and the CR numbers each
    ruling cites that resolved (``cited_by``: ruling id → rules)."""

    cr: Any
    mapping: dict
    linker: RulingRuleLinker
    rulings: list[dict[str, Any]]
    cited_by: dict[str, list[str]]


def annotate_rulings(con: duckdb.DuckDBPyConnection, rules_text: str,
                     mapping_file: str | Path = RULE_FEATURES_FILE) -> RulingsAnnotated:
    """The part of :func:`annotate` that needs only ``rulings`` in ``con``: (re)create every annotation
    table and the ``card_rules`` view, fill ``rules``, ``glossary`` and ``ruling_rule_refs`` (each cited
    CR number checked against the ruling's words). Raises what :func:`annotate` raises."""
    cr = parse_comprehensive_rules(rules_text)
    mapping = load_mapping(mapping_file)
    _create(con)

    _insert(con, "rules",
            [(r.rule, r.parent, r.section, r.title, r.text, cr.effective_date, r.position) for r in cr.rules])
    _insert(con, "glossary", [(g.term, g.text) for g in cr.glossary])
    linker = RulingRuleLinker(cr)

    # Cited references, each checked against the ruling's words.
    rulings = _rows(con, "SELECT ruling_id, oracle_id, comment FROM rulings ORDER BY ruling_id")
    refs = []
    cited_by: dict[str, list[str]] = {}
    for ruling in rulings:
        for c, start in citation_starts(ruling["comment"] or ""):
            check = check_citation(linker, ruling["comment"], c, start)
            refs.append((ruling["ruling_id"], c.rule, "cited", check.status, check.evidence,
                         check.status == "resolved", c.written))
            if check.status == "resolved":
                cited_by.setdefault(ruling["ruling_id"], []).append(c.rule)
    _insert(con, "ruling_rule_refs", refs)
    return RulingsAnnotated(cr, mapping, linker, rulings, cited_by)


#: Cards per task of a :class:`FeatureJob`'s worker processes, and the fewest cards worth starting them for
#: (a worker's start costs ≈ 0.3 s; the features of the MTGJSON corpus's 23,549 cards ≈ 5 s CPU).
FEATURE_CHUNK = 500
MIN_PARALLEL_CARDS = 4000


class FeatureJob:
    """The features of every card (:func:`pipeline.annotate.features.card_features`), computed in ``jobs``
    worker processes when there are many cards, else in this process when :meth:`features` is read.

    Made by :func:`start_features` from the ``cards``, ``faces`` and ``abilities`` rows of a database
    and the keyword titles of the CR (``done``); the workers receive the rows in chunks of
    :data:`FEATURE_CHUNK` cards and send back their features in card order, so the result is that of
    the single-process loop. :meth:`close` stops the workers (idempotent; also after an error).
    """

    def __init__(self, cards: list[dict], faces_by: dict[str, list[dict]], abilities_by: dict[str, list[dict]],
                 titles: frozenset[str], granted: frozenset[str], jobs: int = 1):
        self.cards, self.faces_by, self.abilities_by = cards, faces_by, abilities_by
        self.titles, self.granted = titles, granted
        self._pool = self._pending = None
        if jobs > 1 and len(cards) >= MIN_PARALLEL_CARDS:
            import multiprocessing

            from pipeline.gc_policy import use_in_this_process

            self._pool = multiprocessing.get_context("spawn").Pool(
                min(jobs, -(-len(cards) // FEATURE_CHUNK)), initializer=use_in_this_process)
            self._pending = self._pool.imap(card_features_batch, _feature_tasks(cards, faces_by, abilities_by,
                                                                                 titles, granted))

    def features(self):
        """Yield each card's feature list, in the order of ``cards`` (waiting for the workers)."""
        if self._pending is None:
            for card in self.cards:
                oid = card["oracle_id"]
                yield card_features(card, self.faces_by.get(oid, []), self.abilities_by.get(oid, []),
                                    self.titles, self.granted)
            return
        try:
            for batch in self._pending:
                yield from batch
        finally:
            self.close()

    def close(self) -> None:
        """Stop the worker processes, if any."""
        pool, self._pool, self._pending = self._pool, None, None
        if pool is not None:
            pool.terminate()
            pool.join()


def _feature_tasks(cards, faces_by, abilities_by, titles, granted):
    """The worker tasks of a :class:`FeatureJob`, made as the pool sends them: each chunk carries copies of its
    abilities' rows, and the parent's rows lose their ``ast`` (only the features read it; the ruling links
    read ids and texts), so the AST JSON of the corpus (≈ 80 MiB) is not held twice while derive runs."""
    for i in range(0, len(cards), FEATURE_CHUNK):
        chunk = []
        for c in cards[i:i + FEATURE_CHUNK]:
            rows = abilities_by.get(c["oracle_id"], [])
            chunk.append((c, faces_by.get(c["oracle_id"], []), [dict(a) for a in rows]))
            for a in rows:
                a.pop("ast", None)
        yield chunk, titles, granted


def card_features_batch(task: tuple[list[tuple[dict, list[dict], list[dict]]], frozenset[str], frozenset[str]]
                        ) -> list[list[Feature]]:
    """A :class:`FeatureJob` worker's task: ``card_features`` of each ``(card, faces, abilities)`` of a chunk."""
    chunk, titles, granted = task
    return [card_features(card, faces, abilities, titles, granted) for card, faces, abilities in chunk]


def _keyword_rules(cr) -> tuple[dict[str, str], frozenset[str], frozenset[str]]:
    """(keyword title → CR 701/702 rule, titles of keyword abilities (702), every title) of the parsed CR."""
    kw_index = keyword_rule_index([(r.rule, r.title) for r in cr.rules])
    return kw_index, frozenset(t for t, rule in kw_index.items() if rule.startswith("702.")), frozenset(kw_index)


def start_features(con: duckdb.DuckDBPyConnection, done: RulingsAnnotated, jobs: int = 1) -> FeatureJob:
    """Read the ``cards``, ``faces`` and ``abilities`` rows of ``con`` and start computing the cards' features
    (:class:`FeatureJob`, in ``jobs`` worker processes when there are many cards). A build starts it
    before derive, which then runs while the workers work; :func:`annotate_abilities` reads the result."""
    _, granted, titles = _keyword_rules(done.cr)
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
    return FeatureJob(cards, faces_by, abilities_by, titles, granted, jobs)


def annotate_abilities(con: duckdb.DuckDBPyConnection, done: RulingsAnnotated,
                       job: FeatureJob | None = None) -> dict[str, int]:
    """The rest of :func:`annotate` after :func:`annotate_rulings` (``done``), once ``cards``, ``faces`` and
    ``abilities`` are in ``con``: ``inferred_rules``, ``ruling_abilities`` and ``ruling_rules``. ``job``:
    the cards' features as :func:`start_features` began them (default: computed here, in this process).
    Returns the row counts of every annotation table (as :func:`annotate`)."""
    job = job if job is not None else start_features(con, done)
    try:
        return _annotate_abilities(con, done, job)
    finally:
        job.close()


def _annotate_abilities(con: duckdb.DuckDBPyConnection, done: RulingsAnnotated, job: FeatureJob) -> dict[str, int]:
    cr, mapping, linker, rulings, cited_by = done.cr, done.mapping, done.linker, done.rulings, done.cited_by
    kw_index, _, _ = _keyword_rules(cr)
    by_number = cr.by_number()
    kw_kind = {rule: keyword_ability_kind(by_number.get(f"{rule}a").text if f"{rule}a" in by_number else "")
               for rule in kw_index.values()}
    cards, abilities_by = job.cards, job.abilities_by

    # Ruling → ability links (no features needed: computed while the workers compute the features).
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

    # Inferred rules.
    inferred = []
    for card, feats in zip(cards, job.features()):
        oid = card["oracle_id"]
        seen: set[tuple[str, str]] = set()
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
    _insert(con, "ruling_abilities", links)

    # The rules each ruling applies: one ruling at a time, against the CR only.
    feature_rules: dict[str, list[str]] = {}
    for ability_id, rule in {(r[3], r[1]) for r in inferred if r[3] is not None}:
        feature_rules.setdefault(ability_id, []).append(rule)
    about = {ruling_id: ability_id for ruling_id, ability_id, _ in links}
    applied = []
    for ruling in rulings:
        oid, rid = ruling["oracle_id"], ruling["ruling_id"]
        for link in linker.link(ruling["comment"] or "", names.get(oid, ""), cited_by.get(rid, ()),
                                sorted(feature_rules.get(about.get(rid, ""), ())), kws.get(oid, ())):
            applied.append((rid, oid, link.rule, link.rank, link.how, link.score))
    _insert(con, "ruling_rules", applied)

    counts = {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ANNOTATION_TABLES}
    counts["card_rules"] = con.execute("SELECT count(*) FROM card_rules").fetchone()[0]
    return counts
