"""Polite, fault-tolerant HTTP downloads into a cache directory (the download half of the extract stage).

One :class:`Fetcher` wraps a ``requests`` Session and applies, to every request:

* Scryfall's API etiquette (https://scryfall.com/docs/api): a descriptive ``User-Agent`` and an
  ``Accept`` header; at most one request per ``min_interval`` seconds to a host (0.1 s: ≤ 10/s);
* the URL policy of :mod:`pipeline.sources.url_policy` on every URL requested or followed
  (redirects included): https on the listed hosts (``scryfall.com``, ``*.scryfall.io`` …), or
  http(s) on ``extra_hosts`` (a mirror or a test server); ambiguous URLs (backslashes, user info,
  non-ASCII, IP literals not listed) are refused. Anything else raises :class:`HostNotAllowed`
  before a byte is sent;
* connect and read timeouts; retries with exponential backoff on connection errors, timeouts,
  a connection broken mid-body, a short body and HTTP 5xx/408; on HTTP 429 (and 503) the
  ``Retry-After`` header (seconds or HTTP-date) is honoured;
* conditional requests (``If-None-Match`` / ``If-Modified-Since`` → 304) from the cached copy's
  ``ETag`` / ``Last-Modified``.

A download streams to ``<dest>.tmp-<pid>`` (never held in memory), is checked (size against the
expected size, then a caller's verifier, e.g. :func:`verify_json_records`), and only then moved over
``dest`` with :func:`os.replace`: the previous good file stays until the new one is proven. A
``<dest>.meta.json`` beside it records url, ETag, Last-Modified, size and fetch time.

Decompressed bytes are capped (``max_bytes``): a ``Content-Encoding: gzip`` body is decoded in
bounded pieces and counted as it is written; a gzip *file* (``.jsonl.gz``) is stored compressed and
its decompressed size is counted by the verifier. A hostile gzip can fill neither disk nor memory.
"""

from __future__ import annotations

import email.utils
import gzip
import io
import json
import os
import re
import socket
import threading
import time
import zlib
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterator, Sequence
from urllib.parse import urljoin

import ijson
import requests
import urllib3

from pipeline import __version__
from pipeline.sources.files import GZIP_MAGIC
from pipeline.sources.json_stream import array_items
from pipeline.sources.url_policy import DownloadError, HostNotAllowed, check_url, host_allowed, parse_checked  # noqa: F401

ACCEPT = "application/json;q=0.9,*/*;q=0.8"
SCRYFALL_HOSTS = ("scryfall.com", "*.scryfall.com", "*.scryfall.io")
MAX_REDIRECTS = 5
MAX_RECORD_BYTES = 64 << 20  # one JSON Lines record; Scryfall's largest card objects are ~100 kB

Step = Callable[[str, int], Callable[[int], None]]  # (label, total) → tick(n), as in pipeline.cli


#: Names the client honestly: the package and its version (no project URL is claimed).
DEFAULT_USER_AGENT = f"mtg-pipeline/{__version__} (Python package mtg-pipeline; Magic: The Gathering card-data ETL)"


@dataclass(frozen=True)
class HttpConfig:
    """Download settings. Times are seconds, sizes bytes.

    ``retries``: tries after the first (so ``retries + 1`` in all); the delay before retry *n*
    is ``backoff * 2**(n-1)``, at most ``backoff_max``, or the server's ``Retry-After`` when it
    sends one (refused when longer than ``max_retry_after``). ``min_interval``: least time
    between two requests to one host. ``max_bytes``: cap on a download's decompressed size.
    ``extra_hosts``: host names also allowed, over https or plain http (a mirror, a test server).
    ``download_deadline``: most seconds one download may take, retries included (a server
    trickling a byte a second never trips the per-read timeout); ``total_deadline``: most
    seconds all requests of one :class:`Fetcher` (one refresh) may take.
    """

    user_agent: str = DEFAULT_USER_AGENT
    connect_timeout: float = 10.0
    read_timeout: float = 60.0
    retries: int = 4
    backoff: float = 2.0
    backoff_max: float = 120.0
    max_retry_after: float = 600.0
    min_interval: float = 0.1
    max_bytes: int = 8 << 30
    extra_hosts: tuple[str, ...] = ()
    chunk_size: int = 1 << 16
    download_deadline: float = 1800.0
    total_deadline: float = 3600.0


@dataclass
class CacheMeta:
    """What ``<file>.meta.json`` records about a cached download; ``extra`` holds the caller's fields."""

    url: str
    bytes: int
    fetched_at: str
    etag: str | None = None
    last_modified: str | None = None
    extra: dict = field(default_factory=dict)

    def age_seconds(self) -> float:
        """Seconds since ``fetched_at`` (infinite if unreadable)."""
        try:
            return (datetime.now(timezone.utc) - datetime.fromisoformat(self.fetched_at)).total_seconds()
        except (TypeError, ValueError):
            return float("inf")


@dataclass
class FetchResult:
    """Outcome of :meth:`Fetcher.fetch_to_cache`: ``status`` is 'downloaded', 'not_modified' or 'fresh'."""

    path: Path
    status: str
    meta: CacheMeta


def meta_path(dest: Path) -> Path:
    """The metadata file beside a cached download."""
    return dest.with_name(dest.name + ".meta.json")


def read_meta(dest: Path) -> CacheMeta | None:
    """The cached copy's metadata, or None when the file or its metadata is missing, unreadable or stale.

    A metadata file whose recorded size differs from the file on disk is treated as missing.
    """
    try:
        raw = json.loads(meta_path(dest).read_text(encoding="utf-8"))
        meta = CacheMeta(**raw)
        if dest.stat().st_size != meta.bytes:
            return None
        return meta
    except (OSError, ValueError, TypeError):
        return None


def write_meta(dest: Path, meta: CacheMeta) -> None:
    """Write ``<dest>.meta.json`` atomically."""
    path = meta_path(dest)
    tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    tmp.write_text(json.dumps(meta.__dict__, indent=1, sort_keys=True), encoding="utf-8")
    os.replace(tmp, path)


class _Retry(Exception):
    """A transient failure: try again after ``retry_after`` seconds (None: the backoff delay)."""

    def __init__(self, reason: str, retry_after: float | None = None):
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: delta-seconds or an HTTP-date; None if absent/invalid."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def _brief(exc: BaseException) -> str:
    """A short one-line description of a requests/urllib3 exception."""
    text = str(exc)
    m = re.search(r"\[Errno -?\d+\][^')\"]*", text)
    if m:
        return m.group(0).strip()
    for key in ("IncompleteRead", "Read timed out", "Connection aborted", "Connection broken",
                "Response ended prematurely", "Connection refused", "RemoteDisconnected"):
        if key in text:
            return key
    return (text.splitlines() or [type(exc).__name__])[0][:200] or type(exc).__name__


class _GzipDecoder:
    """Incremental gzip decoder (multi-member) that yields output in pieces of at most ``limit`` bytes."""

    def __init__(self, limit: int):
        self.limit = limit
        self._d = zlib.decompressobj(wbits=31)

    def feed(self, data: bytes) -> Iterator[bytes]:
        while data:
            if self._d.eof:  # a further gzip member, or trailing padding
                if not data.strip(b"\0"):
                    return
                self._d = zlib.decompressobj(wbits=31)
            out = self._d.decompress(data, self.limit)
            if out:
                yield out
            data = self._d.unused_data if self._d.eof else self._d.unconsumed_tail

    def finish(self) -> bytes:
        """Return any output still held; raise zlib.error if the stream stopped before its end."""
        out = b"" if self._d.eof else self._d.flush()
        if not self._d.eof:
            raise zlib.error("gzip stream truncated before its end")
        return out


class Fetcher:
    """Makes every request of a download session (see the module docstring); one per refresh.

    ``sleep`` is the function used to wait (backoff, Retry-After, rate limit): ``time.sleep``.
    """

    def __init__(self, config: HttpConfig | None = None, *, sleep: Callable[[float], None] = time.sleep):
        self.config = config or HttpConfig()
        self._deadline: float | None = None
        self._cap = self.config.max_bytes
        self._sleep = sleep
        self._last_request: dict[str, float] = {}
        self.session = requests.Session()
        self.session.headers.update({
            "User-Agent": self.config.user_agent,
            "Accept": ACCEPT,
            "Accept-Encoding": "gzip",
        })
        self.requests_made = 0
        self._started = time.monotonic()

    def close(self) -> None:
        """Close the session's connections."""
        self.session.close()

    def __enter__(self) -> Fetcher:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- requests -------------------------------------------------------------------------------

    def _throttle(self, host: str) -> None:
        last = self._last_request.get(host)
        if last is not None:
            wait = self.config.min_interval - (time.monotonic() - last)
            if wait > 0:
                self._sleep(wait)
        self._last_request[host] = time.monotonic()

    def check_deadline(self, url: str, deadline: float | None = None) -> None:
        """Raise DownloadError when this download's ``deadline`` (monotonic) or the fetcher's total deadline passed."""
        now = time.monotonic()
        if now - self._started > self.config.total_deadline:
            raise DownloadError(url, f"the downloads of this refresh took more than {self.config.total_deadline:.0f} s "
                                     f"(total deadline); abandoned")
        if deadline is not None and now > deadline:
            raise DownloadError(url, f"download took more than {self.config.download_deadline:.0f} s "
                                     f"(--deadline); abandoned")

    def _open(self, url: str, allowed: Sequence[str], headers: dict[str, str]) -> tuple[requests.Response, str]:
        """GET ``url`` (following allowed redirects) → a streaming 200 or 304 response and the final URL."""
        cfg = self.config
        for _ in range(MAX_REDIRECTS + 1):
            self.check_deadline(url, self._deadline)
            self._throttle(parse_checked(url, allowed, cfg.extra_hosts).host)  # before any byte is sent
            self.requests_made += 1
            try:
                response = self.session.get(url, headers=headers, stream=True, allow_redirects=False,
                                            timeout=(cfg.connect_timeout, cfg.read_timeout))
            except requests.Timeout as exc:
                raise _Retry(f"timed out ({_brief(exc)})") from exc
            except requests.ConnectionError as exc:
                raise _Retry(f"connection failed ({_brief(exc)})") from exc
            except requests.RequestException as exc:
                raise DownloadError(url, f"request failed: {_brief(exc)}") from exc
            status = response.status_code
            if response.is_redirect:
                location = response.headers.get("Location")
                response.close()
                if not location:
                    raise DownloadError(url, f"HTTP {status} redirect without a Location header")
                url = urljoin(url, location)
                continue
            if status in (200, 304):
                return response, url
            reason = f"HTTP {status} {response.reason or ''}".strip()
            retry_after = parse_retry_after(response.headers.get("Retry-After"))
            response.close()
            if status == 429 or status == 408 or status >= 500:
                raise _Retry(reason, retry_after if status in (429, 503) else None)
            raise DownloadError(url, reason)
        raise DownloadError(url, f"more than {MAX_REDIRECTS} redirects")

    def _with_retries(self, url: str, attempt: Callable[[], object]):
        cfg = self.config
        tries = cfg.retries + 1
        for n in range(1, tries + 1):
            try:
                return attempt()
            except _Retry as exc:
                if n == tries:
                    raise DownloadError(url, f"{exc.reason} (gave up after {tries} tries)") from exc
                if exc.retry_after is not None:
                    if exc.retry_after > cfg.max_retry_after:
                        raise DownloadError(url, f"{exc.reason}: server asks to retry after {exc.retry_after:.0f} s, "
                                                 f"more than the {cfg.max_retry_after:.0f} s limit; try later") from exc
                    delay = exc.retry_after
                else:
                    delay = min(cfg.backoff_max, cfg.backoff * 2 ** (n - 1))
                self._sleep(delay)
        raise AssertionError("unreachable")

    # -- downloads ------------------------------------------------------------------------------

    def fetch_to_cache(
        self,
        url: str,
        dest: Path,
        *,
        allowed: Sequence[str] = SCRYFALL_HOSTS,
        expected_size: int | None = None,
        size_field: str = "size",
        verify: Callable[[Path, str], None] | None = None,
        conditional: bool = True,
        max_age: float | None = None,
        extra: dict | None = None,
        step: Step | None = None,
        label: str = "download",
        max_bytes: int | None = None,
    ) -> FetchResult:
        """Make ``dest`` hold the current content of ``url``, downloading only when needed.

        * ``max_age``: reuse a cached copy of the same URL fetched less than that many seconds ago
          without any request (status 'fresh');
        * ``conditional``: send the cached copy's ETag / Last-Modified; on 304 keep it ('not_modified');
        * otherwise stream the body to a temporary file, check its size against ``expected_size``
          (bytes after Content-Encoding is removed; named ``size_field`` in messages) and call
          ``verify(tmp_path, url)``, then replace ``dest`` atomically ('downloaded').

        ``max_bytes``: a lower cap than ``--max-bytes`` on the decompressed body (the bulk list,
        the CR), enforced while decompressing. ``extra`` is stored in the metadata (e.g. the bulk entry's ``updated_at``). ``step(label,
        total)`` reports progress in bytes. Raises HostNotAllowed, or DownloadError (one line naming
        the URL) after the last try; ``dest`` and its metadata are then exactly as before.
        """
        dest = Path(dest)
        dest.parent.mkdir(parents=True, exist_ok=True)
        cached = read_meta(dest) if dest.exists() else None
        same_url = cached is not None and cached.url == url
        if same_url and max_age is not None and cached.age_seconds() < max_age:
            return FetchResult(dest, "fresh", cached)
        headers: dict[str, str] = {}
        if conditional and same_url:
            if cached.etag:
                headers["If-None-Match"] = cached.etag
            if cached.last_modified:
                headers["If-Modified-Since"] = cached.last_modified
        tmp = dest.with_name(f"{dest.name}.tmp-{os.getpid()}")
        progress = _Progress(step, label)
        self._deadline = time.monotonic() + self.config.download_deadline
        self._cap = min(self.config.max_bytes, max_bytes) if max_bytes is not None else self.config.max_bytes
        try:
            status, etag, last_modified, size = self._with_retries(
                url, lambda: self._attempt(url, tmp, allowed, headers, expected_size, size_field, progress))
            if status == 304 and cached is not None:
                meta = CacheMeta(url, cached.bytes, _now(), etag or cached.etag, last_modified or cached.last_modified,
                                 {**cached.extra, **(extra or {})})
                write_meta(dest, meta)
                return FetchResult(dest, "not_modified", meta)
            if status == 304:
                raise DownloadError(url, "HTTP 304 Not Modified but there is no cached copy")
            if verify is not None:
                verify(tmp, url)
            os.replace(tmp, dest)
            meta = CacheMeta(url, size, _now(), etag, last_modified, dict(extra or {}))
            write_meta(dest, meta)
            return FetchResult(dest, "downloaded", meta)
        finally:
            if tmp.exists():
                tmp.unlink()

    def _attempt(self, url, tmp: Path, allowed, headers, expected_size, size_field, progress: _Progress):
        response, final_url = self._open(url, allowed, headers)
        written = 0
        # The deadline must also end a read that blocks (a server sending a byte now and then never
        # trips the per-read timeout): a watchdog shuts the socket down when the deadline passes.
        watchdog = threading.Timer(max(0.0, (self._deadline or time.monotonic()) - time.monotonic()) + 0.05,
                                   _shut_down, [response])
        watchdog.daemon = True
        watchdog.start()
        try:
            if response.status_code == 304:
                return 304, response.headers.get("ETag"), response.headers.get("Last-Modified"), 0
            encoding = response.headers.get("Content-Encoding", "").strip().lower()
            if encoding not in ("", "identity", "gzip", "x-gzip"):
                raise DownloadError(final_url, f"unsupported Content-Encoding {encoding!r}")
            gzipped = encoding in ("gzip", "x-gzip")
            length = _int(response.headers.get("Content-Length"))
            cap = self._cap
            if not gzipped and length is not None and length > cap:
                raise DownloadError(final_url, f"Content-Length {length} exceeds the {cap}-byte cap (--max-bytes)")
            progress.start(expected_size or (None if gzipped else length))
            decoder = _GzipDecoder(self.config.chunk_size * 16) if gzipped else None
            with open(tmp, "wb") as out:
                for raw in response.raw.stream(self.config.chunk_size, decode_content=False):
                    self.check_deadline(final_url, self._deadline)
                    pieces = decoder.feed(raw) if decoder else (raw,)
                    for piece in pieces:
                        written += len(piece)
                        if written > cap:
                            raise DownloadError(final_url, f"body exceeds the {cap}-byte cap on decompressed size "
                                                           f"(--max-bytes); download abandoned")
                        out.write(piece)
                        progress.tick(len(piece))
                if decoder:
                    tail = decoder.finish()
                    written += len(tail)
                    if written > cap:
                        raise DownloadError(final_url, f"body exceeds the {cap}-byte cap on decompressed size "
                                                       f"(--max-bytes); download abandoned")
                    out.write(tail)
        except (urllib3.exceptions.HTTPError, requests.RequestException, OSError, zlib.error) as exc:
            progress.rewind()
            self.check_deadline(final_url, self._deadline)  # the watchdog cut it: no retry
            if isinstance(exc, OSError) and not isinstance(exc, (ConnectionError, TimeoutError)) \
                    and exc.errno is not None:
                raise DownloadError(final_url, f"cannot write {tmp}: {exc.strerror or exc}") from exc
            raise _Retry(f"connection broken after {written} bytes ({_brief(exc)})") from exc
        finally:
            watchdog.cancel()
            response.close()
        if expected_size is not None and written != expected_size:
            progress.rewind()
            raise _Retry(f"received {written} bytes but the index gives {size_field}={expected_size}")
        return 200, response.headers.get("ETag"), response.headers.get("Last-Modified"), written

    def get_json(self, url: str, dest: Path, *, allowed: Sequence[str] = SCRYFALL_HOSTS,
                 max_bytes: int = 32 << 20, check: Callable[[object], None] | None = None) -> tuple[object, FetchResult]:
        """Fetch a small JSON document (e.g. the bulk-data index) into ``dest`` (conditional GET) and parse it.

        Returns (parsed document, fetch result). Raises DownloadError if it is not JSON or is
        larger than ``max_bytes`` (counted while decompressing); ``check(document)`` may reject it
        too (raising DownloadError). The previous cached copy is then kept.
        """
        def verify(path: Path, where: str) -> None:
            document = _load_json(path, where, max_bytes)
            if check is not None:
                check(document)

        result = self.fetch_to_cache(url, dest, allowed=allowed, verify=verify, max_bytes=max_bytes)
        return _load_json(dest, url, max_bytes), result


class _Progress:
    def __init__(self, step: Step | None, label: str):
        self.step, self.label = step, label
        self._tick: Callable[[int], None] | None = None
        self.done = 0

    def start(self, total: int | None) -> None:
        if self.step is not None and self._tick is None:
            self._tick = self.step(self.label, total or 0)

    def tick(self, n: int) -> None:
        self.done += n
        if self._tick:
            self._tick(n)

    def rewind(self) -> None:
        if self._tick and self.done:
            self._tick(-self.done)
        self.done = 0


def _shut_down(response: requests.Response) -> None:
    """Unblock a read in progress on ``response`` by shutting its socket down (the download deadline)."""
    sock = getattr(getattr(response.raw, "connection", None), "sock", None)
    if sock is None:  # urllib3 2 hands the socket to http.client's response: fp (buffered) → SocketIO → socket
        sock = getattr(getattr(getattr(getattr(response.raw, "_fp", None), "fp", None), "raw", None), "_sock", None)
    try:
        if sock is not None:
            sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _load_json(path: Path, url: str, max_bytes: int) -> object:
    if path.stat().st_size > max_bytes:
        raise DownloadError(url, f"JSON document larger than {max_bytes} bytes")
    try:
        return json.loads(path.read_bytes().decode("utf-8-sig"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise DownloadError(url, f"response is not valid JSON: {exc}") from exc
    except RecursionError:  # a list nested 100,000 deep (json.loads recurses per level)
        raise DownloadError(url, "response is nested too deeply to be a bulk-data list") from None


class _CappedReader(io.RawIOBase):
    """A raw stream that raises DownloadError once more than ``cap`` bytes have been read from it."""

    def __init__(self, stream, cap: int, url: str):
        self.stream, self.cap, self.url, self.count = stream, cap, url, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = self.stream.readinto(buffer)
        self.count += n
        if self.count > self.cap:
            raise DownloadError(self.url, f"decompressed size exceeds the {self.cap}-byte cap (--max-bytes); "
                                          f"file rejected")
        return n


def verify_json_records(path: Path, url: str, *, max_bytes: int, expect_object: str | None = None) -> tuple[int, dict]:
    """Check that a downloaded bulk file (JSON Lines or a JSON array; plain or gzip) parses completely.

    Streams the file (memory bounded by one record), counting decompressed bytes against
    ``max_bytes``. ``expect_object``: the ``object`` value the first record must carry
    ('card', 'ruling'). Returns (number of records, first record).
    Raises DownloadError naming the URL and the line or record at fault.
    """
    count, first = 0, None
    with open(path, "rb") as raw:
        gz = raw.read(2) == GZIP_MAGIC
        raw.seek(0)
        inner = gzip.GzipFile(fileobj=raw, mode="rb") if gz else raw
        stream = io.BufferedReader(_CappedReader(inner, max_bytes, url), buffer_size=1 << 20)
        try:
            head = stream.peek(4096)[:4096].removeprefix(b"\xef\xbb\xbf").lstrip()
            if head[:1] == b"[":
                for count, record in enumerate(array_items(stream), start=1):  # bounded, prefix-free
                    if first is None:
                        first = record
            elif head[:1] == b"{":
                lineno = 0
                while True:
                    line = stream.readline(MAX_RECORD_BYTES + 1)
                    if not line:
                        break
                    lineno += 1
                    if len(line) > MAX_RECORD_BYTES and not line.endswith(b"\n"):
                        raise DownloadError(url, f"line {lineno} is longer than {MAX_RECORD_BYTES} bytes")
                    if not line.strip():
                        continue
                    try:
                        record = json.loads(line)
                    except ValueError as exc:
                        raise DownloadError(url, f"downloaded file is not valid JSON Lines: line {lineno}: {exc}") from exc
                    count += 1
                    if first is None:
                        first = record
            else:
                raise DownloadError(url, f"downloaded file is not JSON (starts with {head[:16]!r})")
        except DownloadError:
            raise
        except (ijson.JSONError, ValueError, UnicodeDecodeError) as exc:
            raise DownloadError(url, f"downloaded file is not valid JSON after record {count}: {exc}") from exc
        except (OSError, EOFError, zlib.error) as exc:
            raise DownloadError(url, f"downloaded file is corrupt (truncated gzip?) after record {count}: {exc}") from exc
    if count == 0:
        raise DownloadError(url, "downloaded file holds no records")
    if expect_object is not None and (not isinstance(first, dict) or first.get("object") != expect_object):
        got = first.get("object") if isinstance(first, dict) else type(first).__name__
        raise DownloadError(url, f"expected Scryfall {expect_object!r} objects, the first record is {got!r}")
    return count, first
