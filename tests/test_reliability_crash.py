"""Crash safety: a refresh killed with SIGKILL at any stage leaves the previous database whole,
and the next refresh succeeds and removes the leftovers (issue 9, docs/reliability.md § Crash safety).

The previous database is built from a real MTGJSON set file (Arabian Nights, 78 cards, 90
rulings) with the real Comprehensive Rules; the killed refresh reads another real set
(Antiquities) in a subprocess that kills itself through the test hook
``MTG_PIPELINE_FAULT=after:<stage>`` (pipeline/faults.py) at read, parse, load, annotate and
just before the swap. The download stage is tested against a Scryfall mirror on a real local
HTTP server twice: killed by the test while the card file is half sent, and killed by the hook
right after the downloads are cached.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import duckdb
import pytest
from werkzeug import Response

from pipeline.faults import STAGES, fault_point
from pipeline.sources.http import read_meta
from tests.conftest import MTGJSON_DIR, ROOT, RULES_TXT, table_fingerprint
from tests.test_download_http import _running_server, gz_jsonl, m20_cards, server  # noqa: F401 (fixtures)
from tests.test_refresh_scryfall import RulesMirror, refresh_cli

OLD_SET = MTGJSON_DIR / "ARN.json.gz"   # the last good database
NEW_SET = MTGJSON_DIR / "ATQ.json.gz"   # what the killed refresh reads
TABLES = ("cards", "faces", "abilities", "rulings", "printings", "parse_cache", "rules", "runs", "meta")


def cli(*args: str, env: dict | None = None, wait: bool = True, **kw):
    """Run ``python -m pipeline ARGS`` in a subprocess from the repository root."""
    proc = subprocess.Popen([sys.executable, "-m", "pipeline", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})}, **kw)
    if not wait:
        return proc
    out, err = proc.communicate(timeout=900)
    proc.stdout_text, proc.stderr_text = out, err
    return proc


def fingerprint(db: Path) -> dict[str, tuple]:
    """Row count and an order-independent hash of every row of each table: the full contents."""
    return table_fingerprint(db, TABLES)


def leftovers(db: Path) -> list[str]:
    return sorted(p.name for p in db.parent.iterdir() if ".tmp-" in p.name)


@pytest.fixture(scope="module")
def old_db(tmp_path_factory) -> Path:
    """The last good database: Arabian Nights + the Comprehensive Rules, built through the CLI."""
    db = tmp_path_factory.mktemp("old") / "cards.duckdb"
    proc = cli("refresh", "--source", str(OLD_SET), "--rules", str(RULES_TXT), "--db", str(db), "--quiet")
    assert proc.returncode == 0, proc.stderr_text
    assert proc.stdout_text.startswith(f"built {db}: 78 cards, 78 faces, ")
    return db


def test_fault_hook_names_its_stages_and_is_inert_when_unset(monkeypatch):
    assert STAGES == ("download", "read", "parse", "load", "annotate", "changes", "before_swap")
    monkeypatch.delenv("MTG_PIPELINE_FAULT", raising=False)
    fault_point("parse")  # returns: the hook is off
    monkeypatch.setenv("MTG_PIPELINE_FAULT", "after:load")
    fault_point("parse")  # another stage: returns
    with pytest.raises(ValueError, match="unknown fault stage 'parsing'"):
        fault_point("parsing")


@pytest.mark.parametrize("stage", ["read", "parse", "load", "annotate", "changes", "before_swap"])
def test_killed_refresh_keeps_the_previous_database(stage, old_db, tmp_path):
    db = tmp_path / "cards.duckdb"
    shutil.copy(old_db, db)
    before = fingerprint(db)
    assert before["cards"][0] == 78 and before["rules"][0] > 2000

    proc = cli("refresh", "--source", str(NEW_SET), "--rules", str(RULES_TXT), "--db", str(db), "--quiet",
               env={"MTG_PIPELINE_FAULT": f"after:{stage}"})
    assert proc.returncode == -signal.SIGKILL, (proc.returncode, proc.stderr_text)
    # the kill happened where it should: after the read nothing is written; later the new file exists
    left = leftovers(db)
    if stage == "read":
        assert left == []
    else:  # the new file of the dead process (and, mid-build, its write-ahead log)
        tmp = f"cards.duckdb.tmp-{proc.pid}"
        assert left[0] == tmp and set(left) <= {tmp, tmp + ".wal"}
        if stage == "before_swap":
            assert left == [tmp]  # complete and closed: checkpointed, no log
    assert (tmp_path / "cards.duckdb.lock").exists()  # the dead process's lock file stays behind

    # the previous database opens and holds its full contents, runs included (a killed run records nothing)
    assert fingerprint(db) == before

    # the next refresh takes the stale lock, removes the leftover, builds, and carries the history over
    proc2 = cli("refresh", "--source", str(NEW_SET), "--rules", str(RULES_TXT), "--db", str(db), "--quiet")
    assert proc2.returncode == 0, proc2.stderr_text
    assert proc2.stdout_text.startswith(f"built {db}: ")
    for name in left:
        assert f"note: removed leftover of a killed refresh: {tmp_path / name}" in proc2.stderr_text
    assert leftovers(db) == []
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM cards WHERE name = 'Mishra''s Factory'").fetchone() == (1,)
        assert con.execute("SELECT count(*) FROM cards WHERE name = 'Juzám Djinn'").fetchone() == (0,)
        assert con.execute("SELECT run_id, status, card_count FROM runs ORDER BY run_id").fetchall() == [
            (1, "ok", 78), (2, "ok", con.execute("SELECT count(*) FROM cards").fetchone()[0])]
        # the killed run left no changelog rows behind: only the successful run 2 recorded its changes
        assert con.execute("SELECT DISTINCT run_id FROM card_changes").fetchall() == [(2,)]
        assert con.execute("SELECT change FROM card_changes WHERE name = 'Juzám Djinn'").fetchall() == [("removed",)]
        assert con.execute("SELECT change FROM card_changes WHERE name = 'Mishra''s Factory'").fetchall() == [
            ("added",)]
    finally:
        con.close()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_interrupted_refresh(sig, old_db, tmp_path):
    """Ctrl-C (SIGINT) unwinds: the temp file is removed and the failure recorded. SIGTERM (systemd
    stop, cron timeout) ends Python at once like SIGKILL: the next refresh cleans up."""
    db = tmp_path / "cards.duckdb"
    shutil.copy(old_db, db)
    before = {t: v for t, v in fingerprint(db).items() if t != "runs"}
    proc = cli("refresh", "--source", str(NEW_SET), "--rules", str(RULES_TXT), "--db", str(db), "--quiet",
               wait=False)
    tmp = tmp_path / f"cards.duckdb.tmp-{proc.pid}"
    deadline = time.monotonic() + 300
    while not tmp.exists():  # interrupt while the new file is being built
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.02)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=300)
    assert {t: v for t, v in fingerprint(db).items() if t != "runs"} == before
    con = duckdb.connect(str(db), read_only=True)
    try:
        runs = con.execute("SELECT run_id, status, error FROM runs ORDER BY run_id").fetchall()
    finally:
        con.close()
    if sig == signal.SIGINT:
        assert proc.returncode == 1 and "Aborted!" in err
        assert leftovers(db) == []
        assert runs == [(1, "ok", None), (2, "failed", "KeyboardInterrupt")]
    else:
        assert proc.returncode == -signal.SIGTERM
        assert leftovers(db) and runs == [(1, "ok", None)]
    proc2 = cli("refresh", "--source", str(NEW_SET), "--db", str(db), "--quiet")
    assert proc2.returncode == 0, proc2.stderr_text
    assert leftovers(db) == []


def test_stale_wal_of_the_previous_database_does_not_break_the_new_one(old_db, tmp_path):
    """A process killed while appending to the previous database leaves ``<db>.wal``; DuckDB would
    replay it onto the swapped-in file ("WAL does not match database file"). The refresh folds it in
    before the swap, and carries over the row it held."""
    db = tmp_path / "cards.duckdb"
    shutil.copy(old_db, db)
    code = ("import duckdb, os, signal, sys; c = duckdb.connect(sys.argv[1]); "
            "c.execute(\"INSERT INTO runs (run_id, source, status) VALUES (2, 'killed-writer', 'failed')\"); "
            "os.kill(os.getpid(), signal.SIGKILL)")
    subprocess.run([sys.executable, "-c", code, str(db)], check=False)
    assert (tmp_path / "cards.duckdb.wal").exists()
    proc = cli("refresh", "--source", str(NEW_SET), "--db", str(db), "--quiet")
    assert proc.returncode == 0, proc.stderr_text
    assert not (tmp_path / "cards.duckdb.wal").exists()
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert con.execute("SELECT run_id, source, status FROM runs ORDER BY run_id").fetchall() == [
            (1, str(OLD_SET), "ok"), (2, "killed-writer", "failed"), (3, str(NEW_SET), "ok")]
    finally:
        con.close()


# --------------------------------------------------------------------------- the download stage


@pytest.fixture()
def rules_mirror(server):  # noqa: F811
    return RulesMirror(server)


def scryfall_args(mirror, db: Path, cache: Path) -> list[str]:
    return ["refresh", "--source", "scryfall", "--db", str(db), "--cache-dir", str(cache), "--api-url",
            mirror.api_url, "--allow-host", "127.0.0.1", "--rules-url", mirror.rules_url, "--retries", "0",
            "--quiet"]


def test_killed_mid_download_keeps_database_and_cache_consistent(old_db, rules_mirror, tmp_path):
    """SIGKILL from the test while the server has sent half of the card file and holds the rest."""
    db, cache = tmp_path / "cards.duckdb", tmp_path / "cache"
    shutil.copy(old_db, db)
    before = fingerprint(db)
    started, release = threading.Event(), threading.Event()
    body = rules_mirror.files["oracle_cards"][0]

    def half_then_hang(request):
        def gen():
            yield body[: len(body) // 2]
            started.set()
            release.wait(60)
        return Response(gen(), headers={"Content-Length": str(len(body))}, content_type="application/gzip")

    path = rules_mirror.path_of("oracle_cards")
    rules_mirror.faults[path] = [half_then_hang]
    proc = cli(*scryfall_args(rules_mirror, db, cache), wait=False)
    try:
        assert started.wait(300), "the refresh never started the download"
        time.sleep(0.5)  # let the client write what it received
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(60)
    finally:
        release.set()
    assert proc.returncode == -signal.SIGKILL
    assert fingerprint(db) == before
    cached = [p for p in cache.rglob("*") if p.is_file()] if cache.exists() else []
    card_files = [p for p in cached if "oracle" in p.name and not p.name.endswith(".meta.json")]
    # a half-received file is never taken for a complete download
    assert all(read_meta(p) is None or p.stat().st_size == len(body) for p in card_files)

    result = refresh_cli(rules_mirror, db, cache)
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"built {db}: {len(m20_cards())} cards, ")
    assert leftovers(db) == []


def test_killed_after_download_reuses_the_cache(old_db, rules_mirror, tmp_path):
    db, cache = tmp_path / "cards.duckdb", tmp_path / "cache"
    shutil.copy(old_db, db)
    before = fingerprint(db)
    proc = cli(*scryfall_args(rules_mirror, db, cache), env={"MTG_PIPELINE_FAULT": "after:download"})
    assert proc.returncode == -signal.SIGKILL, proc.stderr_text
    assert fingerprint(db) == before and leftovers(db) == []
    downloads = len([e for e in rules_mirror.server.log if e[0].path.startswith("/file/")])
    assert downloads == 2  # cards + rulings

    result = refresh_cli(rules_mirror, db, cache)
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"built {db}: {len(m20_cards())} cards, ")
    # the completed downloads were kept in the cache and not fetched again
    assert len([e for e in rules_mirror.server.log if e[0].path.startswith("/file/")]) == downloads
