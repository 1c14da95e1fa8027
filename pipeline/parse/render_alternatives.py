"""Render an Action from the grammar alternative its structured fields select.

Trigger events (``event:<name>``, CR 603.2) and conditions (``condition:<name>``, CR 603.4, 608.2c)
come from the alternatives of grammar rules aliased ``ev_<name>`` / ``cd_<name>`` / ``cd2_<name>``
(``grammar/triggers.lark``, ``grammar/effects.lark``, ``grammar/conditions.lark``). The AST keeps
which alternative matched in structured fields: the symbols it filled (the subject and further
objects, a zone, a counter kind, a number, type words, ``~``, a nested event or condition, a
duration, a keyword, mana symbols, object post-modifiers) and, when two alternatives with the same
symbols differ in their literal words, those words as the node's ``form``
(:mod:`pipeline.parse.forms`); a comparison with a number ("or more", "or fewer", CR 107.1) and a
negation ("didn't", "isn't") are the fields ``comparison`` / ``negated``. :func:`render_alternative`
selects the grammar alternatives of the aliases whose symbols and distinguishing literal words are
exactly those of the node, and writes the literal words of that alternative with the rendered
symbols in their places. The literal words are a closed vocabulary (the grammar's); nothing reads a
stored text span.

Alternatives that differ only by inflection ("dies"/"die", "is"/"are", "counter"/"counters") are
the same wording; the one whose inflection agrees with the subject is written (a singular subject
takes "dies", "is"; a plural one or "you" takes "die", "are"). When the fields fit alternatives
with different words, the AST lost which one matched: ``NotRendered("…:ambiguous")``.
"""

from __future__ import annotations

from functools import lru_cache

from pipeline.parse import ast as A
from pipeline.parse.forms import norm_word
from pipeline.parse.lexicon import is_counter_kind, is_object_word
from pipeline.parse.render import NotRendered, render
from pipeline.parse.render_objects import ZONES, _stat, article, descriptor, is_plural, number_word, posts, quantity

#: extra keys a grammar alternative accounts for (anything else fails the round trip)
KEYS = frozenset(("objects", "zone", "counter", "words", "form", "comparison", "negated", "event", "cond",
                  "duration", "keywords", "mana", "qualifiers", "or", "color", "how", "step"))
#: literal words that the transformer reads into ``comparison``/``negated`` instead of the form
_MORE = frozenset(("more", "greater", "higher"))
_LESS = frozenset(("less", "fewer", "lower"))
_NEG = frozenset(("don't", "didn't", "doesn't", "isn't", "wasn't", "aren't", "weren't", "hasn't",
                  "haven't", "not", "never"))
_SING = frozenset(("is", "was", "has", "isn't", "wasn't", "doesn't", "hasn't"))
_PLUR = frozenset(("are", "were", "have", "aren't", "weren't", "don't", "haven't"))
#: nouns among the rules' literal words: their "-s" form is the plural, not a verb's third person
#: ("a +1/+1 counter is put" / "two counters are put")
_NOUNS = frozenset(("counter", "card", "creature", "permanent", "spell", "token", "player", "opponent", "land"))
#: literal words after which a number is written in digits ("becomes level 3", "a natural 20",
#: "total power 8 or greater", "mana value 3"; CR 107.1: damage, life, P/T in digits)
_DIGITS_AFTER = frozenset(("level", "natural", "a", "power", "toughness", "value", "x", "exactly", "expend",
                           "expends"))
_DIGITS_BEFORE = frozenset(("damage", "life"))
#: word-class terminals (the lexer's closed classes, CR 105 colors, CR 205 types) held in ``words``
_WORD_TERMS = frozenset(("COLOR", "CARDTYPE", "SUPERTYPE", "SUBTYPE"))
#: symbols an alternative may hold; ``posts``: a repetition of ``obj_post`` (its helper rule)
_SYMS = frozenset(("obj", "zone", "counter_kind", "number", "count", "quantity", "SELF", "dwords", "dlist",
                   "event", "cond", "duration", "keyword_simple", "mana_syms", "ORV", "posts", "dl_sep",
                   "stat_word", "this_way_verb", "step_time")) | _WORD_TERMS
#: participles of grammar rule ``this_way_verb`` ("if a creature card is milled this way", CR 608.2c);
#: other values of ``extra.how`` name the literal wording of their alternative ("put_into", "returned")
_THIS_WAY = frozenset(("countered", "revealed", "exiled", "discarded", "milled", "sacrificed", "destroyed",
                       "returned", "tapped", "chosen", "drawn"))
#: comparison words by comparator and context (CR 107.1): "3 or less life", "power 4 or greater",
#: "seven or more cards", "two or fewer cards" — the grammar reads them as one comparator
_CMP_CANON = {("stat", ">="): "greater", ("stat", "<="): "less", ("life", ">="): "more", ("life", "<="): "less",
              ("count", ">="): "more", ("count", "<="): "fewer"}
_STAT_BEFORE = frozenset(("power", "toughness", "value", "loyalty", "is", "was"))
_AMOUNT_SYMS = frozenset(("number", "count", "quantity"))


@lru_cache(maxsize=1)
def _grammar():
    """(alias → its alternatives, each a tuple of ``("lit", word)`` / ``("sym", name)``; the
    ``obj_post`` repetition helper rules are the symbol ``posts``)."""
    from pipeline.parse.forms import literal_table
    from pipeline.parse.grammar import get_parser

    parser = get_parser()
    table = literal_table()
    lit = {t.name: t.pattern.value for t in parser.terminals if t.name in table.literal_types}
    lit["DEALTTO"] = "dealt"  # the lexer's lookahead terminal of the word "dealt" (conditions.lark)
    post_helpers = set()
    for r in parser.rules:
        names = [s.name for s in r.expansion]
        if r.origin.name.startswith("__") and names and names[-1] == "obj_post" \
                and all(n in ("obj_post", r.origin.name) for n in names):
            post_helpers.add(r.origin.name)
    out: dict[str, list] = {}
    for r in parser.rules:
        if r.alias and str(r.alias).startswith(("ev_", "cd_", "cd2_")):
            seq = tuple(("lit", lit[s.name]) if s.name in lit
                        else ("sym", "posts" if s.name in post_helpers else s.name) for s in r.expansion)
            out.setdefault(str(r.alias), []).append(seq)
    return out


def alternatives(alias: str) -> list:
    """The grammar alternatives of rule alias ``alias`` (``[]`` when there is none)."""
    return _grammar().get(alias, [])


def _distinguishing(alias: str) -> frozenset:
    from pipeline.parse.forms import literal_table

    return literal_table().dist(alias) or frozenset()


def _comparison(words: list[str]) -> str | None:
    for i, w in enumerate(words):
        nxt = words[i + 1] if i + 1 < len(words) else ""
        prev = words[i - 1] if i else ""
        if w in _MORE and prev == "or":
            return ">="
        if w in _LESS and prev == "or":
            return "<="
        if w in _MORE and nxt == "than" and prev != "no":
            return ">=" if words[i + 2:i + 5] == A.OR_EQUAL_TO else ">"  # "greater than or equal to"
        if w in _LESS and nxt == "than":
            return "<=" if words[i + 2:i + 5] == A.OR_EQUAL_TO else "<"
        if w == "exactly":
            return "="
    return None


def _form_words(seq, dist, literals, keep_neg: bool = False) -> set[str]:
    """The words of alternative ``seq`` that the transformer would keep as its form (a condition
    keeps its negation word there too: ``keep_neg``, transform_conditions ``_cond_action``)."""
    words = [w for k, w in seq if k == "lit"]
    consumed: set[str] = set()
    cmp = _comparison(words)
    if cmp is not None:
        i, w = next((i, x) for i, x in enumerate(words) if x in _MORE | _LESS | {"exactly"})
        consumed |= {w, "or", "than"} if w != "exactly" else {w}
        if words[i + 1:i + 2] == ["than"] and words[i + 2:i + 5] == A.OR_EQUAL_TO:
            consumed |= set(A.OR_EQUAL_TO)
    if not keep_neg:
        consumed |= {w for w in words if w in _NEG}
    return {norm_word(w, literals) for w in words if w not in consumed} & dist


def _objects(a: A.Action) -> list:
    return ([a.obj] if a.obj is not None else []) + list(a.extra.get("objects") or [])


def _split_words(a: A.Action, syms: list[str]):
    """``(zone, self_count, rest)``: the zone, the number of ``~`` and the type words of ``a``."""
    words = list(a.extra.get("words") or [])
    if isinstance(a.extra.get("color"), str):  # statics.lark cd_is_color keeps its COLOR apart
        words.append(a.extra["color"])
    zone = a.extra.get("zone")
    if zone is None and "zone" in syms:
        zs = [w for w in words if w in ZONES]
        zone = zs[0] if len(zs) == 1 else None
    rest = [w for w in words if w != "~" and w not in ZONES]
    return zone, words.count("~"), rest


def _fits(a: A.Action, seq, dist, literals) -> bool:
    """Does alternative ``seq`` hold exactly the structured fields of ``a``?"""
    syms = [s for k, s in seq if k == "sym"]
    if any(s not in _SYMS for s in syms):
        return False
    if syms.count("obj") != len(_objects(a)):
        return False
    n_amount = sum(1 for s in syms if s in _AMOUNT_SYMS)
    if (a.amount is not None) != (n_amount == 1) or n_amount > 1:
        return False
    for key, sym in (("counter", "counter_kind"), ("event", "event"), ("cond", "cond"), ("duration", "duration"),
                     ("keywords", "keyword_simple"), ("mana", "mana_syms"), ("or", "ORV"), ("step", "step_time")):
        if (key in a.extra) != (sym in syms):
            return False
    how = a.extra.get("how")
    if ("this_way_verb" in syms) != (how in _THIS_WAY and "this_way_verb" in syms):
        return False
    if "this_way_verb" not in syms and how in _THIS_WAY and how not in ("returned",):
        return False
    stats, quals = _qualifiers(a)
    if len(stats) != syms.count("stat_word") or bool(quals) != ("posts" in syms):
        return False
    if "dl_sep" in syms and syms.count("dwords") + syms.count("dlist") != 2:
        return False
    zone, n_self, rest = _split_words(a, syms)
    if ("zone" in syms) != (zone is not None):
        return False
    if n_self != syms.count("SELF"):
        return False
    n_terms = sum(1 for s in syms if s in _WORD_TERMS)
    has_list = ("dwords" in syms) or ("dlist" in syms)
    if n_terms and has_list:
        return False
    if n_terms and len(rest) != n_terms:
        return False
    if not n_terms and bool(rest) != has_list:
        return False
    lits = [w for k, w in seq if k == "lit"]
    if bool(a.extra.get("negated")) != any(w in _NEG for w in lits):
        return False
    cmp = a.extra.get("comparison")
    want = _comparison(lits)
    if (cmp is None) != (want is None) or (cmp is not None and cmp.comparator != want):
        return False
    form = {norm_word(w, literals) for w in (a.extra.get("form") or [])}
    return form == _form_words(seq, dist, literals, a.verb.startswith("condition:")) - _covered(a)


def _qualifiers(a: A.Action) -> tuple[list[str], list[str]]:
    """``(stats, others)``: the ``stat:<characteristic>`` qualifiers (grammar ``stat_word``, "its
    power", CR 208) and the object post-modifiers of ``a``'s type words."""
    quals = list(a.extra.get("qualifiers") or [])
    return [q for q in quals if q.startswith("stat:")], [q for q in quals if not q.startswith("stat:")]


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


#: "the result is 1", "X is 5 or more", "its power is 4 or greater", "~'s power was 2 or less": a die
#: result, X, a number or a characteristic (a ``stat_word`` after "its"/"'s") compared is written in
#: digits (CR 107.1; the literal word before "is"/"was")
_DIGIT_SUBJECTS = frozenset(("result", "x", "number", "its", "their", "'s"))


def _number(amount: A.Amount, prev: str, nxt: str, prev2: str = "") -> str:
    if amount is None:
        raise NotRendered("Amount:None")
    if amount.kind == "x" and amount.variable and amount.ref is None:
        return amount.variable
    if amount.kind != "fixed" or amount.value is None or amount.ref is not None:
        raise NotRendered(f"Amount:{amount.kind}")
    if prev in _DIGITS_AFTER or nxt in _DIGITS_BEFORE or (prev in ("is", "was") and prev2 in _DIGIT_SUBJECTS):
        return str(amount.value)
    return number_word(amount.value)


def _write(a: A.Action, seq) -> str:
    syms = [s for k, s in seq if k == "sym"]
    objs = _objects(a)
    zone, _, rest = _split_words(a, syms)
    stats = _qualifiers(a)[0]
    out: list[str] = []
    lits = [w for k, w in seq if k == "lit"]
    n_lit = 0
    skip_list = False
    last = ""
    for j, (k, s) in enumerate(seq):
        prev_sym, last = last, s if k == "sym" else ""
        if k == "lit" and s in ("a", "an") and j + 1 < len(seq) and seq[j + 1][0] == "sym":
            out.append("__article__")  # "it's an artifact": "a"/"an" (one literal) by the next word
            n_lit += 1
            continue
        if k == "lit":
            if s.startswith("'") or s in (",", "."):
                if not out:
                    raise NotRendered("alternative:punctuation")
                out[-1] += s
            else:
                out.append(s)
            n_lit += 1
            continue
        prev = lits[n_lit - 1] if n_lit else ""
        if prev_sym == "stat_word":
            prev = "power"  # "has mana value 2 or less": a characteristic's value in digits
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
                raise NotRendered("alternative:zone")
            out.append(ZONES[zone])
        elif s == "counter_kind":
            kind = a.extra["counter"]
            if not is_counter_kind(kind):
                raise NotRendered("event:counter_kind")
            out.append(kind)
        elif s == "number":
            out.append(_number(a.amount, prev, nxt, lits[n_lit - 2] if n_lit >= 2 else ""))
        elif s == "quantity":
            out.append(quantity(a.amount))
        elif s == "count":
            amt = a.amount
            if amt is not None and amt.kind == "fixed" and amt.value == 1 and amt.ref is None:
                out.append("__article__")
            else:
                out.append(_number(amt, prev, nxt))
        elif s in _WORD_TERMS:
            w = rest.pop(0)
            if not is_object_word(w):
                raise NotRendered("alternative:words")
            out.append(w)
        elif s in ("dwords", "dlist", "dl_sep"):
            if skip_list:  # "instant and/or sorcery cards": one list over dwords dl_sep dlist
                continue
            if not all(is_object_word(w) or w in ("or", "and", "and/or") for w in rest):
                raise NotRendered("alternative:words")
            out.append(descriptor(rest))
            skip_list = "dl_sep" in syms
        elif s == "posts":
            # a counted object is "in" a zone ("five or more cards in your graveyard"; the grammar
            # reads "in"/"from" as one word)
            out.extend(posts(_qualifiers(a)[1], rest, prep="in"))
        elif s == "this_way_verb":
            out.append(a.extra["how"])
        elif s == "stat_word":
            out.append(_stat(stats.pop(0)))
        elif s == "keyword_simple":
            kws = a.extra["keywords"]
            if len(kws) != 1:
                raise NotRendered("alternative:keywords")
            out.append(render(kws[0]))
        elif s == "mana_syms":
            from pipeline.parse.render_mana import symbols

            out.append(symbols(a.extra["mana"]))
        elif s in ("event", "cond", "duration"):
            out.append(render(a.extra[s]))
        elif s == "step_time":  # "… or at the beginning of your upkeep": the event:step Action
            out.append(render(a.extra["step"]))
        else:  # pragma: no cover - _fits admits only the symbols above
            raise NotRendered(f"alternative:{s}")
    for i, w in enumerate(out):
        if w == "__article__":
            out[i] = article(out[i + 1]) if i + 1 < len(out) else "a"
    return " ".join(out)


def _cmp_score(seq) -> int:
    """1 when the comparison word of alternative ``seq`` is the canonical one for its context
    (:data:`_CMP_CANON`: a characteristic, life, or a count of objects), else 0."""
    items = [w if k == "lit" else "<" + w + ">" for k, w in seq]
    for i, w in enumerate(items):
        if w in _MORE | _LESS and i >= 2 and items[i - 1] == "or":
            before = items[i - 3] if i >= 3 else ""
            after = items[i + 1] if i + 1 < len(items) else ""
            ctx = "stat" if before in _STAT_BEFORE or before == "<stat_word>" else "life" if after == "life" else "count"
            if before == "is" and i >= 4 and items[i - 4] == "x":
                ctx = "count"  # "if X is 5 or more" (Oracle's wording of X compared, CR 107.3)
            cmp = ">=" if w in _MORE else "<="
            return int(_CMP_CANON[(ctx, cmp)] == w)
    return 0


def _variant_key(seq, literals) -> tuple:
    """An alternative up to inflection: its literal words normalised (:func:`norm_word`), with
    the symbols in their places (``dwords``/``dlist`` as one; two lists joined by ``dl_sep`` as
    one list: the words hold the separator)."""
    out: list = []
    for k, w in seq:
        if k == "lit" and w in _MORE | _LESS:
            out.append("<more>" if w in _MORE else "<less>")  # one comparator (CR 107.1), _cmp_score
        elif k == "lit":
            out.append(norm_word(w, literals))
        elif w in ("dwords", "dlist", "dl_sep", "quant"):
            if out[-1:] != ["dlist"]:
                out.append("dlist")
        else:
            out.append(w)
    return tuple(out)


def render_alternative(a: A.Action, aliases: tuple[str, ...]) -> str:
    """Text of Action ``a`` in the wording of the one alternative of the grammar rules ``aliases``
    (e.g. ``("cd_there_are", "cd2_there_are")``) that holds exactly its fields (module docstring).
    Raises NotRendered (shape ``Action:<verb>+<key>`` for an extra key no alternative holds,
    ``Action:<verb>:alternative`` when none fits, ``Action:<verb>:ambiguous`` when alternatives
    with different words fit)."""
    for k in a.extra:
        if k not in KEYS:
            raise NotRendered(f"Action:{a.verb}+{k}")
    if a.subject is not None:
        raise NotRendered(f"Action:{a.verb}+subject")
    from pipeline.parse.forms import literal_table

    literals = literal_table().literals
    fits = []
    for alias in aliases:
        dist = _distinguishing(alias)
        fits += [s for s in alternatives(alias) if _fits(a, s, dist, literals)]
    if not any(alternatives(alias) for alias in aliases):
        raise NotRendered(f"Action:{a.verb}")
    if not fits:
        raise NotRendered(f"Action:{a.verb}:alternative")
    key = _variant_key(fits[0], literals)
    if any(_variant_key(f, literals) != key for f in fits[1:]):
        # the node's fields fit alternatives with different words: the AST lost which one matched
        raise NotRendered(f"Action:{a.verb}:ambiguous")
    plural = _subject_plural(a, fits[0])
    best = max(fits, key=lambda s: (_cmp_score(s), _agreement(s, fits, plural)))  # max keeps the first of equals
    return _write(a, best)
