"""Golden ASTs of real cards (tests/golden/parse/*.json), text from the MTGJSON 2022 corpus, or
from oracle-2026 (current wording) for a card the 2022 corpus does not hold (Killer Cosplay).

Each golden file holds the input (face name, type line, oracle text exactly as in the
corpus) and the expected ``[Ability.to_json()]`` with ``grammar_version`` left out (it is a
hash of the grammar and changes with every grammar edit). ``UPDATE_GOLDEN=1`` rewrites the
files: inputs looked up in the corpus for the names in tests/golden/parse_cards.txt.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from pipeline.parse import parse_face

GOLDEN = Path(__file__).parent / "golden" / "parse"
NAMES = Path(__file__).parent / "golden" / "parse_cards.txt"


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def strip_version(abilities: list[dict]) -> list[dict]:
    for a in abilities:
        a.pop("grammar_version", None)
        if a.get("body", {}).get("node") == "LevelBlock":
            strip_version(a["body"]["abilities"])
    return abilities


def ast_of(rec: dict) -> list[dict]:
    abilities = parse_face(rec["oracle_text"], name=rec["name"], type_line=rec["type_line"])
    return strip_version([a.to_json() for a in abilities])


def _names() -> list[str]:
    return [l.strip() for l in NAMES.read_text(encoding="utf-8").splitlines() if l.strip() and not l.startswith("#")]


if os.environ.get("UPDATE_GOLDEN"):
    from tests.test_parse_corpus import unique_faces  # noqa: E402 - corpus needed only to regenerate

    def _faces_2026():
        import gzip

        from pipeline.serve.coverage import record_faces
        path = Path(__file__).parents[1] / ".." / "shared" / "corpus" / "oracle-2026" / "cards-2026.jsonl.gz"
        with gzip.open(path, "rt", encoding="utf-8") as f:
            for line in f:
                yield from record_faces(json.loads(line))

    def test_regenerate_golden():
        by_name = {}
        for f in unique_faces():
            by_name.setdefault(f["name"], f)
        if any(n not in by_name for n in _names()):
            for f in _faces_2026():
                by_name.setdefault(f["name"], f)
        missing = [n for n in _names() if n not in by_name]
        assert not missing, f"not in the corpus: {missing}"
        GOLDEN.mkdir(parents=True, exist_ok=True)
        for n in _names():
            f = by_name[n]
            rec = {"name": n, "type_line": f["type_line"], "oracle_text": f["oracle_text"]}
            rec["abilities"] = ast_of(rec)
            (GOLDEN / f"{slug(n)}.json").write_text(json.dumps(rec, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _files():
    return sorted(GOLDEN.glob("*.json"))


def test_golden_set_complete():
    assert len(_files()) >= 60
    assert {slug(n) for n in _names()} == {p.stem for p in _files()}


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.stem)
def test_golden(path):
    rec = json.loads(path.read_text(encoding="utf-8"))
    assert ast_of(rec) == rec["abilities"]
