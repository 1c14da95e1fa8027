"""The URL policy (pipeline/sources/url_policy.py) against every bypass family known for allow-list checks.

Unit cases check the policy on Scryfall's real hosts. The end-to-end cases run two real servers
inside the test: the mirror on 127.0.0.1 (allowed with --allow-host) and a second server on
127.0.0.2 (never allowed) that must see no request, whichever way a URL pointing at it arrives: a
bulk list's ``jsonl_download_uri``, a redirect ``Location``, ``--api-url`` or ``--rules-url``.
"""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner
from pytest_httpserver import HTTPServer
from werkzeug import Response

from pipeline.cli import main
from pipeline.sources.http import SCRYFALL_HOSTS, DownloadError, HostNotAllowed, check_url
from pipeline.sources.scryfall_api import ScryfallSource, download_bulk
from tests.test_download_http import Mirror, entry_of, fetcher


class _RawRedirect(Response):
    """A redirect whose Location goes on the wire byte for byte (werkzeug would %-encode a backslash)."""

    def __init__(self, location: str, code: int):
        super().__init__("moved", status=code)
        self._raw = location.encode("utf-8").decode("latin-1")  # UTF-8 bytes on the wire

    def get_wsgi_headers(self, environ):
        headers = super().get_wsgi_headers(environ)
        headers["Location"] = self._raw
        return headers


def redirect(location: str, code: int = 302):
    return lambda request: _RawRedirect(location, code)

# (family, URL) → refused on Scryfall's allow-list (no extra host)
REFUSED = [
    ("backslash before @ (the issue-16 bypass)", r"https://evil.example\@data.scryfall.io/f.jsonl.gz", "backslash"),
    ("backslash as path separator", "https:/\\evil.example/x", "backslash"),
    ("backslash after the host", "https://data.scryfall.io\\.evil.example/", "backslash"),
    ("percent-encoded backslash", "https://evil.example%5C@data.scryfall.io/", "user info"),
    ("user info", "https://data.scryfall.io@evil.example/x", "user info"),
    ("user info with password", "https://data.scryfall.io:443@evil.example/x", "user info"),
    ("user info to an allowed host", "https://evil.example@data.scryfall.io/x", "user info"),
    ("percent-escaped dot in the host", "https://data.scryfall.io%2eevil.example/", "percent-escapes"),
    ("suffix confusion", "https://data.scryfall.io.evil.example/x", "not allowed"),
    ("prefix confusion", "https://evilscryfall.io/x", "not allowed"),
    ("trailing dot", "https://data.scryfall.io./x", "not a plain DNS name"),
    ("empty label", "https://data..scryfall.io/x", "not a plain DNS name"),
    ("Cyrillic homograph", "https://d\u0430ta.scryfall.io/x", "non-ASCII"),
    ("ideographic full stops", "https://data\u3002scryfall\u3002io/x", "non-ASCII"),
    ("full-width solidus", "https://evil.example\uff0f@data.scryfall.io/", "non-ASCII"),
    ("tab inside the host (stripped by urlsplit)", "https://evil.example\t.scryfall.io/", "control character"),
    ("newline", "https://data.scryfall.io/x\n", "control character"),
    ("leading space", " https://data.scryfall.io/x", "control character"),
    ("NUL byte", "https://data.scryfall.io\x00.evil.example/", "control character"),
    ("fragment before @", "https://evil.example#@data.scryfall.io/", "not allowed"),
    ("query before @", "https://evil.example?@data.scryfall.io/", "not allowed"),
    ("non-default port", "https://data.scryfall.io:8443/x", "port 8443"),
    ("plain http", "http://data.scryfall.io/x", "plain http"),
    ("file scheme", "file:///etc/passwd", "not an http"),
    ("gopher scheme", "gopher://data.scryfall.io/", "not an http"),
    ("no authority", "https:data.scryfall.io/x", "ambiguous host|not allowed"),
    ("scheme-relative", "//data.scryfall.io/x", "not an http"),
    ("dotted-quad IP", "https://127.0.0.1/x", "IP address"),
    ("decimal IP", "https://2130706433/x", "IP-like"),
    ("hex IP", "https://0x7f.1/x", "IP-like"),
    ("octal IP", "https://0177.0.0.1/x", "IP-like"),
    ("short IP", "https://127.1/x", "IP-like"),
    ("IPv6 literal", "https://[::ffff:127.0.0.1]/x", "IPv6"),
    ("localhost", "https://localhost/x", "not allowed"),
    ("overlong URL", "https://data.scryfall.io/" + "a" * 3000, "longer than"),
]


@pytest.mark.parametrize("family, url, why", REFUSED, ids=[f for f, _, _ in REFUSED])
def test_bypass_family_is_refused(family, url, why):
    with pytest.raises(HostNotAllowed, match=why) as caught:
        check_url(url, SCRYFALL_HOSTS)
    assert "\n" not in str(caught.value) and "\t" not in str(caught.value)


@pytest.mark.parametrize("url", [
    "https://api.scryfall.com/bulk-data",
    "HTTPS://Data.Scryfall.IO/oracle-cards/oracle-cards-20260920090159.jsonl.gz",
    "https://data.scryfall.io:443/x.jsonl.gz?x=1#frag",
    "https://xn--80a.scryfall.io/x",  # punycode labels are plain DNS names
])
def test_real_scryfall_urls_pass(url):
    assert check_url(url, SCRYFALL_HOSTS) == url


def test_ip_literal_passes_only_as_the_exact_allowed_address():
    assert check_url("http://127.0.0.1:8123/bulk-data", SCRYFALL_HOSTS, ("127.0.0.1",))
    for spelled in ("127.1", "2130706433", "0x7f.0.0.1", "0177.0.0.1", "127.0.0.01"):
        with pytest.raises(HostNotAllowed):
            check_url(f"http://{spelled}:8123/bulk-data", SCRYFALL_HOSTS, ("127.0.0.1",))
    with pytest.raises(HostNotAllowed, match="--allow-host 127.0.0.2"):
        check_url("http://127.0.0.2:8123/bulk-data", SCRYFALL_HOSTS, ("127.0.0.1",))


@pytest.mark.parametrize("value", [None, b"https://api.scryfall.com/", 7, ["https://api.scryfall.com/"]])
def test_a_non_string_url_is_refused(value):
    with pytest.raises(HostNotAllowed, match="not a URL string"):
        check_url(value, SCRYFALL_HOSTS)


# --------------------------------------------------------------------------- end to end, two servers

@pytest.fixture(scope="module")
def _servers():
    good, other = HTTPServer(host="127.0.0.1", port=0), HTTPServer(host="127.0.0.2", port=0)
    good.start()
    other.start()
    yield good, other
    good.stop()
    other.stop()


@pytest.fixture()
def servers(_servers):
    good, other = _servers
    for s in _servers:
        s.clear()
    other.expect_request(re.compile(".*")).respond_with_data("second server")
    yield Mirror(good), other
    for s in _servers:
        s.clear()


def attacks(mirror: Mirror, other: HTTPServer) -> dict[str, str]:
    """URLs that reach the second server (127.0.0.2) under some parser, each through one bypass family."""
    good = f"127.0.0.1:{mirror.server.port}"
    bad = f"127.0.0.2:{other.port}"
    decimal = 127 * 2 ** 24 + 2
    return {
        "backslash": f"http://{bad}\\@{good}/file/x.jsonl.gz",
        "user info": f"http://{good}@{bad}/file/x.jsonl.gz",
        "percent-encoded @": f"http://{good}%40{bad}/file/x.jsonl.gz",
        "tab": f"http://{good}\t@{bad}/file/x.jsonl.gz",
        "decimal ip": f"http://{decimal}:{other.port}/file/x.jsonl.gz",
        "short ip": f"http://127.2:{other.port}/file/x.jsonl.gz",
        "full-width dots": f"http://127\uff0e0\uff0e0\uff0e2:{other.port}/file/x.jsonl.gz",
        "not allowed": f"http://{bad}/file/x.jsonl.gz",
    }


@pytest.fixture(params=["backslash", "user info", "percent-encoded @", "tab", "decimal ip", "short ip", "full-width dots",
                 "not allowed"])
def attack(request):
    return request.param


def test_bulk_uri_attack_makes_no_request_to_the_second_server(servers, attack, tmp_path):
    mirror, other = servers
    mirror.url_override["oracle_cards"] = attacks(mirror, other)[attack]
    source = ScryfallSource(fetcher(), tmp_path, api_url=mirror.api_url, rules_url=None)
    with pytest.raises(HostNotAllowed):
        source.version()
    assert other.log == []
    assert mirror.requests_to("/bulk-data") == 1


def test_redirect_attack_makes_no_request_to_the_second_server(servers, attack, tmp_path):
    mirror, other = servers
    mirror.faults[mirror.path_of("oracle_cards")] = [redirect(attacks(mirror, other)[attack])]
    with pytest.raises(HostNotAllowed):
        download_bulk(fetcher(retries=0), entry_of(mirror), tmp_path)
    assert other.log == []
    assert not (tmp_path / "scryfall" / "oracle_cards.jsonl.gz").exists()


def test_relative_redirects_onto_the_second_server_are_refused(servers, tmp_path):
    mirror, other = servers
    for location in (f"//127.0.0.2:{other.port}/x", f"/\\127.0.0.2:{other.port}/x", f"\\\\127.0.0.2:{other.port}/x",
                     f"\\/127.0.0.2:{other.port}/x"):
        mirror.faults[mirror.path_of("oracle_cards")] = [redirect(location, 301)]
        with pytest.raises(HostNotAllowed):
            download_bulk(fetcher(retries=0), entry_of(mirror), tmp_path)
    # 'http:host/x' is a relative reference (same scheme, no authority): a path on the mirror itself.
    mirror.faults[mirror.path_of("oracle_cards")] = [redirect(f"http:127.0.0.2:{other.port}/x", 301)]
    with pytest.raises(DownloadError, match="HTTP 404"):
        download_bulk(fetcher(retries=0), entry_of(mirror), tmp_path)
    assert other.log == []


def test_cli_api_url_and_rules_url_attacks_give_one_error_line(servers, tmp_path):
    mirror, other = servers
    urls = attacks(mirror, other)
    for option, url in (("--api-url", urls["backslash"]), ("--rules-url", urls["user info"])):
        args = ["refresh", "--source", "scryfall", "--db", str(tmp_path / "cards.duckdb"), "--cache-dir",
                str(tmp_path / "cache"), "--allow-host", "127.0.0.1", "--retries", "0", "--quiet",
                "--api-url", mirror.api_url, option, url]
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 1, result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and "refusing to fetch" in lines[0], lines
        assert "Traceback" not in result.output
    assert other.log == []


def test_second_server_is_reachable_when_allowed(servers, tmp_path):
    """The control: the same fetch code does reach 127.0.0.2 once it is allowed, so 'no request' above means refused."""
    mirror, other = servers
    other.clear()
    other.expect_request("/bulk-data").respond_with_handler(lambda r: Response(
        '{"object": "list", "has_more": false, "data": []}', content_type="application/json"))
    f = fetcher(extra_hosts=("127.0.0.2",))
    doc, _ = f.get_json(f"http://127.0.0.2:{other.port}/bulk-data", tmp_path / "bulk-data.json")
    assert doc["object"] == "list" and len(other.log) == 1
