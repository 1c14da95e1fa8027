"""Keyword names from the Comprehensive Rules (issue 13 item 3): grammar/keywords_cr.lark is generated
from the bundled CR by ``python -m pipeline.parse.gen_keywords`` and committed; new keywords of the
CR parse on real cards of oracle-2026."""

from __future__ import annotations

import pytest

from pipeline.parse import ast as A
from pipeline.parse import gen_keywords as G
from pipeline.paths import BUNDLED_RULES, GRAMMAR_DIR
from tests.test_parse_metamorphic import ability


def _cr() -> str:
    return G.read_rules(BUNDLED_RULES)


def test_committed_file_is_generated_from_the_bundled_rules():
    hand = (GRAMMAR_DIR / "keywords.lark").read_text(encoding="utf-8")
    assert (GRAMMAR_DIR / G.OUTPUT).read_text(encoding="utf-8") == G.build(_cr(), hand)


def test_shapes_read_from_the_rules():
    shapes = G.keyword_shapes(_cr())
    # quoted in the rule: “Firebending N” (702.189a), “Sneak [cost]”, “Suspend N—[cost]”, “Job select”
    assert shapes["firebending"] == "num" and shapes["sneak"] == "cost" and shapes["suspend"] == "num_cost"
    assert shapes["job select"] == "simple" and shapes["start your engines!"] == "simple"
    assert shapes["ward"] == "cost"          # unquoted: "Ward [cost] means …" (702.21a)
    assert shapes["enchant"] == "other"      # “Enchant [object or player]”: keywords.lark reads it
    assert shapes["hexproof"] == "simple"    # “Hexproof” beats “Hexproof from [quality]”
    assert "daybound" in shapes and "nightbound" in shapes  # CR 702.145 names two
    assert len(shapes) >= 185


def test_ability_words_and_actions_listed():
    assert {"landfall", "threshold", "council's dilemma"} <= set(G.ability_words(_cr()))
    assert {"scry", "populate", "airbend"} <= set(G.keyword_actions(_cr()))


@pytest.mark.parametrize("name,line,keyword,amount", [
    ("Rough Rhino Cavalry", "Firebending 2", "firebending", 2),
    ("Pride of the Road", "Start your engines!", "start your engines!", None),
    ("Reaper's Scythe", "Job select", "job select", None),
    ("Rescue Skiff", "Station", "station", None),
    ("Leonardo's Technique", "Sneak {1}{W}", "sneak", None),
])
def test_new_keywords_parse(name, line, keyword, amount):
    a = ability(name, line)
    assert a.kind == "keyword" and a.fully_parsed
    (kw,) = a.body.keywords
    assert kw.name == keyword
    if amount is not None:
        assert kw.amount.value == amount
    if keyword == "sneak":
        assert [s.raw for s in kw.cost.components[0].symbols] == ["{1}", "{W}"]
    assert isinstance(a.body, A.KeywordLine)


# keywords with a parameter of their own shape (grammar/keywords.lark, transform_keywords.py)
@pytest.mark.parametrize("name,line,kind", [
    ("Dawn's Truce", "Gift a card", "card"),                  # CR 702.174e
    ("Parting Gust", "Gift a tapped Fish", "tapped_fish"),    # CR 702.174f
    ("Crumb and Get It", "Gift a Food", "food"),              # CR 702.174d
    ("Octomancer", "Gift an Octopus", "octopus"),             # CR 702.174i
])
def test_gift_kind_is_an_enum(name, line, kind):
    a = ability(name, line)
    assert a.kind == "keyword" and a.fully_parsed, a.to_json()["render_mismatch"]
    (kw,) = a.body.keywords
    assert kw.name == "gift" and kw.param == A.Gift(kind) and kind in A.GIFTS


def test_prototype_cost_and_power_toughness():
    a = ability("Steel Seraph", "Prototype {1}{W}{W} — 3/3")  # CR 702.160a, 718.3
    assert a.kind == "keyword" and a.fully_parsed, a.to_json()["render_mismatch"]
    (kw,) = a.body.keywords
    assert kw.name == "prototype" and kw.param == A.PowerToughness("3/3")
    assert [s.raw for s in kw.cost.components[0].symbols] == ["{1}", "{W}", "{W}"]


@pytest.mark.parametrize("name,line,keyword,words,count", [
    ("Braided Net", "Craft with artifact {1}{U}", "craft", ["artifact"], None),            # CR 702.167a
    ("Visage of Dread", "Craft with two creatures {5}{B}", "craft", ["creatures"], 2),
    ("Blackblade Reforged", "Equip legendary creature {3}", "equip", ["legendary", "creature"], None),  # CR 702.6c
    ("Steelclaw Lance", "Equip Knight {1}", "equip", ["knight"], None),
])
def test_keyword_with_materials_or_quality(name, line, keyword, words, count):
    a = ability(name, line)
    assert a.kind == "keyword" and a.fully_parsed, a.to_json()["render_mismatch"]
    (kw,) = a.body.keywords
    assert kw.name == keyword and isinstance(kw.param, A.Obj) and kw.cost is not None
    assert [w.lower() for w in kw.param.words] == words
    got = kw.param.count.value if kw.param.count is not None else None
    assert got == count or (count is not None and kw.param.quantifier is not None), kw.param


@pytest.mark.parametrize("name,line,keyword,amount", [
    ("Heroic Teamwork", "Teamwork 3", "teamwork", 3),               # paper, after the bundled CR
    ("Static Discharge", "Starting intensity 3", "starting intensity", 3),  # MTG Arena (digital)
    ("Champions of Tyr", "Double team", "double team", None),       # MTG Arena (digital)
])
def test_keywords_the_bundled_cr_does_not_define(name, line, keyword, amount):
    """Keywords Oracle prints that the bundled CR does not define (lexicon.NON_CR_KEYWORDS) parse and
    render; they are not in the CR lexicon (when a CR names one, it must leave the hand-kept list)."""
    from pipeline.parse.lexicon import NON_CR_KEYWORDS, cr_lexicons

    a = ability(name, line)
    assert a.kind == "keyword" and a.fully_parsed
    (kw,) = a.body.keywords
    assert kw.name == keyword and (kw.amount.value if kw.amount else None) == amount
    assert keyword in NON_CR_KEYWORDS and keyword not in cr_lexicons()["keywords"]
