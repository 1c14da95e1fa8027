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
    """A cold refresh whose parse workers start before the read (pipeline.refresh.early_workers), parse the
    faces of each file as soon as it is read (ParseWorkers.prefetch) and go on while the parent writes
    cards, printings, rulings and the CR tables, and whose annotation features
    are computed in worker processes while the parent derives (pipeline.annotate.FeatureJob), builds
    the same database, table by table, as a refresh doing everything in its own process; the workers
    are gone afterwards."""
    import multiprocessing

    from pipeline import annotate
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
    prefetched = []
    real_prefetch = abilities.ParseWorkers.prefetch
    monkeypatch.setattr(abilities.ParseWorkers, "prefetch", lambda self, faces: prefetched.append(len(faces))
                        or real_prefetch(self, faces))
    monkeypatch.setattr(annotate, "FEATURE_CHUNK", 300)  # 15 chunks of the snapshot's 4,372 cards
    feature_workers = []
    real_init = annotate.FeatureJob.__init__

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        feature_workers.append(self._pool is not None)

    monkeypatch.setattr(annotate.FeatureJob, "__init__", init)
    outcome = refresh(["bundled"], early_db, jobs=2)
    # the snapshot is one file: its faces go to the workers once, as the read finishes it; nothing is left
    assert submitted == [outcome.parsed] and outcome.parsed >= abilities.MIN_PARALLEL
    assert prefetched == [outcome.parsed]
    assert feature_workers == [True] and outcome.counts["cards"] >= annotate.MIN_PARALLEL_CARDS
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


def test_a_read_error_stops_the_workers_started_before_the_read(tmp_path, monkeypatch):
    """A source that fails to read (the bundled snapshot cut in half: a truncated gzip) fails the refresh
    with a SourceError naming the file, and stops the parse workers started before the read."""
    import multiprocessing

    from pipeline import refresh as refresh_mod
    from pipeline.refresh import refresh
    from pipeline.sources.errors import SourceError

    data = BUNDLED_CARDS.read_bytes()
    cut = tmp_path / "AllPrintings.json.gz"
    cut.write_bytes(data[:len(data) // 2])
    monkeypatch.setattr(refresh_mod, "EARLY_WORKERS_MIN_BYTES", 0)
    started = []
    real_init = abilities.ParseWorkers.__init__
    monkeypatch.setattr(abilities.ParseWorkers, "__init__", lambda self, jobs: started.append(jobs)
                        or real_init(self, jobs))
    with pytest.raises(SourceError, match="AllPrintings.json.gz"):
        refresh([cut], tmp_path / "cards.duckdb", jobs=2)
    assert started == [2]
    assert multiprocessing.active_children() == []
