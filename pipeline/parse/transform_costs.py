"""Transformer rules for the restrictions of ``grammar/costs.lark``: when an activated ability may be
activated (CR 602.5b; "as a sorcery" / "as an instant", CR 602.5d–e) and when a spell may be cast
(CR 601.3, 307.1).

Nodes built here (docs/ast.md § Costs):

* ``Action{verb: "activate_only", extra: {restriction, condition?, timing?, and_only?}}`` — "Activate
  only as a sorcery." → restriction ``sorcery``; "Activate only once each turn." → ``once_each_turn``;
  "Activate only once." → ``once``; "Activate only if you control an Island." → ``if`` with the
  condition Action; "Activate only during your upkeep." → ``during`` with a :class:`~pipeline.parse.ast.Timing`
  (also ``before`` / ``after``); each further "and only …" part is one more Action of the same verb in
  ``extra.and_only`` (in text order).
* ``Action{verb: "cast_only", subject: ~, extra: …}`` — the same parts for "Cast this spell only …".
* ``Timing{relation, whose, period, on_turn, then}`` — see :class:`~pipeline.parse.ast.Timing`.
"""

from __future__ import annotations

from lark import Token, Transformer, v_args

from pipeline.parse import ast as A
from pipeline.parse.children import first_of as _first
from pipeline.parse.transform_counters import _kind
from pipeline.parse.transform_statics import _self_obj


class _Part(dict):
    """Internal: the extra keys of one restriction part ("as a sorcery", "if …", "during …")."""


class _Whose(str):
    """Internal: whose turn or step (``tm_whose``): one of ``ast.TIMING_WHOSE``."""


class _OnTurn(str):
    """Internal: "on your turn" / "on an opponent's turn" (``tm_on``)."""


def _const(value):
    """A rule callback that returns ``value`` (a closed-list word of the rule's alternative)."""
    def f(self, meta, ch):
        return value
    return f


def _restriction(verb: str, parts: list, text: str, subject=None) -> A.Action:
    """One Action of ``verb`` from the first part; later parts ("and only …") in ``extra.and_only``."""
    head, *more = parts
    extra = dict(head)
    if more:
        extra["and_only"] = [A.Action(verb, extra=dict(p)) for p in more]
    return A.Action(verb, subject=subject, extra=extra, text=text)


@v_args(meta=True)
class CostRules(Transformer):
    """Mixin of :class:`pipeline.parse.transform.ToAst` for the restriction rules of costs.lark."""

    # ------------------------------------------------------------ "Activate only …" (CR 602.5b)
    def ar_only(self, meta, ch):
        return _restriction("activate_only", [c for c in ch if isinstance(c, _Part)], self._t(meta))

    def _ar_rest_rule(name):  # noqa: N805
        def f(self, meta, ch):
            rest = self._rest_text(ch)
            return A.Action("activate_only", extra={"restriction": name, **({"condition": A.Unparsed(rest)} if rest else {})},
                            text=self._t(meta))
        return f

    ar_if = _ar_rest_rule("if")          # a condition the grammar cannot read yet: Unparsed
    ar_before = _ar_rest_rule("before")
    ar_limit = _ar_rest_rule("limit")

    def ar_limit_times(self, meta, ch):  # "Activate no more than three times each turn." (CR 602.5b)
        return A.Action("activate_only", amount=ch[-1], extra={"restriction": "limit_per_turn"}, text=self._t(meta))

    def ar_limit_twice(self, meta, ch):  # "Activate no more than twice each turn." (CR 602.5b)
        return A.Action("activate_only", amount=A.Amount("fixed", value=2), extra={"restriction": "limit_per_turn"},
                        text=self._t(meta))

    # ------------------------------------------------------------ "Cast this spell only …" (CR 601.3)
    def cr_only(self, meta, ch):
        return _restriction("cast_only", [c for c in ch if isinstance(c, _Part)], self._t(meta), subject=_self_obj())

    def restr_more(self, meta, ch):
        return _first(ch, _Part)

    # ------------------------------------------------------------ parts
    def rp_speed(self, meta, ch):
        """"as a sorcery" / "as an instant" (CR 602.5d–e): the card type named is the restriction."""
        word = next(str(c).lower() for c in ch if isinstance(c, Token) and c.type == "CARDTYPE")
        self._form_used = True
        return _Part(restriction=word if word in ("sorcery", "instant") else "as_" + word)

    def rp_speed_any_time(self, meta, ch):
        """"any time you could cast a sorcery" (the older wording of "as a sorcery", CR 602.5d)."""
        word = next(str(c).lower() for c in ch if isinstance(c, Token) and c.type == "CARDTYPE")
        return _Part(restriction="any_time_" + word)

    def rp_once_each_turn(self, meta, ch):
        return _Part(restriction="once_each_turn")

    def rp_once(self, meta, ch):
        return _Part(restriction="once")

    def rp_attacked_this_step(self, meta, ch):  # "if you've been attacked this step" (CR 508.1: creatures attacked you)
        return _Part(restriction="attacked_this_step")

    def rp_if(self, meta, ch):
        return _Part(restriction="if", condition=ch[-1])

    def rp_timing(self, meta, ch):
        t = _first(ch, A.Timing)
        return _Part(restriction=t.relation, timing=t)

    # ------------------------------------------------------------ counters as a cost (CR 118.3, 122)
    def c_remove_any_kind(self, meta, ch):
        """"Remove a counter from ~" / "Remove two counters from a permanent you control" (a counter of any
        kind, CR 122.1) → ``ActionCost("remove_counters", obj, amount, counter="")``."""
        return A.ActionCost("remove_counters", _first(ch, A.Obj), _first(ch, A.Amount), "", None, self._t(meta))

    def c_remove_counters_among(self, meta, ch):
        """"Remove X loyalty counters from among planeswalkers you control" (the counters may come from
        several objects) → ``ActionCost("remove_counters_among", obj, amount, counter)`` (kind "" any)."""
        return A.ActionCost("remove_counters_among", _first(ch, A.Obj), _first(ch, A.Amount), _kind(ch), None,
                            self._t(meta))

    def c_remove_among_any_number(self, meta, ch):
        """"Remove one or more +1/+1 counters from among creatures you control" / "any number of …":
        amount ``any`` (any number, CR 107.1) or ``one_or_more``."""
        return self._any_number(self.c_remove_counters_among(meta, ch))

    def c_remove_any_number(self, meta, ch):
        """"Remove any number of charge counters from ~" / "Remove one or more +1/+1 counters from ~"."""
        c = A.ActionCost("remove_counters", _first(ch, A.Obj), None, _kind(ch), None, self._t(meta))
        return self._any_number(c)

    def _any_number(self, c: A.ActionCost) -> A.ActionCost:
        """The chosen count of a counter cost: Amount ``any`` ("any number of", CR 107.1) or ``one_or_more``."""
        any_number = "any" in (w.lower() for w in self._raw_lits)
        c.amount = A.Amount("any" if any_number else "one_or_more", text="any number" if any_number else "one or more")
        return c

    def c_energy_count(self, meta, ch):
        """"Pay eight {E}" (CR 107.14: one energy counter per {E}; the number written in words, as Oracle does
        from five on) → ``ActionCost("pay_energy", amount=Amount)`` (``EnergyCost`` is "Pay {E}{E}")."""
        return A.ActionCost("pay_energy", None, _first(ch, A.Amount), None, None, self._t(meta))

    # ------------------------------------------------------------ alternative costs (CR 118.9)
    def alt_cost_if(self, meta, ch):
        """"If you control a Swamp, you may pay 4 life rather than pay ~'s mana cost" (CR 118.9: an
        alternative cost available only while its condition holds) → ``AlternativeCost(cost,
        condition=Action("condition:…"))``; a condition the grammar did not read fails the parse."""
        cond = next((c for c in ch if isinstance(c, A.Action)), None)
        return A.AlternativeCost(_first(ch, A.Cost), cond, self._t(meta))

    def alt_cost_if_after(self, meta, ch):
        """"You may pay {B} rather than pay ~'s mana cost if there are thirteen or more creatures on
        the battlefield" (Blasphemous Edict): the condition written after the cost (its
        ``extra["after"]``, as ``ToAst.s_if_after``)."""
        alt = self.alt_cost_if(meta, ch)
        if alt.condition is not None:
            alt.condition.extra["after"] = True
        return alt

    # ------------------------------------------------------------ timing (CR 500.1, 508.1, 509.1)
    def _tm_relation(relation):  # noqa: N805
        def f(self, meta, ch):
            whose = next((str(c) for c in ch if isinstance(c, _Whose)), None)
            period = _first(ch, A.TimingPeriod)
            on_turn = next((str(c) for c in ch if isinstance(c, _OnTurn)), None)
            return A.Timing(relation, whose, period, on_turn, _first(ch, A.Timing))
        return f

    tm_during = _tm_relation("during")
    tm_before = _tm_relation("before")
    tm_after = _tm_relation("after")

    tm_then_before = _tm_relation("before")  # the narrower time: "…, before attackers are declared"
    tm_then_after = _tm_relation("after")

    def tm_on(self, meta, ch):
        return _OnTurn(next(str(c) for c in ch if isinstance(c, _Whose)))

    tw_your = _const(_Whose("your"))
    tw_opponent = _const(_Whose("opponent"))
    tw_the = _const(_Whose("the"))
    for _p in A.TimingPeriod:
        locals()["tp_" + _p.value] = _const(_p)
    del _p, _tm_relation, _ar_rest_rule
