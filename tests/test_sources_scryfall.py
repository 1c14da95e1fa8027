"""Scryfall bulk card files: both shapes, gzip or not, multi-face, languages, unknown fields."""

from __future__ import annotations

import json

import pytest

from pipeline.normalize.ingest import collect
from pipeline.normalize.model import OracleCard, OtherObject
from pipeline.sources.errors import SourceError
from pipeline.sources.scryfall import card_from_scryfall, read_scryfall_cards
from tests.conftest import scryfall_2019, scryfall_objects, write_gzip_json, write_jsonl

NAMES = ("Heaven // Earth", "Llanowar Elves", "Delver of Secrets // Insectile Aberration", "Birds of Paradise")


def test_split_card_faces_and_card_level_fields():
    (obj,) = scryfall_objects("Heaven // Earth")
    card = card_from_scryfall(obj, "x.json", 0)
    assert card.oracle_id == "03d3fee8-f7de-4152-8c18-6d279cc6c125"
    assert [f.name for f in card.faces] == ["Heaven", "Earth"]
    assert [f.mana_cost for f in card.faces] == ["{X}{G}", "{X}{R}{R}"]
    assert card.mana_cost == "{X}{G} // {X}{R}{R}"
    assert card.oracle_text == (
        "Heaven deals X damage to each creature with flying.\n//\n"
        "Aftermath (Cast this spell only from your graveyard. Then exile it.)\n"
        "Earth deals X damage to each creature without flying."
    )
    assert obj["colors"] == ["G", "R"] and card.colors == ["R", "G"]  # normalized to WUBRG order
    assert card.source_produced_mana is None  # the 2019 file predates produced_mana


def test_transform_card_colors_are_the_union_of_faces_in_wubrg_order():
    (obj,) = scryfall_objects("Delver of Secrets // Insectile Aberration")
    assert "colors" not in obj  # Scryfall puts colors on the faces of transform cards
    card = card_from_scryfall(obj, "x.json", 0)
    assert card.colors == ["U"]
    assert [f.type_line for f in card.faces] == ["Creature — Human Wizard", "Creature — Human Insect"]
    assert card.faces[1].mana_cost is None


def test_array_and_jsonl_plain_and_gzip_read_the_same(tmp_path):
    objs = scryfall_objects(*NAMES)
    paths = [
        write_gzip_json(tmp_path / "a.json.gz", objs),
        write_jsonl(tmp_path / "b.jsonl.gz", objs),
        write_jsonl(tmp_path / "c.jsonl", objs, gz=False),
    ]
    (tmp_path / "d.json").write_text(json.dumps(objs, indent=2))
    paths.append(tmp_path / "d.json")
    results = [[(c.oracle_id, c.name, c.oracle_text) for c in read_scryfall_cards(p)] for p in paths]
    assert all(r == results[0] for r in results)
    assert [name for _, name, _ in results[0]] == list(NAMES)


def test_unknown_fields_ignored_and_optional_fields_used_when_present():
    (obj,) = scryfall_objects("Llanowar Elves")
    assert "myId" in obj  # the corpus file's own extra field
    current = dict(obj, produced_mana=["G"], keywords=[], some_future_field={"x": 1})
    card = card_from_scryfall(current, "x.json", 0)
    assert card.source_produced_mana == ["G"]
    assert card_from_scryfall(obj, "x.json", 0).source_produced_mana is None


def test_non_english_printings_merge_into_one_oracle_card(tmp_path):
    by_oracle = {}
    for obj in scryfall_2019():
        by_oracle.setdefault(obj["oracle_id"], set()).add(obj["lang"])
    oracle_id = next(o for o, langs in by_oracle.items() if {"en", "es"} <= langs)
    objs = [o for o in scryfall_2019() if o["oracle_id"] == oracle_id]
    collection, _ = collect([write_jsonl(tmp_path / "c.jsonl.gz", objs)])
    assert list(collection.cards) == [oracle_id]
    card = collection.cards[oracle_id]
    assert {lang for _, _, lang in card.printings} >= {"en", "es"}
    english = next(o for o in objs if o["lang"] == "en")
    assert card.oracle_text == english.get("oracle_text", "")


def test_non_game_layouts_go_to_other_objects():
    token = next(o for o in scryfall_2019() if o["layout"] == "token")
    vanguard = next(o for o in scryfall_2019() if o["layout"] == "vanguard")
    for obj in (token, vanguard, dict(token, layout="front_card"), dict(token, layout="art_series")):
        assert isinstance(card_from_scryfall(obj, "x.json", 0), OtherObject)


def test_reversible_card_takes_oracle_id_from_its_faces():
    # Scryfall's reversible_card objects have no top-level oracle_id/oracle_text: each card_face
    # carries them (Scryfall card-object docs). Built from the real 2019 object of the card.
    (obj,) = scryfall_objects("Zndrsplt, Eye of Wisdom")
    face = {k: obj[k] for k in ("name", "mana_cost", "type_line", "oracle_text", "power", "toughness")}
    face.update(object="card_face", oracle_id=obj["oracle_id"], cmc=obj["cmc"], layout="normal")
    reversible = {k: v for k, v in obj.items() if k not in ("oracle_id", "oracle_text", "mana_cost", "type_line")}
    reversible.update(layout="reversible_card", name=f"{obj['name']} // {obj['name']}", card_faces=[face, face])
    card = card_from_scryfall(reversible, "x.json", 0)
    assert isinstance(card, OracleCard)
    assert card.oracle_id == obj["oracle_id"]
    assert card.faces[0].oracle_text == obj["oracle_text"]


def test_game_card_without_oracle_id_names_file_record_and_field(tmp_path):
    objs = scryfall_objects("Llanowar Elves", "Birds of Paradise")
    broken = dict(objs[1])
    del broken["oracle_id"]
    path = write_jsonl(tmp_path / "cards.jsonl.gz", [objs[0], broken])
    with pytest.raises(SourceError) as err:
        list(read_scryfall_cards(path))
    message = str(err.value)
    assert str(path) in message and "#1" in message and "Birds of Paradise" in message and "oracle_id" in message
    assert "\n" not in message


def test_full_2019_file_counts(corpus):
    collection, info = collect([corpus / "scryfall-2019" / "cards-2019.json.gz"])
    assert len(collection.cards) == 19_771
    layouts = {}
    for o in collection.other.values():
        layouts[o.layout] = layouts.get(o.layout, 0) + 1
    # 19,771 cards + 259 other objects = the file's 20,030 oracle ids
    assert layouts == {"token": 134, "vanguard": 106, "double_faced_token": 7, "planar": 6, "scheme": 5, "emblem": 1}
    assert sum(len(c.faces) for c in collection.cards.values()) == 20_015
    assert collection.text_conflicts  # two oracle ids carry two wordings in this file (Ember Hauler, Tezzeret's Gambit)
    assert info.kind == "scryfall"
