"""The refresh job end to end: bundled snapshot → database; unchanged runs; bad input keeps the old database."""

from __future__ import annotations

import gzip
import re
import json
import shutil

import pytest
from click.testing import CliRunner

from pipeline.cli import main
from pipeline.paths import BUNDLED_RULES
from pipeline.refresh import refresh
from tests.conftest import rows, scryfall_objects, write_gzip_json, write_jsonl


def test_bundled_counts(bundled_db):
    counts = dict(rows(bundled_db, """
        SELECT 'cards', count(*) FROM cards UNION ALL SELECT 'faces', count(*) FROM faces
        UNION ALL SELECT 'rulings', count(*) FROM rulings UNION ALL SELECT 'runs', count(*) FROM runs"""))
    assert counts == {"cards": 4372, "faces": 4546, "rulings": 10550, "runs": 1}
    # every face of every card is present, numbered from 0 without gaps
    assert rows(bundled_db, """SELECT count(*) FROM (SELECT oracle_id, max(face_index) + 1 = count(*) AS ok
                                FROM faces GROUP BY oracle_id) WHERE NOT ok""") == [(0,)]
    # every non-empty face text has at least one ability row, and the lines add back up to the text
    assert rows(bundled_db, """SELECT count(*) FROM faces f WHERE oracle_text <> '' AND NOT EXISTS
                                (SELECT 1 FROM abilities a WHERE a.oracle_id = f.oracle_id
                                 AND a.face_index = f.face_index)""") == [(0,)]


def test_bundled_specific_cards(bundled_db):
    (elves,) = rows(bundled_db, """SELECT name, layout, mana_cost, mana_value, type_line, colors, color_identity
                                   FROM cards WHERE name = 'Llanowar Elves'""")
    assert elves == ("Llanowar Elves", "normal", "{G}", 1.0, "Creature — Elf Druid", ["G"], ["G"])
    (ability,) = rows(bundled_db, """SELECT a.text, a.kind FROM abilities a JOIN cards USING (oracle_id)
                                    WHERE name = 'Llanowar Elves'""")
    assert ability == ("{T}: Add {G}.", "activated")
    faces = rows(bundled_db, """SELECT f.face_index, f.name, f.mana_cost FROM faces f JOIN cards c USING (oracle_id)
                                WHERE c.name = 'Fire // Ice' ORDER BY face_index""")
    assert faces == [(0, "Fire", "{1}{R}"), (1, "Ice", "{1}{U}")]
    (text,) = rows(bundled_db, "SELECT oracle_text FROM cards WHERE name = 'Fire // Ice'")[0]
    assert text == ("Fire deals 2 damage divided as you choose among one or two targets.\n//\n"
                    "Tap target permanent.\nDraw a card.")
    assert rows(bundled_db, """SELECT count(*) FROM rulings JOIN cards USING (oracle_id)
                               WHERE name = 'Altered Ego'""") == [(9,)]
    assert rows(bundled_db, "SELECT layout, count(*) FROM other_objects GROUP BY ALL ORDER BY 1") == [
        ("planar", 23), ("scheme", 14), ("token", 6), ("vanguard", 11)]
    meta = dict(rows(bundled_db, "SELECT key, value FROM meta"))
    assert meta["source"] == "mtgjson" and meta["source_version"].startswith("5.2.0+20220425+sha256:")


def test_query_cli_prints_real_names(bundled_db):
    runner = CliRunner()
    result = runner.invoke(main, ["query", "--db", str(bundled_db), "--format", "csv",
                                  "SELECT name FROM cards WHERE name LIKE 'Llanowar%' ORDER BY name"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[:4] == ["name", "Llanowar Dead", "Llanowar Druid", "Llanowar Elves"]
    result = runner.invoke(main, ["query", "--db", str(bundled_db), "--format", "json",
                                  "--param", "n=Birds of Paradise",
                                  "SELECT name, mana_cost FROM cards WHERE name = $n"])
    assert json.loads(result.output) == [{"name": "Birds of Paradise", "mana_cost": "{G}"}]


def test_query_is_read_only(bundled_db):
    result = CliRunner().invoke(main, ["query", "--db", str(bundled_db), "DELETE FROM cards"])
    assert result.exit_code == 1
    assert "read-only" in result.output
    assert rows(bundled_db, "SELECT count(*) FROM cards") == [(4372,)]


def test_second_run_is_unchanged_and_recorded(bundled_db, tmp_path):
    db = tmp_path / "copy.duckdb"
    shutil.copy(bundled_db, db)
    result = CliRunner().invoke(main, ["refresh", "--source", "bundled", "--db", str(db), "--quiet"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("unchanged: ")
    assert rows(db, "SELECT run_id, status, card_count FROM runs ORDER BY run_id") == [
        (1, "ok", 4372), (2, "unchanged", 4372)]


def test_forced_rebuild_reuses_the_parse_cache(bundled_db, tmp_path):
    db = tmp_path / "copy.duckdb"
    shutil.copy(bundled_db, db)
    outcome = refresh(["bundled"], db, force=True)
    assert outcome.status == "ok" and outcome.parsed == 0  # every face text came from the cache
    assert rows(db, "SELECT run_id, status, parsed_count FROM runs ORDER BY run_id")[1] == (2, "ok", 0)


BAD_INPUTS = {
    "truncated gzip": lambda p: p.write_bytes(gzip.compress(json.dumps(scryfall_objects("Llanowar Elves")).encode())[:-20]),
    "invalid JSON": lambda p: p.write_bytes(gzip.compress(b'[{"object": "card", "name": "x",]')),
    "wrong kind": lambda p: write_gzip_json(p, {"object": "list", "data": [{"object": "set", "code": "m19"}]}),
    "no oracle id": lambda p: write_jsonl(p, [{k: v for k, v in scryfall_objects("Llanowar Elves")[0].items()
                                             if k != "oracle_id"}]),
    "empty file": lambda p: p.write_bytes(b""),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_input_one_line_error_and_previous_database_untouched(case, bundled_db, tmp_path):
    db = tmp_path / "cards.duckdb"
    shutil.copy(bundled_db, db)
    before = rows(db, "SELECT oracle_id, name, oracle_text FROM cards ORDER BY oracle_id")
    bad = tmp_path / "bad.json.gz"
    BAD_INPUTS[case](bad)
    result = CliRunner().invoke(main, ["refresh", "--source", str(bad), "--db", str(db), "--quiet"])
    assert result.exit_code == 1
    message = result.output.strip()
    assert "\n" not in message and message.startswith(f"error: {bad}")
    if case == "no oracle id":
        assert "record #0 (id=" in message and "Llanowar Elves" in message and "'oracle_id'" in message
    assert rows(db, "SELECT oracle_id, name, oracle_text FROM cards ORDER BY oracle_id") == before
    (last,) = rows(db, "SELECT status, error FROM runs ORDER BY run_id DESC LIMIT 1")
    assert last[0] == "failed" and str(bad) in last[1]
    assert not list(tmp_path.glob("cards.duckdb.tmp-*"))


def test_scryfall_jsonl_and_array_build_identical_databases(tmp_path):
    objs = scryfall_objects("Heaven // Earth", "Llanowar Elves", "Delver of Secrets // Insectile Aberration",
                            "Birds of Paradise", "Clone", "Gemstone Mine")
    a = refresh([write_gzip_json(tmp_path / "cards.json.gz", objs)], tmp_path / "a.duckdb")
    b = refresh([write_jsonl(tmp_path / "cards.jsonl.gz", objs)], tmp_path / "b.duckdb")
    assert a.counts == b.counts and a.counts["cards"] == 6
    for table in ("cards", "faces", "abilities"):
        assert rows(tmp_path / "a.duckdb", f"SELECT * FROM {table} ORDER BY ALL") == \
            rows(tmp_path / "b.duckdb", f"SELECT * FROM {table} ORDER BY ALL")


def test_card_cli_shows_faces_kinds_produced_mana_and_rulings(bundled_db):
    runner = CliRunner()
    elves = runner.invoke(main, ["card", "Llanowar Elves", "--db", str(bundled_db)])
    assert elves.exit_code == 0, elves.output
    assert "Produced mana: {G}" in elves.output
    assert "1. [activated, mana ability] {T}: Add {G}." in elves.output  # abilities numbered per face
    fire_ice = runner.invoke(main, ["card", "Ice", "--db", str(bundled_db)])  # a face name finds its card
    assert fire_ice.output.startswith("Fire // Ice\n")
    assert "[Fire]" in fire_ice.output and "[Ice]" in fire_ice.output and "Produced mana: none" in fire_ice.output
    assert "Fire 1. [spell] Fire deals 2 damage" in fire_ice.output and "Ice 1. [spell] Tap target permanent." in fire_ice.output
    ego = runner.invoke(main, ["card", "Altered Ego", "--db", str(bundled_db), "--format", "md"])
    assert len(re.findall(r"\n- \*\*\d{4}-\d\d-\d\d\*\*", ego.output)) == 9  # its nine rulings, each with its date


def test_always_annotated_and_rules_are_part_of_the_source_version(tmp_path):
    """Without --rules a refresh of local files uses the bundled CR and records its date; --no-rules
    builds no annotation tables; adding, changing or dropping the rules file is never 'unchanged'."""
    from tests.conftest import MTGJSON_DIR, RULES_TXT

    source = MTGJSON_DIR / "ARN.json.gz"
    db = tmp_path / "arn.duckdb"
    runner = CliRunner()

    def run(*extra):
        result = runner.invoke(main, ["refresh", "--source", str(source), "--db", str(db), "--quiet", *extra])
        assert result.exit_code == 0, result.output
        return result.output

    assert run().startswith("built ")
    meta = dict(rows(db, "SELECT key, value FROM meta"))
    assert meta["rules_effective_date"] == "2026-02-27"
    assert meta["source_version"].endswith(" rules=sha256:" + _sha16(BUNDLED_RULES))
    assert rows(db, "SELECT count(*) FROM rules") == [(3275,)]
    assert rows(db, "SELECT count(*) > 0 FROM ruling_rules") == [(True,)]
    assert run().startswith("unchanged: ")
    # the same CR as a plain-text file is another rules file: a new build
    assert run("--rules", str(RULES_TXT)).startswith("built ")
    assert dict(rows(db, "SELECT key, value FROM meta"))["source_version"].endswith(" rules=sha256:" + _sha16(RULES_TXT))
    assert run("--no-rules").startswith("built ")
    meta = dict(rows(db, "SELECT key, value FROM meta"))
    assert meta["rules_effective_date"] == "none" and meta["source_version"].endswith(" rules=none")
    assert rows(db, "SELECT count(*) FROM information_schema.tables WHERE table_name IN ('rules', 'ruling_rules')") == [(0,)]
    assert run("--no-rules").startswith("unchanged: ")


def _sha16(path) -> str:
    import hashlib
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
