"""Ruling → ability links measured against hand-checked links (tests/data/ruling_links_expected.csv)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from pipeline.annotate import annotate
from pipeline.annotate.ruling_links import link_ruling, normalize
from tests.test_annotate_fixtures import CR_FILE, build_card_db
from tests.test_annotate_inferred import EXPECTED

pytestmark = pytest.mark.corpus

LINKS_FILE = Path(__file__).parent / "data" / "ruling_links_expected.csv"
PRECISION_FLOOR = 0.97  # a wrong link is worse than none
RECALL_FLOOR = 0.70


def load_links() -> list[dict]:
    with LINKS_FILE.open(encoding="utf-8") as fh:
        return list(csv.DictReader(line for line in fh if not line.startswith("#")))


@pytest.fixture(scope="module")
def con():
    con, _ = build_card_db(set(EXPECTED))
    annotate(con, CR_FILE.read_text(encoding="utf-8-sig"))
    yield con
    con.close()


def test_links_precision_and_recall(con):
    expected = load_links()
    rows = con.execute("""
        SELECT c.name, r.comment, a.text, l.method FROM rulings r JOIN cards c USING (oracle_id)
        LEFT JOIN ruling_abilities l USING (ruling_id) LEFT JOIN abilities a USING (ability_id)
        WHERE (SELECT count(*) FROM abilities x WHERE x.oracle_id = c.oracle_id) >= 2""").fetchall()
    made = correct = wanted = 0
    wrong = []
    for name, comment, ability, method in rows:
        match = [e for e in expected if e["card"] == name and comment.startswith(e["ruling"])]
        assert len(match) == 1, (name, comment[:60], len(match))
        want = match[0]["ability"]
        wanted += bool(want)
        if ability is not None:
            made += 1
            if want and ability.startswith(want):
                correct += 1
            else:
                wrong.append((name, comment[:60], ability[:40], method))
    assert len(rows) == len(expected)
    precision, recall = correct / made, correct / wanted
    print(f"\nruling links: {made} made, precision {precision:.3f}, recall {recall:.3f} ({wanted} linkable)")
    assert precision >= PRECISION_FLOOR, wrong
    assert recall >= RECALL_FLOOR


def test_no_link_for_single_ability_cards_and_shared_rulings():
    abilities = [{"ability_id": "a", "text": "Flying"}]
    assert link_ruling("r", "Flying matters.", "X", abilities) is None
    two = [{"ability_id": "a", "text": "When this Class becomes level 2, draw two cards."},
           {"ability_id": "b", "text": "{2}{U}: Level 2"}]
    comment = ("Each Class starts with only the first of three class abilities. As the first level ability "
               "resolves, the Class becomes level 2 and gains the second class ability.")
    assert link_ruling("r", comment, "Wizard Class", two, shared=True) is None


def test_normalize_names_and_old_wording():
    assert normalize("When Pelakka Wurm enters the battlefield, you gain 7 life.", "Pelakka Wurm") == \
        "when ~ enters you gain 7 life"
    assert normalize("Whenever this creature attacks", "X") == "whenever ~ attacks"
