"""Profile one refresh under cProfile and say where the time goes, stage by stage.

Usage (from the repository root)::

    .venv/bin/python benchmarks/profile_refresh.py [--source PATH] [--db PATH] [--top N] [--json] [--pstats OUT]

Default source: the MTGJSON corpus directory, with the Comprehensive Rules (annotate on), into a
fresh temporary database (cold: no parse cache). Prints the time of each stage — the cumulative
time of the function that runs it:

* version   — :func:`pipeline.sources.version.source_version` (hash the files, read ``meta``);
* read      — :func:`pipeline.normalize.ingest.collect_sources` (decompress, JSON, digest, normalize, merge)
              and :func:`pipeline.store.build.expand_sources` (records normalized later by an incremental build);
* grammar   — :func:`pipeline.parse.grammar.get_parser` (Lark LALR construction, once per process);
* parse     — :meth:`pipeline.store.abilities.FaceParser.start` and ``ability_rows`` minus grammar
              construction (per-face parsing, AST building, AST JSON; with workers: handing them the
              texts, then waiting for and receiving what is left when the tables written meanwhile are done);
* derive    — :func:`pipeline.derive.derive` (produced mana etc.);
* annotate  — :func:`pipeline.annotate.annotate_rulings` (CR tables, citations; run while the workers
              parse) and :func:`pipeline.annotate.annotate_abilities` (inferred rules, ruling links);
* previous  — ``pipeline.store.build.read_previous`` (runs and parse cache of the old database);
* write     — the rest of ``build_database``: DuckDB inserts, views, checkpoint, swap;
* other     — everything else (imports, lock, runs table).

then the top functions by own time. ``--json`` prints the stage table as one JSON line last
(for benchmarks/run.py).

``--timers`` runs the refresh without the profiler and times the same entry functions with
wrappers (wall and CPU seconds per stage): cProfile inflates Python-heavy code (Lark's table
construction above all) far more than C-heavy code, so its seconds overstate some stages; the
timers give the undistorted split, cProfile the functions inside each stage.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CORPUS = ROOT.parent / "shared" / "corpus"

#: stage → (file suffix, function name) candidates of its entry point (all matches are summed).
STAGES = {
    "version": [("pipeline/sources/version.py", "source_version")],
    "read": [("pipeline/normalize/ingest.py", "collect_sources")],
    "expand": [("pipeline/store/build.py", "expand_sources")],
    "grammar": [("pipeline/parse/grammar.py", "get_parser")],
    "parse": [("pipeline/store/abilities.py", "ability_rows"), ("pipeline/store/abilities.py", "start")],
    "derive": [("pipeline/derive/__init__.py", "derive")],
    "annotate": [("pipeline/annotate/__init__.py", "annotate_rulings"),
                 ("pipeline/annotate/__init__.py", "start_features"),
                 ("pipeline/annotate/__init__.py", "annotate_abilities")],
    "build": [("pipeline/store/build.py", "build_database")],
    "previous": [("pipeline/store/build.py", "read_previous")],
}


def cumulative(stats: pstats.Stats, candidates: list[tuple[str, str]]) -> float:
    """Cumulative seconds of the functions named in ``candidates`` ((file suffix, name) pairs)."""
    total = 0.0
    for (filename, _line, name), (_cc, _nc, _tt, ct, _callers) in stats.stats.items():
        filename = filename.replace("\\", "/")
        if any(name == func and filename.endswith(suffix) for suffix, func in candidates):
            total += ct
    return total


def stage_times(stats: pstats.Stats, total: float) -> list[tuple[str, float]]:
    """Seconds per stage (see the module docstring), summing to ``total``."""
    c = {k: cumulative(stats, v) for k, v in STAGES.items()}
    parse = max(c["parse"] - c["grammar"], 0.0)
    write = max(c["build"] - c["parse"] - c["derive"] - c["annotate"] - c["previous"] - c["expand"], 0.0)
    rows = [("source version (hash the files, read meta)", c["version"]),
            ("read (collect: decompress, JSON, digest, normalize)", c["read"] + c["expand"]),
            ("grammar construction (Lark LALR)", c["grammar"]),
            ("parse (faces → ASTs → JSON)", parse),
            ("derive", c["derive"]),
            ("annotate (CR, glossary, ruling links)", c["annotate"]),
            ("previous database (runs, parse cache)", c["previous"]),
            ("write (DuckDB inserts, views, checkpoint)", write)]
    rows.append(("other (imports, lock, runs)", max(total - sum(s for _, s in rows), 0.0)))
    return rows


class StageTimers:
    """Wall and CPU seconds spent inside the stage entry functions (see module docstring)."""

    def __init__(self):
        self.wall: dict[str, float] = {}
        self.cpu: dict[str, float] = {}
        self.active: list[str] = []  # stages entered and not left, innermost last
        self.peak: dict[str, int] = {}  # stage → highest resident set sampled while it was innermost (KiB)

    def sample_rss(self, interval: float = 0.05) -> None:
        """Start a daemon thread sampling this process's resident set (``/proc/self/statm``) every
        ``interval`` seconds into :attr:`peak`, keyed by the innermost active stage ('other' outside any)."""
        import os
        import threading

        page_kib = os.sysconf("SC_PAGE_SIZE") // 1024

        def run() -> None:
            while True:
                with open("/proc/self/statm") as f:
                    kib = int(f.read().split()[1]) * page_kib
                key = self.active[-1] if self.active else "other"
                if kib > self.peak.get(key, 0):
                    self.peak[key] = kib
                time.sleep(interval)

        threading.Thread(target=run, daemon=True).start()

    def _add(self, key: str, w0: float, c0: float) -> None:
        self.wall[key] = self.wall.get(key, 0.0) + time.perf_counter() - w0
        self.cpu[key] = self.cpu.get(key, 0.0) + time.process_time() - c0

    def wrap(self, key: str, fn):
        def timed(*args, **kwargs):
            w0, c0 = time.perf_counter(), time.process_time()
            self.active.append(key)
            try:
                return fn(*args, **kwargs)
            finally:
                self.active.pop()
                self._add(key, w0, c0)
        return timed

    def wrap_gen(self, key: str, fn):
        def timed(*args, **kwargs):
            it = fn(*args, **kwargs)
            while True:
                w0, c0 = time.perf_counter(), time.process_time()
                self.active.append(key)
                try:
                    item = next(it)
                except StopIteration:
                    return
                finally:
                    self.active.pop()
                    self._add(key, w0, c0)
                yield item
        return timed

    def install(self) -> None:
        """Patch the entry points where their callers look them up."""
        import pipeline.parse.parser as parser
        import pipeline.refresh as refresh_mod
        import pipeline.store.build as build
        from pipeline.store.abilities import FaceParser

        import pipeline.normalize.ingest as ingest

        patches = [(refresh_mod, "version_of", "version"), (refresh_mod, "source_state", "version"),
                   (ingest, "collect_sources", "read"), (build, "expand_sources", "expand"),
                   (refresh_mod, "build_database", "build"), (build, "build_database", "build"),
                   (parser, "get_parser", "grammar"),
                   (build, "derive", "derive"), (build, "_derive", "derive"),
                   (build, "annotate", "annotate"), (build, "_annotate_rulings", "annotate"),
                   (build, "_annotate_abilities", "annotate"), (build, "_start_features", "annotate"),
                   (build, "read_previous", "previous"),
                   # inside "build" (write): resident-set keys only, not in the stage table
                   (build, "load_card_data", "write: card data"), (build, "record_changes", "write: changelog"),
                   (build, "build_digests", "write: digests"), (build, "write_digests", "write: digests"),
                   (build, "create_views", "write: views"), (build, "keep_previous", "write: quarantine")]
        for module, attr, key in patches:  # the names each caller looks up, where they exist
            if callable(getattr(module, attr, None)):
                setattr(module, attr, self.wrap(key, getattr(module, attr)))
        FaceParser.ability_rows = self.wrap_gen("parse", FaceParser.ability_rows)
        FaceParser.start = self.wrap("parse", FaceParser.start)  # hands the misses to the workers (they parse meanwhile)

    def stages(self, total_wall: float, total_cpu: float) -> list[tuple[str, float, float]]:
        """``(stage, wall s, CPU s)`` rows summing to the totals."""
        w = lambda k: self.wall.get(k, 0.0)  # noqa: E731
        c = lambda k: self.cpu.get(k, 0.0)  # noqa: E731
        rows = [("source version (hash the files, read meta)", w("version"), c("version")),
                ("read (collect: decompress, JSON, digest, normalize)", w("read") + w("expand"), c("read") + c("expand")),
                ("grammar construction (Lark LALR)", w("grammar"), c("grammar")),
                ("parse (faces → ASTs → JSON)", w("parse") - w("grammar"), c("parse") - c("grammar")),
                ("derive", w("derive"), c("derive")),
                ("annotate (CR, glossary, ruling links)", w("annotate"), c("annotate")),
                ("previous database (runs, parse cache)", w("previous"), c("previous")),
                ("write (DuckDB inserts, views, checkpoint)",
                 w("build") - w("parse") - w("derive") - w("annotate") - w("previous") - w("expand"),
                 c("build") - c("parse") - c("derive") - c("annotate") - c("previous") - c("expand"))]
        rows.append(("other (imports, lock, runs)", total_wall - sum(r[1] for r in rows),
                     total_cpu - sum(r[2] for r in rows)))
        return rows


def run_timers(args, db: Path) -> int:
    """Refresh once without the profiler, timing each stage; print the table (and JSON)."""
    w0, c0 = time.perf_counter(), time.process_time()
    timers = StageTimers()
    timers.install()
    timers.sample_rss()
    from pipeline.refresh import refresh

    outcome = refresh([args.source], db, rules=args.rules, force=not args.incremental, jobs=args.jobs)
    total_wall, total_cpu = time.perf_counter() - w0, time.process_time() - c0
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    workers_cpu = children.ru_utime + children.ru_stime  # the parse workers (inside "parse" wall time)
    stages = timers.stages(total_wall, total_cpu)
    mode = "cold" if outcome.rebuilt_ids is None else f"incremental, {len(outcome.rebuilt_ids)} oracle ids rebuilt"
    print(f"refresh {outcome.status} ({mode}): {outcome.counts.get('cards')} cards, parsed {outcome.parsed}; "
          f"{total_wall:.1f} s wall, {total_cpu:.1f} s CPU in this process + {workers_cpu:.1f} s in parse workers "
          f"(no profiler)")
    for name, wall, cpu in stages:
        print(f"  {name:<70} {wall:7.1f} s  {cpu:7.1f} s CPU  {cpu / total_cpu:5.1%}")
    print("  peak resident set while each stage was innermost (this process, sampled every 50 ms): "
          + ", ".join(f"{k} {v / 1024:,.0f} MiB" for k, v in sorted(timers.peak.items(), key=lambda kv: -kv[1])))
    if args.json:
        print(json.dumps({"mode": "timers", "total_s": total_wall, "total_cpu_s": total_cpu,
                          "workers_cpu_s": workers_cpu, "stages": stages, "parsed": outcome.parsed,
                          "rebuilt": None if outcome.rebuilt_ids is None else len(outcome.rebuilt_ids)}))
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Profile one refresh by stage (cProfile)")
    ap.add_argument("--source", type=Path, default=CORPUS / "mtgjson-v5-20220425")
    ap.add_argument("--rules", type=Path, default=CORPUS / "comprehensive-rules" / "MagicCompRules-20260227.txt")
    ap.add_argument("--db", type=Path, default=None, help="database path (default: a new temp file; cold)")
    ap.add_argument("--top", type=int, default=25, help="functions listed by own time")
    ap.add_argument("--json", action="store_true", help="print the stage table as JSON last")
    ap.add_argument("--pstats", type=Path, default=None, help="also save the raw profile here (snakeviz, pstats)")
    ap.add_argument("--timers", action="store_true", help="no profiler: wall and CPU seconds per stage only")
    ap.add_argument("--incremental", action="store_true",
                    help="refresh the --db as it is (incremental when few cards changed); default: --force, cold")
    ap.add_argument("--jobs", type=int, default=None, help="parse worker processes (refresh --jobs; default: per CPU)")
    args = ap.parse_args(argv)
    tmp = None
    db = args.db
    if db is None:
        tmp = tempfile.TemporaryDirectory(prefix="mtg-profile-")
        db = Path(tmp.name) / "profile.duckdb"
    if args.timers:
        try:
            return run_timers(args, db)
        finally:
            if tmp is not None:
                tmp.cleanup()
    prof = cProfile.Profile()
    t0 = time.perf_counter()
    prof.enable()
    from pipeline.refresh import refresh

    outcome = refresh([args.source], db, rules=args.rules, force=not args.incremental, jobs=args.jobs)
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
        print(json.dumps({"mode": "cprofile", "total_s": total, "stages": stages, "parsed": outcome.parsed,
                          "top": [[f"{Path(f).name}:{line}({name})", tt, ct]
                                  for (f, line, name), (_cc, _nc, tt, ct, _c) in top]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
