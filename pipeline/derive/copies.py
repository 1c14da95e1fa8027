"""What copy exceptions do to the copiable values (CR 707.9), and the token copies that keywords make.

The grammar reads the wording of each "except …" clause into a ``CopyException`` node
(docs/ast.md: ``kind``, ``value``, ``text``, ``condition``); this module decides what it means,
by CR 707.9:

* **707.9a** — the copy gains an ability (``has_ability``, ``has_keyword``, ``has_this_ability``):
  operation ``gained``, characteristic ``abilities``;
* **707.9b** — a characteristic is modified, the final value becoming copiable: ``set`` ("except
  it's an artifact", "its name is ~", "it's a 4/4 black Zombie", "its starting loyalty is 1", "the
  token has no mana cost"), ``added`` ("… in addition to its other types", CR 205.1b) or
  ``removed`` ("it isn't legendary": the supertype legendary removed; "loses soulbond");
* **707.9c** — a characteristic not copied, the original value kept ("it doesn't copy that
  creature's color"): ``not_copied``;
* **707.9e** — an additional effect, not a characteristic ("it enters with X additional +1/+1
  counters", Altered Ego): ``additional_effect``, characteristic ``counters``;
* **707.9f** — the exception applies only if the copy is or has a characteristic ("… if it's a
  creature", "if that permanent is legendary"): ``applies_if`` holds that condition, and the
  exception's rules list 707.9f besides its own class.

Keywords and keyword actions that make copies — token copies (populate CR 701.36a, embalm
702.128a, eternalize 702.129a, encore 702.141a, myriad 702.116a, squad 702.157a, offspring
702.175a) and spell copies (storm 702.40a, replicate 702.56a, gravestorm 702.69a, conspire
702.78a, demonstrate 702.144a, casualty 702.153a) — have what they copy and their exceptions
defined by their rule; :data:`KEYWORD_COPIES` lists them, so they get ``copy_effects`` rows like
printed copies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterator

from pipeline.derive.effects import is_type_word, singular

_COLORS = ("white", "blue", "black", "red", "green")
_PT = re.compile(r"\b(\d+|X|\*)/(\d+|X|\*)\b")
_LOYALTY = re.compile(r"starting loyalty is (\d+|X)", re.I)


@dataclass
class ExceptionMeaning:
    """The meaning of one copy exception.

    rule: "CR 707.9a" / "707.9b" / "707.9c" / "707.9e"; applies_if: the 707.9f condition
    wording, else None (then ``rules`` also lists "CR 707.9f"). operation: gained, set, added,
    removed, not_copied, additional_effect. Structured values (lower case): types (card types
    and subtypes), supertypes_removed, colors, pt ("4/4"), loyalty ("1"), name ("~" = the copy
    keeps the card's own name), mana_cost ("" = no mana cost), abilities (texts or keyword names),
    counters ({counter, amount}). condition: a condition that is not on characteristics ("if ~ was
    embalmed"); types include supertypes added ("it's legendary in addition to its other types")."""
    rule: str
    operation: str
    characteristic: str
    applies_if: str | None = None
    condition: str | None = None
    types: list[str] = field(default_factory=list)
    supertypes_removed: list[str] = field(default_factory=list)
    colors: list[str] = field(default_factory=list)
    pt: str | None = None
    loyalty: str | None = None
    name: str | None = None
    mana_cost: str | None = None
    abilities: list[str] = field(default_factory=list)
    counters: list[dict] = field(default_factory=list)

    @property
    def rules(self) -> list[str]:
        """Its class and, for a conditional exception, CR 707.9f."""
        return [self.rule] + (["CR 707.9f"] if self.applies_if else [])


_ON_CHARACTERISTIC = re.compile(r"^if (it|that|the|those|equipped)\b.*\b(is|are|has|have)\b|^if (it|they)('s|'re)\b", re.I)


def _condition(exc: dict) -> str | None:
    cond = exc.get("condition")
    text = (cond.get("text") if isinstance(cond, dict) else None) or None
    if text:
        return text if text.lower().startswith("if ") else f"if {text}"
    m = re.search(r"\bif (it|that|the|those|equipped)\b.*$", exc.get("text") or "", re.I)
    return m.group(0) if m else None


def split_condition(cond: str | None) -> tuple[str | None, str | None]:
    """``(applies_if, other condition)``: a condition on what the copy (or the copied object) is
    or has — "if it's a creature", "if that permanent is legendary" — is CR 707.9f's; any other
    ("if ~ was embalmed", "if you control that creature") is only a condition."""
    if not cond:
        return None, None
    return (cond, None) if _ON_CHARACTERISTIC.search(cond) else (None, cond)


def _words(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(v) for v in value if isinstance(v, (str, int))]
    if isinstance(value, str):
        return value.split()
    return []


def _ability_names(value: Any, text: str = "") -> list[str]:
    """Keyword names, then the quoted abilities of the exception's wording."""
    out = [v.get("name") for v in (value if isinstance(value, list) else [])
           if isinstance(v, dict) and v.get("node") == "Keyword" and v.get("name")]
    out += [q.strip() for q in re.findall(r'"([^"]+)"', text)]
    return out


def classify_exception(exc: dict) -> ExceptionMeaning:
    """The :class:`ExceptionMeaning` of one ``CopyException`` dict (kind, value, text, condition).

    Raises nothing: a kind this module does not know is read from its wording ("starting
    loyalty is N", a P/T, types), else classed 707.9b ``set`` of characteristic "other"."""
    kind = exc.get("kind") or "other"
    text = exc.get("text") or ""
    low = text.lower()
    cond = _condition(exc)
    m = _build(kind, exc, text, low, cond)
    m.applies_if, m.condition = split_condition(cond)
    return m


def _build(kind: str, exc: dict, text: str, low: str, cond: str | None) -> ExceptionMeaning:
    if kind in ("has_ability", "has_keyword", "has_this_ability"):
        names = _ability_names(exc.get("value"), text) or ([text] if kind != "has_this_ability" else ["this ability"])
        if "this ability" in low and "this ability" not in names:
            names.append("this ability")
        return ExceptionMeaning("CR 707.9a", "gained", "abilities", cond, abilities=names)
    if kind == "enters_with_counters":
        v = exc.get("value") if isinstance(exc.get("value"), dict) else {}
        amt = v.get("amount") or {}
        amount = amt.get("variable") or (str(amt["value"]) if amt.get("value") is not None else amt.get("text"))
        return ExceptionMeaning("CR 707.9e", "additional_effect", "counters", cond,
                                counters=[{"counter": v.get("counter"), "amount": amount}])
    if kind == "not_legendary":
        return ExceptionMeaning("CR 707.9b", "removed", "supertypes", cond, supertypes_removed=["legendary"])
    if kind == "not_color" or "doesn't copy" in low or "don't copy" in low:
        what = "color" if "color" in low else "other"
        return ExceptionMeaning("CR 707.9c", "not_copied", what, cond)
    if kind == "name_is":
        return ExceptionMeaning("CR 707.9b", "set", "name", cond, name=str(exc.get("value") or "~"))
    if kind == "no_mana_cost":
        return ExceptionMeaning("CR 707.9b", "set", "mana_cost", cond, mana_cost="")
    if kind == "lacks_this_ability":  # "except it doesn't have this ability": left out of the copy
        return ExceptionMeaning("CR 707.9b", "removed", "abilities", cond, abilities=["this ability"])
    if kind == "loyalty" and isinstance(exc.get("value"), dict):  # "its starting loyalty is 1" (CR 306.5b)
        amt = exc["value"]
        value = amt.get("variable") or (str(amt["value"]) if amt.get("value") is not None else None)
        if value is not None:
            return ExceptionMeaning("CR 707.9b", "set", "loyalty", cond, loyalty=value)
    if kind == "loses_ability":
        return ExceptionMeaning("CR 707.9b", "removed", "abilities", cond, abilities=_ability_names(exc.get("value"), text))
    m = _LOYALTY.search(text)
    if m:
        return ExceptionMeaning("CR 707.9b", "set", "loyalty", cond, loyalty=m.group(1))
    words = _words(exc.get("value")) if kind == "is_type" else []
    if not words:
        words = re.sub(r"^(it's|its|it is|that the copy is|the copy is|they're|the token is)\s+(an?\s+)?", "", low).split()
    pt = next((w for w in words if _PT.fullmatch(w)), None) or (m2.group(0) if (m2 := _PT.search(text)) else None)
    colors = [w.lower() for w in words if w.lower() in _COLORS]
    types = [singular(w) for w in words if w.lower() not in _COLORS and not _PT.fullmatch(w)
             and is_type_word(w.lower()) and w.lower() not in ("in", "addition")]
    added = "in addition to" in low
    chars = [c for c, v in (("types", types), ("color", colors), ("pt", [pt] if pt else [])) if v]
    return ExceptionMeaning("CR 707.9b", "added" if added else "set", "+".join(chars) or "other", cond,
                            types=types, colors=colors, pt=pt)


@dataclass(frozen=True)
class KeywordCopy:
    """A keyword (or keyword action) whose rule makes a copy: ``rule`` (the CR subrule that defines
    it), ``copy_kind`` (``create_token_copy`` or ``copy_spell``, docs/ast.md COPY_MODES),
    ``copied_object`` (as the rule words it), ``new_targets`` (the rule lets the controller choose
    new targets for the copies, CR 707.10c) and ``exceptions`` (the rule's own exceptions, as
    CopyException-shaped dicts classified like printed ones)."""
    rule: str
    copy_kind: str
    copied_object: str
    new_targets: bool = False
    exceptions: tuple[dict, ...] = ()


#: Keywords / keyword actions that make a copy, by their rule (names as the grammar's Keyword nodes
#: hold them, lower case). Token copies: populate 701.36a, embalm 702.128a, eternalize 702.129a,
#: encore 702.141a, myriad 702.116a, squad 702.157a, offspring 702.175a. Spell copies ("copy it …
#: you may choose new targets for the copies", CR 707.10): storm 702.40a, replicate 702.56a,
#: gravestorm 702.69a, conspire 702.78a, demonstrate 702.144a, casualty 702.153a.
KEYWORD_COPIES: dict[str, KeywordCopy] = {
    "populate": KeywordCopy("CR 701.36a", "create_token_copy", "a creature token you control"),
    "embalm": KeywordCopy("CR 702.128a", "create_token_copy", "this card", exceptions=(
        {"kind": "is_type", "value": ["white"], "text": "it's white"},
        {"kind": "no_mana_cost", "text": "it has no mana cost"},
        {"kind": "is_type", "value": ["Zombie"], "text": "it's a Zombie in addition to its other types"})),
    "eternalize": KeywordCopy("CR 702.129a", "create_token_copy", "this card", exceptions=(
        {"kind": "is_type", "value": ["black"], "text": "it's black"},
        {"kind": "pt", "value": "4/4", "text": "it's 4/4"},
        {"kind": "no_mana_cost", "text": "it has no mana cost"},
        {"kind": "is_type", "value": ["Zombie"], "text": "it's a Zombie in addition to its other types"})),
    "encore": KeywordCopy("CR 702.141a", "create_token_copy", "this card"),
    "myriad": KeywordCopy("CR 702.116a", "create_token_copy", "this creature"),
    "squad": KeywordCopy("CR 702.157a", "create_token_copy", "this creature"),
    "offspring": KeywordCopy("CR 702.175a", "create_token_copy", "this permanent", exceptions=(
        {"kind": "pt", "value": "1/1", "text": "it's 1/1"},)),
    "storm": KeywordCopy("CR 702.40a", "copy_spell", "this spell", new_targets=True),
    "replicate": KeywordCopy("CR 702.56a", "copy_spell", "this spell", new_targets=True),
    "gravestorm": KeywordCopy("CR 702.69a", "copy_spell", "this spell", new_targets=True),
    "conspire": KeywordCopy("CR 702.78a", "copy_spell", "this spell", new_targets=True),
    "demonstrate": KeywordCopy("CR 702.144a", "copy_spell", "this spell", new_targets=True),
    "casualty": KeywordCopy("CR 702.153a", "copy_spell", "this spell", new_targets=True),
}


def _walk(value: Any, path: str = "$") -> Iterator[tuple[str, dict]]:
    if isinstance(value, dict):
        if "node" in value:
            yield path, value
        for k, v in value.items():
            if k != "node":
                yield from _walk(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk(v, f"{path}[{i}]")


def copy_exception_rows(ability: dict) -> list[dict]:
    """One dict per exception of every copy in an ability line (``Ability.to_json()`` dict):
    ``path`` (JSONPath of the CopyEffect, or of the keyword / populate node, inside the AST — as
    in ``copy_effects.path``), ``source`` (copy_effect, keyword, keyword_action), ``position``,
    ``kind``, ``text`` and the :class:`ExceptionMeaning` fields. Reminder lines give nothing."""
    if ability.get("kind") == "reminder":
        return []
    out = []
    for path, node in _walk(ability, "$"):
        if node.get("node") == "CopyEffect":
            excs, source = node.get("exceptions") or [], "copy_effect"
        elif node.get("node") == "Keyword" and (node.get("name") or "").lower() in KEYWORD_COPIES:
            excs, source = KEYWORD_COPIES[node["name"].lower()].exceptions, "keyword"
        else:
            continue
        for i, exc in enumerate(excs):
            if not isinstance(exc, dict):
                continue
            m = classify_exception(exc)
            out.append({"path": path, "source": source, "position": i, "kind": exc.get("kind"),
                        "text": exc.get("text") or "", **m.__dict__, "rules": m.rules})
    return out
