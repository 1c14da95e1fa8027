"""Incremental build: when few cards changed, rebuild only their rows, in a copy of the previous database.

**What changed.** Every build records a digest per oracle id in ``card_digests``: sha256 of every
field of the normalized records that carry that id — the :class:`~pipeline.normalize.model.OracleCard`
(faces, printings and any field a source reader adds), the non-card objects and the rulings —
plus two build-wide keys: ``#rules`` (the Comprehensive Rules text) and ``#code`` (the source of
``pipeline/``, ``grammar/`` and ``data/*.csv``). A refresh compares the new digests with the
recorded ones: the ids whose digest differs, is new or is gone are *changed*. A ruling text shared
by several cards changes how each of them is linked (:mod:`pipeline.annotate.ruling_links`), so the
cards holding a ruling text that a changed card gained or lost are rebuilt too (*affected*).
For MTGJSON sources the build also records each oracle id's *source digest* (keys ``#source:<id>``):
the next refresh then normalizes only the records whose source digest changed and carries the
other ids' digests over (:mod:`pipeline.normalize.source_records`); the cards an incremental build
needs beyond those (ruling-text neighbours) are normalized from the kept records
(:func:`pipeline.store.build.expand_sources`).

**When.** Only when the previous database has the current schema and grammar version, the same
``#rules`` and ``#code`` digests, no unfolded write-ahead log, and at most :data:`MAX_SHARE` of
the ids are affected; else (and with ``refresh --force``) the build is cold
(:func:`pipeline.store.build.build_database`).

**How.** The affected cards (with their other objects, and every ruling that shares a text with
theirs, for context) go through the same stages as a cold build (:func:`pipeline.store.build._fill`:
parse through the parse cache, derive, annotate) into a small scratch database
``<db>.tmp-<pid>.sub``. The previous database is copied to ``<db>.tmp-<pid>``; in the copy, every
table keyed by card loses the affected ids' rows and receives the scratch database's rows of those
ids — generically, for any table a stage adds:

* a table with an ``oracle_id`` column is keyed by it (rows with NULL there form the group ``''``:
  objects without an oracle id);
* else one with a ``ruling_id`` column is keyed through ``rulings``; else one with ``ability_id``
  through ``abilities``;
* a table with none of these (``rules``, ``glossary``) depends only on the CR text and the code, which
  are unchanged, and is kept as it is. The changelog's history tables (:data:`HISTORY`) are kept and
  this run's changes appended (:func:`pipeline.store.changes.record_changes` against the original
  file, as in a cold build). ``meta`` comes from the scratch build; ``parse_cache``,
  ``source_files``, ``card_digests`` and ``runs`` are written as a cold build writes them. A
  quarantined record's card kept from the previous database (:mod:`pipeline.store.quarantine`) is
  copied into the scratch build by the same code as in a cold build.

Then the copy is checkpointed and swapped in with :func:`os.replace`, exactly like a cold build: a
failure or a kill at any point leaves the previous database untouched (the scratch files are
leftovers :func:`pipeline.store.leftovers.clean_leftovers` removes). The result equals a cold build
of the same sources table by table except ``runs``, ``meta.built_at``, ``parse_cache`` and row
order (tests/test_refresh_incremental.py compares fingerprints).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
import shutil
from dataclasses import dataclass, fields, is_dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Callable, Sequence

import orjson

from pipeline.deadline import disarm as disarm_deadline
from pipeline.normalize.collect import CardCollection
import pipeline
from pipeline.paths import DATA_DIR, GRAMMAR_DIR

#: Largest share of oracle ids that may be affected for an incremental build (past it, cold is as fast).
MAX_SHARE = 0.25
#: The table of digests (module docstring) and its build-wide keys.
DIGESTS = "card_digests"
RULES_KEY, CODE_KEY = "#rules", "#code"
#: History tables kept from build to build (the changelog, pipeline/store/changes.py): never merged per card.
HISTORY = frozenset({"card_changes", "ability_changes"})
#: Tables the merge does not touch row by row (written like a cold build writes them).
SPECIAL = frozenset({"meta", "runs", "parse_cache", "source_files", DIGESTS}) | HISTORY
#: Key columns in order of preference → (table that maps the key to oracle_id, its key column).
KEYS = (("oracle_id", None), ("ruling_id", "rulings"), ("ability_id", "abilities"))


def _canon(value):
    """``value`` as JSON-able data with a stable order (sets sorted, dataclasses as field dicts)."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _canon(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, (set, frozenset)):
        return sorted((_canon(v) for v in value), key=json.dumps)
    if isinstance(value, (list, tuple)):
        return [_canon(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _canon(v) for k, v in value.items()}
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    return value


def _default(value):
    """orjson's fallback for what it does not encode: sets as sorted lists (stable order)."""
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=lambda v: orjson.dumps(v, default=_default))
    raise TypeError(type(value).__name__)


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def record_json(record, lenient: bool = False) -> bytes:
    """Canonical JSON bytes of one normalized record (a dataclass): its field values in field order.

    Fast path: one :func:`orjson.dumps` of the list of field values, a top-level dict with non-string
    keys (``OracleCard.printings``, keyed by tuple) as its list of items; nested dataclasses, dates and
    tuples are encoded by orjson, sets sorted. Anything orjson refuses goes through :func:`_canon` and
    :func:`json.dumps` (``lenient``: values of no JSON type as ``str``).
    """
    names = _FIELD_NAMES.get(type(record))
    if names is None:
        names = _FIELD_NAMES[type(record)] = tuple(f.name for f in fields(record))
    values = []
    for name in names:
        value = getattr(record, name)
        if type(value) is dict and value and any(type(k) is not str for k in value):
            value = list(value.items())
        values.append(value)
    try:
        return orjson.dumps(values, default=_default)
    except TypeError:  # a value orjson cannot encode (or a str it refuses): the general, slower form
        return json.dumps(_canon(record), ensure_ascii=False, default=str if lenient else None).encode()


def card_digests(collection: CardCollection) -> dict[str, str]:
    """Digest per oracle id ('' for objects without one) of every normalized record carrying it (module docstring)."""
    # sha256 of each record (its JSON is dropped at once), then of the sorted record digests per id
    groups: dict[str, list[bytes]] = {}
    sha = hashlib.sha256
    for oracle_id, card in collection.cards.items():
        groups.setdefault(oracle_id, []).append(sha(b"card" + record_json(card)).digest())
    for obj in collection.other.values():
        groups.setdefault(obj.oracle_id or "", []).append(sha(b"other" + record_json(obj)).digest())
    for ruling in collection.rulings.values():
        groups.setdefault(ruling.oracle_id or "", []).append(sha(b"ruling" + record_json(ruling)).digest())
    for flag in collection.flags:  # data_quality rows (records quarantined, values ignored: pipeline/sources/records.py)
        issue = flag.issue
        groups.setdefault(issue.oracle_id or "", []).append(sha(b"flag" + record_json(issue, lenient=True)).digest())
    return {k: sha(b"".join(sorted(v))).hexdigest() for k, v in groups.items()}


@functools.lru_cache(maxsize=1)
def code_digest() -> str:
    """sha256 of the code and data that shape the tables: ``pipeline/**/*.py``, ``grammar/*.lark``, ``data/*.csv``
    (computed once per process)."""
    digest = hashlib.sha256()
    code = Path(pipeline.__file__).resolve().parent
    for root, pattern in ((code, "*.py"), (GRAMMAR_DIR, "*.lark"), (DATA_DIR, "*.csv")):
        for path in sorted(root.rglob(pattern)):
            digest.update(f"{root.name}/{path.relative_to(root)}".encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def build_digests(collection: CardCollection, rules_text: str | None, sources=None) -> dict[str, str]:
    """Every ``card_digests`` entry of a build of ``collection`` with ``rules_text``.

    ``sources``: the :class:`pipeline.normalize.ingest.SourceRead` it came from, whose source
    digests (``#source:`` keys, :mod:`pipeline.normalize.source_records`) are recorded too; when it
    was an incremental read, the card digests of the groups it did not normalize are carried over.
    """
    from pipeline.normalize.source_records import source_digest_rows

    digests = card_digests(collection)
    if sources is not None and sources.carried is not None:
        digests.update((k, v) for k, v in sources.carried.items() if k not in digests)
    if sources is not None and sources.records is not None:
        digests.update(source_digest_rows(sources.records, collection))
    digests[RULES_KEY] = hashlib.sha256(rules_text.encode()).hexdigest() if rules_text is not None else "none"
    digests[CODE_KEY] = code_digest()
    return digests


@dataclass
class Plan:
    """An incremental build to do: ``affected`` oracle ids ('' = objects without one), the new ``digests``."""

    affected: set[str]
    digests: dict[str, str]


def _open_previous_build(db_path: Path):
    """The previous database opened read-only, or None when there is none or it has an unfolded write-ahead log."""
    from pipeline.store.runs import open_previous

    if db_path.with_name(db_path.name + ".wal").exists():
        return None
    return open_previous(db_path)


def _current_digests(con) -> dict[str, str] | None:
    """The ``card_digests`` of the open previous database ``con`` when it has the current schema and
    grammar version, else None."""
    from pipeline.parse import GRAMMAR_VERSION
    from pipeline.store.schema import SCHEMA_VERSION

    try:
        meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
        old = dict(con.execute(f"SELECT key, digest FROM {DIGESTS}").fetchall())
    except Exception:  # duckdb.Error: a database from before card_digests
        return None
    if meta.get("schema_version") != str(SCHEMA_VERSION) or meta.get("grammar_version") != GRAMMAR_VERSION:
        return None
    return old


def previous_digests(db_path: Path) -> dict[str, str] | None:
    """The previous build's ``card_digests`` when an incremental build over it may be possible (same
    schema, grammar and ``#code``, no unfolded write-ahead log; the ``#rules`` digest and the share of
    changed cards are checked later by :func:`plan_incremental`), else None. For
    :func:`pipeline.normalize.ingest.collect_sources`, which then normalizes only changed records."""
    con = _open_previous_build(db_path)
    if con is None:
        return None
    try:
        old = _current_digests(con)
    finally:
        con.close()
    return old if old is not None and old.get(CODE_KEY) == code_digest() else None


def ruling_text_holders(db_path: Path, texts: set[str]) -> set[str]:
    """Oracle ids ('' for none) holding a ruling with one of ``texts`` in the previous database at ``db_path``."""
    from pipeline.store.runs import open_previous

    con = open_previous(db_path) if texts else None
    if con is None:
        return set()
    try:
        return {r[0] for r in con.execute(
            "SELECT DISTINCT coalesce(oracle_id, '') FROM rulings WHERE comment IN (SELECT unnest($1::VARCHAR[]))",
            [sorted(texts)]).fetchall()}
    finally:
        con.close()


def plan_incremental(db_path: Path, collection: CardCollection, digests: dict[str, str]) -> Plan | None:
    """Return the :class:`Plan` of an incremental build of ``collection`` over ``db_path``, or None
    when a cold build is needed (module docstring: **When**)."""
    con = _open_previous_build(db_path)
    if con is None:
        return None
    try:
        old = _current_digests(con)
        if not old or any(old.get(k) != digests[k] for k in (RULES_KEY, CODE_KEY)):
            return None
        changed = {k for k in old.keys() | digests.keys() if not k.startswith("#") and old.get(k) != digests.get(k)}
        ids = sorted(changed)
        old_texts: dict[str, set[str]] = {}
        for oracle_id, comment in con.execute(
                "SELECT coalesce(oracle_id, ''), comment FROM rulings WHERE coalesce(oracle_id, '') IN "
                "(SELECT unnest($1::VARCHAR[]))", [ids]).fetchall():
            old_texts.setdefault(oracle_id, set()).add(comment)
        new_texts: dict[str, set[str]] = {}
        for r in collection.rulings.values():
            if (r.oracle_id or "") in changed:
                new_texts.setdefault(r.oracle_id or "", set()).add(r.comment)
        moved = set().union(*(old_texts.get(i, set()) ^ new_texts.get(i, set()) for i in ids)) if ids else set()
        affected = set(changed)
        if moved:  # cards sharing a ruling text a changed card gained or lost
            affected.update(r[0] for r in con.execute(
                "SELECT DISTINCT coalesce(oracle_id, '') FROM rulings WHERE comment IN (SELECT unnest($1::VARCHAR[]))",
                [sorted(moved)]).fetchall())
            affected.update(r.oracle_id or "" for r in collection.rulings.values() if r.comment in moved)
    finally:
        con.close()
    total = sum(1 for k in digests if not k.startswith("#"))
    if len(affected) > MAX_SHARE * max(total, 1):
        return None
    return Plan(affected, digests)


def subset(collection: CardCollection, affected: set[str]) -> CardCollection:
    """The part of ``collection`` an incremental build rebuilds: the affected cards and other objects,
    their rulings and every ruling sharing a text with those (so that shared texts are seen as shared);
    the flags (data_quality) whole: their rows are merged by oracle id like every card-keyed table."""
    texts = {r.comment for r in collection.rulings.values() if (r.oracle_id or "") in affected}
    # every other field (flags of quarantined records, text_conflicts, any a reader adds) as in the whole collection
    return dataclasses.replace(
        collection,
        cards={k: c for k, c in collection.cards.items() if k in affected},
        other={k: o for k, o in collection.other.items() if (o.oracle_id or "") in affected},
        rulings={k: r for k, r in collection.rulings.items() if (r.oracle_id or "") in affected or r.comment in texts})


def _tables(con, catalog: str) -> list[str]:
    return [r[0] for r in con.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_catalog = ? AND table_type = 'BASE TABLE' "
        "ORDER BY table_name", [catalog]).fetchall()]


def _columns(con, catalog: str, table: str) -> list[str]:
    return [r[0] for r in con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_catalog = ? AND table_name = ? "
        "ORDER BY ordinal_position", [catalog, table]).fetchall()]


def _ident(name: str) -> str:
    """``name`` as a quoted SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


def merge(con, main: str, sub: str) -> list[str]:
    """Replace the rows of the oracle ids in temp table ``_affected`` in every card-keyed table of
    catalog ``main`` by those of catalog ``sub`` (module docstring: **How**); return the tables merged.

    Raises ValueError when the two catalogs do not hold the same tables and columns (then the
    caller builds cold).
    """
    tables = [t for t in _tables(con, main) if t not in SPECIAL]
    if set(tables) != {t for t in _tables(con, sub) if t not in SPECIAL}:
        raise ValueError("the scratch build has other tables than the previous database")
    plan = []
    for table in tables:
        cols = _columns(con, main, table)
        if sorted(cols) != sorted(_columns(con, sub, table)):
            raise ValueError(f"table {table}: other columns in the scratch build")
        key = next(((k, via) for k, via in KEYS if k in cols), None)
        if key is not None:
            plan.append((table, *key))
    main, sub = _ident(main), _ident(sub)
    ids = "(SELECT oracle_id FROM _affected)"
    null = "(SELECT bool_or(oracle_id = '') FROM _affected)"

    def where(catalog: str, column: str, via: str | None) -> str:
        if via is None:
            return f"({column} IN {ids} OR ({column} IS NULL AND {null}))"
        return (f"{column} IN (SELECT {column} FROM {catalog}.{via} WHERE oracle_id IN {ids} "
                f"OR (oracle_id IS NULL AND {null}))")

    # tables keyed through rulings/abilities first: their old rows are found through the old rulings/abilities
    for table, column, via in sorted(plan, key=lambda p: p[2] is None):
        con.execute(f"DELETE FROM {main}.{table} WHERE {where(main, column, via)}")
    for table, column, via in plan:
        con.execute(f"INSERT INTO {main}.{table} BY NAME SELECT * FROM {sub}.{table} WHERE {where(sub, column, via)}")
    return [p[0] for p in plan]


def apply_incremental(db_path: Path, plan: Plan, collection: CardCollection, source, run_row: Callable,
                      *, rules_text: str | None, step=None, source_files: Sequence = (), jobs: int = 1,
                      record_initial: bool = False):
    """Build ``collection`` into ``db_path`` incrementally (module docstring) and swap it in atomically.

    Returns :class:`pipeline.store.build.BuildResult` (counts of the whole new database). Raises
    what the stages raise; the previous database stays untouched and the scratch files are removed.
    """
    import duckdb

    from pipeline.faults import fault_point
    from pipeline.parse import GRAMMAR_VERSION
    from pipeline.store.abilities import face_text_hash
    from pipeline.store.build import BuildResult, _fill, _remove, read_previous, write_source_files
    from pipeline.store.changes import record_changes
    from pipeline.store.data_quality import stamp_run_id
    from pipeline.store.ddl import sql_literal, without_comments
    from pipeline.store.schema import columns_of

    sub_collection = subset(collection, plan.affected)
    hashes = sorted({face_text_hash(f.name, f.type_line, f.oracle_text)
                     for c in sub_collection.cards.values() for f in c.faces})
    _, cache = read_previous(db_path, only=hashes)  # the runs history is in the copy already
    tmp = db_path.with_name(f"{db_path.name}.tmp-{os.getpid()}")
    sub_path = tmp.with_name(tmp.name + ".sub")
    for p in (tmp, sub_path):
        _remove(p)
    try:
        sub = duckdb.connect(str(sub_path))
        try:
            with without_comments():  # only the scratch build's rows are merged: its comments would be wasted
                built = _fill(sub, sub_collection, source, cache, rules_text, step, db_path, jobs)
            sub.execute("CHECKPOINT")
        finally:
            sub.close()
        shutil.copyfile(db_path, tmp)
        con = duckdb.connect(str(tmp))
        try:
            con.execute(f"ATTACH {sql_literal(str(sub_path))} AS scratch (READ_ONLY)")
            main = con.execute("SELECT current_database()").fetchone()[0]
            con.execute("CREATE TEMP TABLE _affected (oracle_id VARCHAR)")
            if plan.affected:  # none: the same cards under a new source version (e.g. another copy of the CR)
                con.executemany("INSERT INTO _affected VALUES (?)", [(k,) for k in sorted(plan.affected)])
            con.execute("BEGIN")
            merge(con, main, "scratch")
            # meta from the scratch build (same keys and values as a cold build); the caches as a cold build has them
            con.execute("DELETE FROM meta")
            con.execute("INSERT INTO meta SELECT * FROM scratch.meta")
            # the texts of every face now in the database (the whole collection's; an incremental read holds only some)
            used = sorted({face_text_hash(name, type_line, text) for name, type_line, text in
                           con.execute("SELECT name, type_line, oracle_text FROM faces").fetchall()})
            con.execute("DELETE FROM parse_cache WHERE grammar_version <> ? OR text_hash NOT IN "
                        "(SELECT unnest($2::VARCHAR[]))", [GRAMMAR_VERSION, used])
            con.execute("INSERT INTO parse_cache SELECT * FROM scratch.parse_cache WHERE text_hash NOT IN "
                        "(SELECT text_hash FROM parse_cache)")
            write_source_files(con, source_files)
            write_digests(con, plan.digests)
            counts = {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                      for t in _tables(con, main) if t not in SPECIAL}
            counts.update({k: built.counts[k] for k in ("quarantined", "kept_previous") if k in built.counts})
            row = run_row(counts, built.parsed)
            con.execute("UPDATE data_quality SET run_id = NULL")  # every row describes this database, as in a cold build
            counts["data_quality"] = stamp_run_id(con, row[0])
            # the changelog: this run's diff against the original file (its history is in the copy already)
            changes = record_changes(con, db_path, row[0], grammar_version=GRAMMAR_VERSION,
                                     record_initial=record_initial, carry_history=False)
            con.executemany(f"INSERT INTO runs VALUES ({', '.join('?' * len(columns_of('runs')))})", [row])
            con.execute("COMMIT")
            fault_point("changes")
            con.execute("DETACH scratch")
            con.execute("CHECKPOINT")
        finally:
            con.close()
        _remove(sub_path)
        fault_point("before_swap")
        disarm_deadline()  # past this point the refresh has succeeded (pipeline/deadline.py)
        os.replace(tmp, db_path)
    except BaseException:
        _remove(tmp)
        _remove(sub_path)
        raise
    result = BuildResult(counts, built.parsed, changes)
    result.rebuilt = set(plan.affected)
    return result


def write_digests(con, digests: dict[str, str]) -> None:
    """Replace the ``card_digests`` rows of the open database ``con`` with ``digests``."""
    from pipeline.store.ddl import insert_rows

    con.execute(f"DELETE FROM {DIGESTS}")
    insert_rows(con, DIGESTS, ("key", "digest"), sorted(digests.items()))  # one bulk insert, not 24k INSERTs
