"""The SQL views (pipeline/store/views.py) on the database built from the bundled snapshot:
real values on real cards, comments on every column, and no error when AST nodes are absent."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest

from pipeline.store.views import ALIASES_REMOVED_IN, DEPRECATED_ALIASES, VIEW_NAMES, VIEWS, create_views
from tests.conftest import bundled_database, rows


@pytest.fixture(scope="module")
def db() -> Path:
    return bundled_database()


def test_every_view_is_created_with_comments(db):
    views = dict(rows(db, "SELECT view_name, comment FROM duckdb_views() WHERE NOT internal"))
    for view in VIEWS:
        assert views[view.name] == view.comment
        cols = rows(db, "SELECT column_name, comment FROM duckdb_columns() WHERE table_name = ? ORDER BY column_index",
                    [view.name])
        assert cols == list(view.columns.items())
        assert all(comment for _, comment in cols)


def test_deprecated_v_aliases_give_the_new_views_rows_and_say_so(db):
    """The old ``v_…`` names (before 0.2.0) are ``SELECT *`` aliases of the plain-noun views."""
    assert set(DEPRECATED_ALIASES) == {"v_ast_nodes", "v_mana_producers", "v_tap_abilities",
                                       "v_untap_abilities", "v_x_enters_effects"}
    views = dict(rows(db, "SELECT view_name, comment FROM duckdb_views() WHERE NOT internal"))
    for alias, target in DEPRECATED_ALIASES.items():
        assert alias == "v_" + target and target in VIEW_NAMES
        assert views[alias].startswith(f"Deprecated alias of {target} ") and ALIASES_REMOVED_IN in views[alias]
        assert rows(db, "SELECT column_name, comment FROM duckdb_columns() WHERE table_name = ? ORDER BY column_index",
                    [alias]) == list(next(v for v in VIEWS if v.name == target).columns.items())
    # same rows, on views small enough to compare whole
    for alias in ("v_mana_producers", "v_untap_abilities", "v_x_enters_effects"):
        target = DEPRECATED_ALIASES[alias]
        new = rows(db, f"SELECT * FROM {target} ORDER BY ALL")
        assert len(new) > 0 and rows(db, f"SELECT * FROM {alias} ORDER BY ALL") == new


def test_mana_producers(db):
    got = {r[0]: r[1:] for r in rows(db, """
        SELECT name, category, produced_mana, production_kinds, intrinsic, is_land, dependent
        FROM mana_producers WHERE name IN ('Llanowar Elves', 'Birds of Paradise', 'Forest', 'Gemstone Mine',
                                             'Llanowar Wastes', 'Clone')""")}
    assert got["Llanowar Elves"] == ("creature", ["G"], ["fixed"], False, False, False)
    assert got["Birds of Paradise"] == ("creature", ["W", "U", "B", "R", "G"], ["any_color"], False, False, False)
    # basic land: the intrinsic "{T}: Add {G}" of its land type (CR 305.6)
    assert got["Forest"] == ("land", ["G"], ["fixed"], True, True, False)
    assert got["Gemstone Mine"][:2] == ("land", ["W", "U", "B", "R", "G"])
    assert got["Llanowar Wastes"][1] == ["B", "G", "C"]
    assert "Clone" not in got  # produces no mana
    # exactly the cards with a non-empty produced_mana
    assert rows(db, "SELECT count(*) FROM mana_producers") == \
        rows(db, "SELECT count(*) FROM cards WHERE len(produced_mana) > 0")


def test_cost_components_of_real_cards(db):
    def components(name):
        return rows(db, """SELECT component, detail, position, cost_owner, granted FROM cost_components
                           JOIN cards USING (oracle_id) WHERE name = ? ORDER BY ability_id, cost_path, position""",
                    [name])
    assert components("Gemstone Mine") == [
        ("tap", "{T}", 0, "Activated", False),
        ("remove_counters", "Remove a mining counter from ~", 1, "Activated", False)]
    assert components("Pili-Pala") == [("mana", "{2}", 0, "Activated", False),
                                       ("untap", "{Q}", 1, "Activated", False)]
    # a cost inside an ability the card grants to another object
    assert [c for c in components("Umbral Mantle") if c[4]] == [("mana", "{3}", 0, "Activated", True),
                                                                 ("untap", "{Q}", 1, "Activated", True)]
    assert ("mana", "{0}", 0, "Keyword", False) in components("Umbral Mantle")  # Equip {0}
    # "Untap a tapped land an opponent controls" is an action, not the {Q} symbol (CR 107.6)
    assert [c[0] for c in components("Benthic Explorers")] == ["tap", "untap_object"]


def test_tap_and_untap_abilities(db):
    tap = {r[0]: r[1:] for r in rows(db, """SELECT name, text, components, is_mana_ability FROM tap_abilities
                                            WHERE name IN ('Llanowar Elves', 'Benthic Explorers')""")}
    assert tap["Llanowar Elves"] == ("{T}: Add {G}.", ["tap"], True)
    assert tap["Benthic Explorers"][1] == ["tap", "untap_object"]
    untap = {r[0]: r[1:] for r in rows(db, "SELECT name, components, granted FROM untap_abilities")}
    assert untap["Pili-Pala"] == (["mana", "untap"], False)
    assert untap["Snow Mercy"] == (["tap", "untap", "tap", "untap", "tap"], False)
    assert untap["Umbral Mantle"] == (["mana", "untap"], True)
    assert "Benthic Explorers" not in untap
    # every {Q} row has an UntapCost node in its AST
    assert rows(db, """SELECT count(*) FROM untap_abilities u WHERE NOT EXISTS (SELECT 1 FROM ast_nodes n
                       WHERE n.ability_id = u.ability_id AND n.node = 'UntapCost')""") == [(0,)]


def test_copy_effects(db):
    got = {r[0]: r[1:] for r in rows(db, """
        SELECT name, copy_kind, optional, copied_object, exceptions, extra_counters FROM copy_effects
        WHERE name IN ('Clone', 'Altered Ego', 'Twincast', 'Sakashima the Impostor')""")}
    assert got["Clone"] == ("enter_as_copy", True, "any creature on the battlefield", [], [])
    assert got["Altered Ego"] == (
        "enter_as_copy", True, "any creature on the battlefield",
        [{"kind": "enters_with_counters", "text": "it enters with X additional +1/+1 counters on it", "condition": None}],
        [{"counter": "+1/+1", "amount": "X", "is_x": True}])
    assert got["Twincast"][:3] == ("copy_spell", False, "target instant or sorcery spell")
    # "except its name is Sakashima the Impostor, it's legendary in addition to its other types,
    # and it has "{2}{U}{U}: Return this creature to its owner's hand at the beginning of the next end step."" (CR 707.9)
    assert [e["kind"] for e in got["Sakashima the Impostor"][3]] == ["name_is", "is_type", "has_ability"]


def test_copy_effects_conditional_exceptions(db):
    """CR 707.9 exceptions that hold only under a condition: a leading "if …," covers every later
    exception (Vizier of Many Faces), a trailing one only its own (Spark Double)."""
    got = {r[0]: r[1] for r in rows(db, """SELECT name, exceptions FROM copy_effects
                                           WHERE name IN ('Vizier of Many Faces', 'Spark Double')
                                             AND source = 'copy_effect'""")}  # (Vizier's embalm: a keyword row)
    assert [(e["kind"], e["condition"]["text"]) for e in got["Vizier of Many Faces"]] == [
        ("no_mana_cost", "if ~ was embalmed"), ("is_type", "if ~ was embalmed"), ("is_type", "if ~ was embalmed")]
    assert [(e["kind"], e["condition"]["text"]) for e in got["Spark Double"]] == [
        ("enters_with_counters", "if it's a creature"), ("enters_with_counters", "if it's a planeswalker"),
        ("not_legendary", "if that permanent is legendary")]


def test_x_enters_effects(db):
    got = {r[0]: r[1:] for r in rows(db, """SELECT name, effect_kind, counters, x_in_mana_cost FROM x_enters_effects
                                            WHERE name IN ('Hangarback Walker', 'Altered Ego', 'Chalice of the Void',
                                                           'Ravenous Gigantotherium', 'Clone')""")}
    assert got["Hangarback Walker"] == ("enters_with_counters", [{"counter": "+1/+1", "amount": "X", "is_x": True}],
                                        True)
    assert got["Chalice of the Void"] == ("enters_with_counters", [{"counter": "charge", "amount": "X", "is_x": True}],
                                          True)
    assert got["Altered Ego"][0] == "copy_with_counters"
    assert got["Ravenous Gigantotherium"] == ("enters_trigger", [], False)
    assert "Clone" not in got


def test_x_enters_effects_planeswalker_loyalty_x_cr_306_5b(db):
    """Nissa, Steward of Elements (loyalty X, mana cost {X}{G}{U}) enters with X loyalty counters:
    the intrinsic CR 306.5b replacement refers to X, the value chosen on casting (CR 107.3m)."""
    got = rows(db, """SELECT name, effect_kind, counters, x_in_mana_cost, ability_id, text FROM x_enters_effects
                      WHERE effect_kind = 'loyalty_x' ORDER BY name""")
    assert ("Nissa, Steward of Elements", "loyalty_x", [{"counter": "loyalty", "amount": "X", "is_x": True}], True,
            None, "Loyalty X: enters with X loyalty counters (CR 306.5b)") in got
    names = {r[0] for r in rows(db, "SELECT c.name FROM faces f JOIN cards c USING (oracle_id) WHERE f.loyalty = 'X'")}
    assert {r[0] for r in got} == names


def test_views_tolerate_absent_nodes(db, tmp_path):
    """Every view answers (no rows, NULLs) when the ASTs lack its nodes or their fields."""
    copy = tmp_path / "stripped.duckdb"
    shutil.copy(db, copy)
    con = duckdb.connect(str(copy))
    try:
        # 1. no AST holds any of the nodes the views look for
        con.execute("""UPDATE abilities SET ast = json_object('node', 'Ability', 'body',
                       json_object('node', 'Unparsed', 'text', text))""")
        counts = {name: con.execute(f"SELECT count(*) FROM {name}").fetchall()[0][0] for name in VIEW_NAMES}
        (abilities,) = con.execute("SELECT count(*) FROM abilities").fetchall()[0]
        assert counts.pop("ast_nodes") == 2 * abilities  # Ability + Unparsed
        assert counts.pop("mana_producers") > 0  # reads cards.produced_mana, not the ASTs
        for card_data_view in ("legal_cards", "newest_printings", "sets"):  # read printings/legalities only
            assert counts.pop(card_data_view) > 0, card_data_view
        # loyalty X comes from faces.loyalty (CR 306.5b), not from the ASTs
        (loyalty_x,) = con.execute("SELECT count(*) FROM faces WHERE loyalty = 'X'").fetchall()[0]
        assert loyalty_x > 0 and counts.pop("x_enters_effects") == loyalty_x
        assert counts == {name: 0 for name in counts}
        # 2. the nodes are there but every field except 'node' is missing, or the AST is NULL
        con.execute("""UPDATE abilities SET ast = CASE ability_index % 3
            WHEN 0 THEN '{"node": "Ability", "body": {"node": "Activated", "cost": {"node": "Cost"}}}'
            WHEN 1 THEN '{"node": "Ability", "body": {"node": "Static", "effect": [{"node": "CopyEffect"},
                         {"node": "EntersWith"}, {"node": "Triggered", "event": null}]}}'
            ELSE NULL END""")
        for name in VIEW_NAMES:
            con.execute(f"SELECT * FROM {name}").fetchall()
        assert con.execute("SELECT count(*) FROM cost_components").fetchall() == [(0,)]
        assert con.execute("SELECT DISTINCT copy_kind, optional, copied_object, exceptions, extra_counters "
                           "FROM copy_effects").fetchall() == [(None, False, None, [], [])]
        assert con.execute("SELECT count(*) FROM x_enters_effects WHERE effect_kind <> 'loyalty_x'").fetchall() == [(0,)]
        # 3. create_views itself runs on such a database
        assert create_views(con) == list(VIEW_NAMES) + list(DEPRECATED_ALIASES)
    finally:
        con.close()
