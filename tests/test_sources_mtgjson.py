"""MTGJSON files: one set file, AllPrintings, AtomicCards, a directory; faces, meld, reversible cards, rulings."""

from __future__ import annotations


import pytest

from pipeline.normalize.ingest import collect
from pipeline.paths import BUNDLED_CARDS
from pipeline.sources.detect import MTGJSON, MTGJSON_DIR, detect_source
from pipeline.sources.errors import SourceError
from tests.conftest import MTGJSON_DIR as SETS, mtgjson_set, write_gzip_json


def card_named(collection, name):
    matches = [c for c in collection.cards.values() if c.name == name]
    assert len(matches) == 1, f"{name}: {len(matches)} matches"
    return matches[0]


def test_set_file_transform_card_has_both_faces_and_rulings():
    collection, info = collect([SETS / "MID.json.gz"])
    assert info.version.startswith("5.2.0+20220425+sha256:")
    card = card_named(collection, "Ambitious Farmhand // Seasoned Cathar")
    assert card.oracle_id == "b85e7ab2-6f57-4b65-8c16-034b342996f0"
    assert card.layout == "transform"
    assert [f.name for f in card.faces] == ["Ambitious Farmhand", "Seasoned Cathar"]
    assert card.mana_cost == "{1}{W}"  # the back face has no mana cost
    assert card.faces[0].oracle_text.startswith("When Ambitious Farmhand enters the battlefield, you may search")
    rulings = [r for r in collection.rulings.values() if r.oracle_id == card.oracle_id]
    assert rulings and all(r.source is None for r in rulings)  # MTGJSON does not say who issued a ruling


def test_five_face_split_card_and_meld_parts(corpus):
    collection, _ = collect([SETS / "UNH.json.gz", SETS / "EMN.json.gz"])
    who = card_named(collection, "Who // What // When // Where // Why")
    assert [f.name for f in who.faces] == ["Who", "What", "When", "Where", "Why"]
    # Meld: each part and the melded permanent are separate oracle cards (as on Scryfall).
    bruna = card_named(collection, "Bruna, the Fading Light")
    brisela = card_named(collection, "Brisela, Voice of Nightmares")
    assert bruna.layout == brisela.layout == "meld"
    assert [f.face_index for f in brisela.faces] == [0]


def test_directory_of_set_files_matches_all_printings_shape(tmp_path):
    # An AllPrintings-shaped file built from two real set files holds the same cards as the directory.
    (tmp_path / "sets").mkdir()
    docs = {}
    for code in ("M19", "DOM"):
        docs[code] = mtgjson_set(code)
        write_gzip_json(tmp_path / "sets" / f"{code}.json.gz", docs[code])
    all_printings = write_gzip_json(tmp_path / "AllPrintings.json.gz",
                                    {"meta": docs["M19"]["meta"], "data": {c: d["data"] for c, d in docs.items()}})
    assert detect_source(tmp_path / "sets") == MTGJSON_DIR
    assert detect_source(all_printings) == MTGJSON
    from_dir, _ = collect([tmp_path / "sets"])
    from_file, _ = collect([all_printings])
    assert from_dir.cards.keys() == from_file.cards.keys()
    assert len(from_dir.rulings) == len(from_file.rulings) > 0
    elves = card_named(from_file, "Llanowar Elves")
    assert {p[0] for p in elves.printings} == {"M19", "DOM"}


def test_atomic_cards_shape(tmp_path):
    # AtomicCards.json: {"meta", "data": {card name: [one record per face]}} — built from real set records.
    records = [c for c in mtgjson_set("MID")["data"]["cards"]
               if c["name"] in ("Ambitious Farmhand // Seasoned Cathar", "Adeline, Resplendent Cathar")]
    data = {}
    for r in records:
        data.setdefault(r["name"], [])
        if r.get("side", "a") not in [x.get("side", "a") for x in data[r["name"]]]:
            data[r["name"]].append(r)
    path = write_gzip_json(tmp_path / "AtomicCards.json.gz", {"meta": mtgjson_set("MID")["meta"], "data": data})
    collection, _ = collect([path])
    assert sorted(c.name for c in collection.cards.values()) == [
        "Adeline, Resplendent Cathar", "Ambitious Farmhand // Seasoned Cathar"]


def test_reversible_cards_without_oracle_id_resolve_by_face_name(tmp_path):
    doc = mtgjson_set("SLD")
    cards = [c for c in doc["data"]["cards"] if c["name"].startswith("Zndrsplt")]
    assert [c["layout"] for c in cards] == ["reversible_card", "reversible_card"]
    assert all("scryfallOracleId" not in c["identifiers"] for c in cards)
    sld = write_gzip_json(tmp_path / "SLD.json.gz", {"meta": doc["meta"], "data": dict(doc["data"], cards=cards)})
    collection, _ = collect([sld, SETS / "BBD.json.gz"])  # Battlebond holds its normal printing
    card = card_named(collection, "Zndrsplt, Eye of Wisdom")
    assert card.layout == "normal"  # the card's own layout; the reversible printing is merged into it
    assert {p[0] for p in card.printings} == {"SLD", "BBD"}


def test_reversible_card_alone_is_an_error(tmp_path):
    doc = mtgjson_set("SLD")
    cards = [c for c in doc["data"]["cards"] if c["layout"] == "reversible_card"][:2]
    path = write_gzip_json(tmp_path / "SLD.json.gz", {"meta": doc["meta"], "data": dict(doc["data"], cards=cards)})
    with pytest.raises(SourceError, match="no oracle id and matches no other card"):
        collect([path])


def test_card_without_oracle_id_names_the_record(tmp_path):
    doc = mtgjson_set("M19")
    cards = [dict(c) for c in doc["data"]["cards"][:5]]
    cards[3] = dict(cards[3], identifiers={k: v for k, v in cards[3]["identifiers"].items()
                                           if k != "scryfallOracleId"})
    path = write_gzip_json(tmp_path / "M19.json.gz", {"meta": doc["meta"], "data": dict(doc["data"], cards=cards)})
    with pytest.raises(SourceError) as err:
        collect([path])
    message = str(err.value)
    assert str(path) in message and "M19 cards#3" in message and cards[3]["name"] in message
    assert "identifiers.scryfallOracleId" in message


def test_bundled_snapshot_counts():
    collection, info = collect([BUNDLED_CARDS])
    assert info.version.startswith("5.2.0+20220425+sha256:")
    assert len(collection.cards) == 4372
    assert len(collection.rulings) == 10550  # incl. the rulings of planes, schemes and vanguards
    layouts = {c.layout for c in collection.cards.values()}
    assert {"split", "aftermath", "flip", "transform", "modal_dfc", "meld", "adventure", "saga", "class",
            "leveler", "host", "augment"} <= layouts
    assert sorted({o.layout for o in collection.other.values()}) == [
        "planar", "scheme", "token", "vanguard"]


def test_full_mtgjson_corpus_counts(corpus):
    collection, _ = collect([SETS])
    other = {}
    for o in collection.other.values():
        other[o.layout] = other.get(o.layout, 0) + 1
    assert len(collection.cards) == 23_549
    # 23,549 cards + 86 planes + 70 schemes + 33 vanguards = the corpus's 23,738 oracle ids
    assert (other["planar"], other["scheme"], other["vanguard"]) == (86, 70, 33)
    assert sum(len(c.faces) for c in collection.cards.values()) == 23_995
    assert len(collection.rulings) == 45_047  # incl. 538 rulings of planes, schemes and vanguards
    assert not collection.text_conflicts
