"""Dump every ability line that does not round-trip, for grammar work and regression diffs.

Usage (from the repository root, with the project's venv)::

    .venv/bin/python tools/coverage_dump.py [--2022] OUT.jsonl
    .venv/bin/python tools/coverage_dump.py --diff BEFORE.jsonl AFTER.jsonl

Faces are counted as ``mtg-pipeline coverage`` counts them (docs/ast.md § Coverage): by default the
oracle-2026 corpus (``../shared/corpus/oracle-2026/cards-2026.jsonl.gz``, planes, schemes, vanguards
and Alchemy ``A-`` cards left out, :func:`pipeline.serve.coverage.is_traditional`); with ``--2022``
the unique faces of the MTGJSON 2022 corpus (``tests/test_parse_corpus.unique_faces``). ``OUT`` gets
one JSON object per ability line whose ``fully_parsed`` is false::

    {"name", "kind", "text", "normalized", "shape", "unparsed": [text, ...], "rendered", "expected", "at"}

``shape`` is :func:`pipeline.serve.coverage.mismatch_shape`. The summary of the whole corpus
(:func:`pipeline.serve.coverage.format_summary`) is printed last. ``--diff`` prints the lines failing
in AFTER but not in BEFORE (regressions) and the count of lines fixed, keyed by (name, text), so a
line printed twice on one card counts once (oracle-2026 at 142fd2d: 7,651 failing lines, 7,649 keys);
it exits 1 when any line regressed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ORACLE_2026 = ROOT.parent / "shared" / "corpus" / "oracle-2026" / "cards-2026.jsonl.gz"


def _parsed_2022():
    """(name, [Ability JSON]) for the MTGJSON 2022 unique faces with at least one ability line."""
    from pipeline.parse import parse_face

    sys.path.insert(0, str(ROOT))
    from tests.test_parse_corpus import unique_faces

    for f in unique_faces():
        abilities = [a.to_json() for a in parse_face(f["oracle_text"], name=f["name"], type_line=f["type_line"])]
        if abilities:
            yield f["name"], abilities


def dump(out: Path, corpus_2022: bool) -> None:
    """Parse every face and write its failing lines to ``out``; print the corpus summary."""
    from pipeline.serve.cli_parse import iter_parsed_faces, unparsed_texts
    from pipeline.serve.coverage import format_summary, mismatch_shape, summarize

    faces = _parsed_2022() if corpus_2022 else iter_parsed_faces(str(ORACLE_2026))
    parsed = []
    with out.open("w", encoding="utf-8") as fh:
        for name, abilities in faces:
            parsed.append((name, abilities))
            for a in abilities:
                if a.get("fully_parsed"):
                    continue
                m = a.get("render_mismatch") or {}
                fh.write(json.dumps({"name": name, "kind": a.get("kind"), "text": a.get("text"),
                                     "normalized": a.get("normalized"), "shape": mismatch_shape(a),
                                     "unparsed": unparsed_texts(a), "rendered": m.get("rendered"),
                                     "expected": m.get("expected"), "at": m.get("at")}, ensure_ascii=False) + "\n")
    print(format_summary(summarize(parsed)))


def _keys(path: Path) -> dict:
    with path.open(encoding="utf-8") as fh:
        return {(r["name"], r["text"]): r for r in map(json.loads, fh)}


def diff(before: Path, after: Path) -> int:
    """Print regressions (failing only in ``after``) and the number fixed; 1 when any regressed."""
    b, a = _keys(before), _keys(after)
    regressed = [a[k] for k in a.keys() - b.keys()]
    for r in sorted(regressed, key=lambda r: (r["name"], r["text"])):
        print(f"REGRESSED {r['name']}: {r['text']}\n    shape: {r['shape']}")
    print(f"fixed {len(b.keys() - a.keys())}, regressed {len(regressed)}, still failing {len(a.keys() & b.keys())}")
    return 1 if regressed else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--2022", dest="corpus_2022", action="store_true", help="MTGJSON 2022 unique faces")
    ap.add_argument("--diff", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    ap.add_argument("out", nargs="?", type=Path)
    args = ap.parse_args(argv)
    if args.diff:
        return diff(*args.diff)
    if args.out is None:
        ap.error("OUT is required without --diff")
    dump(args.out, args.corpus_2022)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
