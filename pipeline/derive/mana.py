"""Produced mana of abilities and card faces, from ability ASTs (CR 106, 106.7, 305.6, 605).

Everything here is a pure function of the JSON (dict) form of the AST that
``pipeline.parse`` produces (``Ability.to_json()``, stored in ``abilities.ast``; shapes in
docs/ast.md), plus the face's type line where a rule needs it. So the same code serves a
built database (:func:`pipeline.derive.derive`) and fresh parses (``parse --jsonl``).

Mana *types* are the letters W, U, B, R, G (the five colors, CR 106.1a) and C (colorless,
CR 106.1b), always listed in WUBRGC order.

Where mana comes from (see docs/mana.md § Produced mana):

* **own**: an ``AddMana`` node in the body of one of the face's abilities (mana abilities,
  spells, loyalty and other non-mana abilities alike, CR 106.3), outside any ``CreateToken``
  and ``GrantAbility``; plus the intrinsic "{T}: Add [symbol]" of each basic land type of a
  land face (CR 305.6); plus an ability the face grants to a group it belongs to itself
  (``"Creatures you control have '{T}: Add {G}.'"`` on a creature). Reminder text is never
  read (CR 207.2a): only ``Ability.body`` is walked, and ``kind == "reminder"`` lines are skipped.
* **token**: mana abilities of tokens the face creates: predefined tokens by name
  (Treasure, Gold, Powerstone: CR 111.10a/c/h) and abilities written on the token.
* **granted**: mana abilities the face grants to other objects (``GrantAbility``).

Breadth (CR 106.7): "any color" → WUBRG; "any type" → WUBRGC; "could produce", "among",
commander's color identity → the widest set the wording allows, flagged ``dependent``.
A type that can't be defined produces no mana (CR 106.5) — that only narrows what happens
in a game, never the set of types a card *could* produce, so it does not narrow these sets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from pipeline.derive.effects import (
    condition_text,
    face_effects,
    for_each_color_among,
    group_scope,
    level_condition,
    line_conditions,
    sentence_contexts,
)

COLOR_ORDER = "WUBRGC"
COLORS = ("W", "U", "B", "R", "G")          # CR 106.1a
MANA_TYPES = COLORS + ("C",)                # CR 106.1b

#: CR 305.6: a land with a basic land type has "{T}: Add [symbol]".
BASIC_LAND_TYPES = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}

#: Predefined tokens (CR 111.10) whose own abilities add mana, with the types they add.
#: Treasure "{T}, Sacrifice this token: Add one mana of any color." (111.10a);
#: Gold "Sacrifice this token: Add one mana of any color." (111.10c);
#: Powerstone "{T}: Add {C}. This mana can't be spent to cast a nonartifact spell." (111.10h).
PREDEFINED_TOKEN_MANA = {"treasure": COLORS, "gold": COLORS, "powerstone": ("C",)}

#: Production kinds whose types depend on objects other than the card itself (CR 106.7,
#: CR 903.4f): the set given is the widest the wording allows and the card is flagged.
DEPENDENT_KINDS = frozenset({"could_produce", "dependent", "commander_identity"})

#: Words in an object description that exclude the object the ability is on.
_EXCLUDES_SELF = frozenset({"other", "another", "enchanted", "equipped", "fortified", "target",
                            "opponent", "opponents", "opponent's", "attached"})
_TARGET_WORD = re.compile(r"\btarget\b", re.I)   # "target", not "choose new targets" (a copy's)
_PERMANENT_TYPES = frozenset({"artifact", "creature", "enchantment", "land", "planeswalker", "battle"})


def sort_types(types: Iterable[str]) -> list[str]:
    """Return the distinct mana-type letters of ``types`` in WUBRGC order.

    Raises ValueError naming the letter for anything outside W U B R G C."""
    s = set(types)
    bad = s - set(MANA_TYPES)
    if bad:
        raise ValueError(f"not a mana type letter: {sorted(bad)}")
    return [c for c in COLOR_ORDER if c in s]


# --------------------------------------------------------------------------- symbols
def symbol_types(sym: dict) -> set[str]:
    """Mana types one ``ManaSymbol`` dict adds when an effect adds it.

    colored/phyrexian → its color (CR 106.9); colorless {C}, generic {N}, snow {S} → C
    (CR 106.10, 106.11); hybrid → either color, two-brid/{2/W} → the color or C (CR 106.8).
    Symbols that are no mana ({T}, {Q}, {E}, X) add nothing here."""
    kind = sym.get("kind")
    colors = [c for c in (sym.get("colors") or []) if c in COLORS]
    if kind in ("colored", "phyrexian", "hybrid", "hybrid_phyrexian", "half"):
        return set(colors) if colors else set()
    if kind == "twobrid":
        return set(colors) | {"C"}
    if kind in ("colorless", "generic", "snow"):
        return {"C"}
    return set()


def _symbols_types(symbols: Iterable[dict]) -> set[str]:
    out: set[str] = set()
    for s in symbols or ():
        if isinstance(s, dict):
            out |= symbol_types(s)
    return out


# --------------------------------------------------------------------------- one AddMana
def _says_type(add: dict) -> bool:
    """True when the AddMana wording is about mana *types* (colorless included, CR 106.1b),
    not colors: the AST's ``of_type`` flag, else the word "type" in its kept wording."""
    v = add.get("of_type")
    if isinstance(v, bool) and v:
        return True
    words = (add.get("text") or "").lower().replace(",", " ").split()
    return "type" in words


def add_mana_types(add: dict) -> tuple[set[str], bool]:
    """Mana types one ``AddMana`` dict could add, and whether that set is dependent.

    Returns ``(types, dependent)``; ``types`` is a set of W U B R G C letters (CR 106.7
    widest reading), ``dependent`` True for could_produce / dependent / commander_identity.
    Raises ValueError for a production value outside ``PRODUCTION_KINDS``."""
    prod = add.get("production")
    syms = _symbols_types(add.get("symbols") or [])
    opts: set[str] = set()
    for option in add.get("options") or []:
        opts |= _symbols_types(option)
    if prod == "fixed":
        return syms, False
    if prod == "one_of":
        return opts | syms, False
    if prod == "any_color":
        return set(COLORS), False
    if prod == "any_type":
        return set(MANA_TYPES), False
    if prod == "combination":
        # "in any combination of colors" → WUBRG; "of {R} and/or {G}" → those symbols.
        return (opts | syms) if (opts or syms) else set(COLORS), False
    if prod == "chosen_color":
        return set(COLORS), False           # any color may be chosen
    if prod == "commander_identity":
        # CR 903.4: identities are colors; undefined without a commander (903.4f).
        return set(COLORS), True
    if prod in ("could_produce", "dependent"):
        # CR 106.7: widest set the wording allows ("type" admits colorless).
        return (set(MANA_TYPES) if _says_type(add) else set(COLORS)), True
    if prod == "other":
        return opts | syms, False
    raise ValueError(f"AddMana.production {prod!r} is not a production kind (text {add.get('text')!r})")


def amount_text(add: dict) -> str:
    """How much mana one ``AddMana`` adds, as text: a number ("2"), "X", or the wording
    of an expression ("equal to …", "for each …"). Alternatives of different sizes are
    joined with " or " ("1 or 2")."""
    amt = add.get("amount") or None
    prod = add.get("production")
    per_unit: list[int]
    if prod == "fixed" and add.get("symbols"):
        per_unit = [len(add["symbols"])]
    elif prod in ("one_of", "combination", "other") and add.get("options") and not add.get("symbols"):
        per_unit = sorted({len(o) for o in add["options"] if o}) if prod == "one_of" else [1]
    elif add.get("symbols"):
        per_unit = [len(add["symbols"])]
    else:
        per_unit = [1]
    if amt is None or amt.get("kind") == "fixed":
        n = 1 if amt is None or amt.get("value") is None else int(amt["value"])
        return " or ".join(str(n * u) for u in per_unit)
    if amt.get("kind") == "x":
        return amt.get("variable") or "X"
    text = " ".join((amt.get("text") or "").split())
    lead = {"equal_to": "equal to", "for_each": "for each"}.get(amt.get("kind"))
    if lead and text and not text.lower().startswith(lead):
        text = f"{lead} {text}"
    return text or str(amt.get("kind"))


# --------------------------------------------------------------------------- AST walking
def _nodes(value: Any) -> Iterator[dict]:
    """Yield every node dict in ``value`` (pre-order)."""
    if isinstance(value, dict):
        if "node" in value:
            yield value
        for v in value.values():
            yield from _nodes(v)
    elif isinstance(value, list):
        for v in value:
            yield from _nodes(v)


def _classified(value: Any, where: str = "own", grant: dict | None = None) -> Iterator[tuple[str, dict, dict | None]]:
    """Yield ``(where, node, grant)`` for every node: ``where`` is "own", "token" (inside a
    CreateToken) or "granted" (inside a GrantAbility, ``grant`` being that node)."""
    if isinstance(value, list):
        for v in value:
            yield from _classified(v, where, grant)
        return
    if not isinstance(value, dict):
        return
    if "node" in value:
        yield where, value, grant
        kind = value["node"]
        if kind == "CreateToken":
            where = "token"
        elif kind == "GrantAbility" and where == "own":
            where, grant = "granted", value
    for k, v in value.items():
        if k != "node":
            yield from _classified(v, where, grant)


def _is_pronoun_subject(subject: dict | None) -> bool:
    """True for "it"/"they"/"those tokens" — the tokens just created in the same ability."""
    if not isinstance(subject, dict):
        return False
    q = (subject.get("quantifier") or "").lower()
    text = (subject.get("text") or "").lower().strip()
    if subject.get("node") == "Obj" and not text and not subject.get("words") and not q:
        # The parser leaves the subject of "It has '…'" / "They have '…'" empty; in an ability
        # that creates a token such a grant is read as being about that token (reported gap).
        return True
    return q in ("it", "they", "those", "that", "them") or text in ("it", "they", "them", "those tokens", "that token", "the tokens", "the token")


def subject_includes_self(subject: dict | None, type_line: str | None) -> tuple[bool, bool]:
    """For a ``GrantAbility.subject``: ``(includes_self, includes_others)``.

    SelfRef / "~" → (True, False). An object description ("creatures you control", "each
    land") includes the face itself when it names one of the face's card types or subtypes
    (or "permanent" for a permanent) and carries no word that excludes it ("other",
    "enchanted", "target", "opponents" …). Anything else → (False, True)."""
    if not isinstance(subject, dict):
        return False, True
    if subject.get("node") == "SelfRef":
        return True, False
    text = (subject.get("text") or "").strip().lower()
    if subject.get("quantifier") == "self" or text == "~":
        return True, False
    words = [w.lower() for w in (subject.get("words") or [])] or text.replace(",", " ").split()
    quantifier = (subject.get("quantifier") or "").lower()
    if not type_line or any(w in _EXCLUDES_SELF for w in words) or quantifier in _EXCLUDES_SELF:
        # "Enchanted permanent is a colorless Forest land" (Song of the Dryads): never the Aura itself
        return False, True
    face_words = _type_words(type_line)
    is_permanent = bool(face_words & _PERMANENT_TYPES)
    for w in words:
        for form in _singulars(w):
            if form in face_words or (form == "permanent" and is_permanent):
                return True, True
    return False, True


def _singulars(word: str) -> set[str]:
    w = word.strip(".,'\"")
    out = {w}
    if w.endswith("ves"):
        out |= {w[:-3] + "f", w[:-3] + "fe"}        # elves → elf
    if w.endswith("ies"):
        out.add(w[:-3] + "y")
    if w.endswith("es"):
        out.add(w[:-2])
    if w.endswith("s"):
        out.add(w[:-1])
    return out


def _type_words(type_line: str) -> set[str]:
    return {w.lower() for w in type_line.replace("—", " ").replace("-", " ").split()}


def _land_basic_types(type_line: str | None) -> list[str]:
    """Basic land types of a land face (CR 305.6), in the order written."""
    if not type_line:
        return []
    head, _, subs = type_line.partition("—")
    if "Land" not in head.split():
        return []
    return [t for t in subs.split() if t in BASIC_LAND_TYPES]


# --------------------------------------------------------------------------- one ability
@dataclass
class Production:
    """One ``AddMana`` of an ability: types (WUBRGC order), production kind (ast
    PRODUCTION_KINDS), amount text, dependent flag (CR 106.7), restriction texts (CR 106.6)."""
    produces: list[str]
    production_kind: str
    amount: str
    dependent: bool
    restrictions: list[str]
    text: str = ""
    recipient: str = "you"


#: Recipient kinds (who gets a token or mana) and whether the card's controller can be that player.
RECIPIENT_KINDS = {"you": True, "each_player": True, "chosen_player": True, "other_controller": True,
                   "opponent": False}


def recipient_kind(player: str | None) -> str:
    """Who gets the mana or token, from the wording of the player (``AddMana.player``, the
    ``CreateToken.subject`` text; None = the ability's controller, CR 106.3, 111.2):

    "you" (none, "you"); "opponent" ("target opponent", "each opponent", "an opponent", "that
    opponent" — never you); "each_player" ("each player", "all players"); "other_controller"
    ("its controller", "that creature's controller", "their controller" — the controller of
    another object, possibly you); "chosen_player" ("target player", "that player", "a player of
    your choice" …). :data:`RECIPIENT_KINDS` says which can be the card's controller."""
    text = " ".join((player or "").lower().split())
    if not text or text in ("you", "~"):
        return "you"
    if "opponent" in text:
        return "opponent"
    if text in ("each player", "all players", "each player who", "every player"):
        return "each_player"
    if "controller" in text:
        return "other_controller"
    return "chosen_player"


@dataclass
class TokenRecord:
    """One "create … token(s)" of an ability (CR 111): token (predefined name or the wording),
    count (amount text), recipient (the player as worded, "you" when none, CR 111.2),
    recipient_kind (:func:`recipient_kind`), produces (WUBRGC letters its own abilities add:
    predefined Treasure/Gold/Powerstone CR 111.10a/c/h, abilities written on it)."""
    token: str
    count: str
    recipient: str
    recipient_kind: str
    produces: list[str] = field(default_factory=list)

    @property
    def may_be_yours(self) -> bool:
        """The card's controller can be the player who gets the token (:data:`RECIPIENT_KINDS`)."""
        return RECIPIENT_KINDS[self.recipient_kind]


def _token_record(node: dict) -> TokenRecord:
    subj = node.get("subject")
    player = (subj.get("text") or "").strip() if isinstance(subj, dict) else None
    name = node.get("token_name")
    return TokenRecord(token=name or (node.get("text") or ""), count=amount_text({"amount": node.get("count")}),
                       recipient=player or "you", recipient_kind=recipient_kind(player),
                       produces=sort_types(PREDEFINED_TOKEN_MANA.get((name or "").lower(), ())))


#: Ability kind of a granted ability body, from its node class.
_BODY_KIND = {"Activated": "activated", "Triggered": "triggered", "Static": "static",
              "KeywordLine": "keyword", "Modal": "modal"}


@dataclass
class AbilityMana:
    """What one ability (``Ability.to_json()`` dict, or a granted ability body) contributes.

    own: productions of the ability itself (its own "Add …", CR 106.3).
    self_granted: abilities it grants to a group that includes the face itself, each
    analysed as an ability of the face (e.g. Citanul Hierophants, "Creatures you control
    have '{T}: Add {G}.'"). token: types of mana the tokens it creates can make. granted:
    types of mana abilities it grants to other objects. has_target: the ability (outside
    granted/token abilities) requires a target (CR 115.6). is_mana_ability: our CR
    605.1a/b verdict; ast_is_mana_ability: the grammar's flag, for comparison. no_unparsed:
    the ability's AST has no Unparsed node (``Ability.no_unparsed``; derive reads structure,
    not the round trip that ``fully_parsed`` means)."""
    kind: str
    own: list[Production] = field(default_factory=list)
    self_granted: list["AbilityMana"] = field(default_factory=list)
    tokens: list[TokenRecord] = field(default_factory=list)
    granted: set[str] = field(default_factory=set)
    condition: str | None = None
    has_tap_cost: bool = False
    has_untap_cost: bool = False
    is_triggered: bool = False
    is_loyalty: bool = False
    has_target: bool = False
    mana_trigger: bool = False
    is_mana_ability: bool = False
    ast_is_mana_ability: bool | None = None
    no_unparsed: bool = True
    text: str = ""

    def add_token_mana(self, produces: list[str]) -> None:
        """Add mana types an ability of the last created token adds (a token's own abilities follow
        its "create" in the AST)."""
        if self.tokens:
            self.tokens[-1].produces = sort_types(self.tokens[-1].produces + produces)

    @property
    def token(self) -> set[str]:
        """Mana types of the tokens it creates that the card's controller can get (a token only
        an opponent gets is not this card's controller's mana: :class:`TokenRecord`)."""
        return {t for r in self.tokens if r.may_be_yours for t in r.produces}

    @property
    def produces(self) -> list[str]:
        """Types of the ability's own productions, WUBRGC order."""
        return sort_types(t for p in self.own for t in p.produces)

    @property
    def all_produces(self) -> list[str]:
        """Own and self-granted types together (what the face gets from this line)."""
        return sort_types(self.produces + [t for g in self.self_granted for t in g.all_produces])

    @property
    def dependent(self) -> bool:
        """True when one of its own productions depends on other objects (CR 106.7)."""
        return any(p.dependent for p in self.own)

    @property
    def all_dependent(self) -> bool:
        return self.dependent or any(g.all_dependent for g in self.self_granted)

    @property
    def adds_mana(self) -> bool:
        """The ability itself has an "Add …" (outside tokens and granted abilities)."""
        return bool(self.own)

    def summary(self) -> dict:
        """The ``mana_abilities`` row fields (without ids): produces, amount,
        production_kind, production_kinds, has_tap_cost, has_untap_cost, is_triggered,
        is_mana_ability, dependent, restrictions. Amounts of several "Add"s are joined with
        " or "; production_kind is the kind shared by all, else the one with most types."""
        prods = self.own
        kinds = list(dict.fromkeys(p.production_kind for p in prods))
        widest = max(prods, key=lambda p: len(p.produces)) if prods else None
        amounts = list(dict.fromkeys(p.amount for p in prods))
        return {
            "produces": self.produces,
            "amount": " or ".join(amounts) if amounts else None,
            "production_kind": (kinds[0] if len(kinds) == 1 else widest.production_kind) if prods else None,
            "production_kinds": kinds,
            "has_tap_cost": self.has_tap_cost,
            "has_untap_cost": self.has_untap_cost,
            "is_triggered": self.is_triggered,
            "is_mana_ability": self.is_mana_ability,
            "dependent": self.dependent,
            "restrictions": list(dict.fromkeys(r for p in prods for r in p.restrictions)),
            "recipients": list(dict.fromkeys(p.recipient for p in prods)),
        }


def production_of(add: dict) -> Production:
    """The :class:`Production` of one ``AddMana`` dict (see :func:`add_mana_types`)."""
    types, dependent = add_mana_types(add)
    return Production(
        produces=sort_types(types),
        production_kind=add.get("production") or "other",
        amount=amount_text(add),
        dependent=dependent,
        restrictions=[r.get("text") or r.get("kind") or "" for r in (add.get("restrictions") or [])
                      if isinstance(r, dict)],
        text=add.get("text") or "",
        recipient=" ".join((add.get("player") or "you").split()),
    )


def _event_is_mana(event: Any) -> bool:
    """CR 605.1b / 106.12a: does a trigger event fire from a mana ability / mana being added?
    Reads the event node's verb ("event:tapped_for_mana") and its kept wording: "… tapped for
    mana", "… taps … for mana", "… mana ability", "… causes you to add … mana"."""
    parts = []
    for n in _nodes(event):
        for key in ("verb", "text"):
            if isinstance(n.get(key), str):
                parts.append(n[key].lower())
    joined = " ".join(parts)
    words = set(joined.replace(",", " ").split())
    adds_mana = bool(words & {"add", "adds"}) and "mana" in words   # "causes you to add … mana"
    return "for_mana" in joined or "for mana" in joined or "mana ability" in joined or adds_mana


def analyze_ability(ability: dict, type_line: str | None = None) -> AbilityMana:
    """What one ability line contributes to produced mana (CR 106.3, 106.7, 605).

    ``ability``: an ``Ability.to_json()`` dict (``{"node": "Ability", "kind", "body", …}``).
    ``type_line``: the face's type line (used to see whether a granted ability reaches the
    face itself). Reminder lines (kind "reminder") and reminder text give nothing (CR 207.2a).
    Raises ValueError (naming the text) for an AddMana with an unknown production kind."""
    kind = ability.get("kind") or ""
    if kind == "reminder":
        return AbilityMana(kind=kind, ast_is_mana_ability=bool(ability.get("is_mana_ability")))
    try:
        out = analyze_body(ability.get("body"), kind, type_line)
    except ValueError as exc:
        raise ValueError(f"ability {ability.get('text')!r}: {exc}") from None
    out.ast_is_mana_ability = bool(ability.get("is_mana_ability"))
    # "no Unparsed node" (Ability.no_unparsed), not the round trip: derive reads structure only
    out.no_unparsed = bool(ability.get("no_unparsed", ability.get("fully_parsed", True)))
    out.text = ability.get("text") or ""
    if not out.has_target and says_target(ability):
        out.has_target = True
        if out.is_mana_ability:
            out.is_mana_ability = False     # CR 605.5a
    return out


_QUOTED = re.compile(r'"[^"]*"')


def says_target(ability: dict) -> bool:
    """CR 115.1c/d: an ability is targeted if its own text uses the phrase "target [something]".

    Reads the ability's body pieces (reminder text excluded, CR 207.2a) without quoted abilities
    it grants or gives tokens; "targets" (as in a copy's "choose new targets", CR 707.10c) is
    not the phrase. Used besides the AST's Obj nodes, which can miss a target (e.g. the empty
    subject of "Target creature gains trample")."""
    pieces = [p.get("text") or "" for p in ability.get("pieces") or [] if p.get("role") == "body"]
    text = " ".join(pieces) if pieces else (ability.get("normalized") or ability.get("text") or "")
    return bool(_TARGET_WORD.search(_QUOTED.sub("", text)))


def analyze_body(body: Any, kind: str, type_line: str | None = None) -> AbilityMana:
    """:func:`analyze_ability` for an ability body node dict (Activated, Triggered, Static,
    Modal …) of the given ability ``kind`` (ABILITY_KINDS; "" to take it from the node)."""
    body_kind = body.get("node") if isinstance(body, dict) else None
    kind = kind or _BODY_KIND.get(body_kind or "", "")
    out = AbilityMana(kind=kind)
    out.is_triggered = kind == "triggered" or body_kind == "Triggered"
    out.is_loyalty = kind == "loyalty"
    if body_kind == "Activated":
        for n in _nodes(body.get("cost")):
            if n["node"] == "TapCost":
                out.has_tap_cost = True
            elif n["node"] == "UntapCost":
                out.has_untap_cost = True
            elif n["node"] == "LoyaltyCost":
                out.is_loyalty = True
    if out.is_triggered and isinstance(body, dict):
        out.mana_trigger = _event_is_mana(body.get("event"))
    token_ability = any(n["node"] == "CreateToken" for n in _nodes(body))
    conds = {id(n): c for n, c in sentence_contexts(body)}   # node → its Sentence's condition
    seen_grants: set[int] = set()
    for where, node, grant in _classified(body):
        nk = node["node"]
        if where == "own" and nk == "Obj":
            q = (node.get("quantifier") or "").lower()
            if q in ("target", "up_to_target") or "target" in [w.lower() for w in node.get("words") or []]:
                out.has_target = True
        if where == "own" and nk == "Unparsed" and _TARGET_WORD.search(node.get("text") or ""):
            # Text the grammar left unread that names a target: CR 605.5a, not a mana ability.
            out.has_target = True
        if nk == "CreateToken" and where in ("own", "granted"):
            out.tokens.append(_token_record(node))
        if nk == "GrantAbility" and where == "own" and id(node) not in seen_grants:
            seen_grants.add(id(node))
            # Zones (CR 109.2, 113.6b) and "it" in a static ability (the card itself) decide.
            has_self, _, _ = group_scope(node.get("subject"), type_line, body, conds.get(id(node)))
            if has_self and not (token_ability and _is_pronoun_subject(node.get("subject"))):
                for sub in node.get("abilities") or []:
                    if isinstance(sub, dict):
                        am = analyze_body(sub.get("body", sub) if sub.get("node") == "Ability" else sub,
                                          sub.get("kind", "") if sub.get("node") == "Ability" else "",
                                          type_line)
                        am.condition = condition_text(conds.get(id(node)))
                        if am.own or am.self_granted:
                            out.self_granted.append(am)
        if nk != "AddMana":
            continue
        prod = production_of(node)
        if for_each_color_among(conds.get(id(node))):
            # "For each color among permanents you control, add one mana of that color" (Bloom
            # Tender): the types depend on other objects (CR 106.7).
            prod.production_kind, prod.dependent, prod.produces = "dependent", True, list(COLORS)
        if where == "own":
            out.own.append(prod)
        elif where == "token":
            out.add_token_mana(prod.produces)
        else:  # granted
            subject = grant.get("subject") if grant else None
            if token_ability and _is_pronoun_subject(subject):
                out.add_token_mana(prod.produces)   # "It has '…'" right after creating the token
                continue
            _, has_others, _ = group_scope(subject, type_line, body, conds.get(id(grant)))
            if has_others:
                out.granted |= set(prod.produces)
    # CR 605.1a: activated, no target, could add mana, not loyalty.
    # CR 605.1b: triggered, no target, triggers from a mana ability / mana added, could add mana.
    could_add = bool(out.own)
    if body_kind == "Activated" or kind == "activated":
        out.is_mana_ability = could_add and not out.has_target and not out.is_loyalty
    elif out.is_triggered:
        out.is_mana_ability = could_add and not out.has_target and out.mana_trigger
    return out


# --------------------------------------------------------------------------- faces, cards
@dataclass
class FaceMana:
    """Produced mana of a face or a whole card (union of faces).

    produced: WUBRGC letters the card could produce through its own abilities (incl. basic
    land types, CR 305.6, and land types its own effects give it, CR 305.7). dependent: some of
    it depends on other objects (CR 106.7). token / granted: types made only through created
    tokens the card's controller can get / abilities and land types given to other objects.
    abilities: (ability index, AbilityMana) for every ability that adds or grants mana.
    basic_types: intrinsic basic-land-type letters (CR 305.6). effects: the face's
    :class:`pipeline.derive.effects.CharacteristicEffect` list. tokens: (ability index,
    :class:`TokenRecord`) for every token the face's abilities create."""
    produced: list[str] = field(default_factory=list)
    dependent: bool = False
    token: list[str] = field(default_factory=list)
    granted: list[str] = field(default_factory=list)
    basic_types: list[str] = field(default_factory=list)
    abilities: list[tuple[int, AbilityMana]] = field(default_factory=list)
    effects: list = field(default_factory=list)
    tokens: list[tuple[int, TokenRecord]] = field(default_factory=list)

    def merge(self, other: "FaceMana") -> "FaceMana":
        """Union of two results (faces of one card)."""
        return FaceMana(
            produced=sort_types(self.produced + other.produced),
            dependent=self.dependent or other.dependent,
            token=sort_types(self.token + other.token),
            granted=sort_types(self.granted + other.granted),
            basic_types=sort_types(self.basic_types + other.basic_types),
            abilities=self.abilities + other.abilities,
            effects=self.effects + other.effects,
            tokens=self.tokens + other.tokens,
        )


def _lines(ability_jsons: list[dict]) -> Iterator[tuple[int, dict, str | None]]:
    """``(line index, ability dict, condition)`` for every ability of a face: a leveler block's
    abilities one by one under "level N1-N2" (CR 711.2a/b), lines after a class level bar under
    "class level N or greater" (CR 716.2a)."""
    for i, (ab, cond) in enumerate(zip(ability_jsons, line_conditions(ability_jsons))):
        index = ab.get("index", i)
        body = ab.get("body")
        if isinstance(body, dict) and body.get("node") == "LevelBlock":
            for sub in body.get("abilities") or []:
                if isinstance(sub, dict):
                    yield index, sub, level_condition(body)
            continue
        yield index, ab, cond


def face_mana(ability_jsons: Iterable[dict], type_line: str | None) -> FaceMana:
    """Produced mana of one card face from its abilities' AST dicts (in face order) and type line.

    See the module docstring for own / token / granted; CR 305.6 intrinsic abilities
    come from the type line alone; land types the face's effects give to a group (CR 305.7,
    :mod:`pipeline.derive.effects`) add the types' mana to produced (the face is in the group)
    and to granted (other objects are)."""
    ability_jsons = list(ability_jsons)
    produced: set[str] = set()
    token: set[str] = set()
    granted: set[str] = set()
    dependent = False
    analysed = []
    tokens = []
    for index, ab, cond in _lines(ability_jsons):
        am = analyze_ability(ab, type_line)
        if cond:
            am.condition = cond
            for g in am.self_granted:
                g.condition = "; ".join(c for c in (cond, g.condition) if c)
        if am.adds_mana or am.self_granted or am.token or am.granted:
            analysed.append((index, am))
        tokens += [(index, t) for t in am.tokens]
        produced |= set(am.all_produces)
        dependent |= am.all_dependent
        token |= am.token
        granted |= am.granted
    effects = face_effects(ability_jsons, type_line)
    for e in effects:
        if e.effect in ("land_types_set", "land_types_added") and e.grants_mana:
            if e.includes_self:
                produced |= set(e.grants_mana)
            if e.includes_others:
                granted |= set(e.grants_mana)
    basics = [BASIC_LAND_TYPES[t] for t in _land_basic_types(type_line)]
    produced |= set(basics)
    return FaceMana(sort_types(produced), dependent, sort_types(token), sort_types(granted),
                    sort_types(basics), analysed, effects, tokens)


def produced_mana_for_face(ability_jsons: Iterable[dict], type_line: str | None) -> list[str]:
    """``cards.produced_mana`` of one face: WUBRGC letters (see :func:`face_mana`)."""
    return face_mana(ability_jsons, type_line).produced


def card_mana(faces: Iterable[tuple[Iterable[dict], str | None]]) -> FaceMana:
    """Produced mana of a card: the union over its faces, given as
    ``(ability AST dicts, type line)`` pairs in face order."""
    out = FaceMana()
    for abilities, type_line in faces:
        out = out.merge(face_mana(abilities, type_line))
    return out


def mana_ability_rows(fm: FaceMana) -> list[dict]:
    """The ``mana_abilities`` rows of one face (without ids), in face order.

    One row per ability line that adds mana itself (origin "text"), one per ability it
    grants to a group including the face (origin "granted_to_self", flags of the granted
    ability), and one per basic land type of a land face (origin "basic_land_type", CR 305.6).
    Land types the face's own effects give it (Urborg, Tomb of Yawgmoth "Each land is a Swamp …")
    are rows of origin "land_type_effect" (CR 305.7, 305.6). Keys: ability_index (None for
    basic land types), origin, text, produces, amount, production_kind, production_kinds,
    has_tap_cost, has_untap_cost, is_triggered, is_mana_ability, ast_is_mana_ability,
    is_dependent, restrictions, recipients (who adds the mana: "you" or the player as worded,
    CR 106.3), condition (the condition the ability holds under, else None), rule (the CR rule
    of an intrinsic or effect-given ability, else None)."""
    rows = []
    for index, am in fm.abilities:
        parts = ([("text", am)] if am.adds_mana else []) + [("granted_to_self", g) for g in am.self_granted]
        for origin, part in parts:
            s = part.summary()
            rows.append({"ability_index": index, "origin": origin, "text": am.text,
                         "produces": s["produces"], "amount": s["amount"],
                         "production_kind": s["production_kind"], "production_kinds": s["production_kinds"],
                         "has_tap_cost": s["has_tap_cost"], "has_untap_cost": s["has_untap_cost"],
                         "is_triggered": s["is_triggered"], "is_mana_ability": s["is_mana_ability"],
                         "ast_is_mana_ability": am.ast_is_mana_ability if origin == "text" else None,
                         "is_dependent": s["dependent"], "restrictions": s["restrictions"],
                         "recipients": s["recipients"], "condition": part.condition, "rule": None})
    names = {v: k for k, v in BASIC_LAND_TYPES.items()}
    intrinsic = {"produces": None, "amount": "1", "production_kind": "fixed", "production_kinds": ["fixed"],
                 "has_tap_cost": True, "has_untap_cost": False, "is_triggered": False, "is_mana_ability": True,
                 "ast_is_mana_ability": None, "is_dependent": False, "restrictions": [], "recipients": ["you"]}
    for e in fm.effects:
        # CR 305.7: a land whose land types an effect sets or adds gains each type's mana ability.
        if e.effect in ("land_types_set", "land_types_added") and e.grants_mana and e.includes_self:
            for letter in e.grants_mana:
                rows.append({**intrinsic, "ability_index": e.ability_index, "origin": "land_type_effect",
                             "text": e.text, "produces": [letter], "condition": e.condition,
                             "rule": f"{e.rule}, 305.6 ({names[letter]})"})
    for letter in fm.basic_types:
        rows.append({**intrinsic, "ability_index": None, "origin": "basic_land_type",
                     "text": f"{{T}}: Add {{{letter}}}. ({names[letter]}, CR 305.6)",
                     "produces": [letter], "condition": None, "rule": "CR 305.6"})
    return rows
