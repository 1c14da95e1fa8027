"""Transformer rules for the object and quantity rules that ``grammar/objects.lark`` gained
after ``transform.py``'s: targets counted without a type ("one or two targets", CR 601.2d),
post-modifiers (qualifier strings ``with_different:powers``; ``blocking``, ``and``, ``mv_equal_to``,
``power_leq`` with their object or quantity in ``Obj.refs``) and quantities
(``Amount{kind: equal_to}``).

:class:`ObjectRules` is a mixin of :class:`pipeline.parse.transform.ToAst`; every method takes
``(meta, children)`` like ``ToAst``'s.
"""

from __future__ import annotations

from lark import Transformer, v_args

from pipeline.parse import ast as A
from pipeline.parse.children import first_of as _first
from pipeline.parse.qualifiers import ref_post, take_posts


@v_args(meta=True)
class ObjectRules(Transformer):
    """Mixin with object and quantity rules of ``grammar/objects.lark`` (see the module docstring)."""

    def p_that_player_or_pw_controls(self, meta, ch):
        """"that player or that planeswalker's controller controls" (CR 115.1: the targeted player or
        the targeted planeswalker's controller); another card type keeps its word in the qualifier
        (not rendered)."""
        kind = next(str(c).lower() for c in ch if getattr(c, "type", None) == "CARDTYPE")
        return "that_player_or_pw_controls" if kind == "planeswalker" else f"that_player_or_{kind}_controls"

    def p_dealt_damage_to_you(self, meta, ch):  # CR 120.1
        return "dealt_damage_to_you"

    def p_tapped_this_way(self, meta, ch):  # "each creature tapped this way" (as p_this_way, CR 608.2c)
        return "this_way:tapped"

    def dword_non_comma(self, meta, ch):
        """"noncreature," of "noncreature, nonland permanent" (CR 109.2): the "non-" word alone (the
        renderer writes the comma between two "non-" words, render_objects.descriptor)."""
        return str(ch[0]).lower()

    # ------------------------------------------------------------ targets counted without a type (CR 601.2c-d, 115)
    def o_any_number_targets(self, meta, ch):
        return A.Obj("any_number", None, ["targets"], self._t(meta), ["any_target"])

    def o_n_or_n_targets(self, meta, ch):  # "one or two targets", "one, two, or three target creatures"
        nums = [c for c in ch if isinstance(c, A.Amount)]
        words = [w for c in ch if isinstance(c, list) for w in c] or ["targets"]
        low = self._low(meta)
        quals = ["any_target"] if low.endswith("targets") and words == ["targets"] else []
        text = self._t(meta)
        cnt_text = text[:len(text) - len(text.split()[-1]) - 1]
        if cnt_text.endswith(" target"):
            cnt_text = cnt_text[:-len(" target")]
        if "target" in self._raw_lits:  # "one or two target creatures" (the word written, not "targets")
            quals.append("form:target")
        self._form_used = True
        return A.Obj("target", A.Amount("one_to", value=nums[-1].value, text=cnt_text), words, text, quals)

    def o_n_of(self, meta, ch):
        """"one of them", "two of those cards", "up to two of them" (a number of the objects named,
        CR 608.2c): the inner object's fields with qualifier ``n_of`` first (then ``form:up+to``
        for "up to N of") and the number in ``count`` ("one of …": 1)."""
        inner = _first(ch, A.Obj)
        n = _first(ch, A.Amount)
        if inner is None or inner.count is not None:  # ("one of up to two …": two counts, one field)
            raise ValueError("o_n_of: no object, or a counted one")
        out = A.Obj(inner.quantifier, n if n is not None else A.Amount("fixed", value=1, text="one"),
                    list(inner.words), self._t(meta), ["n_of"], list(inner.refs))
        if "up" in self._lits:
            self._form_used = True
            out.qualifiers.append("form:up+to")
        out.qualifiers.extend(inner.qualifiers)
        return out

    def o_itself(self, meta, ch):
        """"itself" ("Each creature deals damage to itself equal to its power"): the object the clause's
        own subject names (a reflexive pronoun, not another object "it" refers to): quantifier ``it``,
        qualifier ``reflexive``."""
        return A.Obj("it", None, [], self._t(meta), ["reflexive"])

    def q_up_to_other(self, meta, ch):
        from pipeline.parse.transform import _Quant
        return _Quant("up_to_other_target", _first(ch, A.Amount))


    def z_gy_hand(self, meta, ch):
        """"your hand or graveyard", "your graveyard and/or hand" (CR 400.1: two zones of one
        player): zone ``gy_hand`` with the form [first zone, separator] ("hand", "or"), the order
        and the separator as written (render_objects.POST_FORMS)."""
        from pipeline.parse.qualifiers import FormStr

        words = self._low(meta).split()
        out = FormStr("gy_hand")
        out.form = [words[1], words[2]]
        self._form_used = True
        return out

    # ------------------------------------------------------------ post-modifiers
    def p_mv_equal(self, meta, ch):  # "with mana value equal to the number of charge counters on ~" (CR 202.3)
        return ref_post("mv_equal_to", _first(ch, A.Amount))

    def p_different(self, meta, ch):
        return "with_different:" + self._low(meta).rsplit(" ", 1)[-1]

    def p_power_leq(self, meta, ch):  # "with power less than or equal to ~'s power" (CR 208.1)
        return ref_post("power_leq", _first(ch, A.Amount))

    def p_from_source(self, meta, ch):  # "an activated ability from an artifact source" (CR 113.7)
        words = next((c for c in ch if isinstance(c, list)), [])
        return "from_source:" + ",".join(words)

    def p_from_among(self, meta, ch):  # "a creature card from among them", "… from among cards exiled with ~" (CR 608.2c)
        return ref_post("from_among", _first(ch, A.Obj))

    def p_died_this_turn(self, meta, ch):  # "each creature that died this turn" (CR 700.4: put into a graveyard from the battlefield)
        return "died_this_turn"

    def p_shares_with(self, meta, ch):
        """"a creature card that shares a creature type with it", "each other creature that shares
        a color with it" (CR 205.3, 105.2): qualifier ``shares_with:<what>`` (creature_type,
        card_type, color) with the other object in ``refs``; "share" (a plural subject) or
        "shares" is the agreement the renderer writes from the object's number."""
        what = next((c for c in ch if isinstance(c, _Shared)), None)
        if what is None:
            raise ValueError("p_shares_with: no quality")
        return ref_post("shares_" + what, _first(ch, A.Obj))

    def share_verb(self, meta, ch):  # (the agreement is written from the object's number)
        return None

    def sq_creature_type(self, meta, ch):
        return _Shared("creature_type")

    def sq_card_type(self, meta, ch):
        return _Shared("card_type")

    def sq_color(self, meta, ch):
        return _Shared("color")

    def p_greatest_stat(self, meta, ch):
        """"the creature they control with the greatest mana value", "the creature with the least
        power" (CR 208.1, 202.3): qualifier ``extreme:<greatest|least>:<stat>``, no object compared
        among (the object itself names the set)."""
        stat = self._stat_of(ch)
        if stat is None:
            raise ValueError("p_greatest_stat: no characteristic")
        self._form_used = True
        return f"extreme:{'least' if 'least' in self._lits else 'greatest'}:{stat}"

    def p_total_stat(self, meta, ch):
        """"any number of creature cards with total mana value 6 or less", "… with total power 4 or
        less" (CR 202.3, 208.1: the sum over the objects chosen): qualifier
        ``total:<stat>:<n>:<= | >=``."""
        stat, n = ("mana value" if "value" in self._lits else "power"), _first(ch, A.Amount)
        if stat is None or n is None or n.ref is not None or (n.value is None and not n.variable):
            raise ValueError("p_total_stat: no characteristic or number")
        self._form_used = True
        cmp = "<=" if "less" in self._lits else ">="
        return f"total:{stat}:{n.value if n.value is not None else n.variable}:{cmp}"

    def p_that_has(self, meta, ch):
        """"a creature spell that has an Adventure" (CR 715.1: an adventurer card; the subtype Adventure,
        CR 205.3k): qualifier ``that_has:<type words>`` (conditions.lark p_that_has)."""
        words = next((c for c in ch if isinstance(c, list)), [])
        if not words:
            raise ValueError("p_that_has: no type words")
        return "that_has:" + ",".join(words)

    def p_with_mana_symbol(self, meta, ch):
        """"a spell with {X} in its mana cost" (CR 107.3, 202.1: a symbol of the printed mana cost):
        qualifier ``with_mana_symbol:<symbols>`` — the raw symbols ("{X}"), each a mana symbol of CR 107.4
        (conditions.lark p_with_mana_symbol)."""
        from pipeline.parse.transform import _flat_syms

        syms = _flat_syms(ch)
        if not syms or any(s.kind == "other" for s in syms):
            raise ValueError("p_with_mana_symbol: no mana symbol")
        return "with_mana_symbol:" + "".join(s.raw for s in syms)

    def p_stat_cmp(self, meta, ch):
        """"with toughness greater than its power", "with power equal to its toughness" (CR 208.1, 202.3):
        qualifier ``<power|toughness|mv>_<relation>`` of :data:`ast.STAT_COMPARISONS` with the quantity
        (an Amount) in ``Obj.refs``."""
        rel, amount = next((c for c in ch if isinstance(c, _Relation)), None), _first(ch, A.Amount)
        key = "power" if "power" in self._lits else "toughness" if "toughness" in self._lits else "mv"
        if rel is None or amount is None:
            raise ValueError("p_stat_cmp: no relation or quantity")
        return ref_post(f"{key}_{rel}", amount)

    def stat_rel(self, meta, ch):
        return ch[0]

    stat_rel_power = stat_rel_mv = stat_rel

    def _relation(name):  # noqa: N805
        def f(self, meta, ch):
            return _Relation(name)
        return f

    sr_lt, sr_gt, sr_le, sr_ge = _relation("lt"), _relation("gt"), _relation("le"), _relation("ge")
    sr_eq, sr_eq_or_gt, sr_eq_or_lt = _relation("eq"), _relation("eq_or_gt"), _relation("eq_or_lt")
    del _relation

    def p_blocking_rel(self, meta, ch):  # "each creature blocking it" (CR 509.1), as p_blocking
        return ref_post("blocking", _first(ch, A.Obj))

    def p_blocking_or_blocked(self, meta, ch):  # "each creature blocking or blocked by ~" (CR 509.1)
        return ref_post("blocking_or_blocked_by", _first(ch, A.Obj))

    def obj_and(self, meta, ch):
        """"each creature with flying and each player" (CR 608.2c: both are affected): the first
        object with qualifier ``and`` and the second object in its ``refs``."""
        objs = [c for c in ch if isinstance(c, A.Obj)]
        first = objs[0]
        out = A.Obj(first.quantifier, first.count, list(first.words), self._t(meta), list(first.qualifiers),
                    list(first.refs))
        take_posts(out, [ref_post("and", objs[1])])
        return out


    # ------------------------------------------------------------ quantities
    # Quantities that count no object are Amount(equal_to, ref=Action("quantity:<name>")), rendered
    # by render_objects (quantity:*): the name is the structure, the wording is fixed per name.
    def _quantity(self, meta, name: str, obj=None, **extra):
        return A.Amount("equal_to", ref=A.Action("quantity:" + name, obj=obj, extra=extra, text=self._t(meta)),
                        text=self._t(meta))

    def qt_life_total(self, meta, ch):  # CR 119.1: "your life total"
        return self._quantity(meta, "life_total")

    def qt_damage_prevented(self, meta, ch):  # CR 615.5: an effect referring to the damage prevented
        return self._quantity(meta, "damage_prevented_this_way")

    def c_rider_for_each_counter(self, meta, ch):
        """"draw a card for each charge counter on ~" (counters.lark; CR 107.1, 122.1): ``extra.for_each``
        the counted counters, ``Action("quantity:counters", obj, extra={"counter": kind})`` (kind "" for
        a counter of any kind); a duration before "for each" goes to ``extra.duration``."""
        from pipeline.parse.transform_counters import _kind

        on = ch[-1]
        act, rest = self._subject_act(meta, ch[:-1])
        ex = self._extra(act)
        dur = next((c for c in rest if isinstance(c, (A.Text, A.Action)) and not isinstance(c, A.Obj)), None)
        if dur is not None:
            ex["duration"] = dur
        ex["for_each"] = A.Action("quantity:counters", obj=on, extra={"counter": _kind(rest)}, text=self._t(meta))
        return act

    def a_draw_for_each_counter(self, meta, ch):
        """"draw a card for each charge counter on ~" (CR 107.1, 122.1): ``draw`` whose
        ``extra.for_each`` is the counted counters (as :meth:`c_rider_for_each_counter`)."""
        from pipeline.parse.transform_counters import _kind

        act = self._for_each_obj("a_draw", meta, [c for c in ch if isinstance(c, A.Amount)])
        act.extra["for_each"] = A.Action("quantity:counters", obj=_first(ch, A.Obj), extra={"counter": _kind(ch)},
                                         text=self._t(meta))
        return act

    def qt_times_kicked(self, meta, ch):  # CR 702.33 kicker
        return self._quantity(meta, "times_kicked", obj=_first(ch, A.Obj) or A.Obj("self", None, ["~"], "~"))

    def qt_opponents(self, meta, ch):  # CR 102.2
        return self._quantity(meta, "opponents_you_have")

    def qt_life_gained_this_turn(self, meta, ch):  # CR 119.3
        return self._quantity(meta, "life_gained_this_turn")

    def qt_life_lost_this_way(self, meta, ch):
        return self._quantity(meta, "life_lost_this_way")

    def qt_damage_dealt_this_way(self, meta, ch):  # CR 120
        return self._quantity(meta, "damage_dealt_this_way")

    def qt_excess_damage_this_way(self, meta, ch):  # CR 120.4a, 120.10 excess damage
        return self._quantity(meta, "excess_damage_this_way")

    def qt_devotion_colors(self, meta, ch):  # CR 700.5 devotion to one or two colors
        colors = [str(c).lower() for c in ch if getattr(c, "type", None) == "COLOR"]
        return self._quantity(meta, "devotion", colors=colors)

    def qt_devotion_that_color(self, meta, ch):  # CR 700.5 ("that color": one chosen earlier)
        return self._quantity(meta, "devotion", colors=["that color"])

    def qt_stat_sacrificed(self, meta, ch):
        """"the sacrificed creature's power" (CR 208, 202.3 as last known, CR 608.2h): an Obj with
        quantifier ``the_exiled:sacrificed`` and the characteristic as ``stat:<name>``."""
        words = next((c for c in ch if isinstance(c, list)), [])
        stat = "mana value" if "value" in self._lits else "toughness" if "toughness" in self._lits else "power"
        self._form_used = True
        low = self._t(meta)
        obj = A.Obj("the_exiled:sacrificed", None, list(words), low[:low.lower().rindex("'s")].rstrip(),
                    ["stat", "stat:" + stat])
        return A.Amount("equal_to", ref=obj, text=self._t(meta))

    def qt_twice_of(self, meta, ch):  # "twice the number of creatures you control"
        return self._scaled(meta, ch, "twice")

    def qt_half_of(self, meta, ch):  # "half your life, rounded up" (CR 107.1a: rounding as written)
        rounding = "up" if "up" in self._lits else "down" if "down" in self._lits else None
        self._form_used = True
        return self._scaled(meta, ch, "half", rounding)

    def _scaled(self, meta, ch, factor: str, rounding: str | None = None):
        inner = _first(ch, A.Amount)
        if inner is None:
            raise ValueError(f"qt_{factor}_of: no quantity")
        return A.Amount("equal_to", ref=A.Scaled(factor, inner, rounding), text=self._t(meta))

    def qt_arith(self, meta, ch):
        """"the number of cards in their hand minus 4", "3 minus the number of …" (CR 107.1):
        ``Amount{equal_to, ref: Arithmetic(left, op, right, numerals)}``; the operator is the literal
        written, ``numerals`` whether a constant is digits or a word. Raises ValueError without two sides."""
        sides = [c if isinstance(c, A.Amount) else A.Amount("equal_to", ref=c, text=c.text)
                 for c in ch if isinstance(c, (A.Amount, A.Obj))]
        if len(sides) != 2:
            raise ValueError("qt_arith: two quantities expected")
        left, right = sides
        op = "minus" if "minus" in self._lits else "plus"
        self._form_used = True
        fixed = [a for a in (left, right) if a.kind == "fixed"]
        numerals = "words" if fixed and not fixed[0].text.strip().isdigit() else "digits"
        return A.Amount("equal_to", ref=A.Arithmetic(left, op, right, numerals), text=self._t(meta))

    def qt_total_number(self, meta, ch):  # "the total number of cards in all players' hands"
        return self._quantity(meta, "total_number", obj=_first(ch, A.Obj))

    def qt_greatest_number(self, meta, ch):  # "the greatest number of creatures an opponent controls"
        return self._quantity(meta, "greatest_number", obj=_first(ch, A.Obj))

    def qt_total_stat(self, meta, ch):
        """"the total power of creatures you control", "the total mana value of …" (CR 208.1,
        202.3): ``quantity:total`` with the characteristic in ``extra["stat"]``."""
        return self._quantity(meta, "total", obj=_first(ch, A.Obj), stat=self._stat_of(ch))

    def qt_greatest(self, meta, ch):
        """"the greatest power among creatures you control" / "the highest mana value among …"
        (CR 208.1, 202.3): ``quantity:greatest`` with ``extra["stat"]`` and ``extra["word"]``
        ("greatest" | "highest", the wording); "the greatest …" the grammar cannot read keeps its
        rest as Unparsed."""
        obj, stat = _first(ch, A.Obj), self._stat_of(ch)
        if obj is None or stat is None:
            rest = next((c for c in ch if getattr(c, "type", None) == "REST"), None)
            return A.Amount("equal_to", ref=A.Unparsed(str(rest) if rest is not None else self._t(meta)),
                            text=self._t(meta))
        self._form_used = True
        return self._quantity(meta, "greatest", obj=obj, stat=stat,
                              word="highest" if "highest" in self._lits else "greatest")

    @staticmethod
    def _stat_of(ch) -> str | None:
        """The characteristic a ``stat_word`` child names ("power", "mana value", …), or None."""
        stat = next((c for c in ch if isinstance(c, str) and c.startswith("stat:")), None)
        return stat[len("stat:"):] if stat is not None else None

    def o_colors_among(self, meta, ch):
        """"colors among permanents you control" (CR 105.2): quantifier ``colors_among``, word
        "color", qualifiers ``among``, ``form:colors`` (the plural, as ``types_among`` has it) and the
        object in ``refs``."""
        out = A.Obj("colors_among", None, ["color"], self._t(meta))
        take_posts(out, [ref_post("among", _first(ch, A.Obj))])
        out.qualifiers.append("form:colors")
        return out

    def qt_colors_spent(self, meta, ch):  # "the number of colors of mana spent to cast ~" (CR 601.2h)
        return self._quantity(meta, "colors_spent", obj=_first(ch, A.Obj))

    def qt_mana_spent(self, meta, ch):
        """"the amount of mana spent to cast this spell" (CR 601.2h); "the amount of {S} spent to cast …"
        keeps the symbol counted (``extra.symbols``, CR 107.4h snow mana)."""
        from pipeline.parse.transform import _flat_syms

        syms = _flat_syms(ch)
        return self._quantity(meta, "mana_spent", obj=_first(ch, A.Obj), **({"symbols": syms} if syms else {}))

    def qt_total_results(self, meta, ch):  # "the total of those results" (CR 706.2: the results of the dice rolled)
        return self._quantity(meta, "total_of_results")

    def qt_starting_life_total(self, meta, ch):  # CR 103.4
        return self._quantity(meta, "starting_life_total")

    def qt_energy_you_have(self, meta, ch):  # "the amount of {E} you have" (CR 107.14)
        return self._quantity(meta, "energy_you_have")

    def qt_result(self, meta, ch):  # "where X is the result" of a die roll (CR 706.2: the result after modifiers)
        return self._quantity(meta, "result")


class _Relation(str):
    """How a characteristic compares with a quantity (objects.lark sr_*): lt, gt, le, ge, eq, eq_or_gt, eq_or_lt."""


class _Shared(str):
    """What "that shares … with" names (objects.lark shared_quality): creature_type, card_type, color."""
