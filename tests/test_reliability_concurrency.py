"""Concurrency with real processes: one refresh at a time per database path, queries keep working on
the old file while a refresh runs, a second refresh exits 75 or waits (issue 9, docs/reliability.md).

The last good database holds a real MTGJSON set (Arabian Nights, 78 cards). A subprocess refreshes it
from the bundled snapshot (4,372 cards, the longest build the project ships). While it runs: queries
through the CLI and through read-only connections, a second refresh (must exit 75 at once), and a
third with ``--wait`` (must block, then succeed once the first is done).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import duckdb

from pipeline.refresh import refresh
from pipeline.serve.query import run_query
from tests.conftest import MTGJSON_DIR, ROOT

OLD_CARDS, NEW_CARDS = 78, 4372


def start(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pipeline", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ))


def card_count(db: Path) -> int:
    """Through the product's query path (read-only; waits out a refresh's brief append of its run record)."""
    return int(run_query(db, "SELECT count(*) AS n FROM cards")["n"][0])


def test_refresh_lock_and_queries_on_the_old_file_with_real_processes(tmp_path):
    db = tmp_path / "cards.duckdb"
    assert refresh([MTGJSON_DIR / "ARN.json.gz"], db).counts["cards"] == OLD_CARDS

    first = start("refresh", "--source", "bundled", "--db", str(db), "--quiet")
    tmp = tmp_path / f"cards.duckdb.tmp-{first.pid}"
    deadline = time.monotonic() + 600
    while not tmp.exists():  # the lock is held and the new file is being written
        assert first.poll() is None, first.communicate()
        assert time.monotonic() < deadline, "the first refresh never started building"
        time.sleep(0.1)

    # queries on the old file work while the new one is built
    q = subprocess.run([sys.executable, "-m", "pipeline", "query", "--db", str(db), "--format", "csv",
                        "SELECT count(*) AS n FROM cards"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert q.returncode == 0, q.stderr
    assert q.stdout.split() == ["n", str(OLD_CARDS)]

    # a second refresh of the same path exits 75 at once, saying why and what to do
    second = start("refresh", "--source", "bundled", "--db", str(db), "--quiet")
    out, err = second.communicate(timeout=300)
    assert second.returncode == 75, (out, err)
    assert err.strip() == (f"error: {db}: another refresh is running (lock {db}.lock); "
                           f"retry later or pass --wait SECONDS")
    assert first.poll() is None, "the first refresh ended before the second was refused: the test proved nothing"

    # a third one waits for the lock
    third = start("refresh", "--source", "bundled", "--db", str(db), "--quiet", "--wait", "900")

    counts = []
    while first.poll() is None:  # keep querying through the swap: every query sees the old or the new file
        building = tmp.exists()  # the first still holds the lock (it releases it after the swap)
        counts.append(card_count(db))
        if building:
            assert third.poll() is None, "the waiting refresh did not wait"
        time.sleep(0.2)
    out, err = first.communicate()
    assert first.returncode == 0, err
    assert out.startswith(f"built {db}: {NEW_CARDS} cards, ")
    assert set(counts) <= {OLD_CARDS, NEW_CARDS} and counts[0] == OLD_CARDS and len(counts) > 5, counts

    out, err = third.communicate(timeout=900)
    assert third.returncode == 0, err
    # (locally, a grammar file edited between the first and the third start makes this a rebuild)
    assert out.startswith(f"unchanged: {db} already holds source version 5.2.0+20220425"), (out, err)
    assert card_count(db) == NEW_CARDS
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert con.execute("SELECT run_id, source, status FROM runs ORDER BY run_id").fetchall() == [
            (1, str(MTGJSON_DIR / "ARN.json.gz"), "ok"), (2, "bundled", "ok"), (3, "bundled", "unchanged")]
    finally:
        con.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards.duckdb", "cards.duckdb.lock"]


def test_unchanged_refresh_while_a_reader_holds_the_file(tmp_path):
    """DuckDB lets no process write a file another has open: an 'unchanged' refresh must not fail
    because a query (here a long-lived read-only connection in another process) is open."""
    db = tmp_path / "cards.duckdb"
    source = MTGJSON_DIR / "ARN.json.gz"
    build = subprocess.run([sys.executable, "-m", "pipeline", "refresh", "--source", str(source), "--db", str(db),
                            "--quiet"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr
    reader = subprocess.Popen([sys.executable, "-c", "import duckdb, sys, time; c = duckdb.connect(sys.argv[1], "
                               "read_only=True); print(c.execute('SELECT count(*) FROM cards').fetchone()[0], "
                               "flush=True); time.sleep(120)", str(db)], stdout=subprocess.PIPE, text=True)
    try:
        assert reader.stdout.readline().strip() == str(OLD_CARDS)
        r = subprocess.run([sys.executable, "-m", "pipeline", "refresh", "--source", str(source), "--db", str(db),
                            "--quiet"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    finally:
        reader.kill()
        reader.wait()
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"unchanged: {db}")
    assert r.stderr.startswith(f"note: run not recorded: {db}: another process has the database open")
    assert card_count(db) == OLD_CARDS


def test_every_reader_waits_out_a_writer_holding_the_file(tmp_path):
    """``card``, ``export``, ``query --format parquet``, ``check-mana``, ``coverage`` and ``schema-doc``
    open the database through the same retrying path as ``query`` (pipeline.store.runs.connect_retrying):
    while another process holds it read-write — as a refresh does when it appends its run record —
    they wait and then succeed instead of failing with DuckDB's lock error."""
    db = tmp_path / "cards.duckdb"
    assert refresh([MTGJSON_DIR / "ARN.json.gz"], db, no_rules=True).counts["cards"] == OLD_CARDS
    readers = {
        "card": ["card", "--db", str(db), "Juzám Djinn"],
        "export": ["export", "--db", str(db), "--parquet", str(tmp_path / "export")],
        "parquet": ["query", "--db", str(db), "--format", "parquet", "--output", str(tmp_path / "n.parquet"),
                    "SELECT count(*) AS n FROM cards"],
        "check-mana": ["check-mana", "--db", str(db)],
        "coverage": ["coverage", "--db", str(db)],
        "schema-doc": ["schema-doc", "--db", str(db)],
    }
    held_for = 4.0
    writer = subprocess.Popen([sys.executable, "-c", "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); "
                               "print('held', flush=True); time.sleep(float(sys.argv[2])); c.close()",
                               str(db), str(held_for)], stdout=subprocess.PIPE, text=True)
    try:
        assert writer.stdout.readline().strip() == "held"
        released_at = time.monotonic() + held_for
        procs = {name: start(*args) for name, args in readers.items()}
        finished: dict[str, float] = {}
        deadline = time.monotonic() + 300
        while len(finished) < len(procs) and time.monotonic() < deadline:
            for name, p in procs.items():
                if name not in finished and p.poll() is not None:
                    finished[name] = time.monotonic()
            time.sleep(0.05)
        results = {name: p.communicate(timeout=60) + (p.returncode,) for name, p in procs.items()}
    finally:
        writer.kill()
        writer.wait()
    for name, (out, err, code) in results.items():
        assert code == 0, (name, err)
        assert "Traceback" not in err and "lock" not in err.lower(), (name, err)
    assert "Juzám Djinn" in results["card"][0]
    # each reader ended only after the writer let go: it met the lock and waited it out
    assert all(t >= released_at - 0.5 for t in finished.values()), (finished, released_at)
