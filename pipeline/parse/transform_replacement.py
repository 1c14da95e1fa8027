"""Transformer rules for ``grammar/replacement.lark``: replacement and prevention effects
(CR 614, 615) — prevention shields (CR 615.7, 615.8), "prevent all damage …", redirection
(CR 614.9), skipped turns and steps (CR 614.10), "As ~ enters, you may …" (CR 614.12), "exile it
instead" (CR 614.1a), "damage can't be prevented" (CR 615.12).

:class:`ReplacementRules` is a mixin of :class:`pipeline.parse.transform.ToAst`; every method
takes ``(meta, children)`` like ``ToAst``'s and returns nodes of :mod:`pipeline.parse.ast` (no new
node classes):

* ``Action{verb: "prevent_next", obj: the shielded object, amount: Amount, extra: {duration,
  divided?}}``; ``Action{verb: "prevent_from_source", obj, extra.duration}``;
* ``Sentence{condition: Action("condition:next_time_would_deal_damage", obj: source, extra: {to,
  duration}), effects}``; ``Sentence([Action{verb: "redirect_next", obj, amount, extra: {to, duration}}])``;
* ``Action{verb: "skip", extra: {step, player, next}}``;
* ``Sentence{condition: Action("condition:as_enters", obj ~), effects: [Action{…, extra.optional}]}``;
* ``Action{verb: "exile", extra: {instead: True, instead_of?: "graveyard"}}``;
* ``Sentence([Action{verb: "damage_cant_be_prevented", extra.duration}])``.
"""

from __future__ import annotations

from lark import Transformer, v_args

from pipeline.parse import ast as A
from pipeline.parse.children import first_of as _first
from pipeline.parse.transform_conditions import dur_extra


class _Step(str):
    """Internal: the skipped turn or step of "skip your next untap step" (CR 614.10)."""


@v_args(meta=True)
class ReplacementRules(Transformer):
    """Mixin with the rules of ``grammar/replacement.lark`` (see the module docstring)."""

    # ------------------------------------------------------------ prevention (CR 615.7)
    def a_prevent_next(self, meta, ch):
        extra = {}
        dur = [c for c in ch if isinstance(c, (A.Text, A.Action))]
        if dur:
            extra["duration"] = dur[0]
        return A.Action("prevent_next", obj=_first(ch, A.Obj), amount=_first(ch, A.Amount), extra=extra,
                        text=self._t(meta))

    def a_prevent_next_divided(self, meta, ch):
        act = self.a_prevent_next(meta, ch)
        act.extra["divided"] = True  # CR 601.2d: the division is chosen as the spell is cast
        return act

    def a_prevent_source(self, meta, ch):  # "Prevent all damage a source of your choice would deal this turn." (CR 615)
        return A.Action("prevent_from_source", obj=_first(ch, A.Obj), extra=dur_extra(ch), text=self._t(meta))


    # ------------------------------------------------------------ damage multiplied (CR 614.1a, 120.3)
    def a_damage_double(self, meta, ch):
        """"deals double that damage [to that permanent or player]" / "deals triple that damage …" →
        ``Action(damage_double | damage_triple, obj: the recipient or None — the same as the replaced
        event's)``; "deals"/"deal" agree with the subject."""
        self._form_used = True
        verb = "damage_triple" if "df_triple" in ch else "damage_double"
        return A.Action(verb, obj=_first(ch, A.Obj), text=self._t(meta))

    def df_double(self, meta, ch):
        return "df_double"

    def df_triple(self, meta, ch):
        return "df_triple"

    # ------------------------------------------------------------ next-time shields (CR 615.8), redirection (CR 614.9)
    def s_next_time(self, meta, ch):
        """"The next time a source of your choice would deal [combat] damage [to you] [this turn], …" (CR
        615.8, 609.7a) → ``Sentence(effects, condition Action(condition:next_time_would_deal_damage, obj,
        extra: {to?, duration?, combat?}))``."""
        self._form_used = True  # ("combat" is extra.combat; "to" is extra.to)
        objs = [c for c in ch if isinstance(c, A.Obj)]
        effects = ch[-1]
        durs = [c for c in ch[:-1] if isinstance(c, (A.Text, A.Action, A.Duration))]
        extra = {"to": objs[1]} if len(objs) > 1 else {}
        if "combat" in self._lits:
            extra["combat"] = True
        if durs:
            extra["duration"] = durs[0]
        cond = A.Action("condition:next_time_would_deal_damage", obj=objs[0], extra=extra,
                        text=self._t(meta).split(",", 1)[0])
        return A.Sentence(list(effects), condition=cond)

    def s_next_time_draw(self, meta, ch):
        """"The next time you would draw a card this turn, …" (CR 614.11, 609.7a) → ``Sentence(effects,
        condition Action(condition:next_time_would_draw, obj: the player, extra.duration))``."""
        dur = next((c for c in ch[:-1] if isinstance(c, (A.Text, A.Action, A.Duration))), None)
        obj = A.Obj("you", None, [], "you")  # "you" written out in the grammar
        self._form_used = True
        cond = A.Action("condition:next_time_would_draw", obj=obj,
                        extra={"duration": dur} if dur is not None else {}, text=self._t(meta).split(",", 1)[0])
        return A.Sentence(list(ch[-1]), condition=cond)

    def c_redirect_that_damage(self, meta, ch):
        """"that damage is dealt to target creature instead" (CR 614.9: the damage of the event before is
        dealt to another object) → ``Action(redirect_that_damage, obj, extra.instead)``."""
        return A.Action("redirect_that_damage", obj=_first(ch, A.Obj), extra={"instead": True}, text=self._t(meta))

    def s_redirect_next(self, meta, ch):  # CR 615.7 shield whose damage is dealt elsewhere (CR 614.9)
        objs = [c for c in ch if isinstance(c, A.Obj)]
        dur = _first(ch, A.Text) or _first(ch, A.Action)
        return A.Sentence([A.Action("redirect_next", obj=objs[0], amount=_first(ch, A.Amount),
                                    extra={"to": objs[1], "duration": dur}, text=self._t(meta))])

    def s_cant_prevent_duration(self, meta, ch):  # CR 615.12
        return A.Sentence([A.Action("damage_cant_be_prevented", extra=dur_extra(ch), text=self._t(meta))])


    # ------------------------------------------------------------ skip (CR 614.10)
    def skip_step(self, meta, ch):
        return _Step(self._low(meta))

    def a_skip(self, meta, ch):
        step = str(_first(ch, _Step))
        words = self._low(meta).split()[1:]  # after "skip(s)"
        words = words[:len(words) - len(step.split())]
        nxt = bool(words) and words[-1] == "next"
        who = " ".join(words[:-1] if nxt else words).replace(" 's", "'s")
        return A.Action("skip", extra={"step": step, "player": who, "next": nxt}, text=self._t(meta))

    def a_skip_that(self, meta, ch):
        """"skips that turn" / "skip that draw" / "skip that step": the event of the "if … would …" before
        is skipped (CR 614.10, 614.11) → ``Action(skip, extra: {step: turn|draw|step, player: "that", next: False})``."""
        step = self._low(meta).split()[-1]
        return A.Action("skip", extra={"step": step, "player": "that", "next": False}, text=self._t(meta))

    def c_may_action_instead(self, meta, ch):
        """"you may skip that draw instead" → the clause of ``c_may`` (``extra.optional``) with ``extra.instead``."""
        act = self.c_may(meta, ch)
        if isinstance(act, A.Action):
            act.extra["instead"] = True
        return act

    def _player_would(self, verb, meta, ch):
        """``Action(condition:<verb>, obj: the player)``; "a player" / "an opponent" written as literals
        become the Obj the object rule would give ("a", ["player"] / ["opponent"])."""
        obj = _first(ch, A.Obj)
        if obj is None:
            self._form_used = True
            word = "player" if "player" in self._lits else "opponent"
            obj = A.Obj("a", None, [word], "a player" if word == "player" else "an opponent")
        return A.Action("condition:" + verb, obj=obj, text=self._t(meta))

    def cd_would_begin_extra_turn(self, meta, ch):  # CR 500.7 extra turns, replaced (CR 614.10)
        return self._player_would("would_begin_extra_turn", meta, ch)

    def cd_would_gain_life(self, meta, ch):  # CR 119.3 life gain, replaced (CR 614.1a)
        return self._player_would("would_gain_life", meta, ch)

    # ------------------------------------------------------------ as ~ enters (CR 614.12)
    def s_as_enters_may_action(self, meta, ch):
        act = ch[-1]
        if isinstance(act, A.Action):
            act.subject = A.Obj("you", None, [], "you")
            act.extra["optional"] = True
        return A.Sentence([act], condition=as_enters())


    # ------------------------------------------------------------ instead (CR 614.1a)
    def a_exile_instead_of_graveyard(self, meta, ch):  # CR 614.1a
        t = self._t(meta)
        self._form_used = True  # "your" or "its owner's" graveyard: a card goes to its owner's (CR 400.3)
        return A.Action("exile", obj=_first(ch, A.Obj), extra={"instead": True, "instead_of": "graveyard"},
                        text=t[:t.lower().find(" instead of ")])

    def a_exile_instead(self, meta, ch):
        """"exile it instead": the same Action as "exile X" + "instead" (c_instead_action); the
        rule exists because "exile it instead of putting it into …" shares its beginning."""
        t = self._t(meta)
        return A.Action("exile", obj=_first(ch, A.Obj), extra={"instead": True}, text=t[:t.lower().rfind(" instead")])

    def a_prevent(self, meta, ch):
        """"Prevent all [combat] damage that would be dealt (to | by | to and dealt by) X [this turn]"
        (CR 615.1) → ``Action(prevent, obj X, extra: {direction: to|by|to_and_by, combat?: True,
        duration?, duration_first?: True})`` — ``duration_first`` when the duration comes before
        the object ("dealt this turn to up to two target creatures")."""
        self._form_used = True
        lits = self._lits
        i = lits.index("dealt")
        after = lits[i + 1:]
        direction = "to_and_by" if "and" in after else ("by" if "by" in after else "to")
        extra = {"direction": direction}
        if "combat" in lits:
            extra["combat"] = True
        kids = [c for c in ch if isinstance(c, (A.Obj, A.Text, A.Action))]
        dur = next((c for c in kids if not isinstance(c, A.Obj)), None)
        if dur is not None:
            extra["duration"] = dur
            if kids.index(dur) < kids.index(_first(kids, A.Obj)):
                extra["duration_first"] = True
        return A.Action("prevent", obj=_first(ch, A.Obj), extra=extra, text=self._t(meta))

    def lead_as_enters(self, meta, ch):  # "As ~ enters, …" (CR 614.12, 614.1c)
        return as_enters()


def as_enters() -> A.Action:
    """The replacement's event "As ~ enters" as a sentence condition (CR 614.1c, 614.12)."""
    return A.Action("condition:as_enters", obj=A.Obj("self", None, ["~"], "~"), text="as ~ enters")
