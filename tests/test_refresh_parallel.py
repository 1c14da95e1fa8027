"""Parsing in worker processes gives exactly the single-process result, in the same order."""

from __future__ import annotations

import pytest

from pipeline.normalize.ingest import collect
from pipeline.paths import BUNDLED_CARDS
from pipeline.store import abilities
from pipeline.store.abilities import FaceParser


@pytest.fixture(scope="module")
def bundled_cards():
    collection, _ = collect([BUNDLED_CARDS])
    return sorted(collection.cards.values(), key=lambda c: (c.name, c.oracle_id))


def test_workers_give_the_single_process_rows_and_cache(bundled_cards, monkeypatch):
    cards = bundled_cards[:450]  # ≈ 470 distinct face texts: above MIN_PARALLEL, so the workers parse
    monkeypatch.setattr(abilities, "CHUNK", 16)  # many chunks: their order must not matter
    serial, parallel = FaceParser(jobs=1), FaceParser(jobs=2)
    serial_rows = list(serial.ability_rows(cards))
    ticks = []
    parallel_rows = list(parallel.ability_rows(cards, ticks.append))
    assert parallel.parsed == serial.parsed >= abilities.MIN_PARALLEL
    assert sum(ticks) == parallel.parsed  # one tick per face parsed by a worker
    assert parallel_rows == serial_rows
    assert parallel.cache_rows() == serial.cache_rows()
    # real content: Llanowar Elves' one ability, as the grammar reads it
    elves = [r for r in serial_rows if r[4] == "{T}: Add {G}." and r[5] == "activated"]
    assert elves and all(r[6] is True and r[7] is True for r in elves)


def test_cache_hits_are_not_parsed_again(bundled_cards):
    cards = bundled_cards[:40]
    first = FaceParser(jobs=1)
    rows = list(first.ability_rows(cards))
    cache = {k: v for k, _, v in first.cache_rows()}
    second = FaceParser(cache, jobs=2)
    assert list(second.ability_rows(cards)) == rows
    assert second.parsed == 0 and second.cache_rows(only_new=True) == []


def test_workers_started_before_the_read_give_the_single_process_database(tmp_path, monkeypatch):
    """A cold refresh whose parse workers start before the read (pipeline.refresh.early_workers) and parse
    while the parent writes cards, printings, rulings and the CR tables builds the same database,
    table by table, as a refresh parsing in its own process; the workers are gone afterwards."""
    import multiprocessing

    from pipeline import refresh as refresh_mod
    from pipeline.refresh import early_workers, refresh
    from pipeline.store.runs import last_ok, read_state
    from tests.test_refresh_incremental import fingerprints

    serial_db, early_db = tmp_path / "serial.duckdb", tmp_path / "early.duckdb"
    refresh(["bundled"], serial_db, jobs=1)
    monkeypatch.setattr(refresh_mod, "EARLY_WORKERS_MIN_BYTES", 0)  # the snapshot is small: start them anyway
    monkeypatch.setattr(abilities, "CHUNK", 16)
    submitted = []
    real_submit = abilities.ParseWorkers.submit
    monkeypatch.setattr(abilities.ParseWorkers, "submit", lambda self, faces: submitted.append(len(faces))
                        or real_submit(self, faces))
    outcome = refresh(["bundled"], early_db, jobs=2)
    assert submitted == [outcome.parsed] and outcome.parsed >= abilities.MIN_PARALLEL
    assert multiprocessing.active_children() == []
    assert fingerprints(early_db) == fingerprints(serial_db)
    # the next refresh of this database finds every text in its parse cache: no early workers
    state = read_state(early_db)
    assert early_workers(2, last_ok(state.runs), state.files.values()) is None


def test_a_failure_while_the_workers_parse_stops_them(tmp_path, monkeypatch):
    """An error in the work done while the workers parse (here: writing the card-data tables) fails the
    refresh with that error, leaves no database, and stops the workers."""
    import multiprocessing

    from pipeline import refresh as refresh_mod
    from pipeline.refresh import refresh
    from pipeline.store import build

    def broken(*args, **kwargs):
        raise OSError("disk full while writing printings")

    monkeypatch.setattr(refresh_mod, "EARLY_WORKERS_MIN_BYTES", 0)
    monkeypatch.setattr(build, "load_card_data", broken)
    db = tmp_path / "cards.duckdb"
    with pytest.raises(OSError, match="disk full"):
        refresh(["bundled"], db, jobs=2)
    assert multiprocessing.active_children() == []
    assert not db.exists()
