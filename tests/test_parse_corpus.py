"""Parser over the MTGJSON 2022 corpus (marked ``corpus``): every ability line gets a kind, and
the structured fractions stay at or above the floors below.

Faces are deduplicated by (Scryfall oracle id, face name): 24,189 unique faces. The issue's
targets (≥ 99.5 % of mana abilities and copy effects, ≥ 99 % of activated-ability costs fully
structured) are not all reached yet: FLOORS holds what the grammar reaches now (a ratchet —
raise them as the grammar grows; docs/ast.md § Coverage has the measured figures).
"""

from __future__ import annotations

import gzip
import json
import re
from functools import lru_cache
from pathlib import Path

import pytest

from pipeline.parse import ABILITY_KINDS, parse_face
from pipeline.parse import ast as A

CORPUS = Path(__file__).parents[1].parent / "shared" / "corpus"
MTGJSON = CORPUS / "mtgjson-v5-20220425"

FLOORS = {
    "cost_structured": 0.99,      # issue target 0.99 (reached); no Unparsed node in the cost
    "add_mana_nodes": 0.95,       # AddMana nodes without Unparsed / sentences mentioning "add … mana"
    "copy_nodes": 0.995,          # issue target 0.995 (reached: 351 / 351); no Unparsed node
    "no_unparsed_faces": 0.828,   # faces without any Unparsed node (the old "fully parsed"): 20,044 / 24,189 at 0cdac9a (19,876 at cd16b63)
    # round trip (fully_parsed since issue 13, docs/ast.md § Rendering). Re-based on the honest
    # figure when the renderer landed (faces 78.4% → 14.8%); issue targets: faces 0.94, every
    # kind with ≥ 200 lines 0.90, mana lines and copy effects 0.995. Peer phase.rs: 0.941.
    "faces_fully": 0.804,         # of faces with at least one ability line (19,178 / 23,850 after the 2026-12-04 merge, 0cdac9a; 18,954 / 23,850 after the 2026-12-03 merge, cd16b63; 18,559 / 23,850 after the 2026-12-02 16:00 merge; 18,164 after the 14:41 merge; 17,561 / 23,850 after the g-objects merge; 17,392 at 09:15; 17,132 after g-objects zone prepositions; 17,043 after the 2026-12-02 merges; 0.545 at b7e3469)
    "mana_ability_fully": 0.980,  # 1,413 / 1,441
    "mana_lines": 0.951,          # 1,614 / 1,696
    "copy_lines": 0.798,          # 333 / 417 (318 at cd16b63)
    "keyword_lines": 0.988,        # 9,656 / 9,766
}


@lru_cache(maxsize=1)
def unique_faces() -> list[dict]:
    """Unique faces of the MTGJSON corpus: {oracle_id, name, type_line, oracle_text}."""
    seen = {}
    for path in sorted(MTGJSON.glob("*.json.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            data = json.load(fh)["data"]
        for c in data.get("cards", []):
            oid = c.get("identifiers", {}).get("scryfallOracleId")
            name = c.get("faceName") or c["name"]
            if (oid, name) not in seen:
                seen[(oid, name)] = {"oracle_id": oid, "name": name, "type_line": c.get("type", ""),
                                     "oracle_text": c.get("text", "")}
    return list(seen.values())


@lru_cache(maxsize=1)
def parsed():
    return [(f, parse_face(f["oracle_text"], name=f["name"], type_line=f["type_line"])) for f in unique_faces()]


def _has_unparsed(node) -> bool:
    return any(isinstance(n, A.Unparsed) for n in node.walk())


pytestmark = pytest.mark.corpus


def test_unique_face_count():
    assert 24000 <= len(unique_faces()) <= 24500


def test_every_line_has_a_kind():
    for f, abilities in parsed():
        for a in abilities:
            assert a.kind in ABILITY_KINDS, (f["name"], a.text)


def test_activated_costs_structured():
    act = [a for _, r in parsed() for a in r if a.kind == "activated"]
    ok = sum(not _has_unparsed(a.body.cost) for a in act)
    assert ok / len(act) >= FLOORS["cost_structured"]


def test_mana_abilities_structured():
    ma = [a for _, r in parsed() for a in r if a.is_mana_ability]
    assert len(ma) > 1300
    assert sum(a.fully_parsed for a in ma) / len(ma) >= FLOORS["mana_ability_fully"]


def _family(cls, rx):
    ok = bad = 0
    for _, r in parsed():
        for a in r:
            if isinstance(a.body, A.KeywordLine):
                continue
            for n in a.body.walk():
                if isinstance(n, cls):
                    bad += _has_unparsed(n)
                    ok += not _has_unparsed(n)
                elif isinstance(n, A.Unparsed) and re.search(rx, n.text, re.I):
                    bad += 1
    return ok / (ok + bad)


def test_add_mana_structured():
    assert _family(A.AddMana, r"\b(add|adds)\b[^.]*(\{|mana)") >= FLOORS["add_mana_nodes"]


def test_copy_effects_structured():
    assert _family(A.CopyEffect, r"\b(copy of|copies of|copy (target|it|that|the|~|this|each)|as a copy)\b") >= FLOORS["copy_nodes"]


def test_faces_without_unparsed():
    res = parsed()
    assert sum(all(a.no_unparsed for a in r) for _, r in res) / len(res) >= FLOORS["no_unparsed_faces"]


def test_faces_fully_parsed():
    """Faces whose every ability round-trips (issue 13: faces with at least one ability line)."""
    res = [(f, r) for f, r in parsed() if r]
    assert sum(all(a.fully_parsed for a in r) for _, r in res) / len(res) >= FLOORS["faces_fully"]


def test_round_trip_figures():
    from pipeline.serve.coverage import summarize

    rep = summarize((f["name"], [a.to_json() for a in r]) for f, r in parsed())
    assert rep["mana_lines"]["fraction"] >= FLOORS["mana_lines"]
    assert rep["copy_lines"]["fraction"] >= FLOORS["copy_lines"]
    assert rep["per_kind"]["keyword"]["fraction"] >= FLOORS["keyword_lines"]


def test_golden_inputs_are_corpus_text():
    """The golden files' inputs are the corpus text verbatim (never invented)."""
    by_name = {}
    for f in unique_faces():
        by_name.setdefault(f["name"], []).append(f)
    goldens = [json.loads(p.read_text(encoding="utf-8"))
               for p in sorted((Path(__file__).parent / "golden" / "parse").glob("*.json"))]
    if any(rec["name"] not in by_name for rec in goldens):
        # a card the 2022 corpus lacks (Killer Cosplay) is checked against its oracle-2026 wording
        from pipeline.serve.coverage import record_faces
        with gzip.open(CORPUS / "oracle-2026" / "cards-2026.jsonl.gz", "rt", encoding="utf-8") as f:
            for line in f:
                for face in record_faces(json.loads(line)):
                    if face["name"] not in by_name:
                        by_name.setdefault(face["name"], []).append(face)
    for rec in goldens:
        assert any(f["oracle_text"] == rec["oracle_text"] for f in by_name[rec["name"]]), rec["name"]
