"""A refreshed database opens in other DuckDB readers: the newest 1.x ``duckdb-cli`` from PyPI.

The database is written by the ``duckdb`` Python package (2.x), in the storage format of
:data:`pipeline.store.storage.STORAGE_VERSION`. The CLI is installed in its own venv
(``.venv-duckdb-cli``, or ``$MTG_PIPELINE_DUCKDB_CLI``) by the README's test command, which
``.ci/run`` runs; tests never download. A missing CLI fails the test (it is not skipped).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from pipeline.store.storage import STORAGE_VERSION
from tests.conftest import ROOT, bundled_database, rows

CLI = Path(os.environ.get("MTG_PIPELINE_DUCKDB_CLI") or ROOT / ".venv-duckdb-cli" / "bin" / "duckdb")
INSTALL = "python3 -m venv .venv-duckdb-cli && .venv-duckdb-cli/bin/pip install -q 'duckdb-cli<2'"


def cli(db: Path, sql: str) -> list[dict]:
    """Rows of ``sql`` run by the DuckDB CLI on ``db`` opened read-only, as JSON objects."""
    done = subprocess.run([str(CLI), "-readonly", "-json", str(db), "-c", sql],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout or "[]")


def test_duckdb_cli_1x_reads_every_table_and_view_of_a_refreshed_database():
    assert CLI.is_file(), f"DuckDB CLI missing at {CLI}; install it with `{INSTALL}` (the README's test command does)"
    version = subprocess.run([str(CLI), "--version"], capture_output=True, text=True, timeout=60).stdout
    assert version.startswith("v1."), version  # an older reader than the writer (duckdb 2.x)
    db = bundled_database()
    assert rows(db, "SELECT tags['storage_version'] FROM duckdb_databases() WHERE database_name = current_database()"
                ) == [(STORAGE_VERSION + "+",)]
    relations = [n for (n,) in rows(db, "SELECT table_name FROM duckdb_tables() UNION ALL "
                                        "SELECT view_name FROM duckdb_views() WHERE NOT internal ORDER BY 1")]
    assert {"cards", "abilities", "ast_nodes", "mana_producers", "copy_effects", "card_rules"} <= set(relations)
    counts = " UNION ALL ".join(f"SELECT '{n}' AS relation, count(*) AS n FROM {n}" for n in relations)
    expected = {n: c for n, c in rows(db, counts)}
    assert expected["cards"] == 4372
    assert {r["relation"]: r["n"] for r in cli(db, counts)} == expected
    # values, lists and structs read the same (views are re-bound by the older reader)
    sql = ("SELECT name, produced_mana, production_kinds FROM mana_producers "
           "WHERE name IN ('Birds of Paradise', 'Gemstone Mine') ORDER BY name")
    assert [tuple(r.values()) for r in cli(db, sql)] == [tuple(r) for r in rows(db, sql)]
    sql = "SELECT name, extra_counters FROM copy_effects WHERE name = 'Altered Ego'"
    assert cli(db, sql) == [{"name": "Altered Ego", "extra_counters": [
        {"counter": "+1/+1", "amount": "X", "is_x": True}]}]
