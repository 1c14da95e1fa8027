"""Triggered abilities, ability words, modal heads and keyword names round-trip on real cards
(issue 13; CR 603.2 trigger events, 207.2c/d ability and flavor words, 700.2 modes, 702 keywords).
Every line is read from the corpora by card name (tests/test_parse_metamorphic.py:ability)."""

from __future__ import annotations

import pytest

from pipeline.parse import ast as A
from tests.test_parse_metamorphic import ability

ROUND_TRIPS = [
    # trigger events written back from the grammar alternative their fields select (render_events)
    ("Sylvan Basilisk", "Whenever this creature becomes blocked by a creature"),
    ("Ainok Survivalist", "When this creature is turned face up"),
    ("Rogue Kavu", "Whenever this creature attacks alone"),
    ("Drake Haven", "Whenever you cycle or discard a card"),
    ("Necropotence", "Whenever you discard a card"),
    ("Sustainer of the Realm", "Whenever this creature blocks,"),
    ("Hollow Dogs", "Whenever this creature attacks,"),
    # "Max speed — " heads an ability like an ability word (CR 702.178a)
    ("Gas Guzzler", "Max speed —"),
    # keyword variants a CR subrule names (702.37b megamorph), typecycling with a supertype (702.29e)
    ("Ainok Survivalist", "Megamorph"),
    ("Fiery Fall", "Basic landcycling"),
    # CR 700.2e / 700.2d modal heads
    ("Fiery Confluence", "Choose three. You may choose the same mode more than once."),
    # a delayed or reflexive trigger inside a sentence (CR 603.7, 603.12)
    ("Fireblade Artist", "At the beginning of your upkeep, you may sacrifice a creature. When you do"),
    ("Grist, the Hunger Tide", "You may sacrifice a creature. When you do"),
    # "… during your turn" / "… during an opponent's turn" (the closed wordings of ev2_period)
    ("Chakram Retriever", "Whenever you cast a spell during your turn"),
    ("Unwelcome Sprite", "Whenever you cast a spell during an opponent's turn"),
    ("Degavolver", "Kicker {1}{B} and/or {R}"),       # two kicker costs (CR 702.33d)
    ("Goryo's Vengeance", "Splice onto Arcane"),      # "Splice onto [quality] [cost]" (CR 702.47a)
    ("Blast-Furnace Hellkite", "Artifact offering"),  # "[Quality] offering" (CR 702.48a)
    ("Diviner's Portent", "1—14 | Draw X cards."),    # a die-roll table row (CR 706.2)
    ("Arcane Investigator", "1—9 | Draw a card."),
    # events of keyword actions (CR 701.34, 701.61a, 701.50a, 702.154a, 701.54a, 702.170, 702.171)
    ("Scheming Aspirant", "Whenever you proliferate"),
    ("Corpseberry Cultivator", "Whenever you forage"),
    ("Iron Monger, Sadistic Tycoon", "Whenever a creature you control connives"),
    ("Evidence Examiner", "Whenever you collect evidence"),
    ("Guardian of New Benalia", "Whenever this creature enlists a creature"),
    ("Nazgûl", "Whenever the Ring tempts you"),
    ("Longhorn Sharpshooter", "When this card becomes plotted"),
    ("Stubborn Burrowfiend", "becomes saddled for the first time each turn"),
    # compound and older wordings of zone-change and other events (CR 603.6, 603.2)
    ("Alpha Deathclaw", "When this creature enters or becomes monstrous"),
    ("Champions of the Shoal", "Whenever this creature enters or becomes tapped"),
    ("Kaya's Ghostform", "When enchanted permanent dies or is put into exile"),
    ("Soulherder", "Whenever a creature is exiled from the battlefield"),
    ("Faerie Mastermind", "Whenever an opponent draws their second card each turn"),
    ("Sneaky Snacker", "When you draw your third card in a turn"),
    ("Wax-Wane Witness", "Whenever you gain or lose life during your turn"),
    ("Drownyard Lurker", "When you cast or cycle"),
    ("Complaints Clerk", "Whenever you roll a 1"),
    ("Villainous Syndication", "When the fourth plan counter is put on"),
    # "… while [condition]" (CR 603.2), a stated duration (CR 603.7b), a reflexive trigger (CR 603.12)
    ("Courageous Goblin", "attacks while you control a creature with power 4 or greater"),
    ("Pugnacious Hammerskull", "attacks while you don't control another Dinosaur"),
    ("Emberwilde Captain", "Whenever an opponent attacks you while you're the monarch"),
    ("First Day of Class", "Whenever a creature you control enters this turn"),
    ("Vizkopa Guildmage", "Whenever you gain life this turn"),
    ("Benefactor's Draught", "Until end of turn, whenever a creature an opponent controls blocks"),
    ("Jace, Architect of Thought", "Until your next turn, whenever a creature an opponent controls attacks"),
    ("Argentum Masticore", "When you discard a card this way"),
    ("Agatha's Soul Cauldron", "When a creature card is exiled this way"),
    # conditions (CR 603.4, 608.2c, 614.1c): a player's life, lands opponents control, the initiative, counters
    ("Murky Sewer", "enters tapped unless a player has 13 or less life"),
    ("Turbulent Fen", "enters tapped unless your opponents control eight or more lands"),
    ("Feywild Caretaker", "if you have the initiative"),
    ("Gatewatch Beacon", "if this artifact has loyalty counters on it"),
    ("Erebos's Titan", "As long as your opponents control no creatures"),
    # "Do this only once each turn." (CR 603.2h)
    ("Ondu Spiritdancer", "Do this only once each turn."),
    ("Irreverent Gremlin", "Do this only once each turn."),
    # "Activate only if … or if …" (CR 602.5b: either condition allows the activation)
    ("Dark Fortress", "Activate only if this land entered this turn or if you control a basic land."),
    ("Bonecache Overseer", "or if you've sacrificed a Food this turn"),
    ("Resonating Lute", "Activate only if you have seven or more cards in your hand."),
    ("Dreadlight Monstrosity", "Activate only if you own a card in exile."),
    ("Sawback Manticore", "Activate only if this creature is attacking or blocking"),
    # intervening "if" clauses (CR 603.4) and "If …, …" (CR 608.2c) on the game's history and state
    ("Archmage Ascension", "if you drew two or more cards this turn"),
    ("Lasting Tarfire", "if you put a counter on a creature this turn"),
    ("Guildsworn Prowler", "if it wasn't blocking"),
    ("Archangel of Wrath", "if it was kicked twice"),
    ("Leader's Talent", "if it had a counter on it"),
    ("Driftgloom Coyote", "If that creature had power 2 or less"),
    ("Grave Choice", "If that creature had mana value 2 or less"),
    ("Faller's Faithful", "If that creature wasn't dealt damage this turn"),
    ("Grab the Prize", "If the discarded card wasn't a land card"),
    ("Evercoat Ursine", "if there are cards exiled with it"),
    ("Redemptor Dreadnought", "if a card is exiled with it"),
    ("Lictor", "if a creature entered the battlefield under an opponent's control this turn"),
    ("Sothera, the Supervoid", "if a player controls no creatures"),
    ("Naktamun Lorespinner", "if a player has one or fewer cards in hand"),
    ("Rubblebelt Braggart", "if it's not suspected"),
    ("Repeat Offender", "If this creature is suspected"),
    ("Maze's Mantle", "if enchanted creature has toxic"),
    ("Rapid Fire", "If it doesn't have rampage"),
    ("Visions of Beyond", "If a graveyard has twenty or more cards in it"),
    ("Unclaimed Cat", "If you're on the Mirran team"),
    ("Springheart Nantuko", "If you didn't create a token this way"),
    ("Spelunking", "If you put a Cave onto the battlefield this way"),
    ("Heroic Return", "If a Hero enters this way"),
    # trigger events: fighting (CR 701.14), turning face up (CR 708.8), giving a gift (CR 702.174)
    ("Foe-Razer Regent", "Whenever a creature you control fights"),
    ("Growing Dread", "Whenever you turn a permanent face up"),
    ("Jolly Gerbils", "Whenever you give a gift"),
    ("Rangers' Refueler", "Whenever you activate an exhaust ability"),  # CR 702.177a
    ("Verity Circle", "if it isn't being declared as an attacker"),     # CR 508.1f
]


@pytest.mark.parametrize("name,fragment", ROUND_TRIPS, ids=[f"{n}:{f[:24]}" for n, f in ROUND_TRIPS])
def test_round_trip(name, fragment):
    a = ability(name, fragment)
    assert a.render_mismatch is None and a.fully_parsed, (a.normalized, a.render_mismatch)


def test_event_verb_agrees_with_subject():
    """"you discard" (plural agreement) and "an opponent discards" are one event rule; the
    renderer writes the inflection the subject takes."""
    a = ability("Necropotence", "Whenever you discard a card")
    assert a.rendered.startswith("Whenever you discard a card,")
    assert a.body.event.verb == "event:cycle" and a.body.event.extra["form"] == ["discard"]


def test_flavor_word_is_kept_but_not_rendered():
    """CR 207.2d: a flavor word ("Grav-cannon") has no rules meaning and is not in the CR; it is
    kept in ``ability_word`` and its piece, like reminder text, is not part of the round trip."""
    a = ability("Space Marine Devastator", "Grav-cannon —")
    assert a.ability_word == "Grav-cannon"
    assert [p.role for p in a.pieces][:2] == ["flavor_word", "sep"]
    assert a.fully_parsed and a.rendered.startswith("When ~ enters, destroy up to one target artifact")
    # an ability word of CR 207.2c stays part of the rendered text
    b = ability("Drake Haven", "Whenever you cycle or discard")
    c = ability("Gas Guzzler", "Max speed —")
    assert b.ability_word is None and c.rendered.startswith("Max speed — {B}, Sacrifice another creature")
    assert [p.role for p in c.pieces][:2] == ["ability_word", "sep"]


def test_modal_heads():
    a = ability("Library of Lat-Nam", "An opponent chooses one")
    assert a.body.choose == A.ChooseCount(1, 1, same_mode=False, chooser="opponent")
    f = ability("Fiery Confluence", "Choose three.")
    assert f.body.choose == A.ChooseCount(3, 3, same_mode=True, chooser=None)
    assert len(f.body.modes) == 3


def test_modes_after_reminder_text_stay_modes():
    """A mode line after a mode's reminder text is its own mode (CR 700.2), not joined to it."""
    a = ability("Valorous Stance", "Choose one")
    assert len(a.body.modes) == 2 and a.fully_parsed
    m = ability("Library of Lat-Nam", "An opponent chooses one")
    assert len(m.body.modes) == 2


def test_short_names_cr_201_5c():
    """CR 201.5c: a card's shortened name means the card — but only as a proper name: "each
    Garruk you control" is the planeswalker type, and an object's "X of the Y" name is never
    shortened to its first word."""
    g = ability("Garruk, Cursed Huntsman", "Wolf creature tokens")
    assert "each Garruk you control" in g.normalized and "When ~ dies" in g.normalized
    n = ability("Nissa of Shadowed Boughs", "put a loyalty counter on")
    assert "put a loyalty counter on ~." in n.normalized
    from pipeline.parse.normalize import self_names
    assert self_names("Sword of the Animist", "Legendary Artifact — Equipment") == ("Sword of the Animist",)
    assert self_names("Helm of Kaldra", "Legendary Artifact — Equipment") == ("Helm of Kaldra",)
    assert self_names("Nissa of Shadowed Boughs", "Legendary Planeswalker — Nissa") == ("Nissa of Shadowed Boughs", "Nissa")


def test_step_owners():
    """CR 500.1 / 603.7: "each other player's draw step", "the next end step" are enums, and
    their event renders from them."""
    from pipeline.parse.render import render

    w = ability("Well of Ideas", "At the beginning of each other player's draw step")
    assert w.body.event.extra["owner"] == A.StepOwner.EACH_OTHER_PLAYER
    assert render(w.body.event) == "the beginning of each other player's draw step"
    s = ability("Siren's Call", "At the beginning of the next end step")
    ev = s.body.event
    assert render(ev) == "the beginning of the next end step"
    assert ev.extra["owner"] == A.StepOwner.NEXT and ev.extra["phase"] == A.Step.END_STEP


def test_die_row_is_structured():
    a = ability("Diviner's Portent", "1—14 | Draw X cards.")
    row = a.body.effect[0].condition
    assert isinstance(row, A.DieResult) and (row.low, row.high) == (1, 14) and a.kind == "other"


def test_attacks_while_saddled():
    """CR 702.171b: "attacks while saddled" is "attacks" qualified by the designation."""
    a = ability("Brightfield Glider", "Whenever this creature attacks while saddled")
    assert a.body.event.verb == "event:attacks" and a.body.event.extra == {"when": "while_saddled"}
    assert a.rendered.startswith("Whenever ~ attacks while saddled,")


def test_keyword_parameters_are_structured():
    """The hand audit's cause 1 (issue 13): landwalk's land type and protection's qualities are
    structured fields (CR 702.14a, 702.16a), not Text the renderer reads."""
    bog = ability("Bog Wraith", "Swampwalk").body.keywords[0]
    assert bog.param == A.Obj(None, None, ["swamp"], "swamp")
    wk = ability("White Knight", "Protection from black").body.keywords[-1]
    assert wk.param == A.QualityList([A.Quality(words=["black"])], [])
    hx = ability("Progenitus", "Protection from everything")
    assert hx.body.keywords[0].param.items[0].fixed == "everything" and hx.fully_parsed


def test_stated_duration_of_a_delayed_trigger():
    """CR 603.7b: "Until your next turn, whenever …" — the duration is held as a Duration enum on
    the event (``extra["stated_duration"]``), so "until end of turn" and "until your next turn"
    differ in the AST, and the head renders both."""
    a = ability("Jace, Architect of Thought", "Until your next turn, whenever")
    head = next(n for n in a.body.walk() if isinstance(n, A.Triggered))
    assert isinstance(head, A.Triggered) and head.word == "whenever"
    assert head.event.verb == "event:attacks"
    assert head.event.extra["stated_duration"].kind == A.DurationKind.UNTIL_YOUR_NEXT_TURN
    b = ability("Benefactor's Draught", "Until end of turn, whenever")
    cond = next(n for n in b.body.walk() if isinstance(n, A.Triggered))
    assert cond.event.extra["stated_duration"].kind == A.DurationKind.UNTIL_END_OF_TURN


def test_while_condition_of_an_event():
    """"Whenever ~ attacks while you don't control another Dinosaur" (CR 603.2): the condition is a
    ``condition:*`` Action of the cond grammar in ``extra["while"]``, negation included."""
    ev = ability("Pugnacious Hammerskull", "attacks while").body.event
    assert ev.verb == "event:attacks" and ev.extra["when"] == "while"
    assert ev.extra["while"].verb == "condition:not_control"
    assert ev.extra["while"].obj.quantifier == "another" and ev.extra["while"].obj.words == ["dinosaur"]
    ev2 = ability("Moon-Boy, Dino Rider", "attacks while").body.event
    assert ev2.extra["while"].verb == "condition:control"


def test_greater_than_or_equal_to_is_at_least():
    """CR 107.1 (audit cause A4): "greater than or equal to" is ``>=``; "greater than" stays ``>``."""
    geq = ability("Path of Bravery", "greater than or equal to").body.effect[0].condition.extra["condition"]
    gt = ability("Cosmos Elixir", "is greater than your starting").body.effect[0].condition
    assert geq.verb == gt.verb == "condition:life_total"
    assert geq.extra["comparison"].comparator == ">="
    assert gt.extra["comparison"].comparator == ">"


def test_zone_of_a_put_into_event():
    """Audit cause A2 (CR 400.1): the zone of "is put into a graveyard" / "are put into exile" is the
    closed zone name in ``extra["zone"]``, not a type word."""
    gy = ability("Genju of the Falls", "is put into a graveyard").body.event
    ex = ability("Stonebinder's Familiar", "put into exile").body.event
    assert gy.verb == ex.verb == "event:put_into"
    assert (gy.extra["zone"], ex.extra["zone"]) == ("a_graveyard", "exile")
    assert "words" not in gy.extra and "words" not in ex.extra


def test_intervening_if_does_not_run_over_a_sentence():
    """CR 603.4: the intervening "if" ends at its comma; "If the result is 1" is a condition of the
    second sentence (a die result in digits, CR 706.2), and the whole ability round-trips."""
    a = ability("Arden Angel", "if Arden Angel is in your graveyard")
    assert a.fully_parsed, a.render_mismatch
    assert a.body.intervening_if.verb == "condition:in_zone"
    cond = a.body.effect[1].condition
    assert cond.verb == "condition:result" and cond.amount.value == 1


def test_x_compared_reads_in_digits():
    """"If X is 5 or more" (CR 107.3): X compared with a number ``>=`` 5, written in digits."""
    a = ability("West Coast Expansion", "If X is 5 or more")
    assert a.fully_parsed, a.render_mismatch
    cond = next(s.condition for s in a.body.effect if getattr(s, "condition", None) is not None)
    assert cond.verb == "condition:x_is" and cond.extra["comparison"].comparator == ">="
    assert cond.amount.value == 5


def test_unless_condition_of_a_land_entering_tapped():
    """CR 614.1c: "~ enters tapped unless a player has 13 or less life" — the condition compares a
    player's life ``<=`` 13 (CR 119); "your opponents control eight or more lands" counts lands ``>=`` 8."""
    life = ability("Murky Sewer", "unless a player has 13 or less life").body.effect[0].effects[0].condition
    assert life.verb == "condition:life" and life.extra["comparison"].comparator == "<="
    assert life.amount.value == 13
    lands = ability("Turbulent Fen", "unless your opponents control").body.effect[0].effects[0].condition
    assert lands.verb == "condition:control_count" and lands.extra["comparison"].comparator == ">="
    assert lands.amount.value == 8 and lands.extra["words"] == ["lands"]


# g-triggers (issue 13, 2026-12-03): "the first upkeep" (CR 103.6b, 503.2: Step.FIRST_UPKEEP), a plural
# subject becoming blocked (CR 509.1h), a permanent entering tapped (CR 110.5b)
FIRST_UPKEEP_AND_EVENTS = [
    ("Hold the Perimeter", "At the beginning of your first upkeep"),
    ("Hold the Perimeter", "At the beginning of each other player's first upkeep"),
    ("Sentinel Dispatch", "At the beginning of the first upkeep"),
    ("Big Spender", "Whenever one or more creatures you control become blocked"),
    ("Amulet of Vigor", "Whenever a permanent you control enters tapped"),
]


@pytest.mark.parametrize("name,fragment", FIRST_UPKEEP_AND_EVENTS, ids=[f"{n}:{f[:30]}" for n, f in FIRST_UPKEEP_AND_EVENTS])
def test_first_upkeep_and_events_round_trip(name, fragment):
    from tests.test_parse_metamorphic import ability

    a = ability(name, fragment)
    assert a.render_mismatch is None and a.fully_parsed, (a.normalized, a.render_mismatch)


def test_first_upkeep_is_a_step():
    """"At the beginning of your first upkeep" and "… your upkeep" differ in their Step enum."""
    from pipeline.parse import ast as A
    from tests.test_parse_metamorphic import ability

    ev = ability("Hold the Perimeter", "At the beginning of your first upkeep").body.event
    assert ev.extra["phase"] == A.Step.FIRST_UPKEEP and ev.extra["owner"] == A.StepOwner.YOUR


def test_do_this_only_once_each_turn():
    """CR 603.2h: "Do this only once each turn." is a sentence of its own after the instruction."""
    a = ability("Ondu Spiritdancer", "Do this only once each turn.")
    last = a.body.effect[-1]
    assert isinstance(last, A.Sentence) and [e.verb for e in last.effects] == ["do_only_once_each_turn"]
    assert a.fully_parsed


def test_activate_only_if_either_condition():
    """CR 602.5b: "Activate only if ~ entered this turn or if you control a basic land" — one
    restriction part whose condition holds both conditions, in order."""
    a = ability("Dark Fortress", "Activate only if")
    (r,) = a.body.restrictions
    cond = r.extra["condition"]
    assert r.extra["restriction"] == "if" and cond.verb == "condition:or_if"
    first, second = cond.extra["conds"]
    assert first.verb == "condition:this_turn" and first.obj.quantifier == "self"
    assert second.verb == "condition:control" and second.obj.words == ["basic", "land"]


def test_conditions_keep_tense_team_and_comparison():
    """"had power 2 or less" (the object as it last existed, CR 608.2h) keeps "had"; the two teams
    of Unclaimed Cat are two ASTs; "two or more cards" is a comparison (CR 107.1)."""
    cond = ability("Driftgloom Coyote", "If that creature had power 2 or less").body.effect[-1].condition
    assert cond.verb == "condition:stat" and cond.extra["form"] == ["had"]
    assert cond.extra["qualifiers"] == ["stat:power"] and cond.extra["comparison"].comparator == "<="
    assert cond.extra["comparison"].amount.value == 2
    teams = [ability("Unclaimed Cat", f"If you're on the {t} team").body.effect[0].condition for t in ("Mirran", "Phyrexian")]
    assert [c.extra["form"] for c in teams] == [["mirran"], ["phyrexian"]]
    drew = ability("Archmage Ascension", "if you drew two or more cards").body.intervening_if
    assert drew.verb == "condition:did_this_turn" and drew.extra["comparison"].comparator == ">="
    assert drew.extra["comparison"].amount.value == 2
    blocking = ability("Guildsworn Prowler", "if it wasn't blocking").body.intervening_if
    assert blocking.extra["negated"] is True and blocking.obj.quantifier == "it"
