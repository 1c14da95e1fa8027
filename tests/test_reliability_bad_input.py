"""Bad input: corrupted real records give a clear one-line error (or a documented recovery) and the
last good database loses nothing (issue 9, docs/reliability.md § Bad input).

Extends tests/test_refresh.py (truncated gzip of a Scryfall array, invalid JSON, wrong kind, no
oracle id, empty .json.gz), which these cases do not repeat. The base records are real: Core Set 2020
Scryfall card objects of the 2019 corpus file, and MTGJSON 2022 set files (Arabian Nights is the
last good database, Antiquities the input that gets corrupted).

Every refused case is checked the same way (:func:`assert_refused`): exit code 1; one line on
stderr, ``error: <file>…`` with the record and field where there is one; the previous database's
tables unchanged; the failed run recorded; no ``<db>.tmp-*`` left.
"""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pipeline.cli import main
from pipeline.refresh import MAX_TEXT_CHARS, refresh
from tests.conftest import MTGJSON_DIR, ROOT, rows, table_fingerprint
from tests.test_download_http import m20_cards

OLD_SET = MTGJSON_DIR / "ARN.json.gz"
ATQ = MTGJSON_DIR / "ATQ.json.gz"
TABLES = ("cards", "faces", "abilities", "rulings", "printings", "meta")


@pytest.fixture(scope="module")
def good_db(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("good") / "cards.duckdb"
    assert refresh([OLD_SET], db).counts["cards"] == 78
    return db


@pytest.fixture()
def db(good_db, tmp_path) -> Path:
    copy = tmp_path / "cards.duckdb"
    shutil.copy(good_db, copy)
    return copy


def contents(db: Path) -> dict:
    return table_fingerprint(db, TABLES)


def run_refresh(db: Path, *sources: Path, extra=()):
    args = ["refresh", "--db", str(db), "--quiet", *extra]
    for s in sources:
        args += ["--source", str(s)]
    return CliRunner().invoke(main, args)


def assert_refused(db: Path, bad: Path, *expected: str, extra=()) -> str:
    before = contents(db)
    result = run_refresh(db, bad, extra=extra)
    assert result.exit_code == 1, (result.stdout, result.stderr, result.exception)
    message = result.stderr.strip()
    assert "\n" not in message and message.startswith(f"error: {bad}"), message
    for part in expected:
        assert part in message, (part, message)
    assert contents(db) == before
    (last,) = rows(db, "SELECT status, error FROM runs ORDER BY run_id DESC LIMIT 1")
    assert last[0] == "failed" and str(bad) in last[1]
    assert not list(db.parent.glob("cards.duckdb.tmp-*"))
    return message


def jsonl(objs) -> bytes:
    return b"".join(json.dumps(o, ensure_ascii=False).encode() + b"\n" for o in objs)


def cards(n: int = 30) -> list[dict]:
    return [dict(c) for c in m20_cards()[:n]]


def atq_json() -> bytes:
    return gzip.decompress(ATQ.read_bytes())


# --------------------------------------------------------------------------- truncated / corrupt streams


def test_truncated_gzip_mtgjson_set_file(db, tmp_path):
    bad = tmp_path / "ATQ.json.gz"
    raw = ATQ.read_bytes()
    bad.write_bytes(raw[: len(raw) * 6 // 10])
    assert_refused(db, bad, "unreadable", "truncated")


def test_truncated_gzip_json_lines_names_the_record(db, tmp_path):
    bad = tmp_path / "cards.jsonl.gz"
    raw = gzip.compress(jsonl(cards(200)), mtime=0)
    bad.write_bytes(raw[: len(raw) // 2])
    assert_refused(db, bad, "truncated")


# --------------------------------------------------------------------------- NUL bytes


def test_nul_byte_between_json_lines(db, tmp_path):
    bad = tmp_path / "cards.jsonl"
    bad.write_bytes(jsonl(cards()).replace(b"\n", b"\n\x00\n", 1))
    assert_refused(db, bad, "record #1", "invalid JSON on line 2")


def test_raw_nul_byte_inside_a_string(db, tmp_path):
    bad = tmp_path / "cards.jsonl"
    bad.write_bytes(jsonl(cards()).replace(b'"oracle_text": "', b'"oracle_text": "\x00', 1))
    assert_refused(db, bad, "record #0", "Invalid control character")


def test_nul_byte_in_an_mtgjson_set_file(db, tmp_path):
    raw = atq_json()
    cut = raw.index(b'"text"', len(raw) // 2)
    bad = tmp_path / "ATQ.json"
    bad.write_bytes(raw[:cut] + b"\x00" + raw[cut:])
    assert_refused(db, bad, "invalid or truncated MTGJSON file", "Expecting property name enclosed in double quotes: line 1 column")


def test_escaped_nul_in_oracle_text_is_kept(db, tmp_path):
    """Valid JSON (``\\u0000``) and valid Unicode: documented recovery is to keep the text as given."""
    objs = cards()
    objs[0]["oracle_text"] += "\u0000kept"
    src = tmp_path / "cards.jsonl"
    src.write_bytes(jsonl(objs))
    result = run_refresh(db, src)
    assert result.exit_code == 0, result.stderr
    (text,) = rows(db, f"SELECT oracle_text FROM cards WHERE oracle_id = '{objs[0]['oracle_id']}'")[0]
    assert text == objs[0]["oracle_text"]


# --------------------------------------------------------------------------- invalid text


def test_invalid_utf8_in_json_lines(db, tmp_path):
    bad = tmp_path / "cards.jsonl"
    bad.write_bytes(jsonl(cards()).replace(b'"oracle_text": "', b'"oracle_text": "\xff\xfe', 1))
    assert_refused(db, bad, "record #0", "invalid JSON on line 1", "can't decode byte 0xff")


def test_invalid_utf8_in_an_mtgjson_set_file(db, tmp_path):
    raw = atq_json()
    cut = raw.index(b'"text": "', len(raw) // 3) + len(b'"text": "')
    bad = tmp_path / "ATQ.json.gz"
    bad.write_bytes(gzip.compress(raw[:cut] + b"\xc3\x28" + raw[cut:], mtime=0))
    assert_refused(db, bad)


def test_lone_surrogate_escape(db, tmp_path):
    objs = cards()
    objs[3]["name"] = "\ud800" + objs[3]["name"]
    bad = tmp_path / "cards.jsonl"
    bad.write_text("".join(json.dumps(o) + "\n" for o in objs), encoding="ascii")  # "\ud800" escaped: valid JSON
    assert_refused(db, bad, f"oracle_id={objs[3]['oracle_id']!r}", "field 'name'", "lone surrogate U+D800")


# --------------------------------------------------------------------------- size and shape


def test_ten_megabyte_oracle_line(db, tmp_path):
    objs = cards()
    line = objs[0]["oracle_text"].split("\n")[0]
    objs[0]["oracle_text"] = (line + " ") * (10_000_000 // (len(line) + 1))
    assert len(objs[0]["oracle_text"]) > 9_900_000 > MAX_TEXT_CHARS
    bad = tmp_path / "cards.jsonl.gz"
    bad.write_bytes(gzip.compress(jsonl(objs), mtime=0))
    assert_refused(db, bad, f"oracle_id={objs[0]['oracle_id']!r}", "field 'faces[0].oracle_text'",
                   "more than the 65,536 accepted")


def test_deeply_nested_json_lines_record(db, tmp_path):
    objs = cards()
    line = json.dumps(objs[0])[:-1] + ', "extra": ' + "[" * 100_000 + "]" * 100_000 + "}"
    bad = tmp_path / "cards.jsonl"
    bad.write_bytes(line.encode() + b"\n" + jsonl(objs[1:]))
    assert_refused(db, bad, "record #0", "record on line 1 nested too deeply")


def test_nesting_in_an_ignored_field_is_read(db, tmp_path):
    """Documented recovery: fields the reader does not use are ignored, up to the readers' depth bound (here 500)."""
    objs = cards()
    objs[0]["extra"] = json.loads("[" * 500 + "]" * 500)
    src = tmp_path / "cards.json"
    src.write_bytes(json.dumps(objs).encode())
    result = run_refresh(db, src)
    assert result.exit_code == 0, result.stderr
    assert rows(db, "SELECT count(*) FROM cards") == [(30,)]


def test_deeply_nested_json_array_record_is_refused_within_bounded_memory(tmp_path):
    """Under a 1.5 GB address-space limit: the array reader builds records from prefix-free events
    with a depth bound (ijson's prefix-tracking items() would need ~23 GB for this record)."""
    obj = dict(m20_cards()[0])
    bad = tmp_path / "cards.json"
    bad.write_bytes(("[" + json.dumps(obj)[:-1] + ', "extra": ' + "[" * 100_000 + "]" * 100_000 + "}]").encode())
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (1536 << 20, 1536 << 20)); "
            "from pipeline.sources.scryfall import read_scryfall_cards; from pipeline.sources.errors import SourceError\n"
            "try:\n    list(read_scryfall_cards(sys.argv[1]))\nexcept SourceError as exc:\n    print('refused:', exc)")
    proc = subprocess.run([sys.executable, "-c", code, str(bad)], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0 and proc.stdout.startswith(f"refused: {bad}"), proc.stderr[-500:]


# --------------------------------------------------------------------------- missing fields, conflicts, empty


def test_card_without_a_name(db, tmp_path):
    objs = cards()
    del objs[5]["name"]
    bad = tmp_path / "cards.jsonl"
    bad.write_bytes(jsonl(objs))
    assert_refused(db, bad, f"oracle_id={objs[5]['oracle_id']!r}", "field 'name'", "card without a name")


def test_first_record_without_object(db, tmp_path):
    objs = cards()
    del objs[0]["object"]
    bad = tmp_path / "cards.jsonl"
    bad.write_bytes(jsonl(objs))
    assert_refused(db, bad, "record #0", "field 'object'")


def test_later_record_of_another_kind(db, tmp_path):
    objs = cards()
    objs[7] = {"object": "set", "code": "m20", "name": "Core Set 2020"}
    bad = tmp_path / "cards.jsonl"
    bad.write_bytes(jsonl(objs))
    assert_refused(db, bad, "record #7 (name='Core Set 2020')", "field 'object'", "expected a Scryfall card object")


def test_mtgjson_card_without_any_oracle_id(db, tmp_path):
    data = json.loads(atq_json())
    card = next(c for c in data["data"]["cards"] if c["name"] == "Mishra's Factory")
    del card["identifiers"]["scryfallOracleId"]
    data["data"]["cards"] = [c for c in data["data"]["cards"] if c["name"] != "Mishra's Factory"] + [card]
    bad = tmp_path / "ATQ.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert_refused(db, bad, "record ATQ cards#", "name=\"Mishra's Factory\"", "field 'identifiers.scryfallOracleId'",
                   "game card without an oracle id")


def test_scryfall_number_field_of_the_wrong_type(db, tmp_path):
    objs = cards()
    objs[2]["cmc"] = "three"
    bad = tmp_path / "cards.jsonl"
    bad.write_bytes(jsonl(objs))
    # Quarantined (tests/test_reliability_quarantine.py); under --strict the refresh is refused.
    assert_refused(db, bad, "record #2", "field 'cmc'", "expected a number, got str 'three'", "--strict: 1 record(s)",
                   extra=["--strict"])


def test_same_oracle_id_with_different_texts_keeps_the_first(db, tmp_path):
    """Documented recovery: the first text read is kept, the conflict is counted in
    meta.text_conflicts and reported on stderr; the build succeeds."""
    objs = cards()
    other = dict(objs[1])
    other["oracle_text"] = objs[0]["oracle_text"]  # a real Oracle text, on the wrong card
    other["set"], other["collector_number"] = "xxx", "1"
    src = tmp_path / "cards.jsonl"
    src.write_bytes(jsonl(objs + [other]))
    result = run_refresh(db, src)
    assert result.exit_code == 0, result.stderr
    assert result.stderr.strip() == ("note: 1 oracle ids had two different Oracle texts for a face in the sources; "
                                     "the first text read was kept (meta.text_conflicts)")
    assert rows(db, f"SELECT oracle_text FROM cards WHERE oracle_id = '{objs[1]['oracle_id']}'") == [
        (objs[1]["oracle_text"],)]
    assert rows(db, "SELECT value FROM meta WHERE key = 'text_conflicts'") == [("1",)]
    assert rows(db, f"SELECT count(*) FROM printings WHERE oracle_id = '{objs[1]['oracle_id']}'") == [(2,)]


@pytest.mark.parametrize("content", [b"", b"\n\n  \n", gzip.compress(b"", mtime=0), b"[]", b"[\n]"],
                         ids=["zero bytes", "blank lines", "gzip of nothing", "empty array", "empty array 2"])
def test_empty_sources(content, db, tmp_path):
    bad = tmp_path / "cards.json"
    bad.write_bytes(content)
    assert_refused(db, bad)


def test_mtgjson_file_with_no_cards_does_not_empty_the_database(db, tmp_path):
    data = json.loads(atq_json())
    data["data"]["cards"], data["data"]["tokens"] = [], []
    bad = tmp_path / "ATQ.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert_refused(db, bad, "hold no cards, rulings or other objects", "refusing to replace the database")


def test_empty_rules_file(db, tmp_path):
    rules = tmp_path / "rules.txt"
    rules.write_bytes(b"")
    before = contents(db)
    result = CliRunner().invoke(main, ["refresh", "--db", str(db), "--quiet", "--source", str(ATQ),
                                                       "--rules", str(rules)])
    assert result.exit_code == 1, result.stdout
    assert result.stderr.strip() == f"error: {rules}: no numbered rule (like '100.1.') found"
    assert contents(db) == before
    (last,) = rows(db, "SELECT status, error FROM runs ORDER BY run_id DESC LIMIT 1")
    assert last[0] == "failed" and str(rules) in last[1]


def test_rules_file_that_is_not_utf8(db, tmp_path):
    rules = tmp_path / "rules.txt"
    rules.write_bytes(b"100.1. Rules \xff\xfe\n")
    result = CliRunner().invoke(main, ["refresh", "--db", str(db), "--quiet", "--source", str(ATQ),
                                       "--rules", str(rules)])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {rules}: unreadable Comprehensive Rules file: 'utf-8' codec")
