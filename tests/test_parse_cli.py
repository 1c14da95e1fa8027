"""CLI: `parse TEXT`, `parse --jsonl FILE`, `coverage --db PATH` (pipeline/serve/cli_parse.py)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from pipeline.parse import parse_face
from pipeline.serve.cli_parse import coverage_command, parse_command

CARDS = [  # real oracle text (MTGJSON 2022 corpus)
    ("00000000-0000-0000-0000-000000000001", "Llanowar Elves", "Creature — Elf Druid", "{T}: Add {G}."),
    ("00000000-0000-0000-0000-000000000002", "Gemstone Mine", "Land",
     "Gemstone Mine enters the battlefield with three mining counters on it.\n{T}, Remove a mining counter from "
     "Gemstone Mine: Add one mana of any color. If there are no mining counters on Gemstone Mine, sacrifice it."),
    ("00000000-0000-0000-0000-000000000003", "Delver of Secrets", "Creature — Human Wizard",
     "At the beginning of your upkeep, look at the top card of your library. You may reveal that card. If an "
     "instant or sorcery card is revealed this way, transform Delver of Secrets."),
]


def test_parse_text():
    res = CliRunner().invoke(parse_command, ["{T}: Add {G}.", "--name", "Llanowar Elves"])
    assert res.exit_code == 0, res.output
    (ab,) = json.loads(res.output)
    assert ab["kind"] == "activated" and ab["is_mana_ability"] and ab["fully_parsed"]


def test_parse_jsonl(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(json.dumps({"name": n, "oracle_text": t, "type_line": tl}) for _, n, tl, t in CARDS),
                   encoding="utf-8")
    res = CliRunner().invoke(parse_command, ["--jsonl", str(src)])
    assert res.exit_code == 0, res.output
    rows = [json.loads(l) for l in res.output.splitlines()]
    assert [r["name"] for r in rows] == ["Llanowar Elves", "Gemstone Mine", "Delver of Secrets"]
    assert rows[0]["fully_parsed"] and rows[0]["produced_mana"] == ["G"]
    assert rows[1]["produced_mana"] == ["W", "U", "B", "R", "G"]


def test_parse_jsonl_bad_record(tmp_path):
    src = tmp_path / "bad.jsonl"
    src.write_text('{"name": "X"}\n', encoding="utf-8")
    res = CliRunner().invoke(parse_command, ["--jsonl", str(src)])
    assert res.exit_code != 0 and f"{src}:1: field 'oracle_text' missing" in res.output


def test_coverage(tmp_path):
    db = tmp_path / "cards.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE cards (oracle_id VARCHAR, name VARCHAR)")
    con.execute("CREATE TABLE faces (oracle_id VARCHAR, face_index INT, name VARCHAR, mana_cost VARCHAR, "
                "type_line VARCHAR, oracle_text VARCHAR)")
    con.execute("CREATE TABLE abilities (ability_id VARCHAR, oracle_id VARCHAR, face_index INT, ability_index INT, "
                "text VARCHAR, kind VARCHAR, is_mana_ability BOOLEAN, fully_parsed BOOLEAN, ast JSON)")
    expected_lines, expected_faces = [], []
    for oid, name, tl, text in CARDS:
        con.execute("INSERT INTO cards VALUES (?, ?)", [oid, name])
        con.execute("INSERT INTO faces VALUES (?, 0, ?, '', ?, ?)", [oid, name, tl, text])
        abilities = parse_face(text, name=name, type_line=tl)
        expected_faces.append(all(a.fully_parsed for a in abilities))
        for a in abilities:
            expected_lines.append(a.fully_parsed)
            con.execute("INSERT INTO abilities VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?)",
                        [f"{oid}:{a.index}", oid, a.index, a.text, a.kind, a.is_mana_ability, a.fully_parsed,
                         json.dumps(a.to_json())])
    con.close()
    res = CliRunner().invoke(coverage_command, ["--db", str(db), "--json"])
    assert res.exit_code == 0, res.output
    rep = json.loads(res.output)
    assert rep["lines"]["total"] == len(expected_lines) == 4
    assert rep["lines"]["fully_parsed"] == sum(expected_lines)
    assert rep["faces"]["total"] == 3
    for s in rep["unparsed_shapes"]:
        assert "Delver of Secrets" not in s["shape"] and not any(ch.isdigit() for ch in s["shape"])
    text = CliRunner().invoke(coverage_command, ["--db", str(db)]).output
    # the faces whose every ability round-trips, as the parser says (all three since Gemstone Mine's
    # "If there are no mining counters on ~" reads, 2026-12-02)
    done = sum(expected_faces)
    assert "faces round-tripping:" in text and f"{100 * done / 3:.1f}% ({done}/3)" in text


ORACLE_2026 = Path(__file__).parents[1].parent / "shared" / "corpus" / "oracle-2026" / "cards-2026.jsonl.gz"


@pytest.mark.corpus
def test_coverage_jsonl_oracle_2026_shape(tmp_path):
    """`coverage --jsonl` on real oracle-2026 records, copied verbatim: a normal card, a split
    card whose second face has no text (faces_complete false) and a plane (left out)."""
    want = {"Llanowar Elves", "Life // Death", "Academy at Tolaria West"}
    lines = [l for l in gzip.open(ORACLE_2026, "rt", encoding="utf-8") if json.loads(l)["name"] in want]
    assert len(lines) == 3
    src = tmp_path / "o26.jsonl"
    src.write_text("".join(lines), encoding="utf-8")
    res = CliRunner().invoke(coverage_command, ["--jsonl", str(src), "--json"])
    assert res.exit_code == 0, res.output
    rep = json.loads(res.output)
    assert rep["records"] == 3 and rep["left_out"] == 1
    assert rep["faces"]["total"] == 2  # Llanowar Elves, Life (Death has no text here)
    assert rep["mana_lines"] == {"total": 1, "fully_parsed": 1, "fraction": 1.0}
    out = CliRunner().invoke(parse_command, ["--jsonl", str(src)]).output.splitlines()
    recs = [json.loads(l) for l in out]
    assert len(recs) == 3  # one output record per input record
    life = next(r for r in recs if r["name"] == "Life // Death")
    assert [f["name"] for f in life["faces"]] == ["Life"]
    elves = next(r for r in recs if r["name"] == "Llanowar Elves")
    assert elves["fully_parsed"] and elves["ast"][0]["rendered"] == "{T}: Add {G}."


def test_coverage_jsonl_reads_gzip_like_the_plain_file(tmp_path):
    """The oracle-2026 corpus ships gzipped: `coverage --jsonl` reads it as it is, with the same report."""
    import itertools

    corpus = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "oracle-2026" / "cards-2026.jsonl.gz"
    with gzip.open(corpus, "rt", encoding="utf-8") as fh:
        lines = list(itertools.islice(fh, 40))
    plain = tmp_path / "cards.jsonl"
    plain.write_text("".join(lines), encoding="utf-8")
    packed = tmp_path / "cards.jsonl.gz"
    with gzip.open(packed, "wt", encoding="utf-8") as fh:
        fh.write("".join(lines))
    reports = [CliRunner().invoke(coverage_command, ["--jsonl", str(p), "--json"]) for p in (plain, packed)]
    assert [r.exit_code for r in reports] == [0, 0], [r.output for r in reports]
    assert json.loads(reports[0].output) == json.loads(reports[1].output)
    assert json.loads(reports[1].output)["faces"]["total"] == 40


def test_jsonl_that_is_not_utf8_is_one_error_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\x8b\xff\n")
    result = CliRunner().invoke(coverage_command, ["--jsonl", str(bad)])
    assert result.exit_code == 1
    assert f"{bad}:1: not UTF-8 text" in result.output
