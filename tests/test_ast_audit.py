"""The committed hand audit of round-tripping ASTs on oracle-2026 (issue 13, ``tests/data/ast_audit_2026``).

The verdicts were given by hand (README there: method, seed, commit, grammar version); this test keeps
the file honest: well-formed, every audited text a real ability line of oracle-2026 at the face and index
named, no free text left in a judged AST, and the correct count what the README states — at least the
issue's 97 of 100, which is what the audit found.
"""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from pipeline.parse.ast import ABILITY_KINDS
from pipeline.parse.segment import ability_blocks
from pipeline.serve.coverage import is_traditional, record_faces

AUDIT = Path(__file__).parent / "data" / "ast_audit_2026"
ORACLE_2026 = Path(__file__).parents[1].parent / "shared" / "corpus" / "oracle-2026" / "cards-2026.jsonl.gz"
FIELDS = {"n", "card", "face", "face_name", "index", "kind", "text", "normalized", "ability_word",
          "is_mana_ability", "ast", "verdict", "reason"}
FREE_KEYS = {"text", "normalized", "pieces", "reminders", "rendered", "render_mismatch", "grammar_version"}
#: What the hand audit found (README § Figures); the issue's target is 97 of 100.
AUDITED_CORRECT = 100
#: The supplement of longer lines (README § Supplement): 30 judged, all correct.
SUPPLEMENT_CORRECT = 30
FILES = {"audit.jsonl": 100, "supplement_long.jsonl": 30}


def rows(name: str = "audit.jsonl") -> list[dict]:
    return [json.loads(line) for line in (AUDIT / name).read_text(encoding="utf-8").splitlines()]


def _free_text(v, path="ast"):
    """Paths in a stripped AST that still hold free text."""
    if isinstance(v, dict):
        for k, x in v.items():
            if k in FREE_KEYS:
                yield f"{path}.{k}"
            yield from _free_text(x, f"{path}.{k}")
        if v.get("node") == "Text" and set(v) != {"node"}:
            yield f"{path}: Text node with wording"
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _free_text(x, f"{path}[{i}]")


@pytest.mark.parametrize("name", FILES)
def test_audit_file_is_well_formed(name):
    rs = rows(name)
    assert [r["n"] for r in rs] == list(range(1, FILES[name] + 1))
    assert len({(r["card"], r["face"], r["index"]) for r in rs}) == len(rs), "an ability drawn twice"
    for r in rs:
        assert set(r) == FIELDS, r["n"]
        assert r["kind"] in ABILITY_KINDS and r["kind"] != "reminder", r["n"]
        assert r["verdict"] in ("correct", "misparse"), r["n"]
        assert isinstance(r["reason"], str) and r["reason"].strip() and "\n" not in r["reason"], r["n"]
        assert r["ast"].get("node") in ("Activated", "Triggered", "Static", "KeywordLine", "Modal", "Chapter",
                                        "LevelBlock", "ClassLevel"), r["n"]
        assert not list(_free_text(r["ast"])), (r["n"], list(_free_text(r["ast"])))


def test_audited_count_is_the_readme_figure():
    rs = rows()
    correct = sum(r["verdict"] == "correct" for r in rs)
    assert correct == AUDITED_CORRECT
    assert correct >= 97  # issue 13's target, met by this audit
    readme = (AUDIT / "README.md").read_text(encoding="utf-8")
    assert f"**Result: {correct} / {len(rs)} correct**" in readme
    # each misparse is listed in the README by its number and card
    for r in rs:
        if r["verdict"] == "misparse":
            assert re.search(rf"#{r['n']} {re.escape(r['face_name'])}\b", readme), r["n"]
    assert Counter(r["kind"] for r in rs)["keyword"] == 31  # README § What was audited


def test_supplement_count_is_the_readme_figure():
    rs = rows("supplement_long.jsonl")
    assert sum(r["verdict"] == "correct" for r in rs) == SUPPLEMENT_CORRECT
    assert f"**{SUPPLEMENT_CORRECT} / {len(rs)} correct**" in (AUDIT / "README.md").read_text(encoding="utf-8")
    # the stratum: no keyword line, each at least 80 characters without reminder text
    for r in rs:
        assert r["kind"] != "keyword" and len(re.sub(r"\s*\([^()]*\)", "", r["normalized"])) >= 80, r["n"]


@pytest.mark.corpus
def test_every_audited_text_is_an_oracle_2026_ability_line():
    audited = [r for name in FILES for r in rows(name)]
    want: dict[tuple, list] = {}
    for r in audited:
        want.setdefault((r["card"], r["face"]), []).append(r)
    found = 0
    with gzip.open(ORACLE_2026, "rt", encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            if not is_traditional(rec):
                continue
            for fi, f in enumerate(record_faces(rec)):
                for r in want.get((rec.get("name") or "", fi), []):
                    assert f["name"] == r["face_name"], r["n"]
                    blocks = ability_blocks(f["oracle_text"])
                    assert r["index"] < len(blocks) and blocks[r["index"]] == r["text"], (r["n"], r["card"])
                    found += 1
    assert found == len(audited)
