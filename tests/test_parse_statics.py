"""Static abilities (CR 604) and replacement effects (CR 614) read by ``grammar/statics.lark``
(transformer rules in ``pipeline/parse/transform_statics.py``), on real cards of the MTGJSON
2022 corpus: cost changes, enters-tapped / enters-with-counters, "can't" restrictions,
conditions, and rules-modifying statics. Each test takes the card's text from its set file."""

from __future__ import annotations

from functools import lru_cache

import pytest

from pipeline.parse import parse_face
from pipeline.parse import ast as A
from tests.conftest import mtgjson_set


@lru_cache(maxsize=None)
def card(set_code: str, name: str) -> dict:
    """The first card (or face) called ``name`` in MTGJSON set ``set_code`` of the corpus."""
    data = mtgjson_set(set_code)
    for c in data.get("data", data)["cards"]:
        if (c.get("faceName") or c["name"]) == name:
            return c
    raise AssertionError(f"{name!r} not in corpus set {set_code}")


def line(set_code: str, name: str, start: str) -> A.Ability:
    """The parsed ability of card ``name`` whose original text starts with ``start``."""
    c = card(set_code, name)
    abilities = parse_face(c["text"], name=name, type_line=c["type"])
    for a in abilities:
        if a.text.startswith(start):
            return a
    raise AssertionError(f"no line starting {start!r} on {name}: {[a.text for a in abilities]}")


def held(sentence: A.Sentence) -> A.Action:
    """The condition of an "As long as …, …" / "… as long as …" sentence (CR 611.2b: the
    ``condition:as_long_as`` node holds it)."""
    assert sentence.condition.verb == "condition:as_long_as", sentence.condition
    return sentence.condition.extra["condition"]


def effects(a: A.Ability) -> list[A.Node]:
    assert a.kind == "static", a.kind
    assert a.no_unparsed, a.to_json()
    assert isinstance(a.body, A.Static)
    out = []
    for s in a.body.effect:
        assert isinstance(s, A.Sentence), s
        out.extend(s.effects)
    return out


def only(a: A.Ability) -> A.Node:
    es = effects(a)
    assert len(es) == 1, es
    return es[0]


# ------------------------------------------------------------------ cost changes (CR 601.2f)
def test_baral_instant_and_sorcery_spells_cost_less():
    e = only(line("AER", "Baral, Chief of Compliance", "Instant and sorcery"))
    assert isinstance(e, A.Action) and e.verb == "cost_less"
    assert e.subject.words == ["instant and sorcery", "spells"]
    assert e.subject.qualifiers == ["you_cast"]
    assert [s.raw for s in e.extra["mana"]] == ["{1}"]


def test_elderwood_scion_targeting_cost_changes():
    less = only(line("C18", "Elderwood Scion", "Spells you cast"))
    more = only(line("C18", "Elderwood Scion", "Spells your opponents cast"))
    assert (less.verb, more.verb) == ("cost_less", "cost_more")
    assert less.subject.qualifiers == ["you_cast", "that_targets"]
    assert more.subject.qualifiers == ["opps_cast", "that_targets"]
    assert [r.quantifier for r in less.subject.refs + more.subject.refs] == ["self", "self"]  # CR 115.1
    assert [s.generic for s in more.extra["mana"]] == [2]


# ------------------------------------------------------------------ enters replacements (CR 614.1c)
def test_vivid_crag_enters_tapped_with_charge_counters():
    e = only(line("C13", "Vivid Crag", "Vivid Crag enters"))
    assert isinstance(e, A.EntersWith) and e.tapped
    assert e.counters[0].counter == "charge" and e.counters[0].amount.value == 2


def test_blooming_marsh_enters_tapped_unless_condition():
    e = only(line("KLD", "Blooming Marsh", "Blooming Marsh enters"))
    assert isinstance(e, A.EntersTapped)
    cond = e.condition
    assert isinstance(cond, A.Action) and cond.verb == "condition:control"
    assert cond.obj.quantifier == "n_or_fewer_other" and cond.obj.count.value == 2
    assert cond.obj.words == ["lands"]


def test_joraga_warcaller_enters_with_counter_per_kick():
    e = only(line("C14", "Joraga Warcaller", "Joraga Warcaller enters"))
    assert isinstance(e, A.EntersWith)
    spec = e.counters[0]
    assert spec.counter == "+1/+1"
    assert spec.amount.kind == "for_each" and spec.amount.value == 1
    assert spec.amount.ref.verb == "quantity:times_kicked" and spec.amount.ref.obj.quantifier == "it"  # CR 702.33


def test_urabrask_opponents_creatures_enter_tapped():
    e = only(line("IMA", "Urabrask the Hidden", "Creatures your opponents"))
    assert isinstance(e, A.EntersTapped)


# ------------------------------------------------------------------ restrictions (CR 508.1c, 509.1b)
def test_sea_monster_cant_attack_unless_defending_player_controls():
    e = only(line("10E", "Sea Monster", "Sea Monster can't attack"))
    assert e.verb == "cant_attack"
    assert e.subject.quantifier == "self"
    unless = e.extra["unless"]
    assert unless.verb == "condition:controls"
    assert unless.obj.quantifier == "defending" and unless.obj.words == ["player"]
    assert unless.extra["controlled"].words == ["island"]


def test_mogg_flunkies_cant_attack_or_block_alone():
    e = only(line("A25", "Mogg Flunkies", "Mogg Flunkies"))
    assert e.verb == "cant_attack_block_alone" and e.subject.quantifier == "self"


def test_howlgeist_power_less_than_cant_block_it():
    e = only(line("AVR", "Howlgeist", "Creatures with power"))
    assert e.verb == "cant_block_obj"
    assert e.subject.words == ["creatures"]
    assert e.subject.qualifiers == ["power_less_than"]
    (power,) = e.subject.refs  # "~'s power" (CR 208.1), a node, not text
    assert power.quantifier == "self" and power.qualifiers[-1] == "stat:power"


def test_rule_of_law_one_spell_each_turn():
    e = only(line("10E", "Rule of Law", "Each player"))
    assert e.verb == "cant_cast_more_than_one"
    assert e.subject.quantifier == "each" and e.subject.words == ["player"]


def test_silent_arbiter_one_attacker_one_blocker():
    assert only(line("5DN", "Silent Arbiter", "No more than one creature can attack")).verb == "max_one_attacker"
    assert only(line("5DN", "Silent Arbiter", "No more than one creature can block")).verb == "max_one_blocker"


def test_lure_all_able_to_block_do_so():
    e = only(line("10E", "Lure", "All creatures able"))
    assert e.verb == "must_block" and e.extra["all_able"] is True
    assert e.subject.quantifier == "all" and e.obj.quantifier == "enchanted"


def test_rhox_assign_damage_as_though_unblocked():
    e = only(line("10E", "Rhox", "You may have"))
    assert e.verb == "assign_as_though_unblocked" and e.subject.quantifier == "self"


# ------------------------------------------------------------------ conditions of statics
def test_thassa_devotion_condition_isnt_a_creature():
    a = line("SLD", "Thassa, God of the Sea", "As long as your devotion")
    e = only(a)
    assert e.verb == "is_not" and e.extra["words"] == ["creature"]
    cond = held(a.body.effect[0])
    assert cond.verb == "condition:devotion_less_than"
    assert cond.extra["colors"] == ["blue"] and cond.amount.value == 5


def test_desperate_sentry_delirium_condition():
    a = line("EMN", "Desperate Sentry", "Delirium")
    e = only(a)
    assert e.verb == "pump" and e.extra["pt"] == "+3/+0"
    cond = held(a.body.effect[0])
    assert cond.verb == "condition:card_types_among" and cond.amount.value == 4


def test_leyline_opening_hand():
    a = line("GPT", "Leyline of the Meek", "If Leyline")
    e = only(a)
    assert e.verb == "begin_with"
    assert a.body.effect[0].condition.verb == "condition:in_zone"


# ------------------------------------------------------------------ replacement effects (CR 614)
def test_phantom_nantuko_damage_prevention():
    a = line("C13", "Phantom Nantuko", "If damage would be dealt")
    es = effects(a)
    assert es[0].verb == "prevent_that_damage"
    assert a.body.effect[0].condition.verb == "condition:damage_would_be_dealt"
    assert a.body.effect[0].condition.obj.quantifier == "self"


def test_furnace_of_rath_double_damage_instead():
    a = line("10E", "Furnace of Rath", "If a source")
    e = only(a)
    assert e.verb == "damage_double" and e.extra["instead"] is True and e.subject.quantifier == "it"
    cond = a.body.effect[0].condition
    assert cond.verb == "condition:source_would_deal_damage"
    assert cond.obj.words == ["source"]


def test_boon_reflection_twice_that_much_life():
    a = line("2XM", "Boon Reflection", "If you would gain life")
    e = only(a)
    assert e.verb == "gain_twice"
    assert a.body.effect[0].condition.verb == "condition:you_would_gain_life"


def test_fortune_thief_life_total_floor():
    assert only(line("A25", "Fortune Thief", "Damage that would reduce")).verb == "life_total_floor"


def test_black_ward_effect_doesnt_remove_self():
    a = line("2ED", "Black Ward", "Enchanted creature has protection")
    es = effects(a)
    assert es[-1].verb == "effect_doesnt_remove_self"


@pytest.mark.parametrize("set_code,name,start", [
    ("AER", "Baral, Chief of Compliance", "Instant and sorcery"),
    ("KLD", "Blooming Marsh", "Blooming Marsh enters"),
    ("10E", "Furnace of Rath", "If a source"),
])
def test_json_round_trip_keeps_condition_nodes(set_code, name, start):
    j = line(set_code, name, start).to_json()
    assert j["no_unparsed"] is True and j["kind"] == "static"
    assert "Unparsed" not in repr(j)


# ------------------------------------------------------------------ round 2 shapes
def test_relentless_rats_deck_any_number():
    e = only(line("10E", "Relentless Rats", "A deck can have"))
    assert e.verb == "deck_any_number" and e.subject.quantifier == "self"


def test_lich_dont_lose_and_draw_instead_of_gaining():
    e = only(line("2ED", "Lich", "You don't lose the game"))
    assert e.verb == "dont_lose_game_for_life" and e.amount.value == 0
    a = line("2ED", "Lich", "If you would gain life")
    assert only(a).verb == "draw"
    assert a.body.effect[0].condition.verb == "condition:you_would_gain_life"


def test_thought_reflection_draw_replacement():
    a = line("2XM", "Thought Reflection", "If you would draw")
    e = only(a)
    assert e.verb == "draw" and e.amount.value == 2
    assert a.body.effect[0].condition.verb == "condition:you_would_draw"


def test_sunglasses_of_urza_spend_as_though():
    e = only(line("2ED", "Sunglasses of Urza", "You may spend"))
    assert e.verb == "spend_as_though"
    assert (e.extra["spent"], e.extra["as"]) == ("white", "red")  # the colors, no longer the free text


def test_meddling_mage_chosen_name_cant_be_cast():
    e = only(line("2XM", "Meddling Mage", "Spells with the chosen name"))
    assert e.verb == "cant_be_cast"
    assert e.subject.words == ["spells"] and e.subject.qualifiers == ["chosen_name"]


def test_dream_prowler_unblockable_while_attacking_alone():
    a = line("9ED", "Dream Prowler", "Dream Prowler can't be blocked")
    assert only(a).verb == "unblockable"
    assert held(a.body.effect[0]).verb == "condition:attacking_alone"


def test_courser_of_kruphix_play_lands_from_top_of_library():
    e = only(line("A25", "Courser of Kruphix", "You may play lands"))
    assert e.verb == "may_play"
    assert e.obj.words == ["lands"] and e.obj.qualifiers == ["zone:top_of_library"]  # "the top of your library" (no form: other owners are zone:top_of:<owner>)


def test_propaganda_attack_tax():
    e = only(line("AFC", "Propaganda", "Creatures can't attack you"))
    assert e.verb == "propaganda" and [s.raw for s in e.extra["mana"]] == ["{2}"]


def test_ray_of_frost_color_condition():
    a = line("AFR", "Ray of Frost", "As long as enchanted creature is red")
    assert only(a).verb == "lose_all_abilities"
    cond = held(a.body.effect[0])
    assert cond.verb == "condition:is_color" and cond.extra["color"] == "red"
    assert cond.obj.quantifier == "enchanted"


def test_ground_seal_cards_in_graveyards_cant_be_targeted():
    e = only(line("C18", "Ground Seal", "Cards in graveyards"))
    assert e.verb == "cant_be_targeted"
    assert e.subject.qualifiers == ["zone:graveyards", "form:in"]  # "Cards in graveyards" (the preposition written)
    assert e.obj.words == ["spells", "or", "abilities"]


def test_guardians_magemark_creatures_that_are_enchanted():
    e = only(line("GPT", "Guardian's Magemark", "Creatures you control that are"))
    assert e.verb == "pump" and e.extra["pt"] == "+1/+1"
    assert e.subject.qualifiers == ["you_control", "that_are:enchanted"]


def test_stony_silence_activated_abilities_of_artifacts():
    e = only(line("ISD", "Stony Silence", "Activated abilities"))
    assert e.verb == "cant_be_activated"
    # CR 602.5: the abilities of an object — the source is a nested Obj, not a text span
    assert isinstance(e.subject, A.AbilitiesOf) and e.subject.words == ["activated", "abilities"]
    assert e.subject.source.words == ["artifacts"] and e.subject.possessive is False


# ------------------------------------------------------------------ round 3 shapes
def test_living_lands_animated_forests_still_lands():
    e = only(line("2ED", "Living Lands", "All Forests"))
    assert e.verb == "is_creature" and e.extra["pt"] == "1/1"
    assert e.subject.quantifier == "all" and e.subject.words == ["forests"]
    assert e.extra["words"] == ["creatures"] and e.extra["still"] == ["lands"]


def test_winter_orb_untap_limit_while_untapped():
    a = line("2ED", "Winter Orb", "As long as Winter Orb is untapped")
    assert only(a).verb == "untap_limit"
    assert held(a.body.effect[0]).verb == "condition:state"


def test_leyline_of_anticipation_cast_as_though_flash():
    e = only(line("M11", "Leyline of Anticipation", "You may cast spells"))
    assert e.verb == "cast_flash" and e.obj.words == ["spells"]


def test_night_market_aeronaut_revolt_condition():
    a = line("AER", "Night Market Aeronaut", "Revolt")
    e = only(a)
    assert isinstance(e, A.EntersWith) and e.counters[0].counter == "+1/+1" and e.counters[0].amount.value == 1
    assert a.body.effect[0].condition.verb == "condition:revolt"


def test_sulfuric_vapors_damage_plus_one():
    a = line("USG", "Sulfuric Vapors", "If a red spell")
    e = only(a)
    assert e.verb == "damage_plus" and e.amount.value == 1
    assert a.body.effect[0].condition.obj.words == ["red", "spell"]


def test_overwhelming_splendor_creatures_enchanted_player_controls():
    a = line("HOU", "Overwhelming Splendor", "Creatures enchanted player controls")
    es = effects(a)
    assert es[0].subject.qualifiers == ["enchanted_player_controls"]


# ------------------------------------------------------------------ round 4 shapes
def test_sphinx_of_the_guildpact_all_colors():
    e = only(line("2XM", "Sphinx of the Guildpact", "Sphinx of the Guildpact is all colors"))
    assert e.verb == "all_colors" and e.subject.quantifier == "self"


def test_victory_chimes_untaps_during_each_other_players_untap_step():
    e = only(line("BBD", "Victory Chimes", "Untap Victory Chimes"))
    assert e.verb == "untap_during_others" and e.obj.quantifier == "self"


def test_blazing_archon_creatures_cant_attack_you():
    e = only(line("C16", "Blazing Archon", "Creatures can't attack you"))
    assert e.verb == "cant_attack_you" and e.subject.words == ["creatures"]


def test_rites_of_flourishing_additional_land_each_player():
    e = only(line("C16", "Rites of Flourishing", "Each player may play"))
    assert e.verb == "extra_land" and e.subject.quantifier == "each"


def test_khod_and_urborg_type_adding_statics():
    khod = only(line("CMB1", "Khod, Etlan Shiis Envoy", "All lands are Islands"))
    urborg = only(line("M15", "Urborg, Tomb of Yawgmoth", "Each land is a Swamp"))
    assert khod.verb == urborg.verb == "is_also"
    assert khod.extra["words"] == ["islands"] and urborg.extra["words"] == ["swamp"]
    assert urborg.subject.quantifier == "each" and urborg.subject.words == ["land"]


def test_goblin_goon_more_creatures_than_defending_player():
    a = only(line("DDT", "Goblin Goon", "Goblin Goon can't attack"))
    b = only(line("DDT", "Goblin Goon", "Goblin Goon can't block"))
    assert (a.verb, b.verb) == ("cant_attack", "cant_block")
    assert a.extra["unless"].verb == b.extra["unless"].verb == "condition:controls_more"


def test_stupefying_touch_possessive_activated_abilities():
    e = only(line("EMA", "Stupefying Touch", "Enchanted creature's activated abilities"))
    assert e.verb == "cant_be_activated"
    assert isinstance(e.subject, A.AbilitiesOf) and e.subject.possessive is True
    assert (e.subject.source.quantifier, e.subject.source.words) == ("enchanted", ["creature"])


def test_skyrider_trainee_flying_while_enchanted():
    a = line("GPT", "Skyrider Trainee", "Skyrider Trainee has flying")
    e = only(a)
    assert isinstance(e, A.GrantAbility) and e.subject.quantifier == "self"
    assert held(a.body.effect[0]).verb == "condition:state"


def test_clergy_regeneration_replacement():
    a = line("LEG", "Clergy of the Holy Nimbus", "If Clergy")
    assert only(a).verb == "regenerate"
    assert a.body.effect[0].condition.verb == "condition:would_be_destroyed"


def test_melira_keepers_and_maralen_restrictions():
    assert only(line("MBS", "Melira's Keepers", "Melira's Keepers")).verb == "cant_have_counters"
    assert only(line("MOR", "Maralen of the Mornsong", "Players can't draw")).verb == "cant_draw"


# ------------------------------------------------------------------ round 5 shapes
def test_doubling_season_token_doubling():
    assert only(line("2XM", "Doubling Season", "If an effect would create")).verb == "token_doubling"


def test_anavolver_kicked_with_its_kicker_enters_with_counters_and_flying():
    a = line("APC", "Anavolver", "If Anavolver was kicked with its {1}{U}")
    e = only(a)
    assert e.verb == "enters_with_counters_and_abilities"
    ew = e.extra["enters_with"]
    assert ew.counters[0].counter == "+1/+1" and ew.counters[0].amount.value == 2
    assert [k.name for k in e.extra["abilities"]] == ["flying"]
    assert a.body.effect[0].condition.verb == "condition:kicked"


def test_power_artifact_reduction_floor():
    a = line("ATQ", "Power Artifact", "Enchanted artifact's activated abilities")
    es = effects(a)
    assert es[0].verb == "cost_less_activate"
    assert isinstance(es[0].subject, A.AbilitiesOf) and es[0].subject.possessive is True
    assert (es[0].subject.source.quantifier, es[0].subject.source.words) == ("enchanted", ["artifact"])
    assert es[-1].verb == "cost_reduction_floor_one"


def test_hushwing_gryff_entering_doesnt_trigger():
    e = only(line("C16", "Hushwing Gryff", "Creatures entering"))
    assert e.verb == "entering_doesnt_trigger" and e.subject.words == ["creatures"]


def test_hardened_scales_counter_replacement():
    a = line("C16", "Hardened Scales", "If one or more +1/+1 counters")
    e = only(a)
    assert e.verb == "counters_instead" and e.extra["mode"] == "plus" and e.amount.value == 1
    cond = a.body.effect[0].condition
    assert cond.verb == "condition:counters_would_be_put" and cond.extra["counter"] == "+1/+1"


def test_tidal_barracuda_any_player_may_cast_as_though_flash():
    e = only(line("C20", "Tidal Barracuda", "Any player may cast"))
    assert e.verb == "cast_flash" and e.subject.quantifier == "any" and e.extra["optional"] is True
    e2 = only(line("C20", "Tidal Barracuda", "Your opponents can't cast"))
    assert e2.verb == "cant_cast" and e2.obj.words == ["spells"]


def test_helica_glider_choice_of_counters():
    e = only(line("IKO", "Helica Glider", "Helica Glider enters"))
    assert e.verb == "enters_with_counter_choice"
    assert e.extra["words"] == ["flying", "first", "strike"]


# ------------------------------------------------------------------ round 6 shapes
def test_platinum_angel_cant_lose():
    e = only(line("10E", "Platinum Angel", "You can't lose the game"))
    assert e.verb == "cant_lose_opponents_cant_win" and e.subject.quantifier == "you"


def test_mindlock_orb_players_cant_search():
    e = only(line("ALA", "Mindlock Orb", "Players can't search"))
    assert e.verb == "cant_search" and e.subject.words == ["players"]


def test_conquerors_flail_attached_condition():
    a = line("C16", "Conqueror's Flail", "As long as Conqueror's Flail is attached")
    e = only(a)
    assert e.verb == "cant_cast" and e.subject.qualifiers == [] and e.subject.words == ["opponents"]
    cond = held(a.body.effect[0])
    assert cond.verb == "condition:attached_to" and cond.obj.quantifier == "self"
    assert cond.extra["to"].words == ["creature"]


def test_laboratory_maniac_empty_library_draw():
    a = line("ISD", "Laboratory Maniac", "If you would draw")
    assert only(a).verb == "win_game"
    assert a.body.effect[0].condition.verb == "condition:you_would_draw_from_empty_library"


def test_undertow_landwalk_blockable():
    e = only(line("LEG", "Undertow", "Creatures with islandwalk"))
    assert e.verb == "blockable_as_though"
    assert e.subject.qualifiers == ["with_keyword:islandwalk"]


# ------------------------------------------------------------------ round 7 shapes
def test_undergrowth_champion_prevention_while_countered():
    a = line("BFZ", "Undergrowth Champion", "If damage would be dealt")
    es = effects(a)
    assert [e.verb for e in es] == ["prevent_that_damage", "remove_counters"]
    cond = a.body.effect[0].condition
    assert cond.verb == "condition:damage_would_be_dealt" and cond.obj.quantifier == "self"


def test_psychic_impetus_pump_and_goaded():
    es = effects(line("AFC", "Psychic Impetus", "Enchanted creature gets +2/+2 and is goaded"))
    assert [e.verb for e in es] == ["pump", "goaded"]


def test_hewed_stone_retainers_cast_only_if():
    e = only(line("FRF", "Hewed Stone Retainers", "Cast this spell only"))
    assert e.verb == "cast_only" and e.extra["restriction"] == "if"
    assert e.extra["condition"].verb == "condition:cast_this_turn"


# ------------------------------------------------------------------ round trip of continuous effects
from tests.test_parse_metamorphic import ability  # noqa: E402  (oracle-2026 text, then MTGJSON 2022)

ROUND_TRIP = [  # (card, fragment of the line) — each line renders back from structured fields
    ("Colossus of Sardia", "doesn't untap during your untap step"),          # CR 502.3
    ("Paralyze", "doesn't untap during its controller's untap step"),
    ("Bontu's Last Reckoning", "don't untap during your next untap step"),
    ("Bloodrock Cyclops", "attacks each combat if able"),                    # CR 508.1d
    ("Shipwreck Singer", "attacks this turn if able"),
    ("Peema Aether-Seer", "blocks this turn if able"),                       # CR 509.1c
    ("Pacifism", "can't attack or block"),                                   # CR 508.1c, 509.1b
    ("Gaea's Herald", "can't be countered"),                                 # CR 101.2
    ("Plague Wind", "can't be regenerated"),                                 # CR 701.19
    ("Juggernaut", "can't be blocked by Walls"),
    ("Kasmina's Transmutation", "loses all abilities and has base power and toughness 1/1"),  # CR 613.4b
    ("Animate Wall", "can attack as though it didn't have defender"),        # CR 702.3b
    ("Cavern of Souls", "choose a creature type"),                           # CR 614.12
    ("Story Circle", "choose a color"),
    ("Sharpshooter Elf", "power is equal to the number of creatures you control"),  # CR 604.3
]


@pytest.mark.parametrize("name,fragment", ROUND_TRIP, ids=[r[0] for r in ROUND_TRIP])
def test_continuous_effects_round_trip(name, fragment):
    a = ability(name, fragment)
    assert a.fully_parsed, (a.normalized, a.to_json()["render_mismatch"])


# restrictions, permissions and cost changes (render_restrictions.py), level blocks, granted protection
ROUND_TRIP_3 = [
    ("Stony Silence", "Activated abilities of artifacts can't be activated."),  # CR 602.5
    ("Arachnus Web", "its activated abilities can't be activated"),
    ("Power Artifact", "Enchanted artifact's activated abilities cost {2} less to activate."),  # CR 602.2b
    ("Aura of Silence", "Artifact and enchantment spells your opponents cast cost {2} more to cast."),  # CR 601.2f
    ("Sphere of Resistance", "Spells cost {1} more to cast."),
    ("Vedalken Orrery", "You may cast spells as though they had flash."),    # CR 601.3b
    ("Cloud Sprite", "can block only creatures with flying"),            # CR 509.1b
    ("High Ground", "Each creature you control can block an additional creature each combat."),
    ("Propaganda", "Creatures can't attack you unless their controller pays {2}"),  # CR 508.1h
    ("Control Magic", "You control enchanted creature."),                    # CR 613.1b
    ("Black Ward", "Enchanted creature has protection from black."),         # CR 702.16
    ("Hada Spy Patrol", "LEVEL 1-2"),                                        # CR 711.2a
    ("Hada Spy Patrol", "LEVEL 3+"),                                         # CR 711.2b
]


@pytest.mark.parametrize("name,fragment", ROUND_TRIP_3, ids=[f"{r[0]}:{r[1][:20]}" for r in ROUND_TRIP_3])
def test_restrictions_and_levels_round_trip(name, fragment):
    a = ability(name, fragment)
    assert a.fully_parsed, (a.normalized, a.to_json()["render_mismatch"])


def test_untap_step_and_requirement_are_enums():
    """Whose untap step and when a creature must attack are closed values the renderer reads."""
    (e,) = ability("Paralyze", "doesn't untap").body.effect[0].effects
    assert (e.verb, e.extra) == ("no_untap", {"untap_step": "controller"})
    (e,) = ability("Bloodrock Cyclops", "attacks each combat").body.effect[0].effects
    assert (e.verb, e.extra) == ("must_attack", {"each_combat": True})
    (e,) = ability("Sharpshooter Elf", "power is equal").body.effect[0].effects
    assert (e.verb, e.extra["what"], e.amount.kind) == ("characteristic", "power", "equal_to")


# ------------------------------------------------------------------ conditions, prevention, delayed times
ROUND_TRIP_2 = [
    ("Kitesail Corsair", "has flying as long as it's attacking"),            # CR 611.2b, after the effect
    ("Carnage Interpreter", "As long as you have one or fewer cards in hand"),  # leading
    ("Paradise Druid", "has hexproof as long as it's untapped"),
    ("Topple the Statue", "If it's an artifact, destroy it"),                 # CR 608.2c
    ("Werewolf Ransacker", "if a player cast two or more spells last turn"),
    ("Afflicted Deserter", "if no spells were cast last turn"),
    ("Embereth Skyblazer", "During your turn, this creature has flying"),
    ("Fog Bank", "dealt to and dealt by this creature"),                     # CR 615.1
    ("Obscuring Haze", "dealt this turn by creatures your opponents control"),
    ("Solitary Confinement", "Prevent all damage that would be dealt to you"),
    ("Phantom Nantuko", "If damage would be dealt to this creature, prevent that damage"),
    ("Invulnerability", "The next time a source of your choice would deal damage to you this turn"),  # CR 615.8
    ("Rakdos Guildmage", "Exile it at the beginning of the next end step"),  # CR 603.7
    ("Firecat Blitz", "Exile them at the beginning of the next end step"),
]


@pytest.mark.parametrize("name,fragment", ROUND_TRIP_2, ids=[r[0] for r in ROUND_TRIP_2])
def test_conditions_prevention_delayed_round_trip(name, fragment):
    a = ability(name, fragment)
    assert a.fully_parsed, (a.normalized, a.to_json()["render_mismatch"])


def test_as_long_as_is_not_if():
    """"as long as" (a continuous effect while the condition holds, CR 611.2b) is its own node, not
    the "if" of a one-shot effect; "… if it's attacking" after the effect keeps ``after``."""
    cond = ability("Kitesail Corsair", "as long as it's attacking").body.effect[0].condition
    assert (cond.verb, cond.extra["after"], cond.extra["condition"].verb) == ("condition:as_long_as", True, "condition:state")
    cond = ability("Topple the Statue", "If it's an artifact").body.effect[1].condition  # "If": no wrapper
    assert (cond.verb, cond.extra) == ("condition:is_a", {"words": ["artifact"]})


def test_prevention_direction_and_delayed_time_are_enums():
    (e,) = ability("Fog Bank", "dealt to and dealt by").body.effect[0].effects
    assert (e.verb, e.extra) == ("prevent", {"direction": "to_and_by", "combat": True})
    s = ability("Obscuring Haze", "dealt this turn by").body.effect[0]
    assert (s.effects[0].extra["direction"], s.effects[0].extra["duration_first"]) == ("by", True)
    s = ability("Firecat Blitz", "at the beginning of the next end step").body.effect[1]
    assert (s.condition.kind, s.condition.after) == (A.DelayedTime.NEXT_END_STEP, True)


# cost changes per target (CR 601.2f, 601.2c), "that target" agreeing with its object (CR 115.1)
def test_cost_more_for_each_target_beyond_the_first():
    a = ability("Fireball", "This spell costs {1} more to cast for each target beyond the first.")
    assert a.fully_parsed, a.to_json()["render_mismatch"]
    (e,) = [x for s in a.body.effect for x in s.effects]
    assert e.verb == "cost_more" and e.extra["per"] == "target_beyond_first" and e.obj is None
    assert [m.raw for m in e.extra["mana"]] == ["{1}"] and e.subject.quantifier == "self"


@pytest.mark.parametrize("name,fragment", [
    ("Elderwood Scion", "Spells your opponents cast that target this creature cost {2} more to cast."),
    ("Kasmina, Enigmatic Mentor", "Spells your opponents cast that target a creature or planeswalker you control"),
])
def test_spells_that_target_round_trip(name, fragment):
    a = ability(name, fragment)
    assert a.fully_parsed, a.to_json()["render_mismatch"]
    (e,) = [x for s in a.body.effect for x in s.effects]
    assert e.verb == "cost_more" and "that_targets" in e.subject.qualifiers


@pytest.mark.parametrize("name,fragment,land", [
    ("Nighthaze", "Target creature gains swampwalk until end of turn.", "swamp"),   # CR 702.14a
    ("Goblin King", "Other Goblins get +1/+1 and have mountainwalk.", "mountain"),
])
def test_landwalk_granted(name, fragment, land):
    a = ability(name, fragment)
    assert a.fully_parsed, a.to_json()["render_mismatch"]
    grants = [x for s in a.body.effect for x in s.effects if isinstance(x, A.GrantAbility)]
    (kw,) = grants[0].abilities
    assert kw.name == "landwalk" and kw.param.words == [land]


def test_enters_tapped_unless_a_player_has_little_life():
    a = ability("Etched Cornfield", "This land enters tapped unless a player has 13 or less life.")
    assert a.fully_parsed, a.to_json()["render_mismatch"]
    (e,) = [x for s in a.body.effect for x in s.effects]
    assert isinstance(e, A.EntersTapped) and e.condition.verb == "condition:life"
    assert e.condition.amount.value == 13 and e.condition.extra["comparison"].comparator == "<="


@pytest.mark.parametrize("name,fragment,verb", [
    ("Hotshot Mechanic", "crews Vehicles as though its power were 2 greater", "crew_as_though"),   # CR 702.122a
    ("Deathless Pilot", "saddles Mounts and crews Vehicles", "saddle_crew_as_though"),             # CR 702.171a
    ("Stoic Star-Captain", "crews Vehicles and stations permanents", "crew_station_as_though"),   # CR 702.184a
])
def test_power_as_though_greater(name, fragment, verb):
    a = ability(name, fragment)
    assert a.fully_parsed, a.to_json()["render_mismatch"]
    (e,) = [x for s in a.body.effect for x in s.effects]
    assert e.verb == verb and e.amount.value == 2


@pytest.mark.parametrize("name,fragment,keyword", [
    ("Fighter Class", "Equip abilities you activate cost {2} less to activate.", "equip"),        # CR 602.2b
    ("Fluctuator", "Cycling abilities you activate cost {2} less to activate.", "cycling"),
    ("Dragonkin Berserker", "Boast abilities you activate cost {1} less", "boast"),
    ("Fervent Champion", "Equip abilities you activate that target this creature", "equip"),
])
def test_keyword_abilities_cost_less(name, fragment, keyword):
    a = ability(name, fragment)
    assert a.fully_parsed, a.to_json()["render_mismatch"]
    (e,) = [x for s in a.body.effect for x in s.effects]
    assert e.verb == "cost_less_activate" and isinstance(e.subject, A.KeywordAbilities)
    assert e.subject.keyword == keyword and e.subject.qualifiers[0] == "you_activate"


# continuous effects, replacement and prevention effects whose nodes gained a renderer (round trip)
ROUND_TRIP_4 = [
    ("Twisted Image", "Switch target creature's power and toughness until end of turn.", "switch_pt"),   # CR 613.4d
    ("Avatar of Hope", "can block any number of creatures", "block_any_number"),                          # CR 509.1a
    ("Keeper of Tresserhorn", "it assigns no combat damage this turn", "assign_no_combat_damage"),        # CR 510.1a
    ("Sunspine Lynx", "Damage can't be prevented.", "damage_cant_be_prevented"),                          # CR 615.12
    ("Malignus", "Damage that would be dealt by this creature can't be prevented.", "damage_cant_be_prevented"),
    ("Telepathy", "Your opponents play with their hands revealed.", "play_hands_revealed"),
    ("Relentless Rats", "A deck can have any number of cards named", "deck_any_number"),                  # CR 100.2a
    ("Cleric Class", "you gain that much life plus 1 instead", "gain_plus"),                              # CR 614.1a
    ("Worms of the Earth", "Players can't play lands.", "cant_play"),                                     # CR 305.1
    ("Pariah", "All damage that would be dealt to you is dealt to enchanted creature instead.", "redirect_damage"),
    ("Zealous Inquisitor", "The next 1 damage that would be dealt to this creature", "redirect_next"),  # CR 615.7
    ("Marauding Boneslasher", "This creature can't block unless you control another Zombie.", "cant_block"),
    ("Frogify", "is a blue Frog creature with base power and toughness 1/1", "is_base"),                  # CR 613.4b
    ("Degavolver", "it enters with a +1/+1 counter on it and with first strike", "enters_with_counters_and_abilities"),
    ("Liquimetal Coating", "becomes an artifact in addition to its other types", "becomes"),              # CR 205.1b
    ("Sunglasses of Urza", "You may spend white mana as though it were red mana.", "spend_as_though"),    # CR 609.4b
]


def _verbs(a: A.Ability) -> list[str]:
    return [n.verb for n in a.body.walk() if isinstance(n, A.Action)]


def test_spend_as_though_is_structured():
    def spend(name, fragment):
        return next(n for n in ability(name, fragment).body.walk()
                    if isinstance(n, A.Action) and n.verb == "spend_as_though")
    assert spend("Sunglasses of Urza", "spend white mana").extra == {"spent": "white", "as": "red", "optional": True}
    assert spend("Mycosynth Lattice", "Players may spend mana").extra == {"spent": None, "as": "any_color",
                                                                         "optional": True}


def test_is_base_keeps_its_colors_and_types():
    e = next(n for n in ability("Frogify", "is a blue Frog creature").body.walk()
             if isinstance(n, A.Action) and n.verb == "is_base")
    assert [w.lower() for w in e.extra["words"]] == ["blue", "frog", "creature"] and e.extra["pt"] == "1/1"


ROUND_TRIP_5 = [
    ("Feral Hydra", "Any player may activate this ability.", "any_player_may_activate"),                 # CR 602.2
    ("Worship", "damage that would reduce your life total to less than 1 reduces it to 1 instead", "life_total_floor"),
    ("Living Lands", "All Forests are 1/1 creatures that are still lands.", "is_creature"),              # CR 205.1b
    ("Living Terrain", "Enchanted land is a 5/6 green Treefolk creature that's still a land.", "is_creature"),
    ("Celestus Sanctifier", "it becomes day as this creature enters", "becomes_day"),                    # CR 702.145d
    ("Soul Parry", "Prevent all damage one or two target creatures would deal this turn.", "prevent_from_source"),
    ("Vulshok Gauntlets", "gets +4/+2 and doesn't untap during its controller's untap step", "no_untap"),  # CR 502.3
]


def test_life_total_floor_keeps_both_numbers():
    e = next(n for n in ability("Elderscale Wurm", "reduces it to 7 instead").body.walk()
             if isinstance(n, A.Action) and n.verb == "life_total_floor")
    assert e.amount.value == 7 and e.extra["to"].value == 7


def test_joined_doesnt_untap_takes_the_subject():
    e = next(n for n in ability("Vulshok Gauntlets", "doesn't untap").body.walk()
             if isinstance(n, A.Action) and n.verb == "no_untap")
    assert e.subject is not None and e.subject.quantifier == "equipped"


def test_any_player_may_activate_timing_rider():
    e = next(n for n in ability("Mana Cache", "Any player may activate this ability but only").body.walk()
             if isinstance(n, A.Action) and n.verb == "any_player_may_activate")
    assert e.extra == {"only": "their_turn_before_end_step"}


ROUND_TRIP_6 = [
    ("Militia Rallier", "This creature can't attack alone.", "cant_attack_alone"),                      # CR 508.1c
    ("Loyal Pegasus", "This creature can't attack or block alone.", "cant_attack_block_alone"),
    ("Platinum Angel", "You can't lose the game and your opponents can't win the game.", "cant_lose_opponents_cant_win"),
    ("Boon Reflection", "you gain twice that much life instead", "gain_twice"),                         # CR 614.1a
    ("The Wanderer", "Prevent all noncombat damage that would be dealt to you", "prevent_noncombat"),    # CR 615.1
    ("Great Wall", "Creatures with plainswalk can be blocked as though they didn't have plainswalk.", "blockable_as_though"),
]


# rules-modifying statics whose verbs gained a renderer (g-statics, issue 13)
ROUND_TRIP_7 = [
    ("Mindlock Orb", "Players can't search libraries.", "cant_search"),                                 # CR 701.23
    ("Stranglehold", "Your opponents can't search libraries.", "cant_search"),
    ("Transguild Courier", "is all colors.", "all_colors"),                                             # CR 105.2
    ("Leyline of the Guildpact", "Each nonland permanent you control is all colors.", "all_colors"),
    ("Amorphous Axe", "gets +3/+0 and is every creature type", "every_creature_type"),                 # CR 205.3m
    ("Tatterkite", "can't have counters put on it", "cant_have_counters"),                              # CR 122.1
    ("Aether Storm", "Creature spells can't be cast.", "cant_be_cast"),                                 # CR 601.3
    ("Meddling Mage", "Spells with the chosen name can't be cast.", "cant_be_cast"),
    ("Captive Audience", "under the control of an opponent of your choice", "enters_under_opp"),        # CR 110.2b
    ("Field of Dreams", "Players play with the top card of their libraries revealed.", "play_top_revealed"),
    ("Torpor Orb", "Creatures entering don't cause abilities to trigger.", "entering_doesnt_trigger"),  # CR 603.6a
    ("Fruitcake Elemental", "is indestructible.", "indestructible"),                                   # CR 702.12
    ("Winter Orb", "players can't untap more than one land during their untap steps", "untap_limit"),   # CR 502.3
    ("Damping Field", "Players can't untap more than one artifact during their untap steps.", "untap_limit"),
    ("Omen Machine", "Players can't draw cards.", "cant_draw"),                                         # CR 121.1
    ("Narset, Parter of Veils", "Each opponent can't draw more than one card each turn.", "cant_draw"),
    ("Thought Devourer", "Your maximum hand size is reduced by four.", "max_hand_size_reduced"),        # CR 402.2
    ("Trusted Advisor", "Your maximum hand size is increased by two.", "max_hand_size_increased"),
    ("Phyrexian Unlife", "You don't lose the game for having 0 or less life.", "dont_lose_game_for_life"),  # CR 104.3b
    ("Pact Weapon", "you don't lose the game for having 0 or less life", "dont_lose_game"),
    ("Thousand-Year Elixir", "as though those creatures had haste", "activate_as_haste"),                # CR 302.6
    ("Dueling Grounds", "No more than one creature can attack each combat.", "max_one_attacker"),       # CR 508.1c
    ("Dueling Grounds", "No more than one creature can block each combat.", "max_one_blocker"),         # CR 509.1b
    ("Leviathan", "enters tapped and doesn't untap during your untap step", "enters_tapped_no_untap"),  # CR 614.1c
    ("Thassa, God of the Sea", "As long as your devotion to blue is less than five", "is_not"),        # CR 700.5a
    ("Pharika, God of Affliction", "your devotion to black and green is less than seven", "condition:devotion_less_than"),
    ("Daretti, Scrap Savant", "can be your commander", "can_be_commander"),                           # CR 903.3d
    ("Scuttlemutt", "becomes the color or colors of your choice until end of turn", "becomes_color"),   # CR 105.3
    ("Prismatic Lace", "Target permanent becomes the color or colors of your choice.", "becomes_color"),
    ("Pyromancer's Swath", "it deals that much damage plus 2 to that permanent or player instead", "damage_plus"),  # CR 614.1a
    ("Tok-Tok, Volcano Born", "it deals that much damage plus 1 to that player instead", "damage_plus"),
    ("Sylvan Advocate", "and land creatures you control get +2/+2", "pump"),  # an object list takes a plural verb
    # "As it enters, choose …" (CR 614.12; "it" is the land of the sentence before)
    ("Thriving Grove", "As it enters, choose a color other than green.", "choose_as_enters"),
    ("Crossroads Village", "As it enters, choose a color.", "choose_as_enters"),
    # "gets +N/+N for each …" joined to another predicate (CR 613.4c; one subject, joined predicates)
    ("Crown of Skemfar", "gets +1/+1 for each Elf you control and has reach", "pump"),
    ("Hold the Gates", "get +0/+1 for each Gate you control and have vigilance", "pump"),
    ("Chorus of Might", "gets +1/+1 for each creature you control and gains trample", "pump"),
    ("Machinist's Arsenal", "gets +2/+2 for each artifact you control and is an Artificer", "is_also"),
    ("Faeburrow Elder", "gets +1/+1 for each color among permanents you control", "pump"),  # CR 105.2
    ("Luxior, Giada's Gift", "gets +1/+1 for each counter on it", "pump_for_each_counter"),  # CR 122.1
    ("Gavel of the Righteous", "gets +1/+1 for each counter on this Equipment", "pump_for_each_counter"),
    # replacement of a zone change (CR 614.1a) and prevention / redirection shields (CR 615.8, 614.9)
    ("Whip of Erebos", "If it would leave the battlefield, exile it instead of putting it anywhere else", "condition:would_leave"),
    ("Pilgrim of Justice", "The next time a red source of your choice would deal damage this turn, prevent that damage",
     "condition:next_time_would_deal_damage"),
    ("Beacon of Destiny", "that damage is dealt to this creature instead", "redirect_that_damage"),
    ("General's Regalia", "that damage is dealt to target creature you control instead", "redirect_that_damage"),
    # the "unless" of a land that enters tapped compares a number (CR 614.1c, 107.1): "two or more"
    ("Luxury Suite", "enters tapped unless you have two or more opponents", "condition:opponents"),
]


def test_leave_the_battlefield_replacement_is_structured():
    """"exile it instead of putting it anywhere else" is an ``exile`` that replaces any destination
    (``instead_of: anywhere``), not the graveyard one (CR 614.1a)."""
    a = ability("Whip of Erebos", "anywhere else")
    ex = next(n for n in a.body.walk() if isinstance(n, A.Action) and n.verb == "exile" and n.extra.get("instead"))
    assert ex.extra["instead_of"] == "anywhere"
    cond = next(n for n in a.body.walk() if isinstance(n, A.Action) and n.verb == "condition:would_leave")
    assert cond.obj.quantifier == "it"


def test_joined_pump_for_each_keeps_both_predicates():
    """"Enchanted creature gets +1/+1 for each Elf you control and has reach": the for-each count and the
    granted keyword are two predicates of one subject (CR 613.4c, 613.1f)."""
    s = ability("Crown of Skemfar", "has reach").body.effect[0]
    pump, grant = s.effects
    assert pump.verb == "pump" and pump.amount.kind == "for_each" and pump.amount.ref.words == ["elf"]
    assert isinstance(grant, A.GrantAbility) and grant.subject.quantifier == "enchanted"
    assert [k.name for k in grant.abilities] == ["reach"]


def test_restriction_card_types_and_counts_are_structured():
    """The card type of "can't untap more than one land" / "… artifact" and of "No more than one creature
    can attack" is a lexicon word of the AST (CR 502.3, 508.1c), not only in the text."""
    def act(name, fragment, verb):
        return next(n for n in ability(name, fragment).body.walk() if isinstance(n, A.Action) and n.verb == verb)
    assert act("Winter Orb", "untap more than one land", "untap_limit").extra["words"] == ["land"]
    assert act("Damping Field", "untap more than one artifact", "untap_limit").extra["words"] == ["artifact"]
    assert act("Dueling Grounds", "can attack each combat", "max_one_attacker").extra["words"] == ["creature"]
    assert act("Leviathan", "doesn't untap", "enters_tapped_no_untap").extra["untap_step"] == "your"
    assert act("Pharika, God of Affliction", "devotion", "condition:devotion_less_than").extra["colors"] == ["black", "green"]


RENDERED_BY_VERB = ROUND_TRIP_4 + ROUND_TRIP_5 + ROUND_TRIP_6 + ROUND_TRIP_7


@pytest.mark.parametrize("name,fragment,verb", RENDERED_BY_VERB, ids=[f"{r[0]}:{r[2]}:{r[1][:16]}" for r in RENDERED_BY_VERB])
def test_rendered_continuous_and_replacement_effects(name, fragment, verb):
    """Each line round-trips and its AST holds the Action verb the renderer read."""
    a = ability(name, fragment)
    assert a.fully_parsed, (a.normalized, a.to_json()["render_mismatch"])
    assert verb in _verbs(a)


# ------------------------------------------------------------------ g-statics round 8 (issue 13 families)
ROUND_TRIP_8 = [  # (card, fragment, verb the renderer read)
    # joined predicates after a keyword: "has flying and is a Knight …" (lexer PREDAND; CR 613.1f, 205.1b)
    ("Skyknight Squire", "it has flying and is a Knight", "is_also"),
    ("Hero of Bretagard", "it has indestructible and is a God", "is_also"),
    ("My Precious", "has hexproof and can't be blocked", "unblockable"),
    ("The Masamune", "it has first strike and must be blocked if able", "lure"),
    ("Glamdring", "has first strike and gets +1/+0 for each", "pump"),
    # Lhurgoyfs (CR 604.3): the toughness is the same count plus a number
    ("Tarmogoyf", "power is equal to", "characteristic"),
    ("Lhurgoyf", "power is equal to", "characteristic"),
    ("Cosmogoyf", "power is equal to", "characteristic"),
    # damage multiplied (CR 614.1a)
    ("Gratuitous Violence", "double that damage instead", "damage_double"),
    ("City on Fire", "triple that damage instead", "damage_triple"),
    ("Fiery Emancipation", "triple that damage to that permanent or player instead", "damage_triple"),
    ("Twinflame Tyrant", "double that damage instead", "condition:source_would_deal_damage"),
    # the replaced event skipped (CR 614.10, 614.11), the replaced life gain (CR 119.3)
    ("Ugin's Nexus", "skips that turn instead", "condition:would_begin_extra_turn"),
    ("Stranglehold", "skips that turn instead", "skip"),
    ("Possessed Portal", "skips that draw instead", "skip"),
    ("Obstinate Familiar", "you may skip that draw instead", "skip"),
    ("Tainted Remedy", "loses that much life instead", "condition:would_gain_life"),
    # choices as ~ enters (CR 614.12)
    ("Jihad", "choose a color and an opponent", "choose_as_enters"),
    ("Riptide Replicator", "choose a color and a creature type", "choose_as_enters"),
    ("Guardian Archon", "secretly choose an opponent", "choose_as_enters"),
    # a permission while a condition holds (CR 601.3, 611.2b); a one-time draw replacement (CR 614.11)
    ("Gravecrawler", "from your graveyard as long as you control a Zombie", "condition:as_long_as"),
    ("The Indomitable", "from your graveyard as long as", "cast"),
    ("Words of Worship", "The next time you would draw a card", "condition:next_time_would_draw"),
    ("Words of Wilding", "The next time you would draw a card", "condition:next_time_would_draw"),
]


@pytest.mark.parametrize("name,fragment,verb", ROUND_TRIP_8, ids=[f"{r[0]}:{r[2]}" for r in ROUND_TRIP_8])
def test_round_trip_8(name, fragment, verb):
    """Each line round-trips and its AST holds the Action verb the renderer read."""
    a = ability(name, fragment)
    assert a.fully_parsed, (a.normalized, a.to_json()["render_mismatch"])
    assert verb in _verbs(a)


def _action(name, fragment, verb):
    return next(n for n in ability(name, fragment).body.walk() if isinstance(n, A.Action) and n.verb == verb)


def test_joined_predicate_after_keyword_keeps_subject_and_types():
    """"it has flying and is a Knight in addition to its other types": both predicates have the subject
    "it" and the condition holds both (CR 611.2b, 613.1f, 205.1b)."""
    s = ability("Skyknight Squire", "it has flying and is a Knight").body.effect[0]
    grant, is_also = s.effects
    assert isinstance(grant, A.GrantAbility) and [k.name for k in grant.abilities] == ["flying"]
    assert is_also.verb == "is_also" and [w.lower() for w in is_also.extra["words"]] == ["knight"]
    assert is_also.subject.quantifier == "it"
    assert held(s).extra["counter"] == "+1/+1"


def test_lhurgoyf_toughness_is_that_number_plus_one():
    """Tarmogoyf: power = the count, toughness = that count + 1 (CR 604.3)."""
    e = _action("Tarmogoyf", "power is equal to", "characteristic")
    assert e.extra["what"] == "power" and e.extra["toughness_plus"].value == 1
    assert e.amount.kind == "equal_to" and e.amount.ref.quantifier == "types_among"


def test_damage_factor_and_recipient_are_structured():
    """"double" vs "triple" is the verb; "to that permanent or player" is the object, none when it is the
    replaced event's recipient (CR 614.1a)."""
    double = _action("Gratuitous Violence", "double that damage", "damage_double")
    triple = _action("Fiery Emancipation", "triple that damage", "damage_triple")
    assert double.obj is None and double.extra["instead"] is True and double.subject.quantifier == "it"
    assert triple.obj.words == ["permanent", "or", "player"]


def test_skip_that_keeps_the_event_and_player_of_the_condition():
    turn = ability("Ugin's Nexus", "skips that turn instead").body.effect[0]
    assert turn.condition.verb == "condition:would_begin_extra_turn" and turn.condition.obj.words == ["player"]
    assert turn.effects[0].extra == {"step": "turn", "player": "that", "next": False, "instead": True}
    opp = ability("Stranglehold", "skips that turn instead").body.effect[0]
    assert opp.condition.obj.words == ["opponent"]
    draw = _action("Obstinate Familiar", "skip that draw", "skip")
    assert draw.extra["step"] == "draw" and draw.extra["optional"] is True and draw.extra["instead"] is True
    life = ability("Tainted Remedy", "loses that much life").body.effect[0]
    assert life.condition.verb == "condition:would_gain_life" and life.condition.obj.words == ["opponent"]


def test_as_enters_two_choices_and_secret_choice():
    jihad = _action("Jihad", "choose a color and an opponent", "choose_as_enters")
    assert jihad.obj.words == ["color"] and jihad.extra["and_obj"].words == ["opponent"]
    assert jihad.extra["choice"] == "object" and jihad.extra["and_choice"] == "object"
    rep = _action("Riptide Replicator", "choose a color and a creature type", "choose_as_enters")
    assert rep.extra["and_choice"] == "type"
    archon = _action("Guardian Archon", "secretly choose an opponent", "choose_as_enters")
    assert archon.extra["secretly"] is True and "secretly" not in jihad.extra


def test_may_cast_from_graveyard_as_long_as_keeps_zone_and_condition():
    """Gravecrawler: the permission (optional cast from your graveyard) holds while you control a Zombie."""
    s = ability("Gravecrawler", "as long as you control a Zombie").body.effect[0]
    cast = s.effects[0]
    assert cast.verb == "cast" and cast.extra["optional"] is True and cast.obj.qualifiers == ["zone:your_graveyard"]
    assert held(s).verb == "condition:control" and held(s).obj.words == ["zombie"]


def test_next_time_you_would_draw_is_a_condition_with_duration():
    s = ability("Words of Worship", "The next time you would draw a card").body.effect[0]
    assert s.condition.verb == "condition:next_time_would_draw" and s.condition.obj.quantifier == "you"
    assert s.condition.extra["duration"].kind == A.DurationKind.THIS_TURN
    assert s.effects[0].verb == "gain_life" and s.effects[0].extra["instead"] is True
