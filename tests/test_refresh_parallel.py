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
