"""Card features that decide which Comprehensive Rules govern a card (the *inferred* rules).

:func:`card_features` looks at one card — its ``cards`` row, its ``faces`` and its
``abilities`` (text, kind, ``is_mana_ability`` and the AST JSON of docs/ast.md) — and
returns :class:`Feature` records such as ``tap_cost`` ({T} in an activation cost) or
``keyword`` (detail ``"Flying"``). Which rules a feature brings is *data*:
``data/rule_features.csv`` (see :mod:`pipeline.annotate.mapping`); this module only
recognises features.

Every detector is tolerant: a missing field, a NULL AST, an AST of an unknown shape or a
node type it does not know gives no feature, never an exception. Each feature is looked
for in the AST when there is one *and* in the Oracle text (reminder text removed), so
cards whose abilities the grammar could not read still get their rules.

Conventions (also in docs/annotate.md):

* cost features (``tap_cost``, ``untap_cost``, ``activated``, ``loyalty_ability``) come
  only from the card's own abilities, never from abilities it grants in quotes
  (``Enchanted land has "{T}: Add …"``) or gives to tokens;
* action features (``destroy``, ``exile``, ``sacrifice``, ``counter_spell``,
  ``discard``, ``token``, ``copy_*``, ``x_value``) come from the whole text, quoted
  abilities included, reminder text excluded.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

import orjson

DOUBLE_FACED_LAYOUTS = {"transform", "modal_dfc", "meld", "reversible_card"}
LAYOUT_FEATURES = {
    "meld": "meld",
    "split": "split",
    "aftermath": "split",
    "flip": "flip",
    "leveler": "leveler",
    "saga": "saga",
    "adventure": "adventure",
    "class": "class",
    "prototype": "prototype",
    "case": "case",
}
SUBTYPE_FEATURES = {
    "Equipment": "equipment",
    "Aura": "aura",
    "Vehicle": "vehicle",
    "Saga": "saga",
    "Class": "class",
    "Case": "case",
}
BASIC_LAND_TYPES = {"Plains", "Island", "Swamp", "Mountain", "Forest"}

_REMINDER_RE = re.compile(r"\s*\([^()]*\)")
_QUOTED_RE = re.compile(r"[“\"][^”\"]*[”\"]")
_ABILITY_WORD_RE = re.compile(r"^(?!Choose\b)[A-Z][A-Za-z’' ,-]{1,40} — ")
_TRIGGER_RE = re.compile(r"^(When|Whenever|At)\b")
_CHAPTER_RE = re.compile(r"^[IVX]+(?:, [IVX]+)* — ")  # Saga chapter abilities are triggered (CR 714.2b)
_EMBLEM_RE = re.compile(r"\bget an emblem\b", re.I)
_GRANTED_MANA_RE = re.compile(r"[“\"]\{T\}: Add\b")
_GRANTS_RE = re.compile(r"\b(?:gains?|has|have)\s+([a-z][a-z ,]{0,60}?)(?=\s+until\b|\s+as long\b|\s+for as\b|[.;:(]|$)")
_LOYALTY_RE = re.compile(r"^\[?[+−–-]?(\d+|X)\]?$")
_MODAL_RE = re.compile(r"\bchoose (one|two|three|four|five|one or more|one or both|any number|up to \w+)\b ?(or more )?—", re.I)
_WORD_X_RE = re.compile(r"(?<![\w/+−-])X(?![\w/])|\{X\}")
_TEXT_ACTIONS = {
    "destroy": re.compile(r"\bdestroys?\b", re.I),
    "exile": re.compile(r"\bexiles?\b", re.I),
    "sacrifice": re.compile(r"\bsacrifices?\b", re.I),
    "counter_spell": re.compile(r"\bcounters? (target|that|it|all|each|up to|the (next|first))\b", re.I),
    "discard": re.compile(r"\bdiscards?\b", re.I),
}
_AST_ACTION_VERBS = {"destroy": "destroy", "exile": "exile", "sacrifice": "sacrifice",
                     "counter": "counter_spell", "discard": "discard"}
_TOKEN_RE = re.compile(r"\bcreates?\b[^.]*?\btokens?\b", re.I)
_COPY_RE = re.compile(r"\bcop(y|ies)\b", re.I)
_COPY_SPELL_RE = re.compile(r"\bcop(y|ies)\b[^.]*\b(spells?|abilit(y|ies))\b|\b(spells?|abilit(y|ies))\b[^.]*\bcopy (it|them)\b", re.I)
_COPY_EXCEPT_RE = re.compile(r"\bcop(y|ies)\b[^.]*\bexcept\b", re.I)
_PT_COUNTER_RE = re.compile(r"[+−-]\d+/[+−-]\d+ counters?\b")
_ENTERS_RE = re.compile(r"\benters?\b|\benter the battlefield\b", re.I)


@dataclass(frozen=True)
class Feature:
    """One recognised feature of a card.

    ``name``: a feature name of ``data/rule_features.csv`` (``"tap_cost"``);
    ``detail``: extra words for the reason (``"Flying"`` for a keyword), or ``""``;
    ``ability_id``: the ability it was found in, ``None`` for card-level features
    (type line, layout, mana cost); ``evidence``: the text or AST fragment that showed it.
    """

    name: str
    detail: str = ""
    ability_id: str | None = None
    evidence: str = ""


def strip_reminder(text: str) -> str:
    """Remove parenthesized reminder text (CR 207.2a) from an Oracle line."""
    return _REMINDER_RE.sub("", text or "").strip()


def split_cost(text: str) -> tuple[str, str] | None:
    """Split an activated/loyalty ability line into (cost, effect) at its first colon outside
    quotes; ``None`` when the line is not ``[Cost]: [Effect]`` (CR 602.1)."""
    line = _ABILITY_WORD_RE.sub("", strip_reminder(text))
    if _TRIGGER_RE.match(line) or line.startswith(("As ", "If ", "•", "“", '"')):
        return None
    depth = 0
    for i, ch in enumerate(line):
        if ch in "“\"" and depth == 0:
            return None  # a quote before any colon: not a cost line
        if ch == ":":
            cost, effect = line[:i].strip(), line[i + 1 :].strip()
            if not cost or "." in cost or len(cost) > 150:
                return None
            return cost, effect
    return None


def load_ast(value: Any) -> Any:
    """Return the AST as Python data: a JSON string is decoded (orjson, the encoder of the stored
    ASTs; :func:`json.loads` for what orjson refuses, e.g. ``NaN``); bad JSON gives ``None``."""
    if isinstance(value, str):
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            pass
        try:
            return json.loads(value)
        except ValueError:
            return None
    return value


def walk_nodes(ast: Any, skip: Iterable[str] = ()) -> Iterator[dict]:
    """Yield every dict in ``ast`` that names its node type (``"node"`` or ``"type"`` key),
    pre-order, not descending into nodes whose type is in ``skip``."""
    for node, _, under_skipped in _walk_marked(ast, dict.fromkeys(skip, 1)):
        if not under_skipped:
            yield node


def _walk_marked(ast: Any, marks: dict[str, int]) -> list[tuple[dict, str, int]]:
    """Every node of ``ast`` in pre-order as ``(node, type, mask)``: ``mask`` ORs the ``marks``
    bits of the node and of every node above it (a node under a ``CreateToken`` carries its
    bit). One pass serves every filtered walk :func:`_ability_features` needs: the nodes of
    ``walk_nodes(ast, skip)`` are those whose mask has none of the bits of ``skip``."""
    out: list[tuple[dict, str, int]] = []
    append, mark = out.append, marks.get

    def visit(item: Any, mask: int) -> None:  # recursive: ≈ 40 % faster than the explicit stack below
        if isinstance(item, dict):
            kind = item.get("node", item.get("type"))
            if isinstance(kind, str):
                mask |= mark(kind, 0)
                append((item, kind, mask))
            values = item.values()
        else:
            values = item
        for v in values:
            if isinstance(v, (dict, list)):
                visit(v, mask)

    if isinstance(ast, (dict, list)):
        try:
            visit(ast, 0)
            return out
        except RecursionError:  # nested deeper than the interpreter's limit: the same walk without recursion
            out.clear()
    stack: list[tuple[Any, int]] = [(ast, 0)]
    while stack:
        item, mask = stack.pop()
        if isinstance(item, dict):
            kind = item.get("node", item.get("type"))
            if isinstance(kind, str):
                mask |= marks.get(kind, 0)
                out.append((item, kind, mask))
            stack.extend((v, mask) for v in reversed(list(item.values())) if isinstance(v, (dict, list)))
        elif isinstance(item, list):
            stack.extend((v, mask) for v in reversed(item) if isinstance(v, (dict, list)))
    return out


# Subtrees the feature walks leave out (bits of _walk_marked's mask).
_GRANT, _TOKEN, _ACTIVATED, _STATIC = 1, 2, 4, 8
_MARKS = {"GrantAbility": _GRANT, "CreateToken": _TOKEN, "Activated": _ACTIVATED, "Static": _STATIC}


def node_type(node: Any) -> str | None:
    """The node type of an AST dict (``"node"`` key, or ``"type"`` as a fallback)."""
    if not isinstance(node, dict):
        return None
    kind = node.get("node", node.get("type"))
    return kind if isinstance(kind, str) else None


def _ability_features(card_type_lines: list[str], ab: dict, granted_titles: frozenset[str] = frozenset()) -> list[Feature]:
    """Features of one ability row (see module docstring)."""
    aid = ab.get("ability_id")
    text = ab.get("text") or ""
    clean = strip_reminder(text)
    line = _ABILITY_WORD_RE.sub("", clean)
    kind = (ab.get("kind") or "").lower()
    ast = load_ast(ab.get("ast"))
    face_idx = ab.get("face_index") or 0
    type_line = card_type_lines[face_idx] if face_idx < len(card_type_lines) else " ".join(card_type_lines)
    is_creature = "Creature" in (type_line or "")
    out: list[Feature] = []

    def add(name: str, evidence: str, detail: str = "") -> None:
        out.append(Feature(name, detail, aid, evidence))

    # --- costs (own abilities only)
    cost_effect = split_cost(text)
    walked = _walk_marked(ast, _MARKS)  # one pass; each walk below is a filter of it
    own = [(n, t) for n, t, m in walked if not m & (_GRANT | _TOKEN)]
    own_types = {t for _, t in own}
    cost_nodes = [n for n, t in own if t in ("Activated", "ClassLevel")]
    ast_cost_types = {node_type(c) for n in cost_nodes for c in walk_nodes(n.get("cost"))}
    cost_text = cost_effect[0] if cost_effect else ""
    is_loyalty = kind == "loyalty" or bool(cost_effect and _LOYALTY_RE.match(cost_text))
    has_tap = "TapCost" in ast_cost_types or "{T}" in cost_text
    has_untap = "UntapCost" in ast_cost_types or "{Q}" in cost_text
    if has_tap:
        add("tap_cost", cost_text or "TapCost")
        if is_creature:
            add("tap_cost_creature", cost_text or "TapCost")
    if has_untap:
        add("untap_cost", cost_text or "UntapCost")
        if is_creature:
            add("untap_cost_creature", cost_text or "UntapCost")

    # CR 605.1a by text — a cost, an effect that adds mana, no target, not loyalty — or the
    # grammar's verdict (is_mana_ability), whichever says so.
    mana = bool(ab.get("is_mana_ability")) or bool(
        cost_effect and not is_loyalty and re.match(r"^Add\b", cost_effect[1]) and "target" not in cost_effect[1])
    if mana:
        add("mana_ability", clean)
    if is_loyalty:
        add("loyalty_ability", cost_text or kind)
    elif not mana and (kind == "activated" or cost_nodes or cost_effect):
        add("activated", cost_text or kind)
    if kind in ("triggered", "chapter") or _CHAPTER_RE.match(clean) or any(t == "Triggered" and not m & (_GRANT | _TOKEN | _ACTIVATED | _STATIC) for _, t, m in walked) \
            or _TRIGGER_RE.match(line):
        if not mana:
            add("triggered", line[:60])
    if kind == "modal" or "Modal" in own_types or _MODAL_RE.search(clean):
        add("modal", clean[:60])

    # --- effects (quoted abilities included)
    for n, t, _ in walked:
        if t == "AddMana" and n.get("production") == "could_produce":
            add("could_produce", str(n.get("text") or "AddMana could_produce"))
        elif t == "CopyEffect":
            add("copy_effect", str(n.get("text") or "CopyEffect"))
            if n.get("mode") in ("copy_spell", "copy_ability"):
                add("copy_spell", str(n.get("text") or n.get("mode")))
            if n.get("exceptions"):
                add("copy_except", str(n.get("text") or "CopyEffect.exceptions"))
        elif t == "CreateToken":
            add("token", str(n.get("text") or "CreateToken"))
        elif t == "ManaSymbol" and n.get("kind") == "x":
            add("x_value", "{X}")
        elif t == "Amount" and n.get("variable") in ("X", "Y"):
            add("x_value", str(n.get("text") or "X"))
        elif t == "Action" and isinstance(n.get("verb"), str):
            feat = _AST_ACTION_VERBS.get(n["verb"].lower())
            if feat:
                add(feat, str(n.get("text") or n["verb"]))
    # Keywords the card has or grants ("gains trample"), not those of tokens it creates.
    for n, t, m in walked:
        if t == "Keyword" and not m & _TOKEN and isinstance(n.get("name"), str) and n["name"].strip():
            add("keyword", str(n.get("text") or n["name"]), detail=n["name"].strip().capitalize())
    for m in _GRANTS_RE.finditer(clean):  # "gains trample and haste" (text fallback)
        for piece in re.split(r",\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+", m.group(1)):
            words = piece.split()
            name = next((" ".join(words[:n]) for n in (2, 1) if " ".join(words[:n]) in granted_titles), None)
            if name:
                add("keyword", m.group(0), detail=name.capitalize())
    if _GRANTED_MANA_RE.search(clean):
        add("granted_mana_ability", _GRANTED_MANA_RE.search(clean).group(0))
    if _EMBLEM_RE.search(clean):
        add("emblem", _EMBLEM_RE.search(clean).group(0))
    if "could produce" in clean:
        add("could_produce", "could produce")
    if _COPY_RE.search(clean):
        add("copy_effect", clean[:80])
        if _COPY_SPELL_RE.search(clean):
            add("copy_spell", clean[:80])
        if _COPY_EXCEPT_RE.search(clean):
            add("copy_except", clean[:80])
    if _TOKEN_RE.search(clean):
        add("token", _TOKEN_RE.search(clean).group(0))
    if _PT_COUNTER_RE.search(clean):
        add("plus_one_counters", _PT_COUNTER_RE.search(clean).group(0))
    if _WORD_X_RE.search(clean):
        add("x_value", "X")
    for feat, rx in _TEXT_ACTIONS.items():
        m = rx.search(clean)
        if m:
            add(feat, m.group(0))
    return out


def keyword_names(text: str) -> list[str]:
    """Candidate keyword names of a keyword line (``"Flying, vigilance"`` → both;
    ``"Equip {2}"`` → ``Equip``; ``"Protection from red"`` → ``Protection``).
    Returns ``[]`` for a line that is not a plain keyword list (ends with a period)."""
    line = strip_reminder(text)
    if not line or line.endswith(".") or ":" in line:
        return []
    names = []
    for part in re.split(r",\s*|;\s*", line):
        words = re.match(r"^([A-Za-z’'-]+(?: [a-z’'-]+)*)", part.strip())
        if words:
            names.append(words.group(1))
    return names


def _lowered(names: Iterable[str]) -> frozenset[str]:
    if isinstance(names, frozenset):  # already prepared by the caller: lower-cased
        return names
    return frozenset(n.lower() for n in names)


def card_features(card: dict, faces: list[dict], abilities: list[dict],
                  keyword_titles: Iterable[str] = (), granted_titles: Iterable[str] = ()) -> list[Feature]:
    """Return the features of one card, in a stable order, duplicates removed.

    ``card``: a ``cards`` row as a dict (``layout``, ``type_line``, ``mana_cost``,
    ``keywords`` — any may be missing or None). ``faces``: ``faces`` rows (``face_index``,
    ``type_line``, ``mana_cost``). ``abilities``: ``abilities`` rows (``ability_id``,
    ``face_index``, ``text``, ``kind``, ``is_mana_ability``, ``ast``). ``keyword_titles``:
    lower-cased titles of CR 701/702 rules, used to recognise keyword lines when the card
    has no ``keywords`` list (the 2019 Scryfall file predates that field).
    """
    faces = sorted(faces or [], key=lambda f: f.get("face_index") or 0)
    type_lines = [f.get("type_line") or "" for f in faces] or [card.get("type_line") or ""]
    mana_costs = [f.get("mana_cost") or "" for f in faces] + [card.get("mana_cost") or ""]
    out: list[Feature] = []

    layout = (card.get("layout") or "").lower()
    if layout in DOUBLE_FACED_LAYOUTS:
        out.append(Feature("double_faced", layout, None, f"layout {layout}"))
    if layout in LAYOUT_FEATURES:
        out.append(Feature(LAYOUT_FEATURES[layout], layout, None, f"layout {layout}"))

    for tl in type_lines + [card.get("type_line") or ""]:
        left, _, right = tl.partition("—")
        supertypes_types = left.split()
        subtypes = right.split()
        for sub in subtypes:
            if sub in SUBTYPE_FEATURES:
                out.append(Feature(SUBTYPE_FEATURES[sub], sub, None, tl))
        if "Legendary" in supertypes_types and any(
            t in supertypes_types for t in ("Creature", "Artifact", "Enchantment", "Land", "Planeswalker", "Battle")
        ):
            out.append(Feature("legendary", "", None, tl))
        if "Planeswalker" in supertypes_types:
            out.append(Feature("planeswalker", "", None, tl))
        if "Battle" in supertypes_types:
            out.append(Feature("battle", "", None, tl))
        if "Land" in supertypes_types and BASIC_LAND_TYPES & set(subtypes):
            out.append(Feature("basic_land_type", " ".join(sorted(BASIC_LAND_TYPES & set(subtypes))), None, tl))

    if any("{X}" in mc for mc in mana_costs):
        out.append(Feature("x_value", "{X} in mana cost", None, " // ".join(m for m in mana_costs if "{X}" in m)))
        for ab in abilities:
            clean = strip_reminder(ab.get("text") or "")
            if _ENTERS_RE.search(clean) and _WORD_X_RE.search(clean):
                out.append(Feature("x_enters", "", ab.get("ability_id"), clean[:80]))

    keywords = [k for k in (card.get("keywords") or []) if isinstance(k, str)]
    for k in keywords:
        out.append(Feature("keyword", k, None, "keywords"))
    titles = _lowered(keyword_titles)
    granted = _lowered(granted_titles)
    for ab in abilities:
        try:
            out.extend(_ability_features(type_lines, ab, granted))
        except (TypeError, AttributeError, KeyError, IndexError):  # malformed row: no feature
            continue
        if not keywords and titles:
            for name in keyword_names(ab.get("text") or ""):
                if name.lower() in titles:
                    out.append(Feature("keyword", name, ab.get("ability_id"), ab.get("text") or ""))

    seen: set[tuple[str, str]] = set()
    unique: list[Feature] = []
    for f in out:
        key = (f.name, f.detail.lower() if f.name == "keyword" else "")
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return unique
