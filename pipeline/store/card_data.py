"""Load the card-data tables: ``printings``, ``legalities`` and ``card_names`` (all keyed by oracle_id).

Rows are built column by column into Arrow tables and inserted with one ``INSERT … SELECT``
each (DuckDB reads the Arrow buffers directly: no row-wise inserts). The ``cards`` columns
drawn from printings come from :func:`pipeline.normalize.facts.card_facts`.
"""

from __future__ import annotations

import gc
from datetime import date, datetime
from operator import attrgetter
from typing import Sequence

import duckdb
import pyarrow as pa

from pipeline.normalize.facts import card_name_rows, legality_rows
from pipeline.normalize.model import OracleCard, SourceInfo
from pipeline.sources.scryfall import IMAGE_SIZES, PRICE_KEYS
from pipeline.store.ddl import insert_rows
from pipeline.store.schema import columns_of

_IMAGE_TYPE = pa.list_(pa.struct([("face_index", pa.int32())] + [(s, pa.string()) for s in IMAGE_SIZES]))

#: Arrow type of each printings column (DuckDB casts on insert: prices string → DECIMAL).
_ARROW_TYPES: dict[str, pa.DataType] = {
    "released_at": pa.date32(), "games": pa.list_(pa.string()), "digital": pa.bool_(), "promo": pa.bool_(),
    "full_art": pa.bool_(), "is_funny": pa.bool_(), "multiverse_ids": pa.list_(pa.int64()),
    "mtgo_id": pa.int64(), "arena_id": pa.int64(), "tcgplayer_id": pa.int64(), "cardmarket_id": pa.int64(),
    "image_uris": _IMAGE_TYPE, "prices_date": pa.date32(),
}


def snapshot_date(source: SourceInfo) -> date | None:
    """The date of the card file's snapshot, from the source version, or None when it has none.

    A Scryfall download's version names each bulk file with its ``updated_at``
    (``oracle_cards@2026-11-29T09:02:11.512+00:00 rulings@… rules=…``): the card file's date is
    the snapshot's. A bare timestamp is taken as is. Local files are versioned by content hash
    and give None: the prices' date is then unknown.
    """
    for part in (source.version or "").split():
        kind, sep, stamp = part.rpartition("@")
        if sep and kind == "rulings":
            continue
        try:
            return datetime.fromisoformat(stamp.replace("Z", "+00:00")).date()
        except ValueError:
            continue
    return None


def printings_table(cards: Sequence[OracleCard], prices_date: date | None) -> pa.Table:
    """One Arrow row per printing of ``cards`` (in the cards' and their printings' order), in ``printings`` column order."""
    names = columns_of("printings")
    prices_at = names.index("price_usd")
    plain = names[1:prices_at]  # the Printing attributes of the same name, after oracle_id
    get = attrgetter(*plain)
    rows = []
    for card in cards:
        for p in card.printings.values():
            prices = p.prices or {}
            rows.append((card.oracle_id, *get(p), *(prices.get(k) for k in PRICE_KEYS),
                         prices_date if any(prices.values()) else None))
    columns = list(zip(*rows)) if rows else [()] * len(names)
    return pa.table({n: pa.array(list(col), type=_ARROW_TYPES.get(n, pa.string())) for n, col in zip(names, columns)})


def load_card_data(con: duckdb.DuckDBPyConnection, cards: Sequence[OracleCard], source: SourceInfo) -> dict[str, int]:
    """Insert ``printings``, ``legalities`` and ``card_names`` for ``cards``; return their row counts.

    The cyclic garbage collector is paused meanwhile: the rows are tuples of strings, numbers and
    dates (no reference cycles), and each of its passes would rescan every object of the whole
    collection (measured: the load takes about twice as long with it running).
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        counts = {"printings": insert_rows(con, "printings", columns_of("printings"),
                                           printings_table(cards, snapshot_date(source)))}
        legal = [row for c in cards for row in legality_rows(c)]
        counts["legalities"] = insert_rows(con, "legalities", columns_of("legalities"), _columns(legal, "legalities"))
        names = [row for c in cards for row in card_name_rows(c)]
        counts["card_names"] = insert_rows(con, "card_names", columns_of("card_names"), _columns(names, "card_names"))
    finally:
        if paused:
            gc.enable()
    return counts


def _columns(rows: list[tuple], table: str) -> pa.Table:
    names = columns_of(table)
    columns = list(zip(*rows)) if rows else [()] * len(names)
    return pa.table({n: pa.array(list(col), type=pa.string()) for n, col in zip(names, columns)})
