"""The download layer (pipeline.sources.http, scryfall_api, rules_download) against a real HTTP server.

The server runs on 127.0.0.1 inside the test (pytest-httpserver) and serves a bulk-data list that
points back at itself, real 2019 Scryfall card objects (Core Set 2020, English, unchanged) as
gzipped JSON Lines or a legacy JSON array, and a rulings file in Scryfall's exact format made from
the real M20 rulings of the MTGJSON corpus. No test touches the internet.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import time
import uuid
import zlib
from email.utils import format_datetime
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from pathlib import Path

import ijson
import pytest

import pipeline
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from pipeline.sources.http import (
    ACCEPT, SCRYFALL_HOSTS, DownloadError, Fetcher, HostNotAllowed, HttpConfig, check_url, parse_retry_after,
    read_meta, verify_json_records,
)
from pipeline.sources.rules_download import DEFAULT_RULES_URL, download_rules, rules_cache_path
from pipeline.sources.scryfall_api import BulkEntry, ScryfallSource, bulk_entry, download_bulk

CORPUS = Path(__file__).parents[1].parent / "shared" / "corpus"
SCRYFALL_2019 = CORPUS / "scryfall-2019" / "cards-2019.json.gz"
MTGJSON_M20 = CORPUS / "mtgjson-v5-20220425" / "M20.json.gz"
RULES_TXT = CORPUS / "comprehensive-rules" / "MagicCompRules-20260227.txt"

UPDATED_1 = "2026-11-29T09:02:11.512+00:00"
UPDATED_2 = "2026-11-29T21:04:37.091+00:00"


# --------------------------------------------------------------------------- real test data

@lru_cache(maxsize=1)
def m20_cards() -> tuple[dict, ...]:
    """The English Core Set 2020 card objects of the 2019 Scryfall file, one per oracle id, unchanged."""
    seen, cards = set(), []
    with gzip.open(SCRYFALL_2019, "rb") as fh:
        for obj in ijson.items(fh, "item", use_float=True):
            if obj.get("set") == "m20" and obj.get("lang") == "en" and obj["oracle_id"] not in seen:
                seen.add(obj["oracle_id"])
                cards.append(obj)
    return tuple(cards)


@lru_cache(maxsize=1)
def m20_rulings() -> tuple[dict, ...]:
    """Scryfall ruling objects for those cards, from the real rulings MTGJSON's M20 set file carries."""
    oracle_ids = {c["oracle_id"] for c in m20_cards()}
    with gzip.open(MTGJSON_M20, "rt", encoding="utf-8") as fh:
        data = json.load(fh)
    seen, rulings = set(), []
    for card in data["data"]["cards"]:
        oracle_id = card["identifiers"].get("scryfallOracleId")
        if oracle_id not in oracle_ids:
            continue
        for r in card.get("rulings", []):
            key = (oracle_id, r["date"], r["text"])
            if key not in seen:
                seen.add(key)
                rulings.append({"object": "ruling", "oracle_id": oracle_id, "source": "wotc",
                                "published_at": r["date"], "comment": r["text"]})
    return tuple(rulings)


def gz_jsonl(objs) -> bytes:
    """Gzipped JSON Lines, one object per line, as Scryfall serves jsonl_download_uri."""
    return gzip.compress(b"".join(json.dumps(o, ensure_ascii=False).encode() + b"\n" for o in objs), mtime=0)


def json_array(objs) -> bytes:
    """One JSON array (the legacy download_uri shape)."""
    return json.dumps(list(objs), ensure_ascii=False).encode()


def stamp(updated_at: str) -> str:
    return re.sub(r"\D", "", updated_at)[:14]


NAMES = {"oracle_cards": ("Oracle Cards", "A JSON file containing one Scryfall card object for each Oracle ID on "
                          "Scryfall. The chosen sets for the cards are an attempt to return the most up-to-date "
                          "recognizable version of the card."),
         "rulings": ("Rulings", "A JSON file containing all Rulings on Scryfall. Each ruling refers to cards via "
                     "an `oracle_id`.")}


class Mirror:
    """A Scryfall bulk-data mirror served by a real HTTP server; its content and faults can change per test.

    ``files[type] = (body bytes, legacy?)``; ``faults[path]`` is a list of handlers used (and
    removed) one per request before the real file is served; ``size_override[type]`` falsifies
    the index's size; ``url_override[type]`` replaces the download URI.
    """

    def __init__(self, server: HTTPServer):
        self.server = server
        self.updated = {"oracle_cards": UPDATED_1, "rulings": UPDATED_1}
        self.files: dict[str, tuple[bytes, bool]] = {"oracle_cards": (gz_jsonl(m20_cards()), False),
                                                     "rulings": (gz_jsonl(m20_rulings()), False)}
        self.faults: dict[str, list] = {}
        self.size_override: dict[str, int] = {}
        self.url_override: dict[str, str] = {}
        self.gzip_encoding: set[str] = set()
        server.expect_request("/bulk-data").respond_with_handler(self._index)
        server.expect_request(re.compile(r"^/file/.*")).respond_with_handler(self._file)

    @property
    def api_url(self) -> str:
        return self.server.url_for("/bulk-data")

    def path_of(self, kind: str) -> str:
        legacy = self.files[kind][1]
        return f"/file/{kind.replace('_', '-')}-{stamp(self.updated[kind])}" + (".json" if legacy else ".jsonl.gz")

    def entry(self, kind: str) -> dict:
        body, legacy = self.files[kind]
        name, description = NAMES[kind]
        entry = {"object": "bulk_data", "id": str(uuid.uuid5(uuid.NAMESPACE_URL, kind)), "type": kind,
                 "updated_at": self.updated[kind], "uri": self.server.url_for(f"/bulk-data/{kind}"),
                 "name": name, "description": description}
        url = self.url_override.get(kind, self.server.url_for(self.path_of(kind)))
        if legacy:
            entry.update({"size": self.size_override.get(kind, len(body)), "download_uri": url,
                          "content_type": "application/json", "content_encoding": "gzip",
                          "compressed_size": len(gzip.compress(body, mtime=0))})
        else:
            entry.update({"compressed_size": self.size_override.get(kind, len(body)), "jsonl_download_uri": url})
        return entry

    def index(self) -> dict:
        return {"object": "list", "has_more": False, "data": [self.entry(k) for k in self.files]}

    def _index(self, request: Request) -> Response:
        return Response(json.dumps(self.index()), content_type="application/json; charset=utf-8")

    def _file(self, request: Request) -> Response:
        queue = self.faults.get(request.path)
        if queue:
            return queue.pop(0)(request)
        for kind in self.files:
            if request.path == self.path_of(kind):
                body, legacy = self.files[kind]
                if kind in self.gzip_encoding:
                    return Response(gzip.compress(body, mtime=0), content_type="application/json",
                                    headers={"Content-Encoding": "gzip"})
                return Response(body, content_type="application/json" if legacy else "application/gzip")
        return Response("not found", status=404)

    def requests_to(self, path: str) -> int:
        return sum(1 for req, _ in self.server.log if req.path == path)


def close_mid_body(body: bytes):
    """A handler that sends half the body with the full Content-Length, then drops the connection."""
    def gen():
        yield body[: len(body) // 2]
        raise ConnectionAbortedError("test server drops the connection mid-body")

    return lambda request: Response(gen(), headers={"Content-Length": str(len(body))},
                                    content_type="application/gzip")


def status(code: int, headers: dict | None = None):
    return lambda request: Response(f"status {code}", status=code, headers=headers or {})


@pytest.fixture(scope="module")
def _running_server():
    srv = HTTPServer(host="127.0.0.1", port=0)
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture()
def server(_running_server):
    """A real HTTP server on 127.0.0.1 (one per test module), with no handlers and an empty log."""
    _running_server.clear()
    yield _running_server
    _running_server.clear()


@pytest.fixture()
def mirror(server) -> Mirror:
    return Mirror(server)


class Sleeps(list):
    """Records the waits a Fetcher asks for instead of sleeping (backoff and Retry-After values)."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def fetcher(sleeps: Sleeps | None = None, **overrides) -> Fetcher:
    settings = {"retries": 3, "backoff": 0.5, "min_interval": 0.0, "connect_timeout": 2.0, "read_timeout": 5.0,
                "extra_hosts": ("127.0.0.1",)}
    settings.update(overrides)
    return Fetcher(HttpConfig(**settings), sleep=sleeps if sleeps is not None else Sleeps())


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def entry_of(mirror: Mirror, kind: str = "oracle_cards") -> BulkEntry:
    return bulk_entry(mirror.index(), kind, mirror.api_url)


# --------------------------------------------------------------------------- allow-list

def test_allow_list_takes_scryfall_https_only():
    assert check_url("https://api.scryfall.com/bulk-data", SCRYFALL_HOSTS)
    assert check_url("https://data.scryfall.io/oracle-cards/oracle-cards-20260920090159.jsonl.gz", SCRYFALL_HOSTS)
    with pytest.raises(HostNotAllowed, match="plain http"):
        check_url("http://data.scryfall.io/oracle-cards/x.jsonl.gz", SCRYFALL_HOSTS)
    with pytest.raises(HostNotAllowed, match="host 'data.scryfall.io.evil.example' is not allowed"):
        check_url("https://data.scryfall.io.evil.example/x.jsonl.gz", SCRYFALL_HOSTS)
    with pytest.raises(HostNotAllowed, match="user info"):
        check_url("https://api.scryfall.com@evil.example/bulk-data", SCRYFALL_HOSTS)
    with pytest.raises(HostNotAllowed, match="not an http"):
        check_url("file:///etc/passwd", SCRYFALL_HOSTS)
    # A configured extra host (mirror / test server) is allowed over http too.
    assert check_url("http://127.0.0.1:8123/bulk-data", SCRYFALL_HOSTS, ("127.0.0.1",))
    with pytest.raises(HostNotAllowed, match="--allow-host 127.0.0.1"):
        check_url("http://127.0.0.1:8123/bulk-data", SCRYFALL_HOSTS)


def test_download_uri_on_a_host_not_allowed_is_refused_before_any_request(mirror, tmp_path):
    mirror.url_override["oracle_cards"] = "https://cards.example.net/oracle-cards.jsonl.gz"
    source = ScryfallSource(fetcher(), tmp_path, api_url=mirror.api_url, rules_url=None)
    with pytest.raises(HostNotAllowed, match="host 'cards.example.net' is not allowed"):
        source.version()
    assert not (tmp_path / "scryfall" / "oracle_cards.jsonl.gz").exists()


def test_redirect_to_a_host_not_allowed_is_refused(mirror, server, tmp_path):
    path = mirror.path_of("oracle_cards")
    mirror.faults[path] = [status(302, {"Location": "https://mirror.example.org/oracle.jsonl.gz"})]
    with pytest.raises(HostNotAllowed, match="mirror.example.org"):
        download_bulk(fetcher(), entry_of(mirror), tmp_path)


def test_the_api_url_itself_must_be_allowed(mirror, tmp_path):
    f = Fetcher(HttpConfig(retries=0, min_interval=0.0))  # no extra hosts
    with pytest.raises(HostNotAllowed, match="host '127.0.0.1' is not allowed"):
        ScryfallSource(f, tmp_path, api_url=mirror.api_url, rules_url=None).version()
    assert mirror.requests_to("/bulk-data") == 0


# --------------------------------------------------------------------------- bulk-data list

def test_bulk_entry_prefers_jsonl_and_falls_back_to_download_uri(mirror):
    entry = entry_of(mirror)
    assert entry.jsonl and entry.url.endswith(f"/file/oracle-cards-{stamp(UPDATED_1)}.jsonl.gz")
    assert (entry.size_field, entry.expected_size) == ("compressed_size", len(mirror.files["oracle_cards"][0]))
    mirror.files["oracle_cards"] = (json_array(m20_cards()), True)
    legacy = entry_of(mirror)
    assert not legacy.jsonl and legacy.url.endswith(".json")
    assert (legacy.size_field, legacy.expected_size) == ("size", len(json_array(m20_cards())))


def test_bulk_entry_errors_name_the_type_and_what_is_listed(mirror):
    with pytest.raises(DownloadError, match=r"no 'all_cards' entry \(it lists oracle_cards, rulings\)"):
        bulk_entry(mirror.index(), "all_cards", mirror.api_url)
    error = {"object": "error", "code": "not_found", "status": 404, "details": "No such endpoint."}
    with pytest.raises(DownloadError, match="not a Scryfall bulk-data list .object 'error'.: No such endpoint"):
        bulk_entry(error, "oracle_cards", mirror.api_url)


# --------------------------------------------------------------------------- happy paths

def test_download_sends_etiquette_headers_and_stores_a_verified_file(mirror, tmp_path):
    f = fetcher()
    path, status_ = download_bulk(f, entry_of(mirror), tmp_path)
    assert status_ == "downloaded"
    assert path == tmp_path / "scryfall" / "oracle_cards.jsonl.gz"
    assert path.read_bytes() == mirror.files["oracle_cards"][0]
    count, first = verify_json_records(path, "x", max_bytes=1 << 30, expect_object="card")
    assert count == len(m20_cards()) == 249
    assert first["name"] == m20_cards()[0]["name"]
    meta = read_meta(path)
    assert meta.extra == {"type": "oracle_cards", "updated_at": UPDATED_1}
    assert meta.bytes == path.stat().st_size
    request = mirror.server.log[-1][0]
    assert request.headers["User-Agent"] == (f"mtg-pipeline/{pipeline.__version__} "
                                             f"(Python package mtg-pipeline; Magic: The Gathering card-data ETL)")
    assert request.headers["Accept"] == ACCEPT == "application/json;q=0.9,*/*;q=0.8"
    assert not list(path.parent.glob("*.tmp-*"))


def test_same_updated_at_is_not_downloaded_again_and_force_is(mirror, tmp_path):
    f = fetcher()
    download_bulk(f, entry_of(mirror), tmp_path)
    path = mirror.path_of("oracle_cards")
    assert download_bulk(f, entry_of(mirror), tmp_path)[1] == "cached"
    assert mirror.requests_to(path) == 1
    assert download_bulk(f, entry_of(mirror), tmp_path, force=True)[1] == "downloaded"
    assert mirror.requests_to(path) == 2


def test_legacy_json_array_with_gzip_content_encoding(mirror, tmp_path):
    """download_uri (old JSON array) sent with Content-Encoding: gzip; 'size' is the decoded size."""
    body = json_array(m20_cards())
    mirror.files["oracle_cards"] = (body, True)
    mirror.gzip_encoding.add("oracle_cards")
    path, status_ = download_bulk(fetcher(), entry_of(mirror), tmp_path)
    assert status_ == "downloaded" and path.name == "oracle_cards.json"
    assert path.read_bytes() == body
    assert verify_json_records(path, "x", max_bytes=1 << 30, expect_object="card")[0] == 249
    response_headers = mirror.server.log[-1][1].headers
    assert response_headers["Content-Encoding"] == "gzip"
    assert int(response_headers["Content-Length"]) < len(body)


def test_rulings_file_in_scryfall_format(mirror, tmp_path):
    path, _ = download_bulk(fetcher(), entry_of(mirror, "rulings"), tmp_path)
    count, first = verify_json_records(path, "x", max_bytes=1 << 30, expect_object="ruling")
    assert count == len(m20_rulings()) > 300
    assert set(first) == {"object", "oracle_id", "source", "published_at", "comment"}
    assert first["oracle_id"] in {c["oracle_id"] for c in m20_cards()}


def test_etag_gives_a_304_and_keeps_the_cached_file(server, tmp_path):
    text = RULES_TXT.read_bytes()
    etag = '"cr-20260227"'

    def handler(request: Request) -> Response:
        if request.headers.get("If-None-Match") == etag:
            return Response(status=304, headers={"ETag": etag})
        return Response(text, content_type="text/plain", headers={"ETag": etag,
                                                                  "Last-Modified": "Fri, 27 Feb 2026 08:00:00 GMT"})

    server.expect_request("/2026/downloads/MagicCompRules 20260227.txt").respond_with_handler(handler)
    url = server.url_for("/2026/downloads/MagicCompRules%2020260227.txt")
    f = fetcher()
    first = download_rules(f, url, tmp_path)
    assert first.status == "downloaded"
    assert first.path == rules_cache_path(tmp_path, url) == tmp_path / "rules" / "MagicCompRules-20260227.txt"
    assert first.path.read_bytes() == text
    # Within a day: no request at all.
    assert download_rules(f, url, tmp_path).status == "fresh"
    assert len(server.log) == 1
    # Older than a day: a conditional request, answered 304.
    meta_file = first.path.with_name(first.path.name + ".meta.json")
    meta = json.loads(meta_file.read_text())
    meta["fetched_at"] = (datetime.now(timezone.utc) - timedelta(days=2)).isoformat()
    meta_file.write_text(json.dumps(meta))
    again = download_rules(f, url, tmp_path)
    assert again.status == "not_modified"
    assert server.log[-1][0].headers["If-None-Match"] == etag
    assert server.log[-1][0].headers["If-Modified-Since"] == "Fri, 27 Feb 2026 08:00:00 GMT"
    assert again.path.read_bytes() == text


def test_rules_default_url_is_the_pinned_wizards_file():
    assert DEFAULT_RULES_URL == "https://media.wizards.com/2026/downloads/MagicCompRules%2020260227.txt"
    f = fetcher(extra_hosts=())
    with pytest.raises(HostNotAllowed, match="host 'rules.example.com' is not allowed"):
        download_rules(f, "https://rules.example.com/MagicCompRules.txt", Path("/nonexistent"))


def test_rules_page_that_is_not_the_rules_is_rejected(server, tmp_path):
    server.expect_request("/cr.txt").respond_with_data("<html><body>Page not found</body></html>",
                                                       content_type="text/html")
    with pytest.raises(DownloadError, match="not the Comprehensive Rules text .first line '<html>"):
        download_rules(fetcher(), server.url_for("/cr.txt"), tmp_path)
    assert not rules_cache_path(tmp_path, server.url_for("/cr.txt")).exists()


# --------------------------------------------------------------------------- faults

def test_500_then_success_backs_off_exponentially(mirror, tmp_path):
    path = mirror.path_of("oracle_cards")
    mirror.faults[path] = [status(500), status(503), status(502)]
    sleeps = Sleeps()
    file, status_ = download_bulk(fetcher(sleeps, retries=3, backoff=0.5), entry_of(mirror), tmp_path)
    assert status_ == "downloaded"
    assert sleeps == [0.5, 1.0, 2.0]
    assert mirror.requests_to(path) == 4


def test_429_honours_retry_after_seconds_and_http_date(mirror, tmp_path):
    path = mirror.path_of("oracle_cards")
    date = format_datetime(datetime.now(timezone.utc) + timedelta(seconds=30), usegmt=True)
    mirror.faults[path] = [status(429, {"Retry-After": "7"}), status(429, {"Retry-After": date})]
    sleeps = Sleeps()
    download_bulk(fetcher(sleeps), entry_of(mirror), tmp_path)
    assert sleeps[0] == 7.0
    assert 27 <= sleeps[1] <= 30
    assert mirror.requests_to(path) == 3


def test_429_retry_after_really_waits(mirror, tmp_path):
    path = mirror.path_of("oracle_cards")
    mirror.faults[path] = [status(429, {"Retry-After": "1"})]
    t0 = time.monotonic()
    download_bulk(Fetcher(HttpConfig(retries=2, backoff=0.01, min_interval=0.0, extra_hosts=("127.0.0.1",))),
                  entry_of(mirror), tmp_path)
    assert time.monotonic() - t0 >= 1.0


def test_retry_after_longer_than_the_limit_fails_at_once(mirror, tmp_path):
    path = mirror.path_of("oracle_cards")
    mirror.faults[path] = [status(429, {"Retry-After": "3600"})]
    with pytest.raises(DownloadError, match="server asks to retry after 3600 s, more than the 600 s limit"):
        download_bulk(fetcher(), entry_of(mirror), tmp_path)
    assert mirror.requests_to(path) == 1


def test_connection_closed_mid_body_is_retried(mirror, tmp_path):
    path = mirror.path_of("oracle_cards")
    body = mirror.files["oracle_cards"][0]
    mirror.faults[path] = [close_mid_body(body)]
    sleeps = Sleeps()
    file, status_ = download_bulk(fetcher(sleeps), entry_of(mirror), tmp_path)
    assert status_ == "downloaded" and file.read_bytes() == body
    assert sleeps == [0.5]


def test_connection_closed_mid_body_every_time_keeps_the_previous_file(mirror, tmp_path):
    f = fetcher()
    file, _ = download_bulk(f, entry_of(mirror), tmp_path)
    before, meta_before = sha(file), read_meta(file)
    mirror.updated["oracle_cards"] = UPDATED_2
    path = mirror.path_of("oracle_cards")
    mirror.faults[path] = [close_mid_body(mirror.files["oracle_cards"][0])] * 4
    with pytest.raises(DownloadError) as info:
        download_bulk(f, entry_of(mirror), tmp_path)
    message = str(info.value)
    assert "\n" not in message
    assert re.search(r"connection broken after \d+ bytes \(.*IncompleteRead.*\) \(gave up after 4 tries\)", message)
    assert message.startswith(mirror.server.url_for(path))
    assert sha(file) == before and read_meta(file) == meta_before
    assert not list(file.parent.glob("*.tmp-*"))


def test_wrong_size_is_retried_then_refused(mirror, tmp_path):
    f = fetcher()
    file, _ = download_bulk(f, entry_of(mirror), tmp_path)
    before = sha(file)
    mirror.updated["oracle_cards"] = UPDATED_2
    real = len(mirror.files["oracle_cards"][0])
    mirror.size_override["oracle_cards"] = real + 100
    with pytest.raises(DownloadError, match=rf"received {real} bytes but the index gives compressed_size={real + 100} "
                                            r"\(gave up after 4 tries\)"):
        download_bulk(f, entry_of(mirror), tmp_path)
    assert sha(file) == before and read_meta(file).extra["updated_at"] == UPDATED_1


def test_invalid_json_is_refused_without_retry(mirror, tmp_path):
    f = fetcher()
    file, _ = download_bulk(f, entry_of(mirror), tmp_path)
    before = sha(file)
    mirror.updated["oracle_cards"] = UPDATED_2
    lines = [json.dumps(c) for c in m20_cards()[:20]]
    lines[12] = lines[12][:-40]  # a record cut short: real data, broken JSON
    mirror.files["oracle_cards"] = (gzip.compress(("\n".join(lines) + "\n").encode(), mtime=0), False)
    with pytest.raises(DownloadError, match="not valid JSON Lines: line 13: "):
        download_bulk(f, entry_of(mirror), tmp_path)
    assert mirror.requests_to(mirror.path_of("oracle_cards")) == 1
    assert sha(file) == before


def test_truncated_gzip_file_is_refused(mirror, tmp_path):
    body = mirror.files["oracle_cards"][0]
    mirror.files["oracle_cards"] = (body[: len(body) - 5000], False)  # index size matches the cut file
    with pytest.raises(DownloadError, match="corrupt .truncated gzip"):
        download_bulk(fetcher(), entry_of(mirror), tmp_path)
    assert not (tmp_path / "scryfall" / "oracle_cards.jsonl.gz").exists()


def test_wrong_kind_of_records_is_refused(mirror, tmp_path):
    mirror.files["oracle_cards"] = (gz_jsonl(m20_rulings()), False)
    with pytest.raises(DownloadError, match="expected Scryfall 'card' objects, the first record is 'ruling'"):
        download_bulk(fetcher(), entry_of(mirror), tmp_path)


def test_decompressed_size_cap_on_a_gzip_file(mirror, tmp_path):
    body = mirror.files["oracle_cards"][0]
    cap = len(body) * 2  # the compressed file fits, its ~10x larger content does not
    with pytest.raises(DownloadError, match=rf"decompressed size exceeds the {cap}-byte cap"):
        download_bulk(fetcher(max_bytes=cap), entry_of(mirror), tmp_path)
    assert not list((tmp_path / "scryfall").glob("oracle_cards*"))


def test_decompressed_size_cap_on_gzip_content_encoding(mirror, tmp_path):
    body = json_array(m20_cards())
    mirror.files["oracle_cards"] = (body, True)
    mirror.gzip_encoding.add("oracle_cards")
    cap = 200_000
    with pytest.raises(DownloadError, match=rf"exceeds the {cap}-byte cap on decompressed size"):
        download_bulk(fetcher(max_bytes=cap), entry_of(mirror), tmp_path)
    assert mirror.requests_to(mirror.path_of("oracle_cards")) == 1  # not retried
    assert not list((tmp_path / "scryfall").glob("oracle_cards*"))


def test_read_timeout_is_retried_then_reported(mirror, tmp_path):
    path = mirror.path_of("oracle_cards")

    def slow(request):
        time.sleep(0.6)
        return Response(mirror.files["oracle_cards"][0])

    mirror.faults[path] = [slow, slow]
    with pytest.raises(DownloadError, match=r"timed out .*\(gave up after 2 tries\)"):
        download_bulk(fetcher(retries=1, read_timeout=0.2), entry_of(mirror), tmp_path)


def test_connection_refused_is_retried_then_reported(tmp_path):
    sleeps = Sleeps()
    f = fetcher(sleeps, retries=2, backoff=0.25)
    with pytest.raises(DownloadError, match=r"connection failed \(.*(refused|Errno).*\) \(gave up after 3 tries\)"):
        f.get_json("http://127.0.0.1:9/bulk-data", tmp_path / "bulk-data.json")
    assert sleeps == [0.25, 0.5]


def test_404_is_not_retried(mirror, tmp_path):
    entry = entry_of(mirror)
    gone = BulkEntry(entry.type, entry.updated_at, mirror.server.url_for("/file/gone.jsonl.gz"), True, None,
                     "compressed_size")
    with pytest.raises(DownloadError, match="HTTP 404 NOT FOUND$"):
        download_bulk(fetcher(), gone, tmp_path)
    assert mirror.requests_to("/file/gone.jsonl.gz") == 1


def test_requests_to_one_host_are_spaced(server, tmp_path):
    """At most one request per min_interval to a host (Scryfall asks for no more than ~10 a second)."""
    arrivals = []

    def handler(request):
        arrivals.append(time.monotonic())
        return Response(json.dumps({"object": "list", "has_more": False, "data": []}), content_type="application/json")

    server.expect_request("/bulk-data").respond_with_handler(handler)
    f = Fetcher(HttpConfig(min_interval=0.2, extra_hosts=("127.0.0.1",)))
    for _ in range(4):
        f.get_json(server.url_for("/bulk-data"), tmp_path / "bulk-data.json", allowed=())
    gaps = [b - a for a, b in zip(arrivals, arrivals[1:])]
    assert len(gaps) == 3 and min(gaps) >= 0.15, gaps


def test_parse_retry_after():
    assert parse_retry_after("120") == 120.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412480.0 - 60) == 60.0
    assert parse_retry_after("soon") is None
    assert parse_retry_after(None) is None


# --------------------------------------------------------------------------- properties

from hypothesis import given, settings, strategies as st  # noqa: E402

from pipeline.sources.http import _GzipDecoder, host_allowed  # noqa: E402


@settings(max_examples=60, deadline=None)
@given(members=st.lists(st.binary(max_size=3000), min_size=1, max_size=3), cut=st.lists(st.integers(1, 500), max_size=8),
       limit=st.integers(1, 4096))
def test_gzip_decoder_round_trips_any_chunking(members, cut, limit):
    """Content-Encoding: gzip bodies decode to the original bytes whatever the chunking, in bounded pieces."""
    wire = b"".join(gzip.compress(m, mtime=0) for m in members)
    chunks, pos = [], 0
    for n in cut:
        chunks.append(wire[pos:pos + n])
        pos += n
    chunks.append(wire[pos:])
    decoder = _GzipDecoder(limit)
    out = []
    for chunk in chunks:
        for piece in decoder.feed(chunk):
            assert len(piece) <= limit
            out.append(piece)
    out.append(decoder.finish())
    assert b"".join(out) == b"".join(members)


@settings(max_examples=40, deadline=None)
@given(data=st.binary(min_size=1, max_size=2000), drop=st.integers(1, 12))
def test_gzip_decoder_rejects_a_truncated_stream(data, drop):
    wire = gzip.compress(data, mtime=0)
    decoder = _GzipDecoder(1 << 16)
    list(decoder.feed(wire[:-drop]))
    with pytest.raises(zlib.error):
        decoder.finish()


@given(label=st.from_regex(r"[a-z0-9-]{1,12}", fullmatch=True))
def test_only_scryfall_subdomains_match_the_wildcard(label):
    assert host_allowed(f"{label}.scryfall.io", SCRYFALL_HOSTS)
    assert not host_allowed(f"{label}scryfall.io", SCRYFALL_HOSTS)
    assert not host_allowed(f"scryfall.io.{label}", SCRYFALL_HOSTS)
