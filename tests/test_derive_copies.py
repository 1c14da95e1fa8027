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


@pytest.mark.parametrize("name, rule", [("Grapeshot", "CR 702.40a"), ("Train of Thought", "CR 702.56a"),
                                        ("Bitter Ordeal", "CR 702.69a"), ("Burn Trail", "CR 702.78a"),
                                        ("Creative Technique", "CR 702.144a")])
def test_cr_707_10_spell_copy_keywords_have_copy_effects_rows(db, name, rule):
    """Storm, replicate, gravestorm, conspire and demonstrate copy the spell, new targets allowed (CR 707.10c)."""
    got = rows(db, """SELECT copy_kind, copied_object, new_targets, source, rule FROM copy_effects
                      WHERE name = ? AND source = 'keyword'""", [name])
    assert got == [("copy_spell", "this spell", True, "keyword", rule)]


def test_cr_702_78a_a_granted_conspire_copies_the_spell_given_it_not_the_card_wort_the_raidmother(db):
    got = rows(db, """SELECT copy_kind, copied_object, rule FROM copy_effects
                      WHERE name = 'Wort, the Raidmother' AND source = 'keyword'""")
    assert got == [("copy_spell", "an object given conspire by this ability", "CR 702.78a")]


def test_cr_702_175a_offspring_token_copy_is_1_1_and_702_157a_squad_copies_oracle_2026():
    """Offspring (2024) and squad (2022 Warhammer 40,000) postdate the refresh corpora: their current
    Oracle text (oracle-2026: Flowerfoot Swordmaster, Zephyrim) is parsed, the keyword found and its
    rule's exceptions classified (offspring: "except it's 1/1", CR 707.9b; squad: none)."""
    from pipeline.derive.copies import KEYWORD_COPIES, copy_exception_rows
    from pipeline.parse import parse_face
    from tests.test_parse_corpus_2026 import faces_2026

    texts = {f["name"]: f for f in faces_2026() if f["name"] in ("Flowerfoot Swordmaster", "Zephyrim")}
    assert set(texts) == {"Flowerfoot Swordmaster", "Zephyrim"}

    def parsed(name):
        f = texts[name]
        return [a.to_json() for a in parse_face(f["oracle_text"], name=name, type_line=f["type_line"])]

    def keyword_names(abilities):
        return [k["name"] for a in abilities if a["body"].get("node") == "KeywordLine" for k in a["body"]["keywords"]]

    flowerfoot, zephyrim = parsed("Flowerfoot Swordmaster"), parsed("Zephyrim")
    assert "offspring" in keyword_names(flowerfoot) and "squad" in keyword_names(zephyrim)
    assert [(r["source"], r["rule"], r["operation"], r["characteristic"], r["pt"])
            for a in flowerfoot for r in copy_exception_rows(a)] == [("keyword", "CR 707.9b", "set", "pt", "1/1")]
    assert [r for a in zephyrim for r in copy_exception_rows(a)] == []
    assert (KEYWORD_COPIES["squad"].rule, KEYWORD_COPIES["squad"].copy_kind) == ("CR 702.157a", "create_token_copy")
