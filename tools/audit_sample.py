"""Draw the seeded sample of round-tripping abilities for the hand audit of issue 13.

The population is every ability line of oracle-2026 that ``mtg-pipeline coverage --jsonl`` counts
(pipeline/serve/coverage.py: records passing ``is_traditional`` — no planes, schemes, vanguards or
Alchemy ``A-`` cards —, their faces from ``record_faces``, faces whose text is empty skipped),
parsed with ``parse_face``, keeping the abilities whose ``fully_parsed`` is true and whose kind is
not ``reminder``. The draw is **uniform over abilities, not stratified**: ``random.Random(SEED)``
``.sample(population, N)`` over the population in corpus order (record, face, ability index), so
keyword-only lines come in at their share of the population (reported, not forced).

Each drawn ability is written with its card name, face index and name, ability index, kind, original
text, normalized text and its *stripped* body: the body JSON with every free-text field removed —
``text``, ``normalized``, ``pieces``, ``reminders``, rendered text, ``Amount.text``, the text of
``Text`` nodes and their subclasses (``Duration``/``Zone`` keep only their enum), ``Obj.words`` /
``extra["words"]`` entries outside the closed lexicons, qualifier tails that carry wording and form
words that are not grammar literals (``strip`` of ``tests/test_parse_metamorphic.py``, imported): what a SQL
user could query. ``verdict`` and ``reason`` are filled in by hand afterwards; re-running the script
keeps the verdicts already in the output file for the same (card, face, ability index, text).

Usage, from the project root (≈ 30–60 s CPU: the whole corpus is parsed)::

    python tools/audit_sample.py                      # writes tests/data/ast_audit_2026/audit.jsonl
    python tools/audit_sample.py --check              # re-draws and compares with the committed file
    python tools/audit_sample.py --long [--check]     # the supplement: supplement_long.jsonl

The supplement (``--long``, seed 20261205, 30 abilities) draws uniformly from the non-keyword lines of
80 characters or more (normalized, reminder text cut out): the longer lines the main draw rarely reaches.

``--check`` exits 1 when the draw (cards, faces, indexes, texts, stripped ASTs) differs from the file:
it reproduces only at the commit and grammar version the README names. The seeds are those of the audit
committed now (2026-12-02: 20261204 and 20261205); the earlier audit (seeds 20261202/20261203, main
18c35dc) is in the history (commits 3733e38, 4b7d069).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

from pipeline.parse import GRAMMAR_VERSION, parse_face
from pipeline.serve.cli_parse import iter_jsonl
from pipeline.serve.coverage import is_traditional, record_faces

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.test_parse_metamorphic import strip  # noqa: E402  (one definition of "free text stripped")

CORPUS = ROOT.parent / "shared" / "corpus" / "oracle-2026" / "cards-2026.jsonl.gz"
OUT = ROOT / "tests" / "data" / "ast_audit_2026" / "audit.jsonl"
SEED = 20261204
N = 100
#: The supplement (``--long``): non-keyword lines of 80 characters or more (normalized, reminder text
#: cut out), a second seed — the part of the population the uniform draw rarely reaches.
LONG_SEED, LONG_N, LONG_CHARS = 20261205, 30, 80
LONG_OUT = OUT.with_name("supplement_long.jsonl")
_REMINDER = re.compile(r"\s*\([^()]*\)")


def is_long(e: dict) -> bool:
    """True for the supplement's stratum: kind ≠ keyword, normalized line without reminder text ≥ 80 chars."""
    return e["kind"] != "keyword" and len(_REMINDER.sub("", e["normalized"])) >= LONG_CHARS


def round_tripping(corpus: Path = CORPUS):
    """Yield ``(record, face index, face, ability JSON)`` for every round-tripping non-reminder ability
    of ``corpus`` (oracle-2026 JSON Lines), in corpus order: the audit's population (module docstring).
    ``face`` is a ``record_faces`` entry (``name``, ``type_line``, ``oracle_text``). Raises BadRecord on
    an unreadable record."""
    for rec in iter_jsonl(str(corpus)):
        if not is_traditional(rec):
            continue
        for fi, f in enumerate(record_faces(rec)):
            if not f["oracle_text"].strip():
                continue
            for a in parse_face(f["oracle_text"], name=f["name"], type_line=f["type_line"]):
                j = a.to_json()
                if j.get("fully_parsed") and j.get("kind") != "reminder":
                    yield rec, fi, f, j


def population(corpus: Path = CORPUS):
    """Yield the audit record (without verdict) of every ability :func:`round_tripping` yields."""
    for rec, fi, f, j in round_tripping(corpus):
        yield {"card": rec.get("name") or "", "face": fi, "face_name": f["name"], "index": j["index"],
               "kind": j["kind"], "text": j["text"], "normalized": j["normalized"],
               "ability_word": j.get("ability_word"), "is_mana_ability": j.get("is_mana_ability"),
               "ast": strip(j["body"])}


def _key(e: dict) -> tuple:
    return (e["card"], e["face"], e["index"], e["text"])


def draw(seed: int = SEED, n: int = N, corpus: Path = CORPUS, long: bool = False) -> tuple[list[dict], Counter]:
    """The seeded uniform sample (corpus order kept) and the population's count per kind; ``long``:
    drawn from the :func:`is_long` stratum only."""
    pop = [e for e in population(corpus) if not long or is_long(e)]
    kinds = Counter(e["kind"] for e in pop)
    picks = sorted(random.Random(seed).sample(range(len(pop)), n))
    return [pop[i] for i in picks], kinds


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--long", action="store_true",
                    help=f"the supplement: non-keyword lines of >= {LONG_CHARS} chars (default seed {LONG_SEED}, "
                         f"n {LONG_N}, output {LONG_OUT.name})")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("-n", type=int, default=None)
    ap.add_argument("--output", type=Path, default=None)
    ap.add_argument("--check", action="store_true", help="compare the draw with --output instead of writing it")
    args = ap.parse_args(argv)
    seed = args.seed if args.seed is not None else (LONG_SEED if args.long else SEED)
    n = args.n if args.n is not None else (LONG_N if args.long else N)
    args.output = args.output or (LONG_OUT if args.long else OUT)
    sample, kinds = draw(seed, n, long=args.long)
    old = {}
    if args.output.exists():
        old = {_key(e): e for e in map(json.loads, args.output.read_text(encoding="utf-8").splitlines())}
    print(f"grammar {GRAMMAR_VERSION}; population {sum(kinds.values())} round-tripping abilities{' (long stratum)' if args.long else ''}: "
          + ", ".join(f"{k} {c}" for k, c in kinds.most_common()), file=sys.stderr)
    print("sample per kind: " + ", ".join(f"{k} {c}" for k, c in Counter(e['kind'] for e in sample).most_common()),
          file=sys.stderr)
    if args.check:
        bad = [e["card"] for e in sample if _key(e) not in old or old[_key(e)]["ast"] != e["ast"]]
        bad += [k[0] for k in set(old) - {_key(e) for e in sample}]
        print(f"{len(bad)} audit entries differ from the draw: {bad[:10]}" if bad else "draw reproduced", file=sys.stderr)
        return 1 if bad else 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    with args.output.open("w", encoding="utf-8") as out:
        for i, e in enumerate(sample):
            prev = old.get(_key(e), {})
            e = {"n": i + 1, **e, "verdict": prev.get("verdict"), "reason": prev.get("reason")}
            out.write(json.dumps(e, ensure_ascii=False, sort_keys=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
