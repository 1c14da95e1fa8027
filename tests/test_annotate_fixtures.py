"""Shared test input for the annotate tests: a small real-card database.

:func:`build_card_db` reads real MTGJSON set files from the corpus with the project's own
reader (``pipeline.normalize.ingest.collect``), keeps the named cards and writes the
``cards``, ``faces``, ``abilities`` and ``rulings`` tables of ``pipeline.store.schema``.
Abilities come from the grammar stage (``pipeline.store.abilities.parse_face_records``)
when it is importable; otherwise each Oracle line is one ability with NULL kind,
is_mana_ability and AST, so the annotate stage's text fallbacks are what is tested.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

import duckdb
import pandas as pd

from pipeline.normalize.facts import card_facts
from pipeline.normalize.ingest import collect
from pipeline.store.schema import SCHEMA_VERSION, TABLES, create_tables

CORPUS = Path(__file__).parents[1].parent / "shared" / "corpus"
MTGJSON = CORPUS / "mtgjson-v5-20220425"
CR_FILE = CORPUS / "comprehensive-rules" / "MagicCompRules-20260227.txt"

# Sets holding every card named in tests/data/inferred_rules_expected.csv.
SETS = ("M19", "DOM", "ELD", "AFR", "KHM", "EMN", "SHM", "SOI", "10E", "UST", "ISD")


def ruling_id(oracle_id: str, published_at, comment: str) -> str:
    """Same id as pipeline.store.build.ruling_id (first 16 hex of sha256)."""
    return hashlib.sha256(f"{oracle_id}\x1f{published_at}\x1f{comment}".encode()).hexdigest()[:16]


def _ability_records(face) -> tuple[list[dict], bool]:
    try:
        from pipeline.store.abilities import parse_face_records
    except ImportError:
        parse_face_records = None
    if parse_face_records is not None:
        return parse_face_records(face.name, face.type_line, face.oracle_text), True
    lines = [ln for ln in face.oracle_text.split("\n") if ln.strip()]
    return [{"text": ln, "kind": None, "is_mana_ability": None, "fully_parsed": False, "ast": None}
            for ln in lines], False


def _insert(con, table: str, rows: list[tuple]) -> None:
    if rows:
        df = pd.DataFrame(rows, columns=[c for c, _, _ in TABLES[table][1]])
        con.register("_rows", df)
        con.execute(f"INSERT INTO {table} SELECT * FROM _rows")
        con.unregister("_rows")


@lru_cache(maxsize=2)
def _collection(sets: tuple[str, ...]):
    """Read the set files once per test session (the collection is only read afterwards)."""
    collection, _ = collect([MTGJSON / f"{s}.json.gz" for s in sets])
    return collection


@lru_cache(maxsize=None)
def _face_records(name: str, type_line: str | None, oracle_text: str) -> tuple[tuple[dict, ...], bool]:
    class _Face:
        pass
    face = _Face()
    face.name, face.type_line, face.oracle_text = name, type_line, oracle_text
    records, parsed = _ability_records(face)
    return tuple(records), parsed


def build_card_db(names: set[str], sets=SETS) -> tuple[duckdb.DuckDBPyConnection, bool]:
    """Return (an in-memory database with the named real cards and their rulings,
    whether the grammar stage produced the abilities). Names are full card names
    (``"Bonecrusher Giant // Stomp"``). Raises LookupError naming any card not found."""
    collection = _collection(tuple(sets))
    cards = [c for c in collection.cards.values() if c.name in names]
    missing = names - {c.name for c in cards}
    if missing:
        raise LookupError(f"cards not in sets {sets}: {sorted(missing)}")
    con = duckdb.connect()
    create_tables(con)
    con.execute("INSERT INTO meta VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)])
    _insert(con, "cards", [(c.oracle_id, c.name, c.layout, c.mana_cost, c.mana_value, c.type_line, c.oracle_text,
                            c.colors, c.color_identity, c.keywords, [], c.source_produced_mana, *card_facts(c))
                           for c in cards])
    _insert(con, "faces", [(c.oracle_id, f.face_index, f.name, f.mana_cost, f.type_line, f.oracle_text, f.power,
                            f.toughness, f.loyalty, f.defense) for c in cards for f in c.faces])
    ids = {c.oracle_id for c in cards}
    _insert(con, "rulings", [(ruling_id(r.oracle_id, r.published_at, r.comment), r.oracle_id, r.source,
                              r.published_at, r.comment)
                             for r in collection.rulings.values() if r.oracle_id in ids])
    rows, parsed = [], False
    for c in cards:
        for f in c.faces:
            records, parsed = _face_records(f.name, f.type_line, f.oracle_text)
            for i, rec in enumerate(records):
                ast = json.dumps(rec["ast"], ensure_ascii=False) if rec["ast"] is not None else None
                rows.append((f"{c.oracle_id}:{f.face_index}:{i}", c.oracle_id, f.face_index, i, rec["text"],
                             rec["kind"], rec["is_mana_ability"], rec["fully_parsed"], ast))
    _insert(con, "abilities", rows)
    return con, parsed
