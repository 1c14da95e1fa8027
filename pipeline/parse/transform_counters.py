"""Transformer rules for ``grammar/counters.lark``: counters (CR 122) — counter kinds, putting,
removing and getting counters, and the enters-with-counters replacement (CR 614.1c, 122.6).

:class:`CounterRules` is a mixin of :class:`pipeline.parse.transform.ToAst` (which inherits
it); every method takes ``(meta, children)`` like ``ToAst``'s. Results:

* ``counter_kind`` → :class:`_Counter` (its ``kind``: "+1/+1", "charge", …; the generic action
  builder puts it in ``Action.extra["counter"]``);
* ``a_put_counters_for_each`` → ``Action("put_counters", extra={"counter", "for_each": Obj})``;
* ``p_with_counter_*`` → the Obj qualifier ``with_counter:<amount>:<kind>:<it|them>`` ("with a +1/+1
  counter on it" → ``with_counter:1:+1/+1:it``; "with a counter on it" → ``with_counter:1::it``);
* ``a_enters_with*`` → :class:`EntersWith` with one :class:`CounterSpec`; its subject is set by
  the clause that names it (``ToAst.c_subject``), ``~`` when the sentence has none.
"""

from __future__ import annotations

from lark import Token, Transformer, v_args

from pipeline.parse import ast as A
from pipeline.parse.children import first_of as _first


class _Counter:
    """A counter kind read by ``counter_kind`` (lower case as written)."""

    def __init__(self, kind):
        self.kind = kind


def _kind(children) -> str:
    ck = next((c for c in children if isinstance(c, _Counter)), None)
    return ck.kind if ck else ""


def _no_subject() -> A.Obj:
    return A.Obj(None, None, [], "")


@v_args(meta=True)
class CounterRules(Transformer):
    """Callbacks of ``grammar/counters.lark`` (mixed into ``ToAst``)."""

    def counter_kind(self, meta, ch):
        return _Counter(self._low(meta))

    counter_kind_word = counter_kind

    def a_put_counters_for_each(self, meta, ch):
        """"put a +1/+1 counter on each creature you control for each …" (CR 122.6): the
        counted object is ``extra["for_each"]``, the per-object count stays the amount."""
        objs = [c for c in ch if isinstance(c, A.Obj)]
        return A.Action("put_counters", obj=objs[0], amount=_first(ch, A.Amount),
                        extra={"counter": _kind(ch), "for_each": objs[-1]}, text=self._t(meta))

    def a_put_counters_for_each_counter(self, meta, ch):
        """"put a -1/-1 counter on target creature for each -1/-1 counter on ~" (CR 122.1, 107.1): the
        counted counters are ``extra["for_each"]`` = ``Action("quantity:counters", obj, extra={"counter"})``
        (as ``ToAst.c_rider_for_each_counter``), the per-counter count stays the amount."""
        objs = [c for c in ch if isinstance(c, A.Obj)]
        kinds = [c.kind for c in ch if isinstance(c, _Counter)]
        counted = A.Action("quantity:counters", obj=objs[-1], extra={"counter": kinds[-1]})
        return A.Action("put_counters", obj=objs[0], amount=_first(ch, A.Amount),
                        extra={"counter": kinds[0], "for_each": counted}, text=self._t(meta))

    def a_put_counters_two(self, meta, ch):
        """"put a +1/+1 counter on it and a +1/+1 counter on up to one other target attacking
        creature" → ``put_counters`` with ``extra.also``: the second ``put_counters`` Action (its own
        amount, kind and object; CR 122.6)."""
        objs = [c for c in ch if isinstance(c, A.Obj)]
        amts = [c for c in ch if isinstance(c, A.Amount)]
        kinds = [c.kind for c in ch if isinstance(c, _Counter)]
        if len(objs) != 2 or len(amts) != 2 or len(kinds) != 2:
            return A.Action("put_counters", text=self._t(meta))  # (no object: does not render)
        second = A.Action("put_counters", obj=objs[1], amount=amts[1], extra={"counter": kinds[1]})
        return A.Action("put_counters", obj=objs[0], amount=amts[0], extra={"counter": kinds[0], "also": second},
                        text=self._t(meta))

    def a_enters_with(self, meta, ch):
        return A.EntersWith(_no_subject(), [A.CounterSpec(_kind(ch), _first(ch, A.Amount))])

    def a_enters_tapped_with(self, meta, ch):
        e = self.a_enters_with(meta, ch)
        e.tapped = True
        return e

    a_enters_tapped_with_counters = a_enters_tapped_with

    def a_enters_with_equal(self, meta, ch):
        """"enters with a number of +1/+1 counters on it equal to …": the amount is equal_to."""
        return A.EntersWith(_no_subject(), [A.CounterSpec(_kind(ch), _first(ch, A.Amount))])

    def a_enters_with_for_each(self, meta, ch):
        """"~ enters with a +1/+1 counter on it for each …" (CR 614.1c): the counter amount
        is the for-each Amount with the per-item count in ``value``."""
        amounts = [c for c in ch if isinstance(c, A.Amount)]
        per, each = amounts[0], amounts[-1]
        each.value = per.value
        return A.EntersWith(_no_subject(), [A.CounterSpec(_kind(ch), each)])

    def _counted_counters(self, ch) -> A.Action:
        """The counters "for each" counts (CR 122.1): ``Action("quantity:counters", obj, extra={"counter"})``
        ("for each loyalty counter on planeswalkers you control"), ``extra.among`` for "… among other creatures
        you control", or ``Action("quantity:counters_removed", extra={"counter"})`` for "… counter removed
        this way"; the kind is the last counter kind written ("" any)."""
        kinds = [c.kind for c in ch if isinstance(c, _Counter)]
        lits = [w.lower() for w in self._raw_lits]
        each = lits.index("each") if "each" in lits else 0
        kind = kinds[-1] if len(kinds) == 2 else ""  # (the first kind is the counter put)
        if "removed" in lits[each:]:
            return A.Action("quantity:counters_removed", extra={"counter": kind})
        extra = {"counter": kind}
        if "among" in lits[each:]:
            extra["among"] = True
        objs = [c for c in ch if isinstance(c, A.Obj)]
        return A.Action("quantity:counters", obj=objs[-1] if objs else None, extra=extra)

    def a_gain_life_for_each_counter(self, meta, ch):
        """"you gain 2 life for each age counter on it" (CR 119.1, 122.1) → ``gain_life`` with ``extra.for_each``
        the counted counters (as ``ToAst.c_rider_for_each_counter``)."""
        kind = _kind(ch)
        counted = A.Action("quantity:counters", obj=_first(ch, A.Obj), extra={"counter": kind})
        return A.Action("gain_life", amount=_first(ch, A.Amount), extra={"for_each": counted}, text=self._t(meta))

    def a_enters_with_for_each_counter(self, meta, ch):
        """"~ enters with a +1/+1 counter on it for each loyalty counter on planeswalkers you control" (CR
        614.1c, 122.1) → EntersWith whose CounterSpec amount is ``Amount(for_each, value=<per counter>,
        ref=<the counted counters>)`` (:meth:`_counted_counters`)."""
        self._form_used = True  # "on" / "among" / "removed this way" are read by _counted_counters
        first = next(c.kind for c in ch if isinstance(c, _Counter))
        per = _first(ch, A.Amount)
        each = A.Amount("for_each", value=per.value if per is not None else 1, ref=self._counted_counters(ch),
                        text=self._t(meta))
        return A.EntersWith(_no_subject(), [A.CounterSpec(first, each)])

    def qt_counters_removed(self, meta, ch):
        """"the number of charge counters removed this way" (the counters a cost removed, CR 118.3, 107.1)
        → Amount(equal_to) of ``Action("quantity:counters_removed", extra={"counter"})`` (kind "" any)."""
        return A.Amount("equal_to", ref=A.Action("quantity:counters_removed", extra={"counter": _kind(ch)},
                                                 text=self._t(meta)), text=self._t(meta))

    def a_enters_with_additional(self, meta, ch):
        """"enters with an additional +1/+1 counter on it" (CR 122.6): one counter beyond those
        another effect gives (``CounterSpec.additional``)."""
        return A.EntersWith(_no_subject(), [A.CounterSpec(_kind(ch), A.Amount("fixed", value=1, text="an"),
                                                          additional=True)])

    def a_enters_with_additional_n(self, meta, ch):
        """"enters with two additional +1/+1 counters on it" (CR 122.6)."""
        return A.EntersWith(_no_subject(), [A.CounterSpec(_kind(ch), _first(ch, A.Amount), additional=True)])

    # ------------------------------------------------------------ several kinds, any kind, moving
    def counter_spec(self, meta, ch):
        """"a +1/+1 counter", "two flying counters" → CounterSpec(kind, amount) (CR 122.1)."""
        return A.CounterSpec(_kind(ch), _first(ch, A.Amount) or A.Amount("fixed", value=1, text="a"))

    def a_put_counter_list(self, meta, ch):
        """"Put a +1/+1 counter and a lifelink counter on target creature" (CR 122.1) →
        ``Action("put_counters", obj, extra={"counters": [CounterSpec, …]})`` (no ``counter``
        key: each kind is in its CounterSpec)."""
        specs = [c for c in ch if isinstance(c, A.CounterSpec)]
        return A.Action("put_counters", obj=_first(ch, A.Obj), extra={"counters": specs}, text=self._t(meta))

    def a_put_counter_choice(self, meta, ch):
        """"Put your choice of a vigilance counter, a reach counter, or a trample counter on it" (CR 122.1,
        608.2d) → ``Action("put_counters", obj, extra={"choice": [CounterSpec, …], "chooser": "your"})``."""
        specs = [c for c in ch if isinstance(c, A.CounterSpec)]
        return A.Action("put_counters", obj=_first(ch, A.Obj), extra={"choice": specs, "chooser": "your"},
                        text=self._t(meta))

    def a_put_counter_choice_kinds(self, meta, ch):
        """"put your choice of a menace, trample, or lifelink counter on it": one counter, the kinds sharing
        the noun → as :meth:`a_put_counter_choice` with ``extra.shared_noun``."""
        amount = _first(ch, A.Amount) or A.Amount("fixed", value=1, text="a")
        specs = [A.CounterSpec(c.kind, amount) for c in ch if isinstance(c, _Counter)]
        return A.Action("put_counters", obj=_first(ch, A.Obj),
                        extra={"choice": specs, "chooser": "your", "shared_noun": True}, text=self._t(meta))

    def a_put_counter_either(self, meta, ch):
        """"Put a +1/+1 counter or a loyalty counter on it" (the one who puts it chooses, CR 608.2d) →
        ``put_counters`` with ``extra.choice`` and no ``chooser``."""
        specs = [c for c in ch if isinstance(c, A.CounterSpec)]
        return A.Action("put_counters", obj=_first(ch, A.Obj), extra={"choice": specs}, text=self._t(meta))

    def a_enters_with_list(self, meta, ch):
        """"~ enters with a +1/+1 counter, a flying counter, and a shield counter on it" (CR 614.1c)."""
        return A.EntersWith(_no_subject(), [c for c in ch if isinstance(c, A.CounterSpec)])

    def a_remove_any_counters(self, meta, ch):
        """"Remove a counter from target permanent" (a counter of any kind, CR 122.1): counter ``""``."""
        return A.Action("remove_counters", obj=_first(ch, A.Obj), amount=_first(ch, A.Amount),
                        extra={"counter": ""}, text=self._t(meta))

    @staticmethod
    def _up_to(ch) -> A.Amount:
        n = _first(ch, A.Amount)
        return A.Amount("up_to", value=n.value if n else None, variable=n.variable if n else None,
                        text="up to " + (n.text if n else ""))

    def a_remove_up_to(self, meta, ch):
        """"Remove up to three counters from target creature" (``counter`` "" = any kind): Amount up_to."""
        return A.Action("remove_counters", obj=_first(ch, A.Obj), amount=self._up_to(ch),
                        extra={"counter": _kind(ch)}, text=self._t(meta))

    def a_put_up_to(self, meta, ch):
        """"Put up to X +1/+0 counters on ~": Amount up_to (value or variable)."""
        return A.Action("put_counters", obj=_first(ch, A.Obj), amount=self._up_to(ch),
                        extra={"counter": _kind(ch)}, text=self._t(meta))

    def a_remove_all_kind(self, meta, ch):
        """"Remove all -1/-1 counters from it" → ``remove_all_counters`` with its ``counter`` kind."""
        return A.Action("remove_all_counters", obj=_first(ch, A.Obj), extra={"counter": _kind(ch)},
                        text=self._t(meta))

    def a_move_counters(self, meta, ch):
        """CR 122.5: "Move a +1/+1 counter from target creature you control onto ~" →
        ``Action("move_counters", obj=from, amount, extra={"counter": kind ("" any), "onto": Obj})``."""
        objs = [c for c in ch if isinstance(c, A.Obj)]
        return A.Action("move_counters", obj=objs[0], amount=_first(ch, A.Amount),
                        extra={"counter": _kind(ch), "onto": objs[1]}, text=self._t(meta))

    def a_move_any_number(self, meta, ch):
        """"Move any number of +1/+1 counters from … onto …" (CR 122.5): Amount ``any``."""
        a = self.a_move_counters(meta, ch)
        a.amount = A.Amount("any", text="any number of")
        return a

    # ------------------------------------------------------------ counters named by a pronoun
    def a_put_those_counters(self, meta, ch):
        """"put its counters on target creature you control" / "put those counters on ~" (CR 122.1,
        603.10a) → ``put_counters`` with no amount, ``extra.those: its | those`` and the kind ("" any)."""
        self._form_used = True
        which = "its" if "its" in (w.lower() for w in self._raw_lits) else "those"
        return A.Action("put_counters", obj=_first(ch, A.Obj), extra={"counter": _kind(ch), "those": which},
                        text=self._t(meta))

    def a_remove_those_counters(self, meta, ch):
        """"remove those counters", "remove them all", "remove all of them" (the counters just named,
        CR 122.1) → ``remove_counters`` with no object, ``extra.those``."""
        self._form_used = True
        raw = [w.lower() for w in self._raw_lits][1:]
        which = {("those", "counters"): "those", ("all", "of", "them"): "all_of_them",
                 ("them", "all"): "them_all", ("them",): "them"}.get(tuple(raw), "those")
        return A.Action("remove_counters", extra={"counter": _kind(ch), "those": which}, text=self._t(meta))

    def a_move_all_counters(self, meta, ch):
        """CR 122.5: "move all counters from target creature onto another target creature" → ``move_counters``
        with Amount ``all``."""
        a = self.a_move_counters(meta, ch)
        a.amount = A.Amount("all", text="all")
        return a

    def a_put_counters_equal_first(self, meta, ch):
        """"put a number of +1/+1 counters equal to its power on up to one target creature" → ``put_counters``
        with an equal_to amount and ``extra.equal_first`` (the amount written before the object)."""
        return A.Action("put_counters", obj=_first(ch, A.Obj), amount=_first(ch, A.Amount),
                        extra={"counter": _kind(ch), "equal_first": True}, text=self._t(meta))

    # ------------------------------------------------------------ objects with counters
    def _with_counter(self, ch, pronoun: str) -> str:
        amt = _first(ch, A.Amount)
        n = "1" if amt is None else (str(amt.value) if amt.value is not None else (amt.variable or amt.kind))
        self._form_used = True  # the pronoun and the kind are kept in the qualifier itself
        return f"with_counter:{n}:{_kind(ch)}:{pronoun}"

    def p_with_counter_it(self, meta, ch):
        return self._with_counter(ch, "it")

    def p_with_counter_them(self, meta, ch):
        return self._with_counter(ch, "them")

    def p_with_any_counter(self, meta, ch):
        return self._with_counter(ch, "it")

    def _counters_q(self, name: str, n: str, ch) -> str:
        """``<name>:<n>:<kind>:<it|them>`` (the pronoun from the literal words the rule matched)."""
        self._form_used = True
        pronoun = "them" if "them" in self._raw_lits else "it"
        return f"{name}:{n}:{_kind(ch)}:{pronoun}"

    def p_with_counters_some(self, meta, ch):
        """"with +1/+1 counters on them", "with counters on it" (one or more, of that kind or any, CR 122.1).
        "with no counters on it": the lexer reads a word before "counters" as a kind where it may, so
        the determiners "no" ("with no counters on it") and "a" ("with a counter on it", one counter of
        any kind) — never kinds, ``gen_counters.NOT_KINDS`` — arrive here as one."""
        kind = _kind(ch)
        if kind in ("no", "a", "an"):
            self._form_used = True
            n = "no" if kind == "no" else "1"
            return f"with_counter:{n}::{'them' if 'them' in self._raw_lits else 'it'}"
        if "counter" in (w.lower() for w in self._raw_lits):  # "with <kind> counter on it": no count (not Oracle wording)
            return self._counters_q("with_counter", "?", ch)
        return self._counters_q("with_counter", "some", ch)

    def p_with_no_counters(self, meta, ch):
        """"with no counters on it", "with no +1/+1 counters on it" (CR 122.1)."""
        return self._counters_q("with_counter", "no", ch)

    def p_with_one_or_more_counters(self, meta, ch):
        """"with one or more counters on it", "with one or more +1/+1 counters on them" (CR 122.1)."""
        return self._counters_q("with_counter", "one_or_more", ch)

    def p_without_counter(self, meta, ch):
        """"without a +1/+1 counter on it", "without a fate counter on it" (CR 122.1)."""
        amt = _first(ch, A.Amount)
        n = "1" if amt is None else (str(amt.value) if amt.value is not None else (amt.variable or amt.kind))
        return self._counters_q("without_counter", n, ch)

    def qt_counters_on(self, meta, ch):
        """"the number of +1/+1 counters on ~" (CR 107.1): Amount(equal_to) of
        ``Action("quantity:counters", obj, extra={"counter"})``."""
        return A.Amount("equal_to", ref=A.Action("quantity:counters", obj=_first(ch, A.Obj),
                                                 extra={"counter": _kind(ch)}, text=self._t(meta)),
                        text=self._t(meta))

    # ------------------------------------------------------------ energy counters (CR 107.14)
    def _energy(self, verb, meta, ch):
        n = sum(1 for c in ch if isinstance(c, Token) and c.type == "ENERGY_SYM")
        return A.Action(verb, amount=A.Amount("fixed", value=n, text=self._t(meta).split(" ", 1)[-1]),
                        text=self._t(meta))

    def a_get_energy(self, meta, ch):
        """"you get {E}{E}": each {E} is one energy counter (CR 107.14); the count is the amount."""
        return self._energy("get_energy", meta, ch)

    def a_pay_energy(self, meta, ch):
        """"pay {E}{E}" (CR 107.14: remove that many energy counters)."""
        return self._energy("pay_energy", meta, ch)

    # ------------------------------------------------------------ doubling (CR 701.10e)
    def a_double_counters(self, meta, ch):
        """"double the number of +1/+1 counters on target creature" (CR 701.10e)."""
        return A.Action("double_counters", obj=_first(ch, A.Obj), extra={"counter": _kind(ch)}, text=self._t(meta))

    def a_double_counters_each_kind(self, meta, ch):
        """"double the number of each kind of counter on target permanent" (CR 701.10e)."""
        return A.Action("double_counters", obj=_first(ch, A.Obj), extra={"counter": "each_kind"}, text=self._t(meta))
