"""The refresh job: read sources → normalize → parse → derive → store → annotate, atomically.

One refresh holds an exclusive lock on ``<db>.lock``, reads its sources, builds a new database
file and swaps it in (:mod:`pipeline.store.build`). It is skipped ("unchanged") when the source
version and grammar version equal those of the last successful run, unless forced. A failure
leaves the previous database's contents untouched and is recorded in its ``runs`` table; a
failed first refresh (no previous database) leaves no database file and is only reported.

Under the lock, leftovers of killed refreshes (``<db>.tmp-<pid>``) are removed first, and a
previous database of another schema version is refused (:class:`SchemaMismatch`, naming the
rebuild command) unless ``force`` rebuilds it. docs/reliability.md lists the faults tested.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Protocol, Sequence

import filelock

from pipeline.faults import fault_point
from pipeline.gc_policy import fewer_collections
from pipeline.paths import BUNDLED_CARDS, BUNDLED_RULES
from pipeline.sources.errors import SourceError
from pipeline.sources.files import open_binary
from pipeline.store.leftovers import clean_leftovers
from pipeline.store.runs import DatabaseBusy, RunRecord, append_run, last_ok, next_run_id, now, read_state
from pipeline.store.schema import SCHEMA_VERSION
from pipeline.store.versions import SchemaMismatch
from pipeline.sources.version import source_state

# Imported where used, not here: an unchanged refresh must start fast (no Lark grammar modules,
# no pandas, no annotate/derive code): pipeline.normalize.ingest, pipeline.store.build,
# pipeline.sources.comprehensive_rules, pipeline.parse (GRAMMAR_VERSION via _grammar_version).


def _grammar_version() -> str:
    from pipeline.parse import GRAMMAR_VERSION
    return GRAMMAR_VERSION


BUNDLED = "bundled"


#: Longest text field accepted from a source, in characters. The longest real Oracle text is under
#: 1,500 characters; a field past this is corrupt input, and parsing it would take minutes.
MAX_TEXT_CHARS = 65_536

_SURROGATE = re.compile("[\ud800-\udfff]")


class RefreshLocked(Exception):
    """Another refresh holds the lock on this database path."""


@dataclass
class RefreshOutcome:
    """What a refresh did: ``status`` 'ok' | 'unchanged'; row counts; faces parsed; wall seconds;
    ``notes``: one-line remarks for the user (leftovers removed, a run that could not be recorded)."""

    status: str
    run_id: int
    source_version: str
    counts: dict[str, int]
    parsed: int
    seconds: float
    notes: list[str] = field(default_factory=list)
    changes: dict[str, int] = field(default_factory=dict)
    rebuilt_ids: set[str] | None = None  # an incremental build's rebuilt oracle ids (pipeline/store/incremental.py)


#: Largest Comprehensive Rules text accepted, decompressed (the 2026 CR is 0.97 MB).
RULES_MAX_BYTES = 32 << 20


def read_rules_text(path: str | Path) -> str:
    """Return the Comprehensive Rules text of a plain or gzipped UTF-8 file (byte-order mark removed)."""
    with open_binary(path) as stream:
        data = stream.read(RULES_MAX_BYTES + 1)  # bounded: a gzip bomb named like the rules cannot fill memory
    if len(data) > RULES_MAX_BYTES:
        raise SourceError(path, f"more than {RULES_MAX_BYTES:,} bytes: not the Comprehensive Rules text")
    return data.decode("utf-8-sig")


def refresh(
    sources: Sequence[str | Path],
    db_path: Path,
    *,
    rules: str | Path | None = None,
    no_rules: bool = False,
    force: bool = False,
    wait: float = 0,
    step: Callable[[str, int], Callable[[int], None]] | None = None,
    source_label: str | None = None,
    remote: RemoteSource | None = None,
    strict: bool = False,
    record_initial: bool = False,
    jobs: int | None = None,
) -> RefreshOutcome:
    """Refresh ``db_path`` from ``sources`` (``["bundled"]`` or paths; see :func:`pipeline.normalize.ingest.collect`).

    ``rules``: a Comprehensive Rules text file (default: the CR the package bundles, also after a
    download that fetched none; with ``remote`` its own CR download comes first); ``no_rules``: build
    no annotation tables at all. The rules file is part of the source version (``… rules=sha256:<16
    hex>``, or ``rules=none``), so adding or changing it is never "unchanged". ``wait``: seconds to wait for another refresh's lock (0: fail at once).
    ``remote``: sources to download under the lock (e.g. :class:`pipeline.sources.scryfall_api.ScryfallSource`),
    read after ``sources`` (normally empty then); its ``version()`` (e.g. the bulk files' ``updated_at``) is the source version,
    compared with the last successful run *before* anything is downloaded, and its ``label`` the run's source.
    ``strict``: a record quarantined by validation fails the refresh (SourceError naming it) instead
    of being left out (docs/reliability.md § Quarantine).
    ``record_initial``: on the first build of ``db_path``, record every card as 'added' in
    ``card_changes`` (by default a first build records no changes; see pipeline.store.changes).
    ``jobs``: worker processes parsing the face texts not in the parse cache (None: one per CPU, at
    most 4, see :func:`pipeline.store.abilities.default_jobs`; 1: parse in this process).
    Raises RefreshLocked when the lock is held; SchemaMismatch when the existing database has
    another schema version and ``force`` is not set; NotADatabase when another kind of file is at
    ``db_path``; DatabaseBusy when another process keeps the database open read-write (these
    three before anything is written); SourceError on bad input or a failed download (after
    recording the failed run in the previous database, when there is one), and re-raises any
    other error after recording it likewise.
    """
    db_path = Path(db_path)
    paths: list[str | Path] = []
    for s in sources:
        paths.append(BUNDLED_CARDS if str(s) == BUNDLED else s)
    if no_rules:
        rules = None
    elif rules is None and remote is None:  # always annotated: the bundled CR (CR 2026-02-27)
        rules = BUNDLED_RULES
    label = source_label or (remote.label if remote is not None else ",".join(str(s) for s in sources))
    # A symlinked --db: lock and swap the real file (else two refreshes through two names run at
    # once, and os.replace turns the link into a regular file while the real database goes stale).
    db_path = Path(os.path.realpath(db_path))
    lock = filelock.FileLock(str(db_path) + ".lock")
    try:
        lock.acquire(timeout=wait)
    except filelock.Timeout as exc:
        raise RefreshLocked(f"{db_path}: another refresh is running (lock {lock.lock_file}); "
                            f"retry later or pass --wait SECONDS") from exc
    try:
        with fewer_collections():  # the collection stays alive to the end: full GC passes only cost (gc_policy.py)
            return _refresh_locked(paths, db_path, rules, force, step, label, remote, strict, record_initial,
                                   no_rules, jobs)
    finally:
        lock.release()


class RemoteSource(Protocol):
    """What :func:`refresh` needs of downloaded sources (see pipeline.sources.scryfall_api.ScryfallSource)."""

    label: str

    def version(self) -> str: ...

    def fetch(self, step) -> tuple[list[Path], Path | None]: ...

    # Optional: called after the build that read the fetched files succeeded (commit) or failed
    # (rollback), so a download that fails the build does not replace the last good cached file.
    # def commit(self) -> None: ...
    # def rollback(self) -> None: ...


def _interrupted_statement(exc: BaseException) -> bool:
    """True for the error DuckDB raises when a SIGINT (Ctrl-C) interrupts a running statement:
    ``duckdb.InterruptException``, or a ``RuntimeError`` "Query interrupted" from its Arrow scans."""
    if type(exc).__name__ == "InterruptException":
        return True
    return isinstance(exc, RuntimeError) and str(exc).strip() == "Query interrupted"


def _where(paths) -> str:
    return ", ".join(str(p) for p in paths) or "(no source)"


def check_collection(collection, paths, partial: bool = False) -> None:
    """Refuse what no store or parser should take: sources with nothing in them (an empty build
    would replace the last good database), a card without a name, a text field longer than
    :data:`MAX_TEXT_CHARS`, or one holding a lone UTF-16 surrogate (JSON ``"\\ud800"`` decodes to
    one; it cannot be stored as UTF-8). Raises SourceError naming the source(s), the card and the field.
    ``partial``: ``collection`` holds only the records that changed since the last build (the others
    passed this check then, pipeline/normalize/source_records.py), so it may be empty.
    """
    def check(value, record: str, field: str) -> None:
        if not isinstance(value, str):
            return
        if len(value) > MAX_TEXT_CHARS:
            raise SourceError(_where(paths), f"{len(value):,} characters, more than the {MAX_TEXT_CHARS:,} "
                                             f"accepted: not an Oracle text", record=record, field=field)
        bad = _SURROGATE.search(value)
        if bad:
            raise SourceError(_where(paths), f"not valid Unicode: lone surrogate U+{ord(bad.group()):04X} "
                                             f"at character {bad.start()}", record=record, field=field)

    if not (partial or collection.cards or collection.rulings or collection.other):
        raise SourceError(_where(paths), "the sources hold no cards, rulings or other objects; "
                                         "refusing to replace the database with an empty one")
    for card in collection.cards.values():
        record = f"oracle_id={card.oracle_id!r}"
        if not card.name:
            raise SourceError(_where(paths), "card without a name", record=record, field="name")
        for field_name in ("name", "type_line", "mana_cost"):
            check(getattr(card, field_name), record, field_name)
        record = f"oracle_id={card.oracle_id!r}, name={card.name!r}"
        for face in card.faces:
            for field_name in ("name", "oracle_text", "type_line", "mana_cost", "power", "toughness", "loyalty",
                               "defense"):
                check(getattr(face, field_name), record, f"faces[{face.face_index}].{field_name}")
    for ruling in collection.rulings.values():
        check(ruling.comment, f"ruling of oracle_id={ruling.oracle_id!r}", "comment")
    for obj in collection.other.values():
        for field_name in ("name", "type_line", "oracle_text"):
            check(getattr(obj, field_name), f"{obj.layout} {obj.name!r}", field_name)


def _same_as(previous: dict | None, source_version: str, label: str) -> bool:
    """True when the last successful run read the same source version with the same grammar and label."""
    return bool(previous and previous["source_version"] == source_version
                and previous["grammar_version"] == _grammar_version() and previous["source"] == label)


def _unchanged(db_path: Path, run_id: int, started, label: str, source_version: str, previous: dict,
               t0: float) -> RefreshOutcome:
    """Record an 'unchanged' run (counts carried over from ``previous``) and return its outcome.

    When readers keep the database open past the retry time the run is not recorded (a note says
    so): the database is current, and a reader must not turn a no-op into a failure.
    """
    seconds = time.perf_counter() - t0
    notes = []
    try:
        append_run(db_path, RunRecord(run_id, started, now(), label, source_version, "unchanged",
                                      previous["card_count"], previous["face_count"], previous["ability_count"],
                                      previous["ruling_count"], 0, _grammar_version(), seconds))
    except DatabaseBusy as exc:
        notes.append(f"run not recorded: {exc}")
    return RefreshOutcome("unchanged", run_id, source_version, {}, 0, seconds, notes)


def rules_version(rules: str | Path | None) -> str:
    """The rules file's part of a local source version: ``rules=sha256:<16 hex>`` or ``rules=none``."""
    if rules is None:
        return "rules=none"
    from pipeline.sources.files import require_regular_file  # a FIFO or /dev/zero would never end
    from pipeline.sources.scryfall_api import file_sha256  # here: an unchanged refresh imports little

    return "rules=sha256:" + file_sha256(require_regular_file(rules))[:16]


#: Local sources of at least this many bytes (as stored) are big enough that a build parsing all their
#: texts starts its parse workers before reading them (:func:`early_workers`); the MTGJSON 2022 set
#: files are 62 MB, the bundled snapshot ≈ 0.2 MB.
EARLY_WORKERS_MIN_BYTES = 4 << 20


def early_workers(jobs: int, previous: dict | None, file_states: Sequence):
    """Parse workers started before the read (:class:`pipeline.store.abilities.ParseWorkers`), so that their
    start-up (interpreter, imports, grammar load) overlaps reading the sources; or None.

    Only when the build will surely parse many texts: ``jobs`` > 1, local source files of at least
    :data:`EARLY_WORKERS_MIN_BYTES` (``file_states``), and no parse cache for this grammar in the
    previous database (``previous``, its last successful run: none, or of another grammar version).
    Otherwise the build starts workers itself if its cache misses call for them (as before).
    """
    if jobs <= 1 or sum(f.size for f in file_states) < EARLY_WORKERS_MIN_BYTES:
        return None
    if previous is not None and previous.get("grammar_version") == _grammar_version():
        return None
    from pipeline.store.abilities import ParseWorkers

    return ParseWorkers(jobs)


def _refresh_locked(paths, db_path: Path, rules, force: bool, step, label: str, remote=None,
                    strict: bool = False, record_initial: bool = False, no_rules: bool = False,
                    jobs: int | None = None) -> RefreshOutcome:
    started = now()
    t0 = time.perf_counter()
    notes = [f"removed leftover of a killed refresh: {p}" for p in clean_leftovers(db_path)]
    state = read_state(db_path)
    if state.schema_version is not None or db_path.exists() and db_path.stat().st_size:
        if state.schema_version != str(SCHEMA_VERSION) and not force:  # another schema: refuse unless forced
            raise SchemaMismatch(db_path, state.schema_version)
    runs = state.runs
    run_id = next_run_id(runs)
    source_version = None
    # a failure is recorded in the previous database's runs table; with none, it is reported only
    # (stderr and exit code): a failed first refresh leaves no database file behind
    had_database = db_path.exists() and db_path.stat().st_size > 0
    file_states = []  # what source_files records for the next refresh (local files only)
    try:
        previous = last_ok(runs)
        remote_version = None
        if remote is not None:  # decide "unchanged" from the remote version before downloading anything
            source_version = remote_version = remote.version()
            if not force and _same_as(previous, remote_version, label):
                outcome = _unchanged(db_path, run_id, started, label, remote_version, previous, t0)
                outcome.notes[:0] = notes
                return outcome
            fetched, remote_rules = remote.fetch(step)
            fault_point("download")
            paths = list(paths) + list(fetched)
            rules = remote_rules if rules is None else rules
            if rules is None and not no_rules:  # no CR download (--rules-url ''): the bundled CR
                rules = BUNDLED_RULES
        else:  # local files: their version is a content hash, read before any parsing
            # size + mtime equal to the last build's: trusted without reading (pipeline/sources/version.py)
            sources_state = source_state(paths, {} if force else state.files)
            source_version = f"{sources_state.version} {rules_version(rules)}"
            file_states = sources_state.files
            if not force and _same_as(previous, source_version, label):
                outcome = _unchanged(db_path, run_id, started, label, source_version, previous, t0)
                outcome.notes[:0] = notes
                return outcome
        from pipeline.normalize.ingest import collect_sources
        from pipeline.store.abilities import default_jobs
        from pipeline.store.build import build_database
        from pipeline.store.incremental import previous_digests
        from pipeline.sources.comprehensive_rules import RulesFormatError

        jobs = jobs or default_jobs()
        workers = early_workers(jobs, previous, file_states)
        read_tick = step("read", 0) if step else None
        # an incremental build may follow: normalize only the records that changed (pipeline/normalize/source_records.py)
        previous_build = None if force else previous_digests(db_path)
        try:
            read = collect_sources(paths, read_tick, version=source_version, previous=previous_build)
        except (RecursionError, MemoryError, UnicodeError) as exc:  # safety net: readers raise SourceError
            raise SourceError(_where(paths), f"unreadable input ({type(exc).__name__}: {exc}); "
                                             f"nested too deeply, too large or not valid text") from exc
        collection, info = read.collection, read.info
        check_collection(collection, paths, partial=read.partial)
        quarantined = collection.quarantined()
        if quarantined and strict:
            first = quarantined[0].error()
            raise SourceError(first.path, f"{first.reason} [--strict: {len(quarantined)} record(s) failed "
                                          f"validation; nothing was loaded]", record=first.record, field=first.field)
        if collection.text_conflicts:
            notes.append(f"{len(collection.text_conflicts)} oracle ids had two different Oracle texts for a face "
                         f"in the sources; the first text read was kept (meta.text_conflicts)")
        fault_point("read")
        try:
            rules_text = read_rules_text(rules) if rules is not None else None
        except (UnicodeError, OSError, EOFError) as exc:
            raise SourceError(rules, f"unreadable Comprehensive Rules file: {exc}") from exc

        def run_row(counts: dict[str, int], parsed: int) -> tuple:
            return RunRecord(run_id, started, now(), label, source_version, "ok", counts["cards"], counts["faces"],
                             counts["abilities"], counts["rulings"], parsed, _grammar_version(),
                             time.perf_counter() - t0).row()

        try:
            result = build_database(db_path, collection, info, run_row, rules_text=rules_text, step=step,
                                    record_initial=record_initial, source_files=file_states,
                                    jobs=jobs, incremental=not force, sources=read, workers=workers)
        except RulesFormatError as exc:  # the rules file is bad input like any other: name it
            raise SourceError(rules, str(exc).replace("<rules text>: ", "")) from exc
        finally:
            if workers is not None:
                workers.terminate()  # normally done by the build once their results are read
        if remote is not None and hasattr(remote, "commit"):
            remote.commit()  # the build used the new downloads: drop the last good copies
        return RefreshOutcome("ok", run_id, source_version, result.counts, result.parsed, time.perf_counter() - t0,
                              notes, result.changes, result.rebuilt)
    except BaseException as caught:
        # Ctrl-C while DuckDB runs a statement: DuckDB interrupts it and raises its own error
        # ("Query interrupted") instead of KeyboardInterrupt; it is the same user action
        exc = KeyboardInterrupt() if _interrupted_statement(caught) else caught
        if remote is not None and hasattr(remote, "rollback"):
            remote.rollback()  # a download that passed its check but failed the build is not kept
        message = f"{type(exc).__name__}: {exc}".splitlines()[0] if str(exc) else type(exc).__name__
        try:
            if had_database and db_path.exists():
                append_run(db_path, RunRecord(run_id, started, now(), label, source_version, "failed",
                                              grammar_version=_grammar_version(), seconds=time.perf_counter() - t0,
                                              error=message))
        except Exception:  # the database is busy or unwritable: the original error matters more
            pass
        if exc is caught:
            raise
        raise exc from caught
