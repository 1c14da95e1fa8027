"""Comprehensive Rules parser on the real CR file (MagicCompRules-20260227.txt)."""

from __future__ import annotations

import datetime as dt
import gzip
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.sources.comprehensive_rules import (
    SUBRULE_LETTERS,
    RulesFormatError,
    load_comprehensive_rules,
    parent_of,
    parse_comprehensive_rules,
)

CORPUS = Path(__file__).parents[1].parent / "shared" / "corpus"
CR_FILE = CORPUS / "comprehensive-rules" / "MagicCompRules-20260227.txt"

pytestmark = pytest.mark.corpus


@pytest.fixture(scope="module")
def raw_bytes() -> bytes:
    return CR_FILE.read_bytes()


@pytest.fixture(scope="module")
def cr():
    return load_comprehensive_rules(CR_FILE)


def test_real_file_has_bom_and_crlf(raw_bytes):
    assert raw_bytes.startswith(b"\xef\xbb\xbf")
    assert b"\r\n" in raw_bytes


@pytest.mark.parametrize("eol", ["\r\n", "\r", "\n"])
def test_every_line_ending_style_parses_identically(raw_bytes, cr, eol):
    text = raw_bytes.decode("utf-8").replace("\r\n", "\n").replace("\n", eol)
    assert text.startswith("\ufeff")
    parsed = parse_comprehensive_rules(text)
    assert parsed.rules == cr.rules
    assert parsed.glossary == cr.glossary
    assert parsed.effective_date == dt.date(2026, 2, 27)


def test_gzip_file_reads_like_plain(tmp_path, raw_bytes, cr):
    gz = tmp_path / "MagicCompRules-20260227.txt.gz"
    gz.write_bytes(gzip.compress(raw_bytes))
    assert load_comprehensive_rules(gz).rules == cr.rules


def test_counts_and_effective_date(cr):
    assert cr.effective_date == dt.date(2026, 2, 27)
    assert len(cr.rules) == 3275
    assert len(cr.glossary) == 726
    assert len({r.rule for r in cr.rules}) == len(cr.rules)


def test_parent_chain_107_3i(cr):
    by = cr.by_number()
    r = by["107.3i"]
    assert r.text == "Normally, all instances of X on an object have the same value at any given time."
    assert (r.parent, by["107.3"].parent, by["107"].parent, by["1"].parent) == ("107.3", "107", "1", None)
    assert by["107"].title == "Numbers and Symbols"
    assert by["1"].title == "Game Concepts"
    assert r.section == "1"


def test_table_of_contents_does_not_duplicate_or_lose_titles(cr):
    by = cr.by_number()
    # Titles come from the body; each section and rule appears once.
    assert by["9"].title == "Casual Variants"
    # Sections sit in the body, between the last rule of the previous section and their first rule.
    assert by["732"].position < by["8"].position < by["800"].position
    assert by["707"].title == "Copying Objects"
    assert [r.rule for r in cr.rules[:3]] == ["1", "100", "100.1"]


def test_examples_belong_to_preceding_rule(cr):
    text = cr.by_number()["101.2"].text
    assert text.startswith("When a rule or effect allows or directs something to happen")
    assert text.endswith(
        "\nExample: If one effect reads “You may play an additional land this turn” and another reads "
        "“You can’t play lands this turn,” the effect that precludes you from playing lands wins."
    )
    assert not any(r.text.startswith("Example:") for r in cr.rules)


def test_indented_continuation_and_trailing_period_subrule(cr):
    by = cr.by_number()
    assert "\nCards printed in sets prior to the Eighth Edition core set" in by["205.4c"].text
    assert by["119.1d"].text.startswith("In a two-player Brawl game")
    assert by["119.1d"].parent == "119.1"


def test_subrule_letters_skip_l_and_o(cr):
    numbers = {r.rule for r in cr.rules}
    assert {"704.5k", "704.5m", "704.5n", "704.5p"} <= numbers
    assert "704.5l" not in numbers and "704.5o" not in numbers
    for r in cr.rules:
        if r.rule[-1].isalpha():
            assert r.rule[-1] in SUBRULE_LETTERS, r.rule


def test_keyword_heading_titles(cr):
    by = cr.by_number()
    assert by["702.19"].title == "Trample"
    assert by["701.42"].title == "Meld"
    assert by["702.19c"].title is None
    assert by["702.19c"].text.startswith("Trample over planeswalkers is a variant of trample")


def test_every_parent_exists_and_precedes(cr):
    by = cr.by_number()
    for r in cr.rules:
        if r.parent is not None:
            assert r.parent in by, r.rule
            assert by[r.parent].position < r.position
            assert by[r.parent].section == r.section


def test_glossary_entries(cr):
    g = {e.term: e.text for e in cr.glossary}
    assert g["Abandon"].startswith("To turn a face-up ongoing scheme card face down")
    assert g["Ability"].split("\n")[0] == "1. Text on an object that explains what that object does or can do."
    assert "Credits" not in g and "Glossary" not in g


def test_no_numbered_rule_is_an_error():
    with pytest.raises(RulesFormatError, match="myfile.txt: no numbered rule"):
        parse_comprehensive_rules("Magic: The Gathering Comprehensive Rules\n\nGlossary\n", source="myfile.txt")


def test_duplicate_rule_is_an_error(raw_bytes):
    text = raw_bytes.decode("utf-8-sig").replace(
        "100.1b A multiplayer game", "100.1a A multiplayer game", 1
    )
    with pytest.raises(RulesFormatError, match="rule 100.1a appears twice"):
        parse_comprehensive_rules(text, source="edited.txt")


@given(st.sampled_from(["1", "107", "107.3", "107.3i", "702.190a", "905.6"]))
def test_parent_of_walks_to_section(number):
    chain = [number]
    while (p := parent_of(chain[-1])) is not None:
        chain.append(p)
    assert chain[-1] == number[0]
    assert len(chain) <= 4


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_any_rule_parent_chain_reaches_its_section(cr, data):
    r = data.draw(st.sampled_from(cr.rules))
    by = cr.by_number()
    node = r
    while node.parent is not None:
        node = by[node.parent]
    assert node.rule == r.section
