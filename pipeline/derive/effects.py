"""Effects a card has on objects' characteristics, as data (CR 613.1d layer 4, 613.1f layer 6).

Pure functions of ability AST dicts (``Ability.to_json()``, docs/ast.md) and the face's type
line, like :mod:`pipeline.derive.mana`, which uses them for produced mana:

* **land types set or added** (CR 305.7): "Nonbasic lands are Mountains" sets the land types —
  the land loses its other land types and the abilities of its rules text and gains the basic
  land type's "{T}: Add [symbol]" (CR 305.6); "Each land is a Swamp in addition to its other land
  types" adds them (CR 305.7 last sentence, 205.1b). Either way the affected lands can produce
  that type's mana.
* **types added** ("~ is also a Cleric, Rogue, Warrior, and Wizard", "… are 1/1 green Saproling
  creatures and Forest lands in addition to their other types", CR 205.1b) or set.
* **abilities granted** to a group or to the card itself ("lands you control have '…'", "As long
  as ~ is renowned, it has '…'", CR 613.1f).

For each effect: which objects it affects (the wording), whether that group can include the
card itself and other objects, the zone the effect works from (an ability works on the
battlefield unless it says otherwise, CR 113.6, 113.6b) — a group described by a card type
means permanents on the battlefield (CR 109.2), so an effect that works only while the card is
in the graveyard never reaches the card itself (Riftstone Portal) — and the condition it holds
under ("as long as …", a leveler's level range CR 711.2a/b, a Class level CR 716.2a).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterator

#: CR 305.6: basic land type → the mana symbol of its intrinsic ability.
BASIC_LAND_TYPES = {"plains": "W", "island": "U", "swamp": "B", "mountain": "R", "forest": "G"}

#: Effect kinds of :class:`CharacteristicEffect` with the rule each follows.
EFFECT_RULES = {
    "land_types_set": "CR 305.7",        # "Nonbasic lands are Mountains"
    "land_types_added": "CR 305.7, 205.1b",  # "… in addition to its other land types"
    "types_set": "CR 613.1d",            # "… is a [type]" (layer 4)
    "types_added": "CR 205.1b",          # "is also a …", "in addition to its other types"
    "ability_granted": "CR 613.1f",      # "… have '…'", "it has …" (layer 6)
}

_ZONES = ("graveyard", "hand", "library", "exile", "command zone", "stack")
_PRONOUNS = {"it", "they", "them"}


@dataclass
class CharacteristicEffect:
    """One effect of an ability line on characteristics of objects.

    ability_index: the line (``Ability.index``). effect: a key of :data:`EFFECT_RULES`; rule: the
    CR rule it follows. affected: the objects as worded ("Each land", "~"). includes_self /
    includes_others: the group can contain the card itself / other objects. zone: where the
    effect works from ("battlefield", "graveyard" …; CR 113.6). condition: "as long as …"
    wording, level range or Class level, else None. values: types (singular, lower case) set or
    added, or the texts of granted abilities. grants_mana: WUBRGC letters the affected objects
    can produce because of the effect (CR 305.6 for land types; the granted abilities' "Add …").
    pt: power/toughness set with the types ("1/1"), else None. text: the line as printed."""
    ability_index: int | None
    effect: str
    rule: str
    affected: str
    includes_self: bool
    includes_others: bool
    zone: str
    condition: str | None
    values: list[str] = field(default_factory=list)
    grants_mana: list[str] = field(default_factory=list)
    pt: str | None = None
    text: str = ""


def singular(word: str) -> str:
    """"Mountains" → "mountain", "plains" stays, "elves" → "elf" (type words only)."""
    w = word.lower().strip(".,'\"")
    if w in ("plains", "plainses"):
        return "plains"
    if w.endswith("ves"):
        return w[:-3] + "f"
    if w.endswith("ies"):
        return w[:-3] + "y"
    if w.endswith("es") and w[:-2] in BASIC_LAND_TYPES:
        return w[:-2]
    if w.endswith("s") and not w.endswith("ss"):
        return w[:-1]
    return w


def unwrap_condition(cond: Any) -> Any:
    """The condition itself of a Sentence ``condition``: "As long as X, …" is an Action
    ``condition:as_long_as`` holding X in ``extra.condition`` (docs/ast.md; the grammar tells it
    from "If X, …"); for what a static ability does while X holds (CR 611.3a) both mean X."""
    if isinstance(cond, dict) and cond.get("verb") == "condition:as_long_as":
        inner = (cond.get("extra") or {}).get("condition")
        if isinstance(inner, dict):
            return inner
    return cond


def condition_text(cond: Any) -> str | None:
    """Wording of a Sentence ``condition`` node (an Action "condition:…" or Text), else None."""
    if not isinstance(cond, dict):
        return None
    if cond.get("node") == "Amount":
        return None                     # "For each …" leads are amounts, not conditions
    text = (cond.get("text") or "").strip()
    return text or None


def condition_zone(cond: Any) -> str:
    """The zone a condition says the card must be in ("~ is in your graveyard" → "graveyard",
    CR 113.6b), else "battlefield"."""
    if not isinstance(cond, dict) or cond.get("node") != "Action":
        return "battlefield"
    if cond.get("verb") != "condition:in_zone":
        return "battlefield"
    obj = cond.get("obj") or {}
    if obj.get("quantifier") != "self" and (obj.get("text") or "").strip() != "~":
        return "battlefield"
    text = (cond.get("text") or "").lower()
    for zone in _ZONES:
        if zone in text:
            return zone
    return "battlefield"


def sentence_contexts(value: Any, cond: Any = None) -> Iterator[tuple[dict, Any]]:
    """Yield ``(node, condition)`` for every node dict, ``condition`` being the ``condition`` of the
    innermost enclosing ``Sentence`` (None outside any)."""
    if isinstance(value, list):
        for v in value:
            yield from sentence_contexts(v, cond)
        return
    if not isinstance(value, dict):
        return
    if value.get("node") == "Sentence":
        cond = unwrap_condition(value.get("condition"))
    if "node" in value:
        yield value, cond
    for k, v in value.items():
        if k != "node":
            yield from sentence_contexts(v, cond)


def _about_self(cond: Any) -> bool:
    """A condition whose subject is the card itself ("~ is renowned", "~ is modified")."""
    if not isinstance(cond, dict):
        return False
    obj = cond.get("obj") or cond.get("subject") or {}
    if isinstance(obj, dict) and (obj.get("quantifier") == "self" or (obj.get("text") or "").strip() == "~"):
        return True
    return (cond.get("text") or "").strip().startswith("~ ")


def is_self_pronoun(subject: Any, body: Any, cond: Any = None) -> bool:
    """"it has …" in a static ability that creates no token, under a condition about the card
    itself: the pronoun is the card ("As long as ~ is renowned, it has …", Honored Hierarch).
    Under a condition about another object the pronoun is that object ("as long as enchanted
    permanent is a land, it has …", Nature's Embrace)."""
    if not isinstance(subject, dict) or not isinstance(body, dict) or body.get("node") != "Static":
        return False
    if not _about_self(cond):
        return False
    q = (subject.get("quantifier") or "").lower()
    text = (subject.get("text") or "").strip().lower()
    if q not in _PRONOUNS and text not in _PRONOUNS:
        return False
    return not any(n.get("node") == "CreateToken" for n, _ in sentence_contexts(body))


def group_scope(subject: Any, type_line: str | None, body: Any, cond: Any,
                becomes_land: bool = False) -> tuple[bool, bool, str]:
    """``(includes_self, includes_others, zone)`` of an effect's affected group.

    The card is in a group described by its card types or subtypes (``subject_includes_self``
    of :mod:`pipeline.derive.mana`), or named as "~" / "it" (:func:`is_self_pronoun`); a group
    described by types means permanents on the battlefield (CR 109.2), so when the effect works
    only from another zone (:func:`condition_zone`, CR 113.6b) the card itself is not in it."""
    from pipeline.derive.mana import subject_includes_self

    zone = condition_zone(cond)
    if is_self_pronoun(subject, body, cond):
        return True, False, zone
    has_self, has_others = subject_includes_self(subject, type_line)
    named_self = isinstance(subject, dict) and (subject.get("quantifier") == "self"
                                                or (subject.get("text") or "").strip() == "~")
    if has_self and zone != "battlefield" and not named_self:
        has_self = False                # CR 109.2: the group is permanents; the card is elsewhere
    return has_self, has_others, zone


_QUOTED = re.compile(r'"([^"]+)"')


def _ability_texts(grant: dict) -> list[str]:
    """The granted abilities as worded: keyword names and the quoted abilities of the grant's text."""
    out = [sub.get("name") or sub.get("text") for sub in grant.get("abilities") or []
           if isinstance(sub, dict) and sub.get("node") == "Keyword"]
    out += [q.strip() for q in _QUOTED.findall(grant.get("text") or "")]
    return [t for t in out if t]


def _grant_mana(grant: dict) -> list[str]:
    from pipeline.derive.mana import production_of, sort_types

    types: set[str] = set()
    for n, _ in sentence_contexts(grant.get("abilities")):
        if n.get("node") == "AddMana":
            types |= set(production_of(n).produces)
    return sort_types(types)


def line_effects(ability: dict, type_line: str | None, condition: str | None = None) -> list[CharacteristicEffect]:
    """The :class:`CharacteristicEffect` list of one ability line (``Ability.to_json()`` dict).

    ``condition``: a condition the whole line holds under (a level range, a Class level),
    joined with a sentence's own "as long as …" by "; ". Reminder lines give nothing (CR 207.2a).
    Leveler blocks are read ability by ability (CR 711.2a/b)."""
    from pipeline.derive.mana import sort_types

    if ability.get("kind") == "reminder":
        return []
    body = ability.get("body")
    index = ability.get("index")
    text = ability.get("text") or ""
    if isinstance(body, dict) and body.get("node") == "LevelBlock":
        cond = level_condition(body)
        out = []
        for sub in body.get("abilities") or []:
            for e in line_effects(sub, type_line, _join(condition, cond)):
                e.ability_index, e.text = index, text
                out.append(e)
        return out
    out = []
    for node, cond in sentence_contexts(body):
        kind = node.get("node")
        if kind == "GrantAbility":
            if any(n is node for n, _ in _inside_tokens(body)):
                continue            # abilities of a created token: token mana, not an effect on objects
            inc_self, inc_others, zone = group_scope(node.get("subject"), type_line, body, cond)
            subj = node.get("subject") or {}
            out.append(CharacteristicEffect(
                index, "ability_granted", EFFECT_RULES["ability_granted"],
                (subj.get("text") or "").strip() if isinstance(subj, dict) else "", inc_self, inc_others, zone,
                _join(condition, condition_text(cond)), _ability_texts(node), _grant_mana(node), None, text))
        elif kind == "Action" and node.get("verb") in ("is", "is_also"):
            words = [singular(w) for w in (node.get("extra") or {}).get("words") or []]
            lands = [w for w in words if w in BASIC_LAND_TYPES]
            types = [w for w in words if w not in BASIC_LAND_TYPES]
            types = [t for t in types if is_type_word(t)]
            if not lands and not types:
                continue
            added = node.get("verb") == "is_also"
            subj = node.get("subject") or {}
            inc_self, inc_others, zone = group_scope(subj, type_line, body, cond)
            affected = (subj.get("text") or "").strip() if isinstance(subj, dict) else ""
            subj_words = {singular(w) for w in (subj.get("words") or [])} if isinstance(subj, dict) else set()
            # CR 305.6: only a land with a basic land type has the intrinsic mana ability.
            is_land = "land" in subj_words or "land" in types or bool(subj_words & set(BASIC_LAND_TYPES))
            cond_t = _join(condition, condition_text(cond))
            pt = (node.get("extra") or {}).get("pt")
            if lands:
                effect = "land_types_added" if added else "land_types_set"
                mana = sort_types(BASIC_LAND_TYPES[w] for w in lands) if is_land else []
                out.append(CharacteristicEffect(index, effect, EFFECT_RULES[effect], affected, inc_self, inc_others,
                                                zone, cond_t, list(dict.fromkeys(lands)), mana, pt, text))
            other = types
            if other:
                effect = "types_added" if added else "types_set"
                out.append(CharacteristicEffect(index, effect, EFFECT_RULES[effect], affected, inc_self, inc_others,
                                                zone, cond_t, list(dict.fromkeys(other)), [], pt, text))
    return out


_TYPE_TERMINALS: re.Pattern | None = None


def is_type_word(word: str) -> bool:
    """A card type, supertype or subtype (singular or plural, lower case): the type words of
    grammar/types.lark, generated from the CR's lists (CR 205.2a, 205.3, 205.4a)."""
    global _TYPE_TERMINALS
    if _TYPE_TERMINALS is None:
        from pipeline.paths import GRAMMAR_DIR

        text = (GRAMMAR_DIR / "types.lark").read_text(encoding="utf-8")
        alts = [m.group(2) for m in re.finditer(r"^(CARDTYPE|SUPERTYPE|SUBTYPE): /\(\?:(.*)\)/", text, re.M)]
        _TYPE_TERMINALS = re.compile("(?:" + "|".join(alts) + ")")
    return bool(_TYPE_TERMINALS.fullmatch(word.lower()))


def _inside_tokens(body: Any) -> Iterator[tuple[dict, Any]]:
    for n, c in sentence_contexts(body):
        if n.get("node") == "CreateToken":
            yield from sentence_contexts(n.get("abilities"))


def _join(a: str | None, b: str | None) -> str | None:
    parts = [p for p in (a, b) if p]
    return "; ".join(parts) if parts else None


def level_condition(block: dict) -> str:
    """CR 711.2a/b: "level N1-N2" / "level N3+" of a leveler block."""
    low, high = block.get("low"), block.get("high")
    return f"level {low}-{high}" if high is not None else f"level {low}+"


def class_condition(level: int) -> str:
    """CR 716.2a: abilities after a class level bar work "as long as this Class is level N or greater"."""
    return f"class level {level} or greater"


def line_conditions(ability_jsons: list[dict]) -> list[str | None]:
    """For each line of a face (in order), the condition the whole line holds under: the Class
    level of the last class level bar above it (CR 716.2a), else None."""
    out: list[str | None] = []
    level = None
    for ab in ability_jsons:
        body = ab.get("body")
        if isinstance(body, dict) and body.get("node") == "ClassLevel":
            level = body.get("level")
            out.append(None)
            continue
        out.append(class_condition(level) if level else None)
    return out


def face_effects(ability_jsons: list[dict], type_line: str | None) -> list[CharacteristicEffect]:
    """Every :class:`CharacteristicEffect` of a face's ability lines, in line order."""
    out = []
    for ab, cond in zip(ability_jsons, line_conditions(ability_jsons)):
        out.extend(line_effects(ab, type_line, cond))
    return out


_FOR_EACH_COLOR = re.compile(r"\bcolors?\b.*\bamong\b", re.I)


def for_each_color_among(cond: Any) -> bool:
    """A "For each color among permanents you control, add one mana of that color" lead (Bloom
    Tender): the mana's types depend on other objects (CR 106.7)."""
    if not isinstance(cond, dict) or cond.get("node") != "Amount" or cond.get("kind") != "for_each":
        return False
    ref = cond.get("ref") or {}
    text = " ".join(str(x) for x in (cond.get("text"), ref.get("text") if isinstance(ref, dict) else None) if x)
    return bool(_FOR_EACH_COLOR.search(text))
