"""Lark Transformer: parse trees of ``grammar/*.lark`` → typed nodes of :mod:`pipeline.parse.ast`.

One transformer instance per parsed segment (it needs the segment text to slice spans).
Rules are mapped by name prefix: ``a_*`` → :class:`Action`, ``ev_*`` → event Action,
``c_*`` (costs) → cost components, ``kw_*`` → :class:`Keyword`, ``cp_*`` → :class:`CopyEffect`,
``aw_*``/``mk_*``/``at_*`` → :class:`AddMana` parts. ``REST`` (an opaque remainder) becomes
:class:`Unparsed` unless the rule gives it a meaning (a spend restriction, a name).
"""

from __future__ import annotations

import re

from lark import Token, v_args

from pipeline.parse import ast as A
from pipeline.parse.cached_transformer import CachedTransformer
from pipeline.parse.children import first_of as _first
from pipeline.parse.forms import is_word, literal_table, norm_word
from pipeline.parse.qualifiers import FormStr as _FormStr, RefStr as _RefStr, quals as _quals, ref_post, take_posts
from pipeline.parse.transform_conditions import ZONES as _ZONES, ConditionRules
from pipeline.parse.transform_copy import CopyRules
from pipeline.parse.transform_costs import CostRules
from pipeline.parse.transform_counters import CounterRules, _Counter
from pipeline.parse.transform_effects import EffectRules, share_zone
from pipeline.parse.transform_digital import DigitalRules, is_perpetual, mark_perpetual
from pipeline.parse.transform_keywords import KeywordRules, quality_obj
from pipeline.parse.transform_mana import ManaRules
from pipeline.parse.transform_objects import ObjectRules
from pipeline.parse.transform_replacement import ReplacementRules, as_enters
from pipeline.parse.transform_statics import StaticRules
from pipeline.parse.transform_tokens import TokenRules
from pipeline.parse.transform_zones import ZoneRules

_NUMWORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty".split())}

_COLORS = "WUBRG"


def mana_symbol(raw: str) -> A.ManaSymbol:
    """Classify one ``{…}`` symbol (CR 107.4). ``raw`` any case; returned upper case."""
    raw = raw.upper()
    body = raw[1:-1]
    parts = body.split("/")
    colors = [p for p in parts if p in _COLORS]
    if body.isdigit():
        return A.ManaSymbol(raw, "generic", [], int(body))
    if body in _COLORS:
        return A.ManaSymbol(raw, "colored", [body])
    if body == "C":
        return A.ManaSymbol(raw, "colorless")
    if body == "S":
        return A.ManaSymbol(raw, "snow")
    if body in ("X", "Y", "Z"):
        return A.ManaSymbol(raw, "x")
    if body == "T":
        return A.ManaSymbol(raw, "tap")
    if body == "Q":
        return A.ManaSymbol(raw, "untap")
    if body == "E":
        return A.ManaSymbol(raw, "energy")
    if body.startswith("H") and body[1:] in _COLORS:
        return A.ManaSymbol(raw, "half", [body[1:]])
    if len(parts) == 2 and parts[1] == "P" and parts[0] in _COLORS + "C":
        return A.ManaSymbol(raw, "phyrexian", colors)
    if len(parts) == 3 and parts[2] == "P":
        return A.ManaSymbol(raw, "hybrid_phyrexian", colors)
    if len(parts) == 2 and parts[0].isdigit() and parts[1] in _COLORS:
        return A.ManaSymbol(raw, "twobrid", colors, int(parts[0]))
    if len(parts) == 2 and all(p in _COLORS + "C" for p in parts):
        return A.ManaSymbol(raw, "hybrid", colors)
    return A.ManaSymbol(raw, "other", colors)


def _nodes(children, cls=A.Node):
    return [c for c in children if isinstance(c, cls)]


def _flat_syms(children) -> list[A.ManaSymbol]:
    out = []
    for c in children:
        if isinstance(c, list) and c and isinstance(c[0], A.ManaSymbol):
            out.extend(c)
    return out


@v_args(meta=True)
class ToAst(CostRules, ManaRules, CounterRules, CopyRules, EffectRules, DigitalRules, ZoneRules, TokenRules, ObjectRules, KeywordRules, ReplacementRules,
            StaticRules, ConditionRules, CachedTransformer):
    """Transform one parse tree of ``text`` (the lower-cased segment) given ``orig`` (the
    same segment in original case, same length) into AST nodes."""

    dynamic_prefixes = ("o_",)  # object bases made by __getattr__ (CachedTransformer looks them up each time)

    def __init__(self, text: str, orig: str, parse_quoted=None):
        super().__init__()
        self.text = text
        self.orig = orig
        self.parse_quoted = parse_quoted

    # ------------------------------------------------------------------ named alternatives
    def _call_userfunc(self, tree, new_children=None):
        """Call the rule's callback with the literal tokens taken out of its children (the parser
        keeps them, pipeline/parse/forms.py); they stay in ``self._lits`` (normalised words) for
        the callback, and when the rule's alternatives collapse, the words that tell them apart
        become the result's form (:meth:`_with_form`) unless the callback set ``self._form_used``
        (it encoded them in fields of its own)."""
        table = literal_table()
        children = new_children if new_children is not None else tree.children
        kept, raw = [], []
        for c in children:
            if isinstance(c, Token) and (c.type in table.literal_types or (c.type == "REST" and c.value == "rest")):
                # (Lark names the literal "rest" — "the rest" — after the declared REST terminal)
                if is_word(c.value):
                    raw.append(c.value)
            else:
                kept.append(c)
        lits = [norm_word(w, table.literals) for w in raw]
        self._lits, self._raw_lits, self._form_used, self._consumed = lits, raw, False, set()
        res = super()._call_userfunc(tree, kept)
        if raw and isinstance(res, A.Node) and "_verb" not in res.__dict__ and str(tree.data).startswith("a_"):
            res.__dict__["_verb"] = raw[0]  # the verb as written: "gains" joins a predicate (clause_list)
        dist = table.dist(str(tree.data))
        if dist is not None and not self._form_used:
            form = [w for w in lits if w in dist and w not in self._consumed]
            if form:
                res = _with_form(res, form)
        return res

    # ------------------------------------------------------------------ helpers
    def _t(self, meta) -> str:
        if getattr(meta, "empty", True):
            return ""
        return self.orig[meta.start_pos:meta.end_pos]

    def _low(self, meta) -> str:
        return self._t(meta).lower()

    def __default__(self, data, children, meta):
        name = str(data)
        text = self._t(meta)
        if name.startswith(("a_", "ev_")):
            return self._action(name, children, text)
        if name.startswith("start_"):
            return children[0] if len(children) == 1 else children
        kids = [c for c in children if not isinstance(c, Token)]
        if len(kids) == 1 and not text:
            return kids[0]
        if name.startswith(("dt_", "lead_")) or not kids:
            return A.Text(text)
        return _Generic(name, kids, text)

    def _action(self, name, children, text):
        verb = name.split("_", 1)[1]
        objs = _nodes(children, A.Obj)
        amount = _first(children, A.Amount)
        extra = {}
        other = [c for c in children if isinstance(c, (A.Node, _Generic)) and not isinstance(c, (A.Obj, A.Amount))]
        if len(objs) > 1:
            extra["objects"] = objs[1:]
        for c in other:
            key = type(c).__name__.lower()
            if isinstance(c, _Generic):
                key = c.name
                c = c.as_node()
            extra.setdefault(key, c)
        for c in children:
            if isinstance(c, Token) and c.type in ("PT", "QUOTED", "REST"):
                extra[c.type.lower()] = self._tok(c)
            elif isinstance(c, list) and c and isinstance(c[0], A.ManaSymbol):
                extra["mana"] = c
            elif isinstance(c, list) and c and isinstance(c[0], A.Keyword):
                extra["keywords"] = c
            elif isinstance(c, _Counter):
                extra["counter"] = c.kind  # CR 122.1: the kind of counter put / removed
            elif isinstance(c, str):
                extra.setdefault("words", []).append(c)
        if amount is None and "much" in self._lits and "that" in self._lits:
            amount = A.Amount("that_much", text="that much")  # "you gain that much life" (no number child)
        self._compare(extra, amount)
        if name.startswith("ev_"):
            zones = [w for w in extra.get("words", ()) if w in _ZONES]
            if len(zones) == 1 and "zone" not in extra:
                # CR 400.1: the zone of a zone-change event ("is put into a graveyard" / "into exile")
                # is one of the closed z_* names, held apart from the type words
                extra["zone"] = zones[0]
                extra["words"] = [w for w in extra["words"] if w != zones[0]]
                if not extra["words"]:
                    del extra["words"]
            return A.Action("event:" + verb, obj=objs[0] if objs else None, amount=amount,
                            extra=extra, text=text)
        return A.Action(verb, obj=objs[0] if objs else None, amount=amount, extra=extra, text=text)

    def _compare(self, extra: dict, amount) -> None:
        """Read the rule's literal words (``self._lits``) for a comparison with a number and a
        negation, into ``extra["comparison"]`` (:class:`Comparison`) and ``extra["negated"]``;
        the words used are not repeated in the form."""
        lits = self._lits
        cmp = None
        for i, w in enumerate(lits):
            nxt = lits[i + 1] if i + 1 < len(lits) else ""
            prev = lits[i - 1] if i else ""
            if w in _MORE_WORDS and prev == "or":
                cmp = ">="
            elif w in _LESS_WORDS and prev == "or":
                cmp = "<="
            elif w in _MORE_WORDS and nxt == "than" and prev != "no":
                cmp = ">=" if lits[i + 2:i + 5] == A.OR_EQUAL_TO else ">"  # "greater than or equal to"
            elif w in _LESS_WORDS and nxt == "than":
                cmp = "<=" if lits[i + 2:i + 5] == A.OR_EQUAL_TO else "<"
            elif w == "exactly":
                cmp = "="
            if cmp is not None:
                self._consumed.update({w, "or", "than"} if w != "exactly" else {w})
                if lits[i + 2:i + 5] == A.OR_EQUAL_TO and nxt == "than":
                    self._consumed.update(A.OR_EQUAL_TO)
                break
        if cmp is not None:
            extra["comparison"] = A.Comparison(cmp, amount)
        neg = [w for w in self._raw_lits if w in _NEGATIONS]
        if neg:
            extra["negated"] = True
            self._consumed.update(neg)

    def _tok(self, tok: Token):
        if tok.type == "REST":
            return A.Unparsed(self.orig[tok.start_pos:tok.end_pos])
        if tok.type == "QUOTED":
            inner = self.orig[tok.start_pos + 1:tok.end_pos - (1 if tok.value.endswith('"') and len(tok.value) > 1 else 0)]
            if self.parse_quoted is not None:
                return self.parse_quoted(inner)
            return A.Unparsed(inner)
        return self.orig[tok.start_pos:tok.end_pos]

    def _rest_text(self, children) -> str:
        for c in children:
            if isinstance(c, Token) and c.type == "REST":
                return self.orig[c.start_pos:c.end_pos]
        return ""

    # ------------------------------------------------------------------ numbers
    def number(self, meta, ch):
        t = self._low(meta)
        if t == "x":
            return A.Amount("x", variable="X", text=self._t(meta))
        if t.isdigit():
            return A.Amount("fixed", value=int(t), text=self._t(meta))
        return A.Amount("fixed", value=_NUMWORDS.get(t), text=self._t(meta))

    def count(self, meta, ch):
        if ch and isinstance(ch[0], A.Amount):
            return ch[0]
        if "many" in self._lits:  # "that many" (a number an earlier instruction determined)
            self._form_used = True
            return A.Amount("that_many", text=self._t(meta))
        return A.Amount("fixed", value=1, text=self._t(meta))

    def mana_syms(self, meta, ch):
        return [mana_symbol(str(t)) for t in ch]

    # ------------------------------------------------------------------ objects
    def dword(self, meta, ch):
        return self._low(meta)

    def dwords(self, meta, ch):
        return [c for c in ch if isinstance(c, str)]

    def dlist(self, meta, ch):
        """Type words of one or more items ("artifact, creature, or enchantment"), the separators
        as "or" / "and" / "and/or"; a later item's quantifier ("target creature and target land")
        as its rule name, and kept (:class:`_DList`.quants) for :meth:`_mk_obj`, which makes that
        item an object of its own."""
        words = _DList()
        after_quant = False
        sep = "or"
        for c in ch:
            if isinstance(c, A.Text):  # the separator: "and" / "and/or" as written (ANDLIST), else "or"
                word = c.text.lower().replace(",", " ").strip()
                sep = word if word in ("and", "and/or") else "or"
            elif isinstance(c, _Quant):  # "another creature or a Treasure": quantifier of a later item
                words.append(sep)
                words.quants[len(words)] = c
                words.append(c.name)
                after_quant = True
            elif isinstance(c, list):
                if words and not after_quant:
                    words.append(sep)
                words.extend(c)
                after_quant = False
        return words

    def obj(self, meta, ch):
        base = ch[0]
        if isinstance(base, A.Obj):
            posts = [c for c in ch[1:] if isinstance(c, str)]
            last = _last_list_item(base)
            if last is not None:  # "target nonland permanent and all other permanents with the same name as …"
                take_posts(last, [c for c in posts if not _distributes(c)])
                posts = [c for c in posts if _distributes(c)]
            take_posts(base, posts)
            base.text = self._t(meta)
        return base

    def __getattr__(self, name):
        # o_* rules (object bases) are built on demand; every other missing name is a real miss
        if name.startswith("o_"):
            return self._mk_obj(name[2:])
        raise AttributeError(name)

    def _mk_obj(self, kind):
        @v_args(meta=True)
        def f(meta, ch):
            quant = None
            count = None
            words: list[str] = []
            out = A.Obj(None, None, words, self._t(meta))
            later = []
            for c in ch:
                if isinstance(c, _Quant):
                    quant, count = c.name, c.count
                elif isinstance(c, _DList) and c.quants and kind in ("desc", "any_number"):
                    # "target creature and target land", "an artifact or another creature" (CR 115.3:
                    # each "target" is a target of its own): each later item is an object of its own
                    head, items = c.items()
                    words.extend(head)
                    sep = c[max(c.quants) - 1]  # (the separator before the last item: "A, B, and C")
                    later += [(sep, q, w) for q, w in items]
                elif isinstance(c, list):
                    words.extend(x for x in c if isinstance(x, str))
                elif isinstance(c, A.Amount):
                    count = c
                elif isinstance(c, Token):
                    words.append(str(c).lower())
                elif isinstance(c, A.Obj):  # "each of <obj>", "two of <obj>": the inner object's fields
                    words.extend(c.words)
                    out.qualifiers.extend(c.qualifiers)
                    out.refs.extend(c.refs)
                    quant = quant or c.quantifier
                    if c.count is not None:
                        if count is not None:  # "one of up to two …": two counts, one field
                            raise ValueError("two counts in one object")
                        count = c.count
                elif isinstance(c, str):
                    take_posts(out, [c])
            if kind == "self":
                return A.Obj("self", None, ["~"], "~")
            if kind in ("it", "them", "you"):
                quant = kind
            elif kind not in ("desc",):
                out.qualifiers.insert(0, kind)
            out.quantifier, out.count = quant, count
            for sep, q, w in later:  # qualifier list_and / list_or / list_and_or, the item in refs
                if not w:
                    raise ValueError("list item without words")
                take_posts(out, [ref_post("list_" + sep.replace("/", "_"), A.Obj(q.name, q.count, w, ""))])
            return out
        return f

    def quant(self, meta, ch):  # pragma: no cover - aliased rules below
        return _Quant("quant", None)

    def _q(name):  # noqa: N805
        def f(self, meta, ch):
            return _Quant(name, _first(ch, A.Amount))
        return f

    for _n in ("target", "another_target", "another", "each", "each_exiled", "each_enchanted", "each_other", "all", "all_other", "a",
               "up_to", "up_to_target", "n_target", "n_other", "n_other_target", "that", "the", "other", "those", "enchanted", "equipped", "your",
               "exiled", "num", "any", "the_exiled", "n_or_more", "defending"):
        locals()["q_" + _n] = _q(_n)
    del _n

    def stat_word(self, meta, ch):
        return "stat:" + self._low(meta)

    def owner_word(self, meta, ch):
        return self._low(meta)

    # obj_post / zones: return qualifier strings
    def _post(name):  # noqa: N805
        def f(self, meta, ch):
            sub = [c for c in ch if isinstance(c, str)]
            kw = [c for c in ch if isinstance(c, A.Keyword)]
            amt = _first(ch, A.Amount)
            out = name
            if sub:
                out += ":" + ",".join(sub)
                forms = [w for c in sub for w in (getattr(c, "form", None) or ())]
                if name == "zone" and self._raw_lits[:1] == ["in"]:
                    # "cards in your graveyard" (a place) / "a card from your graveyard" (a move's
                    # origin, CR 400.7): forms.SYNONYMS folds "in" into "from", so the written "in" is
                    # kept as the first form word (render_objects._post reads it as the preposition)
                    forms = ["in"] + forms
                if forms:  # a zone alternative's form ("its controller's graveyard" / "… hand")
                    out = _FormStr(out)
                    out.form = forms
            if kw:
                out += ":" + ",".join(k.name for k in kw)
            if name == "mv" and amt is not None and amt.kind not in ("fixed", "x"):
                # "with mana value less than or equal to the number of lands you control" (CR 202.3)
                self._consumed.update(("less", "or"))
                return ref_post("mv_leq", amt)
            if amt is not None:
                out += ":" + (str(amt.value) if amt.value is not None else (amt.variable or amt.text))
            if name in ("power", "toughness", "mv"):
                self._consumed.update(("less", "greater", "or"))  # (the comparator is kept below)
                low = self._low(meta)
                out += ":" + ("<=" if "less" in low else ">=" if "greater" in low else "=")
            if name in A.REF_QUALIFIERS:  # the object it names goes to the taker's refs (ref_post)
                o = _first(ch, A.Obj)
                if o is None or out != name:
                    raise ValueError(f"obj_post {name}: no object")
                return ref_post(name, o, getattr(out, "form", None))
            return out
        return f

    for _n in ("you_control", "you_dont_control", "you_own", "you_control_not_own", "opp_controls",
               "opps_control", "target_player_controls", "target_opp_controls", "that_player_controls",
               "defending_controls", "they_control", "its_controller_controls", "zone", "battlefield",
               "power", "toughness", "mv", "greatest", "with_keyword", "without_keyword",
               "chosen", "your_choice", "named", "attacking_you", "blocking", "thats", "isnt", "attacked",
               "dealt_damage", "dealt_damage_by", "that_targets", "this_way", "in_party", "other_than", "attached", "attached_to_it", "exiled_with", "of_that_type",
               "youve_cast", "could_target", "not_cast", "crewed_it", "chosen_name"):  # (p_from_source: transform_objects)
        locals()["p_" + _n] = _post(_n)
    for _n in ("your_graveyard", "a_graveyard", "graveyards", "your_hand", "your_library", "exile",
               "opp_graveyard", "tp_graveyard", "their_graveyard", "their_hand", "that_player_graveyard",
               "owner_graveyard", "battlefield", "it"):  # (z_gy_hand: transform_objects)
        locals()["z_" + _n] = (lambda n: (lambda self, meta, ch: n))(_n)
    del _n

    # ------------------------------------------------------------------ quantities
    def _qt(name):  # noqa: N805
        def f(self, meta, ch):
            ref = _first(ch, A.Obj) or _first([self._tok(c) for c in ch if isinstance(c, Token)], A.Node)
            kind = "equal_to"
            return A.Amount(kind, ref=ref if ref is not None else A.Text(self._t(meta)), text=self._t(meta))
        return f

    for _n in ("number_of", "stat", "devotion", "amount_of", "that_much", "its_stat",
               "total", "twice", "half", "plus", "damage", "life"):  # (qt_greatest: transform_objects)
        locals()["qt_" + _n] = _qt(_n)
    del _n

    def qt_n_plus(self, meta, ch):
        """"1 plus the exiled creature's mana value" (Food Chain): Amount(equal_to) whose ``value``
        is the constant added to ``ref``."""
        n = _first(ch, A.Amount)
        inner = next((c for c in ch if isinstance(c, A.Amount) and c is not n), None)
        return A.Amount("equal_to", value=n.value if n else None, ref=inner.ref if inner else None, text=self._t(meta))

    def where_x(self, meta, ch):
        return A.WhereX("X", ch[0] if ch else A.Text(self._t(meta)))

    # ------------------------------------------------------------------ mana
    def aw_fixed(self, meta, ch):
        return A.AddMana("fixed", symbols=_flat_syms(ch), amount=A.Amount("fixed", value=1))

    def aw_one_of(self, meta, ch):
        return A.AddMana("one_of", options=[c for c in ch if isinstance(c, list)], amount=A.Amount("fixed", value=1))

    def aw_count(self, meta, ch):
        amt, kind = ch[0], ch[1]
        kind.amount = amt
        return kind

    def aw_amount_syms(self, meta, ch):
        return A.AddMana("fixed", symbols=_flat_syms(ch), amount=A.Amount("other", text=self._t(meta)))

    def aw_amount_mana(self, meta, ch):
        kind = _first(ch, A.AddMana)
        kind.amount = A.Amount("other", text=self._t(meta))
        return kind

    def aw_that_much(self, meta, ch):
        kind = _first(ch, A.AddMana)
        kind.amount = A.Amount("equal_to", ref=A.Text("that much"), text="that much")
        return kind

    def aw_sym_or_kind(self, meta, ch):
        """"{G} or one mana of the chosen color" (Thriving lands): the production of the mana kind
        (chosen_color …) with the fixed alternative in ``options`` (CR 106.7: both are possible)."""
        kind = _first(ch, A.AddMana)
        kind.options = [_flat_syms(ch)]
        kind.amount = _first(ch, A.Amount)
        return kind

    def _mk(prod, **kw):  # noqa: N805
        def f(self, meta, ch):
            m = A.AddMana(prod, **kw)
            src = _first(ch, A.Obj)
            if src is not None:
                m.source = src
            syms = [c for c in ch if isinstance(c, list)]
            if syms:
                m.options = [[s] for lst in syms for s in lst]
            return m
        return f

    mk_any_color = _mk("any_color")
    mk_any_one_color = _mk("any_color", any_one_color=True)
    mk_different = _mk("any_color", different=True)
    mk_any_type = _mk("any_type")
    mk_combination = _mk("combination")
    mk_combination_syms = _mk("combination")
    mk_chosen = _mk("chosen_color")
    mk_that_color = _mk("chosen_color", that_color=True)
    mk_commander = _mk("commander_identity")
    mk_could_produce_color = _mk("could_produce")
    mk_could_produce_type = _mk("could_produce", any_one_color=False)
    mk_dependent_among = _mk("dependent", dependent="among")
    mk_dependent_among_one = _mk("dependent", dependent="among", any_one_color=True)
    mk_dependent_colors_of = _mk("dependent", dependent="colors_of")
    mk_dependent_one_of_colors = _mk("dependent", dependent="one_of_colors")
    mk_any_color_they = _mk("any_color", chooser="they")
    mk_any_one_color_they = _mk("any_color", any_one_color=True, chooser="they")

    def mk_could_produce_sacrificed(self, meta, ch):
        """"of any type the sacrificed land could produce" (Squandered Resources, CR 106.7)."""
        m = A.AddMana("could_produce", of_type=True)
        words = next((c for c in ch if isinstance(c, list)), [])
        low = self._low(meta)
        m.source = A.Obj("the_sacrificed", None, list(words), self._t(meta)[low.index("the sacrificed"):low.index(" could")])
        return m

    def mk_dependent_and(self, meta, ch):
        """"of any color among legendary creatures and planeswalkers you control" (Mox Amber):
        dependent production (CR 106.7) whose source lists two kinds of permanents."""
        m = A.AddMana("dependent", dependent="among")
        words = [w for c in ch if isinstance(c, list) for w in c if isinstance(w, str)]
        lists = [c for c in ch if isinstance(c, list)]
        words = lists[0] + ["and"] + lists[1] if len(lists) == 2 else words
        quals = [c for c in ch if isinstance(c, str)]
        low = self._low(meta)
        m.source = A.Obj(None, None, words, self._t(meta)[low.index("among ") + 6:], quals)
        return m
    mk_colorless_generic = _mk("other")

    def mk_could_produce_type(self, meta, ch):  # noqa: F811 - "type": colorless possible
        return A.AddMana("could_produce", source=_first(ch, A.Obj), of_type=True)

    def mk_any_type(self, meta, ch):  # noqa: F811
        return A.AddMana("any_type", of_type=True)

    def at_for_each(self, meta, ch):
        return A.Amount("for_each", ref=_first(ch, A.Obj), text=self._t(meta))


    def aw_that_much_syms(self, meta, ch):
        return A.AddMana("fixed", symbols=_flat_syms(ch),
                         amount=A.Amount("equal_to", ref=A.Text("that much"), text="that much"))

    def at_for_each_counter(self, meta, ch):
        """"for each charge counter on ~" / "… removed this way" → Amount(for_each, ref=Obj(words
        ["counter"], qualifiers ["counter:<kind>", "on:~" | "on:it" | "removed_this_way"]))."""
        ck = next((c for c in ch if isinstance(c, _Counter)), None)
        on = _first(ch, A.Obj)
        quals = ["counter:" + (ck.kind if ck else "")]
        if on is not None:
            quals.append("on:~" if on.quantifier == "self" and not on.qualifiers else
                         "on:it" if on.quantifier == "it" and not on.qualifiers else "on:" + on.text)
        else:
            quals.append("removed_this_way")
        t = self._t(meta)
        return A.Amount("for_each", ref=A.Obj(None, None, ["counter"], t[len("for each "):], quals), text=t)

    def at_equal_to(self, meta, ch):
        a = _first(ch, A.Amount)
        return A.Amount("equal_to", ref=a.ref if a else None, text=self._t(meta))

    def at_where_x(self, meta, ch):
        return A.WhereX("X", _first(ch, A.Amount) or A.Text(self._t(meta)))

    def _add(self, meta, ch, player=None, additional=False):
        m = _first(ch, A.AddMana)
        for c in ch:
            if isinstance(c, A.Amount):
                if m.production == "fixed" or (m.amount is not None and m.amount.kind == "other"
                                               and c.kind in ("equal_to", "for_each")):
                    m.amount = c  # "an amount of mana of that color equal to …" (Nykthos): the tail defines it
                else:
                    if c.kind == "for_each" and m.amount is not None and m.amount.kind == "fixed" and c.value is None:
                        c.value = m.amount.value  # "add three mana … for each …": three per object
                    m.amount = c if m.amount is None else m.amount
                    if c.kind == "for_each":
                        m.amount = c
            elif isinstance(c, A.WhereX):
                m.amount = A.Amount("x", variable="X", ref=c.definition, text=self._t(meta))
        if m.amount is None:
            m.amount = A.Amount("fixed", value=1)
        m.text = self._t(meta)
        m.player = player
        m.additional = additional
        return m

    def add_you(self, meta, ch):
        return self._add(meta, ch)

    def add_additional_you(self, meta, ch):
        return self._add(meta, ch, additional=True)

    def add_player(self, meta, ch):
        p = _first(ch, A.Obj)
        m = self._add(meta, [c for c in ch if c is not p], player=p.text if p else None)
        m.player_obj = p
        return m

    def add_additional(self, meta, ch):
        p = _first(ch, A.Obj)
        m = self._add(meta, [c for c in ch if c is not p], player=p.text if p else None, additional=True)
        m.player_obj = p
        return m

    def c_instead(self, meta, ch):
        m = _first(ch, A.AddMana)
        m.instead = True
        return m

    def lead_for_each_color(self, meta, ch):
        """"For each color among permanents you control, …" (Bloom Tender; CR 105.2) → Amount
        for_each of ``Obj("colors_among", words ["color"], among the Obj)``, rendered as the lead
        (render_conditions.for_each_lead); "for each colored mana symbol in …" stays Text."""
        src = _first(ch, A.Obj)
        if src is not None and " among " in self._low(meta):
            ref = A.Obj("colors_among", None, ["color"], self._t(meta)[len("for each "):])
            take_posts(ref, [ref_post("among", src)])
            return A.Amount("for_each", ref=ref, text=self._t(meta))
        return A.Amount("for_each", ref=A.Text(self._t(meta)[len("for each "):]), text=self._t(meta))

    def mana_persist(self, meta, ch):
        return A.ManaRestriction("persist", self._t(meta))

    # ------------------------------------------------------------------ costs
    def cost(self, meta, ch):
        parts = [n for c in ch for n in (c if isinstance(c, list) else [c])]  # a rule may give two components
        return A.Cost([c for c in parts if isinstance(c, A.Node)], self._t(meta))

    def c_mana(self, meta, ch):
        return A.ManaCost(_flat_syms(ch))

    def c_tap(self, meta, ch):
        return A.TapCost()

    def c_untap(self, meta, ch):
        return A.UntapCost()

    def c_energy(self, meta, ch):
        return A.EnergyCost(sum(1 for c in ch if isinstance(c, Token) and c.type == "ENERGY_SYM"))

    def c_loyalty(self, meta, ch):
        return ch[0]

    def _ac(action, zone=None):  # noqa: N805
        def f(self, meta, ch):
            obj = _first(ch, A.Obj)
            amt = _first(ch, A.Amount)
            counter = next((c for c in ch if isinstance(c, _Counter)), None)
            z = zone
            if action == "exile" and obj is not None:
                z = next((q.split(":", 1)[1] for q in obj.qualifiers if q.startswith("zone:")), None)
            return A.ActionCost(action, obj, amt, counter.kind if counter else None, z, self._t(meta))
        return f

    c_sacrifice = _ac("sacrifice")
    c_discard = _ac("discard")
    c_discard_hand = _ac("discard_hand")  # "Discard your hand" (CR 701.9a)
    c_exile = _ac("exile")
    c_return = _ac("return_to_hand")
    c_tap_obj = _ac("tap")
    c_untap_obj = _ac("untap")
    c_life = _ac("pay_life")
    c_remove_counters = _ac("remove_counters")
    c_remove_counters_all = _ac("remove_all_counters")
    c_discard_random = _ac("discard_random")  # "Discard a card at random" (CR 701.9b: not the player's choice)
    c_life_half = _ac("pay_life")
    c_put_library = _ac("put_on_library")

    def c_unattach(self, meta, ch):  # "Unattach ~" as a cost (CR 701.3d)
        return A.ActionCost("unattach", _first(ch, A.Obj), None, None, None, self._t(meta))

    def c_mana_each(self, meta, ch):
        return A.ActionCost("pay_mana", _first(ch, A.Obj), A.Amount("for_each", text=self._t(meta)),
                            next((c.kind for c in ch if isinstance(c, _Counter)), None), None, self._t(meta))

    def c_life_or_mana(self, meta, ch):
        return A.ActionCost("pay_life_or_mana", None, _first(ch, A.Amount), None, None, self._t(meta))

    def c_remove_counters_any_number(self, meta, ch):
        c = self._c_remove(meta, ch)
        # "any number of" (CR 107.1: a number the player chooses) is Amount(any); "one or more" stays other
        any_number = "any number" in self._low(meta)
        c.amount = A.Amount("any" if any_number else "other", text="any number" if any_number else "one or more")
        return c

    _c_remove = _ac("remove_counters")
    c_remove_any_counters = _ac("remove_counters")
    c_put_counters = _ac("put_counters")
    c_reveal = _ac("reveal")
    c_mill = _ac("mill")
    c_exert = _ac("exert")
    c_collect_evidence = _ac("collect_evidence")
    c_forage = _ac("forage")
    c_blight = _ac("blight")
    c_behold = _ac("behold")  # "behold a Dragon" (CR 701.4a: reveal it from your hand or choose it on the battlefield)  # "Blight 2" (CR 701.68a: put N -1/-1 counters on a creature you control)

    def c_waterbend(self, meta, ch):
        """"Waterbend {5}" (CR 701.67a: pay that cost, tapping artifacts or creatures for its generic
        mana): ActionCost waterbend whose ``obj`` is the ManaCost paid."""
        return A.ActionCost("waterbend", A.ManaCost(_flat_syms(ch)), None, None, None, self._t(meta))

    def lc_plus(self, meta, ch):
        return A.LoyaltyCost("+", ch[0])

    def lc_minus(self, meta, ch):
        return A.LoyaltyCost("-", ch[0])

    def lc_zero(self, meta, ch):
        return A.LoyaltyCost("", A.Amount("fixed", value=int(str(ch[0]))))

    def additional_cost(self, meta, ch):
        return _first(ch, A.AdditionalCost)

    def acb_cost(self, meta, ch):
        return A.AdditionalCost(ch[0])

    def acb_optional(self, meta, ch):
        return A.AdditionalCost(ch[0], optional=True)

    def acb_choice(self, meta, ch):  # "sacrifice a creature or pay {3}{B}" (CR 601.2b)
        return A.AdditionalCost(A.CostChoice([c for c in ch if isinstance(c, A.Cost)], self._t(meta)))

    def alt_cost(self, meta, ch):
        return A.AlternativeCost(_first(ch, A.Cost), None, self._t(meta))

    # ------------------------------------------------------------------ keywords
    def keyword_simple(self, meta, ch):
        return A.Keyword(self._low(meta), text=self._t(meta))

    def kw_cost_name(self, meta, ch):
        return _Name(self._low(meta))

    kw_num_name = kw_cost_name

    def keyword_line(self, meta, ch):
        return A.KeywordLine(_nodes(ch, A.Keyword))

    def kw_list(self, meta, ch):
        # a protection/hexproof-from item is a one-keyword list (kl_protection): flatten it
        return [k for c in ch for k in (c if isinstance(c, list) else [c]) if isinstance(k, A.Node)]

    def kw_item(self, meta, ch):
        return ch[0]

    def kw_quoted(self, meta, ch):
        return self._tok(ch[0])

    def kl_protection(self, meta, ch):
        name = "hexproof from" if self._low(meta).startswith("hexproof") else "protection"
        return [A.Keyword(name, param=_first(ch, A.QualityList), text=self._t(meta))]

    def kw_simple(self, meta, ch):
        return ch[0]

    def _kwname(self, ch, default=""):
        n = next((c for c in ch if isinstance(c, _Name)), None)
        return n.name if n else default

    def kw_cost(self, meta, ch):
        name = self._kwname(ch)
        c = _first(ch, A.Cost)
        syms = _flat_syms(ch)
        if c is None:
            c = A.Cost([A.ManaCost(syms)], "")
        return A.Keyword(name, cost=c, text=self._t(meta))

    def kw_cost_extra(self, meta, ch):
        name = self._kwname(ch)
        comps = [A.ManaCost(_flat_syms(ch))]
        extra = _first(ch, A.Cost)
        if extra:
            comps += extra.components
        return A.Keyword(name, cost=A.Cost(comps, ""), text=self._t(meta))

    def kw_cost_x(self, meta, ch):
        return A.Keyword(self._kwname(ch), amount=A.Amount("x", variable="X"), text=self._t(meta))

    def kw_num_cost(self, meta, ch):
        return A.Keyword(self._kwname(ch), amount=_first(ch, A.Amount),
                         cost=A.Cost([A.ManaCost(_flat_syms(ch))]), text=self._t(meta))

    def kw_awaken(self, meta, ch):  # "Awaken 3—{5}{W}" (CR 702.113): the literal is the name
        k = self.kw_num_cost(meta, ch)
        k.name = "awaken"
        return k

    def kw_suspend(self, meta, ch):  # "Suspend 4—{1}{U}" (CR 702.62)
        k = self.kw_num_cost(meta, ch)
        k.name = "suspend"
        return k

    def kw_num(self, meta, ch):
        return A.Keyword(self._kwname(ch), amount=_first(ch, A.Amount), text=self._t(meta))

    def kw_num_bare(self, meta, ch):
        return A.Keyword(self._kwname(ch), text=self._t(meta))

    def kw_typecycling(self, meta, ch):
        name = str(next(c for c in ch if isinstance(c, Token)))
        return A.Keyword(name.lower(), cost=A.Cost([A.ManaCost(_flat_syms(ch))]), text=self._t(meta))

    def kw_landwalk(self, meta, ch):
        """CR 702.14a "[land type]walk": param ``Obj(words=[land type])`` ("swampwalk" → ["swamp"]);
        a word that is no type word before "walk" (Un-cards' "denimwalk") stays Text."""
        from pipeline.parse.lexicon import type_words

        low = self._low(meta)
        head = low[:-len("walk")] if low.endswith("walk") else ""
        words = head.split()
        if words and all(w in type_words() for w in words):
            return A.Keyword("landwalk", param=A.Obj(None, None, words, head), text=self._t(meta))
        return A.Keyword("landwalk", param=A.Text(low), text=self._t(meta))

    def kw_protection(self, meta, ch):
        return A.Keyword("protection", param=_first(ch, A.QualityList), text=self._t(meta))

    def kw_hexproof_from(self, meta, ch):
        return A.Keyword("hexproof from", param=_first(ch, A.QualityList), text=self._t(meta))

    def prot_list(self, meta, ch):
        """CR 702.16a qualities in order, with the separators between them (read from the text
        between two items: "black and from red", "artifacts, creatures, and enchantments")."""
        items = [c for c in ch if isinstance(c, A.Quality)]
        low = self._low(meta)
        spans = [c.__dict__.get("_span") for c in items]
        seps = [" ".join(low[a[1] - meta.start_pos:b[0] - meta.start_pos].split()).replace(" ,", ",")
                for a, b in zip(spans, spans[1:])]
        for q in items:
            q.__dict__.pop("_span", None)
        return A.QualityList(items, seps)

    _FIXED_QUALITY_WORDS = {v: k for k, v in A.FIXED_QUALITIES.items()}

    def prot_item(self, meta, ch):
        low = " ".join(self._low(meta).split())
        if low in self._FIXED_QUALITY_WORDS:
            q = A.Quality(fixed=self._FIXED_QUALITY_WORDS[low])
        elif low.startswith(("mana value ", "converted mana cost ")):
            amt = _first(ch, A.Amount)
            q = A.Quality(mana_value=amt.value if amt is not None else None, cmc=low.startswith("converted"))
        else:
            q = A.Quality(words=low.split())
        q.__dict__["_span"] = (meta.start_pos, meta.end_pos)
        return q

    def kw_enchant(self, meta, ch):
        return A.Keyword("enchant", param=_first(ch, A.Obj), text=self._t(meta))

    def kw_affinity(self, meta, ch):
        return A.Keyword("affinity", param=_first(ch, A.Obj), text=self._t(meta))

    def kw_champion(self, meta, ch):
        return A.Keyword("champion", param=_first(ch, A.Obj), text=self._t(meta))

    def kw_splice(self, meta, ch):
        return A.Keyword("splice", cost=A.Cost([A.ManaCost(_flat_syms(ch))]),
                         param=quality_obj([c for c in ch if isinstance(c, list) and c and isinstance(c[0], str) for c in c]),
                         text=self._t(meta))

    def kw_partner_with(self, meta, ch):
        return A.Keyword("partner with", param=A.Text(self._rest_text(ch)), text=self._t(meta))

    def kw_companion(self, meta, ch):
        return A.Keyword("companion", param=A.Unparsed(self._rest_text(ch)), text=self._t(meta))

    def kw_forecast(self, meta, ch):
        return A.Keyword("forecast", param=A.Unparsed(self._rest_text(ch)), text=self._t(meta))

    def kw_offering(self, meta, ch):
        """CR 702.48a "[quality] offering": param ``Obj(words=[quality words])``."""
        words = self._low(meta).split()
        return A.Keyword("offering", param=quality_obj(words[:-1]), text=self._t(meta))

    # ------------------------------------------------------------------ triggers
    def trigger_word(self, meta, ch):  # pragma: no cover
        return self._low(meta)

    def tw_when(self, meta, ch):
        return _Word("when")

    def tw_whenever(self, meta, ch):
        return _Word("whenever")

    def tw_at(self, meta, ch):
        return _Word("at")

    def trigger_head(self, meta, ch):
        word = ch[0].w
        event = ch[1]
        cond = ch[2] if len(ch) > 2 else None
        return A.Triggered(word, event, cond, [])

    def ev_step(self, meta, ch):
        """CR 603.2 / 500.1: "At the beginning of [owner] [step]" → ``extra``: ``step`` (the
        wording), ``phase`` (:class:`Step`) and ``owner`` (:class:`StepOwner`) when the
        grammar's alternatives name them, ``on_your_turn`` for "combat on your turn"."""
        extra = {"step": self._low(meta)}
        st = ch[0] if ch else None
        if isinstance(st, _StepTime):
            extra.update(st.extra)
        return A.Action("event:step", extra=extra, text=self._t(meta))

    # step names and owners: each alternative of ``step_name``/``step_owner`` (triggers.lark) is
    # one literal, so the matched words name the alternative (CR 500.1)
    _STEP_NAMES = {"upkeep": A.Step.UPKEEP, "end step": A.Step.END_STEP, "draw step": A.Step.DRAW_STEP,
                   "precombat main phase": A.Step.PRECOMBAT_MAIN, "postcombat main phase": A.Step.POSTCOMBAT_MAIN,
                   "combat": A.Step.COMBAT, "second main phase": A.Step.SECOND_MAIN,
                   "first main phase": A.Step.FIRST_MAIN, "main phase": A.Step.MAIN_PHASE,
                   "first upkeep": A.Step.FIRST_UPKEEP,  # CR 503, 103.8: the first upkeep of the game
                   # plurals after "each of your" (render_triggers writes them back from the owner)
                   "upkeeps": A.Step.UPKEEP, "end steps": A.Step.END_STEP, "draw steps": A.Step.DRAW_STEP,
                   "precombat main phases": A.Step.PRECOMBAT_MAIN, "postcombat main phases": A.Step.POSTCOMBAT_MAIN,
                   "main phases": A.Step.MAIN_PHASE}

    _STEP_WORDS = {v: k for k, v in _STEP_NAMES.items() if not k.endswith("s")}

    def step_name(self, meta, ch):
        return _StepName(self._STEP_NAMES[" ".join(self._low(meta).split())])

    def _so(owner):  # noqa: N805
        def f(self, meta, ch):
            return _StepOwnerMark(owner)
        return f

    so_your = _so(A.StepOwner.YOUR)
    so_each = _so(A.StepOwner.EACH)
    so_each_player = _so(A.StepOwner.EACH_PLAYER)
    so_each_opp = _so(A.StepOwner.EACH_OPPONENT)
    so_that_player = _so(A.StepOwner.THAT_PLAYER)
    so_enchanted_player = _so(A.StepOwner.ENCHANTED_PLAYER)
    so_target_opp = _so(A.StepOwner.TARGET_OPPONENT)
    so_chosen = _so(A.StepOwner.CHOSEN_PLAYER)
    so_your_next = _so(A.StepOwner.YOUR_NEXT)
    so_each_other = _so(A.StepOwner.EACH_OTHER_PLAYER)
    so_each_your = _so(A.StepOwner.EACH_OF_YOUR)
    so_each_of_that_player = _so(A.StepOwner.EACH_OF_THAT_PLAYER)
    so_each_of_enchanted_player = _so(A.StepOwner.EACH_OF_ENCHANTED_PLAYER)
    so_enchanted_opp = _so(A.StepOwner.ENCHANTED_OPPONENT)

    def st_beginning(self, meta, ch):
        # "… of <player>" (conditions.lark step_of: "of" obj) holds the player whose step it is
        ch = [c.kids[0] if isinstance(c, _Generic) and c.name == "step_of" and len(c.kids) == 1
              and isinstance(c.kids[0], A.Obj) else c for c in ch]
        name = _first(ch, _StepName)
        owner = _first(ch, _StepOwnerMark)
        player = _first(ch, A.Obj)
        extra = {}
        low = " ".join(self._low(meta).split())
        nodes = [c for c in ch if isinstance(c, (A.Node, _Generic))]
        nxt = low.startswith("the beginning of your next ") and self._STEP_NAMES.get(low[len("the beginning of your next "):])
        if nxt and not nodes:  # CR 603.7: "at the beginning of your next upkeep" (a delayed trigger)
            extra = {"phase": nxt, "owner": A.StepOwner.YOUR_NEXT}
            self._form_used = True
        elif name is not None and not nodes:
            if owner is not None:
                extra = {"phase": name.step, "owner": owner.owner}
            elif low == "the beginning of the " + " ".join(low.split()[4:]) and low.count(" of ") == 1:
                extra = {"phase": name.step, "owner": A.StepOwner.THE}  # no step_of tail
        elif low.startswith("the beginning of the next ") and not nodes:  # CR 603.7: "the next end step"
            step = self._STEP_NAMES.get(low[len("the beginning of the next "):])
            if step is not None:
                extra = {"phase": step, "owner": A.StepOwner.NEXT}
        elif player is not None and nodes == [player] and owner is None:
            # "the beginning of the upkeep of enchanted creature's controller"
            step = name.step if name is not None else (A.Step.UPKEEP if low.startswith("the beginning of the upkeep of ") else None)
            if step is not None and low == f"the beginning of the {self._STEP_WORDS[step]} of " + low.split(" of ", 2)[2]:
                extra = {"phase": step, "owner": A.StepOwner.OF, "player": player}
        return _StepTime("st_beginning", self._t(meta), extra)

    def st_end_of_combat(self, meta, ch):
        extra = {"phase": A.Step.END_OF_COMBAT} if self._low(meta) == "end of combat" else {}
        return _StepTime("st_end_of_combat", self._t(meta), extra)

    #: whose turn "the beginning of combat on <owner> turn" names (CR 506.1, 507)
    _COMBAT_ON = {"each opponent's": A.StepOwner.EACH_OPPONENT, "your next": A.StepOwner.YOUR_NEXT,
                  "each player's": A.StepOwner.EACH_PLAYER}

    def st_begin_combat(self, meta, ch):
        low = " ".join(self._low(meta).replace(" '", "'").split())
        on = low[len("the beginning of combat on "):-len(" turn")] if low.startswith("the beginning of combat on ") else ""
        if low.endswith("on your turn"):
            extra = {"phase": A.Step.COMBAT, "owner": A.StepOwner.YOUR, "on_your_turn": True}
        elif on in self._COMBAT_ON and low.endswith(" turn"):
            extra = {"phase": A.Step.COMBAT, "owner": self._COMBAT_ON[on], "on_turn": True}
            self._form_used = True
        else:
            extra = {"phase": A.Step.COMBAT, "owner": A.StepOwner.EACH}
        return _StepTime("st_begin_combat", self._t(meta), extra)

    def evs_saddled(self, meta, ch):
        """"… while saddled" (abilities.lark; CR 702.171b): ``extra["when"] = "while_saddled"``
        on the event (transform_conditions.ev_qualified)."""
        from pipeline.parse.transform_conditions import _When

        return _When("while_saddled")

    def cond_rest(self, meta, ch):
        return A.Unparsed(self._rest_text(ch))

    # ------------------------------------------------------------------ sentences
    def sentence(self, meta, ch):
        if len(ch) == 1 and isinstance(ch[0], _Clauses):
            return A.Sentence(ch[0])
        effects = []
        for c in ch:
            if isinstance(c, list):
                effects.extend(c)
            elif isinstance(c, A.Node):
                effects.append(c)
        return A.Sentence(effects)

    def s_where(self, meta, ch):
        effects = _clauses(ch[0])
        joins = list(getattr(effects, "joins", []))
        return A.Sentence(list(effects) + [ch[1]], joins=joins if len(joins) == len(effects) - 1 else [])

    def s_if(self, meta, ch):
        return A.Sentence(_clauses(ch[1]), condition=ch[0])

    def s_otherwise(self, meta, ch):
        # "Otherwise, …": the effect applies when the preceding "if" condition is false (CR 608.2c)
        return A.Sentence(_clauses(ch[0]), condition=A.Action("condition:otherwise", text="otherwise"))

    def lead_otherwise(self, meta, ch):
        return A.Action("condition:otherwise", text=self._t(meta))

    def s_duration(self, meta, ch):
        if isinstance(ch[0], (A.Action, A.Duration)):  # a structured duration (CR 610.3, 611.2b)
            return A.Sentence(_clauses(ch[1]), condition=ch[0])
        return A.Sentence(_clauses(ch[1]), condition=A.Text(ch[0].text if isinstance(ch[0], A.Node) and hasattr(ch[0], "text") else "duration"))

    def s_gets_for_each(self, meta, ch):
        objs = _nodes(ch, A.Obj)
        pt = next(str(c) for c in ch if isinstance(c, Token))
        return A.Sentence([A.Action("pump", subject=objs[0], amount=A.Amount("for_each", ref=objs[1]), extra={"pt": pt}, text=self._t(meta))])

    def s_as_enters_copy(self, meta, ch):
        """"As ~ enters, you may have it become a copy of …" (Cursed Mirror): a replacement
        effect (CR 614.1c) whose event is ~ entering; the copy effect itself is the node."""
        eff = self.cp_becomes_optional(meta, ch)
        eff.text = self._t(meta).split(",", 1)[1].strip()
        return A.Sentence([eff], condition=as_enters())

    def s_as_enters_may(self, meta, ch):
        return A.Sentence([A.Action("as_enters_may", subject=A.Obj("self", None, ["~"], "~"), extra={"rest": A.Unparsed(self._rest_text(ch))}, text=self._t(meta))])

    def this_way_verb(self, meta, ch):
        return self._low(meta)

    def s_if_after(self, meta, ch):
        """"… if <cond>": the condition follows the effect (``extra.after``, CR 608.2c)."""
        cond = ch[1]
        if isinstance(cond, A.Action):
            cond.extra["after"] = True
        return A.Sentence(_clauses(ch[0]), condition=cond)

    def mk_that_type(self, meta, ch):
        return A.AddMana("chosen_color", of_type=True)

    def s_delayed(self, meta, ch):
        """"<effect> at the beginning of the next end step" (the time follows, CR 603.7)."""
        cond = ch[1]
        if isinstance(cond, A.Delayed):
            cond.after = True
        return A.Sentence(_clauses(ch[0]), condition=cond)

    def s_then(self, meta, ch):
        """"Then …" at a sentence start: the sentence's joins begin with "then" (the word joining it
        to the sentence before, CR 608.2c: in order), one more join than between its effects;
        "Then if you do, …" keeps its condition too."""
        s = A.Sentence(_clauses(ch[-1]), condition=ch[0] if len(ch) > 1 else None)
        n = len(s.effects) - (1 if s.effects and isinstance(s.effects[-1], A.WhereX) else 0)
        if len(s.joins) == n - 1:
            s.joins = ["then"] + s.joins
        return s

    s_then_if = s_then

    def s_any_player_may_activate(self, meta, ch):  # CR 602.2
        self._form_used = True  # (the timing rider is extra.only)
        extra = {"only": "their_turn_before_end_step"} if "but" in self._lits else {}
        return A.Sentence([A.Action("any_player_may_activate", extra=extra, text=self._t(meta))])

    def s_triggers_once(self, meta, ch):
        return A.Sentence([A.Action("triggers_only_once_each_turn", text=self._t(meta))])

    def lead(self, meta, ch):
        if ch and isinstance(ch[0], A.Node):
            return ch[0]
        return A.Text(self._t(meta))

    def lead_for_each(self, meta, ch):
        return A.Amount("for_each", ref=_first(ch, A.Obj), text=self._t(meta))

    def lead_as_long_as(self, meta, ch):
        return A.Action("condition:as_long_as", extra={"condition": ch[0]}, text=self._t(meta))

    def clause_list(self, meta, ch):
        """Effects of the clauses in order, as a list that also carries ``joins`` (the wording
        between consecutive effects: "and", ", then", … — CONJUNCTIONS), for Sentence.joins.
        A clause without a subject joined by "and" (or a comma, not "then") to a clause with one is
        a joined predicate of the same subject ("Target creature gets +2/+2 and gains trample …";
        "Creatures you control get +1/+1 and have vigilance") when its verb agrees with that subject
        (third person "-s", or a predicate verb); its subject is that one (:func:`_resolve_joined`).
        A duration at the end of a chain of joined predicates applies to each of them ("… and gains
        trample until end of turn": both until end of turn)."""
        out = _Clauses()
        conjs: list = []
        conj = None
        for c in ch:
            if isinstance(c, _Conj):
                out.joins.append(c.word)
                conj = c
            elif isinstance(c, A.Node):
                out.append(c)
                conjs.append(conj)
                conj = None
            elif isinstance(c, list):  # a clause with two effects ("gains trample and gets +X/+0")
                nodes = [x for x in c if isinstance(x, A.Node)]
                out.extend(nodes)
                out.joins.extend(["and"] * (len(nodes) - 1))
                conjs.extend([conj] + [None] * (len(nodes) - 1))
                conj = None
        _resolve_joined(out, conjs)
        share_zone(out, out.joins)
        return out

    def _cj(word):  # noqa: N805
        def f(self, meta, ch):
            return _Conj(word)
        return f

    cj_and = _cj("and")
    cj_comma_then = _cj(", then")
    cj_then = _cj("then")
    cj_comma_and = _cj(", and")
    cj_comma_and_then = _cj(", and then")
    cj_comma = _cj(",")

    def clause(self, meta, ch):
        return ch[0]

    def c_subject(self, meta, ch):
        subj, act = ch[0], ch[1]
        if isinstance(act, A.Action):
            act.subject = subj
            act.text = self._t(meta)
        elif isinstance(act, (A.CopyEffect, A.GrantAbility, A.CreateToken, A.EntersTapped, A.EntersWith)):
            act.subject = subj
            if isinstance(act, A.GrantAbility):
                act.text = self._t(meta)
        return act

    def c_subject_duration(self, meta, ch):
        act = self.c_subject(meta, ch[:2])
        _set_duration(act, ch[2])
        return act

    def c_duration(self, meta, ch):
        act = ch[0]
        _set_duration(act, ch[1])
        return act

    def c_may_instead(self, meta, ch):
        m = self.c_may(meta, ch)
        m.instead = True
        return m

    def c_may_have(self, meta, ch):
        act = ch[2]
        if isinstance(act, A.Action):
            act.subject = ch[1]
            act.extra["optional"] = True
            act.extra["have"] = ch[0]  # who may have it done: "you may have it fight …" (CR 608.2d)
            if len(ch) > 3:
                act.extra["duration"] = ch[3]
        return act

    def c_where(self, meta, ch):
        return ch[0]

    def c_unless(self, meta, ch):
        act, who, other = ch[0], ch[1], ch[2]
        if isinstance(other, A.Action):
            other.subject = who
        if isinstance(act, A.Action):
            act.extra["unless"] = other
        return act

    def c_subject_unless(self, meta, ch):
        act = self.c_unless(meta, ch[1:])
        if isinstance(act, A.Action):
            act.subject = ch[0]
        return act

    def c_instead_action(self, meta, ch):
        act = ch[0]
        if isinstance(act, A.Action):
            act.extra["instead"] = True
        elif isinstance(act, A.CreateToken):  # "create two of those tokens instead" (CR 608.2c)
            act.instead = True
        return act

    def c_subject_instead(self, meta, ch):
        act = self.c_subject(meta, ch[:2])
        if isinstance(act, A.Action):
            act.extra["instead"] = True
        return act

    def c_may(self, meta, ch):
        act = self.c_subject(meta, ch[:2])
        if isinstance(act, A.Action):
            act.extra["optional"] = True
        elif isinstance(act, A.CreateToken):
            act.optional = True
        elif isinstance(act, A.AddMana):  # "you may add {C}{C}", "its controller may add …" (CR 608.2d)
            act.optional = True
            subj = ch[0]
            if isinstance(subj, A.Obj) and not (subj.quantifier == "you" and not subj.qualifiers and not subj.words):
                act.player, act.player_obj = subj.text, subj
        return act

    def c_may_if_do(self, meta, ch):
        act = self.c_may(meta, ch[:2])
        return A.Sentence([act] + list(ch[2]), condition=None, optional=True)

    def c_still(self, meta, ch):
        """"It's still a land." / "They're still lands." (CR 613.1d: a type-changing effect that adds
        types keeps the old ones): ``obj`` it / them, ``extra.words`` the type words."""
        self._form_used = True
        obj = A.Obj("them", None, [], "they") if "they're" in self._lits else A.Obj("it", None, [], "it")
        return A.Action("still_type", obj=obj, extra={"words": ch[-1]}, text=self._t(meta))

    def c_is(self, meta, ch):
        return A.Action("is", subject=ch[0], extra={"words": ch[1]}, text=self._t(meta))

    def until_eot(self, meta, ch):
        return A.Duration("until end of turn", A.DurationKind.UNTIL_END_OF_TURN)

    def this_turn(self, meta, ch):
        return A.Duration("this turn", A.DurationKind.THIS_TURN)

    def until_your_next_turn(self, meta, ch):
        return A.Duration("until your next turn", A.DurationKind.UNTIL_YOUR_NEXT_TURN)

    def as_long_as(self, meta, ch):
        return A.Unparsed(self._t(meta))

    def duration(self, meta, ch):  # pragma: no cover
        return A.Text(self._t(meta))

    def _cd(name):  # noqa: N805
        def f(self, meta, ch):
            # one builder for the conditions of effects.lark and conditions.lark (cd2_*): objects,
            # amount, counter kind, type words, zone and post-modifiers (transform_conditions)
            return self._cond_action("condition:" + name, meta, ch)
        return f

    for _n in ("control", "not_control", "you_do", "you_dont", "your_turn", "kicked", "is_a", "has", "life",
               "cast_from_hand", "would_die", "cast_it", "searched", "win_flip", "lose_flip", "attacked", "state",
               "has_counter", "no_counters", "played_land", "win", "cant", "does", "werewolf", "died", "in_zone",
               "would_put", "activated_times", "is_supertype", "control_no", "hand", "controls", "controls_more",
               "there_are", "not_your_turn", "cast_from", "gained_life", "opp_lost_life", "stat", "shares_type",
               "cast_this_turn", "counters_at_least"):
        locals()["cd_" + _n] = _cd(_n)
    del _n
    cd_is_not_a = _cd("is_not_a")  # "if ~ isn't a token" (Progenitor Mimic, CR 603.4)

    # tokens
    def tok_word(self, meta, ch):
        return self._t(meta)

    def a_grant(self, meta, ch):
        abil = [k for c in ch for k in (c if isinstance(c, list) else [])]
        for c in ch:
            if isinstance(c, Token) and c.type == "QUOTED":
                abil.append(self._tok(c))
        return A.GrantAbility(A.Obj(None, None, [], ""), abil, None, self._t(meta))

    def a_gain_kw(self, meta, ch):
        """"gains flying" / "has haste" → GrantAbility with ``verb`` "gain" | "have" (the verb written)."""
        self._form_used = True
        verb = "gain" if self._raw_lits and self._raw_lits[0].lower() in ("gain", "gains") else "have"
        return A.GrantAbility(A.Obj(None, None, [], ""), [k for c in ch if isinstance(c, list) for k in c], None,
                              self._t(meta), verb)

    def a_emblem(self, meta, ch):
        q = next(c for c in ch if isinstance(c, Token) and c.type == "QUOTED")
        return A.Action("emblem", extra={"abilities": [self._tok(q)]}, text=self._t(meta))

    def a_enters_tapped(self, meta, ch):
        return A.EntersTapped(A.Obj(None, None, [], ""), None)

    def a_enters_tapped_unless(self, meta, ch):
        return A.EntersTapped(A.Obj(None, None, [], ""), A.Unparsed(self._rest_text(ch)))

    def becomes_spec(self, meta, ch):
        return A.Text(self._t(meta))

    def bs_creature(self, meta, ch):
        words = [c for c in ch if isinstance(c, str)]
        kws = [k for c in ch if isinstance(c, list) for k in c]
        spec = _Generic("becomes", [A.Text(" ".join(words))] + kws, self._t(meta))
        spec.words, spec.abilities = words, kws  # read by transform_effects.a_becomes
        return spec


#: Literal words of a comparison ("N or more", "N or fewer", "more than N") and of a negation
#: (a condition that is not met: "if you didn't cast it from your hand").
_MORE_WORDS = frozenset(("more", "greater", "higher"))
_LESS_WORDS = frozenset(("less", "fewer", "lower"))
_NEGATIONS = frozenset(("don't", "didn't", "doesn't", "isn't", "wasn't", "aren't", "weren't", "hasn't",
                        "haven't", "not", "never"))


#: Base-form verbs of a predicate joined to a plural subject ("Creatures you control get +1/+1 and
#: gain trample"); an imperative ("… and draw a card") is not one.
_PREDICATE_VERBS = frozenset(("gain", "get", "have", "lose", "can't", "can", "become", "attack", "block",
                              "deal", "assign", "fight", "explore", "connive", "must"))


def _is_empty_obj(o) -> bool:
    return isinstance(o, A.Obj) and o.quantifier is None and not o.words and not o.qualifiers and not o.text


def _subject(node):
    """The subject of an effect node (Action, GrantAbility, CopyEffect, EntersTapped, EntersWith),
    None when it has none (an empty Obj counts as none)."""
    subj = getattr(node, "subject", None)
    return None if subj is None or _is_empty_obj(subj) else subj


def _duration(node):
    if isinstance(node, A.Action):
        return node.extra.get("duration")
    if isinstance(node, A.GrantAbility):
        return node.duration
    return None


def _set_duration(node, dur) -> None:
    """Put a duration (a node of common.lark's ``duration``) on an Action (``extra["duration"]``) or
    a GrantAbility (``duration``; a Duration node, or an ``Action("duration:…")``)."""
    if isinstance(node, A.Action):
        node.extra["duration"] = dur
    elif isinstance(node, A.GrantAbility):
        node.duration = dur if isinstance(dur, (A.Text, A.Action)) else None


def _resolve_joined(nodes: list, conjs: list) -> None:
    """Give joined predicates their subject and spread a chain's final duration (see
    ``ToAst.clause_list``). ``conjs[i]`` is the conjunction before ``nodes[i]`` (None: none)."""
    from pipeline.parse.render_objects import is_plural

    chain: list = []
    chains = []
    for i, node in enumerate(nodes):
        prev = _subject(nodes[i - 1]) if i else None
        conj = conjs[i]
        verb = getattr(node, "_verb", "")
        # "Any number of target players each lose 2 life and sacrifice a creature", "Those players put
        # those cards onto the battlefield, then shuffle": a base-form verb agrees with a plural subject
        plural_base = is_plural(prev) and verb.isalpha() and not verb.endswith("s")
        joined = (i > 0 and prev is not None and _subject(node) is None and hasattr(node, "subject")
                  and conj is not None
                  # ", then draws seven cards": a third-person verb after "then" keeps the subject
                  and ("then" not in conj.word or verb.endswith("s") or plural_base)
                  and not (isinstance(prev, A.Obj) and prev.quantifier == "you"))
        if joined:
            joined = isinstance(node, A.GrantAbility) or verb in _PREDICATE_VERBS or plural_base or (
                verb.endswith("s") and verb != "this") or verb == "are" or verb == "doesn't" or (
                verb == "don't" and is_plural(prev))  # "gets +4/+2 and doesn't untap …" (CR 502.3)
        if joined:
            node.subject = prev
            chain.append(node)
        else:
            if len(chain) > 1:
                chains.append(chain)
            chain = [node]
    if len(chain) > 1:
        chains.append(chain)
    _carry_may(nodes, conjs)
    for chain in chains:
        if is_perpetual(chain[0]):  # "It perpetually gets +1/+1 and gains vigilance" (MTG Arena)
            for node in chain[1:]:
                mark_perpetual(node)
            continue  # (its "duration" is that mark, not one to spread)
        dur = _duration(chain[-1])
        if dur is not None:
            for node in chain[:-1]:
                if _duration(node) is None:
                    _set_duration(node, dur)


def _is_optional(node) -> bool:
    if isinstance(node, A.Action):
        return node.extra.get("optional") is True
    return isinstance(node, A.CreateToken) and node.optional


def _carry_may(nodes: list, conjs: list) -> None:
    """"A may X, Y, then Z" is one choice of A's (CR 608.2d): every action joined after a "may"
    clause ("and", ",", ", then" …) that has no subject of its own, or the same subject, takes A
    as its subject and is optional too ("Each player may discard their hand and draw seven cards";
    "you may search your library for …, reveal it, put it into your hand, then shuffle")."""
    who = None
    for i, node in enumerate(nodes):
        if who is not None and conjs[i] is not None and isinstance(node, (A.Action, A.CreateToken)):
            own = _subject(node)
            if own is None or own is who:
                node.subject = who
                if isinstance(node, A.Action):
                    node.extra["optional"] = True
                else:
                    node.optional = True
                continue
        who = _subject(node) if _is_optional(node) else None


def _with_form(res, form: list[str]):
    """Keep the form (literal words telling a rule's alternatives apart) on a callback's result:
    ``extra["form"]`` of a node with an ``extra`` dict (Action), a ``form:<w>+<w>`` qualifier of an
    Obj, a ``:<w>+<w>`` suffix of a quantifier or qualifier string. Other results are returned as
    they are (their callbacks encode the alternative themselves)."""
    joined = "+".join(form)
    if isinstance(res, A.Obj):
        res.qualifiers.append("form:" + joined)
    elif isinstance(getattr(res, "extra", None), dict):
        covered = set(res.extra.get("words") or ())  # words the callback kept already: no form for them
        for k, v in res.extra.items():
            if isinstance(v, str):
                covered.update(v.lower().replace("_", " ").split())
            elif v is True:
                covered.update(k.split("_"))  # "on_your_turn": True covers "on … turn"
        form = [w for w in form if w not in covered]
        if form:
            res.extra.setdefault("form", form)
    elif isinstance(res, _Quant):
        res.name = f"{res.name}:{joined}"
    elif isinstance(res, _RefStr):  # "that targets only ~" / "that targets ~"
        res.form = list(res.form or []) + list(form)
    elif type(res) is str:  # (str subclasses are markers of their own, e.g. transform_zones._Lib)
        table = literal_table()
        if not set(form) <= {norm_word(w, table.literals) for w in re.split(r"[^a-z0-9'/+-]+", res.lower())}:
            # (a word rule's result is the word itself: no form)
            res = _FormStr(res)
            res.form = form
    return res


#: the qualifiers of the later items of an object list (``_mk_obj``)
_LIST_QUALS = ("list_and", "list_or", "list_and_or")


def _last_list_item(obj: A.Obj) -> A.Obj | None:
    """The last later item of an object list ("target creature and **all other creatures**"), or None."""
    n = 0
    while n < len(obj.qualifiers) and obj.qualifiers[n] in _LIST_QUALS:
        n += 1
    return obj.refs[n - 1] if n and len(obj.refs) >= n and isinstance(obj.refs[n - 1], A.Obj) else None


def _distributes(post: str) -> bool:
    """A post-modifier after an object list that applies to every item: a zone ("… card and … card from
    your graveyard", CR 400.1), "from among …" (CR 608.2c), "of their choice"; any other ("with the same
    name as that permanent", "that shares a color with it", "with flash", "they control") belongs to
    the last item only."""
    return post.startswith("zone:") or post in ("from_among", "their_choice")


class _Generic:
    """Internal: an intermediate rule result with children (turned into nodes by parents)."""

    def __init__(self, name, kids, text):
        self.name, self.kids, self.text = name, kids, text

    def as_node(self):
        nodes = [k for k in self.kids if isinstance(k, A.Node)]
        if len(nodes) == 1 and not isinstance(nodes[0], A.Text):
            return nodes[0]
        return A.Text(self.text) if not nodes else A.Sentence(nodes)


class _Clauses(list):
    """clause_list's result: the effects, with ``joins`` between them."""

    def __init__(self, *args):
        super().__init__(*args)
        self.joins: list[str] = []


def _clauses(value) -> list:
    """The effects of a clause_list result, keeping its joins (a copy of any other list)."""
    return value if isinstance(value, _Clauses) else list(value)


class _Conj:
    def __init__(self, word):
        self.word = word


class _StepName:
    def __init__(self, step):
        self.step = step


class _StepOwnerMark:
    def __init__(self, owner):
        self.owner = owner


class _StepTime(_Generic):
    """step_time's result: a _Generic (what compound events keep: its wording as Text) that
    also carries the ``phase``/``owner`` enums for ev_step."""

    def __init__(self, name, text, extra):
        super().__init__(name, [], text)
        self.extra = extra


class _Quant:
    def __init__(self, name, count):
        self.name, self.count = name, count


class _DList(list):
    """The words of a ``dlist`` (ToAst.dlist): ``quants`` maps the index of a later item's
    quantifier name to its :class:`_Quant`."""

    def __init__(self, *a):
        super().__init__(*a)
        self.quants: dict[int, _Quant] = {}

    def items(self):
        """(words before the first quantified item, [(quantifier, words) of each later quantified
        item]) — an item without a quantifier stays in the words of the one before it."""
        cuts = sorted(self.quants)
        head = list(self[:cuts[0] - 1]) if cuts else list(self)
        later = []
        for k, i in enumerate(cuts):
            end = cuts[k + 1] - 1 if k + 1 < len(cuts) else len(self)
            later.append((self.quants[i], list(self[i + 1:end])))
        return head, later


class _Name:
    def __init__(self, name):
        self.name = name


class _Word:
    def __init__(self, w):
        self.w = w


