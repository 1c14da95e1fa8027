"""Renderer: an ability AST → canonical (current) Oracle text, from structured fields only.

The round trip is how ``Ability.fully_parsed`` is defined (docs/ast.md § Rendering): an
ability is fully parsed when its body has no :class:`~pipeline.parse.ast.Unparsed` node and
rendering its AST gives back its normalised text, reminder text aside, compared without
letter case (the grammar reads lower-cased text) and with whitespace collapsed.

A renderer may read nested nodes, enums, numbers, mana symbols, the self-reference ``~`` and
words of the closed lexicons of :mod:`pipeline.parse.lexicon`; it never reads a stored
``text`` span, ``normalized``, ``pieces``, ``Amount.text`` or any other free-text string.

Dispatch is by node class (one function per class, registered with :func:`renders` in the
``render_<concept>`` module beside the grammar file of that concept); :class:`Action` nodes
dispatch further on their verb (:func:`renders_verb`). A node without a renderer raises
:class:`NotRendered` with its *shape* (``"Action:draw"``, ``"Text"``, ``"Obj:word=foo"``),
which ``coverage`` counts.
"""

from __future__ import annotations

from typing import Callable

from pipeline.parse import ast as A

_BY_CLASS: dict[type, Callable] = {}
_BY_VERB: dict[str, Callable] = {}
_BY_PREFIX: dict[str, Callable] = {}


class NotRendered(Exception):
    """The AST holds something the renderer cannot write from structured fields.
    ``shape``: a short key naming the node (class, verb or free word), for coverage reports."""

    def __init__(self, shape: str):
        super().__init__(shape)
        self.shape = shape


def renders(*classes: type):
    """Decorator: register ``fn(node, **ctx) -> str`` as the renderer of ``classes``."""
    def deco(fn):
        for cls in classes:
            _BY_CLASS[cls] = fn
        return fn
    return deco


def renders_verb(*verbs: str):
    """Decorator: register ``fn(action, **ctx) -> str`` as the renderer of :class:`Action`
    nodes with these verbs (``"draw"``, ``"event:enters"``, ``"condition:control"``)."""
    def deco(fn):
        for v in verbs:
            _BY_VERB[v] = fn
        return fn
    return deco


def renders_verb_prefix(prefix: str):
    """Decorator: register ``fn(action, **ctx) -> str`` for :class:`Action` nodes whose verb starts
    with ``prefix`` (``"event:"``) and has no renderer of its own (:func:`renders_verb`)."""
    def deco(fn):
        _BY_PREFIX[prefix] = fn
        return fn
    return deco


def shape_of(node) -> str:
    """Coverage key of a node: class name, ``Action:<verb>`` for actions."""
    if isinstance(node, A.Action):
        return "Action:" + node.verb
    return type(node).__name__


def render(node, **ctx) -> str:
    """Canonical Oracle text of ``node`` (lower/upper case as Oracle prints it where known).
    ``ctx`` passes the syntactic role down (e.g. ``role="subject"``). Raises NotRendered."""
    _load()
    if node is None:
        raise NotRendered("None")
    if isinstance(node, A.Action):
        fn = _BY_VERB.get(node.verb)
        if fn is None:
            fn = _BY_PREFIX.get(node.verb.split(":", 1)[0] + ":") if ":" in node.verb else None
        if fn is None:
            raise NotRendered(shape_of(node))
        return fn(node, **ctx)
    fn = _BY_CLASS.get(type(node))
    if fn is None:
        raise NotRendered(shape_of(node))
    return fn(node, **ctx)


def extra_keys(action: A.Action, allowed: set[str] | frozenset[str]) -> None:
    """Raise NotRendered when ``action.extra`` holds a key the verb's renderer does not write
    (a renderer that ignored it would claim a round trip for text it did not read)."""
    for k in action.extra:
        if k not in allowed:
            raise NotRendered(f"{shape_of(action)}+{k}")


def cap(text: str) -> str:
    """First letter upper case (a sentence start)."""
    return text[:1].upper() + text[1:]


def uncap(text: str) -> str:
    """First letter lower case (a clause inside a sentence); mana symbols are left alone."""
    return text[:1].lower() + text[1:]


_LOADED = False


def _load() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    # the concept modules register their renderers on import (no import circle: they import
    # this module, this module imports them only here)
    from pipeline.parse import (render_abilities, render_conditions, render_copy, render_costs,  # noqa: F401
                                render_counters, render_digital, render_effects, render_events, render_keywords,
                                render_mana, render_objects, render_replacement, render_restrictions, render_statics,
                                render_tokens, render_triggers, render_zones)


# --------------------------------------------------------------------------- round trip
def canon(text: str) -> str:
    """Comparison form: lower case, whitespace collapsed, no space before ``.``/``,``."""
    out = " ".join(text.lower().split())
    return out.replace(" .", ".").replace(" ,", ",")


def expected_text(ability: A.Ability) -> str:
    """The text an ability's rendering must give back: its normalised line without reminder
    text (the ``reminder`` pieces) and without a flavor word (CR 207.2d, the ``flavor_word``
    piece and the " — " after it), in :func:`canon` form."""
    if ability.pieces:
        out, skip_sep = [], False
        for p in ability.pieces:
            if p.role == "flavor_word":  # CR 207.2d: no rules meaning, like reminder text
                skip_sep = True
                continue
            if p.role != "reminder" and not (skip_sep and p.role == "sep"):
                out.append(p.text)
            skip_sep = False
        return canon("".join(out))
    return canon(ability.normalized)


def render_ability(ability: A.Ability) -> str:
    """Rendered text of one ability line: ``"<ability word> — <body>"`` (CR 207.2c; a keyword
    or CR term heading the ability the same way, segment.prefix_role) or the body (also after a
    flavor word, CR 207.2d). Raises NotRendered."""
    body = render(ability.body)
    if ability.pieces and ability.ability_word and any(
            p.role == "flavor_word" and p.text == ability.ability_word for p in ability.pieces[:2]):
        return body  # a flavor word (CR 207.2d) is not rendered; expected_text leaves it out
    if ability.ability_word:
        if not _is_ability_word(ability.ability_word):
            raise NotRendered("ability_word")
        return f"{ability.ability_word.capitalize()} — {body}"
    return body


def _is_ability_word(word: str) -> bool:
    from pipeline.parse.segment import prefix_role

    return prefix_role(word) == "ability_word"


def first_difference(rendered: str, expected: str, context: int = 6) -> dict:
    """``{"at": word index, "rendered": next words, "expected": next words}`` where the two
    :func:`canon` texts first differ (word by word)."""
    r, e = rendered.split(), expected.split()
    i = 0
    while i < len(r) and i < len(e) and r[i] == e[i]:
        i += 1
    return {"at": i, "rendered": " ".join(r[i:i + context]), "expected": " ".join(e[i:i + context])}


def round_trip(ability: A.Ability) -> tuple[str | None, dict | None]:
    """Render ``ability`` and compare with :func:`expected_text`.

    Returns ``(rendered, mismatch)``: ``rendered`` the canonical text (None when a node has no
    renderer); ``mismatch`` None on a round trip, else ``{"shape": key, "at", "rendered",
    "expected"}`` (``shape``: the node without a renderer, or ``"text"`` when the rendering
    differs; ``at``/``rendered``/``expected``: :func:`first_difference`)."""
    try:
        rendered = render_ability(ability)
    except NotRendered as e:
        return None, {"shape": e.shape}
    except (TypeError, AttributeError, ValueError, KeyError, IndexError) as e:  # a malformed node
        return None, {"shape": f"error:{type(e).__name__}"}
    want = expected_text(ability)
    got = canon(rendered)
    if got == want:
        return rendered, None
    return rendered, {"shape": "text", **first_difference(got, want)}
