"""annotate() on a database of real cards and rulings: tables, cited references and their
resolution, ruling → ability links, and the card_rules view."""

from __future__ import annotations

import datetime as dt

import pytest

from pipeline.annotate import annotate
from pipeline.sources.comprehensive_rules import load_comprehensive_rules
from tests.test_annotate_fixtures import CR_FILE, build_card_db, ruling_id

pytestmark = pytest.mark.corpus

CARDS = {"Altered Ego", "Metamorphic Alteration", "Rules Lawyer", "Llanowar Elves", "Banefire",
         "Marauder's Axe", "Esika's Chariot", "Suspicious Bookcase"}


@pytest.fixture(scope="module")
def cr_text() -> str:
    return CR_FILE.read_text(encoding="utf-8-sig")


@pytest.fixture(scope="module")
def db(cr_text):
    con, _ = build_card_db(CARDS)
    # No ruling in the corpus cites rule 107.3i by number. This Scryfall-shaped ruling row on
    # Banefire (an X spell) uses real rules text that does: CR 107.3j's own sentence.
    cr = load_comprehensive_rules(CR_FILE)
    comment = cr.by_number()["107.3j"].text
    oracle_id = con.execute("SELECT oracle_id FROM cards WHERE name = 'Banefire'").fetchone()[0]
    con.execute("INSERT INTO rulings VALUES (?, ?, 'scryfall', DATE '2026-02-27', ?)",
                [ruling_id(oracle_id, "2026-02-27", comment), oracle_id, comment])
    counts = annotate(con, cr_text)
    yield con, counts
    con.close()


def card_rules(con, name: str, how: str) -> set[str]:
    return {r[0] for r in con.execute(
        "SELECT rule FROM card_rules JOIN cards USING (oracle_id) WHERE name = ? AND how = ?", [name, how]).fetchall()}


def test_counts(db):
    con, counts = db
    assert counts["rules"] == 3275 and counts["glossary"] == 726
    applied = con.execute("SELECT count(*) FROM ruling_rules WHERE how <> 'cited'").fetchone()[0]
    assert counts["card_rules"] == counts["ruling_rule_refs"] + applied + counts["inferred_rules"]
    assert con.execute("SELECT DISTINCT effective_date FROM rules").fetchall() == [(dt.date(2026, 2, 27),)]


def test_rules_table_parent_chain(db):
    con, _ = db
    chain = con.execute("""
        WITH RECURSIVE up(rule, parent, depth) AS (
            SELECT rule, parent, 0 FROM rules WHERE rule = '107.3i'
            UNION ALL SELECT r.rule, r.parent, depth + 1 FROM rules r JOIN up ON r.rule = up.parent)
        SELECT rule FROM up ORDER BY depth""").fetchall()
    assert [r[0] for r in chain] == ["107.3i", "107.3", "107", "1"]


def test_ruling_citing_107_3i_resolves_to_its_text(db):
    con, _ = db
    rows = con.execute("""
        SELECT x.rule, x.resolved, r.text FROM ruling_rule_refs x
        JOIN rulings u USING (ruling_id) JOIN cards c USING (oracle_id) JOIN rules r USING (rule)
        WHERE c.name = 'Banefire'""").fetchall()
    assert rows == [("107.3i", True, "Normally, all instances of X on an object have the same value at any given time.")]
    assert card_rules(con, "Banefire", "cited") == {"107.3i"}
    assert card_rules(con, "Banefire", "inferred") == {"107.3"}


def test_rules_lawyer_cited_rules(db):
    con, _ = db
    cited = card_rules(con, "Rules Lawyer", "cited")
    assert cited == {"704.5a", "704.5b", "704.5c", "704.5f", "704.5g", "704.5h", "704.5i", "704.5j", "704.5k",
                     "704.5m", "704.5n", "704.5p", "704.5q", "704.5r", "704.5s", "704.5t", "704.5u"}
    # Rules Lawyer's 2018 rulings cite the CR of their date: the Two-Headed Giant and Commander
    # losing conditions were 704.5s/t/u then and are 704.6a–c now (704.5s is about Sagas today).
    status = dict(con.execute("""SELECT x.rule, x.status FROM ruling_rule_refs x JOIN rulings u USING (ruling_id)
                                 JOIN cards c USING (oracle_id) WHERE c.name = 'Rules Lawyer'""").fetchall())
    assert {r for r, st in status.items() if st == "renumbered?"} == {"704.5s", "704.5t", "704.5u"}
    assert {r for r, st in status.items() if st == "resolved"} == cited - {"704.5s", "704.5t", "704.5u"}
    evidence = dict(con.execute("SELECT rule, evidence FROM ruling_rule_refs").fetchall())
    assert "now probably 704.6c" in evidence["704.5u"] and "now probably 704.6" in evidence["704.5s"]
    assert con.execute("SELECT count(*) FROM ruling_rule_refs WHERE resolved <> (status = 'resolved')").fetchone() == (0,)
    reason = con.execute("""SELECT reason FROM card_rules JOIN cards USING (oracle_id)
                            WHERE name = 'Rules Lawyer' AND rule = '704.5a' AND how = 'cited'""").fetchone()[0]
    assert reason.startswith("cited by ruling ") and reason.endswith("(704.5a)")
    reason = con.execute("""SELECT reason FROM card_rules JOIN cards USING (oracle_id)
                            WHERE name = 'Rules Lawyer' AND rule = '704.5u' AND how = 'cited'""").fetchone()[0]
    assert "renumbered?" in reason and "704.6c" in reason
    # a renumbered citation is not a rule the ruling applies; a resolved one is, as 'cited'
    applied = {r for r, in con.execute("""SELECT rule FROM ruling_rules JOIN cards USING (oracle_id)
                                          WHERE name = 'Rules Lawyer' AND how = 'cited'""").fetchall()}
    assert "704.5a" in applied and not applied & {"704.5s", "704.5t", "704.5u"}


def test_unresolved_reference_is_kept(cr_text):
    # An older CR edition without 704.5u: Rules Lawyer's "(704.5u)" stays, resolved = false.
    lines = cr_text.split("\n")
    edited = "\n".join(ln for ln in lines if not ln.startswith("704.5u "))
    con, _ = build_card_db({"Rules Lawyer"})
    annotate(con, edited)
    rows = dict(con.execute("SELECT rule, status FROM ruling_rule_refs").fetchall())
    assert rows["704.5u"] == "missing" and rows["704.5a"] == "resolved"
    reason = con.execute("SELECT reason FROM card_rules WHERE rule = '704.5u' AND how = 'cited'").fetchone()[0]
    assert reason.endswith("not in the loaded CR")


def test_altered_ego_and_metamorphic_alteration_rules(db):
    con, _ = db
    assert card_rules(con, "Altered Ego", "inferred") == {"707", "707.9", "107.3", "107.3m", "122.1a"}
    assert card_rules(con, "Metamorphic Alteration", "inferred") == {"303.4", "702.5", "707"}
    assert card_rules(con, "Altered Ego", "cited") == set()
    # The reasons name the feature that caused each row.
    reasons = dict(con.execute("""SELECT rule, reason FROM card_rules JOIN cards USING (oracle_id)
                                  WHERE name = 'Altered Ego'""").fetchall())
    assert reasons["107.3m"].startswith("x_enters:")
    assert reasons["707.9"].startswith("copy_except:")


def links(con, name: str) -> dict[str, tuple[str, str]]:
    return {c: (t, m) for c, t, m in con.execute("""
        SELECT u.comment, a.text, l.method FROM ruling_abilities l JOIN rulings u USING (ruling_id)
        JOIN abilities a USING (ability_id) JOIN cards c ON c.oracle_id = u.oracle_id WHERE c.name = ?""",
        [name]).fetchall()}


def test_ruling_links_metamorphic_alteration(db):
    con, _ = db
    got = links(con, "Metamorphic Alteration")
    copy_line = "Enchanted creature is a copy of the chosen creature."
    about_copy = [c for c in got if c.startswith(("Metamorphic Alteration copies exactly",
                                                  "The characteristics that will be copied",
                                                  "If the chosen creature is copying something else"))]
    assert len(about_copy) == 3
    assert all(got[c][0] == copy_line for c in about_copy)
    # Every link of this card goes to the copy ability: none to "Enchant creature".
    assert {t for t, _ in got.values()} <= {copy_line,
                                           "As Metamorphic Alteration enters the battlefield, choose a creature."}


def test_ruling_links_altered_ego(db):
    con, _ = db
    got = links(con, "Altered Ego")
    copy_ability = next(t for t, _ in got.values())
    assert copy_ability.startswith("You may have Altered Ego enter the battlefield as a copy")
    assert {t for t, _ in got.values()} == {copy_ability}
    assert "X can be 0. Altered Ego won’t enter with any additional +1/+1 counters, and it will just be a copy of " \
           "the chosen creature." in got


def test_ruling_link_methods_are_documented(db):
    con, _ = db
    methods = {m for (m,) in con.execute("SELECT DISTINCT method FROM ruling_abilities").fetchall()}
    assert methods and methods <= {"quoted", "ordinal", "keyword", "cost", "topic", "words"}


def test_annotate_is_repeatable(db, cr_text):
    con, counts = db
    assert annotate(con, cr_text) == counts
