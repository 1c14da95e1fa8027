"""Copy semantics (pipeline/derive/copies.py, CR 707.9) on real cards of the bundled snapshot:
each exception's CR 707.9 class with set vs added and its structured values, and copy_effects
rows for populate (CR 701.36a) and the token-copy keywords. Test names say the rule."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import bundled_database, rows


@pytest.fixture(scope="module")
def db() -> Path:
    return bundled_database()


def _exceptions(db, name: str) -> list[dict]:
    cols = ["source", "kind", "rule", "rules", "operation", "characteristic", "applies_if", "condition", "types",
            "supertypes_removed", "colors", "pt", "loyalty", "name", "mana_cost", "abilities", "counters"]
    out = []
    for r in rows(db, f"""SELECT {', '.join('x.' + c for c in cols)} FROM copy_exceptions x JOIN cards c USING (oracle_id)
                         WHERE c.name = ? ORDER BY x.ability_id, x.path, x.position""", [name]):
        d = dict(zip(cols, r))
        d["counters"] = json.loads(d["counters"])
        out.append(d)
    return out


def test_cr_707_9b_types_added_vs_set_phyrexian_metamorph_and_the_scarab_god(db):
    (added,) = _exceptions(db, "Phyrexian Metamorph")     # "except it's an artifact in addition to its other types"
    assert (added["rule"], added["operation"], added["characteristic"], added["types"]) == (
        "CR 707.9b", "added", "types", ["artifact"])
    (scarab,) = _exceptions(db, "The Scarab God")         # "except it's a 4/4 black Zombie"
    assert (scarab["rule"], scarab["operation"], scarab["types"], scarab["colors"], scarab["pt"]) == (
        "CR 707.9b", "set", ["zombie"], ["black"], "4/4")


def test_cr_707_9e_altered_ego_counters_are_an_additional_effect(db):
    (e,) = _exceptions(db, "Altered Ego")
    assert (e["rule"], e["rules"], e["operation"], e["characteristic"], e["counters"]) == (
        "CR 707.9e", ["CR 707.9e"], "additional_effect", "counters", [{"counter": "+1/+1", "amount": "X"}])


def test_cr_707_9f_spark_double_exceptions_apply_only_if_the_copy_has_the_characteristic(db):
    got = [(e["rule"], e["rules"][-1], e["operation"], e["applies_if"], e["supertypes_removed"])
           for e in _exceptions(db, "Spark Double")]
    assert got == [("CR 707.9e", "CR 707.9f", "additional_effect", "if it's a creature", []),
                   ("CR 707.9e", "CR 707.9f", "additional_effect", "if it's a planeswalker", []),
                   ("CR 707.9b", "CR 707.9f", "removed", "if that permanent is legendary", ["legendary"])]


def test_cr_707_9b_starting_loyalty_and_legendary_removed_jace_mirror_mage(db):
    got = [(e["rule"], e["operation"], e["characteristic"], e["loyalty"], e["supertypes_removed"])
           for e in _exceptions(db, "Jace, Mirror Mage")]
    assert got == [("CR 707.9b", "removed", "supertypes", None, ["legendary"]),
                   ("CR 707.9b", "set", "loyalty", "1", [])]


def test_cr_707_9c_not_copied_color_and_707_9a_gains_this_ability_vesuvan_doppelganger(db):
    outer = [e for e in _exceptions(db, "Vesuvan Doppelganger")][:2]
    assert [(e["rule"], e["operation"], e["characteristic"]) for e in outer] == [
        ("CR 707.9c", "not_copied", "color"), ("CR 707.9a", "gained", "abilities")]
    assert outer[1]["abilities"][-1] == "this ability"


def test_cr_707_9b_name_set_and_supertype_added_sakashima_the_impostor(db):
    got = [(e["rule"], e["operation"], e["name"], e["types"]) for e in _exceptions(db, "Sakashima the Impostor")]
    assert got[:2] == [("CR 707.9b", "set", "~", []), ("CR 707.9b", "added", None, ["legendary"])]
    assert got[2][:2] == ("CR 707.9a", "gained")


def test_cr_707_9_condition_not_on_characteristics_is_no_707_9f_vizier_of_many_faces(db):
    printed = [e for e in _exceptions(db, "Vizier of Many Faces") if e["source"] == "copy_effect"]
    assert [(e["characteristic"], e["condition"], e["applies_if"]) for e in printed] == [
        ("mana_cost", "if ~ was embalmed", None), ("color", "if ~ was embalmed", None),
        ("types", "if ~ was embalmed", None)]


def test_cr_702_128a_embalm_defines_its_exceptions_angel_of_sanctions(db):
    got = [(e["source"], e["operation"], e["characteristic"], e["colors"], e["mana_cost"], e["types"])
           for e in _exceptions(db, "Angel of Sanctions")]
    assert got == [("keyword", "set", "color", ["white"], None, []), ("keyword", "set", "mana_cost", [], "", []),
                   ("keyword", "added", "types", [], None, ["zombie"])]
    (row,) = rows(db, """SELECT copy_kind, copied_object, source, rule, len(exception_classes) FROM copy_effects
                         WHERE name = 'Angel of Sanctions'""")
    assert row == ("create_token_copy", "this card", "keyword", "CR 702.128a", 3)


@pytest.mark.parametrize("name", ["Song of the Worldsoul", "Trostani, Selesnya's Voice", "Growing Ranks"])
def test_cr_701_36a_populate_has_a_copy_effects_row(db, name):
    got = rows(db, """SELECT copy_kind, copied_object, source, rule, exceptions FROM copy_effects
                      WHERE name = ? AND source = 'keyword_action'""", [name])
    assert got == [("create_token_copy", "a creature token you control", "keyword_action", "CR 701.36a", [])]


def test_copy_effects_carry_exception_classes_in_order(db):
    (classes,) = rows(db, "SELECT exception_classes FROM copy_effects WHERE name = 'Spark Double'")[0]
    assert [(c["position"], c["rule"], c["operation"]) for c in classes] == [
        (0, "CR 707.9e", "additional_effect"), (1, "CR 707.9e", "additional_effect"), (2, "CR 707.9b", "removed")]
