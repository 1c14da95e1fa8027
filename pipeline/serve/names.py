"""Find a card (or a token, emblem, plane… in ``other_objects``) by a name a user types.

Names are compared folded: lower case, accents stripped (DuckDB ``strip_accents``), ``æ`` as
``ae`` and typographic apostrophes as ``'`` — so "Jotun Grunt" finds Jötun Grunt, "Lim-Dul's
Vault" finds Lim-Dûl's Vault and "aether vial" finds Æther Vial. A name is any English card or
face name or any printed/translated name in ``card_names`` ("Llanowarelfen"). With no match,
:func:`find_name` raises LookupError listing the closest names (Jaro-Winkler similarity of the
folded names).
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb


def fold_sql(expr: str) -> str:
    """SQL folding ``expr`` (a VARCHAR expression) for name comparison (see the module docstring)."""
    return (f"replace(replace(replace(strip_accents(lower(trim({expr}))), 'æ', 'ae'), '’', ''''), "
            f"'‘', '''')")


@dataclass(frozen=True)
class NameMatch:
    """A name lookup result: ``kind`` 'card' (``cards``) or 'other' (``other_objects``), its
    ``oracle_id`` (None for an other object without one), its ``name`` and ``layout``."""

    kind: str
    oracle_id: str | None
    name: str
    layout: str | None


def _tables(con) -> set[str]:
    return {r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()}


def _candidates(tables: set[str]) -> str:
    """SQL of (kind, oracle_id, name, layout, looked_up, rank): every name a lookup may match."""
    parts = ["SELECT 'card' AS kind, oracle_id, name, layout, name AS looked_up, 0 AS rank FROM cards",
             "SELECT 'card', c.oracle_id, c.name, c.layout, f.name, 1 FROM faces f JOIN cards c USING (oracle_id)"]
    if "card_names" in tables:
        parts.append("SELECT 'card', c.oracle_id, c.name, c.layout, n.name, 2 FROM card_names n "
                     "JOIN cards c USING (oracle_id)")
    if "other_objects" in tables:
        parts.append("SELECT 'other', oracle_id, name, layout, name, 3 FROM other_objects")
    return " UNION ALL ".join(parts)


def find_name(con: duckdb.DuckDBPyConnection, name: str, *, kinds: tuple[str, ...] = ("card", "other"),
              suggestions: int = 5) -> NameMatch:
    """The card or object named ``name`` (exact name first, then folded; cards before other objects).

    ``kinds``: which of 'card', 'other' may match. Raises LookupError naming ``name`` and the
    ``suggestions`` closest names when nothing matches.
    """
    sql = _candidates(_tables(con))
    wanted = list(kinds)
    row = con.execute(
        f"SELECT kind, oracle_id, name, layout FROM ({sql}) WHERE list_contains(?, kind) AND "
        f"(looked_up = ? OR {fold_sql('looked_up')} = {fold_sql('?')}) "
        f"ORDER BY looked_up = ? DESC, rank, name, oracle_id LIMIT 1",
        [wanted, name, name, name]).fetchone()
    if row is not None:
        return NameMatch(*row)
    close = [r[0] for r in con.execute(
        f"SELECT looked_up FROM (SELECT DISTINCT looked_up FROM ({sql}) WHERE list_contains(?, kind)) "
        f"ORDER BY jaro_winkler_similarity({fold_sql('looked_up')}, {fold_sql('?')}) DESC, looked_up LIMIT ?",
        [wanted, name, suggestions]).fetchall()]
    hint = f"; closest names: {', '.join(close)}" if close else ""
    raise LookupError(f"no card named {name!r} in the database{hint}")
