"""Dump every distinct face's parse result of a card source, to prove a speed change changed no AST.

Usage (from the repository root)::

    .venv/bin/python tools/ast_dump.py [--source PATH] [--jobs N] [--limit N] OUT
    .venv/bin/python tools/ast_dump.py --compare A B

The faces are the ones a refresh parses: every distinct (face name, type line, Oracle text) of
the cards :func:`pipeline.normalize.ingest.collect_sources` reads from ``--source`` (default: the
MTGJSON 2022 corpus directory). ``OUT`` gets one line per face, sorted by its parse-cache key
(:func:`pipeline.store.abilities.face_text_hash`): ``<key>\\t<records JSON>`` where the records JSON
is exactly what the refresh stores in ``parse_cache.abilities`` (every ability's text, kind,
``is_mana_ability``, ``fully_parsed`` and AST JSON, :func:`pipeline.store.abilities.parse_face_records`).
The summary printed last (faces, abilities, fully parsed, sha256 of OUT) is the same on two runs
exactly when the files are byte-identical. Every ability carries ``grammar_version``, a hash of the
grammar *and* of ``pipeline/parse/*.py`` (:func:`pipeline.parse.grammar.parse_version`), so a speed
change in the parser's code changes it by design: the dump writes it as ``"*"`` to compare the rest. ``--compare`` prints the first faces whose lines differ
and exits 1 when any does. ``--jobs`` N > 1 parses in worker processes (the refresh's own path).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

#: What every ability's ``grammar_version`` is written as (module docstring).
ANY_VERSION = '"grammar_version":"*"'
DEFAULT_SOURCE = ROOT.parent / "shared" / "corpus" / "mtgjson-v5-20220425"


def distinct_faces(source: Path) -> dict[str, tuple[str, str | None, str]]:
    """``{parse-cache key: (name, type_line, oracle_text)}`` for every face of the cards read from
    ``source`` (a refresh's sources: file or directory). Raises SourceError for a bad source."""
    from pipeline.normalize.ingest import collect_sources
    from pipeline.store.abilities import face_text_hash

    out: dict[str, tuple[str, str | None, str]] = {}
    for card in collect_sources([source]).collection.cards.values():
        for f in card.faces:
            out.setdefault(face_text_hash(f.name, f.type_line, f.oracle_text), (f.name, f.type_line, f.oracle_text))
    return out


def dump(source: Path, out: Path, jobs: int = 1, limit: int | None = None) -> dict:
    """Parse the faces of ``source`` (the first ``limit`` keys when given) and write ``out`` (module
    docstring). Returns ``{"faces", "abilities", "fully_parsed", "sha256", "parse_s", "parse_cpu_s"}``."""
    return dump_faces(distinct_faces(source), out, jobs, limit)


def dump_faces(faces: dict[str, tuple[str, str | None, str]], out: Path, jobs: int = 1,
               limit: int | None = None) -> dict:
    """:func:`dump` of the faces ``{parse-cache key: (name, type_line, oracle_text)}``."""
    from pipeline.parse.grammar import parse_version
    from pipeline.store.abilities import parse_faces, parse_faces_parallel

    keys = sorted(faces)[:limit] if limit else sorted(faces)
    todo = [faces[k] for k in keys]
    t0, c0 = time.perf_counter(), time.process_time()
    parsed = parse_faces_parallel(todo, jobs) if jobs > 1 else parse_faces(todo, _line_memo())
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    version = f'"grammar_version":"{parse_version()}"'
    digest = hashlib.sha256()
    abilities = full = 0
    with out.open("w", encoding="utf-8") as fh:
        for key, (records, rows) in zip(keys, parsed):
            line = key + "\t" + records.replace(version, ANY_VERSION) + "\n"
            fh.write(line)
            digest.update(line.encode())
            abilities += len(rows)
            full += sum(1 for r in rows if r[3])
    return {"faces": len(keys), "abilities": abilities, "fully_parsed": full, "sha256": digest.hexdigest(),
            "parse_s": round(wall, 2), "parse_cpu_s": round(cpu, 2)}


def _line_memo():
    """A fresh line memo (pipeline.parse.line_memo), as a refresh's single-process parse uses; None in
    a checkout older than the memo (the tool is also run on old code, to dump the "before")."""
    try:
        from pipeline.parse.line_memo import LineMemo
    except ImportError:
        return None
    return LineMemo()


def compare(a: Path, b: Path, show: int = 5) -> int:
    """Print the first ``show`` faces whose lines differ between dumps ``a`` and ``b``; return how many differ."""
    def lines(p: Path) -> dict[str, str]:
        with p.open(encoding="utf-8") as fh:
            return dict(line.rstrip("\n").split("\t", 1) for line in fh)

    la, lb = lines(a), lines(b)
    diff = sorted(k for k in la.keys() | lb.keys() if la.get(k) != lb.get(k))
    for k in diff[:show]:
        print(f"{k}\n  A: {(la.get(k) or '<missing>')[:600]}\n  B: {(lb.get(k) or '<missing>')[:600]}")
    print(f"{len(diff)} of {len(la.keys() | lb.keys())} faces differ")
    return len(diff)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", nargs="?", type=Path)
    ap.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--compare", nargs=2, type=Path, metavar=("A", "B"))
    args = ap.parse_args(argv)
    if args.compare:
        return 1 if compare(*args.compare) else 0
    if args.out is None:
        ap.error("OUT is required without --compare")
    print(json.dumps(dump(args.source, args.out, args.jobs, args.limit)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
