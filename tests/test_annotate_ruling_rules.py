"""``ruling_rules`` measured against the hand-labeled gold set (tests/data/ruling_rules_gold/).

The gold set was labeled before the method was written; the method was tuned on its ``tune``
part only, and the floors below are asserted on the held-back ``report`` part, scored exactly as
docs/annotate.md § Rules a ruling applies says (the scoring a second, withheld gold set uses too).
Earlier sessions read the report part's misses, so a ``fresh`` part (``fresh.csv``, drawn by
``sample.py --fresh`` and labeled before any later tuning) is scored separately, with its own floors.
"""

from __future__ import annotations

import csv
import hashlib
from collections import Counter
from functools import lru_cache
from pathlib import Path

import duckdb
import pytest

from pipeline.annotate.ruling_rules import HOWS, RulingRuleLinker, load_phrases, verb_forms, without_examples
from pipeline.sources.comprehensive_rules import load_comprehensive_rules
from tests.conftest import RULES_TXT, rows

pytestmark = pytest.mark.corpus

GOLD = Path(__file__).parent / "data" / "ruling_rules_gold" / "gold.csv"
FRESH = GOLD.with_name("fresh.csv")
TUNE2 = GOLD.with_name("tune2.csv")
# Floors, (top-1 precision, top-3 recall of primaries, 'none' → no row) per part: the figures last
# measured (docs/annotate.md), rounded down. The targets are 0.90 / 0.85 / 0.80 on report:
# recall is not met; on the fresh part (never tuned on) precision and 'none' are not met either.
# tune2 is a tuning part (labeled before the method saw it, then tuned on): its floor guards the
# second round's templates against regressions, it is no held-out figure.
FLOORS = {"report": (0.91, 0.60, 0.91), "fresh": (0.68, 0.36, 0.71), "tune2": (0.92, 0.76, 0.84)}


def gold_rows(*parts: str) -> list[dict]:
    """Rows of gold.csv, fresh.csv and tune2.csv (columns as in the README there); only those of ``parts``
    when given."""
    out = []
    for path in (GOLD, FRESH, TUNE2):
        with path.open(encoding="utf-8", newline="") as fh:
            out.extend(row for row in csv.DictReader(fh) if not parts or row["part"] in parts)
    return out


def base(rule: str) -> str:
    """The numbered rule once subrule letters are dropped: 707.9b → 707.9; 707 stays 707."""
    return rule[:-1] if "." in rule and rule[-1].isalpha() else rule


def matches(predicted: str, gold: str) -> bool:
    """Equal, or the same numbered rule once subrule letters are dropped (707.9b ≈ 707.9, never 707 ≈ 707.9)."""
    return predicted == gold or ("." in predicted and "." in gold and base(predicted) == base(gold))


def score(gold: list[dict], predicted: dict[str, list[str]]) -> dict:
    """Top-1 precision, top-3 recall of primaries (micro) and the 'none' rate, as the issue defines them."""
    hit1 = with_row = hits = primaries = none_ok = nones = 0
    for g in gold:
        got = predicted.get(g["ruling_id"], [])
        if g["none"] == "1":
            nones += 1
            none_ok += not got
            continue
        primary, related = g["primary"].split(), g["related"].split()
        if got:
            with_row += 1
            hit1 += any(matches(got[0], x) for x in primary + related)
        for x in primary:
            primaries += 1
            hits += any(matches(p, x) for p in got[:3])
    return {"precision": hit1 / with_row, "recall": hits / primaries, "none": none_ok / nones,
            "counts": (hit1, with_row, hits, primaries, none_ok, nones)}


def predictions(db) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for ruling_id, rule in rows(db, "SELECT ruling_id, rule FROM ruling_rules ORDER BY ruling_id, rank"):
        out.setdefault(ruling_id, []).append(rule)
    return out


def test_gold_set_is_well_formed():
    gold = gold_rows()
    assert len({g["ruling_id"] for g in gold}) == len(gold) and len({g["comment"] for g in gold}) == len(gold)
    known = {r.rule for r in load_comprehensive_rules(RULES_TXT).rules}
    drawn_as = {g["ruling_id"]: part for part in ("fresh", "tune2") for g in gold_rows(part)}
    for g in gold:
        split = "report" if hashlib.sha256(f"gold-split:{g['ruling_id']}".encode()).hexdigest()[0] in "01234567" \
            else "tune"
        assert g["part"] == drawn_as.get(g["ruling_id"], split), g["ruling_id"]
        primary, related = g["primary"].split(), g["related"].split()
        assert (g["none"] == "1") == (not primary), g["ruling_id"]
        assert len(primary) <= 3 and len(related) <= 4 and not set(primary) & set(related), g["ruling_id"]
        assert set(primary + related) <= known, (g["ruling_id"], set(primary + related) - known)
    parts = Counter(g["part"] for g in gold)
    assert parts["report"] >= 150 and parts["tune"] >= 130 and parts["fresh"] >= 100 and parts["tune2"] >= 150


def test_gold_rulings_are_corpus_rulings(mtgjson_db):
    gold = {g["ruling_id"]: g for g in gold_rows()}
    found = dict(rows(mtgjson_db, "SELECT ruling_id, comment FROM rulings WHERE ruling_id IN (SELECT unnest(?))",
                      [list(gold)]))
    assert found.keys() == gold.keys()
    assert all(found[k] == g["comment"] for k, g in gold.items())


@pytest.mark.parametrize("part", sorted(FLOORS))
def test_held_back_parts_meet_the_floors(mtgjson_db, part):
    got = score(gold_rows(part), predictions(mtgjson_db))
    print(f"{part} part:", got)
    precision, recall, none = FLOORS[part]
    assert got["precision"] >= precision, got
    assert got["recall"] >= recall, got
    assert got["none"] >= none, got


def test_fresh_part_is_the_seeded_draw(mtgjson_db):
    """fresh.csv is exactly what ``sample.py --fresh`` draws (seed 20261203, gold.csv's texts left out)
    from the corpus database, in its order: nothing hand-picked."""
    from tests.data.ruling_rules_gold.sample import FRESH_SEED, draw

    con = duckdb.connect(str(mtgjson_db), read_only=True)
    try:
        drawn = draw(con, 50, FRESH_SEED, frozenset(g["comment"] for g in gold_rows("tune", "report")), "fresh")
    finally:
        con.close()
    assert [(rid, comment) for rid, _, _, _, comment in drawn] == \
        [(g["ruling_id"], g["comment"]) for g in gold_rows("fresh")]


def test_tune2_part_is_the_seeded_draw(mtgjson_db):
    """tune2.csv is exactly what ``sample.py --tune2`` draws (seed 20261205, share 110, the texts of gold.csv
    and fresh.csv left out) from the corpus database, in its order: nothing hand-picked, every row labeled."""
    from tests.data.ruling_rules_gold.sample import TUNE2_SEED, TUNE2_SHARE, draw

    con = duckdb.connect(str(mtgjson_db), read_only=True)
    try:
        drawn = draw(con, TUNE2_SHARE, TUNE2_SEED,
                     frozenset(g["comment"] for g in gold_rows("tune", "report", "fresh")), "tune2")
    finally:
        con.close()
    assert [(rid, part, comment) for rid, _, _, part, comment in drawn] == \
        [(g["ruling_id"], g["part"], g["comment"]) for g in gold_rows("tune2")]


def test_ruling_rules_rows_are_well_formed(mtgjson_db):
    assert set(h for (h,) in rows(mtgjson_db, "SELECT DISTINCT how FROM ruling_rules")) <= set(HOWS)
    # every rule exists; ranks are 1..n without gaps, at most 3 per ruling; one row per rule
    assert rows(mtgjson_db, "SELECT count(*) FROM ruling_rules LEFT JOIN rules USING (rule) WHERE rules.rule IS NULL") == [(0,)]
    assert rows(mtgjson_db, """SELECT count(*) FROM (SELECT ruling_id, max(rank) AS m, count(*) AS n,
                               count(DISTINCT rule) AS d FROM ruling_rules GROUP BY ruling_id)
                               WHERE m <> n OR n > 3 OR d <> n""") == [(0,)]
    assert rows(mtgjson_db, """SELECT count(*) FROM ruling_rules x JOIN rulings r USING (ruling_id)
                               WHERE x.oracle_id <> r.oracle_id""") == [(0,)]
    # errata notes state no rules point: no row
    assert rows(mtgjson_db, """SELECT count(*) FROM rulings r JOIN ruling_rules USING (ruling_id)
                               WHERE r.comment LIKE '%received errata%' AND r.comment NOT SIMILAR TO '.*\\d{3}\\.\\d.*'""") == [(0,)]


def test_card_rules_is_built_on_the_same_links(mtgjson_db):
    # every non-cited ruling_rules row is a card_rules row of its card, with the same how
    assert rows(mtgjson_db, """SELECT count(*) FROM ruling_rules a WHERE a.how <> 'cited' AND NOT EXISTS
                               (SELECT 1 FROM card_rules c WHERE c.oracle_id = a.oracle_id AND c.rule = a.rule
                                AND c.how = a.how)""") == [(0,)]


def test_each_ruling_is_linked_on_its_own(mtgjson_db):
    """Per-ruling computation: linking a ruling alone, against the CR only, gives the corpus rows
    (what an incremental refresh of one card would write)."""
    linker = RulingRuleLinker(load_comprehensive_rules(RULES_TXT))
    sample = rows(mtgjson_db, """
        SELECT r.ruling_id, r.comment, c.name, c.keywords FROM rulings r JOIN cards c USING (oracle_id)
        WHERE r.ruling_id NOT IN (SELECT ruling_id FROM ruling_abilities)
          AND r.ruling_id NOT IN (SELECT ruling_id FROM ruling_rule_refs)
        ORDER BY hash(r.ruling_id) LIMIT 300""")
    stored = predictions(mtgjson_db)
    for ruling_id, comment, name, keywords in sample:
        alone = [link.rule for link in linker.link(comment, name, (), (), keywords or [])]
        assert alone == stored.get(ruling_id, []), (ruling_id, comment)


def test_phrase_table_names_rules_of_the_cr():
    known = {r.rule for r in load_comprehensive_rules(RULES_TXT).rules}
    phrases = load_phrases(known=known)
    assert len(phrases) >= 50
    assert any(p.none for p in phrases)


@lru_cache(maxsize=1)
def linker() -> RulingRuleLinker:
    return RulingRuleLinker(load_comprehensive_rules(RULES_TXT))


def test_examples_are_left_out_before_keywords_are_looked_for():
    """Keywords and glossary terms a ruling names only in an example ("such as …", "For example, …")
    are not what it is about (real corpus rulings)."""
    aeon = ("If you cast a card “without paying its mana cost,” such as with suspend, you can’t choose to cast it "
            "for any alternative costs. You can, however, pay additional costs.")
    assert without_examples(aeon) == ("If you cast a card “without paying its mana cost,” , you can’t choose to cast it "
                                      "for any alternative costs. You can, however, pay additional costs.")
    # Ancient Ziggurat (labeled none in tune2): unearth and ninjutsu are examples, so no row at all
    ziggurat = ("Mana produced by Ancient Ziggurat can’t be spent on activated abilities that put a creature card "
                "directly onto the battlefield, such as unearth or ninjutsu.")
    assert linker().link(ziggurat, "Ancient Ziggurat") == []
    # Disallow: prowess and fabricate are examples (no keyword row); the glossary's "triggered ability" ranks
    # first (CR 603.1)
    disallow = ("Triggered abilities use the word “when,” “whenever,” or “at.” They’re often written as “[Trigger "
                "condition], [effect].” Some keyword abilities, such as prowess and fabricate, are triggered abilities "
                "and will have “when,” “whenever,” or “at” in their reminder text.")
    got = linker().link(disallow, "Disallow")
    assert (got[0].rule, got[0].how) == ("603.1", "glossary_term") and "keyword" not in {link.how for link in got}


@pytest.mark.parametrize("card, text, rule", [
    ("Banisher Priest", "If Banisher Priest leaves the battlefield before its enters-the-battlefield ability resolves, "
                        "the target creature won’t be exiled.", "610.3b"),
    ("Thousand-Year Storm", "Thousand-Year Storm’s ability will copy any instant or sorcery spell, not just one with "
                            "targets.", "707.10"),
    ("Sparktongue Dragon", "Sparktongue Dragon’s triggered ability goes on the stack without a target. While that "
                           "ability is resolving, you may pay {2}{R}. If you do, a second ability triggers and you pick "
                           "a target that will be dealt damage.", "603.12"),
])
def test_templates_over_the_crs_wording(card, text, rule):
    """Templates added while tuning on tune + tune2, each firing on several unlabeled corpus rulings: the rule
    comes first (real rulings of those cards; the text is cut after its first sentences for Sparktongue Dragon)."""
    got = linker().link(text, card)
    assert got and got[0].rule == rule and got[0].how == "phrase", got


def test_keyword_actions_are_found_as_verbs():
    """A CR 701 title is also found as its -ing / -ed form; 702 titles are not ("enchanted creature" names no
    keyword). Real corpus rulings (Grafdigger's Cage, labeled 701.40f in tune2; a detain ruling)."""
    assert verb_forms("manifest") == ("manifesting", "manifested")
    assert verb_forms("scry") == ("scrying", "scried")
    assert verb_forms("explore") == ("exploring", "explored")
    assert verb_forms("collect evidence") == ("collecting evidence", "collected evidence")
    cage = linker().link("Manifesting a card from a graveyard or library is an impossible action while Grafdigger’s "
                         "Cage is on the battlefield.", "Grafdigger's Cage")
    assert cage and cage[0].rule.startswith("701.40") and cage[0].how == "keyword", cage  # 701.40e ≈ 701.40f
    detain = linker().link("If a noncreature permanent is detained and later turns into a creature, it won’t be able "
                           "to attack or block.", "Lyev Decree")
    assert detain and detain[0].rule.startswith("701.35") and detain[0].how == "keyword", detain
    assert "enchant" not in linker().keywords.automaton.get("enchanted", ("",))[0]


def test_free_ranks_are_filled_by_retrieval_never_rank_one():
    """Beside a found rule, ranks 2–3 take BM25's best documents of other numbered rules (``text_match``);
    rank 1 is never a fill and a ruling with no signal gets no row (real rulings)."""
    got = linker().link("If you gain control of an instant or sorcery spell, it will be put into its owner’s "
                        "graveyard as it resolves.", "Aethersnatch")
    assert got == []
    displacement = linker().link("If a permanent has an {X} in its mana cost, that X is 0.", "Displacement Wave")
    assert displacement[0].how == "phrase" and displacement[0].rule == "107.3g"
    fills = [link for link in displacement[1:] if link.how == "text_match"]
    assert fills and all(link.score <= 0.3 for link in fills)
    assert len({link.rule.rstrip("abcdefghijklmnopqrstuvwxyz") for link in displacement}) == len(displacement)


def test_free_ranks_take_the_best_subrule_of_a_named_family_first(monkeypatch):
    """Beside a found rule, a family a signal names (here the glossary's "additional cost", too weak to stand
    alone) gives ranks 2–3 its best subrule before the global retrieval fill (real ruling of Smokebraider,
    labeled 601.2f in tune2, related 118.9: the rank-1 118.9c matches it)."""
    import pipeline.annotate.ruling_rules as ruling_rules

    text = ("You can use this mana to pay an alternative cost (such as evoke) or additional cost incurred while "
            "casting an Elemental spell. It’s not limited to just that spell’s mana cost.")
    got = linker().link(text, "Smokebraider")
    assert [(x.rule, x.how) for x in got[:2]] == [("118.9c", "glossary_term"), ("601.2f", "glossary_term")], got
    assert got[1].score <= 0.3 < got[0].score
    monkeypatch.setattr(ruling_rules, "FAMILY_SHARE", 2.0)  # no family reaches twice the best score
    without = RulingRuleLinker(load_comprehensive_rules(RULES_TXT)).link(text, "Smokebraider")
    assert without[0].rule == "118.9c" and "601.2f" not in [x.rule for x in without], without


def test_phrase_families_name_their_rule():
    """A ``NNN*`` row (the best subrule of one CR rule) says in its reason which rule it means, by the rule's
    title: a renumbering between CR editions (day and night moved from 726 to 730, now Restarting the Game)
    then shows as a mismatch instead of silently sending every day/night ruling to the wrong rule."""
    cr = load_comprehensive_rules(RULES_TXT)
    titles = {r.rule: r.title for r in cr.rules if r.title}
    families = [(p, r.removesuffix("*")) for p in load_phrases(known={x.rule for x in cr.rules})
                for r in p.rules if r.endswith("*") and "." not in r]
    assert len(families) >= 10
    for phrase, rule in families:
        title = titles[rule].lower().removeprefix("the ")
        assert title in phrase.reason.lower(), (rule, titles[rule], phrase.reason)


@pytest.mark.parametrize("name, size", [("ruling_rules_sample_judged.csv", 50), ("ruling_rules_sample_judged_2.csv", 50),
                                        ("ruling_rules_sample_judged_3.csv", 15)])
def test_judged_sample_is_well_formed(mtgjson_db, name, size):
    """tests/data/ruling_rules_sample_judged.csv (first round, random.Random(20261202)) and
    ruling_rules_sample_judged_2.csv (second round, random.Random(20261206), drawn from a build at
    feda360): 50 ruling_rules rows of the corpus each; ruling_rules_sample_judged_3.csv (fourth round,
    random.Random(20261208), drawn from a build at 6ecda16): 15 of the family fills (keyword, glossary_term or ability_feature rows
    scoring ≤ 0.3). Judged by hand against the CR text (docs/annotate.md): each names a corpus ruling
    with its text, a rule of the CR and a verdict from the closed list."""
    path = GOLD.parent.parent / name
    with path.open(encoding="utf-8", newline="") as fh:
        judged = list(csv.DictReader(fh))
    assert len(judged) == size
    known = {r.rule for r in load_comprehensive_rules(RULES_TXT).rules}
    comments = dict(rows(mtgjson_db, "SELECT ruling_id, comment FROM rulings WHERE ruling_id IN (SELECT unnest(?))",
                         [[j["ruling_id"] for j in judged]]))
    for j in judged:
        assert j["verdict"] in ("right", "related", "wrong") and j["note"], j
        assert j["rule"] in known and j["how"] in HOWS and 1 <= int(j["rank"]) <= 3, j
        assert comments.get(j["ruling_id"]) == j["comment"], j["ruling_id"]
