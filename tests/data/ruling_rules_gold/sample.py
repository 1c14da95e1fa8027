"""Draw the gold-set sample of rulings (README.md beside this file says how and why).

Usage: ``python tests/data/ruling_rules_gold/sample.py DB [N]`` with ``DB`` a database built
from the MTGJSON 2022 corpus; prints CSV rows (ruling_id, card, published_at, part, comment)
in stratum order. The draw is deterministic: same database → same sample.
"""

from __future__ import annotations

import csv
import hashlib
import random
import sys

import duckdb

SEED = 20261201
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


def draw(con: duckdb.DuckDBPyConnection, n: int = 280) -> list[tuple]:
    """Return ``n`` (ruling_id, card, published_at, part, comment) rows, stratified by kind × era."""
    rows = con.execute("""
        SELECT r.ruling_id, c.name, r.published_at, r.comment, c.type_line, c.oracle_id
        FROM rulings r JOIN cards c USING (oracle_id)
        ORDER BY c.oracle_id, r.published_at, r.ruling_id""").fetchall()
    seen: set[str] = set()
    strata: dict[tuple[str, str], list[tuple]] = {}
    for rid, name, date, comment, type_line, _ in rows:
        if comment in seen:
            continue
        seen.add(comment)
        strata.setdefault((card_kind(type_line), era(date.year)), []).append((rid, name, date, comment))
    total = sum(len(v) for v in strata.values())
    rng = random.Random(SEED)
    out: list[tuple] = []
    for key in sorted(strata):
        pool = strata[key]
        k = min(len(pool), max(4, round(n * len(pool) / total)))
        for rid, name, date, comment in rng.sample(pool, k):
            out.append((rid, name, date.isoformat(), part(rid), comment))
    return out


if __name__ == "__main__":
    db = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 280
    with duckdb.connect(db, read_only=True) as con:
        writer = csv.writer(sys.stdout)
        writer.writerow(["ruling_id", "card", "published_at", "part", "comment"])
        writer.writerows(draw(con, count))
