"""Resource exhaustion (issue 16 § 2, § 5): a full disk, a file-size limit and a result too big
for memory each give one ``error:`` line and exit 1, and lose nothing.

These are real failures, not simulated ones: ``/dev/full`` answers every write with ENOSPC (a full
disk), ``RLIMIT_FSIZE`` makes the kernel refuse writes past a size with EFBIG (SIGXFSZ ignored, as a
shell's ``ulimit -f`` does), and ``RLIMIT_AS`` bounds the address space of a child process so that
DuckDB's allocations fail. Outputs that are symlinks, devices or FIFOs are written into, never
renamed over (pipeline.serve.outputs.atomic_output).
"""

from __future__ import annotations

import os
import resource
import signal
import stat
import subprocess
import sys
import threading
from pathlib import Path

import duckdb
import pytest

from pipeline.refresh import refresh
from tests.conftest import MTGJSON_DIR, ROOT

ARN = MTGJSON_DIR / "ARN.json.gz"  # Arabian Nights: 78 cards


@pytest.fixture(scope="module")
def arn_db(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("resources") / "cards.duckdb"
    assert refresh([ARN], db, no_rules=True).counts["cards"] == 78
    return db


def run_cli(*args: str, preexec=None, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=ROOT, capture_output=True, text=True,
                          preexec_fn=preexec, timeout=timeout)


def one_error_line(proc: subprocess.CompletedProcess) -> str:
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 1, proc.stderr
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    assert "Traceback" not in proc.stderr
    return lines[0]


def cards_fingerprint(db: Path) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT oracle_id, name, oracle_text FROM cards ORDER BY oracle_id").fetchall()
    finally:
        con.close()


def last_run(db: Path) -> tuple[str, str | None]:
    """(status, error) of the newest row of the database's runs table."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT status, error FROM runs ORDER BY run_id DESC LIMIT 1").fetchone()
    finally:
        con.close()


@pytest.mark.parametrize("fmt", ["csv", "json", "table", "parquet"])
def test_query_output_to_a_full_disk_is_one_error_line_and_the_device_stays(arn_db, fmt):
    proc = run_cli("query", "--db", str(arn_db), "--format", fmt, "--output", "/dev/full",
                   "SELECT name, oracle_text FROM cards")
    assert one_error_line(proc) == "error: /dev/full: cannot write: No space left on device"
    # a rename over the path would have replaced the device node with a regular file (as root)
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_schema_doc_output_to_a_full_disk_and_over_the_database(arn_db):
    assert "No space left on device" in one_error_line(
        run_cli("schema-doc", "--db", str(arn_db), "--output", "/dev/full"))
    before = arn_db.read_bytes()
    line = one_error_line(run_cli("schema-doc", "--db", str(arn_db), "--output", str(arn_db)))
    assert "refusing to write over the database" in line
    assert arn_db.read_bytes() == before


def test_query_output_through_a_symlink_writes_its_target(arn_db, tmp_path):
    target = tmp_path / "kept-elsewhere.csv"
    target.write_text("old\n")
    link = tmp_path / "latest.csv"
    link.symlink_to(target)
    proc = run_cli("query", "--db", str(arn_db), "--format", "csv", "--output", str(link),
                   "SELECT name FROM cards WHERE name = 'Juzám Djinn'")
    assert proc.returncode == 0, proc.stderr
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == "name\nJuzám Djinn\n"


def test_query_output_into_a_fifo_streams_to_its_reader(arn_db, tmp_path):
    fifo = tmp_path / "rows.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    proc = run_cli("query", "--db", str(arn_db), "--format", "csv", "--output", str(fifo),
                   "SELECT count(*) AS n FROM cards", timeout=120)
    reader.join(60)
    assert proc.returncode == 0, proc.stderr
    assert got == [b"n\n78\n"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_refresh_past_the_file_size_limit_fails_cleanly_and_keeps_the_previous_database(arn_db):
    before = cards_fingerprint(arn_db)

    def file_size_limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails with EFBIG instead of killing us
        resource.setrlimit(resource.RLIMIT_FSIZE, (256 << 10, 256 << 10))

    proc = run_cli("refresh", "--db", str(arn_db), "--force", "--no-rules", "--quiet", "--source", str(ARN),
                   preexec=file_size_limit)
    assert "File too large" in one_error_line(proc)
    assert cards_fingerprint(arn_db) == before
    status, error = last_run(arn_db)
    assert status == "failed" and "File too large" in error
    assert not [p for p in arn_db.parent.iterdir() if ".tmp-" in p.name]  # the half-written build is gone


@pytest.mark.parametrize("fmt", ["table", "csv", "json"])
def test_a_query_result_too_big_for_memory_is_one_error_line(arn_db, fmt):
    def address_space_limit():
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))

    # one 6 GB string: more than the child may allocate
    proc = run_cli("query", "--db", str(arn_db), "--format", fmt,
                   "SELECT string_agg(repeat('x', 1000000), '') AS s FROM range(6000)", preexec=address_space_limit)
    line = one_error_line(proc)
    assert "Out of Memory" in line and "narrow it" in line


def test_max_time_stops_a_refresh_and_keeps_the_previous_database(arn_db):
    """``--max-time`` bounds the whole refresh (pipeline/deadline.py): the bundled snapshot (4,372 cards,
    parsed from scratch: seconds of work) stopped after 2 s fails with one line, the previous database
    keeps its 78 cards, the failed run is recorded, no temporary file is left and the lock is free."""
    import filelock

    before = cards_fingerprint(arn_db)
    proc = run_cli("refresh", "--db", str(arn_db), "--quiet", "--source", "bundled", "--max-time", "2", "--jobs", "2")
    line = one_error_line(proc)
    assert line == (f"error: {arn_db}: the refresh took more than 2 s (--max-time) and was stopped; "
                    f"the previous database is untouched")
    assert cards_fingerprint(arn_db) == before
    status, error = last_run(arn_db)
    assert status == "failed" and error.startswith("RefreshTimedOut: ")
    assert not [p for p in arn_db.parent.iterdir() if ".tmp-" in p.name]
    lock = filelock.FileLock(str(arn_db) + ".lock")
    lock.acquire(timeout=0)  # raises filelock.Timeout if the stopped refresh still held it
    lock.release()
