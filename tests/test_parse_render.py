"""Renderer and round trip (pipeline/parse/render*.py, docs/ast.md § Rendering).

Card texts are real (MTGJSON 2022 / oracle-2026 corpora), copied verbatim."""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path

import pytest

from pipeline.parse import ast as A
from pipeline.parse import lexicon, parse_face
from pipeline.parse.normalize import normalize_text
from pipeline.parse.render import canon, expected_text, render_ability

ROUND_TRIPS = [  # (name, type line, oracle text) — every line round-trips
    ("Llanowar Elves", "Creature — Elf Druid", "{T}: Add {G}."),
    ("Serra Angel", "Creature — Angel", "Flying, vigilance"),
    ("Murder", "Instant", "Destroy target creature."),
    ("Shock", "Instant", "Shock deals 2 damage to any target."),
    ("Divination", "Sorcery", "Draw two cards."),
    ("Elvish Visionary", "Creature — Elf Shaman", "When Elvish Visionary enters the battlefield, draw a card."),
    ("Glorious Anthem", "Enchantment", "Creatures you control get +1/+1."),
    ("Bonesplitter", "Artifact — Equipment", "Equipped creature gets +2/+0.\nEquip {1}"),
    ("Simian Spirit Guide", "Creature — Ape Spirit", "Exile Simian Spirit Guide from your hand: Add {R}."),
    ("Merfolk Looter", "Creature — Merfolk Rogue", "{T}: Draw a card, then discard a card."),
    ("Disenchant", "Instant", "Destroy target artifact or enchantment."),
    ("Raise the Alarm", "Instant", "Create two 1/1 white Soldier creature tokens."),
    ("Giant Growth", "Instant", "Target creature gets +3/+3 until end of turn."),
    ("Sol Ring", "Artifact", "{T}: Add {C}{C}."),
]


@pytest.mark.parametrize("name,type_line,text", ROUND_TRIPS, ids=[r[0] for r in ROUND_TRIPS])
def test_round_trip(name, type_line, text):
    for a in parse_face(text, name=name, type_line=type_line):
        assert a.fully_parsed and a.render_mismatch is None, a.render_mismatch
        assert canon(a.rendered) == expected_text(a)


def test_old_and_new_wording_render_the_same():
    """Elvish Visionary, 2022 and current Oracle text: one AST, one canonical rendering."""
    old = parse_face("When Elvish Visionary enters the battlefield, draw a card.", name="Elvish Visionary")
    new = parse_face("When this creature enters, draw a card.", name="Elvish Visionary",
                     type_line="Creature — Elf Shaman")
    assert old[0].rendered == new[0].rendered == "When ~ enters, draw a card."


def test_mismatch_kept_first_differing_words():
    """Withering Gaze: "a card for each … card in it" — the zone preposition ("in" / "from") is one
    rule of objects.lark, rendered "from" after a counted object here: not fully parsed, though it
    has no Unparsed node; the mismatch names the first differing words."""
    (a,) = parse_face("Target opponent reveals their hand. You draw a card for each Forest and green card in it.",
                      name="Withering Gaze", type_line="Sorcery")
    assert a.no_unparsed and not a.fully_parsed
    assert a.render_mismatch == {"shape": "text", "at": 15, "rendered": "from it.", "expected": "in it."}
    assert a.to_json()["render_mismatch"] == a.render_mismatch


def test_damage_equal_in_either_order():
    """Spikeshot Goblin: "deals damage equal to its power to any target" and "deals damage to any
    target equal to its power" are one rule alias (effects.lark a_damage_equal); ``equal_first``
    keeps the order, so both round-trip (CR 120.1)."""
    (a,) = parse_face("{R}, {T}: This creature deals damage equal to its power to any target.",
                      name="Spikeshot Goblin", type_line="Creature — Goblin Shaman")
    assert a.fully_parsed and a.body.effect[0].effects[0].extra["equal_first"] is True


def test_serial_and_of_an_object_list_kept():
    """Akroma's Vengeance: the object list keeps the serial "and" (dlist), so the line round-trips."""
    (a,) = parse_face("Destroy all artifacts, creatures, and enchantments.", name="Akroma's Vengeance",
                      type_line="Sorcery")
    assert a.fully_parsed and a.rendered == "Destroy all artifacts, creatures, and enchantments."


def test_sentence_keeps_its_joins():
    """Merfolk Looter: ", then" is kept (Sentence.joins), so the line round-trips."""
    (a,) = parse_face("{T}: Draw a card, then discard a card.", name="Merfolk Looter")
    assert a.fully_parsed and a.body.effect[0].joins == [", then"]


def test_modal_round_trip():
    """Healing Salve's modes (CR 700.2) with the count as a ChooseCount."""
    text = ("Choose one —\n• Target player gains 3 life.\n• Prevent the next 3 damage that would be dealt to any "
            "target this turn.")
    (a,) = parse_face(text, name="Healing Salve", type_line="Instant")
    assert a.body.choose == A.ChooseCount(1, 1)


def test_unrendered_node_shape(monkeypatch):
    """Gemstone Mine: a counter kind outside the closed lexicon (CR 122.1, data/counter_kinds.tsv)
    keeps its line from round-tripping, with the shape named; "mining" is in the lexicon (first
    named by Gemstone Mine), so the line round-trips until the kind is taken out of it."""
    text = "Gemstone Mine enters the battlefield with three mining counters on it."
    (a,) = parse_face(text, name="Gemstone Mine", type_line="Land")
    assert a.fully_parsed and a.rendered == "~ enters with three mining counters on it."
    kinds = {k: v for k, v in lexicon.counter_kinds().items() if k != "mining"}
    monkeypatch.setattr(lexicon, "counter_kinds", lambda: kinds)
    (a,) = parse_face(text, name="Gemstone Mine", type_line="Land")
    assert not a.fully_parsed
    assert a.rendered is None and a.render_mismatch["shape"] == "counter_kind"


def _blank_free_text(node):
    """Overwrite every free-text string of an AST (``text`` fields, Amount.text)."""
    for n in node.walk():
        if hasattr(n, "text") and isinstance(n.text, str) and not isinstance(n, (A.Text, A.Unparsed)):
            n.text = "#"
    return node


GOLDEN = Path(__file__).parent / "golden" / "parse"


def test_renderer_reads_structured_fields_only():
    """Blanking every ``text`` span of a round-tripping AST changes nothing in its rendering:
    the renderer never reads them (golden cards, every fully parsed line)."""
    seen = 0
    for p in sorted(GOLDEN.glob("*.json")):
        rec = json.loads(p.read_text(encoding="utf-8"))
        for a in parse_face(rec["oracle_text"], name=rec["name"], type_line=rec["type_line"]):
            if not a.fully_parsed or a.kind == "reminder":
                continue
            blank = copy.deepcopy(a)
            blank.body = _blank_free_text(blank.body)
            blank.normalized = blank.text = "#"
            assert render_ability(blank) == a.rendered
            seen += 1
    assert seen >= 40


def test_golden_pins_rendered_text():
    rec = json.loads((GOLDEN / "llanowar_elves.json").read_text(encoding="utf-8"))
    assert rec["abilities"][0]["rendered"] == "{T}: Add {G}."


CORPUS = Path(__file__).parents[1].parent / "shared" / "corpus"


@pytest.mark.corpus
@pytest.mark.parametrize("name,rewrites", [
    ("Angel of Mercy", "enters the battlefield → enters; name → ~ / this creature → ~"),
    ("Aven Cloudchaser", "enters the battlefield → enters; name → ~ / this creature → ~"),
    ("Karn Liberated", "[+4]: → +4:; U+2212 → -"),
    ("Lolth, Spider Queen", "[−3]: → -3:; short name Lolth → ~"),
])
def test_normaliser_rewrites_on_real_cards(name, rewrites):
    """The allowed differences (docs/ast.md § Rendering): the 2022 (MTGJSON) and current
    (oracle-2026) texts of the card differ, and normalise to the same text word for word."""
    old = None
    for path in sorted((CORPUS / "mtgjson-v5-20220425").glob("*.json.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            cards = json.load(fh)["data"]["cards"]
        old = next((c for c in cards if c["name"] == name), None)
        if old is not None:
            break
    with gzip.open(CORPUS / "oracle-2026" / "cards-2026.jsonl.gz", "rt", encoding="utf-8") as fh:
        new = next(json.loads(l) for l in fh if json.loads(l)["name"] == name)
    assert old["text"] != new["oracle_text"]
    a = normalize_text(old["text"], name, old["type"])
    b = normalize_text(new["oracle_text"], name, new["type_line"])
    assert a == b
    assert len(a.split()) <= len(old["text"].split())  # a rewrite shortens wording, never adds
