"""Keep the previous version of a quarantined card: a quarantine is never a removal (docs/reliability.md § Quarantine).

When validation leaves a card's record out of a build (:mod:`pipeline.sources.records`) and the
card is absent from the new database but present in the previous one, its rows are copied from
the previous database into every per-card table (a table with an ``oracle_id`` column whose
columns — names and types, in order — are the same in both databases; the team keys per-card data
on oracle_id for this). Rows already present are not copied twice. The card then reads exactly as
it did before this run, ASTs included (of the grammar version that parsed them).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import duckdb

from pipeline.store.data_quality import DataQualityIssue
from pipeline.store.ddl import sql_literal

_PREV = "_previous_db"

#: Tables with an oracle_id column that are not per-card data: this build's data-quality rows and
#: the change history (pipeline/store/changes.py) are never copied per card.
NOT_PER_CARD = frozenset({"data_quality", "card_changes", "ability_changes"})


def _per_card_tables(con, database: str) -> dict[str, list[tuple[str, str]]]:
    rows = con.execute("SELECT table_name, column_name, data_type FROM duckdb_columns() "
                       "WHERE database_name = ? AND schema_name = 'main' AND NOT internal "
                       "AND table_name IN (SELECT table_name FROM duckdb_tables() WHERE database_name = ?) "
                       "ORDER BY table_name, column_index", [database, database]).fetchall()
    tables: dict[str, list[tuple[str, str]]] = {}
    for table, column, dtype in rows:
        tables.setdefault(table, []).append((column, dtype))
    return {t: cols for t, cols in tables.items()
            if t not in NOT_PER_CARD and any(c == "oracle_id" for c, _ in cols)}


def keep_previous(con: duckdb.DuckDBPyConnection, previous_db: Path,
                  issues: list[DataQualityIssue]) -> tuple[list[DataQualityIssue], int]:
    """Copy the previous rows of quarantined cards absent from the build ``con``; return (issues, cards kept).

    ``issues``: this build's data-quality rows; a 'quarantined' one whose oracle_id is absent
    from ``cards`` and present in the previous database's ``cards`` becomes 'kept_previous'.
    A missing, unreadable or busy previous database keeps nothing (the issues stay 'quarantined').
    """
    wanted = {i.oracle_id for i in issues if i.action == "quarantined" and i.oracle_id}
    if wanted:
        present = {r[0] for r in con.execute("SELECT oracle_id FROM cards WHERE list_contains(?, oracle_id)",
                                             [sorted(wanted)]).fetchall()}
        wanted -= present
    if not wanted or not previous_db.exists() or previous_db.stat().st_size == 0:
        return issues, 0
    try:
        con.execute(f"ATTACH {sql_literal(str(previous_db))} AS {_PREV} (READ_ONLY)")
    except duckdb.Error:
        return issues, 0
    try:
        ours = _per_card_tables(con, con.execute("SELECT current_database()").fetchone()[0])
        theirs = _per_card_tables(con, _PREV)
        if "cards" not in theirs:
            return issues, 0
        kept = {r[0] for r in con.execute(f"SELECT oracle_id FROM {_PREV}.main.cards WHERE list_contains(?, oracle_id)",
                                          [sorted(wanted)]).fetchall()}
        if not kept or ours.get("cards") != theirs["cards"]:
            return issues, 0
        ids = sorted(kept)
        for table, columns in ours.items():
            if theirs.get(table) != columns:
                continue  # schema changed: nothing of that table can be carried
            con.execute(f"INSERT INTO main.{table} SELECT * FROM {_PREV}.main.{table} "
                        f"WHERE list_contains($ids, oracle_id) EXCEPT "
                        f"SELECT * FROM main.{table} WHERE list_contains($ids, oracle_id)", {"ids": ids})
    finally:
        con.execute(f"DETACH {_PREV}")
    out = [dataclasses.replace(i, action="kept_previous") if i.action == "quarantined" and i.oracle_id in kept else i
           for i in issues]
    return out, len(kept)
