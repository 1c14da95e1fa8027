"""The card changelog: what each refresh changed, kept from build to build like ``runs``.

At build time both databases are at hand: the previous file (still at the database path until
the swap) and the new one being written. :func:`record_changes` attaches the previous file
read-only to the new connection and compares them card by card (oracle_id), writing

* ``card_changes`` — one row per change a refresh made to a card: ``added``, ``removed``,
  ``name``, ``type_line``, ``mana_cost``, ``faces`` (layout or face names), ``oracle_text`` (one
  row per face whose *normalized* text differs — the parser's normalization, so MTGJSON's
  ``[+1]:`` and Scryfall's ``+1:``, U+2212 and curly quotes are the same text — with the raw
  texts kept), ``legality`` (one row per format whose status changed, once both builds have a
  ``legalities`` table), ``produced_mana`` and ``abilities`` (the card's ability ASTs differ;
  ``detail`` is how many abilities). ``cause`` says why where it can be told: ``source`` (the
  card's data changed) or ``grammar`` (same data, the grammar version changed); NULL otherwise.
* ``ability_changes`` — for every Oracle text change, which abilities were ``added``,
  ``removed`` or ``changed``; abilities are matched by normalized text first, then by position.

Bounded by design (docs/schema.md, README § What changed):

* The first build of a database path records nothing unless asked (``record_initial``: one
  ``added`` row per card), so a new database does not start with 20,000 rows of noise.
* A grammar-version change records one ``abilities`` row per card whose ASTs changed (with
  the count in ``detail``), never one row per ability.
* ``removed`` is an oracle id of the previous build absent from the new one; a card
  quarantined in this run (``data_quality``) is not a removal.
* The history lives in the new file, so it survives the atomic swap; a failed build's file is
  discarded, so a failed refresh records no changes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import duckdb

from pipeline.parse.normalize import normalize_text
from pipeline.store.ddl import comment_relation, create_table, insert_rows, sql_literal

#: Closed list of ``card_changes.change`` values.
CHANGE_KINDS = ("added", "removed", "name", "type_line", "mana_cost", "faces", "oracle_text", "legality",
                "produced_mana", "abilities")

#: Closed list of ``ability_changes.change`` values.
ABILITY_CHANGE_KINDS = ("added", "removed", "changed")

CHANGE_TABLES: dict[str, tuple[str, list[tuple[str, str, str]]]] = {
    "card_changes": ("Every change a refresh made to a card, one row per change, oldest run first; carried over "
                     "from database to database like `runs` (README § What changed).", [
        ("run_id", "INTEGER", "The refresh that made the change (runs.run_id)."),
        ("oracle_id", "VARCHAR", "The card (cards.oracle_id; for 'removed', the oracle id of the previous build)."),
        ("name", "VARCHAR", "Card name in the new build (the old name for 'removed')."),
        ("change", "VARCHAR", "What changed: added, removed, name, type_line, mana_cost, faces, oracle_text, "
                              "legality, produced_mana or abilities."),
        ("cause", "VARCHAR", "'source' (the card's data changed), 'grammar' (same data, a new grammar version "
                             "parsed it differently) or NULL when it cannot be told."),
        ("face_index", "INTEGER", "The face of an 'oracle_text' change (faces.face_index), else NULL."),
        ("detail", "VARCHAR", "The format of a 'legality' change; the number of abilities of an 'abilities' "
                              "change; else NULL."),
        ("old_value", "VARCHAR", "Value before (raw text; JSON for lists and objects); NULL for 'added'."),
        ("new_value", "VARCHAR", "Value after (raw text; JSON for lists and objects); NULL for 'removed'."),
    ]),
    "ability_changes": ("Abilities added, removed or changed by an Oracle text change (errata), one row each; "
                        "matched by normalized text first, then by position; carried over like `runs`.", [
        ("run_id", "INTEGER", "The refresh that made the change (runs.run_id)."),
        ("oracle_id", "VARCHAR", "The card (cards.oracle_id)."),
        ("face_index", "INTEGER", "The face (faces.face_index)."),
        ("change", "VARCHAR", "'added', 'removed' or 'changed' (same place, other text)."),
        ("old_index", "INTEGER", "abilities.ability_index in the previous build; NULL for 'added'."),
        ("new_index", "INTEGER", "abilities.ability_index in the new build; NULL for 'removed'."),
        ("old_kind", "VARCHAR", "Ability kind before (docs/ast.md); NULL for 'added'."),
        ("new_kind", "VARCHAR", "Ability kind after; NULL for 'removed'."),
        ("old_text", "VARCHAR", "The ability line before, as printed; NULL for 'added'."),
        ("new_text", "VARCHAR", "The ability line after, as printed; NULL for 'removed'."),
        ("is_mana_ability", "BOOLEAN", "True when the ability is a mana ability (CR 605.1) before or after."),
    ]),
}

#: Views over the changelog: (name, comment, {column: comment}, SQL).
_RUN_COLUMNS = {"changed_at": "When the run that made the change finished (runs.finished_at, UTC).",
                "source_version": "The source version that run read (runs.source_version)."}
CHANGE_VIEWS = (
    ("change_log", "card_changes with the time and source version of the run that made each change.", _RUN_COLUMNS,
     "SELECT c.*, r.finished_at AS changed_at, r.source_version FROM card_changes c "
     "LEFT JOIN runs r USING (run_id)"),
    ("latest_changes", "The changes of the most recent successful build (change_log rows of its run).", _RUN_COLUMNS,
     "SELECT * FROM change_log WHERE run_id = (SELECT max(run_id) FROM runs WHERE status = 'ok')"),
)

_PREV = "_previous_build"


@dataclass
class _Ability:
    index: int
    text: str
    norm: str
    kind: str
    mana: bool
    ast: str


def create_change_tables(con: duckdb.DuckDBPyConnection) -> None:
    """Create ``card_changes`` and ``ability_changes`` (empty, with comments) in ``con``."""
    for table, (comment, columns) in CHANGE_TABLES.items():
        create_table(con, table, comment, columns)


def create_change_views(con: duckdb.DuckDBPyConnection) -> None:
    """Create the views of :data:`CHANGE_VIEWS` with their comments (needs ``runs`` and ``card_changes``)."""
    for name, comment, column_comments, sql in CHANGE_VIEWS:
        con.execute(f"CREATE OR REPLACE VIEW {name} AS {sql}")
        comments = {c: text for c, _, text in CHANGE_TABLES["card_changes"][1]} | column_comments
        comment_relation(con, name, comment, comments, kind="VIEW")


def record_changes(con: duckdb.DuckDBPyConnection, previous_db: Path, run_id: int, *, grammar_version: str,
                   record_initial: bool = False, carry_history: bool = True) -> dict[str, int]:
    """Compare the new database ``con`` with ``previous_db`` and write this run's changelog rows.

    ``con`` holds the complete new build (cards, faces, abilities, derived produced_mana, and
    ``legalities`` where the build has one); :func:`create_change_tables` must have run on it.
    The history of ``previous_db`` (its ``card_changes`` and ``ability_changes``) is copied first,
    unless ``carry_history`` is False (an incremental build, :mod:`pipeline.store.incremental`,
    works in a copy of the previous file, which holds that history already).
    With no previous database (missing, empty, or without cards) only ``record_initial`` adds
    rows: one ``added`` per card. Returns ``{change kind: rows written by this run}``.
    Raises duckdb.Error when the previous file cannot be read.
    """
    previous_db = Path(previous_db)
    has_previous = previous_db.exists() and previous_db.stat().st_size > 0
    if has_previous:
        con.execute(f"ATTACH {sql_literal(str(previous_db))} AS {_PREV} (READ_ONLY)")
    try:
        if has_previous and carry_history:
            _carry_history(con)
        if not has_previous or not _has_table(con, _PREV, "cards") or \
                con.execute(f"SELECT count(*) FROM {_PREV}.cards").fetchone()[0] == 0:
            if record_initial:
                con.execute("INSERT INTO card_changes (run_id, oracle_id, name, change, cause) "
                            "SELECT ?, oracle_id, name, 'added', 'source' FROM cards", [run_id])
            return _counts(con, run_id)
        old_grammar = con.execute(f"SELECT value FROM {_PREV}.meta WHERE key = 'grammar_version'").fetchone()
        grammar_changed = old_grammar is None or old_grammar[0] != grammar_version
        _ChangeFinder(con, run_id, grammar_changed).run()
        return _counts(con, run_id)
    finally:
        if has_previous:
            con.execute(f"DETACH {_PREV}")


def _has_table(con, catalog: str, table: str) -> bool:
    return con.execute("SELECT count(*) FROM duckdb_tables() WHERE database_name = ? AND table_name = ?",
                       [catalog, table]).fetchone()[0] > 0


def _columns(con, catalog: str, table: str) -> list[str]:
    return [r[0] for r in con.execute("SELECT column_name FROM duckdb_columns() WHERE database_name = ? AND "
                                      "table_name = ? ORDER BY column_index", [catalog, table]).fetchall()]


def _carry_history(con) -> None:
    """Copy the previous build's changelog rows, matching columns by name (a missing one is NULL)."""
    for table in CHANGE_TABLES:
        if not _has_table(con, _PREV, table):
            continue
        have = set(_columns(con, _PREV, table))
        wanted = [name for name, _, _ in CHANGE_TABLES[table][1]]
        select = ", ".join(f'"{c}"' if c in have else "NULL" for c in wanted)
        con.execute(f"INSERT INTO {table} SELECT {select} FROM {_PREV}.{table}")


def _counts(con, run_id: int) -> dict[str, int]:
    return dict(con.execute("SELECT change, count(*) FROM card_changes WHERE run_id = ? GROUP BY change "
                            "ORDER BY change", [run_id]).fetchall())


class _ChangeFinder:
    """One comparison of the new build (main catalog) with the previous one (:data:`_PREV`)."""

    def __init__(self, con, run_id: int, grammar_changed: bool):
        self.con = con
        self.run_id = run_id
        self.grammar_cause = "grammar" if grammar_changed else None
        self.rows: list[tuple] = []
        self.ability_rows: list[tuple] = []
        self.source_changed: set[str] = set()

    def add(self, oracle_id, name, change, cause, face_index=None, detail=None, old=None, new=None) -> None:
        self.rows.append((self.run_id, oracle_id, name, change, cause, face_index, detail, old, new))

    def run(self) -> None:
        self._added_removed()
        self._card_fields()
        self._faces()
        self._oracle_texts()
        self._legalities()
        self._produced_mana()
        self._abilities()
        insert_rows(self.con, "card_changes", [n for n, _, _ in CHANGE_TABLES["card_changes"][1]],
                    sorted(self.rows, key=lambda r: (r[2] or "", r[1], CHANGE_KINDS.index(r[3]),
                                                     r[5] if r[5] is not None else -1, r[6] or "")))
        insert_rows(self.con, "ability_changes", [n for n, _, _ in CHANGE_TABLES["ability_changes"][1]],
                    self.ability_rows)

    def _query(self, sql: str, params=None) -> list[tuple]:
        return self.con.execute(sql.replace("prev.", f"{_PREV}."), params or []).fetchall()

    def _added_removed(self) -> None:
        for oracle_id, name in self._query("SELECT oracle_id, name FROM cards ANTI JOIN prev.cards USING (oracle_id)"):
            self.add(oracle_id, name, "added", "source")
        quarantined = ""
        if _has_table(self.con, self._catalog(), "data_quality"):
            quarantined = (f"AND oracle_id NOT IN (SELECT oracle_id FROM data_quality WHERE oracle_id IS NOT NULL "
                           f"AND run_id = {int(self.run_id)})")
        for oracle_id, name in self._query(f"SELECT oracle_id, name FROM prev.cards ANTI JOIN cards USING (oracle_id) "
                                           f"WHERE true {quarantined}"):
            self.add(oracle_id, name, "removed", "source")

    def _catalog(self) -> str:
        return self.con.execute("SELECT current_database()").fetchone()[0]

    def _card_fields(self) -> None:
        for column in ("name", "type_line", "mana_cost"):
            for oracle_id, name, old, new in self._query(
                    f"SELECT n.oracle_id, n.name, o.{column}, n.{column} FROM cards n JOIN prev.cards o "
                    f"USING (oracle_id) WHERE o.{column} IS DISTINCT FROM n.{column}"):
                self.add(oracle_id, name, column, "source", old=old, new=new)
                self.source_changed.add(oracle_id)

    def _faces(self) -> None:
        sql = ("SELECT c.oracle_id, c.name, to_json({'layout': c.layout, 'faces': list(f.name ORDER BY f.face_index)})"
               "::VARCHAR FROM <db>cards c JOIN <db>faces f USING (oracle_id) GROUP BY c.oracle_id, c.name, c.layout")
        old = {r[0]: r[2] for r in self._query(sql.replace("<db>", "prev."))}
        for oracle_id, name, new in self._query(sql.replace("<db>", "")):
            if oracle_id in old and old[oracle_id] != new:
                self.add(oracle_id, name, "faces", "source", old=old[oracle_id], new=new)
                self.source_changed.add(oracle_id)

    def _oracle_texts(self) -> None:
        """One row per face whose normalized Oracle text differs (raw texts kept)."""
        for oracle_id, card, index, old_name, old_type, old, new_name, new_type, new in self._query(
                "SELECT c.oracle_id, c.name, n.face_index, o.name, o.type_line, o.oracle_text, n.name, n.type_line, "
                "n.oracle_text FROM faces n JOIN prev.faces o USING (oracle_id, face_index) JOIN cards c "
                "USING (oracle_id) WHERE o.oracle_text IS DISTINCT FROM n.oracle_text"):
            if normalize_text(old or "", old_name or "", old_type or "") == \
                    normalize_text(new or "", new_name or "", new_type or ""):
                continue
            self.add(oracle_id, card, "oracle_text", "source", face_index=index, old=old, new=new)
            self.source_changed.add(oracle_id)

    def _legalities(self) -> None:
        """One row per (card in both builds, format) whose status changed; only when both builds list legalities.

        A build that lists a format for some card but not for this one says the card is not legal
        there (MTGJSON lists only legal, banned and restricted formats); a format a build does not
        know at all (one added to the game later) gives no row: nothing can be told.
        """
        if not (_has_table(self.con, _PREV, "legalities") and _has_table(self.con, self._catalog(), "legalities")):
            return
        for oracle_id, name, fmt, old, new in self._query(
                "WITH known_new AS (SELECT DISTINCT format FROM legalities), "
                "known_old AS (SELECT DISTINCT format FROM prev.legalities), "
                "pairs AS (SELECT oracle_id, format, o.status AS old, n.status AS new "
                "          FROM legalities n FULL JOIN prev.legalities o USING (oracle_id, format)), "
                "judged AS (SELECT oracle_id, format, "
                "  coalesce(old, CASE WHEN format IN (SELECT format FROM known_old) THEN 'not_legal' END) AS old, "
                "  coalesce(new, CASE WHEN format IN (SELECT format FROM known_new) THEN 'not_legal' END) AS new "
                "  FROM pairs) "
                "SELECT j.oracle_id, c.name, j.format, j.old, j.new FROM judged j JOIN cards c USING (oracle_id) "
                "JOIN prev.cards USING (oracle_id) WHERE j.old IS NOT NULL AND j.new IS NOT NULL AND j.old <> j.new"):
            self.add(oracle_id, name, "legality", "source", detail=fmt, old=old, new=new)

    def _cause(self, oracle_id: str) -> str | None:
        return "source" if oracle_id in self.source_changed else self.grammar_cause

    def _produced_mana(self) -> None:
        for oracle_id, name, old, new in self._query(
                "SELECT n.oracle_id, n.name, to_json(o.produced_mana)::VARCHAR, to_json(n.produced_mana)::VARCHAR "
                "FROM cards n JOIN prev.cards o USING (oracle_id) "
                "WHERE o.produced_mana IS DISTINCT FROM n.produced_mana"):
            self.add(oracle_id, name, "produced_mana", self._cause(oracle_id), old=old, new=new)

    def _abilities(self) -> None:
        """'abilities' rows (one per card whose ASTs differ) and, for changed texts, ability_changes rows.

        Cards whose data is unchanged are compared in SQL, ability by ability (same text, so same
        positions), when the grammar changed; cards whose data changed are matched in Python
        (:func:`_match`).
        """
        def ast(t: str) -> str:  # leave out the grammar version and the raw line (its normalized form is kept)
            return f"json_merge_patch({t}.ast, '{{\"grammar_version\": null, \"text\": null}}')::VARCHAR"

        def described(t: str) -> str:
            return (f"to_json(list({{'ability_index': {t}.ability_index, 'kind': {t}.kind, 'text': {t}.text}} "
                    f"ORDER BY {t}.face_index, {t}.ability_index))::VARCHAR")

        self.con.execute("CREATE OR REPLACE TEMP TABLE _source_changed (oracle_id VARCHAR)")
        insert_rows(self.con, "_source_changed", ["oracle_id"], [(i,) for i in sorted(self.source_changed)])
        # Same grammar and same text give the same AST (the parser is deterministic): compare the
        # ASTs of unchanged cards only when the grammar version changed.
        unchanged_cards = [] if self.grammar_cause is None else self._query(
                f"SELECT n.oracle_id, c.name, count(*), {described('o')}, {described('n')} "
                f"FROM abilities n JOIN prev.abilities o USING (ability_id) JOIN cards c ON c.oracle_id = n.oracle_id "
                f"WHERE n.oracle_id NOT IN (SELECT oracle_id FROM _source_changed) "
                f"AND {ast('o')} IS DISTINCT FROM {ast('n')} GROUP BY n.oracle_id, c.name ORDER BY n.oracle_id")
        for oracle_id, name, count, old_json, new_json in unchanged_cards:
            self.add(oracle_id, name, "abilities", self.grammar_cause, detail=str(count), old=old_json, new=new_json)
        sql = (f"SELECT a.oracle_id, a.face_index, a.ability_index, a.text, a.kind, a.is_mana_ability, {ast('a')}, "
               f"f.name, f.type_line FROM <db>abilities a JOIN <db>faces f USING (oracle_id, face_index) "
               f"WHERE a.oracle_id IN (SELECT oracle_id FROM _source_changed) "
               f"ORDER BY a.oracle_id, a.face_index, a.ability_index")
        old = _abilities_by_face(self._query(sql.replace("<db>", "prev.")))
        new = _abilities_by_face(self._query(sql.replace("<db>", "")))
        names = dict(self._query("SELECT oracle_id, name FROM cards WHERE oracle_id IN "
                                 "(SELECT oracle_id FROM _source_changed)"))
        per_card: dict[str, list] = {}
        for key in sorted(set(old) | set(new)):
            oracle_id, face_index = key
            for o, n in _match(old.get(key, []), new.get(key, [])):
                if o is not None and n is not None and o.norm == n.norm:
                    if o.ast != n.ast:  # same line, parsed differently
                        per_card.setdefault(oracle_id, []).append((o, n))
                    continue
                self.ability_rows.append(_ability_row(self.run_id, oracle_id, face_index, o, n))
                per_card.setdefault(oracle_id, []).append((o, n))
        for oracle_id, pairs in per_card.items():
            old_json = json.dumps([_describe(o) for o, _ in pairs if o is not None], ensure_ascii=False)
            new_json = json.dumps([_describe(n) for _, n in pairs if n is not None], ensure_ascii=False)
            self.add(oracle_id, names[oracle_id], "abilities", "source", detail=str(len(pairs)),
                     old=old_json, new=new_json)
        self.con.execute("DROP TABLE _source_changed")


def _abilities_by_face(rows) -> dict[tuple[str, int], list[_Ability]]:
    """Group (oracle_id, face_index, ability_index, text, kind, is_mana_ability, ast, face name, type line)
    rows into each face's abilities, with their normalized text."""
    out: dict[tuple[str, int], list[_Ability]] = {}
    for oracle_id, face_index, index, text, kind, mana, ast, face_name, type_line in rows:
        norm = normalize_text(text or "", face_name or "", type_line or "")
        out.setdefault((oracle_id, face_index), []).append(_Ability(index, text, norm, kind, bool(mana), ast))
    return out


def _match(before: list[_Ability], after: list[_Ability]) -> list[tuple[_Ability | None, _Ability | None]]:
    """Pair a face's abilities: equal normalized text first (nearest position), then the rest by position.

    Returns (old, new) pairs in new-position order, then the unpaired old abilities as (old, None).
    """
    free = list(before)
    pairs: dict[int, _Ability | None] = {}
    for n in after:
        same = [o for o in free if o.norm == n.norm]
        if same:
            o = min(same, key=lambda a: abs(a.index - n.index))
            free.remove(o)
            pairs[n.index] = o
    rest_new = [n for n in after if n.index not in pairs]
    for n, o in zip(rest_new, list(free)):
        pairs[n.index] = o
        free.remove(o)
    out = [(pairs.get(n.index), n) for n in after]
    return out + [(o, None) for o in free]


def _ability_row(run_id: int, oracle_id: str, face_index: int, o: _Ability | None, n: _Ability | None) -> tuple:
    change = "added" if o is None else "removed" if n is None else "changed"
    return (run_id, oracle_id, face_index, change,
            o.index if o else None, n.index if n else None, o.kind if o else None, n.kind if n else None,
            o.text if o else None, n.text if n else None, bool((o and o.mana) or (n and n.mana)))


def _describe(a: _Ability) -> dict:
    return {"ability_index": a.index, "kind": a.kind, "text": a.text}
