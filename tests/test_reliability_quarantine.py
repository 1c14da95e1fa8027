"""Types checked at the boundary: malformed records are quarantined into data_quality, never a traceback
(issue 16 § 4; docs/reliability.md § Quarantine and § Validated fields).

Base records are real: the Core Set 2020 Scryfall card objects of the 2019 corpus and the MTGJSON 2022
Antiquities set file; each case puts one value of the wrong type (the issue's list) into one field.
"""

from __future__ import annotations

import gzip
import json
import math
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pipeline.cli import main
from pipeline.sources.records import MtgjsonCard, ScryfallCard, model_fields
from tests.conftest import MTGJSON_DIR, ROOT, rows, table_fingerprint
from tests.test_download_http import m20_cards

ATQ = MTGJSON_DIR / "ATQ.json.gz"

# (field, bad value, data_quality.field) — each goes into its own record of one file
SCRYFALL_BAD = [
    ("colors", ["X"], "colors[0]"),
    ("keywords", 5, "keywords"),
    ("mana_cost", 3, "mana_cost"),
    ("oracle_id", ["abc"], "oracle_id"),
    ("power", {"a": 1}, "power"),
    ("cmc", math.nan, "cmc"),
    ("cmc", True, "cmc"),
    ("name", 7, "name"),
    ("color_identity", "G", "color_identity"),
]


def jsonl(objs) -> bytes:
    return b"".join(json.dumps(o, ensure_ascii=False).encode() + b"\n" for o in objs)


def refresh(db: Path, src: Path, *extra: str):
    return CliRunner().invoke(main, ["refresh", "--db", str(db), "--source", str(src), "--quiet", *extra])


def dq(db: Path) -> list[tuple]:
    return rows(db, "SELECT run_id, source_file, record, oracle_id, field, value, action FROM data_quality "
                    "ORDER BY CAST(regexp_extract(record, '#(\\d+)', 1) AS INTEGER)")


@pytest.fixture(scope="module")
def bad_scryfall(tmp_path_factory):
    """30 real M20 card objects; records 2..10 carry one wrong-typed field each (SCRYFALL_BAD)."""
    d = tmp_path_factory.mktemp("quarantine")
    objs = [dict(c) for c in m20_cards()[:30]]
    originals = {}
    for i, (field, value, _) in enumerate(SCRYFALL_BAD, start=2):
        originals[i] = dict(objs[i])
        objs[i][field] = value
    src = d / "cards.jsonl"
    src.write_bytes(jsonl(objs))
    good = d / "good.jsonl"
    good.write_bytes(jsonl(m20_cards()[:30]))
    return src, good, originals


def test_wrong_types_are_quarantined_and_the_refresh_exits_0(bad_scryfall, tmp_path):
    src, _, originals = bad_scryfall
    db = tmp_path / "cards.duckdb"
    result = refresh(db, src)
    assert result.exit_code == 0, (result.output, result.exception)
    assert "Traceback" not in result.output
    assert result.stdout.startswith(f"built {db}: 21 cards,")
    assert "; 9 records quarantined — see the data_quality table" in result.stdout
    got = dq(db)
    assert len(got) == 9
    for (run_id, source_file, record, oracle_id, field, value, action), (i, (_, bad, where)) in zip(
            got, enumerate(SCRYFALL_BAD, start=2)):
        card = originals[i]
        assert run_id == 1 and source_file == str(src) and action == "quarantined"
        assert record.startswith(f"#{i} (id={card['id']!r}")
        assert oracle_id == (None if where == "oracle_id" else card["oracle_id"])
        assert field == where
        assert json.loads(value) == (bad[0] if where == "colors[0]" else bad) or value == "NaN"
    names = {n for (n,) in rows(db, "SELECT name FROM cards")}
    assert not names & {originals[i]["name"] for i in originals}


def test_strict_makes_a_quarantine_a_failed_refresh(bad_scryfall, tmp_path):
    src, good, _ = bad_scryfall
    db = tmp_path / "cards.duckdb"
    assert refresh(db, good).exit_code == 0
    before = table_fingerprint(db, ("cards", "faces", "abilities", "printings", "data_quality"))
    result = refresh(db, src, "--strict")
    assert result.exit_code == 1
    message = result.stderr.strip()
    assert "\n" not in message and message.startswith(f"error: {src}, record #2 (id="), message
    assert "field 'colors[0]': expected one of W, U, B, R, G, got str 'X'" in message
    assert "--strict: 9 record(s) failed validation" in message
    assert table_fingerprint(db, ("cards", "faces", "abilities", "printings", "data_quality")) == before
    assert rows(db, "SELECT status FROM runs ORDER BY run_id DESC LIMIT 1") == [("failed",)]


def test_a_quarantine_keeps_the_previous_version_of_the_card(bad_scryfall, tmp_path):
    src, good, originals = bad_scryfall
    db = tmp_path / "cards.duckdb"
    assert refresh(db, good).exit_code == 0
    per_card = ("cards", "faces", "abilities", "printings")

    def card_rows(oracle_id):
        return {t: rows(db, f"SELECT * FROM {t} WHERE oracle_id = ? ORDER BY ALL", [oracle_id]) for t in per_card}

    kept_id = originals[2]["oracle_id"]
    before = card_rows(kept_id)
    assert before["cards"] and before["abilities"]
    result = refresh(db, src)
    assert result.exit_code == 0, result.output
    # 8 cards come back from the previous database; the one whose oracle_id is unreadable cannot.
    assert "; 9 records quarantined (8 cards kept from the previous database)" in result.stdout
    assert result.stdout.startswith(f"built {db}: 29 cards,")
    assert card_rows(kept_id) == before
    actions = {r[4]: r[6] for r in dq(db)}
    assert actions["colors[0]"] == "kept_previous" and actions["oracle_id"] == "quarantined"
    assert rows(db, "SELECT DISTINCT run_id FROM data_quality") == [(2,)]


def test_a_bad_produced_mana_is_ignored_not_quarantined(tmp_path):
    objs = [dict(c) for c in m20_cards()[:5]]
    objs[1]["produced_mana"] = [1, 2]
    src = tmp_path / "cards.jsonl"
    src.write_bytes(jsonl(objs))
    db = tmp_path / "cards.duckdb"
    result = refresh(db, src)
    assert result.exit_code == 0 and "quarantined" not in result.stdout, result.output
    assert [r[3:] for r in dq(db)] == [(objs[1]["oracle_id"], "produced_mana", "[1, 2]", "ignored")]
    assert rows(db, "SELECT source_produced_mana FROM cards WHERE oracle_id = ?", [objs[1]["oracle_id"]]) == [(None,)]


def test_mtgjson_wrong_types_are_quarantined(tmp_path):
    doc = json.loads(gzip.decompress(ATQ.read_bytes()))
    cards = doc["data"]["cards"]
    cards[3]["identifiers"] = "abc"
    cards[5]["setCode"] = ["ATQ"]
    cards[7]["rulings"] = [{"date": 20220425, "text": "x"}]
    src = tmp_path / "ATQ.json"
    src.write_text(json.dumps(doc))
    db = tmp_path / "cards.duckdb"
    result = refresh(db, src)
    assert result.exit_code == 0, result.output
    got = {(r[2].split(" (")[0], r[4], r[6]) for r in dq(db)}
    assert got == {("ATQ cards#3", "identifiers", "quarantined"), ("ATQ cards#5", "setCode", "quarantined"),
                   ("ATQ cards#7", "rulings[0].date", "quarantined")}


def test_every_validated_field_is_documented():
    """docs/reliability.md § Validated fields lists every model field with its action."""
    text = (ROOT / "docs" / "reliability.md").read_text(encoding="utf-8")
    section = text.split("## Validated fields", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `([^`]+)` \|", section, flags=re.M))
    for model in (ScryfallCard, MtgjsonCard):
        missing = {f"{model.__name__}.{f}" for f in model_fields(model)} - documented
        assert not missing, f"add to docs/reliability.md § Validated fields: {sorted(missing)}"
