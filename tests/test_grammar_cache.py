"""The on-disk grammar cache (pipeline/parse/grammar.py): Lark's ``cache=`` with the WordLexer.

Every test builds or loads the real oracle grammar with the real Lark; cache directories are
tmp_path. Fresh processes (``python -c``) are the point: the cache exists to skip the LALR
construction in the *next* process. No timings are asserted (see benchmarks/README.md).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import lark
import pytest
from click.testing import CliRunner

from pipeline.cli import main
from pipeline.parse.grammar import (KEEP_CACHE_FILES, build_parser, cache_file_name, grammar_cache_path, grammar_text,
                                    grammar_version)
from pipeline.paths import GRAMMAR_CACHE_ENV

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(__file__).parents[1].parent / "shared" / "corpus"
M10 = CORPUS / "mtgjson-v5-20220425" / "M10.json.gz"

#: Run in a fresh interpreter: build or load the parser (cache dir from the environment), then
#: parse every card face of the set file given as argv[1]; print one JSON line.
CHILD = """
import gzip, json, sys
from pipeline.parse.grammar import get_parser, grammar_cache_path
from pipeline.parse import parse_face
source = get_parser().source_path
with gzip.open(sys.argv[1], "rt", encoding="utf-8") as fh:
    cards = json.load(fh)["data"]["cards"]
asts = {}
for c in cards:
    if c.get("text"):
        asts[c["name"]] = [a.to_json() for a in parse_face(c["text"], name=c["name"], type_line=c["type"])]
print(json.dumps({"source_path": source, "cache_file": str(grammar_cache_path()), "asts": asts}))
"""


def run_child(cache_dir: Path) -> dict:
    """Parse M10 in a fresh process with the grammar cache in ``cache_dir``; return its JSON."""
    env = dict(os.environ, **{GRAMMAR_CACHE_ENV: str(cache_dir)})
    proc = subprocess.run([sys.executable, "-c", CHILD, str(M10)], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def cold(tmp_path_factory) -> tuple[Path, dict]:
    """A first process with an empty cache dir: builds the parser and writes the cache file."""
    cache_dir = tmp_path_factory.mktemp("grammar-cache")
    return cache_dir, run_child(cache_dir)


@pytest.mark.corpus
def test_first_process_builds_and_writes_the_cache_file(cold):
    cache_dir, out = cold
    assert out["source_path"] == "<string>"  # Lark built it from the grammar text
    path = Path(out["cache_file"])
    assert path.parent == cache_dir
    assert path.name == cache_file_name(grammar_text())
    assert path.is_file() and path.stat().st_size > 100_000
    # Lark's own key on the first line: sha256 hex of grammar text + options + Lark version
    assert len(path.read_bytes().split(b"\n", 1)[0]) == 64


@pytest.mark.corpus
def test_second_process_loads_the_cache_and_parses_identically(cold):
    cache_dir, first = cold
    second = run_child(cache_dir)
    assert second["source_path"] == "<deserialized>"  # Lark loaded it from the file
    assert len(first["asts"]) > 200  # every M10 card with text
    assert second["asts"] == first["asts"]
    # and the parse is the real one, not merely equal: Llanowar Elves and Clone (M10)
    [elves] = second["asts"]["Llanowar Elves"]
    assert elves["kind"] == "activated" and elves["fully_parsed"] and elves["is_mana_ability"]
    assert elves["body"]["cost"]["components"] == [{"node": "TapCost"}]
    add = elves["body"]["effect"][0]["effects"][0]
    assert add["node"] == "AddMana" and [s["raw"] for s in add["symbols"]] == ["{G}"]
    [clone] = second["asts"]["Clone"]
    copy = clone["body"]["effect"][0]["effects"][0]
    assert copy["node"] == "CopyEffect" and copy["mode"] == "enter_as_copy" and copy["optional"]
    assert copy["original"]["words"] == ["creature"]


@pytest.mark.corpus
def test_two_processes_starting_at_once_share_one_build(cold, tmp_path):
    """Cold cache, two processes at once: the file lock lets one build and write while the other
    waits, then loads the file (never half a file)."""
    _, first = cold
    env = dict(os.environ, **{GRAMMAR_CACHE_ENV: str(tmp_path / "c")})
    procs = [subprocess.Popen([sys.executable, "-c", CHILD, str(M10)], cwd=ROOT, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = []
    for proc in procs:
        stdout, stderr = proc.communicate(timeout=600)
        assert proc.returncode == 0, stderr[-3000:]
        outs.append(json.loads(stdout.strip().splitlines()[-1]))
    assert sorted(o["source_path"] for o in outs) == ["<deserialized>", "<string>"]
    assert outs[0]["asts"] == outs[1]["asts"] == first["asts"]


def _truncate(data: bytes) -> bytes:
    return data[: len(data) // 2]  # Lark's key line intact, the pickle cut off mid-way


def _garbage(data: bytes) -> bytes:
    return b"this is not a grammar cache\n" + bytes(range(256)) * 10


@pytest.mark.corpus
@pytest.mark.parametrize("corrupt", [_truncate, _garbage], ids=["truncated", "garbage"])
def test_corrupt_cache_file_is_rebuilt(cold, tmp_path, corrupt):
    cache_dir, first = cold
    shutil.copytree(cache_dir, tmp_path / "c")
    path = tmp_path / "c" / Path(first["cache_file"]).name
    good = path.read_bytes()
    path.write_bytes(corrupt(good))
    out = run_child(tmp_path / "c")
    assert out["source_path"] == "<string>"  # not loaded: rebuilt
    assert out["asts"] == first["asts"]
    # the file was rewritten whole: the next load uses it
    assert path.stat().st_size > len(good) // 2 + 1000
    assert build_parser(grammar_text(), path).source_path == "<deserialized>"


def test_changed_grammar_text_gives_a_different_key():
    text = grammar_text()
    name = cache_file_name(text)
    assert name == f"oracle-{grammar_version()}-lark{lark.__version__}-py{sys.version_info[0]}.{sys.version_info[1]}.pickle"
    changed = text + "\n// one more comment\n"
    assert cache_file_name(changed) != name
    assert cache_file_name(text) == name


@pytest.mark.corpus
def test_stale_file_under_a_new_key_is_rebuilt_not_loaded(cold, tmp_path):
    """Lark's own key (first line of the file) catches a file of another grammar even under the
    changed grammar's name: it rebuilds, never loads it."""
    _, first = cold
    changed = grammar_text() + "\n// one more comment\n"
    stale = tmp_path / cache_file_name(changed)
    shutil.copyfile(Path(first["cache_file"]), stale)
    # files of earlier grammar versions, oldest first: a new write keeps the KEEP_CACHE_FILES newest
    olds = [tmp_path / f"oracle-1.{i:010x}-lark{lark.__version__}-py3.11.pickle" for i in range(KEEP_CACHE_FILES)]
    for age, old in enumerate(reversed(olds), start=1):
        old.write_bytes(b"x")
        os.utime(old, (time.time() - 3600 * age, time.time() - 3600 * age))
    parser = build_parser(changed, stale)
    assert parser.source_path == "<string>"
    assert sorted(tmp_path.glob("oracle-*.pickle")) == sorted([stale, *olds[1:]])  # olds[0] was the oldest
    assert build_parser(changed, stale).source_path == "<deserialized>"  # now it holds the changed grammar


def test_unwritable_cache_dir_builds_in_memory(tmp_path, caplog):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the cache dir's parent should be\n")
    path = blocker / "grammar" / cache_file_name(grammar_text())
    with caplog.at_level(logging.DEBUG, logger="pipeline.parse.grammar"):
        parser = build_parser(grammar_text(), path)
    assert parser.source_path == "<string>"
    tree = parser.parse("{t}", start="start_cost")
    assert [t.type for t in tree.scan_values(lambda v: isinstance(v, lark.Token))] == ["TAP_SYM"]
    assert not path.exists()
    assert any("building in memory" in r.getMessage() for r in caplog.records)


def test_grammar_cache_dir_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv(GRAMMAR_CACHE_ENV, str(tmp_path / "g"))
    assert grammar_cache_path() == tmp_path / "g" / cache_file_name(grammar_text())
    result = CliRunner().invoke(main, ["paths"])
    assert result.exit_code == 0, result.output
    assert f"grammar:  {tmp_path / 'g'}" in result.output.splitlines()
    monkeypatch.delenv(GRAMMAR_CACHE_ENV)
    monkeypatch.setenv("MTG_PIPELINE_CACHE", str(tmp_path / "downloads"))
    assert grammar_cache_path().parent == tmp_path / "downloads" / "grammar"
