"""One-shot actions (grammar/effects.lark, zones.lark, digital.lark) on real card lines: the AST holds
the closed values the renderer writes back, and the line round-trips (``fully_parsed``). Lines are
read from the corpora by card name (tests.test_parse_metamorphic.ability), never written here."""

from __future__ import annotations

import pytest

from tests.test_parse_metamorphic import ability

pytestmark = pytest.mark.corpus


def _actions(node, out=None):
    """Every Action node (JSON) of an ability body, pre-order."""
    out = [] if out is None else out
    if isinstance(node, dict):
        if node.get("node") == "Action":
            out.append(node)
        for v in node.values():
            _actions(v, out)
    elif isinstance(node, list):
        for v in node:
            _actions(v, out)
    return out


def _verb(name: str, fragment: str, verb: str, round_trip: bool = True) -> dict:
    """The first ``verb`` Action of the line of ``name`` holding ``fragment``; the line must
    round-trip unless ``round_trip`` is False."""
    a = ability(name, fragment)
    assert a.fully_parsed or not round_trip, (name, a.to_json()["render_mismatch"])
    return next(x for x in _actions(a.to_json()["body"]) if x["verb"] == verb)


def test_fight_subject_and_object():  # CR 701.14a
    act = _verb("Prey Upon", "fights", "fight")
    assert act["subject"]["qualifiers"] == ["you_control"] and act["obj"]["qualifiers"] == ["you_dont_control"]


def test_may_have_it_fight_keeps_the_chooser():  # CR 608.2d: "you may have it fight …"
    act = _verb("Affectionate Indrik", "you may have it fight", "fight")
    assert act["extra"]["have"]["quantifier"] == "you" and act["subject"]["quantifier"] == "it"
    assert act["extra"]["optional"] is True


@pytest.mark.parametrize("name,fragment,sides,notation,count,round_trip", [
    ("Component Pouch", "Roll a d20.", 20, "d", 1, True),
    ("Netherese Puzzle-Ward", "roll a d4", 4, "d", 1, False),  # ("where X is the result": not read)
    ("Spark Fiend", "roll two six-sided dice", 6, "sided", 2, False),
])
def test_roll_die(name, fragment, sides, notation, count, round_trip):  # CR 706.1a: "dN" / "N-sided die"
    act = _verb(name, fragment, "roll_die", round_trip)
    assert (act["extra"]["sides"], act["extra"]["notation"]) == (sides, notation)
    assert act["amount"]["value"] == count


def test_gain_life_for_each_is_the_counted_object():
    act = _verb("Ancestor's Chosen", "you gain 1 life for each card", "gain_life")
    assert act["obj"] is None and act["amount"]["value"] == 1
    assert act["extra"]["for_each"]["qualifiers"] == ["zone:your_graveyard", "form:in"]  # "in your graveyard" (the preposition written)


def test_pump_for_each_after_duration():
    act = _verb("Mutilate", "All creatures get -1/-1", "pump")
    assert act["extra"]["pt"] == "-1/-1" and act["extra"]["duration"]["kind"] == "until_end_of_turn"
    assert act["extra"]["for_each"]["words"] == ["swamp"]


def test_each_get():
    act = _verb("Mischief and Mayhem", "each get +4/+4", "pump")
    assert act["extra"]["each"] is True and act["subject"]["quantifier"] == "up_to_target"


def test_split_damage():  # one source, two recipients
    act = _verb("Orcish Artillery", "and 3 damage to you", "damage")
    assert act["amount"]["value"] == 2 and act["extra"]["also"]["amount"]["value"] == 3
    assert act["extra"]["also"]["obj"]["quantifier"] == "you"


def test_flip_and_its_result():  # CR 705.2
    a = ability("Mana Crypt", "flip a coin")
    assert a.fully_parsed
    verbs = [x["verb"] for x in _actions(a.to_json()["body"])]
    assert "flip_coin" in verbs and "condition:lose_flip" in verbs


def test_put_one_into_hand_and_the_rest():  # CR 401.4
    a = ability("Prophetic Bolt", "and the rest on the bottom")
    act = next(x for x in _actions(a.to_json()["body"]) if x["verb"] == "put_into_rest")
    assert act["extra"]["zone"] == "hand" and act["extra"]["owner"] == "your"
    assert act["extra"]["rest"] == {"position": "bottom", "library": "your", "order": "any", "back": False}


def test_reveal_until():  # CR 701.20
    act = _verb("Balustrade Spy", "reveals cards from the top", "reveal_until")
    assert act["obj"]["qualifiers"] == ["zone:top_of:their"]
    assert act["extra"]["until"]["verb"] == "reveal" and act["extra"]["until"]["obj"]["words"] == ["land", "card"]


def test_becomes_a_creature():  # CR 613.1d-f, 613.4b
    act = _verb("Faerie Conclave", "becomes a 2/1 blue Faerie", "becomes")
    assert act["extra"]["pt"] == "2/1" and act["extra"]["words"] == ["blue", "Faerie", "creature"]
    assert [k["name"] for k in act["extra"]["abilities"]] == ["flying"]
    still = _verb("Faerie Conclave", "It's still a land", "still_type")
    assert still["extra"]["words"] == ["land"]


def test_becomes_supertype_before_pt():  # CR 205.4a: "a legendary 4/4 red Dragon creature"
    act = _verb("Sarkhan, the Dragonspeaker", "becomes a legendary 4/4", "becomes")
    assert act["extra"]["pt"] == "4/4" and act["extra"]["words"][0] == "legendary"


def test_monarch_and_cast_as_though_flash():  # CR 724.1, 601.3b
    assert _verb("Palace Jailer", "you become the monarch", "monarch")["subject"]["quantifier"] == "you"
    act = _verb("Vedalken Orrery", "as though they had flash", "cast_flash")
    assert act["obj"]["words"] == ["spells"] and act["extra"]["optional"] is True


def test_leading_then():  # a sentence that begins "Then …"
    a = ability("Savage Stomp", "Then that creature fights")
    assert a.fully_parsed
    sentences = a.to_json()["body"]["effect"]
    assert sentences[-1]["joins"] == ["then"]


# ---- MTG Arena digital-only actions (not in the CR)
def test_seek():
    a = ability("Pool Resources", "seek two nonland cards")
    act = next(x for x in _actions(a.to_json()["body"]) if x["verb"] == "seek")
    assert act["obj"]["words"] == ["nonland", "cards"]


def test_draft_from_spellbook():
    a = ability("Xander's Wake", "draft a card from")
    act = next(x for x in _actions(a.to_json()["body"]) if x["verb"] == "draft_spellbook")
    assert act["amount"]["value"] == 1


def test_perpetually_marks_each_joined_predicate():
    a = ability("Hypnotic Pattern", "perpetually gets -2/-0")
    assert a.fully_parsed
    act = next(x for x in _actions(a.to_json()["body"]) if x["verb"] == "pump")
    assert act["extra"]["perpetually"] is True and act["extra"]["pt"] == "-2/-0"


def test_perpetual_grant_and_the_duplicate():
    a = ability("Ace Flockbringer", "The duplicate perpetually gains flying")
    body = a.to_json()["body"]
    conj = next(x for x in _actions(body) if x["verb"] == "conjure_duplicate")
    assert conj["extra"] == {"zone": "hand", "owner": "your"}


def test_search_other_zones():  # CR 701.23
    act = _verb("Acquire", "Search target opponent's library", "search", round_trip=False)
    assert act["extra"]["zone"] == {"owner": "target_opponent", "zones": ["library"]}
    act = _verb("Delivery Moogle", "search your library and/or graveyard", "search", round_trip=False)
    assert act["extra"]["zone"] == {"owner": "your", "zones": ["library", "graveyard"]}


def test_shuffle_and_put_on_top():  # CR 401
    act = _verb("Mystical Tutor", "then shuffle and put that card on top", "put_library")
    assert act["extra"] == {"position": "top", "library": None}


def test_becomes_the_basic_land_type_of_your_choice():  # CR 305.7
    act = _verb("Shimmering Mirage", "becomes the basic land type", "becomes_type")
    assert act["extra"]["form"] == ["basic"] and act["extra"]["duration"]["kind"] == "until_end_of_turn"


def test_exchange_control():  # CR 701.12a
    act = _verb("Switcheroo", "Exchange control of two target creatures.", "exchange_control")
    assert act["obj"]["count"]["value"] == 2


def test_then_if_keeps_then():
    a = ability("Hour of Promise", "Then if you control three or more Deserts")
    sentence = a.to_json()["body"]["effect"][-1]
    assert sentence["joins"][:1] == ["then"] and sentence["condition"]["verb"] == "condition:control"


def test_where_x_after_two_effects_keeps_the_join():
    a = ability("Disciple of Bolas", "You gain X life and draw X cards")
    assert a.fully_parsed
    sentence = a.to_json()["body"]["effect"][-1]
    assert sentence["joins"] == ["and"] and sentence["effects"][-1]["node"] == "WhereX"


@pytest.mark.parametrize("name,fragment,verb,amount", [
    ("Infected Defector", "incubate 3", "incubate", 3),  # CR 701.53a
    ("Chimil, the Inner Sun", "discover 5", "discover", 5),  # CR 701.57a
    ("Evidence Examiner", "you may collect evidence 4", "collect_evidence", 4),  # CR 701.59a
    ("Descendant of Storms", "endures 1", "endure", 1),  # CR 701.63a
    ("Badgermole Cub", "earthbend 1", "earthbend", 1),  # CR 701.66a
    ("Easterling Vanguard", "amass Orcs 1", "amass", 1),  # CR 701.47a
])
def test_keyword_action_with_a_number(name, fragment, verb, amount):
    act = _verb(name, fragment, verb)
    assert act["amount"]["value"] == amount and act["obj"] is None


def test_amass_keeps_its_subtype():  # CR 701.47a: amass [subtype] N
    assert _verb("Lazotep Sliver", "amass Slivers 2", "amass")["extra"]["subtype"] == "Slivers"
    assert _verb("Corsairs of Umbar", "amass Orcs 3", "amass")["extra"]["subtype"] == "Orcs"


@pytest.mark.parametrize("name,fragment,verb,quantifier", [
    ("Barbed Servitor", "suspect it", "suspect", "it"),  # CR 701.60a
    ("Whirlwind Technique", "Airbend up to two target creatures", "airbend", "up_to_target"),  # CR 701.65a
])
def test_keyword_action_on_an_object(name, fragment, verb, quantifier):
    assert _verb(name, fragment, verb)["obj"]["quantifier"] == quantifier


def test_cloak_the_top_card_is_optional():  # CR 701.58a; "you may" (CR 608.2d)
    act = _verb("Veiled Ascension", "you may cloak the top card", "cloak")
    assert act["obj"]["qualifiers"] == ["top_cards", "of:your_library"] and act["extra"]["optional"] is True


@pytest.mark.parametrize("name,fragment,verb", [
    ("Curious Forager", "forage.", "forage"),  # CR 701.61a
    ("Glitch Interpreter", "manifest dread.", "manifest_dread"),  # CR 701.62a
    ("Goliath Paladin", "take the initiative.", "initiative"),  # CR 725.1
    ("In the Darkness Bind Them", "The Ring tempts you.", "ring_tempts"),  # CR 701.54a
    ("Time Beetle", "time travel.", "time_travel"),  # CR 701.56a
    ("Complaints Clerk", "open an Attraction.", "open_attraction"),  # CR 701.51a
])
def test_keyword_action_without_a_parameter(name, fragment, verb):
    act = _verb(name, fragment, verb)
    assert act["obj"] is None and act["amount"] is None and "times" not in act["extra"]


def test_an_action_done_twice():  # "manifest dread twice" (CR 701.62a, followed two times)
    assert _verb("They Came from the Pipes", "manifest dread twice", "manifest_dread")["extra"]["times"] == 2


def test_play_lands_and_cast_spells_share_the_zone():  # audit A6; CR 305.1, 601.2a
    act = _verb("Future Sight", "You may play lands and cast spells", "may_play")
    assert act["obj"]["qualifiers"] == ["zone:top_of_library"] and act["extra"]["zone_shared"] is True


def test_base_verb_after_a_plural_subject_is_that_subjects():  # audit A5
    act = _verb("Priest of Forgotten Gods", "each lose 2 life and sacrifice", "sacrifice")
    assert act["subject"] is not None and act["subject"]["words"] == ["players"]


# ---- doubling (CR 701.10), switching P/T (CR 613.4d), types added (CR 205.1b)
@pytest.mark.parametrize("name,fragment,stat,of", [
    ("Bulk Up", "Double target creature's power until end of turn", "power", None),
    ("Beacon of Immortality", "Double target player's life total", "life_total", None),
    ("Angelic Enforcer", "double your life total", "life_total", None),
])
def test_double_names_what_it_doubles(name, fragment, stat, of):  # CR 701.10b, 701.10d
    act = _verb(name, fragment, "double")
    assert act["extra"]["stat"] == stat and act["extra"].get("of") is of


def test_double_its_power_is_the_object_referred_to():  # Devilish Valet-style "double its power"
    a = ability("Rule with an Even Hand", "double target creature's power until end of turn")
    assert a.fully_parsed
    act = _verb("Epic Fight", "Double target creature's power and toughness", "double", round_trip=False)
    assert act["extra"]["stat"] == "power_and_toughness" and act["obj"]["quantifier"] == "target"


def test_switch_power_and_toughness():  # CR 613.4d
    act = _verb("Twisted Image", "Switch target creature's power and toughness", "switch_pt")
    assert act["obj"]["words"] == ["creature"] and act["extra"]["duration"]["kind"] == "until_end_of_turn"


def test_becomes_in_addition_to_its_other_types():  # CR 205.1b
    act = _verb("Ashnod's Transmogrant", "becomes an artifact in addition to its other types", "becomes")
    assert act["extra"]["also"] == "its" and act["extra"]["words"] == ["artifact"]


# ---- damage (CR 120), combat phases (CR 500.8), life totals (CR 119.5), face-down (CR 708)
def test_that_much_damage():  # CR 120.3: the damage an earlier event dealt
    act = _verb("Jackal Pup", "it deals that much damage to you", "damage_that_much")
    assert act["amount"]["kind"] == "that_much" and act["obj"]["quantifier"] == "you"


def test_damage_for_each():  # "deals 2 damage to you for each Treasure you control"
    act = _verb("Black Market Tycoon", "deals 2 damage to you for each Treasure", "damage")
    assert act["amount"]["value"] == 2 and act["extra"]["for_each"]["qualifiers"] == ["you_control"]


@pytest.mark.parametrize("name,fragment,after,then_main", [
    ("Relentless Assault", "After this main phase", "main_phase", True),
    ("Bloodthirster", "After this phase", "phase", False),
])
def test_additional_combat_phase(name, fragment, after, then_main):  # CR 500.8
    act = _verb(name, fragment, "additional_combat_phase")
    assert act["extra"] == {"after": after, "then_main": then_main}


def test_life_total_becomes():  # CR 119.5
    act = _verb("Biorhythm", "life total becomes", "life_total_becomes")
    assert act["subject"]["quantifier"] == "each" and act["amount"]["kind"] == "equal_to"


@pytest.mark.parametrize("name,fragment,verb", [
    ("Clone Shell", "turn the exiled card face up", "turn_face_up"),
    ("Ugin's Mastery", "you may turn a face-down creature you control face up", "turn_face_up"),
])
def test_turn_face_up(name, fragment, verb):  # CR 708.7
    assert _verb(name, fragment, verb)["obj"] is not None


@pytest.mark.parametrize("name,fragment,verb", [
    ("Rest in Peace", "exile all graveyards", "exile_graveyards"),  # CR 404.1
    ("Howling Mine", "draws an additional card", "draw_additional"),  # CR 121.1
])
def test_fixed_actions(name, fragment, verb):
    assert _verb(name, fragment, verb)["obj"] is None


# ---- "instead" (CR 614.1a) and "unless" (CR 118.12a) riders of zone actions
@pytest.mark.parametrize("name,fragment,verb", [
    ("Thought Reflection", "draw two cards instead", "draw"),
    ("Forbidden Crypt", "return a card from your graveyard to your hand instead", "return"),
    ("Gravebane Zombie", "put it on top of its owner's library instead", "put_library"),
    ("Darksteel Colossus", "shuffle it into its owner's library instead", "shuffle_into"),
])
def test_instead_rider(name, fragment, verb):
    assert _verb(name, fragment, verb)["extra"]["instead"] is True


def test_return_unless():  # Erratic Portal (CR 118.12a)
    act = _verb("Erratic Portal", "unless its controller pays {1}", "return")
    assert act["extra"]["unless"]["verb"] == "pay" and act["extra"]["zone"]["kind"] == "owner_hand"


# ---- owners (CR 108.3): the possessive the line wrote, "their owner's hand" / "their owners' hands"
@pytest.mark.parametrize("name,fragment,owner", [
    ("Aetherize", "to their owner's hand", "their_owner"),
    ("Peel from Reality", "to their owners' hands", "their_owners"),
    ("Boomerang", "to its owner's hand", "its_owner"),
])
def test_owner_wording_of_return(name, fragment, owner):
    assert _verb(name, fragment, "return")["extra"]["zone"]["owner"] == owner


@pytest.mark.parametrize("name,fragment,verb,key,value", [
    ("Terminus", "on the bottom of their owners' libraries", "put_library", "library", "their_owners"),
    ("Displace", "under their owner's control", "return", "control", "their_owner"),
    ("Oust", "into its owner's library second from the top", "put_library", "nth", "second"),  # CR 401.7
    ("Painful Memories", "on top of that player's library", "put_library", "library", "that_player"),
    ("Empty the Catacombs", "to their hand", "return", "zone", {"node": "Zone", "text": "their hand",
                                                               "kind": "their_hand", "owner": None}),
])
def test_zone_owner_values(name, fragment, verb, key, value):
    assert _verb(name, fragment, verb)["extra"][key] == value


def test_put_one_into_hand_and_the_other_on_the_bottom():  # Sleight of Hand (CR 401.4)
    act = _verb("Sleight of Hand", "and the other on the bottom of your library", "put_into")
    assert act["extra"]["other"] == {"position": "bottom", "library": "your"}


def test_grant_keeps_its_verb():  # "gains haste" without a duration, then a delayed exile (CR 611.2a)
    a = ability("Cogwork Assembler", "gains haste")
    assert a.fully_parsed
    grants = [n for n in a.body.walk() if type(n).__name__ == "GrantAbility"]
    assert [g.verb for g in grants] == ["gain"]


def test_enters_with_counters_and_abilities():  # kicker rider (CR 614.1c, 122.6)
    act = _verb("Benalish Lancer", "enters with two +1/+1 counters on it and with first strike",
                "enters_with_counters_and_abilities")
    assert act["extra"]["enters_with"]["counters"][0]["counter"] == "+1/+1"
    assert act["extra"]["abilities"][0]["name"] == "first strike"


def test_put_one_onto_the_battlefield_and_the_other_into_your_hand():  # Cultivate (CR 701.23)
    act = _verb("Cultivate", "put one onto the battlefield tapped and the other into your hand", "put_onto_battlefield")
    assert act["amount"]["value"] == 1 and act["extra"] == {"tapped": True, "other": {"zone": "hand", "owner": "your"}}


@pytest.mark.parametrize("name,fragment,owner,join", [
    ("Crumble to Dust", "graveyard, hand, and library", "its_controller", "and"),
    ("Surgical Extraction", "graveyard, hand, and library", "its_owner", "and"),
])
def test_search_every_zone_of_a_player(name, fragment, owner, join):  # CR 701.23
    zone = _verb(name, fragment, "search")["extra"]["zone"]
    assert zone == {"owner": owner, "zones": ["graveyard", "hand", "library"], "join": join}


@pytest.mark.parametrize("name,fragment,second", [
    ("Ajani Steadfast", "and a loyalty counter on each other planeswalker", "loyalty"),
    ("Trygon Prime", "and a +1/+1 counter on up to one other target attacking creature", "+1/+1"),
])
def test_put_counters_on_two_objects(name, fragment, second):  # CR 122.6
    act = _verb(name, fragment, "put_counters")
    assert act["extra"]["counter"] == "+1/+1" and act["extra"]["also"]["extra"]["counter"] == second


@pytest.mark.parametrize("name,fragment", [
    ("Sentinel of the Pearl Trident", "return that card to the battlefield under its owner's control at the beginning"),
    ("Dragon Whelp", "sacrifice this creature at the beginning of the next end step"),
])
def test_lead_condition_over_a_delayed_time(name, fragment):  # CR 603.7: the delayed time is kept, not dropped
    a = ability(name, fragment)
    assert a.fully_parsed
    outer = next(s for s in a.body.walk() if type(s).__name__ == "Sentence" and s.effects
                 and type(s.effects[0]).__name__ == "Sentence")
    assert outer.condition.verb.startswith("condition:") and outer.effects[0].condition.kind == "next_end_step"


@pytest.mark.parametrize("name,fragment", [
    ("Evil Reawakened", "to the battlefield with two additional +1/+1 counters on it"),
    ("Curator Beastie", "enter with two additional +1/+1 counters on them"),
])
def test_two_additional_counters(name, fragment):  # CR 122.6
    a = ability(name, fragment)
    assert a.fully_parsed
    spec = next(n for n in a.body.walk() if type(n).__name__ == "CounterSpec")
    assert spec.additional and spec.amount.value == 2 and spec.counter == "+1/+1"


def test_sacrifice_unless_you_pay_for_each():  # Fettergeist (CR 118.12a)
    act = _verb("Fettergeist", "unless you pay {1} for each other creature you control", "sacrifice_unless")
    fe = act["extra"]["for_each"]
    assert fe["quantifier"] == "other" and fe["words"] == ["creature"] and fe["qualifiers"] == ["you_control"]
