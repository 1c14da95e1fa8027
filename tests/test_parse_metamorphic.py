"""Metamorphic test of the parser: two real oracle lines that differ in one meaningful word must give
different ASTs once every free-text field is stripped (issue 13 item 2).

Each pair names two real cards and a fragment of one of their lines; the line is read from the
corpora (``../shared/corpus``: oracle-2026 and the MTGJSON 2022 set files), never written here.
Where the corpora hold an exact minimal pair (the two lines differ only in that word), the whole
ability body is compared. Otherwise the pair selects the node that carries the word (``select``:
the first node of that class / Action verb prefix) and drops the fields in which the two real lines
also differ (``drop``: e.g. the amount when "5 or less life" is compared with "25 or more life"), so
that only the word under test is left to tell them apart.

Stripping (:func:`strip`) removes what the renderer may not read (docs/ast.md § Rendering): ``text``,
``normalized``, ``pieces``, ``reminders``, rendered text, Unparsed text, ``Amount.text``, descriptor
and ``extra["words"]`` entries outside the closed lexicons (:mod:`pipeline.parse.lexicon`), qualifier
tails that carry wording (a tail that is a closed-lexicon phrase — a numeric characteristic such as "mana
value", a keyword such as "first strike" — is kept), and form words that are not grammar literals.
"""

from __future__ import annotations

import gzip
import json
import re
from functools import lru_cache
from pathlib import Path

import pytest

from pipeline.parse import parse_face
from pipeline.parse.forms import literal_table
from pipeline.parse.lexicon import is_counter_kind, is_keyword, is_object_word
from pipeline.parse.render_objects import NUMERIC_STATS

CORPUS = Path(__file__).parents[1].parent / "shared" / "corpus"
ORACLE = CORPUS / "oracle-2026" / "cards-2026.jsonl.gz"
MTGJSON = CORPUS / "mtgjson-v5-20220425"

FREE_KEYS = {"text", "normalized", "pieces", "reminders", "grammar_version", "rendered", "render_mismatch",
             "fully_parsed", "no_unparsed"}


@lru_cache(maxsize=1)
def _faces() -> dict[str, dict]:
    """Face name → {name, type_line, oracle_text} (oracle-2026 first, then MTGJSON 2022)."""
    out: dict[str, dict] = {}
    with gzip.open(ORACLE, "rt", encoding="utf-8") as fh:
        for line in fh:
            c = json.loads(line)
            for f in c.get("faces") or [c]:
                if f.get("oracle_text"):
                    out.setdefault(f["name"], {"name": f["name"], "type_line": f.get("type_line") or c.get("type_line") or "",
                                               "oracle_text": f["oracle_text"]})
    for path in sorted(MTGJSON.glob("*.json.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for c in json.load(fh)["data"].get("cards", []):
                name = c.get("faceName") or c["name"]
                if c.get("text"):
                    out.setdefault(name, {"name": name, "type_line": c.get("type", ""), "oracle_text": c["text"]})
    return out


def ability(name: str, fragment: str):
    """The parsed ability of card ``name`` whose original line contains ``fragment``."""
    face = _faces()[name]
    for a in parse_face(face["oracle_text"], name=face["name"], type_line=face["type_line"]):
        if fragment in a.text:
            return a
    raise AssertionError(f"{name}: no line contains {fragment!r}")


def _word_ok(w) -> bool:
    """A descriptor word the renderer may read: a lexicon word, or a type word of several lexicon words
    joined by "and"/"or" ("instant and sorcery", as render_objects reads it)."""
    if not isinstance(w, str) or w in ("~", "or", "and", "and/or"):
        return True
    w = w.lower()
    if is_object_word(w) or is_keyword(w) or is_counter_kind(w):
        return True
    parts = w.split()
    return len(parts) > 1 and all(is_object_word(p) or p in ("and", "or") for p in parts)


def _qualifier_ok(q) -> bool:
    """A qualifier kept whole: one without spaces, or one whose tail is a closed-lexicon phrase
    ("stat:mana value", CR 202.3; "with_keyword:first strike", CR 702.7) rather than wording."""
    if not isinstance(q, str) or " " not in q:
        return True
    tail = q.split(":", 1)[-1]
    return tail in NUMERIC_STATS or is_keyword(tail)


def strip(v):
    """The JSON of a node with every free-text field removed (see the module docstring)."""
    if isinstance(v, dict):
        if v.get("node") == "Unparsed":
            return {"node": "Unparsed"}
        out = {}
        for k, x in v.items():
            if k in FREE_KEYS:
                continue
            if k == "words" and isinstance(x, list):
                x = [w for w in x if _word_ok(w)]
            elif k == "form" and isinstance(x, list):
                x = [w for w in x if w in literal_table().literals]
            elif k == "qualifiers" and isinstance(x, list):
                x = [q if _qualifier_ok(q) else q.split(":", 1)[0] for q in x]
            out[k] = strip(x)
        return out
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v


def select(node: dict, what: str | None):
    """The first node (pre-order) whose class is ``what`` or whose Action verb starts with it;
    ``what`` None: the node itself."""
    if what is None:
        return node
    stack = [node]
    while stack:
        n = stack.pop(0)
        if isinstance(n, dict):
            if n.get("node") == what or (n.get("node") == "Action" and str(n.get("verb", "")).startswith(what)):
                return n
            stack[:0] = [x for x in n.values() if isinstance(x, (dict, list))]
        elif isinstance(n, list):
            stack[:0] = list(n)
    raise AssertionError(f"no {what} node")


def _drop(node: dict, keys: tuple[str, ...]) -> dict:
    out = dict(node)
    for k in keys:
        if "." in k:
            top, sub = k.split(".", 1)
            if isinstance(out.get(top), dict):
                out[top] = _drop(out[top], (sub,))
        else:
            out.pop(k, None)
    return out


# (cause, (card, fragment), (card, fragment), select, drop)
PAIRS = [
    # g-effects (issue 13): CR 701.10 doubling, CR 500.8 added phases, CR 708 face up/down, CR 614.1a "instead",
    # CR 205.1b types added or set
    ("power / power and toughness (double)", ("Bulk Up", "Double target creature's power until end of turn"),
     ("Epic Fight", "Double target creature's power and toughness"), "double", ("subject",)),
    ("after this main phase / after this phase", ("Relentless Assault", "After this main phase"),
     ("Bloodthirster", "After this phase"), "additional_combat_phase", ("extra.then_main",)),
    ("face up / face down", ("Clone Shell", "turn the exiled card face up"),
     ("Ixidron", "turn all other nontoken creatures face down"), "turn_face", ("obj",)),
    ("instead or not (return)", ("Firestorm Phoenix", "return it to its owner's hand instead"),
     ("Immortal Phoenix", "return it to its owner's hand"), "return", ()),
    ("and / and/or between the zones searched", ("Crumble to Dust", "graveyard, hand, and library"),
     ("Finale of Devastation", "Search your library and/or graveyard"), "search",
     ("obj", "extra.zone.owner", "extra.zone.zones", "extra.form")),
    ("in addition to its other types or not (becomes)", ("Ashnod's Transmogrant", "becomes an artifact in addition"),
     ("Peacewalker Colossus", "becomes an artifact creature until end of turn"), "becomes",
     ("subject", "extra.words", "extra.duration")),
    ("counter kind put", ("Hunger of the Howlpack", "Put a +1/+1 counter on target creature."),
     ("Scar", "Put a -1/-1 counter on target creature."), None, ()),
    ("counter kinds of the generated lexicon (storage / charge)", ("Mercadian Bazaar", "Put a storage counter on"),
     ("Black Mana Battery", "Put a charge counter on"), None, ()),
    ("counter kind enters with", ("Scholar of New Horizons", "enters with a +1/+1 counter"),
     ("Wickerbough Elder", "enters with a -1/-1 counter"), None, ()),
    ("that many / a (counters)", ("Woodland Champion", "put that many +1/+1 counters on this creature"),
     ("Rock Hydra", "Put a +1/+1 counter on this creature."), "put_counters", ()),
    ("an additional counter / a counter", ("Biophagus", "enters with an additional +1/+1 counter"),
     ("Scholar of New Horizons", "enters with a +1/+1 counter"), "EntersWith", ("subject",)),
    ("counter kind of an object's counter", ("Liliana, Death Wielder", "Destroy target creature with a -1/-1 counter on it."),
     ("Sporeback Troll", "Regenerate target creature with a +1/+1 counter on it."), "Obj", ()),
    ("devotion to black / red", ("Sanguimancy", "where X is your devotion to black"),
     ("Thunderous Might", "where X is your devotion to red"), "WhereX", ()),
    ("energy count", ("Aether Inspector", "you get {E}{E} (two energy counters)"),
     ("Shipwreck Moray", "you get {E}{E}{E}{E} (four energy counters)"), None, ()),
    ("hand / graveyard (put into)", ("Diabolic Tutor", "put that card into your hand"),
     ("Entomb", "put that card into your graveyard"), None, ()),
    ("hand / graveyard (count)", ("Maro", "number of cards in your hand"),
     ("Apocalypse Demon", "number of cards in your graveyard"), None, ()),
    ("shuffle graveyard / hand and graveyard", ("Reminisce", "shuffles their graveyard into their library"),
     ("Timetwister", "shuffles their hand and graveyard into their library"), "shuffle_into", ("subject", "obj")),
    ("under your control or not", ("Hymn of Rebirth", "onto the battlefield under your control"),
     ("Elvish Piper", "onto the battlefield"), "put_onto_battlefield", ("obj", "subject", "extra.optional")),
    ("or greater / or less (object)", ("Stand Up for Yourself", "power 3 or greater"),
     ("Reave Soul", "power 3 or less"), None, ()),
    ("or more / or less life (condition)", ("Thraben Doomsayer", "5 or less life"),
     ("Angel of Vitality", "25 or more life"), "condition:life", ("amount", "extra.comparison.amount")),
    ("tapped / untapped (condition)", ("Mana Vault", "is tapped"),
     ("Genesis Chamber", "is untapped"), "Triggered", ("event", "effect", "word")),
    ("cast from hand / didn't", ("Dread Cacodemon", "if you cast it from your hand"),
     ("Epochrasite", "if you didn't cast it from your hand"), "condition:cast_from_hand", ()),
    ("cards / creature cards (condition)", ("Mindwhisker", "seven or more cards in your graveyard"),
     ("Gray Slaad", "four or more creature cards in your graveyard"), "condition:", ("amount", "extra.comparison.amount")),
    ("cards / creature cards (cost)", ("Harvest Pyre", "exile X cards from your graveyard"),
     ("Chill Haunting", "exile X creature cards from your graveyard"), None, ()),
    ("target / no target", ("Regenesis", "Return up to two target permanent cards"),
     ("Mythos of Brokkos", "Return up to two permanent cards"), None, ()),
    ("with / without duration", ("Nausea", "All creatures get -1/-1 until end of turn."),
     ("Night of Souls' Betrayal", "All creatures get -1/-1."), None, ()),
    ("duration of a joined predicate", ("Sylvan Might", "gets +2/+2 and gains trample until end of turn"),
     ("Riding the Dilu Horse", "gets +2/+2 and gains horsemanship"), "pump", ()),
    ("+N/+N / -N/-N", ("Unholy Strength", "Enchanted creature gets +2/+1."),
     ("Weakness", "Enchanted creature gets -2/-1."), None, ()),
    ("subject of enters tapped", ("Faerie Conclave", "enters tapped"),
     ("Kinjalli's Sunwing", "Creatures your opponents control enter tapped."), "EntersTapped", ()),
    ("choose a type / a name", ("Kindred Dominance", "Choose a creature type."),
     ("Conjurer's Ban", "Choose a card name."), "choose", ("obj",)),
    ("top cards of your / target player's library", ("Telling Time", "Look at the top three cards of your library."),
     ("Dimir Machinations", "Look at the top three cards of target player's library."), "look", ()),
    ("may of a joined action", ("Raphael's Technique", "Each player may discard their hand and draw seven cards."),
     ("Wheel of Fortune", "Each player discards their hand, then draws seven cards."), "draw", ()),
    ("each combat / this turn (must attack, CR 508.1d)", ("Bloodrock Cyclops", "attacks each combat if able"),
     ("Shipwreck Singer", "attacks this turn if able"), "must_attack", ("subject",)),
    ("your / its controller's untap step (CR 502.3)", ("Colossus of Sardia", "doesn't untap during your untap step"),
     ("Paralyze", "doesn't untap during its controller's untap step"), "no_untap", ("subject",)),
    ("subject of a joined predicate", ("Sylvan Might", "gets +2/+2 and gains trample until end of turn"),
     ("Kruin Striker", "gets +1/+0 and gains trample until end of turn"), "GrantAbility", ()),
    # CR 707.9b: a copy exception that sets the types vs one that adds to them (the literal
    # wording, ``form``, is dropped so that only ``addition`` tells them apart)
    ("copy exception types set / added", ("Hour of Eternity", "except it's a 4/4 black Zombie."),
     ("Lazotep Convert", "except it's a 4/4 black Zombie in addition"), "CopyException", ("form",)),
    # CR 106.6: what restricted mana may be spent on
    ("spend restriction creature / artifact spells", ("Food Chain", "Spend this mana only to cast creature spells."),
     ("Mishra's Workshop", "Spend this mana only to cast artifact spells."), "ManaRestriction", ()),
    # keyword parameters (CR 702.14a landwalk, 702.16a protection, 702.11d hexproof from)
    ("swampwalk / islandwalk", ("Bog Wraith", "Swampwalk"), ("Rootwater Commando", "Islandwalk"), None, ()),
    ("protection from black / white", ("White Knight", "Protection from black"),
     ("Black Knight", "Protection from white"), "Keyword", ("name",)),
    ("hexproof from black / white", ("Knight of Grace", "Hexproof from black"),
     ("Knight of Malice", "Hexproof from white"), "Keyword", ("name",)),
    # trigger events (CR 603.2): the alternative of the event rule is in the AST (render_events)
    ("attacks / attacks alone (event)", ("Hollow Dogs", "Whenever this creature attacks, it gets +2/+0"),
     ("Rogue Kavu", "Whenever this creature attacks alone, it gets +2/+0"), None, ()),
    ("discard / cycle a card (event)", ("Necropotence", "Whenever you discard a card,"),
     ("Crystalline Resonance", "Whenever you cycle a card,"), "event:", ()),
    ("cycle or discard / cycle (event)", ("Drake Haven", "Whenever you cycle or discard a card,"),
     ("Crystalline Resonance", "Whenever you cycle a card,"), "event:", ()),
    ("blocks / becomes blocked (event)", ("Sustainer of the Realm", "Whenever this creature blocks,"),
     ("Elvish Berserker", "Whenever this creature becomes blocked,"), "event:", ()),
    # conditions (CR 608.2c): negation and the linked-cost designation (CR 702.174k) are in the AST
    ("the gift was / wasn't promised (condition)", ("Mind Spiral", "If the gift was promised"),
     ("Nocturnal Hunger", "If the gift wasn't promised"), "condition:", ()),
    ("you control no artifacts / no Demons (condition)", ("Glimmervoid", "if you control no artifacts"),
     ("Mark of the Oni", "if you control no Demons"), "condition:", ()),
    # statics (CR 601.2f cost changes, 602.5 activation restrictions, 702.16 a granted protection)
    ("cost less / more (CR 601.2f)", ("Helm of Awakening", "Spells cost {1} less to cast."),
     ("Sphere of Resistance", "Spells cost {1} more to cast."), None, ()),
    ("abilities of artifacts / creatures (CR 602.5)", ("Collector Ouphe", "Activated abilities of artifacts"),
     ("Cursed Totem", "Activated abilities of creatures"), None, ()),
    ("granted protection from black / blue", ("Black Ward", "Enchanted creature has protection from black."),
     ("Blue Ward", "Enchanted creature has protection from blue."), None, ()),
    # objects that post-modifiers name are nodes (Obj.refs), not text a stripped AST loses
    ("that targets a player / a creature (CR 115.1)", ("Outwit", "Counter target spell that targets a player."),
     ("Intervene", "Counter target spell that targets a creature."), None, ()),
    ("and each player / and each planeswalker (CR 608.2c)",
     ("Earthquake", "each creature without flying and each player"),
     ("Magmaquake", "each creature without flying and each planeswalker"), "damage", ()),
    # one-shot actions (effects.lark): where the rest go and in which order (CR 401.4), dice (CR 706.1a),
    # coin flips (CR 705.2), MTG Arena's "perpetually" against a duration
    ("the rest into your graveyard / on the bottom", ("Forbidden Alchemy", "and the rest into your graveyard"),
     ("Court Hussar", "and the rest on the bottom of your library"), "put_into_rest", ()),
    ("the rest in any order / in a random order", ("Prophetic Bolt", "and the rest on the bottom of your library in any order"),
     ("Ajani, Valiant Protector", "and the rest on the bottom of your library in a random order"), "put_into_rest", ("obj",)),
    ("roll a d4 / a d20", ("Netherese Puzzle-Ward", "roll a d4"), ("Component Pouch", "Roll a d20."), "roll_die", ()),
    ("win / lose the flip", ("Skyclaw Thrash", "If you win the flip"), ("Mana Crypt", "If you lose the flip"),
     "condition:", ()),
    ("perpetually / until end of turn", ("Hypnotic Pattern", "Target creature perpetually gets -2/-0."),
     ("Shocking Grasp", "Target creature gets -2/-0 until end of turn."), "pump", ("extra.duration",)),
    # keyword actions (CR 701): the [subtype] of amass (701.47a), an instruction followed twice
    ("amass Orcs / amass Zombies", ("Treason of Isengard", "Amass Orcs 2."), ("Crush Dissent", "Amass Zombies 2."),
     "amass", ()),
    # a base-form verb joined to a plural subject is that subject's (audit A5, transform._resolve_joined)
    ("those players … then shuffle / … then shuffle (A5)", ("Winds of Abandon", "then shuffle"),
     ("Rampant Growth", "then shuffle"), "shuffle", ()),
    # "play lands and cast spells from <zone>": the zone is the lands' too (audit A6, transform_effects.share_zone)
    ("play lands … from the top of your library / from your graveyard (A6)",
     ("Future Sight", "You may play lands and cast spells"),
     ("Yawgmoth's Agenda", "You may play lands and cast spells"), "may_play", ()),
    ("investigate twice / investigate", ("Wavesifter", "investigate twice"), ("Thorough Investigation", "Whenever you attack, investigate."),
     "investigate", ()),
    # A1 (fixed): a later list item with a quantifier is an object of its own (qualifier list_or /
    # list_and, the item in Obj.refs; CR 115.3), so "another" (not ~) is the item's quantifier
    ("A1 an artifact or another creature / an artifact or creature",
     ("Malevolent Noble", "Sacrifice an artifact or another creature"),
     ("Deadly Dispute", "sacrifice an artifact or creature"), "ActionCost", ()),
    # mana (CR 106.6, 608.2d) and counters (CR 122.1, 122.5), zones (CR 404.1)
    ("you may add / add (CR 608.2d)", ("Thran Turbine", "you may add {C}{C}"), ("Sol Ring", "Add {C}{C}"),
     "AddMana", ("restrictions",)),
    ("any color they choose / any color (CR 106.1: who chooses the color)",
     ("Spectral Searchlight", "any color they choose"), ("Lotus Cobra", "add one mana of any color"),
     "AddMana", ("player", "player_obj")),
    ("mana rider if / when (additional effect / delayed trigger, CR 106.6, 603.7a)",
     ("Animal Attendant", "If that mana is spent to cast"), ("Primal Wellspring", "When that mana is spent to cast"),
     "ManaRestriction", ("uses", "effect")),
    ("a counter of any kind / a -1/-1 counter (CR 122.1)", ("Spinal Parasite", "Remove a counter from target permanent."),
     ("Woeleecher", "Remove a -1/-1 counter from target creature."), "remove_counters", ("obj",)),
    ("move a counter / a +1/+1 counter (CR 122.5)", ("Agent's Toolkit", "you may move a counter from this artifact onto"),
     ("Cytoplast Root-Kin", "Move a +1/+1 counter from target creature you control onto"), "move_counters",
     ("extra.onto", "obj", "subject", "extra.optional")),
    # costs (CR 701.9b a random discard) and restrictions on activating and casting (CR 602.5b, 602.5d–e, 601.3)
    ("discard a card at random / discard a card (cost, CR 701.9b)", ("Coral Helm", "{3}, Discard a card at random:"),
     ("Peace of Mind", "{W}, Discard a card:"), "ActionCost", ()),
    ("activate only as a sorcery / as an instant (CR 602.5d–e)", ("Skyshroud Ranger", "Activate only as a sorcery."),
     ("Lion's Eye Diamond", "Activate only as an instant."), "activate_only", ()),
    ("activate only once / once each turn (CR 602.5b)", ("Possessed Goat", "Activate only once."),
     ("Rootwalla", "Activate only once each turn."), "activate_only", ()),
    ("activate only during your turn / your upkeep (CR 602.5b)", ("Disrupting Scepter", "Activate only during your turn."),
     ("Colossus of Sardia", "Activate only during your upkeep."), "activate_only", ()),
    ("cast only during the declare attackers / blockers step (CR 601.3)",
     ("Teleport", "Cast this spell only during the declare attackers step."),
     ("False Orders", "Cast this spell only during the declare blockers step."), "cast_only", ()),
    ("cast only during combat / on an opponent's turn (CR 601.3)", ("Spinal Embrace", "Cast this spell only during combat."),
     ("Wake the Dead", "Cast this spell only during combat on an opponent's turn."), "cast_only", ()),
    # what "for each" counts (CR 107.1): a counter kind (CR 122.1), kicks (CR 702.33) or colors spent (CR 601.2h)
    ("for each age counter / +1/+1 counter on it", ("Vexing Sphinx", "draw a card for each age counter on it"),
     ("Marketback Walker", "draw a card for each +1/+1 counter on it"), "draw", ()),
    ("for each color of mana spent / time it was kicked", ("Tajuru Stalwart", "for each color of mana spent"),
     ("Joraga Warcaller", "for each time it was kicked"), "EntersWith", ()),
    ("from each graveyard / your graveyard (CR 404.1)",
     ("Summon: Esper Valigarmanda", "Exile an instant or sorcery card from each graveyard."),
     ("Tome Shredder", "Exile an instant or sorcery card from your graveyard"), "Obj", ()),
    # trigger events whose meaning is one literal (g-triggers, CR 701, 603.2)
    ("keyword action event proliferate / forage", ("Scheming Aspirant", "Whenever you proliferate"),
     ("Corpseberry Cultivator", "Whenever you forage"), "event:keyword_action", ()),
    ("becomes plotted / saddled", ("Longhorn Sharpshooter", "becomes plotted"),
     ("Stubborn Burrowfiend", "becomes saddled"), "event:becomes_designation", ("obj", "extra.when")),
    ("enters or becomes monstrous / tapped", ("Alpha Deathclaw", "enters or becomes monstrous"),
     ("Champions of the Shoal", "enters or becomes tapped"), "event:enters_or_becomes", ("obj",)),
    ("roll a 1 / a 6", ("Complaints Clerk", "Whenever you roll a 1"),
     ("Night Shift of the Living Dead", "Whenever you roll a 6"), "event:roll_result", ()),
    ("fourth / fifth plan counter", ("Villainous Syndication", "When the fourth plan counter"),
     ("Doom Reigns Supreme", "When the fifth plan counter"), "event:nth_counter", ("obj",)),
    ("enters this turn / this way (CR 603.7b / 603.12)", ("First Day of Class", "enters this turn"),
     ("Adaptive Armorer", "When an Equipment enters this way"), "event:enters", ("obj",)),
    # A2 (closed): the zone of event:put_into is extra["zone"], a closed z_* name (CR 400.1)
    ("A2 put into a graveyard / into exile (event)", ("Genju of the Falls", "is put into a graveyard"),
     ("Stonebinder's Familiar", "put into exile"), "event:put_into", ("obj", "amount", "extra.when")),
    # A4 (closed): "greater than or equal to" is ">=", "greater than" ">" (CR 107.1)
    ("A4 greater than or equal to / greater than (condition)",
     ("Path of Bravery", "greater than or equal to"), ("Cosmos Elixir", "is greater than your starting"),
     "condition:life_total", ("extra.form", "extra.after")),
    ("while you control / you don't control (CR 603.2)", ("Moon-Boy, Dino Rider", "attacks while you control"),
     ("Pugnacious Hammerskull", "attacks while you don't control"), "event:attacks", ("obj", "extra.while.obj")),
    # keywords (CR 702.174d–f gifts, 702.14a landwalk) and cost changes (CR 601.2f)
    ("gift a card / a tapped Fish (CR 702.174e, f)", ("Dawn's Truce", "Gift a card"),
     ("Parting Gust", "Gift a tapped Fish"), "Keyword", ()),
    ("gains swampwalk / forestwalk (CR 702.14a)", ("Nighthaze", "Target creature gains swampwalk until end of turn."),
     ("Weatherseed Elf", "Target creature gains forestwalk until end of turn."), "GrantAbility", ()),
    ("cost {2} less / {2} more for spells that target it (CR 601.2f)",
     ("Elderwood Scion", "Spells you cast that target this creature cost {2} less to cast."),
     ("Elderwood Scion", "Spells your opponents cast that target this creature cost {2} more to cast."),
     "cost_", ("subject",)),
    ("cast only during combat / during the declare blockers step (CR 601.3)",
     ("Angelic Favor", "Cast this spell only during combat."),
     ("False Orders", "Cast this spell only during the declare blockers step."), "cast_only", ()),
    ("equip / cycling abilities you activate (CR 602.2b)",
     ("Fighter Class", "Equip abilities you activate cost {2} less to activate."),
     ("Fluctuator", "Cycling abilities you activate cost {2} less to activate."), None, ()),
    ("spend white mana as though it were red / mana as though it were any color (CR 609.4b)",
     ("Sunglasses of Urza", "You may spend white mana as though it were red mana."),
     ("Mycosynth Lattice", "Players may spend mana as though it were mana of any color."), "spend_as_though", ("subject",)),
    ("is a blue Frog / a green Elk creature with base P/T (CR 613.4b)",
     ("Frogify", "is a blue Frog creature with base power and toughness 1/1"),
     ("Trickster's Elk", "is a green Elk creature with base power and toughness 3/3"), "is_base", ("extra.pt",)),
    ("can't attack alone / can't attack or block alone (CR 508.1c, 509.1b)",
     ("Militia Rallier", "This creature can't attack alone."),
     ("Loyal Pegasus", "This creature can't attack or block alone."), None, ()),
]


#: Silent misparses the AST hand audit found (tests/data/ast_audit_2026/README.md § Misparses found
#: outside the sample) and that are still open: two real lines that differ in a meaningful word, both
#: round-trip, and today give the same stripped node. A ratchet, not a skip: the test fails as soon as a
#: fix tells them apart (then move the pair to PAIRS) or a line stops round-tripping (then drop it here).
OPEN_PAIRS: list = [
    # (none open: A2 "put into a graveyard / into exile" and A4 "greater than or equal to" are fixed
    # and are in PAIRS)
]


def test_open_misparses_still_give_one_ast():
    """Each open pair still round-trips and still gives one stripped AST (a loop, not a
    parametrisation: an empty list runs, it is not a skip)."""
    for cause, a, b, what, drop in OPEN_PAIRS:
        left, right = ability(*a), ability(*b)
        assert left.fully_parsed and right.fully_parsed, f"{cause}: a line no longer round-trips; drop the pair"
        sa = _drop(select(strip(left.to_json()["body"]), what), drop)
        sb = _drop(select(strip(right.to_json()["body"]), what), drop)
        assert sa == sb, f"{cause}: fixed — the two lines now differ; move the pair to PAIRS"


@pytest.mark.parametrize("cause,a,b,what,drop", PAIRS, ids=[p[0] for p in PAIRS])
def test_one_word_changes_the_ast(cause, a, b, what, drop):
    left, right = ability(*a), ability(*b)
    sa = _drop(select(strip(left.to_json()["body"]), what), drop)
    sb = _drop(select(strip(right.to_json()["body"]), what), drop)
    assert sa != sb, f"{cause}: {a[0]!r} and {b[0]!r} give the same AST: {sa}"


def test_stripping_hides_free_text():
    """The stripped ASTs of two real cards with the same wording and different names are equal
    (names become ~, spans are dropped): a difference found above is in structure, not in text."""
    assert strip(ability("Raise Dead", "Return target creature card").to_json()["body"]) == \
        strip(ability("Recover", "Return target creature card").to_json()["body"])
    assert not re.search(r"[A-Z]", json.dumps(strip(ability("Scar", "Put a").to_json()["body"]))
                         .replace("Static", "").replace("Sentence", "").replace("Action", "").replace("Obj", "")
                         .replace("Amount", "").replace("Unparsed", ""))
