"""The DuckDB schema: every table with a one-line comment per table and column.

The comments are stored in the database (``COMMENT ON``), so ``docs/schema.md`` is generated
from a live database and cannot drift from it. Bump :data:`SCHEMA_VERSION` on any change
that an older reader could misread.
"""

from __future__ import annotations

import duckdb

from pipeline.store import data_quality
from pipeline.store.ddl import create_table

SCHEMA_VERSION = 2

#: Every key of the ``meta`` table → its one-line meaning (docs/schema.md lists them under ``meta``;
#: a test checks that a fresh build writes no key missing here).
META_KEYS: dict[str, str] = {
    "built_at": "When the database was built: ISO 8601 UTC timestamp, seconds.",
    "grammar_version": "Grammar version the ASTs were parsed with: the grammar's major version, '.', and the first 10 hex "
                       "digits of the sha256 of the grammar text (grammar/*.lark) and of the parse code "
                       "(pipeline/parse/*.py), e.g. '1.0123456789'.",
    "schema_version": "Schema version of this database (an integer); mtg-pipeline reads only databases of its own schema version.",
    "source": "Kinds of source files read, '+'-joined: 'mtgjson', 'scryfall' or 'mtgjson+scryfall'.",
    "source_version": "The source's own version: MTGJSON meta.version, Scryfall updated_at, or a content hash of local files.",
    "rules_effective_date": "Effective date (YYYY-MM-DD) of the Comprehensive Rules the annotation tables (rules, "
                            "ruling_rules, …) were built from — the bundled CR unless --rules/--rules-url gave "
                            "another; 'none' when built with --no-rules (no annotation tables).",
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
        ("first_released_at", "DATE", "Release date of the card's earliest printing (printings.released_at)."),
        ("first_set_code", "VARCHAR", "Set of that earliest printing (ties: the smallest set code)."),
        ("reserved", "BOOLEAN", "On the Reserved List (Scryfall reserved, MTGJSON isReserved) in some printing."),
        ("edhrec_rank", "INTEGER", "EDHREC popularity rank from the newest printing that has one; NULL where the source has none."),
        ("is_digital_only", "BOOLEAN", "No printing exists in paper (games/availability never lists 'paper'): Alchemy "
                                       "'A-' rebalanced and other Arena/MTGO-only cards. Filter with NOT is_digital_only."),
        ("is_funny", "BOOLEAN", "Every printing is a funny one (printings.is_funny: Un-sets, playtest, acorn and "
                                "Heroes of the Realm cards), not legal in sanctioned formats."),
        ("can_be_commander", "BOOLEAN", "Can be your commander: MTGJSON leadershipSkills.commander (missing = false); "
                                        "Scryfall: front face legendary creature, Vehicle or Spacecraft with "
                                        "power/toughness (CR 903.3) or text 'can be your commander' (CR 903.3a)."),
        ("can_be_brawl_commander", "BOOLEAN", "MTGJSON leadershipSkills.brawl (missing = false); NULL for Scryfall sources."),
        ("can_be_oathbreaker", "BOOLEAN", "MTGJSON leadershipSkills.oathbreaker (missing = false); NULL for Scryfall sources."),
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
    "printings": ("One row per printing of each card: (set, collector number, language), with the source's set, "
                  "ids, images and prices; NULL where the source lacks a field.", [
        ("oracle_id", "VARCHAR", "The card (cards.oracle_id)."),
        ("set_code", "VARCHAR", "Set code as the source spells it (Scryfall lower case 'dom', MTGJSON upper case 'DOM')."),
        ("collector_number", "VARCHAR", "Collector number."),
        ("lang", "VARCHAR", "Scryfall language code ('en', 'es', 'ja', 'zhs', …); MTGJSON printings are 'en' "
                            "(their translations are in card_names)."),
        ("set_name", "VARCHAR", "Set name (Scryfall set_name; MTGJSON the set object's name)."),
        ("set_type", "VARCHAR", "Set type (core, expansion, masters, funny, promo, …): Scryfall set_type, taken from "
                                "any object of the set that has it (the 2019 file has it on 3 sets only); MTGJSON the set's type."),
        ("released_at", "DATE", "Release date: Scryfall released_at; MTGJSON originalReleaseDate, else the set's releaseDate."),
        ("rarity", "VARCHAR", "Rarity as the source spells it (common, uncommon, rare, mythic, special, bonus)."),
        ("artist", "VARCHAR", "Artist; several artists (faces) joined with ' & '."),
        ("printed_name", "VARCHAR", "Name as printed in this language (Scryfall printed_name, faces joined with ' // '); "
                                    "NULL for English printings and MTGJSON."),
        ("games", "VARCHAR[]", "Where the printing exists: paper, arena, mtgo, … (Scryfall games, MTGJSON availability)."),
        ("digital", "BOOLEAN", "A digital-only printing (Scryfall digital, MTGJSON isOnlineOnly; missing = false)."),
        ("promo", "BOOLEAN", "A promotional printing (Scryfall promo, MTGJSON isPromo; missing = false)."),
        ("frame", "VARCHAR", "Frame version: 1993, 1997, 2003, 2015, future (Scryfall frame, MTGJSON frameVersion)."),
        ("border_color", "VARCHAR", "Border color: black, white, borderless, silver, gold."),
        ("full_art", "BOOLEAN", "Full-art printing (Scryfall full_art, MTGJSON isFullArt; missing = false)."),
        ("is_funny", "BOOLEAN", "A funny printing: MTGJSON isFunny; Scryfall set_type 'funny' or a silver border (Un-cards)."),
        ("scryfall_id", "VARCHAR", "Scryfall card id of this printing (Scryfall id, MTGJSON identifiers.scryfallId)."),
        ("multiverse_ids", "INTEGER[]", "Gatherer multiverse ids, one per face where faces differ (MTGJSON multiverseId of each face)."),
        ("mtgo_id", "INTEGER", "Magic Online id (Scryfall mtgo_id, MTGJSON mtgoId)."),
        ("arena_id", "INTEGER", "MTG Arena id (Scryfall arena_id, MTGJSON mtgArenaId)."),
        ("tcgplayer_id", "INTEGER", "TCGplayer product id (Scryfall tcgplayer_id, MTGJSON tcgplayerProductId)."),
        ("cardmarket_id", "INTEGER", "Cardmarket product id (Scryfall cardmarket_id, MTGJSON mcmId); not in the 2019 Scryfall file."),
        ("mtgjson_uuid", "VARCHAR", "MTGJSON uuid of the printing (its first face's record); NULL for Scryfall."),
        ("image_uris", "STRUCT(face_index INTEGER, small VARCHAR, normal VARCHAR, large VARCHAR, png VARCHAR, "
                       "art_crop VARCHAR, border_crop VARCHAR)[]",
         "Scryfall image URIs, one entry per face image (face_index 0 for a one-image card); NULL for MTGJSON."),
        ("price_usd", "DECIMAL(12,2)", "Scryfall prices.usd (US dollars, TCGplayer market) where present."),
        ("price_usd_foil", "DECIMAL(12,2)", "Scryfall prices.usd_foil where present."),
        ("price_eur", "DECIMAL(12,2)", "Scryfall prices.eur (euros, Cardmarket) where present."),
        ("price_tix", "DECIMAL(12,2)", "Scryfall prices.tix (MTGO event tickets) where present."),
        ("prices_date", "DATE", "Date of the bulk file the prices come from (its updated_at, for a Scryfall download); "
                                "NULL for local files, which carry no date, and where there are no prices."),
    ]),
    "legalities": ("Format legality of each card (one row per card and format the source lists), from its newest printing "
                   "that lists legalities. MTGJSON lists only formats where a card is legal, banned or restricted: "
                   "a format missing for a card from MTGJSON means not legal.", [
        ("oracle_id", "VARCHAR", "The card (cards.oracle_id)."),
        ("format", "VARCHAR", "Format as the source names it: standard, pioneer, modern, legacy, vintage, commander, "
                              "pauper, brawl, historic, alchemy, penny, duel, oldschool, …"),
        ("status", "VARCHAR", "Normalized status: legal, not_legal, banned or restricted."),
        ("source_status", "VARCHAR", "Status as the source spells it (Scryfall 'not_legal', MTGJSON 'Legal')."),
    ]),
    "card_names": ("Every name a card is printed under, in every language the source gives, to find a card by name.", [
        ("oracle_id", "VARCHAR", "The card (cards.oracle_id)."),
        ("lang", "VARCHAR", "Scryfall language code (en, de, fr, it, es, pt, ja, ko, ru, zhs, zht, …; MTGJSON "
                            "foreignData language names mapped, see pipeline/normalize/languages.py)."),
        ("name", "VARCHAR", "The name: English card and face names (lang 'en'), Scryfall printed_name, MTGJSON "
                            "foreignData name; a multi-face name 'A // B' also gives one row per face."),
    ]),
    "other_objects": ("Objects kept out of `cards`: tokens (CR 111), emblems (CR 114), art cards, planes, schemes, vanguards, unknown layouts.", [
        ("oracle_id", "VARCHAR", "Oracle id where the source has one, else NULL."),
        ("name", "VARCHAR", "Name."),
        ("layout", "VARCHAR", "Layout that kept it out of `cards` (token, double_faced_token, emblem, art_series, planar, scheme, vanguard, …)."),
        ("type_line", "VARCHAR", "Type line."),
        ("oracle_text", "VARCHAR", "Oracle text ('' when none)."),
    ]),
    "source_files": ("The source files the last build read, with size, mtime and sha256: a refresh trusts a file whose size and mtime are unchanged without reading it (pipeline/sources/version.py; `refresh --force` rebuilds).", [
        ("path", "VARCHAR", "Absolute path of the file as read."),
        ("size", "BIGINT", "Size in bytes when it was read."),
        ("mtime_ns", "BIGINT", "Modification time (st_mtime_ns, nanoseconds since the epoch) when it was read."),
        ("sha256", "VARCHAR", "sha256 of the file's bytes as stored (compressed or not), hex."),
        ("kind", "VARCHAR", "What the file holds: mtgjson, scryfall_cards or scryfall_rulings."),
        ("label", "VARCHAR", "MTGJSON meta.version of the file ('unknown' when it has none); NULL for Scryfall files."),
    ]),
    "card_digests": ("What the last build was made of, for the next refresh's incremental build (pipeline/store/incremental.py): a digest per oracle id of its normalized records and of its source records as read (pipeline/normalize/source_records.py), and of the CR text and the build code.", [
        ("key", "VARCHAR", "An oracle id; '' for objects without one; '#source:' and an oracle id (or '' for none): that id's MTGJSON records as read; '#rules' (the Comprehensive Rules text) or '#code' (pipeline/, grammar/, data/*.csv)."),
        ("digest", "VARCHAR", "sha256 (hex) of every normalized field of the records with that oracle id (card, faces, printings, other objects, rulings); for a '#source:' key of the records' decoded JSON, or 'renormalize' (normalized again by every refresh); or of the rules text / code."),
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
