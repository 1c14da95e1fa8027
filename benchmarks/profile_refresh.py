"""Profile one refresh under cProfile and say where the time goes, stage by stage.

Usage (from the repository root)::

    /tmp/venv/bin/python benchmarks/profile_refresh.py [--source PATH] [--db PATH] [--top N] [--json] [--pstats OUT]

Default source: the MTGJSON corpus directory, with the Comprehensive Rules (annotate on), into a
fresh temporary database (cold: no parse cache). Prints the time of each stage — the cumulative
time of the function that runs it:

* read      — :func:`pipeline.normalize.ingest.collect` (decompress, JSON, normalize, merge);
* grammar   — :func:`pipeline.parse.grammar.get_parser` (Lark LALR construction, once per process);
* parse     — :meth:`pipeline.store.abilities.FaceParser.ability_rows` minus grammar construction
              (per-face parsing, AST building, AST JSON);
* derive    — ``pipeline.store.build._derive`` (produced mana etc.);
* annotate  — ``pipeline.store.build._annotate`` (rules, glossary, ruling links);
* write     — ``_insert_df`` (pandas → DuckDB inserts), views, previous database read, checkpoint:
              the rest of ``build_database``;
* other     — everything else (imports, lock, runs table).

then the top functions by own time. ``--json`` prints the stage table as one JSON line last
(for benchmarks/run.py).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CORPUS = ROOT.parent / "shared" / "corpus"

#: stage → (file suffix, function name) of its entry point.
STAGES = {
    "read": ("pipeline/normalize/ingest.py", "collect"),
    "grammar": ("pipeline/parse/grammar.py", "get_parser"),
    "parse": ("pipeline/store/abilities.py", "ability_rows"),
    "derive": ("pipeline/store/build.py", "_derive"),
    "annotate": ("pipeline/store/build.py", "_annotate"),
    "build": ("pipeline/store/build.py", "build_database"),
    "insert": ("pipeline/store/build.py", "_insert_df"),
}


def cumulative(stats: pstats.Stats, suffix: str, func: str) -> float:
    """Cumulative seconds of the function ``func`` defined in a file ending with ``suffix``."""
    total = 0.0
    for (filename, _line, name), (_cc, _nc, _tt, ct, _callers) in stats.stats.items():
        if name == func and filename.replace("\\", "/").endswith(suffix):
            total += ct
    return total


def stage_times(stats: pstats.Stats, total: float) -> list[tuple[str, float]]:
    """Seconds per stage (see the module docstring), summing to ``total``."""
    c = {k: cumulative(stats, *v) for k, v in STAGES.items()}
    parse = max(c["parse"] - c["grammar"], 0.0)
    write = max(c["build"] - c["parse"] - c["derive"] - c["annotate"], 0.0)
    rows = [("read (collect: decompress, JSON, normalize)", c["read"]),
            ("grammar construction (Lark LALR)", c["grammar"]),
            ("parse (faces → ASTs → JSON)", parse),
            ("derive", c["derive"]),
            ("annotate (CR, glossary, ruling links)", c["annotate"]),
            (f"write (DuckDB inserts {c['insert']:.1f} s, views, checkpoint, previous db)", write)]
    rows.append(("other (imports, lock, runs)", max(total - sum(s for _, s in rows), 0.0)))
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Profile one refresh by stage (cProfile)")
    ap.add_argument("--source", type=Path, default=CORPUS / "mtgjson-v5-20220425")
    ap.add_argument("--rules", type=Path, default=CORPUS / "comprehensive-rules" / "MagicCompRules-20260227.txt")
    ap.add_argument("--db", type=Path, default=None, help="database path (default: a new temp file; cold)")
    ap.add_argument("--top", type=int, default=25, help="functions listed by own time")
    ap.add_argument("--json", action="store_true", help="print the stage table as JSON last")
    ap.add_argument("--pstats", type=Path, default=None, help="also save the raw profile here (snakeviz, pstats)")
    args = ap.parse_args(argv)
    tmp = None
    db = args.db
    if db is None:
        tmp = tempfile.TemporaryDirectory(prefix="mtg-profile-")
        db = Path(tmp.name) / "profile.duckdb"
    prof = cProfile.Profile()
    t0 = time.perf_counter()
    prof.enable()
    from pipeline.refresh import refresh

    outcome = refresh([args.source], db, rules=args.rules, force=True)
    prof.disable()
    total = time.perf_counter() - t0
    if tmp is not None:
        tmp.cleanup()
    if args.pstats:
        prof.dump_stats(str(args.pstats))
    stats = pstats.Stats(prof)
    stages = stage_times(stats, total)
    print(f"refresh {outcome.status}: {outcome.counts.get('cards')} cards, parsed {outcome.parsed}; "
          f"{total:.1f} s under cProfile")
    for name, secs in stages:
        print(f"  {name:<70} {secs:7.1f} s  {secs / total:5.1%}")
    print(f"\ntop {args.top} functions by own time:")
    stats.sort_stats("tottime").print_stats(args.top)
    if args.json:
        top = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])[:args.top]
        print(json.dumps({"total_s": total, "stages": stages, "parsed": outcome.parsed,
                          "top": [[f"{Path(f).name}:{line}({name})", tt, ct]
                                  for (f, line, name), (_cc, _nc, tt, ct, _c) in top]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
