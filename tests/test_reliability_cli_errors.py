"""One error path (issue 16 § 5): every CLI command, run over a set of hostile inputs, prints one
``error:`` line and a documented exit code (1; 2 for a bad command line; 75 busy) — never a traceback."""

from __future__ import annotations

import gzip
import os

import pytest
from click.testing import CliRunner

from pipeline.cli import main
from pipeline.refresh import refresh
from tests.conftest import MTGJSON_DIR


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """Named hostile paths: not a database, a directory, empty, a FIFO, a loop, garbage, deep nesting, bad UTF-8."""
    d = tmp_path_factory.mktemp("hostile")
    paths = {
        "missing": d / "missing.duckdb",
        "text": d / "text.duckdb",
        "empty": d / "empty.duckdb",
        "dir": d / "dir.json",
        "fifo": d / "fifo.json",
        "loop": d / "loop.json",
        "zero": d / "zero.json",
        "garbage": d / "garbage.json.gz",
        "deep": d / "deep.jsonl",
        "latin1": d / "latin1.jsonl",
    }
    paths["text"].write_text("this is not a database\n")
    paths["empty"].write_bytes(b"")
    paths["dir"].mkdir()
    os.mkfifo(paths["fifo"])
    os.symlink(paths["loop"], paths["loop"])
    os.symlink("/dev/zero", paths["zero"])
    paths["garbage"].write_bytes(gzip.compress(os.urandom(2000))[:1500])
    paths["deep"].write_bytes(b'{"object": "card", "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n")
    paths["latin1"].write_bytes('{"object": "card", "name": "Juzám"}\n'.encode("latin-1"))
    paths["good_db"] = d / "cards.duckdb"
    assert refresh([MTGJSON_DIR / "ARN.json.gz"], paths["good_db"]).counts["cards"] == 78
    return paths


def commands(p) -> list[list[str]]:
    db_inputs = ("missing", "text", "empty", "dir", "fifo", "loop", "zero")
    source_inputs = ("missing", "dir", "fifo", "loop", "zero", "garbage", "deep", "latin1", "text")
    out = []
    for name in db_inputs:
        db = str(p[name])
        out += [["query", "--db", db, "SELECT 1"], ["query", "--db", db, "--format", "parquet", "-o",
                                                    str(p["missing"].with_suffix(".parquet")), "SELECT 1"],
                ["card", "--db", db, "Juzám Djinn"], ["export", "--db", db, "--parquet", str(p["dir"].parent / "x")],
                ["schema-doc", "--db", db], ["check-mana", "--db", db], ["coverage", "--db", db]]
    for name in source_inputs:
        out += [["refresh", "--db", str(p["dir"].parent / f"r-{name}.duckdb"), "--quiet", "--source", str(p[name])],
                ["parse", "--jsonl", str(p[name])]]
    good = str(p["good_db"])
    out += [["query", "--db", good, "SELECT * FROM no_such_table"],
            ["query", "--db", good, "SELECT 1/0::INTEGER; SELEC"],
            ["query", "--db", good, "--format", "csv", "-o", good, "SELECT 1"],
            ["query", "--db", good, "--format", "json", "-o", str(p["dir"]), "SELECT 1"],
            ["query", "--db", good, "--format", "csv", "-o", str(p["missing"].parent / "no" / "x.csv"), "SELECT 1"],
            ["query", "--db", good, "--param", "x", "SELECT 1"],
            ["card", "--db", good, "No Such Card \x1b]0;x\x07"], ["card", "--db", good, "Juzám Djinn", "--format", "pdf"],
            ["export", "--db", good, "--parquet", str(p["text"])],
            ["schema-doc", "--db", good, "--output", str(p["missing"].parent / "no" / "schema.md")],
            ["refresh", "--db", good, "--quiet", "--source", str(MTGJSON_DIR / "ARN.json.gz"), "--rules",
             str(p["latin1"])],
            ["refresh", "--db", str(p["text"]), "--quiet", "--source", str(MTGJSON_DIR / "ARN.json.gz")]]
    return out


def test_every_command_over_hostile_inputs_prints_one_error_line(hostile):
    runner = CliRunner()
    failures = []
    for args in commands(hostile):
        result = runner.invoke(main, args)
        err = result.stderr
        lines = err.strip().splitlines()
        problem = None
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            problem = f"traceback: {type(result.exception).__name__}: {result.exception}"
        elif "Traceback" in result.output:
            problem = "traceback in output"
        elif result.exit_code == 2:
            if not lines or not lines[-1].startswith("Error: "):
                problem = f"usage error without click's message: {err!r}"
        elif result.exit_code not in (1, 75):
            problem = f"exit code {result.exit_code}"
        elif len(lines) != 1 or not lines[0].startswith("error: "):
            problem = f"stderr is not one 'error:' line: {err!r}"
        elif "\x1b" in err:
            problem = "raw escape in the message"
        if problem:
            failures.append((args, problem))
    assert not failures, "\n".join(f"{a}: {p}" for a, p in failures)
