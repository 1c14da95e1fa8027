"""Whole-corpus builds: the MTGJSON 2022 set files and the Scryfall 2019 file, array and JSON Lines."""

from __future__ import annotations

import gzip
import json
import shutil

import duckdb
import pytest

from pipeline.refresh import refresh
from tests.conftest import MTGJSON_DIR, SCRYFALL_2019

pytestmark = pytest.mark.corpus

COMPARED_TABLES = ("cards", "faces", "abilities", "rulings", "printings", "other_objects")


def table_rows(db, table):
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(f"SELECT * FROM {table} ORDER BY ALL").fetchall()
    finally:
        con.close()


def counts(db):
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in COMPARED_TABLES}
    finally:
        con.close()


def test_mtgjson_corpus_builds_every_card_and_face(corpus, tmp_path):
    db = tmp_path / "mtgjson.duckdb"
    outcome = refresh([MTGJSON_DIR], db)
    assert outcome.status == "ok"
    got = counts(db)
    assert (got["cards"], got["faces"], got["rulings"]) == (23_549, 23_995, 45_047)
    con = duckdb.connect(str(db), read_only=True)
    try:
        # every face with text has ability rows; no ability line was dropped
        assert con.execute("""SELECT count(*) FROM faces f WHERE oracle_text <> '' AND NOT EXISTS
            (SELECT 1 FROM abilities a WHERE a.oracle_id = f.oracle_id AND a.face_index = f.face_index)""").fetchone() == (0,)
        assert con.execute("SELECT count(*) FROM abilities WHERE kind IS NULL OR kind = ''").fetchone() == (0,)
        (text,) = con.execute("SELECT oracle_text FROM cards WHERE name = 'Bruna, the Fading Light'").fetchone()
        assert text.startswith("When you cast this spell, you may return target Angel or Human creature card")
    finally:
        con.close()


def test_scryfall_2019_array_and_jsonl_copy_build_identical_databases(corpus, tmp_path):
    array_db = tmp_path / "array.duckdb"
    assert refresh([SCRYFALL_2019], array_db).status == "ok"
    got = counts(array_db)
    assert (got["cards"], got["faces"], got["other_objects"]) == (19_771, 20_015, 259)
    assert got["printings"] == 45_558  # every printing of a game card (45,851 objects less 293 tokens etc.)

    jsonl = tmp_path / "cards-2019.jsonl.gz"
    with gzip.open(SCRYFALL_2019, "rt", encoding="utf-8") as src, gzip.open(jsonl, "wt", encoding="utf-8") as dst:
        for obj in json.load(src):
            dst.write(json.dumps(obj, ensure_ascii=False) + "\n")
    jsonl_db = tmp_path / "jsonl.duckdb"
    shutil.copy(array_db, jsonl_db)  # the copy only lends its parse cache: the build reads every record anew
    outcome = refresh([jsonl], jsonl_db, force=True)
    assert outcome.status == "ok" and outcome.parsed == 0
    for table in COMPARED_TABLES:
        assert table_rows(array_db, table) == table_rows(jsonl_db, table), table
