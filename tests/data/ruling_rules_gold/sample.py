"""Draw the gold-set sample of rulings (README.md beside this file says how and why).

Usage: ``python tests/data/ruling_rules_gold/sample.py DB [N] [--fresh | --tune2]`` with ``DB`` a
database built from the MTGJSON 2022 corpus; prints CSV rows (ruling_id, card, published_at, part,
comment) in stratum order. The draw is deterministic: same database → same sample. ``--fresh`` draws
the held-back ``fresh`` part (``fresh.csv``): the same strata with :data:`FRESH_SEED`, every ruling
text already in ``gold.csv`` left out, part ``fresh``. ``--tune2`` draws the second tuning part
(``tune2.csv``): the same strata with :data:`TUNE2_SEED`, a proportional share of
:data:`TUNE2_SHARE`, every ruling text of ``gold.csv`` and ``fresh.csv`` left out, part ``tune2``.
"""

from __future__ import annotations

import csv
import hashlib
import random
import sys
from pathlib import Path

import duckdb

SEED = 20261201
FRESH_SEED = 20261203
TUNE2_SEED = 20261205
TUNE2_SHARE = 110
GOLD_CSV = Path(__file__).with_name("gold.csv")
FRESH_CSV = Path(__file__).with_name("fresh.csv")
KINDS = ("creature", "planeswalker", "instant/sorcery", "artifact", "enchantment", "land")


def card_kind(type_line: str) -> str:
    """The first of KINDS found on the front face's type line, else 'other'."""
    front = (type_line or "").split(" // ")[0].lower()
    for kind in KINDS:
        if any(word in front for word in kind.split("/")):
            return kind
    return "other"


def era(year: int) -> str:
    """Ruling era bucket."""
    return "≤2009" if year <= 2009 else "2010–2014" if year <= 2014 else "2015–2018" if year <= 2018 else "2019–2022"


def part(ruling_id: str) -> str:
    """The fixed split: 'report' when sha256('gold-split:' + ruling_id) starts with 0–7, else 'tune'."""
    return "report" if hashlib.sha256(f"gold-split:{ruling_id}".encode()).hexdigest()[0] in "01234567" else "tune"


def draw(con: duckdb.DuckDBPyConnection, n: int = 280, seed: int = SEED,
         exclude: frozenset[str] = frozenset(), label: str | None = None) -> list[tuple]:
    """Return about ``n`` (ruling_id, card, published_at, part, comment) rows, stratified by kind × era
    (at least 4 per stratum), drawn with ``random.Random(seed)``; ruling texts in ``exclude`` are never
    drawn; ``label`` replaces the split rule's part (``"fresh"``)."""
    rows = con.execute("""
        SELECT r.ruling_id, c.name, r.published_at, r.comment, c.type_line, c.oracle_id
        FROM rulings r JOIN cards c USING (oracle_id)
        ORDER BY c.oracle_id, r.published_at, r.ruling_id""").fetchall()
    seen: set[str] = set()
    strata: dict[tuple[str, str], list[tuple]] = {}
    for rid, name, date, comment, type_line, _ in rows:
        if comment in seen or comment in exclude:
            continue
        seen.add(comment)
        strata.setdefault((card_kind(type_line), era(date.year)), []).append((rid, name, date, comment))
    total = sum(len(v) for v in strata.values())
    rng = random.Random(seed)
    out: list[tuple] = []
    for key in sorted(strata):
        pool = strata[key]
        k = min(len(pool), max(4, round(n * len(pool) / total)))
        for rid, name, date, comment in rng.sample(pool, k):
            out.append((rid, name, date.isoformat(), label or part(rid), comment))
    return out


def known_texts(*paths: Path) -> frozenset[str]:
    """The ruling texts (``comment`` column) of the gold CSV files ``paths``."""
    out: set[str] = set()
    for path in paths:
        with path.open(encoding="utf-8", newline="") as fh:
            out.update(row["comment"] for row in csv.DictReader(fh))
    return frozenset(out)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a not in ("--fresh", "--tune2")]
    fresh, tune2 = "--fresh" in sys.argv[1:], "--tune2" in sys.argv[1:]
    db = args[0]
    count = int(args[1]) if len(args) > 1 else (50 if fresh else TUNE2_SHARE if tune2 else 280)
    with duckdb.connect(db, read_only=True) as con:
        writer = csv.writer(sys.stdout)
        writer.writerow(["ruling_id", "card", "published_at", "part", "comment"])
        if fresh:
            writer.writerows(draw(con, count, FRESH_SEED, known_texts(GOLD_CSV), "fresh"))
        elif tune2:
            writer.writerows(draw(con, count, TUNE2_SEED, known_texts(GOLD_CSV, FRESH_CSV), "tune2"))
        else:
            writer.writerows(draw(con, count))
