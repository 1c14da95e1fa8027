"""Cited-reference extraction on real text: MTGJSON rulings and the CR's own cross-references."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.annotate.citations import expand_range, extract_citations
from pipeline.sources.comprehensive_rules import load_comprehensive_rules

CORPUS = Path(__file__).parents[1].parent / "shared" / "corpus"
CR_FILE = CORPUS / "comprehensive-rules" / "MagicCompRules-20260227.txt"

pytestmark = pytest.mark.corpus


def rules_of(text: str) -> list[str]:
    return [c.rule for c in extract_citations(text)]


@pytest.fixture(scope="module")
def cr():
    return load_comprehensive_rules(CR_FILE)


@pytest.fixture(scope="module")
def rules_lawyer_rulings() -> list[str]:
    data = json.loads(gzip.decompress((CORPUS / "mtgjson-v5-20220425" / "UST.json.gz").read_bytes()))
    card = next(c for c in data["data"]["cards"] if c["name"] == "Rules Lawyer")
    return [r["text"] for r in card["rulings"]]


def test_rules_lawyer_parenthesized_numbers(rules_lawyer_rulings):
    by_text = {t: rules_of(t) for t in rules_lawyer_rulings}
    assert by_text["You don’t lose the game if you’re at or below 0 life. (704.5a)"] == ["704.5a"]
    two = next(t for t in by_text if t.startswith("Your Two-Headed Giant team"))
    assert by_text[two] == ["704.5s", "704.5t"]
    # The first ruling says "(Comprehensive Rules references in parentheses)" and cites nothing.
    first = next(t for t in by_text if t.startswith("While you control Rules Lawyer"))
    assert by_text[first] == []
    # "(704.5m)" twice in one ruling → one citation.
    auras = next(t for t in by_text if t.startswith("Auras you control"))
    assert by_text[auras] == ["704.5m"]
    # "0 life", "fifteen or more poison counters", "21 or more combat damage" are not references.
    assert sum(len(v) for v in by_text.values()) == 17


def test_cr_cross_reference_forms(cr):
    by = cr.by_number()
    assert rules_of(by["107.3j"].text) == ["107.3i"]  # "This is an exception to rule 107.3i."
    assert rules_of(by["100.1b"].text) == ["8"]  # "See section 8, “Multiplayer Rules.”"
    assert rules_of(by["100.2c"].text) == ["903"]  # "See rule 903, “Commander,” for details."
    assert rules_of(by["100.2d"].text) == ["108.2a", "717", "901", "904"]


def test_ranges_in_cr_text(cr):
    by = cr.by_number()
    text = next(r.text for r in cr.rules if "(See rules 201.2a–b.)" in r.text)
    assert rules_of(text) == ["201.2a", "201.2b"]
    t506 = by["506.7g"].text
    assert t506.startswith("Rules 506.7 and 506.7a–f apply")
    assert rules_of(t506)[:7] == ["506.7", "506.7a", "506.7b", "506.7c", "506.7d", "506.7e", "506.7f"]


def test_all_cr_cross_references_resolve(cr):
    numbers = {r.rule for r in cr.rules}
    cited = [c for r in cr.rules for c in extract_citations(r.text)]
    unresolved = [c.rule for c in cited if c.rule not in numbers]
    assert len(cited) == 1308
    assert unresolved == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("See rule 605, “Mana Abilities.”", ["605"]),
        ("See rules 702.19c and 702.19d.", ["702.19c", "702.19d"]),
        ("rules 702.19a–c", ["702.19a", "702.19b", "702.19c"]),
        ("rules 103.4 through 103.6", ["103.4", "103.5", "103.6"]),
        ("rules 704.5k–n", ["704.5k", "704.5m", "704.5n"]),
        ("sections 8 and 9", ["8", "9"]),
        ("The player draws 100 cards, then has 20 life and 7 cards in hand.", []),
    ],
)
def test_written_forms(text, expected):
    assert rules_of(text) == expected


def test_expand_range_keeps_unrelated_ends():
    assert expand_range("702.19a", "702.20b") == ["702.19a", "702.20b"]
    assert expand_range("103.6", "103.4") == ["103.6", "103.4"]
    assert expand_range("702.19c", "a") == ["702.19c", "702.19a"]


@given(st.data())
def test_every_cr_number_is_found_after_rule(cr, data):
    r = data.draw(st.sampled_from([r for r in cr.rules if len(r.rule) > 1]))
    assert rules_of(f"See rule {r.rule}, “{r.title or 'x'}.”") == [r.rule]
    assert rules_of(f"({r.rule})") == ([r.rule] if "." in r.rule else [])
