"""Scryfall's bulk-data API: pick a bulk file by type, download it (and the rulings) into the cache.

``GET https://api.scryfall.com/bulk-data`` returns ``{"object": "list", "has_more": false,
"data": [bulk_data, …]}``; each ``bulk_data`` object has ``type`` (``oracle_cards``,
``unique_artwork``, ``default_cards``, ``all_cards``, ``rulings``, …), ``updated_at`` and either

* ``jsonl_download_uri`` — gzipped JSON Lines, one object per line (Scryfall's only bulk format
  since 20 July 2026) with ``compressed_size``, the byte size of that ``.jsonl.gz`` file; or
* ``download_uri`` — the older single JSON array with ``size``, its uncompressed byte size
  (served with ``content_encoding`` gzip, i.e. ``Content-Encoding: gzip`` on the wire).

The received bytes are checked against ``compressed_size`` resp. ``size``. A bulk file is
downloaded once per ``updated_at``: a cached file with the same ``updated_at`` is reused without
a request. :class:`ScryfallSource` ties this together for one refresh (cards + rulings + CR).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from pipeline.paths import pid_alive
from pipeline.sources.http import (
    SCRYFALL_HOSTS, DownloadError, Fetcher, Step, check_url, meta_path, read_meta, verify_json_records,
)
from pipeline.sources.rules_download import DEFAULT_RULES_URL, RULES_HOSTS, download_rules, rules_cache_path

DEFAULT_API_URL = "https://api.scryfall.com/bulk-data"
API_URL_ENV = "MTG_PIPELINE_API_URL"
CARD_TYPES = ("oracle_cards", "default_cards", "all_cards", "unique_artwork")
RULINGS = "rulings"
BULK_TYPES = CARD_TYPES + (RULINGS,)
_SUFFIXES = (".jsonl.gz", ".json.gz", ".jsonl", ".json")


@dataclass(frozen=True)
class BulkEntry:
    """One bulk file of the index: ``url`` is ``jsonl_download_uri`` (``jsonl`` True) or ``download_uri``.

    ``expected_size``: bytes the download must have (``compressed_size`` for JSON Lines,
    ``size`` for the legacy array), None when the index gives none; ``size_field`` names it.
    """

    type: str
    updated_at: str
    url: str
    jsonl: bool
    expected_size: int | None
    size_field: str


def index_entries(index: object, api_url: str) -> dict[str, dict]:
    """Map ``type`` → bulk_data object of a bulk-data list; raise DownloadError if it is not one."""
    if not isinstance(index, dict) or index.get("object") != "list" or not isinstance(index.get("data"), list):
        kind = index.get("object") if isinstance(index, dict) else type(index).__name__
        detail = f": {index.get('details')}" if isinstance(index, dict) and index.get("details") else ""
        raise DownloadError(api_url, f"not a Scryfall bulk-data list (object {kind!r}){detail}")
    entries = {}
    for i, entry in enumerate(index["data"]):
        if not isinstance(entry, dict) or entry.get("object") != "bulk_data" or not isinstance(entry.get("type"), str):
            raise DownloadError(api_url, f"data[{i}] is not a bulk_data object with a type")
        entries[entry["type"]] = entry
    return entries


def bulk_entry(index: object, bulk_type: str, api_url: str) -> BulkEntry:
    """The :class:`BulkEntry` of ``bulk_type`` in a bulk-data list (JSON Lines preferred).

    Raises DownloadError naming the API URL, the type and the field when the entry is missing,
    has no ``updated_at`` or no download URI.
    """
    entries = index_entries(index, api_url)
    entry = entries.get(bulk_type)
    if entry is None:
        raise DownloadError(api_url, f"the bulk-data list has no {bulk_type!r} entry "
                                     f"(it lists {', '.join(sorted(entries)) or 'nothing'})")
    updated_at = entry.get("updated_at")
    if not isinstance(updated_at, str) or not updated_at:
        raise DownloadError(api_url, f"bulk_data {bulk_type!r}: field 'updated_at' missing or not a string")
    jsonl = entry.get("jsonl_download_uri")
    if isinstance(jsonl, str) and jsonl:
        size = entry.get("compressed_size")
        return BulkEntry(bulk_type, updated_at, jsonl, True, _size(size), "compressed_size")
    legacy = entry.get("download_uri")
    if isinstance(legacy, str) and legacy:
        return BulkEntry(bulk_type, updated_at, legacy, False, _size(entry.get("size")), "size")
    raise DownloadError(api_url, f"bulk_data {bulk_type!r}: neither 'jsonl_download_uri' nor 'download_uri'")


def _size(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def bulk_cache_path(cache_dir: Path, entry: BulkEntry) -> Path:
    """``<cache>/scryfall/<type><suffix>``, the suffix taken from the URL (``.jsonl.gz``, ``.json`` …)."""
    name = entry.url.split("?", 1)[0].rsplit("/", 1)[-1].lower()
    suffix = next((s for s in _SUFFIXES if name.endswith(s)), ".jsonl.gz" if entry.jsonl else ".json")
    return Path(cache_dir) / "scryfall" / f"{entry.type}{suffix}"


def download_bulk(fetcher: Fetcher, entry: BulkEntry, cache_dir: Path, *, force: bool = False,
                  step: Step | None = None) -> tuple[Path, str]:
    """Make the cache hold ``entry``'s file; return (path, 'cached' | 'downloaded' | 'not_modified').

    A cached file whose metadata has the same ``updated_at`` is reused without a request unless
    ``force``. A download is checked for size and parsed completely (records must be ``card``
    objects, or ``ruling`` objects for the rulings entry) before it replaces the cached file.
    Raises HostNotAllowed / DownloadError; the cached file is then untouched.
    """
    dest = bulk_cache_path(cache_dir, entry)
    meta = read_meta(dest) if dest.exists() else None
    if not force and meta is not None and meta.extra.get("updated_at") == entry.updated_at:
        return dest, "cached"
    expect = "ruling" if entry.type == RULINGS else "card"
    max_bytes = fetcher.config.max_bytes

    def verify(path: Path, url: str) -> None:
        verify_json_records(path, url, max_bytes=max_bytes, expect_object=expect)

    result = fetcher.fetch_to_cache(
        entry.url, dest, allowed=SCRYFALL_HOSTS, expected_size=entry.expected_size, size_field=entry.size_field,
        verify=verify, conditional=not force, extra={"type": entry.type, "updated_at": entry.updated_at},
        step=step, label=entry.type)
    for suffix in _SUFFIXES:  # a previous file of the other format is superseded
        other = dest.with_name(entry.type + suffix)
        if other != dest:
            for p in (other, meta_path(other)):
                if p.exists():
                    p.unlink()
    return dest, result.status


def file_sha256(path: Path) -> str:
    """Hex SHA-256 of a file, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class ScryfallSource:
    """The remote sources of ``refresh --source scryfall``: a card bulk file, the rulings, the CR.

    Used by :func:`pipeline.refresh.refresh` under its lock, in two steps:

    * :meth:`version` — fetch the bulk-data list (conditional GET) and the CR (at most daily) and
      return the source version ``"oracle_cards@<updated_at> rulings@<updated_at> rules=sha256:<16 hex>"``;
      every download URL is checked against the allow-list here, before any download;
    * :meth:`fetch` — download what the cache lacks; return (bulk file paths, rules path).

    ``rules_path`` (a local CR file) takes precedence over ``rules_url``; both None: no rules.
    ``warn(message)`` is told when a cached CR copy is used because its download failed.
    """

    def __init__(self, fetcher: Fetcher, cache_dir: Path, *, bulk_type: str = "oracle_cards",
                 api_url: str = DEFAULT_API_URL, rules_path: Path | None = None,
                 rules_url: str | None = DEFAULT_RULES_URL, force: bool = False,
                 warn: Callable[[str], None] | None = None):
        if bulk_type not in BULK_TYPES:
            raise ValueError(f"unknown bulk type {bulk_type!r}; expected one of {', '.join(BULK_TYPES)}")
        self.fetcher, self.cache_dir = fetcher, Path(cache_dir)
        self.types: Sequence[str] = (bulk_type,) if bulk_type == RULINGS else (bulk_type, RULINGS)
        self.api_url, self.rules_path, self.rules_url = api_url, rules_path, rules_url
        self.force, self.warn = force, warn
        self.entries: list[BulkEntry] = []
        self.rules: Path | None = None
        self.statuses: dict[str, str] = {}
        self._kept: list[Path] = []

    @property
    def label(self) -> str:
        """The ``runs.source`` label: ``scryfall:oracle_cards+rulings``."""
        return "scryfall:" + "+".join(self.types)

    def clean_leftovers(self) -> list[Path]:
        """Remove download temp files (``*.tmp-<pid>``) of dead processes from the cache; return them.

        Called under the refresh lock (:meth:`version`), so no live refresh of this cache is writing them.
        """
        removed = []
        for sub in ("scryfall", "rules"):
            d = self.cache_dir / sub
            if not d.is_dir():
                continue
            for p in d.iterdir():
                pid = p.name.rsplit(".tmp-", 1)[-1] if ".tmp-" in p.name else ""
                if pid.isdigit() and int(pid) != os.getpid() and not pid_alive(int(pid)) and p.is_file():
                    p.unlink()
                    removed.append(p)
        return removed

    def _keep_last_good(self, dest: Path) -> None:
        for p in (dest, meta_path(dest)):
            good = p.with_name(p.name + ".last-good")
            if good.exists():
                good.unlink()
            if p.exists():
                os.link(p, good)
        self._kept.append(dest)

    def commit(self) -> None:
        """The build succeeded: drop the ``.last-good`` copies of the files it read."""
        for dest in self._kept:
            for p in (dest, meta_path(dest)):
                p.with_name(p.name + ".last-good").unlink(missing_ok=True)
        self._kept.clear()

    def rollback(self) -> None:
        """The build failed: put each file's ``.last-good`` copy back (or remove a first download)."""
        for dest in self._kept:
            for p in (dest, meta_path(dest)):
                good = p.with_name(p.name + ".last-good")
                if good.exists() and p.exists() and os.path.samefile(good, p):
                    good.unlink()  # not replaced (reused from the cache); rename() would keep both names
                elif good.exists():
                    os.replace(good, p)
                elif p.exists():
                    p.unlink()
        self._kept.clear()

    def version(self) -> str:
        """Fetch the bulk-data list and the CR; return the source version (see the class docstring)."""
        self.clean_leftovers()
        def usable(document: object) -> None:  # a rejected list must not replace the good cached one
            for t in self.types:
                check_url(bulk_entry(document, t, self.api_url).url, SCRYFALL_HOSTS, self.fetcher.config.extra_hosts)

        index, _ = self.fetcher.get_json(self.api_url, self.cache_dir / "scryfall" / "bulk-data.json", check=usable)
        self.entries = [bulk_entry(index, t, self.api_url) for t in self.types]
        for entry in self.entries:
            check_url(entry.url, SCRYFALL_HOSTS, self.fetcher.config.extra_hosts)
        parts = [f"{e.type}@{e.updated_at}" for e in self.entries]
        self.rules = self._resolve_rules()
        if self.rules is not None:
            parts.append("rules=sha256:" + file_sha256(self.rules)[:16])
        return " ".join(parts)

    def _resolve_rules(self) -> Path | None:
        if self.rules_path is not None:
            return Path(self.rules_path)
        if not self.rules_url:
            return None
        check_url(self.rules_url, RULES_HOSTS, self.fetcher.config.extra_hosts)
        try:
            result = download_rules(self.fetcher, self.rules_url, self.cache_dir, force=self.force)
        except DownloadError as exc:
            cached = rules_cache_path(self.cache_dir, self.rules_url)
            if read_meta(cached) is None or not cached.exists():
                raise
            if self.warn:
                self.warn(f"warning: {exc}; using the cached copy {cached}")
            return cached
        self.statuses["rules"] = result.status
        return result.path

    def fetch(self, step: Step | None = None) -> tuple[list[Path], Path | None]:
        """Download (or reuse) every bulk file of :meth:`version`'s entries; return (paths, rules path).

        The cached copy a download replaces is kept beside it (``<file>.last-good``, a hard link)
        until the build that reads the new file succeeds: :meth:`commit` drops it, :meth:`rollback`
        puts it back (a file that passed the download check but failed the build is not kept, and
        the next run downloads again).
        """
        if not self.entries:
            self.version()
        paths = []
        try:
            for entry in self.entries:
                self._keep_last_good(bulk_cache_path(self.cache_dir, entry))
                path, status = download_bulk(self.fetcher, entry, self.cache_dir, force=self.force, step=step)
                self.statuses[entry.type] = status
                paths.append(path)
        except BaseException:
            # A download failed (its cached file is untouched): the files already fetched passed their
            # checks and no build read them, so they stay cached and the next run fetches only the rest.
            self.commit()
            raise
        return paths, self.rules
