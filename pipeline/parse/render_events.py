"""Trigger events (CR 603.2) rendered from the grammar's own wording of each event rule.

An event Action (``event:<name>``) comes from one of the alternatives of the grammar rule aliased
``ev_<name>`` (``grammar/triggers.lark``, ``grammar/conditions.lark``, …). The AST keeps which
alternative matched in structured fields: the symbols it filled (the subject and further objects,
a zone, a counter kind, a number, type words, ``~``, a nested event) and, when two alternatives
with the same symbols differ in their literal words, those words as the node's ``form``
(:mod:`pipeline.parse.forms`). This module turns that back into text: it selects the grammar
alternatives of the alias whose symbols and distinguishing literal words are exactly those of the
node, and writes the literal words of that alternative with the rendered symbols in their places.
The literal words are a closed vocabulary (the grammar's); the renderer never reads a stored
text span.

Alternatives that differ only by inflection ("dies"/"die", "is"/"are", "counter"/"counters") are
the same event; the one whose inflection agrees with the subject is written (a singular subject
takes "dies", "is"; a plural one or "you" takes "die", "are").
"""

from __future__ import annotations

from functools import lru_cache

from pipeline.parse import ast as A
from pipeline.parse.forms import norm_word
from pipeline.parse.lexicon import is_counter_kind, is_object_word
from pipeline.parse.render import NotRendered, render, renders_verb_prefix
from pipeline.parse.render_objects import ZONES, article, descriptor, is_plural, number_word

#: extra keys a grammar alternative accounts for (anything else fails the round trip)
_KEYS = frozenset(("objects", "zone", "counter", "words", "form", "comparison", "negated", "event"))
#: literal words that the transformer reads into ``comparison``/``negated`` instead of the form
_MORE = frozenset(("more", "greater", "higher"))
_LESS = frozenset(("less", "fewer", "lower"))
_NEG = frozenset(("don't", "didn't", "doesn't", "isn't", "wasn't", "aren't", "weren't", "hasn't",
                  "haven't", "not", "never"))
_SING = frozenset(("is", "was", "has", "isn't", "wasn't", "doesn't", "hasn't"))
_PLUR = frozenset(("are", "were", "have", "aren't", "weren't", "don't", "haven't"))
#: nouns among the event rules' literal words: their "-s" form is the plural, not a verb's
#: third person ("a +1/+1 counter is put" / "two counters are put")
_NOUNS = frozenset(("counter", "card", "creature", "permanent", "spell", "token", "player", "opponent", "land"))
#: literal words after which a number is written in digits ("becomes level 3", "a natural 20")
_DIGITS_AFTER = frozenset(("level", "natural", "a"))
_DIGITS_BEFORE = frozenset(("damage", "life"))
_SYMS = frozenset(("obj", "zone", "counter_kind", "number", "count", "SELF", "dwords", "dlist", "event", "ORV"))


@lru_cache(maxsize=1)
def _alternatives() -> dict[str, list[tuple[tuple[str, str], ...]]]:
    """alias → its grammar alternatives, each a tuple of ``("lit", word)`` / ``("sym", name)``."""
    from pipeline.parse.forms import literal_table
    from pipeline.parse.grammar import get_parser

    parser = get_parser()
    table = literal_table()
    lit = {t.name: t.pattern.value for t in parser.terminals if t.name in table.literal_types}
    out: dict[str, list] = {}
    for r in parser.rules:
        if r.alias and str(r.alias).startswith("ev_"):
            seq = tuple(("lit", lit[s.name]) if s.name in lit else ("sym", s.name) for s in r.expansion)
            out.setdefault(str(r.alias), []).append(seq)
    return out


@lru_cache(maxsize=1)
def _periods() -> frozenset[str]:
    """The wordings of grammar rule ``ev2_period`` ("your turn", "an opponent's turn", …)."""
    from pipeline.parse.forms import literal_table
    from pipeline.parse.grammar import get_parser

    parser = get_parser()
    lit = {t.name: t.pattern.value for t in parser.terminals if t.name in literal_table().literal_types}
    out = set()
    for r in parser.rules:
        if r.origin.name == "ev2_period" and all(x.name in lit for x in r.expansion):
            out.add(" ".join(lit[x.name] for x in r.expansion).replace(" '", "'"))
    return frozenset(out)


def _distinguishing(alias: str) -> frozenset:
    from pipeline.parse.forms import literal_table

    return literal_table().distinguishing.get(alias, frozenset())


def _comparison(words: list[str]) -> str | None:
    for i, w in enumerate(words):
        nxt = words[i + 1] if i + 1 < len(words) else ""
        prev = words[i - 1] if i else ""
        if w in _MORE and prev == "or":
            return ">="
        if w in _LESS and prev == "or":
            return "<="
        if w in _MORE and nxt == "than" and prev != "no":
            return ">"
        if w in _LESS and nxt == "than":
            return "<"
        if w == "exactly":
            return "="
    return None


def _form_words(seq, dist, literals) -> set[str]:
    """The words of alternative ``seq`` that the transformer would keep as its form."""
    words = [w for k, w in seq if k == "lit"]
    consumed: set[str] = set()
    cmp = _comparison(words)
    if cmp is not None:
        w = next(x for x in words if x in _MORE | _LESS | {"exactly"})
        consumed |= {w, "or", "than"} if w != "exactly" else {w}
    consumed |= {w for w in words if w in _NEG}
    return {norm_word(w, literals) for w in words if w not in consumed} & dist


def _fits(a: A.Action, seq, dist, literals) -> bool:
    """Does alternative ``seq`` hold exactly the structured fields of event ``a``?"""
    syms = [s for k, s in seq if k == "sym"]
    if any(s not in _SYMS for s in syms):
        return False
    objs = ([a.obj] if a.obj is not None else []) + list(a.extra.get("objects") or [])
    if syms.count("obj") != len(objs):
        return False
    if (a.amount is not None) != (("number" in syms) or ("count" in syms)) or syms.count("number") + syms.count("count") > 1:
        return False
    if ("counter" in a.extra) != ("counter_kind" in syms):
        return False
    if ("event" in a.extra) != ("event" in syms):
        return False
    words = [w for w in (a.extra.get("words") or [])]
    zone = a.extra.get("zone")
    if "zone" in syms:
        if zone is None and sum(1 for w in words if w in ZONES) != 1:
            return False
    elif zone is not None:
        return False
    n_self = syms.count("SELF")
    rest_words = [w for w in words if w != "~" and w not in ZONES]
    if sum(1 for w in words if w == "~") != n_self:
        return False
    if bool(rest_words) != (("dwords" in syms) or ("dlist" in syms)):
        return False
    lits = [w for k, w in seq if k == "lit"]
    if bool(a.extra.get("negated")) != any(w in _NEG for w in lits):
        return False
    cmp = a.extra.get("comparison")
    want = _comparison(lits)
    if (cmp is None) != (want is None) or (cmp is not None and cmp.comparator != want):
        return False
    form = {norm_word(w, literals) for w in (a.extra.get("form") or [])}
    return form == _form_words(seq, dist, literals) - _covered(a)


def _covered(a: A.Action) -> set[str]:
    """Words the transformer leaves out of a form because a field already holds them
    (``transform._with_form``): type words, words of string values (a zone "your_graveyard"
    covers "your"), keys of True flags."""
    out = set(a.extra.get("words") or ())
    for k, v in a.extra.items():
        if k == "form":
            continue
        if isinstance(v, str):
            out.update(v.lower().replace("_", " ").split())
        elif v is True:
            out.update(k.split("_"))
    return out


def _agreement(seq, others, plural: bool) -> int:
    """How well the inflected literal words of ``seq`` agree with a subject (higher is better):
    singular subjects take "dies"/"is", plural ones "die"/"are"."""
    score = 0
    lits = [w for k, w in seq if k == "lit"]
    for o in others:
        ol = [w for k, w in o if k == "lit"]
        if len(ol) != len(lits):
            continue
        for w, x in zip(lits, ol):
            if w == x:
                continue
            sing = w in _SING or (x in _PLUR) or w in (x + "s", x + "es") or (x.endswith("y") and w == x[:-1] + "ies")
            plur = w in _PLUR or (x in _SING) or x in (w + "s", w + "es") or (w.endswith("y") and x == w[:-1] + "ies")
            if w.rstrip("s") in _NOUNS or x.rstrip("s") in _NOUNS:  # a noun's "-s" is its plural
                sing, plur = plur, sing
            if sing:
                score += -1 if plural else 1
            elif plur:
                score += 1 if plural else -1
    return score


def _subject_plural(a: A.Action, seq) -> bool:
    first = next((s for k, s in seq if k == "sym"), None)
    if seq and seq[0] == ("sym", "obj") and a.obj is not None:
        return a.obj.quantifier == "you" or is_plural(a.obj) or a.obj.quantifier == "n_or_more"
    if first in ("number", "count") and seq[0][0] == "sym" and a.amount is not None:
        return a.extra.get("comparison") is not None or (a.amount.value or 0) > 1
    return False


def _number(amount: A.Amount, prev: str, nxt: str) -> str:
    if amount is None:
        raise NotRendered("Amount:None")
    if amount.kind == "x" and amount.variable and amount.ref is None:
        return amount.variable
    if amount.kind != "fixed" or amount.value is None or amount.ref is not None:
        raise NotRendered(f"Amount:{amount.kind}")
    if prev in _DIGITS_AFTER or nxt in _DIGITS_BEFORE:
        return str(amount.value)
    return number_word(amount.value)


def _write(a: A.Action, seq) -> str:
    objs = ([a.obj] if a.obj is not None else []) + list(a.extra.get("objects") or [])
    words = list(a.extra.get("words") or [])
    zone = a.extra.get("zone")
    if zone is None and "zone" in (s for k, s in seq if k == "sym"):
        zone = next(w for w in words if w in ZONES)
    rest = [w for w in words if w != "~" and w not in ZONES]
    out: list[str] = []
    lits = [w for k, w in seq if k == "lit"]
    n_lit = 0
    for i, (k, s) in enumerate(seq):
        if k == "lit":
            if s.startswith("'") or s in (",", "."):
                if not out:
                    raise NotRendered("event:punctuation")
                out[-1] += s
            else:
                out.append(s)
            n_lit += 1
            continue
        prev = lits[n_lit - 1] if n_lit else ""
        nxt = next((w for w in lits[n_lit:] if w not in ("or", "more", "greater", "less", "fewer")), "")
        if s == "obj":
            o = objs.pop(0)
            out.append(render(o, role="subject" if not out else "object"))
        elif s == "SELF":
            out.append("~")
        elif s == "ORV":
            out.append("or")
        elif s == "zone":
            if zone not in ZONES:
                raise NotRendered("event:zone")
            out.append(ZONES[zone])
        elif s == "counter_kind":
            kind = a.extra["counter"]
            if not is_counter_kind(kind):
                raise NotRendered("event:counter_kind")
            out.append(kind)
        elif s == "number":
            out.append(_number(a.amount, prev, nxt))
        elif s == "count":
            amt = a.amount
            if amt is not None and amt.kind == "fixed" and amt.value == 1 and amt.ref is None:
                out.append("__article__")
            else:
                out.append(_number(amt, prev, nxt))
        elif s in ("dwords", "dlist"):
            if not all(is_object_word(w) or w in ("or", "and", "and/or") for w in rest):
                raise NotRendered("event:words")
            out.append(descriptor(rest))
        elif s == "event":
            out.append(render(a.extra["event"]))
        else:  # pragma: no cover - _fits admits only the symbols above
            raise NotRendered(f"event:{s}")
    for i, w in enumerate(out):
        if w == "__article__":
            out[i] = article(out[i + 1]) if i + 1 < len(out) else "a"
    return " ".join(out)


def _variant_key(seq, literals) -> tuple:
    """An alternative up to inflection: its literal words normalised (:func:`norm_word`), with
    the symbols in their places (``dwords``/``dlist`` as one)."""
    return tuple(norm_word(w, literals) if k == "lit" else ("dlist" if w == "dwords" else w) for k, w in seq)


_SUFFIX = {"first_time_each_turn": "for the first time each turn", "during_your_turn": "during your turn",
           "while_saddled": "while saddled"}


@renders_verb_prefix("event:")
def render_event(a: A.Action, **_) -> str:
    """Render a trigger event Action (``event:<name>``) with the wording of the grammar
    alternative its fields select (module docstring). ``extra["when"]`` ("… for the first time
    each turn", "… during your turn", CR 603.2) follows the event. Raises NotRendered when no
    alternative holds exactly the node's fields."""
    if not a.verb.startswith("event:"):
        raise NotRendered(f"Action:{a.verb}")
    when = a.extra.get("when")
    if when is not None:
        if when not in _SUFFIX or "while" in a.extra:
            raise NotRendered(f"Action:{a.verb}+when")
        inner = A.Action(a.verb, obj=a.obj, amount=a.amount,
                         extra={k: v for k, v in a.extra.items() if k != "when"}, text="")
        return render_event(inner) + " " + _SUFFIX[when]
    if a.verb == "event:cast" and "during" in a.extra and "or_event" not in a.extra:
        # "Whenever you cast a spell during your turn" (conditions.lark ev_cast_during): the period
        # is one of the closed wordings of rule ev2_period
        period = a.extra["during"]
        if period not in _periods():
            raise NotRendered("Action:event:cast+during")
        inner = A.Action(a.verb, obj=a.obj, amount=a.amount,
                         extra={k: v for k, v in a.extra.items() if k != "during"}, text="")
        return render_event(inner) + " during " + period
    for k in a.extra:
        if k not in _KEYS:
            raise NotRendered(f"Action:{a.verb}+{k}")
    alias = "ev_" + a.verb.split(":", 1)[1]
    alts = _alternatives().get(alias)
    if not alts:
        raise NotRendered(f"Action:{a.verb}")
    from pipeline.parse.forms import literal_table

    literals = literal_table().literals
    dist = _distinguishing(alias)
    fits = [s for s in alts if _fits(a, s, dist, literals)]
    if not fits:
        raise NotRendered(f"Action:{a.verb}:alternative")
    key = _variant_key(fits[0], literals)
    if any(_variant_key(f, literals) != key for f in fits[1:]):
        # the node's fields fit alternatives with different words: the AST lost which one matched
        raise NotRendered(f"Action:{a.verb}:ambiguous")
    plural = _subject_plural(a, fits[0])
    best = max(fits, key=lambda s: _agreement(s, fits, plural))  # max keeps the first of equals
    return _write(a, best)
