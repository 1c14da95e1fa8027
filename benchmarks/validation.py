"""Cost of the boundary validation (pipeline/sources/records.py) on the real corpora; prints figures, asserts nothing.

    python benchmarks/validation.py           # MTGJSON 2022 set files + the 2019 Scryfall file

Each record is validated three times; the best time is printed (µs per record and seconds in all),
beside the time json.load took to read the same records, for scale. Machine load inflates the figures.
"""

from __future__ import annotations

import gzip
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.sources.records import MtgjsonCard, ScryfallCard, check_record  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"


def best(records, model) -> float:
    times = []
    for _ in range(3):
        t = time.perf_counter()
        for i, r in enumerate(records):
            check_record(model, r, "bench", str(i))
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    t = time.perf_counter()
    mtgjson = []
    for f in sorted((CORPUS / "mtgjson-v5-20220425").glob("*.json.gz")):
        data = json.load(gzip.open(f))["data"]
        mtgjson += data.get("cards", []) + data.get("tokens", [])
    load_m = time.perf_counter() - t
    t = time.perf_counter()
    scryfall = json.load(gzip.open(CORPUS / "scryfall-2019" / "cards-2019.json.gz"))
    load_s = time.perf_counter() - t
    for name, records, model, load in (("MTGJSON 2022 set files", mtgjson, MtgjsonCard, load_m),
                                       ("Scryfall 2019", scryfall, ScryfallCard, load_s)):
        s = best(records, model)
        print(f"{name}: {len(records):,} records, validation {s:.2f} s ({s / len(records) * 1e6:.1f} µs/record); "
              f"json.load of the same files {load:.2f} s")


if __name__ == "__main__":
    main()
