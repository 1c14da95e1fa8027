"""Typed ability AST: node dataclasses and their one JSON shape (documented in docs/ast.md).

Every node is a dataclass deriving from :class:`Node`. ``Node.to_json()`` returns a dict
``{"node": <ClassName>, <field>: <value>, ...}`` with every field present (``None`` when not
set), lists of nodes as lists of dicts. Text the grammar cannot read is kept as an
:class:`Unparsed` node, never dropped.

The mana classes (:class:`ManaSymbol`, :class:`Amount`, :class:`AddMana`,
:class:`ManaRestriction`, :class:`GrantAbility`, :class:`CreateToken`) are the stable
interface for ``pipeline.derive.mana`` (CR 106.7); change them only additively.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any

#: Closed list of ability kinds (``Ability.kind``); see docs/ast.md.
ABILITY_KINDS = (
    "keyword",      # a line of keyword abilities ("Flying, vigilance", "Equip {2}")
    "activated",    # "[cost]: [effect]" (CR 602)
    "loyalty",      # planeswalker loyalty ability "+1: ..." (CR 606)
    "triggered",    # "When/Whenever/At ..., ..." (CR 603)
    "static",       # a static ability of a permanent (CR 604)
    "spell",        # an instruction of an instant/sorcery spell (CR 608.2)
    "modal",        # "Choose one —" with its "•" modes (CR 700.2)
    "chapter",      # saga chapter ability "I, II — ..." (CR 714)
    "level",        # leveler block "LEVEL 2-6 / 3/3 / ..." (CR 711)
    "class_level",  # class level line "{2}{G}: Level 2" (CR 716)
    "reminder",     # a line that is only reminder text
    "ability_word", # unused as a kind by itself; ability words are a field (CR 207.2c)
    "other",        # anything else (e.g. a lone power/toughness line of a flip card)
)

#: Closed list of mana production kinds (``AddMana.production``), CR 106 / 106.7.
PRODUCTION_KINDS = (
    "fixed",               # "Add {G}{G}" — exactly the listed symbols
    "one_of",              # "Add {R} or {G}" / "{U}, {B}, or {R}" — one option of ``options``
    "any_color",           # "one mana of any color" / "two mana of any one color"
    "any_type",            # "one mana of any type" (colors and colorless)
    "combination",         # "in any combination of colors" / "of {R} and/or {G}"
    "chosen_color",        # "of the chosen color" / "of that color"
    "commander_identity",  # "in your commander's color identity" (CR 903.4)
    "could_produce",       # "of any color/type that a land you control could produce" (CR 106.7)
    "dependent",           # "of any color among …" / "of the exiled card's colors"
    "other",               # anything else (the text is kept)
)

#: Closed list of the wordings joining two effects of a sentence (``Sentence.joins``).
CONJUNCTIONS = ("and", ", then", "then", ", and", ", and then", ",")

#: Closed list of copy-effect modes (``CopyEffect.mode``), CR 707.
#: how "you may choose new targets for the copy" (CR 707.10c) joins its copy effect (CopyEffect.new_targets_join)
NEW_TARGETS_JOINS = ("sentence", "and_you_may", "and_may", "and")
COPY_MODES = ("enter_as_copy", "becomes_copy", "is_copy", "create_token_copy", "copy_spell",
              "copy_ability", "copy_card", "other")


class DurationKind(str, Enum):
    """Closed list of durations of continuous effects (CR 611.2a–b; "until end of turn" ends in
    the cleanup step, CR 514.2). JSON: the value."""
    UNTIL_END_OF_TURN = "until_end_of_turn"
    THIS_TURN = "this_turn"
    UNTIL_YOUR_NEXT_TURN = "until_your_next_turn"
    UNTIL_END_OF_YOUR_NEXT_TURN = "until_end_of_your_next_turn"


class DelayedTime(str, Enum):
    """Closed list of the times of delayed triggered abilities written into an effect (CR 603.7:
    "at the beginning of the next end step", 513 end step, 503 upkeep, 511 end of combat). JSON:
    the value."""
    NEXT_END_STEP = "next_end_step"            # "at the beginning of the next end step"
    END_STEP = "end_step"                      # "at the beginning of the end step"
    NEXT_UPKEEP = "next_upkeep"                # "at the beginning of the next turn's upkeep"
    YOUR_NEXT_UPKEEP = "your_next_upkeep"      # "at the beginning of your next upkeep"
    END_OF_COMBAT = "end_of_combat"            # "at end of combat"
    THAT_TURN_END_STEP = "that_turn_end_step"  # "at the beginning of that turn's end step" (an extra turn's)
    THAT_TURN_UPKEEP = "that_turn_upkeep"      # "at the beginning of that turn's upkeep"
    YOUR_NEXT_END_STEP = "your_next_end_step"  # "at the beginning of your next end step"
    YOUR_NEXT_MAIN = "your_next_main_phase"    # "at the beginning of your next main phase" (CR 505)
    YOUR_NEXT_MAIN_THIS_TURN = "your_next_main_phase_this_turn"  # "… your next main phase this turn" (mana, CR 106.4)
    YOUR_NEXT_PRECOMBAT_MAIN = "your_next_precombat_main_phase"
    YOUR_NEXT_DRAW_STEP = "your_next_draw_step"
    NEXT_COMBAT = "next_combat"                # "at the beginning of the next combat" (CR 506)
    NEXT_UPKEEP_STEP = "next_upkeep_step"      # "at the beginning of the next upkeep"
    NEXT_CLEANUP = "next_cleanup_step"         # "at the beginning of the next cleanup step" (CR 514)


#: the wording of each DelayedTime (CR 603.7), read by the transformer (transform_conditions.dt2_at)
#: and written by the renderer (render_conditions.render_delayed)
DELAYED_WORDS = {
    DelayedTime.NEXT_END_STEP: "at the beginning of the next end step",
    DelayedTime.END_STEP: "at the beginning of the end step",
    DelayedTime.NEXT_UPKEEP: "at the beginning of the next turn's upkeep",
    DelayedTime.YOUR_NEXT_UPKEEP: "at the beginning of your next upkeep",
    DelayedTime.END_OF_COMBAT: "at end of combat",
    DelayedTime.THAT_TURN_END_STEP: "at the beginning of that turn's end step",
    DelayedTime.THAT_TURN_UPKEEP: "at the beginning of that turn's upkeep",
    DelayedTime.YOUR_NEXT_END_STEP: "at the beginning of your next end step",
    DelayedTime.YOUR_NEXT_MAIN: "at the beginning of your next main phase",
    DelayedTime.YOUR_NEXT_MAIN_THIS_TURN: "at the beginning of your next main phase this turn",
    DelayedTime.YOUR_NEXT_PRECOMBAT_MAIN: "at the beginning of your next precombat main phase",
    DelayedTime.YOUR_NEXT_DRAW_STEP: "at the beginning of your next draw step",
    DelayedTime.NEXT_COMBAT: "at the beginning of the next combat",
    DelayedTime.NEXT_UPKEEP_STEP: "at the beginning of the next upkeep",
    DelayedTime.NEXT_CLEANUP: "at the beginning of the next cleanup step",
}


class Destination(str, Enum):
    """Closed list of destinations of "return … to …" (effects.lark ``dest``; CR 400.1 zones).
    JSON: the value."""
    OWNER_HAND = "owner_hand"            # "its owner's hand" / "their owners' hands"
    YOUR_HAND = "your_hand"
    THEIR_HAND = "their_hand"            # "to their hand" (the hand of the player who acts, CR 402.1)
    BATTLEFIELD = "battlefield"          # "the battlefield" (no modifier)
    BATTLEFIELD_YOUR_CONTROL = "battlefield_under_your_control"
    OWNER_LIBRARY_TOP = "owner_library_top"  # "the top of its owner's library"


class OwnerWording(str, Enum):
    """Closed list of the possessives that name an object's owner (CR 108.3) in a zone or control
    phrase: "its owner's hand", "their owner's hand" (the current Oracle wording for several
    objects) and the older "their owners' hands". The meaning is the same; the AST keeps which
    wording the line used so that the renderer writes it back. JSON: the value."""
    ITS_OWNER = "its_owner"        # "its owner's"
    THEIR_OWNER = "their_owner"    # "their owner's"
    THEIR_OWNERS = "their_owners"  # "their owners'"


#: the words of each :class:`OwnerWording`
OWNER_WORDS = {OwnerWording.ITS_OWNER: "its owner's", OwnerWording.THEIR_OWNER: "their owner's",
               OwnerWording.THEIR_OWNERS: "their owners'"}


def owner_wording(words) -> "OwnerWording | None":
    """The :class:`OwnerWording` of a rule's literal words (``"its"``/``"their"`` and
    ``"owner"``/``"owners"``), or None when they name no owner."""
    words = list(words)
    if "owners" in words:
        return OwnerWording.THEIR_OWNERS
    if "owner" in words:
        return OwnerWording.THEIR_OWNER if "their" in words else OwnerWording.ITS_OWNER
    return None


class Step(str, Enum):
    """Closed list of steps and phases a trigger names (CR 500.1: beginning, main, combat,
    ending phases and their steps). JSON: the value."""
    UPKEEP = "upkeep"                  # CR 503
    DRAW_STEP = "draw_step"            # CR 504
    FIRST_MAIN = "first_main_phase"    # CR 505.1 (older wording "precombat main phase")
    SECOND_MAIN = "second_main_phase"  # CR 505.1 (older wording "postcombat main phase")
    PRECOMBAT_MAIN = "precombat_main_phase"
    POSTCOMBAT_MAIN = "postcombat_main_phase"
    MAIN_PHASE = "main_phase"
    COMBAT = "combat"                  # CR 506 (beginning of combat step, CR 507)
    END_STEP = "end_step"              # CR 513
    END_OF_COMBAT = "end_of_combat"    # CR 511
    FIRST_UPKEEP = "first_upkeep"      # CR 503 in the first turn (103.8): "the first upkeep" (of the game, CR 103.6b cards), "your first upkeep"


class StepOwner(str, Enum):
    """Whose step a trigger names ("your upkeep", "each opponent's end step", "the end step"
    = each turn's). JSON: the value."""
    YOUR = "your"
    EACH = "each"
    EACH_PLAYER = "each_player"
    EACH_OPPONENT = "each_opponent"
    THAT_PLAYER = "that_player"
    ENCHANTED_PLAYER = "enchanted_player"
    TARGET_OPPONENT = "target_opponent"
    CHOSEN_PLAYER = "chosen_player"
    THE = "the"
    YOUR_NEXT = "your_next"                  # "your next end step" (CR 603.7 delayed triggers)
    EACH_OTHER_PLAYER = "each_other_player"  # "each other player's draw step"
    NEXT = "next"                            # "the next end step"
    OF = "of"                                # "the upkeep of enchanted creature's controller": extra.player
    EACH_OF_YOUR = "each_of_your"            # "each of your main phases" (the step name plural)
    EACH_OF_THAT_PLAYER = "each_of_that_player"
    EACH_OF_ENCHANTED_PLAYER = "each_of_enchanted_player"
    ENCHANTED_OPPONENT = "enchanted_opponent"  # "enchanted opponent's end step" (an Aura enchanting a player, CR 303.4)


#: Field names of each node class, in declaration order (``dataclasses.fields`` is slow to call per node).
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
#: Types :func:`_json` returns as they are without looking further.
_SCALARS = (str, int, bool, float, type(None))


def field_names(cls: type) -> tuple[str, ...]:
    """The dataclass field names of node class ``cls`` in declaration order (cached per class)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


def _json(value: Any) -> Any:
    if type(value) in _SCALARS:
        return value
    if isinstance(value, Node):
        return value.to_json()
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items()}
    return value


@dataclass
class Node:
    """Base of all AST nodes. ``to_json`` → ``{"node": class name, **fields}``."""

    def to_json(self) -> dict:
        out = {"node": type(self).__name__}
        for name in field_names(type(self)):
            out[name] = _json(getattr(self, name))
        return out

    def walk(self):
        """Yield this node and every descendant node (pre-order), through lists, tuples and dicts."""
        stack: list = [self]
        while stack:
            value = stack.pop()
            if isinstance(value, Node):
                yield value
                stack.extend(getattr(value, name) for name in reversed(field_names(type(value))))
            elif isinstance(value, (list, tuple)):
                stack.extend(reversed(value))
            elif isinstance(value, dict):
                stack.extend(reversed(list(value.values())))


# --------------------------------------------------------------------------- generic leaves
@dataclass
class Unparsed(Node):
    """Text the grammar could not read (kept verbatim, normalised form)."""
    text: str


@dataclass
class SelfRef(Node):
    """A reference to the object the ability is on: the card's name, its short name,
    "this creature/land/spell/…" (normalised to ``~``)."""
    text: str = "~"


@dataclass
class Text(Node):
    """A piece of structured-but-opaque text the grammar recognises as a unit
    (e.g. a creature type list, a card name in quotes)."""
    text: str


@dataclass
class Duration(Text):
    """A duration (CR 611.2b): ``kind`` one of :class:`DurationKind`; ``text`` the wording
    (kept for readers of the older ``Text`` duration; the renderer reads ``kind``)."""
    kind: DurationKind | None = None


#: Fixed qualities of "protection from …" / "hexproof from …" (CR 702.16a, 702.11d) → their words.
FIXED_QUALITIES = {"everything": "everything", "all_colors": "all colors", "each_color": "each color",
                   "color_of_choice": "the color of your choice", "chosen_color": "the chosen color",
                   "chosen_player": "the chosen player"}


#: What "Gift a [something]" gives the chosen opponent (CR 702.174d–i) → its words after "Gift".
GIFTS = {"food": "a Food", "card": "a card", "tapped_fish": "a tapped Fish", "extra_turn": "an extra turn",
         "treasure": "a Treasure", "octopus": "an Octopus"}


@dataclass
class Gift(Node):
    """The [something] of a gift keyword, ``Keyword{name: "gift", param: Gift}`` (CR 702.174a):
    ``kind`` a key of :data:`GIFTS` ("card" — the chosen player draws a card, CR 702.174e; "tapped_fish"
    — creates a tapped 1/1 blue Fish creature token, CR 702.174f …)."""
    kind: str


@dataclass
class PowerToughness(Node):
    """A power/toughness box written as a keyword's parameter: "Prototype {1}{W} — 2/2" →
    ``Keyword{name: "prototype", cost, param: PowerToughness("2/2")}`` (CR 702.160a, 718.3: the
    prototype's power and toughness). ``pt``: the two numbers "P/T" as printed."""
    pt: str


@dataclass
class Quality(Node):
    """One quality of "protection from [quality]" / "hexproof from [quality]" (CR 702.16a,
    702.11d): ``fixed`` a key of :data:`FIXED_QUALITIES` ("everything", "all_colors" …), or
    ``words`` — color, card type and subtype words (CR 105, 205: ["black"], ["artifacts"],
    ["monocolored"]) —, or ``mana_value`` N ("mana value N"; ``cmc`` True for the older
    "converted mana cost N")."""
    fixed: str | None = None
    words: list[str] = field(default_factory=list)
    mana_value: int | None = None
    cmc: bool = False


@dataclass
class QualityList(Node):
    """The qualities of a protection / hexproof-from keyword in order, with the separator
    before each later one (``seps``: "and from", ", from", ", and from", ",", "and", ", and")."""
    items: list[Quality] = field(default_factory=list)
    seps: list[str] = field(default_factory=list)


@dataclass
class DieResult(Text):
    """The results of a die-roll table row, "1—9 | …" (CR 706.2): ``low``..``high`` (equal for
    one number); ``text`` keeps the older ``"die_result:1-9"`` wording for its readers, the
    renderer reads the numbers."""
    low: int = 0
    high: int = 0


@dataclass
class Delayed(Text):
    """The time of a delayed triggered ability an effect creates (CR 603.7a), as a
    ``Sentence.condition``: ``kind`` one of :class:`DelayedTime`; ``after`` true when the time
    follows the effect ("Exile it at the beginning of the next end step."), false when it leads
    ("At end of combat, sacrifice it."); ``text`` the wording (the renderer reads ``kind``)."""
    kind: DelayedTime | None = None
    after: bool = False


@dataclass
class Zone(Text):
    """A destination zone (:class:`Destination`) of a "return" action; ``text`` the wording
    (kept for readers of the older ``Text``), the renderer reads ``kind``; ``owner`` the
    :class:`OwnerWording` of an owner's zone ("their owner's hand"), None when not read."""
    kind: Destination | None = None
    owner: OwnerWording | None = None


@dataclass
class Obj(Node):
    """An object/player description: "target creature you control", "each opponent",
    "up to two target nonland permanents", "~", "it".

    quantifier: target|each|all|a|another|up_to_target|that|the|self|it|you|other words …
    count: Amount or None. words: the descriptor words in order (lowercased, e.g.
    ["nonland", "permanent"]). text: the original (normalised) text. qualifiers: the
    post-modifiers by rule name ("you_control", "opp_controls", "zone:your_graveyard",
    "power<=", "with_keyword:flying" …). refs: the objects (or quantities, an Amount) that
    post-modifiers name, in the order of the qualifiers that take one (:data:`REF_QUALIFIERS`: "a spell that targets ~" →
    qualifiers ["that_targets"], refs [Obj(~)]; "each creature with flying and each player" →
    ["with_keyword:flying", "and"], refs [Obj(each player)]).
    """
    quantifier: str | None
    count: "Amount | None"
    words: list[str]
    text: str
    qualifiers: list[str] = field(default_factory=list)
    refs: list[Node] = field(default_factory=list)


#: Qualifiers of an :class:`Obj` that name another object, held in ``Obj.refs`` in order:
#: "that targets X" (CR 115.1), "other than X", "with the same name as X" (CR 201.2),
#: "X and Y" (an object list, CR 608.2c), "blocking X" / "blocking or blocked by X" (CR 509.1),
#: "attached to X" (CR 301.5, 303.4), "dealt damage by X this turn" (CR 120), "from among X" (CR 608.2c),
#: "that shares a creature type / card type / color with X" (CR 205.3, 105.2), the later items of a
#: list whose items each have a quantifier ("target creature and target land": ``list_and``, one
#: per later item, the list's last separator; CR 115.3 each "target" is a target of its own),
#: "with the greatest power among X", "card types among X" (CR 205.2a); and those comparing with a
#: quantity, whose ref is an :class:`Amount`: "with mana value less than or equal to Q" (``mv_leq``),
#: "with mana value equal to Q", "with power less than or equal to Q" (CR 202.3, 208.1).
REF_QUALIFIERS = ("that_targets", "that_targets_only", "other_than", "same_name_as", "and", "blocking",
                  "blocking_or_blocked_by", "attached", "dealt_damage_by", "greatest", "among",
                  "mv_leq", "mv_equal_to", "power_leq", "power_less_than",
                  "from_among", "shares_creature_type", "shares_card_type", "shares_color",
                  "list_and", "list_or", "list_and_or")

#: Post-modifiers comparing a characteristic with a quantity (an :class:`Amount` in ``Obj.refs``) that
#: objects.lark p_stat_cmp reads (CR 208.1 power/toughness, 202.3 mana value; the quantity CR 107.1):
#: qualifier → (characteristic, comparator of :data:`COMPARATORS`, the words before the quantity).
#: "equal to or greater than" and "greater than or equal to" are one comparator, two wordings.
STAT_COMPARISONS = {
    f"{key}_{rel}": (stat, cmp, words)
    for key, stat in (("power", "power"), ("toughness", "toughness"), ("mv", "mana value"))
    for rel, cmp, words in (("lt", "<", "less than"), ("gt", ">", "greater than"),
                            ("le", "<=", "less than or equal to"), ("ge", ">=", "greater than or equal to"),
                            ("eq", "=", "equal to"), ("eq_or_gt", ">=", "equal to or greater than"),
                            ("eq_or_lt", "<=", "equal to or less than"))
}
REF_QUALIFIERS = REF_QUALIFIERS + tuple(STAT_COMPARISONS)


@dataclass
class AbilitiesOf(Obj):
    """The abilities of other objects as one object description (CR 113.1, 602): "activated
    abilities of artifacts" / "enchanted creature's activated abilities" — ``words`` the ability
    words (["activated", "abilities"]), ``source`` the :class:`Obj` whose abilities they are,
    ``possessive`` True for the "X's activated abilities" wording. ``quantifier`` is "of"."""
    source: "Obj | None" = None
    possessive: bool = False


@dataclass
class KeywordAbilities(Obj):
    """The abilities of one keyword as an object description: "Equip abilities you activate cost {1}
    less to activate" (CR 602.2b cost change; CR 702 keyword) — ``keyword`` the keyword's name
    ("equip", "cycling", "boast"), ``words`` ["abilities"], ``qualifiers`` its post-modifiers
    (``you_activate``)."""
    keyword: str = ""


@dataclass
class TypesAmong(Obj):
    """Types counted among objects: "basic land types among lands you control" (domain, CR 205.3i,
    207.2c), "creature types among creatures you control" — ``words`` the kind of type with
    "type"/"types" last, ``among`` the :class:`Obj` whose types are counted. ``quantifier`` is
    "types_among"."""
    among: "Obj | None" = None


# --------------------------------------------------------------------------- amounts and mana
@dataclass
class Amount(Node):
    """A quantity. kind: fixed|x|equal_to|for_each|that_many|that_much|one_to|any|up_to|all|other (all: "move all counters from …", CR 122.5).

    fixed → ``value`` int; x → ``variable`` "X" (defined elsewhere by a :class:`WhereX`,
    CR 107.3); equal_to / for_each → ``ref`` holds what is counted (an :class:`Obj`,
    :class:`Text` or :class:`Unparsed`); that_many → "that many" (a number an earlier
    instruction determined); that_much → "that much" ("you gain that much life": the amount of
    the event or instruction it refers to); one_to → "one, two, or three" targets (``value`` 3, CR 601.2d: a
    number of targets chosen up to ``value``); text is the original wording.
    """
    kind: str
    value: int | None = None
    variable: str | None = None
    ref: Node | None = None
    text: str = ""


#: Closed lists of ``Scaled`` fields: the factor ("twice X", "half X") and the rounding of a half
#: (CR 107.1a: a fractional number is rounded the way the ability says).
SCALE_FACTORS = ("twice", "half")
ROUNDINGS = ("up", "down")


@dataclass
class Scaled(Node):
    """A quantity multiplied by a factor, as the ``ref`` of an ``Amount{equal_to}``: "twice the
    number of creatures you control" → ``Scaled("twice", Amount{equal_to, ref: Obj})``; "half the
    number of Zombies you control, rounded down" → factor "half", rounding "down" (CR 107.1a).
    factor: one of SCALE_FACTORS; amount: the Amount scaled; rounding: one of ROUNDINGS or None."""
    factor: str
    amount: "Amount | None" = None
    rounding: str | None = None


#: Operators of :class:`Arithmetic` ("plus", "minus").
ARITHMETIC_OPS = ("plus", "minus")
#: How a constant of an :class:`Arithmetic` is written: "3 minus …" (digits) or "five minus …" (words).
NUMERALS = ("digits", "words")


@dataclass
class Arithmetic(Node):
    """Two quantities added or subtracted, as the ``ref`` of an ``Amount{equal_to}`` (CR 107.1: a
    number the text computes): "the number of cards in their hand minus 4" (Black Vise), "3 minus the
    number of cards in their hand" (The Rack); objects.lark qt_arith reads "minus" only so far ("plus" of
    two quantities would add grammar conflicts). left, right: Amounts (fixed, X or equal_to); op: one of ARITHMETIC_OPS;
    numerals: one of NUMERALS, how a fixed constant is written (Oracle prints both)."""
    left: "Amount"
    op: str
    right: "Amount"
    numerals: str = "digits"


#: Closed list of comparators (``Comparison.comparator``): "N or more" / "N or greater" / "N or
#: higher" (>=), "N or less" / "N or fewer" (<=), "more than N" (>), "less/fewer than N" (<), "exactly N" (=).
COMPARATORS = (">=", "<=", ">", "<", "=")
#: the words after "greater than" / "less than" that make the comparison ">=" / "<=" (CR 107.1:
#: "greater than or equal to"), read by the transformer and by the renderer of alternatives
OR_EQUAL_TO = ["or", "equal", "to"]


@dataclass
class Comparison(Node):
    """A comparison with a number in a condition ("if you have 5 or less life": ``<=`` 5).
    comparator: one of COMPARATORS; amount: the Amount compared against (or None when the
    condition's own ``amount`` holds it)."""
    comparator: str
    amount: "Amount | None" = None


@dataclass
class ManaSymbol(Node):
    """One mana/cost symbol, CR 107.4. raw: "{2/W}" (upper case).

    kind: generic|colored|colorless|hybrid|twobrid|phyrexian|hybrid_phyrexian|snow|x|half|
    tap|untap|energy|other. colors: WUBRG letters it carries. generic: the number for
    generic / two-brid symbols.
    """
    raw: str
    kind: str
    colors: list[str] = field(default_factory=list)
    generic: int | None = None


@dataclass
class ManaRestriction(Node):
    """A rider on produced mana. kind: spend_only ("Spend this mana only …", CR 106.6),
    persist ("you don't lose this mana as steps and phases end"), rider (any other
    "When you spend this mana …" / "If that mana is spent …" clause). text: wording.
    uses: for spend_only, what the mana may be spent on (:class:`ManaUse` list, empty when
    the grammar could not read it); negated: "This mana can't be spent to …" (the uses are
    forbidden, not the only ones allowed); joins: the separators between the uses ("," "or"
    "and" "and/or" ", or" ", and"); duration: for persist, how long the mana stays ("Until end
    of turn, you don't lose this mana as steps and phases end", CR 106.4, 500.5).
    For a rider (CR 106.6: an additional effect on what the mana is spent on, or a delayed
    triggered ability, CR 603.7a, that triggers when it is spent): lead one of
    :data:`MANA_RIDER_LEADS` ("if" = an additional effect; "when"/"whenever" = a delayed
    trigger), uses the one use the rider names (empty: "When that mana is spent, …"), effect
    the Sentence that follows the comma. wording: how the clause names the mana, one of
    :data:`MANA_SPEND_WORDINGS` ("that mana is spent", "you spend this mana", "this mana is
    spent"; for a negated spend_only also "you can't spend this mana")."""
    kind: str
    text: str
    uses: list["ManaUse"] = field(default_factory=list)
    negated: bool = False
    joins: list[str] = field(default_factory=list)
    duration: Node | None = None
    lead: str | None = None
    wording: str | None = None
    effect: list[Node] = field(default_factory=list)


#: Closed list of the words that open a mana rider (``ManaRestriction.lead``, CR 106.6, 603.7a).
MANA_RIDER_LEADS = ("if", "when", "whenever")
#: Closed list of how a rider or restriction names the mana (``ManaRestriction.wording``).
MANA_SPEND_WORDINGS = ("that_mana_is_spent", "you_spend_this_mana", "this_mana_is_spent", "you_cant_spend_this_mana")


#: Closed list of what spend-restricted mana may be spent on (``ManaUse.purpose``, CR 106.6):
#: casting spells (CR 601), activating abilities (CR 602), paying a cost that contains a mana
#: symbol (CR 118), turning a permanent face up (CR 702.37e, 708.8), paying a keyword's cost, and
#: for riders "spent on" a spell or ability ("If that mana is spent on a creature spell", CR 106.6).
MANA_USE_PURPOSES = ("cast", "activate", "cost_contains", "turn_face_up", "pay_keyword_cost", "spent_on",
                     "gain_class_level", "unlock_door", "foretell", "activate_keyword", "pay_x")


@dataclass
class ManaUse(Node):
    """One thing restricted mana may (or, ``ManaRestriction.negated``, may not) be spent on
    (CR 106.6): ``purpose`` one of :data:`MANA_USE_PURPOSES`; ``obj`` the spell, ability or
    permanent (Obj), or for ``pay_keyword_cost`` a :class:`Keyword` naming the cost (a :class:`Text`
    when the words are no keyword: "to pay generic mana costs");
    ``symbols`` the mana symbols of ``cost_contains``; ``to``: the use is written with "to"
    ("to cast …"; after a conjunction "or to activate …" vs "or activate …"); ``plural``: a
    keyword cost in the plural ("to pay cumulative upkeep costs"); ``gain_class_level`` "to gain a
    Class level" (CR 716.2), ``unlock_door`` "to unlock a door" / ``plural`` "unlock doors" (CR 709.5e),
    ``foretell`` "to foretell a card from your hand" (obj the card, CR 702.143a), ``activate_keyword``
    "to activate equip abilities" (obj the :class:`Keyword`, CR 702), ``pay_x`` "Spend only black mana
    on X" (CR 107.3: only mana of the color of the one symbol in ``symbols`` may pay for X)."""
    purpose: str
    obj: Node | None = None
    symbols: list["ManaSymbol"] = field(default_factory=list)
    to: bool = True
    plural: bool = False


@dataclass
class AddMana(Node):
    """An "Add …" instruction (CR 106.3) or "adds an additional …" (CR 605.1b riders).

    production: one of PRODUCTION_KINDS.
    symbols: fixed → the symbols added, in order ("{C}{C}" → two C symbols);
             for amount-based productions the symbol(s) each unit is (e.g. "Add {G} for each
             Elf" → [G] with amount for_each).
    options: one_of → list of alternatives, each a list of symbols ("{R}{R} or {G}{G}");
             combination limited to symbols ("of {R} and/or {G}") → one option per symbol.
    amount: how many mana (Amount); fixed productions with no multiplier → fixed 1 (times
            the symbols).
    any_one_color: True for "two mana of any one color" (all the same color), False for
            "… of any color" / different colors handled by ``different``.
    different: True for "two mana of different colors".
    source: could_produce → the land/permanent description (Obj); dependent → the object
            whose colors decide (Obj/Unparsed).
    restrictions: ManaRestriction list (spend-only and riders).
    player: who adds the mana when not "you" ("its controller adds …") else None.
    additional: True for "adds an additional …" (triggered mana abilities, CR 605.1b).
    text: the wording.
    instead: True for a replacement "… add {C}{C} instead" / "instead add …" (the
    production replaces the ability's first one under the sentence's condition).
    of_type: True when the wording says "type" ("of any type", "any type that a land …
    could produce"): colorless mana is possible (CR 106.7); False for "color".
    player_obj: the player who adds the mana as an object (Obj: "that player", "a player of
    your choice"), when ``player`` is set (``player`` keeps its wording for older readers).
    optional: True for "you may add …" / "its controller may add an additional …" (CR 608.2d:
    the player chooses whether to add the mana).
    that_color: for chosen_color, True when the wording is "of that color" (the color an earlier
    part of the ability names: "Choose a color. Add one mana of that color", "For each color among
    …, add one mana of that color") rather than "of the chosen color" (chosen as the permanent
    entered, CR 106.7).
    dependent: for a dependent production, which wording names ``source`` (one of
    :data:`DEPENDENT_WORDINGS`); None for the other productions.
    chooser: "they" when another player adding "any color" mana chooses it, written "… of any
    color they choose" (:data:`MANA_CHOOSERS`, CR 106.1); None when the wording names no chooser.
    also: a second production added by the same instruction, joined by "and" ("Add two mana of any
    one color and two mana of any other color": the second ``AddMana`` has ``other_color`` True —
    its color differs from the first's, CR 106.1).
    """
    production: str
    symbols: list[ManaSymbol] = field(default_factory=list)
    options: list[list[ManaSymbol]] = field(default_factory=list)
    amount: Amount | None = None
    any_one_color: bool = False
    different: bool = False
    source: Node | None = None
    restrictions: list[ManaRestriction] = field(default_factory=list)
    player: str | None = None
    additional: bool = False
    text: str = ""
    of_type: bool = False
    instead: bool = False
    player_obj: Node | None = None
    optional: bool = False
    that_color: bool = False
    dependent: str | None = None
    chooser: str | None = None
    also: "AddMana | None" = None
    other_color: bool = False


#: How a dependent production names the object whose colors it adds (``AddMana.dependent``,
#: CR 106.7): "one mana of any color among legendary permanents you control" (``among``), "… of
#: any of the exiled card's colors" (``colors_of``), "… of one of that card's colors"
#: (``one_of_colors``).
DEPENDENT_WORDINGS = ("among", "colors_of", "one_of_colors")
#: Who chooses the color of "any color" mana (``AddMana.chooser``, CR 106.1): "That player adds one
#: mana of any color they choose" (``they``).
MANA_CHOOSERS = ("they",)


# --------------------------------------------------------------------------- costs
@dataclass
class Cost(Node):
    """A cost: an ordered list of components (CR 118, 602.1)."""
    components: list[Node]
    text: str = ""


@dataclass
class ManaCost(Node):
    """Mana symbols within a cost (CR 107.4, 202.1)."""
    symbols: list[ManaSymbol]


@dataclass
class TapCost(Node):
    """{T} (CR 107.5)."""


@dataclass
class UntapCost(Node):
    """{Q} (CR 107.6)."""


@dataclass
class EnergyCost(Node):
    """{E}{E}… (CR 107.14): amount is the number of {E}."""
    amount: int


@dataclass
class LoyaltyCost(Node):
    """Loyalty cost of a planeswalker ability (CR 606.4): sign "+", "-" or "" (for 0);
    amount Amount (fixed or x)."""
    sign: str
    amount: Amount


@dataclass
class ActionCost(Node):
    """A non-mana cost component expressed as an action (CR 118.3, 602.1).

    action: sacrifice|discard|exile|return_to_hand|tap|untap|pay_life|remove_counters|
    put_counters|reveal|mill|pay_energy|other. obj: the object(s) acted on (Obj) or None.
    amount: Amount (life paid, counters removed …) or None. counter: counter kind
    ("+1/+1", "charge") for counter costs. zone: from-zone for exile ("graveyard", "hand").
    """
    action: str
    obj: Node | None = None
    amount: Amount | None = None
    counter: str | None = None
    zone: str | None = None
    text: str = ""


#: what a choice made earlier picked (CR 607.2d-style linked choices: "As ~ enters, choose a creature type"):
#: the kinds a :class:`Chosen` reference may name
CHOSEN_KINDS = ("type", "creature_type", "color", "name", "player", "number")


@dataclass
class Chosen(Node):
    """A reference to the value a choice made earlier picked: "the chosen type" → ``Chosen("type")`` —
    the type chosen as the permanent entered (CR 614.12, 607.2d), not a type word. kind: one of
    :data:`CHOSEN_KINDS`."""
    kind: str


@dataclass
class CostChoice(Node):
    """A choice between costs: "sacrifice a creature or pay {3}{B}" (the player picks one option to pay,
    CR 601.2b, 118.1). options: the Cost of each option, in text order."""
    options: list[Node]
    text: str = ""


class TimingPeriod(str, Enum):
    """Closed list of the turn parts an activation or casting restriction names (CR 500.1 phases and
    steps; CR 508.1 / 509.1 the declarations of attackers and blockers). JSON: the value."""
    TURN = "turn"                                      # CR 500
    UPKEEP = "upkeep"                                  # CR 503
    COMBAT = "combat"                                  # CR 506
    DECLARE_ATTACKERS_STEP = "declare_attackers_step"  # CR 508
    DECLARE_BLOCKERS_STEP = "declare_blockers_step"    # CR 509
    COMBAT_DAMAGE_STEP = "combat_damage_step"          # CR 510
    END_OF_COMBAT_STEP = "end_of_combat_step"          # CR 511
    END_STEP = "end_step"                              # CR 513
    ATTACKERS_DECLARED = "attackers_declared"          # CR 508.1 ("before attackers are declared")
    BLOCKERS_DECLARED = "blockers_declared"            # CR 509.1 ("before blockers are declared")


#: relations of a :class:`Timing` to its period, and whose turn or step it is
TIMING_RELATIONS = ("during", "before", "after")
TIMING_WHOSE = ("your", "opponent", "the")


@dataclass
class Timing(Node):
    """When an ability may be activated or a spell cast (CR 602.5b, 601.3; 307.1 sorcery timing):
    "during your turn, before attackers are declared" → ``Timing(during, your, turn,
    then=Timing(before, None, attackers_declared))``; "during combat on an opponent's turn" →
    ``Timing(during, None, combat, on_turn="opponent")``; "before the combat damage step" →
    ``Timing(before, "the", combat_damage_step)``.

    relation: one of :data:`TIMING_RELATIONS`. whose: one of :data:`TIMING_WHOSE` or None (no
    possessive: "combat"). period: :class:`TimingPeriod`. on_turn: whose turn the period falls in
    ("on your turn": "your", "on an opponent's turn": "opponent") or None. then: a narrower Timing
    inside this one ("… before blockers are declared") or None.
    """
    relation: str
    whose: str | None
    period: TimingPeriod
    on_turn: str | None = None
    then: "Timing | None" = None


@dataclass
class AdditionalCost(Node):
    """"As an additional cost to cast this spell, …" (CR 601.2b, 118.8). optional: "you may"."""
    cost: Node
    optional: bool = False


@dataclass
class AlternativeCost(Node):
    """"You may [cost] rather than pay this spell's mana cost" / "If …, you may cast this
    spell without paying its mana cost" (CR 118.9). condition: Unparsed/Node or None."""
    cost: Node | None
    condition: Node | None = None
    text: str = ""


# --------------------------------------------------------------------------- copy effects
@dataclass
class CopyException(Node):
    """One "except …" clause of a copy effect (CR 707.9).
    kind: is_type ("it's an artifact"/"it's a 1/1 … in addition": value = the type/PT words),
    has_ability ("it has \"…\"": value = the parsed ability body), has_keyword (value =
    Keyword list), has_this_ability ("it has this ability"), not_legendary, name_is (value =
    the name), enters_with_counters (value = CounterSpec), pt, loses_ability (value = Keyword
    list, "except it has haste and loses soulbond"), not_color ("it doesn't copy that creature's
    color"), no_mana_cost ("the token has no mana cost", CR 702.128a), other. text: the wording.
    condition: an ``Action("condition:…")`` when the exception applies only if a condition
    holds ("… if it's a creature", "except if ~ was embalmed, …"), else None.
    addition: for is_type, "types" when the types are added to the copied ones ("… in addition
    to its other types", CR 707.9b), "colors_and_types" ("… in addition to its other colors and
    types"), None when they replace them ("except it's an artifact"). form: the grammar's literal
    words of the clause as written ("it", "'s", "a" …; a closed list, for the renderer)."""
    kind: str
    value: Any = None
    text: str = ""
    condition: Node | None = None
    addition: str | None = None
    form: list[str] = field(default_factory=list)


@dataclass
class CopyEffect(Node):
    """A copy effect (CR 707). mode: one of COPY_MODES. original: what is copied (Obj).
    optional: "You may have …"/"you may copy". count: number of copies (Amount) or None.
    exceptions: CopyException list. counters: extra counters (CounterSpec list, CR 107.3m
    when X). new_targets: "You may choose new targets for the copy". subject: the object
    that becomes the copy (for becomes_copy/enter_as_copy; ~ for self). duration: "until end
    of turn" etc. for a temporary becomes_copy, else None. tapped: the copy enters tapped
    ("enter tapped as a copy of", "create a tapped token that's a copy of", CR 110.5b);
    attacking: the token copy enters tapped and attacking (CR 508.4); status_last: that status
    is written after the original ("… a copy of it and that's tapped and attacking") rather than
    before "token". instead: the copy replaces the instruction before it (CR 608.2c), written
    first ("lead": "instead create …") or last ("trail": "… instead"), else None.
    new_targets_join: how the new-targets choice (CR 707.10c) joins the copy, one of
    NEW_TARGETS_JOINS — "sentence" (". You may choose new targets for the copy."), "and_you_may"
    ("copy it and you may choose …"), "and_may" ("may copy it and may choose …"), "and" ("may copy
    it and choose …") — None without one; new_targets_own: "… for the copy they control" (each
    copier chooses for its own copy); new_targets_single: "a new target" (the copy of a spell
    with one target); new_targets_that: "… for that copy".
    condition: a condition written after the copy ("copy it if you control an artifact", Banish into
    Fable; a ``condition:*`` Action, CR 608.2c), None when the copy is unconditional.
    """
    mode: str
    original: Node | None
    optional: bool = False
    count: Amount | None = None
    exceptions: list[CopyException] = field(default_factory=list)
    counters: list[Node] = field(default_factory=list)
    new_targets: bool = False
    subject: Node | None = None
    text: str = ""
    duration: Node | None = None
    tapped: bool = False
    attacking: bool = False
    status_last: bool = False
    instead: str | None = None
    new_targets_join: str | None = None
    new_targets_own: bool = False
    new_targets_single: bool = False
    new_targets_that: bool = False
    condition: Node | None = None


@dataclass
class CounterSpec(Node):
    """``amount`` counters of kind ``counter`` ("+1/+1", "loyalty", "charge"); ``additional``:
    "an additional +1/+1 counter" (counters on top of those another effect gives, CR 122.6)."""
    counter: str
    amount: Amount
    additional: bool = False


# --------------------------------------------------------------------------- keywords, X
@dataclass
class Keyword(Node):
    """A keyword ability (CR 702). name: canonical lowercase name ("equip", "ward",
    "protection", "landcycling"). cost: Cost for cost-taking keywords. amount: Amount for
    numbered keywords (Bushido 2, Annihilator 2). param: other parameter (Obj for
    "protection from red", Text for "Enchant creature", "forestwalk" type …)."""
    name: str
    cost: Node | None = None
    amount: Amount | None = None
    param: Node | None = None
    text: str = ""


@dataclass
class WhereX(Node):
    """"…, where X is …" (CR 107.3): variable "X" and its definition (Amount/Unparsed)."""
    variable: str
    definition: Node


@dataclass
class EntersWith(Node):
    """Replacement "~ enters with N [counter] counters on it" (CR 614.1c, 107.3m for X)."""
    subject: Node
    counters: list[CounterSpec]
    tapped: bool = False


@dataclass
class EntersTapped(Node):
    """"~ enters tapped" (CR 614.1c). condition: "unless …" clause or None."""
    subject: Node
    condition: Node | None = None


# --------------------------------------------------------------------------- effects
@dataclass
class Action(Node):
    """A generic instruction: verb (lowercase, e.g. "draw", "destroy", "deal_damage") with
    subject (who does it, Obj or None = you/the spell), obj (what it acts on), amount,
    and extra (dict of further named parts)."""
    verb: str
    subject: Node | None = None
    obj: Node | None = None
    amount: Amount | None = None
    extra: dict = field(default_factory=dict)
    text: str = ""


@dataclass
class CreateToken(Node):
    """"Create N … token(s)" (CR 111). count Amount; token_name: predefined token name
    ("Treasure", "Food", "Clue", "Gold", "Powerstone"…) when the token is one, else None;
    pt: "1/1"; words: descriptor words; abilities: quoted abilities granted to the token
    (Ability bodies); tapped/attacking flags; copy: CopyEffect when it's a copy.
    subject: the player who creates the token when the text names one ("Its controller
    creates …", "target opponent creates …"; Obj), else None (the ability's controller).
    The player who creates a token is its owner and controller (CR 111.2).
    tapped / attacking: the token enters tapped ("a tapped Powerstone token") / tapped and
    attacking ("… token that's tapped and attacking", CR 508.4). optional: "you may create …"
    (CR 608.2d). attached_to: the object an Aura token enters attached to ("a Monster Role token
    attached to it", CR 303.4f), else None. attacking_whom: the player or planeswalker a token
    that's tapped and attacking attacks ("… attacking that opponent", CR 508.4), else None.
    those: "N of those tokens" (the token an earlier instruction described; its characteristics
    are that description's, not in this node). instead: "… instead" (the creation replaces an
    earlier instruction, CR 608.2c)."""
    count: Amount
    token_name: str | None = None
    pt: str | None = None
    words: list[str] = field(default_factory=list)
    abilities: list[Node] = field(default_factory=list)
    text: str = ""
    subject: Node | None = None
    tapped: bool = False
    attacking: bool = False
    optional: bool = False
    attached_to: Node | None = None
    attacking_whom: Node | None = None
    those: bool = False
    instead: bool = False


@dataclass
class GrantAbility(Node):
    """"[objects] have/gain '[ability]'" or "… gain [keyword]" (CR 113.1, 611).
    subject: Obj; abilities: Ability-body nodes (Activated/Triggered/Keyword…) — a granted
    mana ability makes the subject able to produce mana; duration: a :class:`Duration` (or
    an ``Action("duration:…")``) or None. verb: "gain" | "have" — the verb the line used
    ("gains haste", "has flying"; CR 611.2a: both grant the ability) when the rule read it, else None
    (the renderer then writes "gains" with a duration and "has" without)."""
    subject: Node
    abilities: list[Node]
    duration: Node | None = None
    text: str = ""
    verb: str | None = None


@dataclass
class Sentence(Node):
    """A sentence made of one or more effect nodes, with optional condition ("If …, …") and
    duration ("until end of turn"). joins: the wording between consecutive effects, one of
    CONJUNCTIONS ("and", ", then", "then", ", and", ", and then", ","), empty when unknown; a
    sentence that begins "Then …" has one join more, "then" first (the word joining it to the
    sentence before)."""
    effects: list[Node]
    condition: Node | None = None
    optional: bool = False
    joins: list[str] = field(default_factory=list)

    def __post_init__(self):
        # the grammar's clause_list hands over its joins with the effects (transform._Clauses)
        given = getattr(self.effects, "joins", None)
        if given is not None and not self.joins:
            n = len(self.effects) - (1 if self.effects and isinstance(self.effects[-1], WhereX) else 0)
            given = list(given)
            if n < len(self.effects) and len(given) == n and given[-1:] == [","]:
                given.pop()  # "…, where X is …" read as a clause after a comma: not a join of effects
            self.joins = given if len(given) == n - 1 else []
            self.effects = list(self.effects)


# --------------------------------------------------------------------------- ability bodies
@dataclass
class Activated(Node):
    """Activated ability (CR 602): cost, effect (list of Sentence/Unparsed), restrictions
    ("Activate only as a sorcery", Unparsed/Text)."""
    cost: Node
    effect: list[Node]
    restrictions: list[Node] = field(default_factory=list)


@dataclass
class Triggered(Node):
    """Triggered ability (CR 603): trigger word (when|whenever|at), event (node),
    intervening_if (CR 603.4) or None, effect (list of Sentence/Unparsed)."""
    word: str
    event: Node
    intervening_if: Node | None
    effect: list[Node]


@dataclass
class Static(Node):
    """Static ability or spell instructions: list of Sentence/Unparsed."""
    effect: list[Node]


@dataclass
class KeywordLine(Node):
    """A line of one or more keyword abilities."""
    keywords: list[Keyword]


@dataclass
class ChooseCount(Node):
    """How many modes a modal ability chooses (CR 700.2): ``low``..``high`` (``high`` None =
    any number). "one" = 1..1, "one or both" = 1..2, "one or more" = 1..None, "any number" =
    0..None, "up to two" = 0..2. ``same_mode``: "You may choose the same mode more than once"
    (CR 700.2d); ``chooser``: who chooses when not the controller — "opponent" for "An opponent
    chooses one" (CR 700.2e), else None."""
    low: int
    high: int | None
    same_mode: bool = False
    chooser: str | None = None
    #: "Choose one that hasn't been chosen [this turn] —": "game" / "turn", else None
    unchosen: str | None = None
    #: "Choose one. If [condition], [you may] choose both instead.": the count chosen instead
    #: (a ChooseCount), its condition (a condition Action, Unparsed when unread) and the "you may"
    upgrade: "ChooseCount | None" = None
    upgrade_condition: "Node | None" = None
    upgrade_optional: bool = False


@dataclass
class Modal(Node):
    """"Choose one —" (CR 700.2): choose (a ChooseCount, or Text for other wordings), the lead-in
    (trigger/cost when the modal is inside one), modes (each a list of Sentence/Unparsed)."""
    choose: Node
    modes: list[list[Node]]
    head: Node | None = None


@dataclass
class Chapter(Node):
    """Saga chapter ability (CR 714.2): chapters (ints) and effect."""
    chapters: list[int]
    effect: list[Node]


@dataclass
class LevelBlock(Node):
    """Leveler block (CR 711): level range low..high (high None = "N+"), pt "3/3",
    abilities (Ability list, nested)."""
    low: int
    high: int | None
    pt: str | None
    abilities: list[Node] = field(default_factory=list)


@dataclass
class StationLevel(Node):
    """A station symbol's striation, "7+ | Flying" (CR 721.2: a static ability that gives the
    permanent the abilities of its striation while it has ``threshold`` or more charge counters,
    CR 721.2a): ``threshold`` the symbol's number, ``body`` the ability printed beside it (a
    KeywordLine, Activated, Triggered or Static body, parsed as any ability line)."""
    threshold: int
    body: Node


@dataclass
class Sticker(Node):
    """One sticker of an Unfinity sticker sheet, "{TK}{TK} — Deathtouch" / "{TK}{TK} — 5/1"
    (CR 123.1: ability and power/toughness stickers; CR 123.3c, 107.17a: its ticket cost):
    ``tickets`` the number of {TK} symbols, ``pt`` the P/T of a power and toughness sticker
    (else None), ``body`` the ability of an ability sticker (else None)."""
    tickets: int
    pt: str | None = None
    body: Node | None = None


@dataclass
class SpreeMode(Node):
    """One mode of a spree spell, "+ {1} — Counter target spell." (CR 702.172a: choosing the mode
    adds its cost to the spell's total cost; the "+" marks the mode, CR 702.172b): ``cost`` the
    mode's additional cost (a Cost of mana symbols), ``effect`` its sentences (Sentence/Unparsed)."""
    cost: Node
    effect: list[Node] = field(default_factory=list)


@dataclass
class ClassLevel(Node):
    """Class level-up line "{2}{G}: Level 2" (CR 716.2): cost and level."""
    cost: Node
    level: int


@dataclass
class Piece(Node):
    """A span of the normalised ability line: [start, end) offsets, role
    (ability_word|body|reminder|sep|bullet…), text == normalised[start:end]."""
    start: int
    end: int
    role: str
    text: str


@dataclass
class Ability(Node):
    """One ability line (paragraph) of a card face, the unit ``parse_face`` returns.

    index: 0-based position in the face. text: the original line (reminder text included).
    kind: one of ABILITY_KINDS. normalized: the line after normalisation (docs/ast.md).
    ability_word: the ability word before an em dash (CR 207.2c) or None.
    reminders: reminder texts (without parentheses), in order.
    body: Activated/Triggered/Static/KeywordLine/Modal/Chapter/LevelBlock/ClassLevel/
    Unparsed. pieces: Piece list tiling ``normalized`` exactly (rebuild = "".join(texts)).
    fully_parsed: the round trip holds — no Unparsed node in ``body`` and rendering the AST
    from its structured fields (pipeline.parse.render) gives back ``normalized`` without its
    reminder text (docs/ast.md § Rendering). no_unparsed: no Unparsed node in ``body`` (the
    weaker, older meaning of "fully parsed"). rendered: the canonical text the renderer wrote,
    None when a node has no renderer. render_mismatch: None on a round trip, else
    ``{"shape", "at"?, "rendered"?, "expected"?}`` (the node without a renderer, or the first
    differing words). is_mana_ability: CR 605.1a/605.1b.
    """
    index: int
    text: str
    kind: str
    normalized: str
    body: Node
    ability_word: str | None = None
    reminders: list[str] = field(default_factory=list)
    pieces: list[Piece] = field(default_factory=list)
    fully_parsed: bool = False
    is_mana_ability: bool = False
    grammar_version: str = ""
    no_unparsed: bool = False
    rendered: str | None = None
    render_mismatch: dict | None = None
