"""The one URL policy for every URL a download fetches or follows (API URL, bulk URIs, redirects, CR URL).

A URL is checked the way the HTTP client will read it, and refused when any reader could read it
differently. ``requests`` hands the URL to ``urllib3.util.parse_url``, whose authority ends at the
first ``/``, ``?``, ``#`` *or backslash*, while :func:`urllib.parse.urlsplit` (and browsers, and
most allow-list code) end it elsewhere: ``https://evil.example\\@data.scryfall.io/`` is host
``data.scryfall.io`` to ``urlsplit`` and ``evil.example`` to ``urllib3`` — the bypass of issue 16.
So :func:`check_url`:

1. refuses anything ambiguous before parsing: a non-``str``, a URL longer than
   :data:`MAX_URL_CHARS`, any non-ASCII character (IDN homographs, full-width dots, Unicode
   normalisation tricks), control characters or whitespace, and backslashes anywhere;
2. parses with ``urllib3.util.parse_url`` (what the client connects to) and with ``urlsplit``
   and requires both to agree on scheme, host and port;
3. refuses userinfo (``user:pass@``; an ``@`` anywhere in the authority), percent-escapes in the
   host (urllib3 decodes ``%2e``), IPv6 brackets, a trailing dot, empty labels, and any host that
   is not plain LDH labels (RFC 1123: letters, digits, hyphens);
4. refuses IP literals in every spelling (dotted quad, decimal ``2130706433``, hex ``0x7f.1``,
   octal ``0177.0.0.1``, short forms ``127.1``) unless the host is *exactly* an ``--allow-host``
   entry written as a canonical address (``127.0.0.1``);
5. then applies the allow-list: https on an allowed host (``*.domain`` matches subdomains only)
   on the default port, or http(s) on any port of an ``--allow-host`` host.

It does not resolve names: a DNS answer pointing an allowed name at a private address is outside
what a URL check can see (the allow-list names hosts we trust to answer for themselves).
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from typing import Sequence
from urllib.parse import urlsplit

from urllib3.util import parse_url
from urllib3.exceptions import LocationParseError

from pipeline.sources.errors import SourceError

MAX_URL_CHARS = 2048

_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")
_BAD_CHARS = re.compile(r"[\x00-\x20\x7f\\]")
_NUMERIC_LABEL = re.compile(r"(?:0x[0-9a-f]*|[0-9]+)")
_DEFAULT_PORT = {"http": 80, "https": 443}


class DownloadError(SourceError):
    """A download failed or its result was rejected; ``path`` is the URL. One line, for the user."""


class HostNotAllowed(DownloadError):
    """A URL is refused by the URL policy (ambiguous, not http(s), or not on an allowed host); ``path`` is the URL."""


@dataclass(frozen=True)
class CheckedUrl:
    """A URL that passed :func:`check_url`: ``scheme`` 'http'|'https', ``host`` lower-case, ``port`` or None."""

    url: str
    scheme: str
    host: str
    port: int | None


def host_allowed(host: str, patterns: Sequence[str]) -> bool:
    """True when ``host`` equals a pattern or, for ``*.domain``, is a subdomain of ``domain`` (case-insensitive)."""
    host = host.lower()
    for p in patterns:
        p = p.lower().strip()
        if p.startswith("*.") and host.endswith(p[1:]) and len(host) > len(p) - 1:
            return True
        if host == p:
            return True
    return False


def _shown(url: object) -> str:
    """``url`` safe to print on one line (escapes visible, cut to 200 characters)."""
    text = url if isinstance(url, str) else repr(url)
    text = text.encode("ascii", "backslashreplace").decode("ascii")
    text = "".join(c if " " < c < "\x7f" else f"\\x{ord(c):02x}" for c in text)
    return text if len(text) <= 200 else text[:199] + "…"


def _refuse(url: object, why: str) -> HostNotAllowed:
    return HostNotAllowed(_shown(url), f"refusing to fetch: {why}")


def _is_ip_like(host: str) -> bool:
    """True for anything a resolver could take as an IP address (inet_aton forms included)."""
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    return bool(_NUMERIC_LABEL.fullmatch(host.rsplit(".", 1)[-1]))


def check_url(url: str, allowed: Sequence[str], extra_hosts: Sequence[str] = ()) -> str:
    """Return ``url`` if the URL policy (module docstring) lets it be fetched; raise HostNotAllowed otherwise.

    ``allowed``: host patterns reachable over https on the default port (``scryfall.com``,
    ``*.scryfall.io``); ``extra_hosts``: ``--allow-host`` names or canonical IP addresses also
    reachable over plain http and on any port. The error names the URL (escaped, one line) and
    what to change.
    """
    return parse_checked(url, allowed, extra_hosts).url


def parse_checked(url: str, allowed: Sequence[str], extra_hosts: Sequence[str] = ()) -> CheckedUrl:
    """:func:`check_url`, returning the parsed :class:`CheckedUrl` (the host the client will connect to)."""
    if not isinstance(url, str):
        raise _refuse(url, f"not a URL string ({type(url).__name__})")
    if len(url) > MAX_URL_CHARS:
        raise _refuse(url, f"URL longer than {MAX_URL_CHARS} characters")
    if not url.isascii():
        raise _refuse(url, "non-ASCII characters in the URL (write the host in punycode, the path %-encoded)")
    bad = _BAD_CHARS.search(url)
    if bad:
        what = "a backslash" if bad.group() == "\\" else f"control character or space {bad.group()!r}"
        raise _refuse(url, f"{what} in the URL (HTTP clients and URL parsers disagree on where its host ends)")
    try:
        split = urlsplit(url)
        split_port = split.port
        client = parse_url(url)
    except (ValueError, LocationParseError) as exc:
        raise _refuse(url, f"unparsable URL ({exc})") from None
    scheme = (client.scheme or "").lower()
    if scheme not in ("http", "https") or split.scheme.lower() != scheme:
        raise _refuse(url, "not an http(s) URL")
    netloc = split.netloc
    if "@" in netloc or client.auth is not None:
        raise _refuse(url, "user info ('…@') in the URL")
    if "%" in netloc:
        raise _refuse(url, "percent-escapes in the host")
    if "[" in netloc or "]" in netloc:
        raise _refuse(url, "IPv6 literal hosts are not supported")
    host = (client.host or "").lower()
    if not host or host != (split.hostname or "").lower():
        raise _refuse(url, f"ambiguous host ({host!r} to the HTTP client, {split.hostname!r} to urlsplit)")
    if client.port != split_port:
        raise _refuse(url, "ambiguous port")
    labels = host.split(".")
    extra = any(host == h.lower().strip() for h in extra_hosts)
    if _is_ip_like(host):
        canonical = _canonical_ip(host)
        if canonical is None:
            raise _refuse(url, f"IP-like host {host!r} is not allowed (write IPv4 addresses as a dotted quad)")
        if not (extra and canonical == host):
            raise _refuse(url, f"host {host!r} is not allowed: an IP address is fetched only when given exactly "
                               f"as --allow-host {canonical}")
    elif not all(_LABEL.fullmatch(label) for label in labels):
        raise _refuse(url, f"host {host!r} is not a plain DNS name (letters, digits, '-' between dots; "
                           f"no trailing dot)")
    if extra or host_allowed(host, [h for h in extra_hosts if h.startswith("*.")]):
        return CheckedUrl(url, scheme, host, client.port)
    if not host_allowed(host, allowed):
        raise _refuse(url, f"host {host!r} is not allowed (allowed: {', '.join(allowed)}); "
                           f"to use a mirror pass --allow-host {host} or set MTG_PIPELINE_ALLOW_HOSTS")
    if scheme != "https":
        raise _refuse(url, f"plain http to {host!r}; only https is allowed")
    if client.port is not None and client.port != _DEFAULT_PORT[scheme]:
        raise _refuse(url, f"port {client.port} on {host!r}; only the default https port is allowed")
    return CheckedUrl(url, scheme, host, client.port)


def _canonical_ip(host: str) -> str | None:
    try:
        return str(ipaddress.IPv4Address(host))
    except ValueError:
        return None
