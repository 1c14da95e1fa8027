"""The shared ``data_quality`` table and its writer API (pipeline/store/data_quality.py)."""

from __future__ import annotations

import duckdb
import pytest

from pipeline.store.data_quality import (MAX_VALUE_CHARS, DataQualityIssue, count_issues, record_issues,
                                         stamp_run_id)
from pipeline.store.schema import create_tables
from tests.conftest import rows


@pytest.fixture
def con():
    c = duckdb.connect()
    create_tables(c)
    yield c
    c.close()


def test_issues_are_written_then_stamped_with_the_run(con):
    # A real Scryfall quirk the derive stage meets: produced_mana holding a number (issue 16).
    n = record_issues(con, [
        DataQualityIssue("cards.jsonl.gz", "#3 (id='x', name='Sol Ring')", "6ad8011d-3471-4369-9d68-b264cc027487",
                         "produced_mana", ["1"], "ignored"),
        DataQualityIssue("AllPrintings.json", "data.LEA.cards[5]", None, "colors[0]", "X", "quarantined"),
    ])
    assert n == 2
    assert stamp_run_id(con, 7) == 2
    assert con.execute("SELECT run_id, source_file, record, oracle_id, field, value, action FROM data_quality "
                       "ORDER BY field").fetchall() == [
        (7, "AllPrintings.json", "data.LEA.cards[5]", None, "colors[0]", '"X"', "quarantined"),
        (7, "cards.jsonl.gz", "#3 (id='x', name='Sol Ring')", "6ad8011d-3471-4369-9d68-b264cc027487",
         "produced_mana", '["1"]', "ignored"),
    ]
    assert count_issues(con) == 2 and count_issues(con, "ignored") == 1


def test_long_and_odd_values_are_cut_not_refused(con):
    record_issues(con, [DataQualityIssue(None, "#0", None, "oracle_text", "x" * 10_000, "quarantined"),
                        DataQualityIssue(None, "#1", None, "cmc", float("nan"), "quarantined"),
                        DataQualityIssue(None, "#2", None, "name", None, "quarantined")])
    values = [v for (v,) in con.execute("SELECT value FROM data_quality ORDER BY record").fetchall()]
    assert len(values[0]) == MAX_VALUE_CHARS and values[0].endswith("…")
    assert values[1:] == ["NaN", None]


def test_unknown_action_is_refused(con):
    with pytest.raises(ValueError, match="'dropped' is not one of"):
        record_issues(con, [DataQualityIssue(None, None, None, "colors", [], "dropped")])
    assert count_issues(con) == 0


def test_built_database_has_the_commented_table(bundled_db):
    assert rows(bundled_db, "SELECT count(*) FROM data_quality") == [(0,)]
    comments = rows(bundled_db, "SELECT column_name, comment FROM duckdb_columns() WHERE table_name = 'data_quality' "
                                "ORDER BY column_index")
    assert [c for c, _ in comments] == ["run_id", "source_file", "record", "oracle_id", "field", "value", "action"]
    assert all(text for _, text in comments)
