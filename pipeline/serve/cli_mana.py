"""``mtg-pipeline check-mana``: cards whose derived produced mana differs from the source's.

Where the source carries Scryfall's ``produced_mana`` the store keeps it in
``cards.source_produced_mana``; this command lists every card where ``cards.produced_mana``
(docs/mana.md § Produced mana) differs from it as a set, with the abilities involved and a
reason category (:data:`pipeline.derive.compare.CATEGORIES`).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import click

from pipeline.derive.compare import CATEGORIES, CardView, classify, mentions_adding_mana, normalize_reference
from pipeline.derive.mana import MANA_TYPES
from pipeline.paths import DB_ENV, default_db_path


class NotDerived(Exception):
    """The database has no derived mana columns (built without the derive stage)."""


def find_differences(con) -> tuple[int, list[dict]]:
    """Return ``(cards compared, differences)`` for an open DuckDB connection ``con``.

    Each difference: ``{"oracle_id", "name", "ours", "source", "category", "dependent",
    "token", "granted", "abilities": [{"origin", "produces", "production_kind", "is_mana_ability",
    "text"}], "unparsed": [texts], "bad_source_values": [JSON texts]}``; lists are WUBRGC letters.
    Cards whose ``source_produced_mana`` is NULL are not compared. A card whose source
    produced_mana had a value that is no mana type (a ``data_quality`` row, or such a value still
    in an older database) is listed under category ``source_value``, never an error. Raises
    NotDerived when the derive columns are missing.
    """
    cols = {r[0] for r in con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'cards'").fetchall()}
    tables = {r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()}
    if "produced_mana_dependent" not in cols or "mana_abilities" not in tables:
        raise NotDerived("the database has no derived mana (cards.produced_mana_dependent / mana_abilities); "
                         "rebuild it with `mtg-pipeline refresh --force`")
    cards = con.execute("""
        SELECT oracle_id, name, produced_mana, source_produced_mana, produced_mana_dependent,
               token_produced_mana, granted_produced_mana
        FROM cards WHERE source_produced_mana IS NOT NULL ORDER BY name, oracle_id""").fetchall()
    rows: dict[str, list] = {}
    for oid, origin, produces, kind, is_ma, text in con.execute("""
            SELECT m.oracle_id, origin, produces, production_kind, is_mana_ability, text
            FROM mana_abilities m JOIN cards c USING (oracle_id)
            WHERE c.source_produced_mana IS NOT NULL
            ORDER BY m.oracle_id, face_index, ability_index NULLS LAST""").fetchall():
        rows.setdefault(oid, []).append({"origin": origin, "produces": list(produces or []),
                                         "production_kind": kind, "is_mana_ability": is_ma, "text": text})
    bad_values: dict[str, list[str]] = {}
    if "data_quality" in tables:
        for oid, field, value in con.execute("""
                SELECT oracle_id, field, value FROM data_quality
                WHERE field LIKE 'produced_mana%' AND oracle_id IS NOT NULL ORDER BY oracle_id, field""").fetchall():
            bad_values.setdefault(oid, []).append(value)
    unparsed: dict[str, list[str]] = {}
    for oid, text in con.execute("""
            SELECT a.oracle_id, a.text FROM abilities a JOIN cards c USING (oracle_id)
            WHERE c.source_produced_mana IS NOT NULL
              AND NOT COALESCE(CAST(json_extract(a.ast, '$.no_unparsed') AS BOOLEAN), a.fully_parsed)
            ORDER BY a.oracle_id, a.face_index, a.ability_index""").fetchall():
        if mentions_adding_mana(text):
            unparsed.setdefault(oid, []).append(text)
    diffs = []
    for oid, name, ours, source, dependent, token, granted in cards:
        bad = list(bad_values.get(oid, []))
        good = [v for v in (source or []) if isinstance(v, str) and v in MANA_TYPES]
        # A database built before data_quality may still hold a bad letter: same category.
        bad += [json.dumps(v) for v in (source or []) if not (isinstance(v, str) and v in MANA_TYPES)]
        ref = normalize_reference(good)
        mana_rows = rows.get(oid, [])
        view = CardView(produced=list(ours or []), dependent=bool(dependent), token=list(token or []),
                        granted=list(granted or []),
                        basic_types=[t for r in mana_rows if r["origin"] == "basic_land_type" for t in r["produces"]],
                        kinds=[r["production_kind"] for r in mana_rows if r["production_kind"]],
                        unparsed_mana_lines=unparsed.get(oid, []))
        category = "source_value" if bad else classify(view, ref)
        if category is None:
            continue
        diffs.append({"oracle_id": oid, "name": name, "ours": view.produced, "source": ref,
                      "category": category, "dependent": view.dependent, "token": view.token,
                      "granted": view.granted, "abilities": mana_rows, "unparsed": view.unparsed_mana_lines,
                      "bad_source_values": bad})
    return len(cards), diffs


def _letters(types: list[str]) -> str:
    return "".join(types) or "-"


@click.command("check-mana")
@click.option("--db", "db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help=f"Database file (default: ${DB_ENV}, else the platform data dir).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: one block per card; json: one JSON object per line.")
@click.option("--category", "categories", multiple=True, type=click.Choice(sorted(CATEGORIES)),
              help="Only list these reason categories (repeatable).")
@click.option("--strict", is_flag=True, help="Exit with status 1 when any card differs.")
def check_mana(db, fmt, categories, strict):
    """List every card whose produced mana differs from the source's produced_mana.

    Compares cards.produced_mana (ours, docs/mana.md) with cards.source_produced_mana
    (Scryfall's, where the source has it) as sets of mana types, and prints for each
    difference the abilities involved and a reason category. A source value that is no mana
    type (recorded in data_quality) is listed under its own category, source_value. Exit status 0
    (1 with --strict and differences; 1 on a missing or underived database).
    """
    db_path = db if db is not None else default_db_path()
    if not db_path.exists():
        click.echo(f"error: {db_path}: no database here; build one with `mtg-pipeline refresh --db {db_path}`", err=True)
        sys.exit(1)
    from pipeline.store.runs import connect_retrying  # the one read path: waits out a refresh's run append

    con = connect_retrying(db_path, read_only=True)
    try:
        compared, diffs = find_differences(con)
    except (NotDerived, ValueError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    finally:
        con.close()
    counts = Counter(d["category"] for d in diffs)
    shown = [d for d in diffs if not categories or d["category"] in categories]
    if fmt == "json":
        for d in shown:
            click.echo(json.dumps(d, ensure_ascii=False))
    else:
        for d in shown:
            click.echo(f"{d['name']} ({d['oracle_id']}): ours {_letters(d['ours'])}, source {_letters(d['source'])}"
                       f" — {d['category']}: {CATEGORIES[d['category']]}")
            for r in d["abilities"]:
                flag = "mana ability" if r["is_mana_ability"] else "not a mana ability"
                click.echo(f"    [{r['origin']}, {r['production_kind']}, {flag}] {_letters(r['produces'])}: {r['text']}")
            for t in d["unparsed"]:
                click.echo(f"    [unparsed] {t}")
            for v in d["bad_source_values"]:
                click.echo(f"    [source value, not a mana type; data_quality] {v}")
            if d["token"]:
                click.echo(f"    tokens it creates: {_letters(d['token'])}")
            if d["granted"]:
                click.echo(f"    granted to others: {_letters(d['granted'])}")
        summary = ", ".join(f"{k} {v}" for k, v in counts.most_common()) or "none"
        click.echo(f"{compared} cards with source produced_mana; {len(diffs)} differ ({summary})")
    if strict and diffs:
        sys.exit(1)
