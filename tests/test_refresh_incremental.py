"""An incremental refresh gives the database a cold build of the same sources gives, table by table.

The bundled snapshot (real MTGJSON records) and a modified copy of it: 1 % of its cards get the real
2024 Oracle change "enters the battlefield" → "enters" in every printing, one card loses a ruling
whose text another card shares (so that other card's ruling links change too), one card is
removed. Refreshing the bundled database with the copy takes the incremental path; its tables
must equal a cold build of the copy, and going back to the snapshot must equal the cold bundled build.
"""

from __future__ import annotations

import gzip
import json
import random
import shutil

import duckdb
import pytest

import pipeline.normalize.ingest as ingest
from pipeline.normalize.ingest import collect, collect_sources
from pipeline.normalize.source_records import RENORMALIZE, SOURCE_PREFIX, SourceRecords, source_digest_rows
from pipeline.sources import mtgjson
from pipeline.paths import BUNDLED_CARDS, BUNDLED_RULES
from pipeline.refresh import refresh
from pipeline.store.incremental import SPECIAL, build_digests, card_digests, previous_digests
from tests.conftest import MTGJSON_DIR, rows

#: Differ by design between two builds of the same sources (docs: pipeline/store/incremental.py): run
#: history, parse cache, the changelog's history (an incremental build has a previous one to diff with).
BY_DESIGN = {"runs", "parse_cache", "card_changes", "ability_changes"}  # changelog: history


def fingerprints(db) -> dict[str, tuple]:
    """Row count and an order-independent hash of every table (``meta`` without built_at, no run ids)."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        out = {}
        for (table,) in con.execute("SELECT table_name FROM information_schema.tables "
                                    "WHERE table_type = 'BASE TABLE' ORDER BY 1").fetchall():
            if table in BY_DESIGN:
                continue
            cols = [c for (c,) in con.execute("SELECT column_name FROM information_schema.columns WHERE table_name = ? "
                                              "ORDER BY ordinal_position", [table]).fetchall() if c != "run_id"]
            where = "WHERE key <> 'built_at'" if table == "meta" else ""
            select = ", ".join(f'"{c}"' for c in cols)
            out[table] = con.execute(
                f"SELECT count(*), md5(coalesce(string_agg(h, ',' ORDER BY h), '')) FROM "
                f"(SELECT md5(row({select})::VARCHAR) AS h FROM {table} {where})").fetchone()
        return out
    finally:
        con.close()


def modified_snapshot(path):
    """The bundled snapshot with the changes of the module docstring; returns (path, oracle ids changed)."""
    with gzip.open(BUNDLED_CARDS, "rt", encoding="utf-8") as fh:
        doc = json.load(fh)
    printings = [c for s in doc["data"].values() for c in s["cards"]]
    oid = lambda c: (c.get("identifiers") or {}).get("scryfallOracleId")  # noqa: E731
    etb = sorted({oid(c) for c in printings if "enters the battlefield" in (c.get("text") or "") and oid(c)})
    cards = {oid(c) for c in printings if oid(c)}
    changed = set(random.Random(19).sample(etb, max(1, len(cards) // 100)))
    # a ruling text shared by two cards: the first card (by oracle id) that has it drops it
    holders: dict[str, set[str]] = {}
    for c in printings:
        for r in c.get("rulings") or []:
            if oid(c):
                holders.setdefault(r["text"], set()).add(oid(c))
    text, owners = next((t, o) for t, o in sorted(holders.items()) if len(o) == 2 and not o & changed)
    dropper = min(owners)
    with_rulings = {oid(c) for c in printings if c.get("rulings")}
    removed = next(o for o in sorted(cards) if o not in changed | owners | with_rulings)
    faces = {(c.get("faceName") or c["name"], c["text"]) for c in printings
             if oid(c) in changed and "enters the battlefield" in (c.get("text") or "")}
    removed_faces = {c.get("side") or "a" for c in printings if oid(c) == removed}
    for s in doc["data"].values():
        s["cards"] = [c for c in s["cards"] if oid(c) != removed]
        for c in s["cards"]:
            if oid(c) in changed:
                c["text"] = c["text"].replace("enters the battlefield", "enters")
            if oid(c) == dropper:
                c["rulings"] = [r for r in c["rulings"] if r["text"] != text]
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        json.dump(doc, fh)
    return path, changed | {dropper, removed}, len(faces), len(removed_faces)


@pytest.fixture(scope="module")
def modified(tmp_path_factory):
    return modified_snapshot(tmp_path_factory.mktemp("modified") / "AllPrintings-modified.json.gz")


def test_incremental_equals_cold_build_of_a_modified_snapshot(bundled_db, modified, tmp_path, monkeypatch):
    source, touched, faces_changed, removed_faces = modified
    # the 7 MB snapshot read whole (it is streamed otherwise), so that the incremental reads take the
    # encoded path (simdjson: mtgjson_encoded_units), counted here
    monkeypatch.setattr(mtgjson, "WHOLE_FILE_MAX_BYTES", 64 << 20)
    encoded = []

    def counted(path):
        units = mtgjson.mtgjson_encoded_units(path)
        encoded.append(units is not None)
        return units

    monkeypatch.setattr(ingest, "mtgjson_encoded_units", counted)
    cold = tmp_path / "cold.duckdb"
    assert refresh([source], cold, rules=BUNDLED_RULES, jobs=2).rebuilt_ids is None  # no previous database: cold
    inc = tmp_path / "inc.duckdb"
    shutil.copy(bundled_db, inc)
    outcome = refresh([source], inc, rules=BUNDLED_RULES)
    assert outcome.status == "ok"
    # only the changed cards, and the card sharing the dropped ruling's text, were rebuilt
    assert touched <= outcome.rebuilt_ids and len(outcome.rebuilt_ids) == len(touched) + 1
    assert outcome.parsed == faces_changed  # the texts changed; the others came from the parse cache
    got, want = fingerprints(inc), fingerprints(cold)
    assert set(got) == set(want) and SPECIAL - BY_DESIGN <= set(got)
    assert {t for t in want if got[t] != want[t]} == set()
    assert rows(inc, "SELECT count(*) FROM cards") == [(4371,)]
    assert rows(inc, "SELECT status FROM runs ORDER BY run_id") == [("ok",), ("ok",)]

    # and back: the snapshot again, incrementally, equals the cold bundled build
    back = refresh([BUNDLED_CARDS], inc, rules=BUNDLED_RULES)
    assert back.rebuilt_ids == outcome.rebuilt_ids, back.rebuilt_ids ^ outcome.rebuilt_ids
    # the parse cache keeps only the texts in use, as a cold build's: the old texts and the removed card are parsed again
    assert back.parsed == faces_changed + removed_faces
    assert fingerprints(inc) == fingerprints(bundled_db)
    assert encoded == [True, True]  # the two incremental reads; a cold read decodes the file (it normalizes all)


def kept_records(records: SourceRecords) -> list[tuple]:
    """Every kept unit of ``records`` with its JSON bytes cut out of the file buffer."""
    out = []
    for group, path, kind, where, index, payload, info, name in records._units:
        if type(payload) is tuple:
            blob, offset, size = payload
            payload = bytes(blob[offset:offset + size])
        out.append((group, path, kind, where, index, payload, info, name))
    return out


@pytest.mark.parametrize("name", ["snapshot", "modified", "10E.json.gz", "UNH.json.gz", "SLD.json.gz"])
def test_encoded_records_equal_decoded_records(name, modified, monkeypatch):
    """A file's records as compact JSON without decoding the file (simdjson,
    :func:`pipeline.sources.mtgjson.mtgjson_encoded_units`) give the source digests and kept records
    of the decoded file (:meth:`SourceRecords.add_file`): the bundled AllPrintings snapshot, its
    modified copy and real MTGJSON set files (Unhinged: half mana values; Secret Lair: reversible cards)."""
    monkeypatch.setattr(mtgjson, "WHOLE_FILE_MAX_BYTES", 64 << 20)  # the 7 MB snapshot is streamed otherwise
    path = {"snapshot": BUNDLED_CARDS, "modified": modified[0]}.get(name) or MTGJSON_DIR / name
    encoded = mtgjson.mtgjson_encoded_units(path)
    assert encoded is not None
    decoded, fast = SourceRecords(keep=True), SourceRecords(keep=True)
    assert decoded.add_file(path, mtgjson.mtgjson_units(path)) == fast.add_encoded_file(path, encoded) == len(encoded)
    assert fast.digests() == decoded.digests()
    assert kept_records(fast) == kept_records(decoded)
    assert fast.shortcut and decoded.shortcut
    assert fast._unresolved_names == decoded._unresolved_names
    if name == "snapshot":
        assert (len(encoded), len(fast)) == (4610, 4427)  # records, oracle ids ('' included)
        assert fast._unresolved_names == {"Krark's Thumb", "Okaun, Eye of Chaos", "Propaganda", "Stitch in Time",
                                          "Zndrsplt, Eye of Wisdom"}  # the Secret Lair reversible cards


def test_unusual_files_are_decoded_whole(tmp_path):
    """A set file simdjson cannot take (an integer past 64 bits) is left to the usual decode (None)."""
    src = MTGJSON_DIR / "10E.json.gz"
    with gzip.open(src, "rt", encoding="utf-8") as fh:
        doc = json.load(fh)
    doc["data"]["cards"][0]["edhrecRank"] = 2 ** 70
    path = tmp_path / "10E.json.gz"
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        json.dump(doc, fh)
    assert mtgjson.mtgjson_encoded_units(path) is None
    assert mtgjson.mtgjson_encoded_units(src) is not None


def test_incremental_read_normalizes_only_the_changed_records(bundled_db, modified):
    """The modified snapshot read over the bundled database's digests (pipeline/normalize/source_records.py):
    every record is decoded and digested, only the changed cards' records are normalized, and the cards
    normalized later from the kept records equal those of an ordinary read."""
    source, touched, _, _ = modified
    previous = previous_digests(bundled_db)
    assert previous is not None and any(k.startswith(SOURCE_PREFIX) for k in previous)
    read = collect_sources([source], previous=previous)
    assert read.partial
    whole, _ = collect([source])
    removed = touched - set(whole.cards)
    assert len(removed) == 1  # the removed card has no records, so nothing to normalize
    # and the cards that received a reversible_card record without an oracle id (matched by face name:
    # Propaganda, Krark's Thumb… of the Secret Lair), which are always normalized again
    assert len(whole.resolved) == 5
    assert read.normalized - {""} == (touched - removed) | whole.resolved
    assert set(read.collection.cards) == (touched - removed) | whole.resolved
    # carried: the previous build's digests of the cards not normalized, equal to what normalizing them gives
    digests = card_digests(whole)
    assert read.carried == {k: digests[k] for k in read.carried} and len(read.carried) > 4000
    assert card_digests(read.full()) == digests and not read.partial
    assert len(whole.cards) == 4371


def test_a_record_validation_flags_is_normalized_again_each_time(tmp_path):
    """A card with a quarantined record is marked ``renormalize`` (its data_quality row names the file and the
    record's position, which a digest of the record alone does not cover), so the next read normalizes it again."""
    with gzip.open(BUNDLED_CARDS, "rt", encoding="utf-8") as fh:
        doc = json.load(fh)
    card = next(c for s in doc["data"].values() for c in s["cards"] if c.get("identifiers", {}).get("scryfallOracleId"))
    card["manaValue"] = "three"  # a string where MTGJSON has a number: the record is quarantined
    oracle_id = card["identifiers"]["scryfallOracleId"]
    path = tmp_path / "AllPrintings-flagged.json.gz"
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        json.dump(doc, fh)
    read = collect_sources([path])
    assert [f.issue.oracle_id for f in read.collection.flags] == [oracle_id]
    assert source_digest_rows(read.records, read.collection)[SOURCE_PREFIX + oracle_id] == RENORMALIZE
    again = collect_sources([path], previous=build_digests(read.collection, None, read))  # as a build records them
    assert again.partial and oracle_id in again.normalized
    assert [f.issue.oracle_id for f in again.collection.flags] == [oracle_id]
