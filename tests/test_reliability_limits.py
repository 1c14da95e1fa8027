"""Bounded everything (issue 16 § 2, § 3): tiny hostile inputs cannot cost memory, time or disk, and never hang.

Memory: each hostile file is refreshed in a child process under an address-space limit
(``resource.setrlimit(RLIMIT_AS)``, 3 GiB: DuckDB and pyarrow reserve address space they never
touch) and its peak RSS (``VmHWM`` of the refresh process, written at its exit) must stay under 300 MB. Liveness: every
child has a wide timeout (a hang fails the test instead of running forever). Downloads run
against a real server on 127.0.0.1 started by the test.
"""

from __future__ import annotations

import gzip
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path

import pytest
from werkzeug import Response

from pipeline.sources.http import DownloadError, read_meta
from pipeline.sources.scryfall_api import ScryfallSource
from tests.conftest import ROOT
from tests.test_download_http import Mirror, fetcher, server, _running_server  # noqa: F401 (fixtures)

RSS_LIMIT = 300 << 20
AS_LIMIT = 3 << 30


def refresh_child(tmp_path: Path, *sources: Path, timeout: float = 120) -> tuple[int, str, int]:
    """Run ``refresh --source …`` in a child under the address-space limit; return (exit code, stderr, peak RSS bytes)."""
    args = [sys.executable, "-m", "pipeline", "refresh", "--db", str(tmp_path / "cards.duckdb"), "--quiet"]
    for s in sources:
        args += ["--source", str(s)]

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (AS_LIMIT, AS_LIMIT))

    hung = threading.Event()
    hwm_file = tmp_path / "peak-rss-kb"
    with tempfile.TemporaryFile() as err_file:
        proc = subprocess.Popen([sys.executable, "-c", _REPORT_PEAK_RSS, *args[3:]], cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=err_file, preexec_fn=limit,
                                env={**os.environ, "MTG_TEST_PEAK_RSS_FILE": str(hwm_file)})

        def kill():
            hung.set()
            proc.kill()

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            proc.wait()
        finally:
            timer.cancel()
        if hung.is_set():
            pytest.fail(f"refresh did not end within {timeout} s: a hang")
        err_file.seek(0)
        err = err_file.read()
    # no figure (the child died before its exit handlers ran): the bound is not shown, so it fails
    peak = int(hwm_file.read_text()) * 1024 if hwm_file.exists() else 1 << 40
    return proc.returncode, err.decode(errors="replace"), peak


#: Runs ``python -m pipeline ARGS`` and writes the process's own peak RSS (VmHWM, kB) at exit. Neither
#: ``ru_maxrss`` of the child (a forked child counts the parent's resident pages until exec) nor
#: RUSAGE_CHILDREN (every earlier child of the session) measures the refresh alone.
_REPORT_PEAK_RSS = """
import atexit, os, runpy, sys
def _report():
    with open("/proc/self/status") as fh:
        kb = next(int(line.split()[1]) for line in fh if line.startswith("VmHWM:"))
    with open(os.environ["MTG_TEST_PEAK_RSS_FILE"], "w") as out:
        out.write(str(kb))
atexit.register(_report)
sys.argv = ["mtg-pipeline", *sys.argv[1:]]
runpy.run_module("pipeline", run_name="__main__")
"""


def gz(path: Path, *parts: bytes | tuple[bytes, int]) -> Path:
    """Write a gzip of ``parts`` (a (bytes, n) part is bytes repeated n times, streamed) to ``path``."""
    with gzip.open(path, "wb", compresslevel=6) as fh:
        for part in parts:
            if isinstance(part, tuple):
                chunk, n = part
                block = chunk * max(1, (1 << 20) // len(chunk))
                for _ in range(n * len(chunk) // len(block)):
                    fh.write(block)
                fh.write(chunk * (n - n * len(chunk) // len(block) * len(block) // len(chunk)))
            else:
                fh.write(part)
    return path


def assert_one_error(code: int, err: str, *expected: str) -> None:
    lines = err.strip().splitlines()
    assert code == 1 and len(lines) == 1 and lines[0].startswith("error: "), err[-2000:]
    assert "Traceback" not in err
    for part in expected:
        assert part in lines[0], (part, lines[0])


@pytest.mark.parametrize("case", ["mtgjson_meta_40kb", "mtgjson_data_gzip", "scryfall_array_gzip", "mtgjson_string_bomb",
                                  "jsonl_string_bomb"])
def test_tiny_hostile_files_stay_under_300_mb(case, tmp_path):
    if case == "mtgjson_meta_40kb":  # 40 KB: the MTGJSON meta version read used ijson prefixes (~1 GB)
        src = tmp_path / "AllPrintings.json"
        src.write_bytes(b'{"meta": ' + b"[" * 20_000 + b"]" * 20_000 + b', "data": {}}')
        assert src.stat().st_size <= 40_100
    elif case == "mtgjson_data_gzip":  # a few hundred bytes of gzip nested 1,000,000 deep inside data
        src = gz(tmp_path / "ATQ.json.gz", b'{"meta": {"version": "5.2.0"}, "data": {"cards": ', (b"[", 1_000_000))
        assert src.stat().st_size < 3_000
    elif case == "scryfall_array_gzip":
        src = gz(tmp_path / "cards.json.gz", b'[{"object": "card", "name": ', (b"[", 1_000_000))
    elif case == "mtgjson_string_bomb":  # ~150 KB gzip holding a 150 MB string
        src = gz(tmp_path / "ATQ.json.gz", b'{"meta": {"version": "5.2.0"}, "data": {"cards": "', (b"x", 150 << 20),
                 b'"}}')
    else:
        src = gz(tmp_path / "cards.jsonl.gz", b'{"object": "card", "name": "', (b"x", 150 << 20), b'"}\n')
    code, err, rss = refresh_child(tmp_path, src)
    assert_one_error(code, err, str(src))
    assert rss < RSS_LIMIT, f"peak RSS {rss / 2**20:.0f} MB"


def test_non_regular_files_in_a_source_directory_give_one_error_line_not_a_hang(tmp_path):
    real = ROOT.parent / "shared" / "corpus" / "mtgjson-v5-20220425" / "ARN.json.gz"
    cases = {}
    for name in ("fifo", "zero", "loop", "dir"):
        d = tmp_path / name
        d.mkdir()
        (d / "ARN.json.gz").write_bytes(real.read_bytes())
        cases[name] = d
    os.mkfifo(cases["fifo"] / "ZZZ.json")
    os.symlink("/dev/zero", cases["zero"] / "ZZZ.json")
    os.symlink(cases["loop"] / "b.json", cases["loop"] / "a.json")
    os.symlink(cases["loop"] / "a.json", cases["loop"] / "b.json")
    (cases["dir"] / "ZZZ.json").mkdir()
    expected = {"fifo": "is a FIFO (named pipe), not a regular file", "zero": "is a character device",
                "loop": "symlink loop", "dir": "is a directory, not a regular file"}
    for name, d in cases.items():
        t = time.monotonic()
        code, err, _ = refresh_child(tmp_path / name, d, timeout=90)
        assert_one_error(code, err, expected[name])
        assert time.monotonic() - t < 90


# --------------------------------------------------------------------------- downloads


def test_a_trickling_server_hits_the_download_deadline(server, tmp_path):
    stop = threading.Event()

    def trickle(request):
        def body():
            for _ in range(600):
                if stop.is_set():
                    return
                yield b"{"
                time.sleep(0.5)
        return Response(body(), content_type="application/json")

    server.expect_request("/bulk-data").respond_with_handler(trickle)
    f = fetcher(retries=0, read_timeout=5.0, download_deadline=2.0)
    t = time.monotonic()
    try:
        with pytest.raises(DownloadError, match=r"more than 2 s \(--deadline\)"):
            f.get_json(server.url_for("/bulk-data"), tmp_path / "bulk-data.json")
    finally:
        stop.set()
    assert time.monotonic() - t < 30
    assert not list(tmp_path.glob("*.tmp-*"))


def test_content_encoding_gzip_bomb_on_the_bulk_list_is_capped_while_decoding(server, tmp_path):
    bomb = zlib.compressobj(9, zlib.DEFLATED, 31)
    body = bomb.compress(b'{"object": "list", "data": ["' + b"x" * (100 << 20)) + bomb.flush()
    assert len(body) < 200_000
    server.expect_request("/bulk-data").respond_with_data(body, content_type="application/json",
                                                          headers={"Content-Encoding": "gzip"})
    with pytest.raises(DownloadError, match="exceeds the 33554432-byte cap"):
        fetcher(retries=0).get_json(server.url_for("/bulk-data"), tmp_path / "bulk-data.json")
    assert not list(tmp_path.iterdir())


def test_a_rejected_bulk_list_keeps_the_good_cached_one(server, tmp_path):
    mirror = Mirror(server)
    source = ScryfallSource(fetcher(), tmp_path, api_url=mirror.api_url, rules_url=None)
    source.version()
    cached = tmp_path / "scryfall" / "bulk-data.json"
    good = cached.read_bytes()
    server.clear()
    server.expect_request("/bulk-data").respond_with_data(json.dumps({"object": "list", "data": []}),
                                                          content_type="application/json")
    with pytest.raises(DownloadError, match="has no 'oracle_cards' entry"):
        ScryfallSource(fetcher(), tmp_path, api_url=mirror.api_url, rules_url=None).version()
    assert cached.read_bytes() == good and read_meta(cached) is not None


# --------------------------------------------------------------------------- integrity


def test_a_symlinked_db_is_locked_and_replaced_through_its_target(tmp_path):
    from pipeline.refresh import refresh

    real = tmp_path / "real" / "cards.duckdb"
    real.parent.mkdir()
    link = tmp_path / "cards.duckdb"
    link.symlink_to(real)
    arn = ROOT.parent / "shared" / "corpus" / "mtgjson-v5-20220425" / "ARN.json.gz"
    assert refresh([arn], link).counts["cards"] == 78
    assert link.is_symlink() and real.is_file()  # the swap replaced the real file, not the link
    assert (real.parent / "cards.duckdb.lock").exists() and not (tmp_path / "cards.duckdb.lock").exists()


def test_download_temp_files_of_dead_processes_are_cleaned(server, tmp_path):
    mirror = Mirror(server)
    leftover = tmp_path / "scryfall" / "oracle_cards.jsonl.gz.tmp-999999999"
    leftover.parent.mkdir(parents=True)
    leftover.write_bytes(b"x" * 1000)
    ScryfallSource(fetcher(), tmp_path, api_url=mirror.api_url, rules_url=None).version()
    assert not leftover.exists()


def test_a_bulk_list_nested_100k_deep_is_one_error(server, tmp_path):
    server.expect_request("/bulk-data").respond_with_data(b"[" * 100_000 + b"]" * 100_000,
                                                          content_type="application/json")
    with pytest.raises(DownloadError, match="nested too deeply"):
        fetcher(retries=0).get_json(server.url_for("/bulk-data"), tmp_path / "bulk-data.json")
    assert not (tmp_path / "bulk-data.json").exists()
