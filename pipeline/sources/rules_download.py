"""Download the Comprehensive Rules (CR) text file from Wizards of the Coast into the cache.

Wizards publishes the CR as one plain-text file at a dated URL
(``https://media.wizards.com/YYYY/downloads/MagicCompRules%20YYYYMMDD.txt``). The default is pinned
to the file the project was built against; ``--rules-url`` / ``$MTG_PIPELINE_RULES_URL`` override it.
Only ``media.wizards.com`` (plus the configured extra hosts) is allowed.

The file is fetched at most once a day (:data:`RULES_MAX_AGE`); after that with a conditional GET
(ETag / Last-Modified → 304), so an unchanged file is not downloaded again.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

from pipeline.sources.http import DownloadError, Fetcher, FetchResult, Step

DEFAULT_RULES_URL = "https://media.wizards.com/2026/downloads/MagicCompRules%2020260227.txt"
RULES_URL_ENV = "MTG_PIPELINE_RULES_URL"
RULES_HOSTS = ("media.wizards.com",)
RULES_MAX_AGE = 24 * 3600.0
RULES_MAX_BYTES = 32 << 20  # the 2026 CR is 0.97 MB

_EFFECTIVE_RE = re.compile(r"These rules are effective as of [A-Z][a-z]+ \d{1,2}, \d{4}\.")


def rules_cache_path(cache_dir: Path, url: str) -> Path:
    """``<cache>/rules/<file name of the URL>``, spaces and unsafe characters replaced by '-'."""
    name = unquote(Path(urlsplit(url).path).name) or "MagicCompRules.txt"
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.") or "MagicCompRules.txt"
    return Path(cache_dir) / "rules" / name


def verify_rules_text(path: Path, url: str) -> None:
    """Check that a downloaded file is the CR text: UTF-8, titled, with its effective-date line.

    Raises DownloadError naming the URL otherwise (e.g. an HTML error page served with 200).
    """
    size = path.stat().st_size
    if size > RULES_MAX_BYTES:
        raise DownloadError(url, f"{size} bytes: too large for the Comprehensive Rules text")
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DownloadError(url, f"not UTF-8 text: {exc}") from exc
    head = text[:4000]
    if "Comprehensive Rules" not in head or not _EFFECTIVE_RE.search(head):
        first = (text.strip().splitlines() or [""])[0][:80]
        raise DownloadError(url, f"not the Comprehensive Rules text (first line {first!r}; "
                                 f"no 'These rules are effective as of …' line)")


def download_rules(fetcher: Fetcher, url: str, cache_dir: Path, *, force: bool = False,
                   step: Step | None = None) -> FetchResult:
    """Make ``<cache>/rules/<name>`` hold the CR text at ``url``; return the fetch result.

    Reuses a copy fetched less than a day ago without a request (unless ``force``), else asks
    the server with If-None-Match / If-Modified-Since. Raises HostNotAllowed for a URL off
    media.wizards.com and the configured extra hosts, DownloadError on failure (cache kept).
    """
    return fetcher.fetch_to_cache(
        url, rules_cache_path(cache_dir, url), allowed=RULES_HOSTS, verify=verify_rules_text,
        conditional=not force, max_age=None if force else RULES_MAX_AGE, step=step, label="rules",
        max_bytes=RULES_MAX_BYTES,  # also while decoding Content-Encoding: gzip
    )
