"""The ``data_quality`` table: one row per source value the build did not take as given.

Shared by every stage that meets bad source data (docs/reliability.md § Quarantine):

* the normalizer (``pipeline/normalize``) quarantines a record whose fields fail validation
  (action ``quarantined`` when the card is absent from the new database, ``kept_previous`` when
  its version from the previous database was kept instead — a quarantine is never a removal);
* the derive stage (``pipeline/derive``) records a source value it ignored, e.g. a Scryfall
  ``produced_mana`` of ``"1"`` (action ``ignored``).

The rows describe the database they are in: each build writes the rows of its own run (the
table is produced per build, not carried over; the ``runs`` history says how many earlier runs
had). Stages call :func:`record_issues` on the open build connection with ``run_id`` unknown;
:func:`stamp_run_id` (called by :func:`pipeline.store.build.build_database`) fills it in.

Usage::

    from pipeline.store.data_quality import DataQualityIssue, record_issues
    record_issues(con, [DataQualityIssue(source_file="cards.jsonl", record="#17 (id='…')",
                                         oracle_id="…", field="produced_mana", value=["1"],
                                         action="ignored")])
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable

import duckdb

#: What happened to the record or value. ``quarantined``: record left out, card absent (it was
#: not in the previous database); ``kept_previous``: record left out, the card's rows from the
#: previous database kept; ``ignored``: the value was dropped and the record loaded without it.
ACTIONS: frozenset[str] = frozenset({"quarantined", "kept_previous", "ignored"})

#: Longest ``value`` stored, in characters (longer values are cut and end with '…').
MAX_VALUE_CHARS = 200

TABLE = "data_quality"

TABLE_COMMENT = ("Source values this build did not take as given, one row each: records quarantined by "
                 "validation (docs/reliability.md § Quarantine) and source values ignored by a stage "
                 "(e.g. a bad Scryfall produced_mana); rows of the run that built this database.")

COLUMNS: list[tuple[str, str, str]] = [
    ("run_id", "INTEGER", "The run that built this database (runs.run_id)."),
    ("source_file", "VARCHAR", "The source file the value was read from (NULL when not from a file)."),
    ("record", "VARCHAR", "Record locator in that file: '#index (id=…, name=…)' (index from 0) or a key path."),
    ("oracle_id", "VARCHAR", "The card's oracle_id where the record has a usable one, else NULL."),
    ("field", "VARCHAR", "The offending field, as a path in the source record (e.g. 'colors[0]', "
                         "'card_faces[1].mana_cost', 'identifiers.scryfallOracleId')."),
    ("value", "VARCHAR", f"The offending value as JSON (cut to {MAX_VALUE_CHARS} characters), NULL when absent."),
    ("action", "VARCHAR", "What was done: 'quarantined' (record left out, card absent), 'kept_previous' "
                          "(record left out, the card's previous version kept) or 'ignored' (value dropped, "
                          "record loaded without it)."),
]


@dataclass(frozen=True)
class DataQualityIssue:
    """One ``data_quality`` row before its run is known.

    ``value``: the offending source value, any JSON-able Python value (stored as JSON text,
    cut to :data:`MAX_VALUE_CHARS`); ``action``: one of :data:`ACTIONS`. ``oracle_id`` None
    where the record has no usable oracle_id; ``source_file`` None when not read from a file.
    """

    source_file: str | None
    record: str | None
    oracle_id: str | None
    field: str
    value: Any
    action: str

    def row(self) -> tuple:
        """The row without run_id: (source_file, record, oracle_id, field, value-as-JSON, action)."""
        return (self.source_file, self.record, self.oracle_id, self.field, value_text(self.value), self.action)


def value_text(value: Any) -> str | None:
    """``value`` as JSON text (non-JSON values by ``repr``), cut to :data:`MAX_VALUE_CHARS` characters."""
    if value is None:
        return None
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=True, default=repr)
    except (ValueError, RecursionError):  # circular or absurdly deep: a repr is enough to find it
        text = repr(value)
    return text if len(text) <= MAX_VALUE_CHARS else text[:MAX_VALUE_CHARS - 1] + "…"


def record_issues(con: duckdb.DuckDBPyConnection, issues: Iterable[DataQualityIssue]) -> int:
    """Insert ``issues`` into ``data_quality`` of the database being built (run_id NULL until stamped).

    The table must exist (it is created with the schema, :func:`pipeline.store.schema.create_tables`).
    Returns the number of rows inserted. Raises ValueError for an action outside :data:`ACTIONS`.
    """
    rows = []
    for issue in issues:
        if issue.action not in ACTIONS:
            raise ValueError(f"data_quality action {issue.action!r} is not one of {sorted(ACTIONS)}")
        rows.append(issue.row())
    if rows:
        con.executemany(f"INSERT INTO {TABLE} (source_file, record, oracle_id, field, value, action) "
                        f"VALUES (?, ?, ?, ?, ?, ?)", rows)
    return len(rows)


def stamp_run_id(con: duckdb.DuckDBPyConnection, run_id: int) -> int:
    """Set ``run_id`` on every row not stamped yet; return how many rows this build recorded."""
    con.execute(f"UPDATE {TABLE} SET run_id = ? WHERE run_id IS NULL", [run_id])
    return con.execute(f"SELECT count(*) FROM {TABLE} WHERE run_id = ?", [run_id]).fetchone()[0]


def count_issues(con: duckdb.DuckDBPyConnection, action: str | None = None) -> int:
    """Rows in ``data_quality`` (of ``action`` if given); 0 when the table does not exist (older database)."""
    try:
        if action is None:
            return con.execute(f"SELECT count(*) FROM {TABLE}").fetchone()[0]
        return con.execute(f"SELECT count(*) FROM {TABLE} WHERE action = ?", [action]).fetchone()[0]
    except duckdb.CatalogException:
        return 0
