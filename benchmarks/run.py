"""mtg-pipeline benchmarks (issues 8 and 19): one command, one results table.

Usage (from the repository root)::

    .venv/bin/python benchmarks/run.py            # full run, writes the table into benchmarks/README.md
    .venv/bin/python benchmarks/run.py --quick    # smaller inputs, prints only (a few minutes)

Measures, on the real corpus beside the clone (``../shared/corpus``):

1. grammar construction: seconds to build the Lark LALR parser in a fresh process with an empty
   grammar cache, then to load it from that cache in a second process; and the wall time of
   ``mtg-pipeline parse "{T}: Add {G}."`` both ways (the grammar cache lives in the scratch
   directory, ``$MTG_PIPELINE_GRAMMAR_CACHE``, and stays warm for the sections after this one);
2. parse throughput over every unique card face of the MTGJSON corpus — ours
   (:func:`pipeline.store.abilities.parse_face_records`, i.e. parse + AST JSON, what a refresh
   does per face) and phase.rs's (``phase.build_oracle_face[_multi]``, PyPI ``phase-python``)
   on the same MTGJSON records, interleaved chunk by chunk in the same process; faces/s,
   ability lines/s, their ratio, and each side's fully-parsed face fraction;
3. refreshes, each in a subprocess (``python -m pipeline refresh … --quiet``), wall time and
   peak RSS (``os.wait4`` rusage of that child): full MTGJSON corpus, unchanged, 1 % of oracle
   texts changed (cache from the existing database), full Scryfall 2019;
4. scale: a ≥ 2 GiB (uncompressed) gzipped JSON Lines file in the Scryfall ``all_cards`` shape,
   made from the real 2019 records with fresh uuid4 ``id``/``oracle_id``, streamed with
   ``iter_json_records`` and ``read_scryfall_cards`` in subprocesses; records/s, MB/s, peak RSS.
   The file is deleted afterwards.
5. (full run) a cProfile of one cold MTGJSON refresh, summarised by stage
   (benchmarks/profile_refresh.py).

The full run writes ``benchmarks/results.json`` and the table between the ``results`` markers in
``benchmarks/README.md``. Absolute figures are noisy on a shared 2-core machine; the parse ratio
is measured interleaved so that both sides see the same load. No figure here is asserted
anywhere: the targets are printed beside the measurements.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CORPUS = ROOT.parent / "shared" / "corpus"
MTGJSON_DIR = CORPUS / "mtgjson-v5-20220425"
SCRYFALL_2019 = CORPUS / "scryfall-2019" / "cards-2019.json.gz"
RULES = CORPUS / "comprehensive-rules" / "MagicCompRules-20260227.txt"
README = ROOT / "benchmarks" / "README.md"
RESULTS_JSON = ROOT / "benchmarks" / "results.json"
START, END = "<!-- results:start -->", "<!-- results:end -->"
#: Where the built grammar is cached (pipeline.paths.GRAMMAR_CACHE_ENV); main() points it into the scratch dir.
GRAMMAR_CACHE_ENV = "MTG_PIPELINE_GRAMMAR_CACHE"

TARGETS = {
    "parse_ratio": 2.0,          # ours / phase faces per second, ≥
    "refresh_full_floor": 8.0,   # cold MTGJSON refresh with rules ≤ 8× the JSON decode floor (issue 19)
    "refresh_unchanged_floor": 0.3,  # ≤ 0.3× floor
    "refresh_1pct_floor": 1.5,   # ≤ 1.5× floor
    "refresh_rss_mb": 1024.0,    # ≤ (MTGJSON corpus refresh)
    "stream_rss_mb": 1536.0,     # ≤ (2 GB stream)
}
GiB = 1 << 30
MB = 1e6


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# subprocess measurement


#: The code under test: a copy of pipeline/, grammar/, data/ and benchmarks/ taken when the run
#: starts (see snapshot()), so that edits made to the working tree during a run cannot change the
#: grammar version (and hence the parse cache) between its measurements.
SRC = ROOT


def snapshot(work: Path) -> Path:
    """Copy the code and data a refresh needs into ``work/src``; return that directory."""
    src = work / "src"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("pipeline", "grammar", "data", "benchmarks"):
        shutil.copytree(ROOT / name, src / name, ignore=ignore)
    return src


#: Runs the command given as arguments 2… and writes its wall time and rusage (os.wait4) as JSON to
#: the file named by argument 1. Why a launcher: on Linux a process exec'd straight from this
#: (large) benchmark process starts with its parent's RSS high-water mark in ``ru_maxrss`` (exec
#: records the old address space's peak); the launcher is small, so its child's figure is its own.
LAUNCHER = """
import json, os, subprocess, sys, threading, time
def tree_rss_kb(root):
    # summed VmRSS of root and its descendants (worker processes), from /proc
    parents, rss = {}, {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    parents[int(d)] = int(f.read().rsplit(")", 1)[1].split()[1])
                with open(f"/proc/{d}/statm") as f:
                    rss[int(d)] = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
            except (OSError, ValueError, IndexError):
                pass
    tree, grew = {root}, True
    while grew:
        new = {p for p, pp in parents.items() if pp in tree and p not in tree}
        tree |= new
        grew = bool(new)
    return sum(rss.get(p, 0) for p in tree)
t0 = time.perf_counter()
proc = subprocess.Popen(sys.argv[2:])
peak = [0]
def sample():
    while proc.poll() is None:
        peak[0] = max(peak[0], tree_rss_kb(proc.pid))
        time.sleep(0.2)
threading.Thread(target=sample, daemon=True).start()
_, status, ru = os.wait4(proc.pid, 0)
wall = time.perf_counter() - t0
with open(sys.argv[1], "w") as fh:
    json.dump({"wall_s": wall, "maxrss_kb": ru.ru_maxrss, "tree_rss_kb": peak[0], "user_s": ru.ru_utime,
               "sys_s": ru.ru_stime, "rc": os.waitstatus_to_exitcode(status)}, fh)
"""


def run_child(argv: list[str]) -> dict:
    """Run ``argv`` in the snapshot (cwd and PYTHONPATH) through :data:`LAUNCHER`; return wall
    seconds, peak RSS (MB, ``ru_maxrss`` of that child alone), CPU seconds, rc and output.
    Raises RuntimeError on a non-zero exit."""
    env = dict(os.environ, PYTHONPATH=str(SRC))
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile(suffix=".json") as usage_file:
        subprocess.run([sys.executable, "-c", LAUNCHER, usage_file.name, *map(str, argv)], cwd=SRC, env=env,
                       stdout=out, stderr=err, check=False)
        usage = json.loads(Path(usage_file.name).read_text() or "{}")
        out.seek(0)
        err.seek(0)
        result = {"wall_s": usage.get("wall_s"), "rss_mb": usage.get("maxrss_kb", 0) * 1024 / MB,
                  "tree_rss_mb": usage.get("tree_rss_kb", 0) * 1024 / MB,
                  "rc": usage.get("rc", -1), "user_s": usage.get("user_s"), "sys_s": usage.get("sys_s"),
                  "stdout": out.read().decode("utf-8", "replace"), "stderr": err.read().decode("utf-8", "replace")}
    if result["rc"] != 0:
        raise RuntimeError(f"{' '.join(map(str, argv))} exited {result['rc']}:\n{result['stderr'][-3000:]}")
    return result


def child_python(code: str, *args: str) -> dict:
    """Run a Python snippet in a fresh interpreter (the project on sys.path); its stdout's last line is JSON."""
    res = run_child([sys.executable, "-c", code, *args])
    res["result"] = json.loads(res["stdout"].strip().splitlines()[-1])
    return res


# ---------------------------------------------------------------------------------------------
# 1. grammar construction

GRAMMAR_CODE = """
import json, sys, time
t0 = time.perf_counter()
import pipeline.parse
t1 = time.perf_counter()
from pipeline.parse.grammar import get_parser
c1 = time.process_time()
get_parser()
t2 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "build_s": t2 - t1, "build_cpu_s": time.process_time() - c1,
                  "grammar_version": pipeline.parse.GRAMMAR_VERSION, "source_path": get_parser().source_path}))
"""


def parse_section(quick: bool) -> dict:
    log("loading unique faces")
    faces, stats = unique_faces(MTGJSON_DIR)
    if quick:
        faces = faces[::10]
    log(f"parse: {len(faces)} faces, ours vs phase interleaved")
    out = bench_parse(faces)
    out["corpus"] = stats
    return out


def bench_grammar() -> dict:
    """Cold build then cache load of the grammar in fresh processes, and ``parse`` CLI wall time both ways
    (the grammar cache dir is ``$MTG_PIPELINE_GRAMMAR_CACHE``, set by main(); emptied before each cold run)."""
    cache_dir = Path(os.environ[GRAMMAR_CACHE_ENV])
    shutil.rmtree(cache_dir, ignore_errors=True)
    runs = [child_python(GRAMMAR_CODE) for _ in range(2)]
    cli = [sys.executable, "-m", "pipeline", "parse", "{T}: Add {G}."]
    shutil.rmtree(cache_dir, ignore_errors=True)
    cli_cold = run_child(cli)
    cli_warm = run_child(cli)
    return {"first_build_s": runs[0]["result"]["build_s"], "second_build_s": runs[1]["result"]["build_s"],
            "first_build_cpu_s": runs[0]["result"]["build_cpu_s"], "second_build_cpu_s": runs[1]["result"]["build_cpu_s"],
            "import_s": runs[1]["result"]["import_s"], "grammar_version": runs[0]["result"]["grammar_version"],
            "sources": [r["result"]["source_path"] for r in runs],
            "process_s": [r["wall_s"] for r in runs],
            "cli_cold_s": cli_cold["wall_s"], "cli_warm_s": cli_warm["wall_s"],
            "cli_cold_cpu_s": cli_cold["user_s"] + cli_cold["sys_s"], "cli_warm_cpu_s": cli_warm["user_s"] + cli_warm["sys_s"]}


# ---------------------------------------------------------------------------------------------
# 2. parse throughput, ours vs phase.rs


def unique_faces(corpus: Path) -> tuple[list[dict], dict]:
    """Every unique card face of the MTGJSON set files: the first record (set files in name order)
    of each (scryfallOracleId, side), game layouts only (what a refresh parses; tokens, art
    series and other non-game objects are left out, as in pipeline.sources.mtgjson)."""
    from pipeline.normalize.model import GAME_LAYOUTS

    seen: dict[tuple[str, str], dict] = {}
    stats = {"records": 0, "non_game": 0, "no_oracle_id": 0}
    for path in sorted(corpus.glob("*.json.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            data = json.load(fh)["data"]
        for rec in data.get("cards", []):
            stats["records"] += 1
            if (rec.get("layout") or "normal") not in GAME_LAYOUTS:
                stats["non_game"] += 1
                continue
            oid = (rec.get("identifiers") or {}).get("scryfallOracleId")
            if not oid:
                stats["no_oracle_id"] += 1
                continue
            seen.setdefault((oid, rec.get("side") or "a"), rec)
    stats["oracle_ids"] = len({k[0] for k in seen})
    return list(seen.values()), stats


def ability_lines(text: str) -> int:
    """Ability lines of an Oracle text: its non-empty lines (the same count for both parsers)."""
    return sum(1 for line in text.split("\n") if line.strip())


def bench_parse(faces: list[dict], chunk: int = 200) -> dict:
    """Parse every face with ours and with phase, alternating chunks (and which side goes first)."""
    import phase
    from phase.gen import MULTI_LAYOUTS

    from pipeline.parse.grammar import get_parser
    from pipeline.store.abilities import parse_face_records

    t = time.perf_counter()
    get_parser()
    grammar_s = time.perf_counter() - t
    # phase's one-time set-up (first call), measured apart like our grammar construction
    t = time.perf_counter()
    phase.build_oracle_face(faces[0], None)
    phase_first_s = time.perf_counter() - t

    def ours(rec):
        return parse_face_records(rec.get("faceName") or rec["name"], rec.get("type"), rec.get("text") or "")

    def theirs(rec):
        oid = (rec.get("identifiers") or {}).get("scryfallOracleId")
        multi = rec.get("side") and rec.get("layout") in MULTI_LAYOUTS
        return (phase.build_oracle_face_multi if multi else phase.build_oracle_face)(rec, oid)

    side = {n: {"wall": 0.0, "cpu": 0.0, "full": 0, "full_text": 0, "errors": 0, "abilities": 0}
            for n in ("ours", "phase")}
    chunk_ratios = []
    for i in range(0, len(faces), chunk):
        part = faces[i:i + chunk]
        order = ("ours", "phase") if (i // chunk) % 2 == 0 else ("phase", "ours")
        outs = {}
        walls = {}
        for name in order:
            fn = ours if name == "ours" else theirs
            res = []
            c0, w0 = time.process_time(), time.perf_counter()
            for rec in part:
                try:
                    res.append(fn(rec))
                except Exception as exc:  # noqa: BLE001 - a parser's failure is a finding
                    res.append(exc)
            walls[name] = time.perf_counter() - w0
            side[name]["wall"] += walls[name]
            side[name]["cpu"] += time.process_time() - c0
            outs[name] = res
        chunk_ratios.append(walls["phase"] / walls["ours"] if walls["ours"] else float("nan"))
        for rec, o, p in zip(part, outs["ours"], outs["phase"]):
            has_text = bool((rec.get("text") or "").strip())
            s = side["ours"]
            if isinstance(o, Exception):
                s["errors"] += 1
            else:
                s["abilities"] += len(o)
                ok = all(a["fully_parsed"] for a in o)
                s["full"] += ok
                s["full_text"] += ok and has_text
            s = side["phase"]
            if isinstance(p, Exception):
                s["errors"] += 1
            else:
                ok = "Unimplemented" not in json.dumps(p)
                s["full"] += ok
                s["full_text"] += ok and has_text
    n = len(faces)
    lines = sum(ability_lines(r.get("text") or "") for r in faces)
    with_text = sum(1 for r in faces if (r.get("text") or "").strip())
    out = {"faces": n, "faces_with_text": with_text, "ability_lines": lines, "chunk": chunk,
           "ours_grammar_s": grammar_s, "phase_first_call_s": phase_first_s,
           "phase_version": _version("phase-python")}
    for name, s in side.items():
        out[name] = {"seconds": s["wall"], "cpu_seconds": s["cpu"], "faces_per_s": n / s["wall"],
                     "lines_per_s": lines / s["wall"], "fully_parsed": s["full"] / n,
                     "fully_parsed_with_text": s["full_text"] / max(with_text, 1), "errors": s["errors"]}
    out["ours"]["abilities"] = side["ours"]["abilities"]
    out["ratio"] = out["ours"]["faces_per_s"] / out["phase"]["faces_per_s"]
    out["ratio_cpu"] = side["phase"]["cpu"] / side["ours"]["cpu"]
    out["ratio_median_chunk"] = statistics.median(chunk_ratios)
    return out


def _version(dist: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return "not installed"


# ---------------------------------------------------------------------------------------------
# the floor: CPython's json over every set file, nothing else (issue 19)

FLOOR_CODE = """
import gzip, json, sys, time
from pathlib import Path
c0, t0 = time.process_time(), time.perf_counter()
n = 0
for f in sorted(Path(sys.argv[1]).glob("*.json.gz")):
    with gzip.open(f) as fh:
        json.load(fh)
    n += 1
print(json.dumps({"files": n, "seconds": time.perf_counter() - t0, "cpu_s": time.process_time() - c0}))
"""


def bench_floor() -> dict:
    """``json.load(gzip.open(f))`` over every MTGJSON set file in a fresh process (wall, CPU): the floor."""
    res = child_python(FLOOR_CODE, str(MTGJSON_DIR))
    return {"wall_s": res["result"]["seconds"], "cpu_s": res["result"]["cpu_s"], "files": res["result"]["files"],
            "process_wall_s": res["wall_s"]}


# ---------------------------------------------------------------------------------------------
# parse throughput on the current Oracle wording (oracle-2026: a parse benchmark, not a refresh source)

ORACLE_2026 = CORPUS / "oracle-2026" / "cards-2026.jsonl.gz"

ORACLE_CODE = """
import gzip, json, sys, time
from pipeline.parse.grammar import get_parser
from pipeline.store.abilities import default_jobs, parse_faces, parse_faces_parallel
path, every, jobs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
faces = []
with gzip.open(path, "rt", encoding="utf-8") as fh:
    for i, line in enumerate(fh):
        if i % every:
            continue
        card = json.loads(line)
        for face in (card.get("faces") or [card]):
            faces.append((face.get("name") or card["name"], face.get("type_line"), face.get("oracle_text") or ""))
get_parser()
lines = sum(1 for _, _, t in faces for l in t.split("\\n") if l.strip())
c0, t0 = time.process_time(), time.perf_counter()
one = parse_faces(faces)
t1 = time.perf_counter()
cpu1 = time.process_time() - c0
if __name__ == "__main__":
    many = parse_faces_parallel(faces, jobs)
t2 = time.perf_counter()
full = sum(all(r[3] for r in rows) for _, rows in one)
print(json.dumps({"faces": len(faces), "lines": lines, "single_s": t1 - t0, "single_cpu_s": cpu1,
                  "parallel_s": t2 - t1, "jobs": jobs, "same": one == many, "fully_parsed": full / len(faces)}))
"""


def bench_oracle_2026(quick: bool) -> dict:
    """Parse every face of the oracle-2026 corpus (every 10th card with --quick): one process, then
    ``jobs`` worker processes (pipeline.store.abilities.parse_faces_parallel); faces/s, lines/s."""
    from pipeline.store.abilities import default_jobs

    res = child_python(ORACLE_CODE, str(ORACLE_2026), "10" if quick else "1", str(max(2, default_jobs())))
    r = res["result"]
    r.update(faces_per_s=r["faces"] / r["single_s"], lines_per_s=r["lines"] / r["single_s"],
             parallel_faces_per_s=r["faces"] / r["parallel_s"], rss_mb=res["rss_mb"], tree_rss_mb=res["tree_rss_mb"])
    return r


# ---------------------------------------------------------------------------------------------
# 3. refreshes


def refresh_cmd(source: Path, db: Path) -> list[str]:
    return [sys.executable, "-m", "pipeline", "refresh", "--source", str(source), "--rules", str(RULES),
            "--db", str(db), "--quiet"]


def last_run(db: Path) -> dict:
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        row = con.execute("SELECT status, parsed_count, card_count, face_count, ability_count, seconds "
                          "FROM runs ORDER BY run_id DESC LIMIT 1").fetchone()
    finally:
        con.close()
    return dict(zip(("status", "parsed", "cards", "faces", "abilities", "run_seconds"), row))


def timed_refresh(source: Path, db: Path) -> dict:
    res = run_child(refresh_cmd(source, db))
    out = {"wall_s": res["wall_s"], "rss_mb": res["rss_mb"], "tree_rss_mb": res["tree_rss_mb"],
           "cpu_s": res["user_s"] + res["sys_s"],
           "summary": res["stdout"].strip().splitlines()[-1] if res["stdout"].strip() else ""}
    out.update(last_run(db))
    return out


def changed_copy(src: Path, dst: Path, fraction: float, seed: int = 8) -> dict:
    """Copy the MTGJSON set files to ``dst`` with ``fraction`` of the oracle cards' text changed
    in every printing, and ``meta.version`` bumped in every file; everything else is kept.

    The change is the one Oracle actually made in 2024: "enters the battlefield" → "enters";
    oracle cards are drawn (seeded) from those whose text has that phrase.
    """
    from pipeline.normalize.model import GAME_LAYOUTS

    files = sorted(src.glob("*.json.gz"))
    candidates, all_ids = set(), set()
    docs = {}
    for path in files:
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            doc = json.load(fh)
        docs[path.name] = doc
        for rec in doc["data"].get("cards", []):
            oid = (rec.get("identifiers") or {}).get("scryfallOracleId")
            if oid and (rec.get("layout") or "normal") in GAME_LAYOUTS:
                all_ids.add(oid)
                if "enters the battlefield" in (rec.get("text") or ""):
                    candidates.add(oid)
    want = round(len(all_ids) * fraction)
    chosen = set(random.Random(seed).sample(sorted(candidates), min(want, len(candidates))))
    changed_faces = set()
    dst.mkdir(parents=True, exist_ok=True)
    for name, doc in docs.items():
        doc["meta"]["version"] = str(doc["meta"].get("version", "")) + "-bench1pct"
        for rec in doc["data"].get("cards", []):
            oid = (rec.get("identifiers") or {}).get("scryfallOracleId")
            if oid in chosen and rec.get("text"):
                new = rec["text"].replace("enters the battlefield", "enters")
                if new != rec["text"]:
                    rec["text"] = new
                    changed_faces.add((oid, rec.get("side") or "a"))
        with gzip.open(dst / name, "wt", encoding="utf-8", compresslevel=1) as fh:
            json.dump(doc, fh, ensure_ascii=False)
    return {"oracle_cards": len(all_ids), "changed_cards": len(chosen), "changed_faces": len(changed_faces)}


def bench_refreshes(work: Path, quick: bool) -> dict:
    """The refreshes of issue 19, with the decode floor measured before and after them (their mean is
    the floor each refresh is divided by: the same machine load as the refreshes)."""
    out = {"floor_before": bench_floor()}
    log(f"  floor {out['floor_before']['wall_s']:.2f}s")
    db = work / "mtgjson.duckdb"
    log("refresh: MTGJSON corpus, cold (no database, no parse cache)")
    out["mtgjson_full"] = timed_refresh(MTGJSON_DIR, db)
    log(f"  {out['mtgjson_full']['wall_s']:.1f}s")
    log("refresh: MTGJSON corpus, unchanged")
    out["mtgjson_unchanged"] = timed_refresh(MTGJSON_DIR, db)
    if out["mtgjson_unchanged"]["status"] != "unchanged":
        log(f"  warning: status {out['mtgjson_unchanged']['status']!r}, expected 'unchanged'")
    log(f"  {out['mtgjson_unchanged']['wall_s']:.1f}s")
    log("making the 1%-changed copy")
    changed = work / "mtgjson-1pct"
    info = changed_copy(MTGJSON_DIR, changed, 0.01)
    log("refresh: 1% of oracle texts changed")
    out["mtgjson_1pct"] = timed_refresh(changed, db)
    out["mtgjson_1pct"].update(info)
    log(f"  {out['mtgjson_1pct']['wall_s']:.1f}s, parsed {out['mtgjson_1pct']['parsed']}")
    out["floor_after"] = bench_floor()
    log(f"  floor {out['floor_after']['wall_s']:.2f}s")
    if not quick:
        log("refresh: Scryfall 2019, cold")
        out["scryfall_full"] = timed_refresh(SCRYFALL_2019, work / "scryfall.duckdb")
        log(f"  {out['scryfall_full']['wall_s']:.1f}s")
    out["floor_s"] = (out["floor_before"]["wall_s"] + out["floor_after"]["wall_s"]) / 2
    out["floor_cpu_s"] = (out["floor_before"]["cpu_s"] + out["floor_after"]["cpu_s"]) / 2
    return out


# ---------------------------------------------------------------------------------------------
# 4. scale: stream a ≥ 2 GiB all_cards-shaped JSON Lines file


def make_big_file(path: Path, min_bytes: int) -> dict:
    """Write Scryfall 2019 card objects repeated with fresh uuid4 ``id``/``oracle_id`` as gzipped
    JSON Lines (level 1) until at least ``min_bytes`` uncompressed bytes; return sizes."""
    from pipeline.sources.json_stream import iter_json_records

    templates = []
    for _, obj in iter_json_records(SCRYFALL_2019):
        obj = dict(obj)
        obj["id"] = "\x00ID\x00"
        if "oracle_id" in obj:
            obj["oracle_id"] = "\x00OID\x00"
        line = json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
        templates.append(re.split(rb"\\u0000(?:ID|OID)\\u0000", line))
    written = records = 0
    with gzip.open(path, "wb", compresslevel=1) as fh:
        while written < min_bytes:
            for start in range(0, len(templates), 2000):
                buf = []
                for parts in templates[start:start + 2000]:
                    pieces = [parts[0]]
                    for p in parts[1:]:
                        pieces.append(str(uuid.uuid4()).encode())
                        pieces.append(p)
                    buf.append(b"".join(pieces))
                data = b"".join(buf)
                fh.write(data)
                written += len(data)
                records += len(buf)
                if written >= min_bytes:
                    break
    return {"records": records, "uncompressed_bytes": written, "compressed_bytes": path.stat().st_size}


STREAM_CODE = """
import json, sys, time
what, path = sys.argv[1], sys.argv[2]
t0 = time.perf_counter()
n = 0
if what == "iter_json_records":
    from pipeline.sources.json_stream import iter_json_records
    for n, _ in enumerate(iter_json_records(path), start=1):
        pass
else:
    from pipeline.sources.scryfall import read_scryfall_cards
    for n, _ in enumerate(read_scryfall_cards(path), start=1):
        pass
print(json.dumps({"records": n, "seconds": time.perf_counter() - t0}))
"""


def bench_stream(work: Path, min_bytes: int) -> dict:
    path = work / "all_cards-synthetic.jsonl.gz"
    log(f"scale: writing ≥ {min_bytes / GiB:.2f} GiB (uncompressed) of JSON Lines, gzip level 1")
    t = time.perf_counter()
    out = make_big_file(path, min_bytes)
    out["write_s"] = time.perf_counter() - t
    log(f"  {out['records']} records, {out['uncompressed_bytes'] / GiB:.2f} GiB, {out['write_s']:.0f}s")
    try:
        for what in ("iter_json_records", "read_scryfall_cards"):
            log(f"scale: streaming with {what}")
            res = child_python(STREAM_CODE, what, str(path))
            r = res["result"]
            if r["records"] != out["records"]:
                raise RuntimeError(f"{what} read {r['records']} records, expected {out['records']}")
            out[what] = {"seconds": r["seconds"], "wall_s": res["wall_s"], "rss_mb": res["rss_mb"],
                         "cpu_s": res["user_s"] + res["sys_s"],
                         "records_per_s": r["records"] / r["seconds"],
                         "mb_per_s": out["uncompressed_bytes"] / MB / r["seconds"],
                         "gz_mb_per_s": out["compressed_bytes"] / MB / r["seconds"]}
            log(f"  {r['seconds']:.0f}s, {res['rss_mb']:.0f} MB peak RSS")
    finally:
        path.unlink(missing_ok=True)
    return out


# ---------------------------------------------------------------------------------------------
# 5. profile


def bench_profile(work: Path) -> dict:
    """Stage timers of a cold MTGJSON refresh, then of the 1 %-changed copy into the same database
    (made by the refresh section, else made here)."""
    changed = work / "mtgjson-1pct"
    if not changed.exists():
        changed_copy(MTGJSON_DIR, changed, 0.01)
    out = {}
    for key, source in (("cold", MTGJSON_DIR), ("one_percent", changed)):
        log(f"profile: stage timers, {key}")
        res = run_child([sys.executable, str(SRC / "benchmarks" / "profile_refresh.py"), "--source", str(source),
                         "--rules", str(RULES), "--db", str(work / "profile.duckdb"), "--timers", "--json"]
                        + (["--incremental"] if key == "one_percent" else []))
        out[key] = json.loads(res["stdout"].strip().splitlines()[-1])
    return out


# ---------------------------------------------------------------------------------------------
# report


def machine() -> dict:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = 0
    try:
        mem = int(re.search(r"MemTotal:\s+(\d+)", Path("/proc/meminfo").read_text()).group(1)) * 1024
    except (OSError, AttributeError):
        pass
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True).stdout.strip()
        dirty = bool(subprocess.run(["git", "status", "--porcelain", "--", "grammar", "pipeline"], cwd=ROOT,
                                    capture_output=True, text=True).stdout.strip())
    except OSError:
        commit, dirty = "unknown", False
    return {"cpu": cpu, "cores": os.cpu_count(), "mem_gb": round(mem / GiB, 1),
            "python": platform.python_version(), "os": f"{platform.system()} {platform.release()}",
            "load_avg": os.getloadavg(), "commit": commit + ("+uncommitted changes" if dirty else ""),
            "lark": _version("lark"), "duckdb": _version("duckdb")}


def _ok(value: float, target: float, higher_is_better: bool = False) -> str:
    met = value >= target if higher_is_better else value <= target
    return "met" if met else "**not met**"


def _mode(summary: str) -> str:
    """'incremental: rebuilt N oracle ids' from a refresh's summary line, else 'cold build'."""
    m = re.search(r"incremental: rebuilt \d+ oracle ids", summary)
    return m.group(0) if m else "cold build"


def render(r: dict) -> str:
    m = r["machine"]
    lines = [
        f"Run {r['date']} (`python benchmarks/run.py{' --quick' if r['quick'] else ''}`, {r['total_s'] / 60:.0f} min), "
        f"commit {m['commit']}, grammar version {r['grammar_version']}.",
        f"Machine: {m['cpu']}, {m['cores']} cores, {m['mem_gb']} GiB RAM, {m['os']}, Python {m['python']}, "
        f"lark {m['lark']}, duckdb {m['duckdb']}; load average at start "
        f"{' / '.join(f'{x:.1f}' for x in m['load_avg'])} (other jobs share the cores: absolute figures are noisy, "
        f"the parse ratio is measured interleaved).",
        "",
        "| measurement | figure | target | |",
        "|---|---|---|---|",
    ]
    row = lines.append
    g = r.get("grammar")
    if g:
        row(f"| grammar, fresh process: cold build / load from grammar cache | {g['first_build_s']:.1f} s / "
            f"{g['second_build_s']:.2f} s ({g['first_build_cpu_s']:.1f} / {g['second_build_cpu_s']:.2f} s CPU; "
            f"+ {g['import_s']:.1f} s imports) | — | a load is what every later process that parses pays; "
            f"the refreshes below run with the cache warm |")
        row(f"| `mtg-pipeline parse \"{{T}}: Add {{G}}.\"`, whole process: cold / warm grammar cache | "
            f"{g['cli_cold_s']:.1f} s / {g['cli_warm_s']:.1f} s ({g['cli_cold_cpu_s']:.1f} / {g['cli_warm_cpu_s']:.1f} s CPU) | — | |")
    p = r.get("parse")
    if p:
        o, ph = p["ours"], p["phase"]
        row(f"| parse input | {p['faces']:,} unique faces (by oracle id + side; {p['faces_with_text']:,} with text), "
            f"{p['ability_lines']:,} ability lines (non-empty Oracle text lines) | | MTGJSON 2022 set files |")
        row(f"| parse throughput, ours (parse + AST JSON) | {o['faces_per_s']:,.0f} faces/s, "
            f"{o['lines_per_s']:,.0f} lines/s ({o['seconds']:.1f} s) | | |")
        row(f"| parse throughput, phase.rs {p['phase_version']} (`build_oracle_face`) | {ph['faces_per_s']:,.0f} faces/s, "
            f"{ph['lines_per_s']:,.0f} lines/s ({ph['seconds']:.1f} s) | | first call {p['phase_first_call_s']:.2f} s |")
        row(f"| **ratio ours / phase** (wall; CPU; median of {p['chunk']}-face chunks) | **{p['ratio']:.2f}×**; "
            f"{p['ratio_cpu']:.2f}×; {p['ratio_median_chunk']:.2f}× | ≥ {TARGETS['parse_ratio']:.0f}× | "
            f"{_ok(p['ratio'], TARGETS['parse_ratio'], True)} |")
        row(f"| fully-parsed faces, ours (every ability fully_parsed) | {o['fully_parsed']:.1%} of all, "
            f"{o['fully_parsed_with_text']:.1%} of faces with text | | errors {o['errors']} |")
        row(f"| fully-parsed faces, phase (no `Unimplemented` in output) | {ph['fully_parsed']:.1%} of all, "
            f"{ph['fully_parsed_with_text']:.1%} of faces with text | | errors {ph['errors']} |")
    o26 = r.get("oracle2026")
    if o26:
        row(f"| parse throughput, oracle-2026 corpus (current wording; {o26['faces']:,} faces, {o26['lines']:,} lines) | "
            f"one process {o26['faces_per_s']:,.0f} faces/s, {o26['lines_per_s']:,.0f} lines/s ({o26['single_s']:.1f} s); "
            f"{o26['jobs']} workers {o26['parallel_faces_per_s']:,.0f} faces/s ({o26['parallel_s']:.1f} s, workers' start "
            f"included; same result: {o26['same']}) | | fully parsed {o26['fully_parsed']:.1%}; peak RSS "
            f"{o26['tree_rss_mb']:,.0f} MB with workers |")
    rf = r.get("refresh")
    if rf:
        fl, flc = rf["floor_s"], rf["floor_cpu_s"]
        row(f"| **floor**: `json.load(gzip.open(f))` over the {rf['floor_before']['files']} set files, fresh process "
            f"(before / after the refreshes) | {rf['floor_before']['wall_s']:.2f} s / {rf['floor_after']['wall_s']:.2f} s "
            f"({rf['floor_before']['cpu_s']:.2f} / {rf['floor_after']['cpu_s']:.2f} s CPU); mean {fl:.2f} s | | "
            f"each refresh below is divided by the mean |")
        f = rf["mtgjson_full"]
        row(f"| refresh, MTGJSON corpus, cold (with CR annotate) | **{f['wall_s'] / fl:.1f}× floor** "
            f"({f['wall_s']:.1f} s wall; {f['cpu_s']:.0f} s CPU = {f['cpu_s'] / flc:.1f}× floor CPU); peak RSS "
            f"{f['rss_mb']:,.0f} MB largest process, {f['tree_rss_mb']:,.0f} MB with the parse workers; {f['cards']:,} cards, "
            f"{f['faces']:,} faces, {f['abilities']:,} abilities, parsed {f['parsed']:,} | ≤ {TARGETS['refresh_full_floor']:.0f}× floor, "
            f"≤ 1 GB | {_ok(f['wall_s'] / fl, TARGETS['refresh_full_floor'])}, RSS {_ok(f['tree_rss_mb'], TARGETS['refresh_rss_mb'])} |")
        u = rf["mtgjson_unchanged"]
        row(f"| refresh, unchanged (size + mtime of every file as recorded) | **{u['wall_s'] / fl:.2f}× floor** "
            f"({u['wall_s']:.2f} s wall, {u['cpu_s']:.2f} s CPU), peak RSS {u['rss_mb']:,.0f} MB (status {u['status']}) | "
            f"≤ {TARGETS['refresh_unchanged_floor']}× floor | {_ok(u['wall_s'] / fl, TARGETS['refresh_unchanged_floor'])} |")
        c = rf["mtgjson_1pct"]
        row(f"| refresh, 1 % of oracle texts changed ({c['changed_cards']} cards, {c['changed_faces']} faces: "
            f"'enters the battlefield' → 'enters'; meta.version bumped in every file, so every file is read) | "
            f"**{c['wall_s'] / fl:.2f}× floor** ({c['wall_s']:.1f} s wall, {c['cpu_s']:.1f} s CPU), peak RSS "
            f"{c['tree_rss_mb']:,.0f} MB, parsed {c['parsed']:,} texts; {_mode(c['summary'])} | "
            f"≤ {TARGETS['refresh_1pct_floor']}× floor | {_ok(c['wall_s'] / fl, TARGETS['refresh_1pct_floor'])} |")
        s = rf.get("scryfall_full")
        if s:
            row(f"| refresh, Scryfall 2019, cold (with CR annotate) | {s['wall_s']:.1f} s ({s['cpu_s']:.0f} s CPU), peak RSS {s['rss_mb']:,.0f} MB; "
                f"{s['cards']:,} cards, parsed {s['parsed']:,} | — | |")
    st = r.get("stream")
    if st:
        row(f"| scale input (Scryfall all_cards shape, JSON Lines gz level 1) | {st['records']:,} records, "
            f"{st['uncompressed_bytes'] / GiB:.2f} GiB uncompressed, {st['compressed_bytes'] / GiB:.2f} GiB gz | "
            f"≥ 2 GB | written in {st['write_s']:.0f} s, deleted after |")
        for what in ("iter_json_records", "read_scryfall_cards"):
            w = st[what]
            row(f"| stream, `{what}` | {w['records_per_s']:,.0f} records/s, {w['mb_per_s']:.0f} MB/s "
                f"({w['gz_mb_per_s']:.0f} MB/s gz), peak RSS {w['rss_mb']:,.0f} MB ({w['seconds']:.0f} s, {w['cpu_s']:.0f} s CPU) | "
                f"≤ 1.5 GB | RSS {_ok(w['rss_mb'], TARGETS['stream_rss_mb'])} |")
    for name, err in r.get("failed", {}).items():
        row(f"| {name} | **failed**: {err} | | |")
    pr = r.get("profile")
    if pr:
        cold, inc = pr["cold"], pr["one_percent"]
        lines += ["", "Stages of two more refreshes, in-process without a profiler (time inside each stage's entry "
                      "function, `benchmarks/profile_refresh.py --timers`): a cold MTGJSON refresh "
                      f"({cold['total_s']:.0f} s wall, {cold['total_cpu_s']:.0f} s CPU in the refresh process + "
                      f"{cold.get('workers_cpu_s', 0):.0f} s in its parse workers, parsed {cold['parsed']:,}), then the "
                      f"1 %-changed copy into the same database ({inc['total_s']:.0f} s wall, {inc['total_cpu_s']:.0f} s CPU + "
                      f"{inc.get('workers_cpu_s', 0):.0f} s in workers, parsed {inc['parsed']:,}, "
                      f"{'cold' if inc.get('rebuilt') is None else str(inc['rebuilt']) + ' oracle ids rebuilt incrementally'}). "
                      "Shares are of the refresh process's CPU; the parse stage's wall time includes waiting for "
                      "the workers:", "",
                  "| stage | cold: wall s | CPU s | share of CPU | 1 % changed: wall s | CPU s | share of CPU |",
                  "|---|---|---|---|---|---|---|"]
        for (stage, wall, cpu), (_, iwall, icpu) in zip(cold["stages"], inc["stages"]):
            stage = re.sub(r"DuckDB inserts [\d.]+ s", "DuckDB inserts", stage)
            lines.append(f"| {stage} | {wall:.1f} | {cpu:.1f} | {cpu / cold['total_cpu_s']:.0%} | {iwall:.1f} | "
                         f"{icpu:.1f} | {icpu / inc['total_cpu_s']:.0%} |")
    return "\n".join(lines) + "\n"


def write_readme(table: str) -> None:
    text = README.read_text(encoding="utf-8") if README.exists() else f"# Benchmarks\n\n{START}\n{END}\n"
    if START not in text:
        text += f"\n{START}\n{END}\n"
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    README.write_text(f"{head}{START}\n{table}{END}{tail}", encoding="utf-8")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="mtg-pipeline benchmarks (issue 8); see benchmarks/README.md")
    ap.add_argument("--quick", action="store_true",
                    help="every 10th face, no Scryfall refresh, 256 MiB stream file, no profile; prints only")
    ap.add_argument("--only", default="grammar,parse,oracle2026,refresh,stream,profile",
                    help="comma-separated subset of grammar,parse,oracle2026,refresh,stream,profile (a subset only prints)")
    ap.add_argument("--workdir", type=Path, default=None, help="scratch directory (default: a new temp dir)")
    ap.add_argument("--no-readme", action="store_true",
                    help="do not write benchmarks/README.md / results.json (only a complete, successful full run writes them)")
    args = ap.parse_args(argv)
    only = set(args.only.split(","))
    if args.quick:
        only.discard("profile")
    work = args.workdir or Path(tempfile.mkdtemp(prefix="mtg-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    global SRC
    SRC = snapshot(work)
    # the grammar cache of this run (children inherit it): cold in section 1, then warm
    os.environ[GRAMMAR_CACHE_ENV] = str(work / "grammar-cache")
    sys.path.insert(0, str(SRC))  # the in-process parse benchmark imports the snapshot too
    t0 = time.perf_counter()
    from pipeline.parse.grammar import grammar_version

    r: dict = {"date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "quick": args.quick,
               "machine": machine(), "grammar_version": grammar_version()}
    sections = {
        "grammar": lambda: bench_grammar(),
        "parse": lambda: parse_section(args.quick),
        "oracle2026": lambda: bench_oracle_2026(args.quick),
        "refresh": lambda: bench_refreshes(work, args.quick),
        "stream": lambda: bench_stream(work, (256 << 20) if args.quick else 2 * GiB),
        "profile": lambda: bench_profile(work),
    }
    try:
        for name, fn in sections.items():
            if name not in only:
                continue
            log(f"== {name}")
            try:
                r[name] = fn()
            except Exception as exc:  # noqa: BLE001 - report the failure, go on with the other sections
                log(f"{name} failed: {type(exc).__name__}: {exc}")
                r.setdefault("failed", {})[name] = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    finally:
        if args.workdir is None:
            shutil.rmtree(work, ignore_errors=True)
    r["total_s"] = time.perf_counter() - t0
    table = render(r)
    print(table)
    if not args.quick and not args.no_readme and only >= set(sections) and not r.get("failed"):
        RESULTS_JSON.write_text(json.dumps(r, indent=1, default=str) + "\n", encoding="utf-8")
        write_readme(table)
        log(f"wrote {README.relative_to(ROOT)} and {RESULTS_JSON.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
