"""The DuckDB schema: every table with a one-line comment per table and column.

The comments are stored in the database (``COMMENT ON``), so ``docs/schema.md`` is generated
from a live database and cannot drift from it. Bump :data:`SCHEMA_VERSION` on any change
that an older reader could misread.
"""

from __future__ import annotations

import duckdb

from pipeline.store import data_quality
from pipeline.store.ddl import create_table

SCHEMA_VERSION = 1

#: Every key of the ``meta`` table → its one-line meaning (docs/schema.md lists them under ``meta``;
#: a test checks that a fresh build writes no key missing here).
META_KEYS: dict[str, str] = {
    "built_at": "When the database was built: ISO 8601 UTC timestamp, seconds.",
    "grammar_version": "Grammar version the ASTs were parsed with: the grammar's major version, '.', and the first 10 hex "
                       "digits of the sha256 of the grammar text (grammar/*.lark), e.g. '1.0123456789'.",
    "schema_version": "Schema version of this database (an integer); mtg-pipeline reads only databases of its own schema version.",
    "source": "Kinds of source files read, '+'-joined: 'mtgjson', 'scryfall' or 'mtgjson+scryfall'.",
    "source_version": "The source's own version: MTGJSON meta.version, Scryfall updated_at, or a content hash of local files.",
    "text_conflicts": "Number of oracle ids for which the sources gave two different Oracle texts for one face; "
                      "the first text read was kept.",
}

# table → (table comment, [(column, type, comment)])
TABLES: dict[str, tuple[str, list[tuple[str, str, str]]]] = {
    "meta": ("Key/value facts about this database, one row per key: " + ", ".join(META_KEYS) + " (meanings below).", [
        ("key", "VARCHAR PRIMARY KEY", "Fact name."),
        ("value", "VARCHAR", "Fact value, as text."),
    ]),
    "runs": ("Every refresh run, successful, unchanged or failed, oldest first; carried over from database to database.", [
        ("run_id", "INTEGER", "Sequential run number (1 = first run recorded for this database path)."),
        ("started_at", "TIMESTAMPTZ", "When the run started (UTC)."),
        ("finished_at", "TIMESTAMPTZ", "When the run ended (UTC)."),
        ("source", "VARCHAR", "What was read: 'bundled', a path, or a Scryfall bulk type."),
        ("source_version", "VARCHAR", "The source's own version: MTGJSON meta.version, Scryfall updated_at, or a content hash."),
        ("status", "VARCHAR", "'ok', 'unchanged' (nothing rebuilt) or 'failed'."),
        ("card_count", "INTEGER", "Rows in `cards` after the run (NULL when failed)."),
        ("face_count", "INTEGER", "Rows in `faces` after the run."),
        ("ability_count", "INTEGER", "Rows in `abilities` after the run."),
        ("ruling_count", "INTEGER", "Rows in `rulings` after the run."),
        ("parsed_count", "INTEGER", "Distinct face texts parsed in this run (the rest came from the parse cache)."),
        ("grammar_version", "VARCHAR", "Grammar version used to parse."),
        ("seconds", "DOUBLE", "Wall time of the run, in seconds."),
        ("error", "VARCHAR", "One-line error for a failed run, else NULL."),
    ]),
    "cards": ("One row per oracle card (traditional Magic card, CR 108) — every printing and language merged on oracle_id.", [
        ("oracle_id", "VARCHAR PRIMARY KEY", "Scryfall oracle id: the card's Oracle identity across printings."),
        ("name", "VARCHAR", "Full card name; multi-face cards 'Face A // Face B'."),
        ("layout", "VARCHAR", "Scryfall/MTGJSON layout (normal, split, aftermath, flip, transform, modal_dfc, meld, adventure, saga, class, leveler, …)."),
        ("mana_cost", "VARCHAR", "Mana cost; faces with a cost joined by ' // '; NULL when no face has one."),
        ("mana_value", "DOUBLE", "Mana value (CR 202.3) as the source gives it."),
        ("type_line", "VARCHAR", "Type line; multi-face cards join faces with ' // '."),
        ("oracle_text", "VARCHAR", "Oracle text; multi-face cards join faces' texts with a line '//'."),
        ("colors", "VARCHAR[]", "Colors (CR 105), WUBRG order; for multi-face cards the union of the faces' colors."),
        ("color_identity", "VARCHAR[]", "Color identity (CR 903.4), WUBRG order."),
        ("keywords", "VARCHAR[]", "Keywords as the source lists them (empty when the source predates the field)."),
        ("produced_mana", "VARCHAR[]", "Mana types this card could produce through its own abilities (CR 106.7), WUBRGC order; see docs/schema.md."),
        ("source_produced_mana", "VARCHAR[]", "The source's own produced_mana (Scryfall) where it has one, else NULL."),
    ]),
    "faces": ("One row per card face (every face of every card: split halves, back faces, adventures, flip halves).", [
        ("oracle_id", "VARCHAR", "The card (cards.oracle_id)."),
        ("face_index", "INTEGER", "0-based face position in printed order (front/left/top first)."),
        ("name", "VARCHAR", "Face name."),
        ("mana_cost", "VARCHAR", "Face mana cost, NULL when it has none."),
        ("type_line", "VARCHAR", "Face type line."),
        ("oracle_text", "VARCHAR", "Face Oracle text ('' when none)."),
        ("power", "VARCHAR", "Printed power (text: may be '*' or '1+*'), NULL when none."),
        ("toughness", "VARCHAR", "Printed toughness (text), NULL when none."),
        ("loyalty", "VARCHAR", "Starting loyalty (text), NULL when none."),
        ("defense", "VARCHAR", "Defense of a battle (text), NULL when none."),
    ]),
    "abilities": ("One row per ability line (paragraph) of each face's Oracle text, with its parsed AST.", [
        ("ability_id", "VARCHAR PRIMARY KEY", "Stable id 'oracle_id:face_index:ability_index'."),
        ("oracle_id", "VARCHAR", "The card (cards.oracle_id)."),
        ("face_index", "INTEGER", "The face (faces.face_index)."),
        ("ability_index", "INTEGER", "0-based position of the line within the face."),
        ("text", "VARCHAR", "The line as printed in Oracle text, reminder text included."),
        ("kind", "VARCHAR", "Ability kind (keyword, activated, triggered, static, spell, loyalty, chapter, …; see docs/ast.md)."),
        ("is_mana_ability", "BOOLEAN", "True for a mana ability (CR 605.1a/b)."),
        ("fully_parsed", "BOOLEAN", "True when the AST round-trips: no Unparsed node and rendering it from its structured fields gives back the line's normalised text, reminder text aside (docs/ast.md § Rendering); ast.no_unparsed and ast.render_mismatch hold the parts."),
        ("ast", "JSON", "The ability AST (docs/ast.md), with grammar_version."),
    ]),
    "rulings": ("One row per ruling, deduplicated on (oracle_id, published_at, comment).", [
        ("ruling_id", "VARCHAR PRIMARY KEY", "Stable id: first 16 hex digits of sha256(oracle_id, published_at, comment)."),
        ("oracle_id", "VARCHAR", "The card it is about (cards.oracle_id)."),
        ("source", "VARCHAR", "Who issued it: 'wotc' or 'scryfall' (Scryfall rulings file); NULL where the source does not say (MTGJSON)."),
        ("published_at", "DATE", "Publication date."),
        ("comment", "VARCHAR", "The ruling text."),
    ]),
    "printings": ("Printings merged into each card: (set, collector number, language).", [
        ("oracle_id", "VARCHAR", "The card (cards.oracle_id)."),
        ("set_code", "VARCHAR", "Set code as the source spells it."),
        ("collector_number", "VARCHAR", "Collector number."),
        ("lang", "VARCHAR", "Language code ('en', 'es', …); MTGJSON printings are 'en'."),
    ]),
    "other_objects": ("Objects kept out of `cards`: tokens (CR 111), emblems (CR 114), art cards, planes, schemes, vanguards, unknown layouts.", [
        ("oracle_id", "VARCHAR", "Oracle id where the source has one, else NULL."),
        ("name", "VARCHAR", "Name."),
        ("layout", "VARCHAR", "Layout that kept it out of `cards` (token, double_faced_token, emblem, art_series, planar, scheme, vanguard, …)."),
        ("type_line", "VARCHAR", "Type line."),
        ("oracle_text", "VARCHAR", "Oracle text ('' when none)."),
    ]),
    "parse_cache": ("Parse results by (face text hash, grammar_version), reused by the next refresh so only changed texts are parsed.", [
        ("text_hash", "VARCHAR", "sha256 of (face name, type line, Oracle text)."),
        ("grammar_version", "VARCHAR", "Grammar version that produced the entry."),
        ("abilities", "JSON", "The face's list of ability records (text, kind, is_mana_ability, fully_parsed, ast)."),
    ]),
    data_quality.TABLE: (data_quality.TABLE_COMMENT, data_quality.COLUMNS),  # pipeline/store/data_quality.py
}


def create_tables(con: duckdb.DuckDBPyConnection) -> None:
    """Create every table of :data:`TABLES` with its comments in the open database ``con``."""
    for table, (comment, columns) in TABLES.items():
        create_table(con, table, comment, columns)


def columns_of(table: str) -> list[str]:
    """Column names of ``table`` (a key of :data:`TABLES`), in order."""
    return [name for name, _, _ in TABLES[table][1]]
