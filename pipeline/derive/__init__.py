"""Derive stage: properties computed from ability ASTs — produced mana (CR 106.7, 305.6, 605).

:func:`derive` fills a freshly built database; the per-ability and per-face logic lives in
:mod:`pipeline.derive.mana` as pure functions of AST dicts (also used by ``parse --jsonl``).
"""

from __future__ import annotations

import json

import duckdb

from pipeline.derive.copies import KEYWORD_COPIES, copy_exception_rows
from pipeline.derive.mana import (
    analyze_ability,
    card_mana,
    face_mana,
    mana_ability_rows,
    produced_mana_for_face,
)
from pipeline.derive.schema import (
    CARD_COLUMNS,
    CHARACTERISTIC_EFFECTS,
    COPY_EXCEPTIONS,
    CREATED_TOKENS,
    MANA_ABILITIES,
    PRODUCED_MANA_COMMENT,
)
from pipeline.store.ddl import create_table, insert_rows, sql_literal


__all__ = ["derive", "produced_mana_for_face", "face_mana", "card_mana", "analyze_ability"]


#: JSON strings without which an ability's AST cannot add mana, grant it, create a token or
#: change types (``Action`` verbs "is" / "is_also", :mod:`pipeline.derive.effects`).
_MANA_MARKERS = ('"AddMana"', '"CreateToken"', '"GrantAbility"', '"is_also"', '"is"', '"LevelBlock"', '"ClassLevel"')


def derive(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    """Fill derived data in the open database ``con`` (tables ``cards``, ``faces``, ``abilities``
    already loaded, see pipeline/store/schema.py).

    * UPDATE ``cards.produced_mana``; ADD + fill ``cards.produced_mana_dependent`` BOOLEAN,
      ``cards.token_produced_mana`` VARCHAR[], ``cards.granted_produced_mana`` VARCHAR[]
      (definitions in :mod:`pipeline.derive.schema` and docs/mana.md), with column comments.
    * CREATE TABLE ``mana_abilities``: one row per ability that adds mana itself, plus one
      per intrinsic basic-land-type ability (CR 305.6) and per land type the card's own
      effect gives it (CR 305.7), with comments.
    * CREATE TABLE ``characteristic_effects`` (effects on objects' characteristics, CR 613)
      and ``created_tokens`` (tokens and who gets them, CR 111.2).

    Returns row counts: ``mana_abilities``, ``characteristic_effects``, ``created_tokens`` (rows), ``mana_ability_cards`` (cards with at least
    one mana ability, CR 605.1a/b), ``produced_mana_cards`` (cards with non-empty
    produced_mana), ``produced_mana_dependent_cards``, ``token_mana_cards``, ``granted_mana_cards``.
    Raises ValueError naming the ability id for an AST it cannot read.
    """
    faces: dict[str, list[tuple[int, str | None]]] = {}
    for oracle_id, face_index, type_line in con.execute(
            "SELECT oracle_id, face_index, type_line FROM faces ORDER BY oracle_id, face_index").fetchall():
        faces.setdefault(oracle_id, []).append((face_index, type_line))
    abilities: dict[tuple[str, int], list[tuple[str, dict]]] = {}
    for ability_id, oracle_id, face_index, ast in con.execute(
            "SELECT ability_id, oracle_id, face_index, CAST(ast AS VARCHAR) FROM abilities WHERE "
            + " OR ".join(f"contains(CAST(ast AS VARCHAR), '{m}')" for m in _MANA_MARKERS)
            + " ORDER BY oracle_id, face_index, ability_index").fetchall():
        if isinstance(ast, str) and not any(marker in ast for marker in _MANA_MARKERS):
            continue  # no node that can add, grant or make mana: contributes nothing
        try:
            node = json.loads(ast) if isinstance(ast, str) else ast
        except json.JSONDecodeError as exc:
            raise ValueError(f"abilities.ast of {ability_id}: not JSON ({exc})") from None
        abilities.setdefault((oracle_id, face_index), []).append((ability_id, node))

    card_rows = []
    mana_rows = []
    effect_rows = []
    token_rows = []
    for oracle_id in con.execute("SELECT oracle_id FROM cards ORDER BY oracle_id").fetchall():
        oracle_id = oracle_id[0]
        per_face = []
        for face_index, type_line in faces.get(oracle_id, []):
            abs_ = abilities.get((oracle_id, face_index), [])
            try:
                fm = face_mana([a for _, a in abs_], type_line)
            except ValueError as exc:
                raise ValueError(f"card {oracle_id} face {face_index}: {exc}") from None
            per_face.append(fm)
            ids = {a.get("index", i): aid for i, (aid, a) in enumerate(abs_)}
            for r in mana_ability_rows(fm):
                aid = ids.get(r["ability_index"]) if r["ability_index"] is not None else None
                mana_rows.append((aid, oracle_id, face_index, r["ability_index"], r["origin"], r["produces"],
                                  r["amount"], r["production_kind"], r["production_kinds"], r["has_tap_cost"],
                                  r["has_untap_cost"], r["is_triggered"], r["is_mana_ability"],
                                  r["ast_is_mana_ability"], r["is_dependent"], r["restrictions"], r["text"],
                                  r["recipients"], r["condition"], r["rule"]))
            for e in fm.effects:
                effect_rows.append((ids.get(e.ability_index), oracle_id, face_index, e.ability_index, e.effect, e.rule,
                                    e.affected, e.includes_self, e.includes_others, e.zone, e.condition, e.values,
                                    e.grants_mana, e.pt, e.text))
            for index, t in fm.tokens:
                token_rows.append((ids.get(index), oracle_id, face_index, index, t.token, t.count, t.recipient,
                                   t.recipient_kind, t.may_be_yours, t.produces))
        total = per_face[0] if per_face else None
        for fm in per_face[1:]:
            total = total.merge(fm)
        if total is None:
            card_rows.append((oracle_id, [], False, [], []))
        else:
            card_rows.append((oracle_id, total.produced, total.dependent, total.token, total.granted))

    defaults = {"BOOLEAN": "false", "VARCHAR[]": "[]"}
    for col, type_, comment in CARD_COLUMNS:
        con.execute(f"ALTER TABLE cards ADD COLUMN IF NOT EXISTS {col} {type_} DEFAULT {defaults[type_]}")
        con.execute(f"UPDATE cards SET {col} = {defaults[type_]} WHERE {col} IS DISTINCT FROM {defaults[type_]}")
    for col, text in [("produced_mana", PRODUCED_MANA_COMMENT)] + [(c, t) for c, _, t in CARD_COLUMNS]:
        con.execute(f"COMMENT ON COLUMN cards.{col} IS {sql_literal(text)}")
    con.execute("UPDATE cards SET produced_mana = [] WHERE produced_mana IS DISTINCT FROM []")
    # Only cards with something to record are updated (updating list columns of every row is slow).
    changed = [r for r in card_rows if r[1] or r[2] or r[3] or r[4]]
    if changed:
        import pandas as pd
        df = pd.DataFrame(changed, columns=["oracle_id", "produced_mana", "produced_mana_dependent",
                                            "token_produced_mana", "granted_produced_mana"])
        con.register("_derive_cards", df)
        con.execute("""
            UPDATE cards SET produced_mana = CAST(d.produced_mana AS VARCHAR[]),
                             produced_mana_dependent = d.produced_mana_dependent,
                             token_produced_mana = CAST(d.token_produced_mana AS VARCHAR[]),
                             granted_produced_mana = CAST(d.granted_produced_mana AS VARCHAR[])
            FROM _derive_cards d WHERE cards.oracle_id = d.oracle_id""")
        con.unregister("_derive_cards")

    table_comment, columns = MANA_ABILITIES
    create_table(con, "mana_abilities", table_comment, columns, replace=True)
    if mana_rows:
        mdf = pd.DataFrame(mana_rows, columns=[c for c, _, _ in columns])
        con.register("_derive_mana", mdf)
        casts = ", ".join(f"CAST({c} AS {t.split()[0]}) AS {c}" for c, t, _ in columns)
        con.execute(f"INSERT INTO mana_abilities SELECT {casts} FROM _derive_mana")
        con.unregister("_derive_mana")

    copy_rows = []
    markers = ['"CopyException"'] + [f'"{k}"' for k, kc in KEYWORD_COPIES.items() if kc.exceptions]
    for ability_id, oracle_id, ast in con.execute(
            "SELECT ability_id, oracle_id, CAST(ast AS VARCHAR) FROM abilities WHERE "
            + " OR ".join(f"contains(CAST(ast AS VARCHAR), '{m}')" for m in markers)
            + " ORDER BY oracle_id, face_index, ability_index").fetchall():
        for r in copy_exception_rows(json.loads(ast)):
            copy_rows.append((ability_id, oracle_id, r["path"], r["source"], r["position"], r["kind"], r["text"],
                              r["rule"], r["rules"], r["operation"], r["characteristic"], r["applies_if"],
                              r["condition"], r["types"], r["supertypes_removed"], r["colors"], r["pt"], r["loyalty"],
                              r["name"], r["mana_cost"], r["abilities"], json.dumps(r["counters"])))
    for (table_comment, columns), name, rows in ((CHARACTERISTIC_EFFECTS, "characteristic_effects", effect_rows),
                                                  (CREATED_TOKENS, "created_tokens", token_rows),
                                                  (COPY_EXCEPTIONS, "copy_exceptions", copy_rows)):
        create_table(con, name, table_comment, columns, replace=True)
        if rows:
            import pandas as pd
            insert_rows(con, name, [c for c, _, _ in columns],
                        pd.DataFrame(rows, columns=[c for c, _, _ in columns]))

    q = lambda sql: con.execute(sql).fetchone()[0]  # noqa: E731
    return {
        "mana_abilities": q("SELECT count(*) FROM mana_abilities"),
        "characteristic_effects": q("SELECT count(*) FROM characteristic_effects"),
        "created_tokens": q("SELECT count(*) FROM created_tokens"),
        "copy_exceptions": q("SELECT count(*) FROM copy_exceptions"),
        "mana_ability_cards": q("SELECT count(DISTINCT oracle_id) FROM mana_abilities WHERE is_mana_ability"),
        "produced_mana_cards": q("SELECT count(*) FROM cards WHERE len(produced_mana) > 0"),
        "produced_mana_dependent_cards": q("SELECT count(*) FROM cards WHERE produced_mana_dependent"),
        "token_mana_cards": q("SELECT count(*) FROM cards WHERE len(token_produced_mana) > 0"),
        "granted_mana_cards": q("SELECT count(*) FROM cards WHERE len(granted_produced_mana) > 0"),
    }
