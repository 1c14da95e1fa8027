"""Feature detectors: tolerance to any AST shape (property tests) and the AST paths on
ASTs the grammar stage produces for real cards."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.annotate.features import card_features, keyword_names, split_cost, walk_nodes
from pipeline.annotate.mapping import MappingError, keyword_ability_kind, load_mapping

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12)
    | st.sampled_from(["TapCost", "UntapCost", "CopyEffect", "Keyword", "AddMana", "Activated", "x", "{T}"]),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(["node", "type", "cost", "name", "mode", "production", "kind",
                                       "exceptions", "variable", "verb", "text", "effect"]), children, max_size=5),
    max_leaves=30,
)


@settings(max_examples=200, deadline=None)
@given(ast=json_values, text=st.text(max_size=80), kind=st.none() | st.text(max_size=10),
       mana=st.none() | st.booleans(), as_string=st.booleans())
def test_any_ast_gives_features_or_nothing_never_an_error(ast, text, kind, mana, as_string):
    ability = {"ability_id": "x:0:0", "face_index": 0, "text": text, "kind": kind,
               "is_mana_ability": mana, "ast": json.dumps(ast) if as_string else ast}
    feats = card_features({"layout": None, "type_line": None}, [{"face_index": 0, "type_line": None}], [ability])
    assert all(f.name for f in feats)


def test_missing_fields_and_bad_json_give_no_feature():
    assert card_features({}, [], []) == []
    assert card_features({}, [], [{"ability_id": "a", "ast": "{not json"}]) == []
    assert card_features({"keywords": None}, [{}], [{"text": None, "face_index": 7}]) == []


def test_real_grammar_ast_paths():
    from pipeline.store.abilities import parse_face_records

    # Reflecting Pool (SHM): "{T}: Add one mana of any type that a land you control could produce."
    text = "{T}: Add one mana of any type that a land you control could produce."
    recs = parse_face_records("Reflecting Pool", "Land", text)
    abilities = [{"ability_id": f"rp:0:{i}", "face_index": 0, **r} for i, r in enumerate(recs)]
    names = {f.name for f in card_features({"layout": "normal"}, [{"face_index": 0, "type_line": "Land"}], abilities)}
    assert {"tap_cost", "mana_ability", "could_produce"} <= names
    assert "tap_cost_creature" not in names and "activated" not in names


def test_token_keywords_are_not_the_cards():
    # Sai, Master Thopterist (M19): the token has flying, Sai does not.
    ast = {"node": "Triggered", "effect": [{"node": "CreateToken", "abilities": [
        {"node": "Keyword", "name": "flying", "text": "flying"}], "text": "a 1/1 … token with flying"}]}
    feats = card_features({}, [{"face_index": 0, "type_line": "Legendary Creature — Human Artificer"}], [
        {"ability_id": "s:0:0", "face_index": 0, "kind": "triggered", "is_mana_ability": False, "ast": ast,
         "text": "Whenever you cast an artifact spell, create a 1/1 colorless Thopter artifact creature token with flying."}])
    names = {(f.name, f.detail) for f in feats}
    assert ("token", "") in names and ("triggered", "") in names
    assert not any(n == "keyword" for n, _ in names)


def test_split_cost_and_keyword_lines():
    assert split_cost("{2}, {T}: Target player mills two cards.") == ("{2}, {T}", "Target player mills two cards.")
    assert split_cost('Enchanted land has "{T}: Add two mana of any one color."') is None
    assert split_cost("When Goblin Instigator enters the battlefield, create a 1/1 red Goblin creature token.") is None
    assert split_cost("[−2]: Return target creature card") == ("[−2]", "Return target creature card")
    assert keyword_names("Flying, haste") == ["Flying", "haste"]
    assert keyword_names("Equip {2} ({2}: Attach to target creature you control. Equip only as a sorcery.)") == ["Equip"]
    assert keyword_names("Counter target spell.") == []


def test_walk_nodes_skips_subtrees():
    ast = {"node": "A", "x": [{"node": "GrantAbility", "abilities": [{"node": "TapCost"}]}, {"node": "TapCost"}]}
    assert [n["node"] for n in walk_nodes(ast)] == ["A", "GrantAbility", "TapCost", "TapCost"]
    assert [n["node"] for n in walk_nodes(ast, skip=("GrantAbility",))] == ["A", "TapCost"]


def test_keyword_ability_kind_from_cr_text():
    assert keyword_ability_kind("Equip is an activated ability of Equipment cards. “Equip [cost]” means …") == "activated"
    assert keyword_ability_kind("Prowess is a triggered ability. “Prowess” means …") == "triggered"
    assert keyword_ability_kind("Flying is an evasion ability.") is None


def test_mapping_file_errors_name_file_and_line(tmp_path):
    bad = tmp_path / "m.csv"
    bad.write_text("feature,rule,reason\ntap_cost,107.5,ok\ntap_cost,banana,bad\n", encoding="utf-8")
    with pytest.raises(MappingError, match=r"m.csv: line 3: field rule: 'banana' is not a CR number"):
        load_mapping(bad)
    bad.write_text("feature,rule\n", encoding="utf-8")
    with pytest.raises(MappingError, match="missing column"):
        load_mapping(bad)


def test_every_mapped_rule_exists_in_the_cr():
    from tests.test_annotate_fixtures import CR_FILE
    from pipeline.sources.comprehensive_rules import load_comprehensive_rules

    numbers = set(load_comprehensive_rules(CR_FILE).by_number())
    mapping = load_mapping()
    rules = {row.rule for rows in mapping.values() for row in rows if not row.rule.startswith("@")}
    assert rules - numbers == set()


def test_keyword_lines_without_a_keywords_field():
    # The 2019 Scryfall file has no `keywords` field: Volcanic Dragon's (M19) keyword line is read instead.
    from pipeline.annotate.mapping import keyword_rule_index
    from pipeline.sources.comprehensive_rules import load_comprehensive_rules
    from tests.test_annotate_fixtures import CR_FILE

    index = keyword_rule_index([(r.rule, r.title) for r in load_comprehensive_rules(CR_FILE).rules])
    assert index["flying"] == "702.9" and index["haste"] == "702.10" and index["equip"] == "702.6"
    feats = card_features({"keywords": None}, [{"face_index": 0, "type_line": "Creature — Dragon"}],
                          [{"ability_id": "v:0:0", "face_index": 0, "text": "Flying, haste"}], frozenset(index))
    assert {(f.name, f.detail.lower()) for f in feats} == {("keyword", "flying"), ("keyword", "haste")}
