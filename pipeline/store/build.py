"""Build a complete database file from a :class:`CardCollection`, then swap it in atomically.

The new database is written to ``<db>.tmp-<pid>`` beside the target, closed (checkpointed),
and moved over the target with :func:`os.replace`, so readers see either the old file or the
new one, never a half-written one. The previous database is opened read-only, only to carry
over the ``runs`` history and the ``parse_cache``. A ``<db>.wal`` left by a process killed
while writing the previous database is folded in (or, failing that, removed) before the swap:
DuckDB would otherwise replay it onto the new file and refuse to open it. Leftover
``<db>.tmp-<pid>`` files of killed refreshes are removed by :func:`clean_leftovers` (called
under the refresh lock). ``pipeline.faults.fault_point`` marks the stages a crash test can
kill the process at (docs/reliability.md).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Sequence

import duckdb

from pipeline.deadline import disarm as disarm_deadline
from pipeline.annotate import annotate_abilities as _annotate_abilities
from pipeline.annotate import annotate_rulings as _annotate_rulings
from pipeline.annotate import start_features as _start_features
from pipeline.sources.comprehensive_rules import parse_effective_date
from pipeline.derive import derive
from pipeline.derive.quality import source_produced_mana
from pipeline.faults import fault_point
from pipeline.normalize.collect import CardCollection
from pipeline.normalize.model import SourceInfo
from pipeline.parse import GRAMMAR_VERSION
from pipeline.normalize.facts import card_facts
from pipeline.store.abilities import FaceParser, ParseWorkers
from pipeline.store.card_data import load_card_data
from pipeline.store.changes import create_change_tables, create_change_views, record_changes
from pipeline.store.data_quality import record_issues, stamp_run_id
from pipeline.store.quarantine import keep_previous
from pipeline.store.ddl import insert_rows
from pipeline.store.incremental import (apply_incremental, build_digests, plan_incremental, ruling_text_holders,
                                        write_digests)
from pipeline.store.leftovers import clean_leftovers  # noqa: F401  (re-exported: callers import it from here)
from pipeline.store.runs import connect_retrying, open_previous
from pipeline.store.schema import SCHEMA_VERSION, columns_of, create_tables
from pipeline.store.storage import new_database_config
from pipeline.store.versions import read_versions
from pipeline.store.views import create_views

Step = Callable[[str, int], Callable[[int], None]]  # (label, total) → tick(n)


@dataclass
class BuildResult:
    """Counts of one build: rows per table and faces parsed (cache misses)."""

    counts: dict[str, int]
    parsed: int
    changes: dict[str, int] = field(default_factory=dict)
    rebuilt: set[str] | None = None  # incremental build: the oracle ids rebuilt ('' = objects without one); cold: None


def ruling_id(oracle_id: str, published_at, comment: str) -> str:
    """Stable ruling id: first 16 hex digits of sha256 over oracle_id, ISO date and comment."""
    return hashlib.sha256(f"{oracle_id}\x1f{published_at}\x1f{comment}".encode()).hexdigest()[:16]


def read_previous(db_path: Path, only: Sequence[str] | None = None) -> tuple[list[tuple], dict[str, str]]:
    """Return (runs rows, parse cache for the current grammar: ``{text_hash: records JSON}``) of an
    existing database, or empty ones; ``only``: read just the cache entries of these text hashes.

    A database of the current schema gives its ``runs`` rows and its ``parse_cache`` for
    :data:`GRAMMAR_VERSION`. One of another schema version (rebuilt with ``--force``, see
    :mod:`pipeline.store.versions`) gives its ``runs`` rows mapped onto the current columns by
    name (a column it lacks is NULL) and no parse cache. A missing file gives nothing.
    Raises DatabaseBusy / NotADatabase (:func:`pipeline.store.runs.open_previous`).
    """
    con = open_previous(db_path)
    if con is None:
        return [], {}
    try:
        same_schema = read_versions(con)["schema_version"] == str(SCHEMA_VERSION)
        runs = _carry_runs(con)
        if not same_schema:
            return runs, {}
        sql = "SELECT text_hash, CAST(abilities AS VARCHAR) FROM parse_cache WHERE grammar_version = ?"
        params: list = [GRAMMAR_VERSION]
        if only is not None:
            sql += " AND text_hash IN (SELECT unnest(?::VARCHAR[]))"
            params.append(list(only))
        cache = dict(_safe_rows(con, sql, params))  # decoded on a hit only
        return runs, cache
    finally:
        con.close()


def _carry_runs(con) -> list[tuple]:
    """The ``runs`` rows in the current column order, matched by column name (missing → NULL)."""
    wanted = columns_of("runs")
    have = {r[0] for r in _safe_rows(con, "SELECT column_name FROM information_schema.columns "
                                          "WHERE table_name = 'runs'")}
    if "run_id" not in have:
        return []
    select = ", ".join(f'"{c}"' if c in have else "NULL" for c in wanted)
    return _safe_rows(con, f"SELECT {select} FROM runs ORDER BY run_id")


def _settle_wal(db_path: Path) -> None:
    """Make sure no ``<db>.wal`` of the previous database survives the swap (see module docstring).

    First try to fold it into the old file (open read-write, checkpoint); if another process
    holds the file, remove it: its committed ``runs`` rows were already carried over by
    :func:`read_previous`, which replays the log read-only.
    """
    wal = db_path.with_name(db_path.name + ".wal")
    if not wal.exists():
        return
    try:
        con = connect_retrying(db_path, read_only=False, wait=1.0)
        try:
            con.execute("CHECKPOINT")
        finally:
            con.close()
    except Exception:  # busy or unreadable: removing the log is the safe fallback
        pass
    if wal.exists():
        wal.unlink()


def _safe_rows(con, sql: str, params=None) -> list[tuple]:
    try:
        return con.execute(sql, params or []).fetchall()
    except duckdb.Error:
        return []


def build_database(
    db_path: Path,
    collection: CardCollection,
    source: SourceInfo,
    run_row: Callable[[dict[str, int], int], tuple],
    *,
    rules_text: str | None = None,
    step: Step | None = None,
    record_initial: bool = False,
    source_files: Sequence = (),
    jobs: int = 1,
    incremental: bool = True,
    sources=None,
    workers: ParseWorkers | None = None,
) -> BuildResult:
    """Write a complete new database for ``collection`` and atomically replace ``db_path`` with it.

    ``run_row(counts, parsed)`` returns this run's ``runs`` row, appended after the carried-over
    history. ``rules_text`` (the Comprehensive Rules) enables the annotation tables.
    ``step(label, total)`` returns a progress tick function. The changelog (``card_changes``,
    :mod:`pipeline.store.changes`) compares the new file with the previous one before the swap;
    ``record_initial`` makes a first build record every card as 'added'. ``source_files``: the
    :class:`pipeline.sources.version.FileState` of each file read, recorded in ``source_files``
    for the next refresh's unchanged check. ``jobs``: worker processes parsing the texts that miss the
    parse cache (:mod:`pipeline.store.abilities`). ``incremental``: when few cards changed since the
    previous database, rebuild only theirs (:mod:`pipeline.store.incremental`; same result). On any
    exception the temporary file is removed and ``db_path`` is left exactly as it was; the exception propagates.
    ``sources``: the :class:`pipeline.normalize.ingest.SourceRead` ``collection`` came from; its source
    digests are recorded, and when it is partial (only changed records normalized) the build
    normalizes what else it needs from it: the affected cards' neighbours by ruling text for an
    incremental build, everything for a cold one. ``workers``: parse workers already started
    (:func:`pipeline.refresh.early_workers`), used by a cold build and stopped otherwise.
    """
    db_path.parent.mkdir(parents=True, exist_ok=True)
    # the digests decide an incremental build; a cold one computes them while its parse workers work
    digests = build_digests(collection, rules_text, sources) if incremental and db_path.exists() else None
    if digests is not None:  # few cards changed: rebuild only theirs, in a copy (pipeline/store/incremental.py)
        plan = plan_incremental(db_path, collection, digests)
        if plan is not None:
            if workers is not None:
                workers.terminate()  # an incremental build parses the changed texts only
            if sources is not None and sources.partial:
                collection = expand_sources(db_path, sources, plan.affected)
            return apply_incremental(db_path, plan, collection, source, run_row, rules_text=rules_text, step=step,
                                     source_files=source_files, jobs=jobs, record_initial=record_initial)
    if sources is not None and sources.partial:  # a cold build after an incremental read: normalize every record
        collection = expand_sources(db_path, sources, None)
        digests = None
    old_runs, cache = read_previous(db_path)
    later: dict[str, dict[str, str]] = {}

    def while_parsing() -> None:
        if digests is None:
            later["digests"] = build_digests(collection, rules_text, sources)

    tmp = db_path.with_name(f"{db_path.name}.tmp-{os.getpid()}")
    _remove(tmp)
    try:
        con = duckdb.connect(str(tmp), config=new_database_config())  # readable by DuckDB 1.x (storage.py)
        try:
            result = _fill(con, collection, source, cache, rules_text, step, db_path, jobs, workers, while_parsing)
            row = run_row(result.counts, result.parsed)
            result.counts["data_quality"] = stamp_run_id(con, row[0])  # rows the stages recorded
            create_change_tables(con)
            result.changes = record_changes(con, db_path, row[0], grammar_version=GRAMMAR_VERSION,
                                            record_initial=record_initial)
            con.executemany(f"INSERT INTO runs VALUES ({', '.join('?' * len(columns_of('runs')))})",
                            old_runs + [row])
            write_source_files(con, source_files)
            write_digests(con, digests if digests is not None else later["digests"])
            create_change_views(con)
            fault_point("changes")
            con.execute("CHECKPOINT")
        finally:
            con.close()
        _settle_wal(db_path)
        fault_point("before_swap")
        disarm_deadline()  # past this point the refresh has succeeded (pipeline/deadline.py)
        os.replace(tmp, db_path)
    except BaseException:
        _remove(tmp)
        raise
    return result


def expand_sources(db_path: Path, sources, affected: set[str] | None) -> CardCollection:
    """The collection an incremental build of the ``affected`` oracle ids needs from a partial
    :class:`pipeline.normalize.ingest.SourceRead`: those cards, and every card holding a ruling text
    theirs hold (:func:`pipeline.store.incremental.subset`; unchanged cards hold the rulings the
    previous database at ``db_path`` has). ``affected`` None: every card (a cold build)."""
    if affected is None:
        collection = sources.full()
    else:
        collection = sources.expand(affected)
        texts = {r.comment for r in collection.rulings.values() if (r.oracle_id or "") in affected}
        more = ruling_text_holders(db_path, texts) - sources.normalized
        if more:
            collection = sources.expand(more)
    sources.release()  # the kept source records (≈ 250 MB for the MTGJSON corpus) are not needed past this point
    return collection


def write_source_files(con, source_files: Sequence) -> None:
    """Replace the ``source_files`` rows of the open database ``con`` (FileState objects, see pipeline.sources.version)."""
    con.execute("DELETE FROM source_files")
    insert_rows(con, "source_files", columns_of("source_files"), [s.row() for s in source_files])


def drop_printings(cards) -> None:
    """Empty every card's ``printings`` once :func:`_fill` has written the card data
    and the digests are computed: nothing later in a cold build reads them, and on the MTGJSON corpus
    they are the largest part of the collection (58,362 printings with their legalities and foreign
    names), alive through derive and annotate otherwise. Mutates the cards of the build's collection."""
    for card in cards:
        card.printings = {}


def _remove(path: Path) -> None:
    for p in (path, path.with_name(path.name + ".wal")):
        if p.exists():
            p.unlink()


def _fill(con, collection: CardCollection, source: SourceInfo, cache, rules_text, step, db_path: Path,
          jobs: int = 1, workers: ParseWorkers | None = None,
          while_parsing: Callable[[], None] | None = None) -> BuildResult:
    """Fill the open new database ``con``: every table of :func:`build_database`'s file but ``runs``,
    the changelog and the digests. The face texts missing from ``cache`` go to the parse workers first
    (``workers``: started before the read, else started here when ``jobs`` > 1 and there are many);
    while they parse, this process writes the tables that do not need their results (cards, faces,
    card data, other objects, rulings) and the Comprehensive Rules annotation tables
    (:func:`pipeline.annotate.annotate_rulings`) and calls ``while_parsing()`` (other work of the caller's
    that needs no parse result); then abilities, and derive while ``jobs`` worker processes compute the
    cards' annotation features (:func:`pipeline.annotate.start_features`), then the rest of annotate."""
    con.execute("BEGIN")  # the tables and their ~300 COMMENT ON statements in one commit, not one each
    create_tables(con)
    con.execute("COMMIT")
    cards = sorted(collection.cards.values(), key=lambda c: (c.name, c.oracle_id))
    parser = FaceParser(cache, jobs, workers)
    try:
        tick = step("parse", sum(len(c.faces) for c in cards)) if step else None
        parser.start(cards, tick)  # the workers parse while the tables below are written
        source_mana = {c.oracle_id: source_produced_mana(c) for c in cards}  # bad values → data_quality
        record_issues(con, (i for _, issues in source_mana.values() for i in issues))
        insert_rows(con, "cards", columns_of("cards"), (
            (c.oracle_id, c.name, c.layout, c.mana_cost, c.mana_value, c.type_line, c.oracle_text,
             c.colors, c.color_identity, c.keywords, [], source_mana[c.oracle_id][0], *card_facts(c)) for c in cards))
        insert_rows(con, "faces", columns_of("faces"), (
            (c.oracle_id, f.face_index, f.name, f.mana_cost, f.type_line, f.oracle_text, f.power, f.toughness,
             f.loyalty, f.defense) for c in cards for f in c.faces))
        load_card_data(con, cards, source)  # printings, legalities, card_names (pipeline/store/card_data.py)
        insert_rows(con, "other_objects", columns_of("other_objects"), (
            (o.oracle_id, o.name, o.layout, o.type_line, o.oracle_text) for o in collection.other.values()))
        insert_rows(con, "rulings", columns_of("rulings"), (
            (ruling_id(r.oracle_id, r.published_at, r.comment), r.oracle_id, r.source, r.published_at, r.comment)
            for r in collection.rulings.values()))
        rulings_done = _annotate_rulings(con, rules_text) if rules_text is not None else None
        if while_parsing is not None:
            while_parsing()
        drop_printings(cards)  # written (card data) and digested: ≈ 150 MB of the corpus's peak RSS freed before derive


        insert_rows(con, "abilities", columns_of("abilities"), parser.ability_rows(cards))
        insert_rows(con, "parse_cache", columns_of("parse_cache"), parser.cache_rows())
        parsed = parser.parsed
    finally:
        parser.close()
    del parser  # every face's records and AST JSON are in the tables now: free them before derive and annotate
    fault_point("parse")
    counts = {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
              for t in ("cards", "faces", "abilities", "rulings", "printings", "other_objects", "legalities",
                        "card_names")}
    # the cards' features (annotate) in worker processes while this one derives (many cards only)
    features = _start_features(con, rulings_done, jobs) if rulings_done is not None else None
    try:
        con.execute("BEGIN")  # derive's DDL, UPDATE and INSERT statements in one commit, not one each
        counts.update(derive(con))  # produced mana (pipeline/derive)
        # (derive's last count is read with fetchone(), which leaves its result open: DuckDB refuses the next
        # register() until another execute() closes it, here the COMMIT)
        con.execute("COMMIT")
        fault_point("load")
        if rulings_done is not None:
            counts.update(_annotate_abilities(con, rulings_done, features))  # inferred rules, ruling links
            fault_point("annotate")
    finally:
        if features is not None:
            features.close()
    # Quarantined records (pipeline/sources/records.py): keep the previous version of their cards.
    issues, kept = keep_previous(con, db_path, [f.issue for f in collection.flags])
    record_issues(con, issues)
    if kept:
        counts.update({t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                       for t in ("cards", "faces", "abilities", "rulings", "printings")})
    counts["quarantined"] = sum(1 for i in issues if i.action in ("quarantined", "kept_previous"))
    counts["kept_previous"] = kept
    con.execute("BEGIN")  # the CREATE VIEW and COMMENT ON statements in one commit: 1.2–1.5 → 0.1 s wall (corpus)
    create_views(con)  # SQL views over the ASTs (pipeline/store/views.py), after derive and annotate
    con.execute("COMMIT")
    meta = {
        "schema_version": str(SCHEMA_VERSION),
        "grammar_version": GRAMMAR_VERSION,
        "built_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "source": source.kind,
        "source_version": source.version,
        "text_conflicts": str(len(collection.text_conflicts)),
        "rules_effective_date": str(parse_effective_date(rules_text) or "unknown") if rules_text is not None else "none",
    }
    con.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
    return BuildResult(counts, parsed)
