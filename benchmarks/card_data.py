"""What the card-data tables cost on a cold MTGJSON refresh (59,634 printing records of the 2022 set files).

Prints, in seconds: reading and normalizing the set files (``collect``, which now builds one
:class:`~pipeline.normalize.model.Printing` per record), the card-level facts
(:func:`~pipeline.normalize.facts.card_facts`), and loading ``printings``, ``legalities`` and
``card_names`` through Arrow (:func:`~pipeline.store.card_data.load_card_data`), with row counts.
Run from the project root: ``python benchmarks/card_data.py``. Figures on a loaded shared machine
are inflated; the ratio of the card-data stages to ``collect`` is what to compare.
"""

from __future__ import annotations

import time
from pathlib import Path

import duckdb

from pipeline.normalize.facts import card_facts
from pipeline.normalize.ingest import collect
from pipeline.store.card_data import load_card_data
from pipeline.store.schema import create_tables

SETS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "mtgjson-v5-20220425"


def main() -> None:
    t0 = time.perf_counter()
    collection, info = collect([SETS])
    t1 = time.perf_counter()
    cards = list(collection.cards.values())
    for card in cards:
        card_facts(card)
    t2 = time.perf_counter()
    con = duckdb.connect()
    create_tables(con)
    counts = load_card_data(con, cards, info)
    t3 = time.perf_counter()
    printings = sum(len(c.printings) for c in cards)
    print(f"collect (read, validate, normalize): {t1 - t0:.2f} s for {len(cards):,} cards, {printings:,} printings")
    print(f"card_facts: {t2 - t1:.2f} s; load printings/legalities/card_names: {t3 - t2:.2f} s "
          f"({counts['printings']:,} / {counts['legalities']:,} / {counts['card_names']:,} rows)")
    print(f"card-data stages / collect: {(t3 - t1) / (t1 - t0):.0%}")


if __name__ == "__main__":
    main()
