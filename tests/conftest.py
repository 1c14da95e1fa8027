"""Shared fixtures: paths to the real corpus and helpers that pull real records out of it."""

from __future__ import annotations

import atexit
import gzip
import json
import shutil
import tempfile
from functools import lru_cache
from pathlib import Path

import duckdb
import pytest

from pipeline.parse.ast import Ability, Unparsed
from pipeline.refresh import refresh

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
MTGJSON_DIR = CORPUS / "mtgjson-v5-20220425"
SCRYFALL_2019 = CORPUS / "scryfall-2019" / "cards-2019.json.gz"
RULES_TXT = CORPUS / "comprehensive-rules" / "MagicCompRules-20260227.txt"


@lru_cache(maxsize=1)
def scryfall_2019() -> list[dict]:
    """Every card object of the 2019 Scryfall file (45,851), loaded once per test session."""
    with gzip.open(SCRYFALL_2019, "rt", encoding="utf-8") as fh:
        return json.load(fh)


def scryfall_objects(*names: str, lang: str | None = "en") -> list[dict]:
    """The first 2019 Scryfall card object of each name (and language), in the order given."""
    found = {}
    for obj in scryfall_2019():
        if obj["name"] in names and obj["name"] not in found and (lang is None or obj.get("lang") == lang):
            found[obj["name"]] = obj
    missing = set(names) - set(found)
    assert not missing, f"not in the 2019 Scryfall corpus: {missing}"
    return [found[n] for n in names]


@lru_cache(maxsize=None)
def mtgjson_set(code: str) -> dict:
    """One MTGJSON set file of the corpus, parsed."""
    with gzip.open(MTGJSON_DIR / f"{code}.json.gz", "rt", encoding="utf-8") as fh:
        return json.load(fh)


def write_gzip_json(path: Path, obj) -> Path:
    """Write ``obj`` as gzipped JSON to ``path``; return the path."""
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        json.dump(obj, fh)
    return path


def write_jsonl(path: Path, objs, *, gz: bool = True) -> Path:
    """Write ``objs`` one JSON object per line (gzipped unless ``gz`` is False); return the path."""
    opener = gzip.open if gz else open
    with opener(path, "wt", encoding="utf-8") as fh:
        for obj in objs:
            fh.write(json.dumps(obj) + "\n")
    return path


@pytest.fixture(scope="session")
def corpus() -> Path:
    """The shared corpus directory; fails (does not skip) when it is absent."""
    assert CORPUS.is_dir(), f"the shared corpus is missing at {CORPUS}"
    return CORPUS


@lru_cache(maxsize=1)
def bundled_database() -> Path:
    """A database built once per test session from the bundled snapshot, through the CLI.

    Shared by every test that only reads it; a test that changes a database copies it first.
    """
    from click.testing import CliRunner

    from pipeline.cli import main

    tmp = Path(tempfile.mkdtemp(prefix="mtg-bundled-"))
    atexit.register(shutil.rmtree, tmp, True)
    db = tmp / "cards.duckdb"
    result = CliRunner().invoke(main, ["refresh", "--source", "bundled", "--db", str(db), "--quiet"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"built {db}: 4372 cards, 4546 faces, ")
    return db


def as_older_grammar_left_it(con: duckdb.DuckDBPyConnection, name: str) -> None:
    """Make the open database look as an older grammar version ('0.older') left it: the first
    ability of card ``name`` unread (an Unparsed body), its produced mana empty."""
    oracle_id, text = con.execute("SELECT oracle_id, text FROM abilities JOIN cards USING (oracle_id) "
                                  "WHERE name = ? AND ability_index = 0", [name]).fetchone()
    old = Ability(index=0, text=text, kind="activated", normalized=text, body=Unparsed(text=text),
                  grammar_version="0.older").to_json()
    con.execute("UPDATE abilities SET ast = ?, fully_parsed = false, is_mana_ability = false "
                "WHERE oracle_id = ? AND ability_index = 0", [json.dumps(old), oracle_id])
    con.execute("UPDATE cards SET produced_mana = [] WHERE oracle_id = ?", [oracle_id])
    con.execute("UPDATE meta SET value = '0.older' WHERE key = 'grammar_version'")
    con.execute("UPDATE runs SET grammar_version = '0.older'")


@lru_cache(maxsize=1)
def changelog_database() -> Path:
    """A database with a changelog: the bundled snapshot built over a database of three real 2019 Scryfall cards (Lotus Field and
    Food Chain had errata since; Llanowar Elves did not), the latter as an older grammar left it
    (its mana ability unread), so the changelog holds additions, errata and a grammar-caused change."""
    tmp = Path(tempfile.mkdtemp(prefix="mtg-changelog-"))
    atexit.register(shutil.rmtree, tmp, True)
    db = tmp / "cards.duckdb"
    refresh([write_jsonl(tmp / "2019.jsonl.gz", scryfall_objects("Lotus Field", "Food Chain", "Llanowar Elves"))], db)
    con = duckdb.connect(str(db))
    try:
        as_older_grammar_left_it(con, "Llanowar Elves")
        # lend it the bundled build's parse cache, so the next build parses nothing
        con.execute(f"INSERT INTO parse_cache SELECT * FROM read_parquet('{_parse_cache_parquet(tmp)}')")
    finally:
        con.close()
    assert refresh(["bundled"], db).status == "ok"
    return db


def _parse_cache_parquet(tmp: Path) -> Path:
    out = tmp / "parse_cache.parquet"
    con = duckdb.connect(str(bundled_database()), read_only=True)
    try:
        con.execute(f"COPY parse_cache TO '{out}' (FORMAT parquet)")
    finally:
        con.close()
    return out


@pytest.fixture(scope="session")
def bundled_db() -> Path:
    """The shared bundled database (see :func:`bundled_database`); read it, never write it."""
    return bundled_database()


@lru_cache(maxsize=1)
def mtgjson_corpus_database() -> Path:
    """The whole MTGJSON 2022 corpus built once per test session, as a user would: ``refresh``
    of the set-file directory without ``--rules`` (so annotated with the bundled CR)."""
    from pipeline.refresh import refresh

    tmp = Path(tempfile.mkdtemp(prefix="mtg-mtgjson-"))
    atexit.register(shutil.rmtree, tmp, True)
    db = tmp / "mtgjson.duckdb"
    assert refresh([MTGJSON_DIR], db).status == "ok"
    return db


@pytest.fixture(scope="session")
def mtgjson_db(corpus) -> Path:
    """The shared whole-corpus database (see :func:`mtgjson_corpus_database`); read it, never write it."""
    return mtgjson_corpus_database()


def rows(db, sql: str, params=None) -> list[tuple]:
    """All rows of ``sql`` (with ``params``) on ``db`` opened read-only."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, params or []).fetchall()
    finally:
        con.close()


def table_fingerprint(db, tables) -> dict[str, tuple]:
    """Row count and an order-independent hash of every row of each table: a database's full contents."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {t: con.execute(f"SELECT count(*), string_agg(md5(t::VARCHAR), ',' ORDER BY md5(t::VARCHAR)) "
                               f"FROM {t} t").fetchone() for t in tables}
    finally:
        con.close()
