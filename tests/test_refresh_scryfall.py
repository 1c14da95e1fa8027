"""`mtg-pipeline refresh --source scryfall` end to end, through the CLI, against a local mirror.

A real HTTP server on 127.0.0.1 serves a Scryfall bulk-data list pointing back at itself, 249 real
Core Set 2020 card objects (gzipped JSON Lines, once the legacy JSON array), the real M20 rulings in
Scryfall's rulings format, and the real Comprehensive Rules text. Every fault is followed by the same
checks: exit code 1, a one-line error, the previous database and cached files intact, the failure
recorded in ``runs``.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import shutil
import time
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner
from werkzeug import Response

from pipeline.cli import main
from pipeline.sources.http import read_meta
from tests.test_download_http import (  # noqa: F401  (fixtures)
    RULES_TXT, UPDATED_1, UPDATED_2, Mirror, _running_server, close_mid_body, gz_jsonl, json_array, m20_cards,
    m20_rulings, server, status,
)

RULES_PATH = "/media/2026/downloads/MagicCompRules 20260227.txt"
RULES_SHA16 = hashlib.sha256(RULES_TXT.read_bytes()).hexdigest()[:16]
LABEL = "scryfall:oracle_cards+rulings"


class RulesMirror(Mirror):
    """The bulk-data mirror plus the Comprehensive Rules text at a media.wizards.com-like path."""

    def __init__(self, server):
        super().__init__(server)
        server.expect_request(RULES_PATH).respond_with_handler(
            lambda request: Response(RULES_TXT.read_bytes(), content_type="text/plain"))

    @property
    def rules_url(self) -> str:
        return self.server.url_for(RULES_PATH.replace(" ", "%20"))


def refresh_cli(mirror: RulesMirror, db: Path, cache: Path, *extra: str):
    args = ["refresh", "--source", "scryfall", "--db", str(db), "--cache-dir", str(cache),
            "--api-url", mirror.api_url, "--allow-host", "127.0.0.1", "--rules-url", mirror.rules_url,
            "--retries", "2", "--backoff", "0.01", "--quiet", *extra]
    return CliRunner().invoke(main, args)


def rows(db: Path, sql: str, params=None) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, params or []).fetchall()
    finally:
        con.close()


def runs(db: Path) -> list[tuple]:
    return rows(db, "SELECT run_id, source, source_version, status, card_count, ruling_count, error FROM runs "
                    "ORDER BY run_id")


def content(db: Path) -> tuple:
    """A fingerprint of the built tables (not runs): what a failed refresh must leave untouched."""
    return tuple(rows(db, f"SELECT count(*), string_agg(md5(t::VARCHAR), ',' ORDER BY md5(t::VARCHAR)) FROM {t} t")[0]
                 for t in ("cards", "faces", "abilities", "rulings", "meta"))


def file_sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


CARDS = len(m20_cards())
RULINGS = len(m20_rulings())
VERSION_1 = f"oracle_cards@{UPDATED_1} rulings@{UPDATED_1} rules=sha256:{RULES_SHA16}"


@pytest.fixture(scope="module")
def first_build(_running_server, tmp_path_factory):
    """One full download and build through the CLI: (result, db, cache, requests made)."""
    _running_server.clear()
    mirror = RulesMirror(_running_server)
    base = tmp_path_factory.mktemp("scryfall")
    db, cache = base / "cards.duckdb", base / "cache"
    result = refresh_cli(mirror, db, cache)
    log = [req.path for req, _ in _running_server.log]
    _running_server.clear()
    return result, db, cache, log


@pytest.fixture()
def state(first_build, tmp_path, server):
    """A copy of the first build's database and cache, and a fresh mirror on the same server."""
    _, db, cache, _ = first_build
    shutil.copy(db, tmp_path / db.name)
    shutil.copytree(cache, tmp_path / "cache")
    mirror = RulesMirror(server)
    return mirror, tmp_path / db.name, tmp_path / "cache"


def test_full_download_and_build(first_build):
    result, db, cache, log = first_build
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"built {db}: {CARDS} cards, ")
    assert f"{RULINGS} rulings" in result.stdout and VERSION_1 in result.stdout
    assert log == ["/bulk-data", RULES_PATH, "/file/oracle-cards-20261129090211.jsonl.gz",
                   "/file/rulings-20261129090211.jsonl.gz"]
    assert runs(db) == [(1, LABEL, VERSION_1, "ok", CARDS, RULINGS, None)]
    assert rows(db, "SELECT count(*) FROM cards") == [(249,)]
    # prices are dated by the bulk file's updated_at (UPDATED_1); no prices, no date
    assert rows(db, "SELECT DISTINCT prices_date::VARCHAR FROM printings WHERE price_usd IS NOT NULL "
                    "OR price_eur IS NOT NULL") == [(UPDATED_1[:10],)]
    assert rows(db, "SELECT count(*) FROM printings WHERE prices_date IS NOT NULL AND price_usd IS NULL "
                    "AND price_usd_foil IS NULL AND price_eur IS NULL AND price_tix IS NULL") == [(0,)]
    # A real card and its real rulings, downloaded and linked by oracle id.
    (name, oracle_id, cost) = rows(db, "SELECT name, oracle_id, mana_cost FROM cards WHERE name = 'Aerial Assault'")[0]
    assert (oracle_id, cost) == ("a4eb06ca-16d8-41c2-8fc6-22e73872b5b0", "{2}{W}")
    comments = [r[0] for r in rows(db, "SELECT comment FROM rulings WHERE oracle_id = ? ORDER BY comment", [oracle_id])]
    assert "Any abilities that trigger as the target creature is destroyed won’t resolve until after you’ve " \
           "gained life." in comments
    cached = sorted(p.relative_to(cache).as_posix() for p in cache.rglob("*") if p.is_file())
    assert cached == ["rules/MagicCompRules-20260227.txt", "rules/MagicCompRules-20260227.txt.meta.json",
                      "scryfall/bulk-data.json", "scryfall/bulk-data.json.meta.json",
                      "scryfall/oracle_cards.jsonl.gz", "scryfall/oracle_cards.jsonl.gz.meta.json",
                      "scryfall/rulings.jsonl.gz", "scryfall/rulings.jsonl.gz.meta.json"]


def test_same_updated_at_is_unchanged_without_downloading(state):
    mirror, db, cache = state
    before = content(db)
    result = refresh_cli(mirror, db, cache)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"unchanged: {db} already holds source version {VERSION_1} (run 2, ")
    assert [req.path for req, _ in mirror.server.log] == ["/bulk-data"]  # the rules are younger than a day
    assert runs(db)[-1] == (2, LABEL, VERSION_1, "unchanged", CARDS, RULINGS, None)
    assert content(db) == before


def test_changed_updated_at_rebuilds_from_the_new_file(state):
    mirror, db, cache = state
    mirror.updated["oracle_cards"] = UPDATED_2
    mirror.files["oracle_cards"] = (gz_jsonl(m20_cards()[:200]), False)
    result = refresh_cli(mirror, db, cache)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"built {db}: 200 cards, ")
    assert [req.path for req, _ in mirror.server.log] == ["/bulk-data", "/file/oracle-cards-20261129210437.jsonl.gz"]
    version_2 = f"oracle_cards@{UPDATED_2} rulings@{UPDATED_1} rules=sha256:{RULES_SHA16}"
    assert runs(db) == [(1, LABEL, VERSION_1, "ok", CARDS, RULINGS, None), (2, LABEL, version_2, "ok", 200, RULINGS, None)]
    assert read_meta(cache / "scryfall" / "oracle_cards.jsonl.gz").extra["updated_at"] == UPDATED_2


def test_force_downloads_and_rebuilds(state):
    mirror, db, cache = state
    result = refresh_cli(mirror, db, cache, "--force")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"built {db}: {CARDS} cards, ")
    paths = [req.path for req, _ in mirror.server.log]
    assert paths == ["/bulk-data", RULES_PATH, "/file/oracle-cards-20261129090211.jsonl.gz",
                     "/file/rulings-20261129090211.jsonl.gz"]
    assert [r[3] for r in runs(db)] == ["ok", "ok"]


def test_legacy_json_array_with_gzip_content_encoding_builds(state):
    mirror, db, cache = state
    mirror.updated["oracle_cards"] = UPDATED_2
    mirror.files["oracle_cards"] = (json_array(m20_cards()), True)
    mirror.gzip_encoding.add("oracle_cards")
    result = refresh_cli(mirror, db, cache)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"built {db}: {CARDS} cards, ")
    assert (cache / "scryfall" / "oracle_cards.json").exists()
    assert not (cache / "scryfall" / "oracle_cards.jsonl.gz").exists()  # superseded
    assert mirror.server.log[-1][1].headers["Content-Encoding"] == "gzip"


def test_transient_faults_are_survived(state):
    """500, a connection dropped mid-body, then 429 with Retry-After: the build still succeeds."""
    mirror, db, cache = state
    mirror.updated["oracle_cards"] = UPDATED_2
    path = mirror.path_of("oracle_cards")
    mirror.faults[path] = [status(500), close_mid_body(mirror.files["oracle_cards"][0])]
    mirror.updated["rulings"] = UPDATED_2
    mirror.faults[mirror.path_of("rulings")] = [status(429, {"Retry-After": "1"})]
    t0 = time.monotonic()
    result = refresh_cli(mirror, db, cache)
    assert result.exit_code == 0, result.output
    assert time.monotonic() - t0 >= 1.0
    assert result.stdout.startswith(f"built {db}: {CARDS} cards, ")
    assert mirror.requests_to(path) == 3 and mirror.requests_to(mirror.path_of("rulings")) == 2
    assert runs(db)[-1][3] == "ok"


def broken_jsonl() -> bytes:
    """Real card objects as gzipped JSON Lines, the fourth line cut inside a string."""
    lines = [json.dumps(c) for c in m20_cards()[:10]]
    lines[3] = lines[3][: lines[3].index('"oracle_text"') + 30]
    return gzip.compress(("\n".join(lines) + "\n").encode(), mtime=0)


def _fault_cards_file(mirror, handler_factory, times=3):
    path = mirror.path_of("oracle_cards")
    mirror.faults[path] = [handler_factory(mirror) for _ in range(times)]


def _always_500(mirror):
    return status(500)


def _drop_mid_body(mirror):
    return close_mid_body(mirror.files["oracle_cards"][0])


FAULTS = {
    # name: (prepare mirror, expected error text)
    "connection closed mid-body": (lambda m: _fault_cards_file(m, _drop_mid_body),
                                   r"connection broken after \d+ bytes \(.*IncompleteRead.*\) \(gave up after 3 tries\)"),
    "HTTP 500 every time": (lambda m: _fault_cards_file(m, _always_500),
                            r"HTTP 500 INTERNAL SERVER ERROR \(gave up after 3 tries\)"),
    "429 asking for an hour": (lambda m: _fault_cards_file(m, lambda _: status(429, {"Retry-After": "3600"}), 1),
                               r"HTTP 429 TOO MANY REQUESTS: server asks to retry after 3600 s"),
    "body of the wrong size": (lambda m: m.size_override.__setitem__("oracle_cards", len(m.files["oracle_cards"][0]) - 1),
                               r"received \d+ bytes but the index gives compressed_size=\d+ \(gave up after 3 tries\)"),
    "invalid JSON": (lambda m: m.files.__setitem__("oracle_cards", (broken_jsonl(), False)),
                     r"not valid JSON Lines: line 4: Invalid control character"),
    "truncated gzip": (lambda m: m.files.__setitem__("oracle_cards", (m.files["oracle_cards"][0][:-3000], False)),
                       r"downloaded file is corrupt \(truncated gzip\?\)"),
    "download_uri on a host not allowed": (
        lambda m: m.url_override.__setitem__("oracle_cards", "https://downloads.example.com/oracle-cards.jsonl.gz"),
        r"host 'downloads.example.com' is not allowed"),
    "decompressed size over --max-bytes": (lambda m: None, r"decompressed size exceeds the 400000-byte cap"),
    "bulk-data list answers 503": (lambda m: m.server.clear() or m.server.expect_request("/bulk-data")
                                   .respond_with_handler(status(503)), r"HTTP 503 SERVICE UNAVAILABLE \(gave up"),
    "rulings file is not rulings": (lambda m: (m.updated.__setitem__("rulings", UPDATED_2),
                                               m.files.__setitem__("rulings", (gz_jsonl(m20_cards()[:3]), False))),
                                    r"expected Scryfall 'ruling' objects, the first record is 'card'"),
}


@pytest.mark.parametrize("fault", list(FAULTS))
def test_fault_leaves_database_and_cache_intact_and_records_failure(state, fault):
    mirror, db, cache = state
    prepare, expected = FAULTS[fault]
    mirror.updated["oracle_cards"] = UPDATED_2  # a new file is announced, so a download is attempted
    prepare(mirror)
    before_db = content(db)
    before_cache = {p: file_sha(p) for p in cache.rglob("*.gz")} | {p: file_sha(p) for p in cache.rglob("*.txt")}
    extra = ("--max-bytes", "400000") if "max-bytes" in fault else ()
    result = refresh_cli(mirror, db, cache, *extra)
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    error = result.stderr.strip()
    assert "\n" not in error, error
    assert error.startswith(("error: http://127.0.0.1:", "error: https://downloads.example.com/")), error
    assert re.search(expected, error), error
    # The previous database is intact; the failure is on record.
    assert content(db) == before_db
    last = runs(db)[-1]
    assert last[:2] == (2, LABEL) and last[3] == "failed"
    assert last[6].startswith(("DownloadError: ", "HostNotAllowed: ")) and re.search(expected, last[6])
    # Every cached file is intact (the cards file is only replaced by a proven one).
    for p, digest in before_cache.items():
        if fault == "rulings file is not rulings" and p.name == "oracle_cards.jsonl.gz":
            continue  # the new cards file was proven and cached; the rulings kept the previous one
        assert file_sha(p) == digest, p
    assert not list(cache.rglob("*.tmp-*")) and not list(db.parent.glob("*.tmp-*"))


def test_after_a_failed_rulings_download_the_next_run_fetches_only_the_rulings(state):
    mirror, db, cache = state
    FAULTS["rulings file is not rulings"][0](mirror)
    mirror.updated["oracle_cards"] = UPDATED_2
    assert refresh_cli(mirror, db, cache).exit_code == 1
    mirror.server.clear()
    mirror = RulesMirror(mirror.server)
    mirror.updated = {"oracle_cards": UPDATED_2, "rulings": UPDATED_2}
    result = refresh_cli(mirror, db, cache)
    assert result.exit_code == 0, result.output
    assert [req.path for req, _ in mirror.server.log] == ["/bulk-data", "/file/rulings-20261129210437.jsonl.gz"]
    assert [r[3] for r in runs(db)] == ["ok", "failed", "ok"]


def test_local_rules_file_instead_of_the_rules_url(state, tmp_path):
    mirror, db, cache = state
    result = CliRunner().invoke(main, [
        "refresh", "--source", "scryfall", "--db", str(db), "--cache-dir", str(cache), "--api-url", mirror.api_url,
        "--allow-host", "127.0.0.1", "--rules", str(RULES_TXT), "--quiet"])
    # Same bulk files and the same rules text (same hash) as the first build: nothing to do.
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("unchanged: ")
    assert [req.path for req, _ in mirror.server.log] == ["/bulk-data"]


def test_allow_host_from_the_environment(state):
    mirror, db, cache = state
    result = CliRunner().invoke(main, [
        "refresh", "--source", "scryfall", "--db", str(db), "--cache-dir", str(cache), "--api-url", mirror.api_url,
        "--rules-url", mirror.rules_url, "--quiet"], env={"MTG_PIPELINE_ALLOW_HOSTS": "mirror.example.org 127.0.0.1"})
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("unchanged: ")
    without = CliRunner().invoke(main, [
        "refresh", "--source", "scryfall", "--db", str(db), "--cache-dir", str(cache), "--api-url", mirror.api_url,
        "--quiet"], env={"MTG_PIPELINE_ALLOW_HOSTS": ""})
    assert without.exit_code == 1
    assert "host '127.0.0.1' is not allowed" in without.stderr
    assert runs(db)[-1][3] == "failed"


def test_scryfall_cannot_be_combined_with_other_sources(tmp_path):
    result = CliRunner().invoke(main, ["refresh", "--source", "scryfall", "--source", "bundled",
                                       "--db", str(tmp_path / "x.duckdb")])
    assert result.exit_code == 2
    assert "'scryfall' cannot be combined with other sources" in result.stderr


def test_rules_download_failure_falls_back_to_the_cached_copy(state):
    """Wizards' server failing (after the daily cache expired) does not stop the refresh: cached CR, a warning."""
    mirror, db, cache = state
    meta_file = cache / "rules" / "MagicCompRules-20260227.txt.meta.json"
    meta = json.loads(meta_file.read_text())
    meta["fetched_at"] = "2026-01-01T00:00:00+00:00"
    meta_file.write_text(json.dumps(meta))
    mirror.server.clear()
    mirror.server.expect_request(RULES_PATH).respond_with_handler(status(500))
    Mirror.__init__(mirror, mirror.server)
    result = refresh_cli(mirror, db, cache)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("unchanged: ")
    assert result.stderr.startswith(f"warning: {mirror.rules_url}: HTTP 500 INTERNAL SERVER ERROR (gave up after 3 tries); "
                                    f"using the cached copy {cache / 'rules' / 'MagicCompRules-20260227.txt'}")


def test_progress_bars_without_quiet(state):
    mirror, db, cache = state
    mirror.updated["oracle_cards"] = UPDATED_2
    mirror.faults[mirror.path_of("oracle_cards")] = [close_mid_body(mirror.files["oracle_cards"][0])]
    args = ["refresh", "--source", "scryfall", "--db", str(db), "--cache-dir", str(cache), "--api-url", mirror.api_url,
            "--allow-host", "127.0.0.1", "--rules-url", mirror.rules_url, "--backoff", "0.01"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert f"built {db}: {CARDS} cards, " in result.stdout


def test_a_download_that_fails_the_build_does_not_replace_the_cached_file(state):
    """A card file that passes the download check but fails the build: the last good cached file and
    its metadata come back, so the next run downloads again instead of reusing the bad one (issue 16)."""
    mirror, db, cache = state
    cached = cache / "scryfall" / "oracle_cards.jsonl.gz"
    good_sha, before = file_sha(cached), content(db)
    bad = [dict(c) for c in m20_cards()]
    del bad[5]["name"]  # still a card object (the download check passes); the build refuses a nameless card
    mirror.updated["oracle_cards"] = UPDATED_2
    mirror.files["oracle_cards"] = (gz_jsonl(bad), False)
    result = refresh_cli(mirror, db, cache)
    assert result.exit_code == 1 and "card without a name" in result.stderr, result.output
    assert file_sha(cached) == good_sha and read_meta(cached).extra["updated_at"] == UPDATED_1
    assert content(db) == before and not list(cache.rglob("*.last-good"))
    mirror.files["oracle_cards"] = (gz_jsonl(m20_cards()[:200]), False)
    result = refresh_cli(mirror, db, cache)
    assert result.exit_code == 0 and result.stdout.startswith(f"built {db}: 200 cards, "), result.output
    assert read_meta(cached).extra["updated_at"] == UPDATED_2 and not list(cache.rglob("*.last-good"))
