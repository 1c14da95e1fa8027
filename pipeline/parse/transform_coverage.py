"""Transformer rules for ``grammar/coverage.lark``: library positions (CR 401), prevention
shields (CR 615), durations (CR 610.3, 611.2b), skipped steps (CR 614.10), chaos triggers
(CR 311.7) and "As ~ enters, you may …" (CR 614.12).

:class:`CoverageRules` is a mixin of :class:`pipeline.parse.transform.ToAst`; every method
takes ``(meta, children)`` like ``ToAst``'s and returns nodes of :mod:`pipeline.parse.ast`
(no new node classes):

* ``Action{verb: "put_library", obj, extra: {position: top|bottom|top_or_bottom|nth,
  library: your|owner|<text>, order: any|random|None, nth: "third"}}``;
* ``Action{verb: "prevent_next", obj: the shielded object, amount: Amount, extra: {duration}}``
  (CR 615.7 prevention shield);
* durations: ``Text("until the end of your next turn")``,
  ``Action{verb: "duration:until_leaves_battlefield", obj}`` (CR 610.3),
  ``Action{verb: "duration:for_as_long_as", extra: {condition: Action("condition:…")}}`` (CR 611.2b);
* ``Action{verb: "skip", extra: {step, player, next}}``; ``Action{verb: "event:roll_chaos"}``.
"""

from __future__ import annotations

from lark import Token, Transformer, v_args

from pipeline.parse import ast as A


def _first(children, cls):
    for c in children:
        if isinstance(c, cls):
            return c
    return None


class _LibPos:
    """Internal: a position in a library (CR 401) — ``position``, ``library`` owner, ``order``."""

    def __init__(self, position, library=None, order=None, nth=None):
        self.position, self.library, self.order, self.nth = position, library, order, nth

    def extra(self) -> dict:
        out = {"position": self.position, "library": self.library}
        if self.order:
            out["order"] = self.order
        if self.nth:
            out["nth"] = self.nth
        return out


class _Lib(str):
    """Internal: whose library ("your", "owner", or the wording)."""


class _Order(str):
    """Internal: "any" or "random" order of cards put into a library together (CR 401.4)."""


class _Nth(str):
    """Internal: "third" of "third from the top" (CR 401.7)."""


@v_args(meta=True)
class CoverageRules(Transformer):
    """Mixin with the rules of ``grammar/coverage.lark`` (see the module docstring)."""

    # ------------------------------------------------------------ library positions (CR 401)
    def lw_own(self, meta, ch):
        return _Lib(self._low(meta).split()[0])

    def lw_owner(self, meta, ch):
        return _Lib("owner")

    def lw_other(self, meta, ch):
        return _Lib(self._low(meta))

    def lo_any(self, meta, ch):
        return _Order("any")

    def lo_random(self, meta, ch):
        return _Order("random")

    def lib_nth(self, meta, ch):
        return _Nth(self._low(meta))

    def _libpos(position):  # noqa: N805
        def f(self, meta, ch):
            return _LibPos(position, _first(ch, _Lib), _first(ch, _Order), _first(ch, _Nth))
        return f

    lp_bottom = _libpos("bottom")
    lp_top = _libpos("top")
    lp_top_or_bottom = _libpos("top_or_bottom")
    lp_nth = _libpos("nth")

    def _rest_obj(self, meta, ch) -> A.Obj:
        obj = _first(ch, A.Obj)
        if obj is None:  # "Put the rest …": the cards not chosen among those looked at
            obj = A.Obj("the", None, ["rest"], "the rest")
        return obj

    def a_put_library_pos(self, meta, ch):
        pos = _first(ch, _LibPos)
        obj = self._rest_obj(meta, ch)
        zone = next((c for c in ch if isinstance(c, str) and not isinstance(c, (_Lib, _Order, _Nth))), None)
        if zone is not None:  # "two cards from your hand on top of your library"
            obj.qualifiers.append("zone:" + zone)
            obj.text = self._t(meta).split(" ", 1)[1].rsplit(" on ", 1)[0]
        return A.Action("put_library", obj=obj, extra=pos.extra(), text=self._t(meta))

    def a_put_library_nth(self, meta, ch):
        pos = _LibPos("nth", _first(ch, _Lib), None, _first(ch, _Nth))
        return A.Action("put_library", obj=self._rest_obj(meta, ch), extra=pos.extra(), text=self._t(meta))

    def a_put_rest_graveyard(self, meta, ch):
        owner = "their" if " their " in f" {self._low(meta)} " else "your"
        return A.Action("put_into", obj=self._rest_obj(meta, ch), extra={"zone": "graveyard", "owner": owner},
                        text=self._t(meta))

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

    # ------------------------------------------------------------ durations (CR 610.3, 611.2b)
    def until_leaves(self, meta, ch):
        return A.Action("duration:until_leaves_battlefield", obj=A.Obj("self", None, ["~"], "~"), text=self._t(meta))

    def until_end_of_your_next_turn(self, meta, ch):
        return A.Text("until the end of your next turn")

    def for_as_long_as(self, meta, ch):
        conds = [c for c in ch if isinstance(c, A.Node)]
        return A.Action("duration:for_as_long_as", extra={"condition": conds[0] if len(conds) == 1 else conds},
                        text=self._t(meta))

    def _with_duration(verb):  # noqa: N805
        def f(self, meta, ch):
            dur = [c for c in ch if isinstance(c, (A.Text, A.Action))][-1]
            pt = next((self.orig[c.start_pos:c.end_pos] for c in ch if isinstance(c, Token) and c.type == "PT"), None)
            extra = {"pt": pt} if pt else {}
            extra["duration"] = dur
            return A.Action(verb, obj=_first(ch, A.Obj), extra=extra, text=self._t(meta))
        return f

    a_pump_for = _with_duration("pump")
    a_exile_for = _with_duration("exile")

    def dur_nested(self, meta, ch):
        return ch[0]

    def cd_remains(self, meta, ch):
        low = self._low(meta)
        state = ("on_battlefield" if low.endswith("battlefield") else "on_top_of_library" if low.endswith("library")
                 else low.rsplit(" ", 1)[-1])
        return A.Action("condition:remains", obj=_first(ch, A.Obj), extra={"state": state}, text=self._t(meta))

    # ------------------------------------------------------------ skip (CR 614.10)
    def cv_step(self, meta, ch):
        return _Nth(self._low(meta))

    def a_skip(self, meta, ch):
        step = str(_first(ch, _Nth))
        words = self._low(meta).split()[1:]  # after "skip(s)"
        words = words[:len(words) - len(step.split())]
        nxt = bool(words) and words[-1] == "next"
        who = " ".join(words[:-1] if nxt else words).replace(" 's", "'s")
        return A.Action("skip", extra={"step": step, "player": who, "next": nxt}, text=self._t(meta))

    # ------------------------------------------------------------ chaos ability (CR 311.7)
    def ev_roll_chaos(self, meta, ch):
        sym = next(c for c in ch if isinstance(c, Token) and c.type == "MANA_SYM")
        if str(sym).lower() != "{chaos}":
            raise ValueError(f"not the chaos symbol: {sym}")  # parse_segment → None
        return A.Action("event:roll_chaos", obj=_first(ch, A.Obj), text=self._t(meta))

    # ------------------------------------------------------------ as ~ enters (CR 614.12)
    def s_as_enters_may_action(self, meta, ch):
        act = ch[-1]
        if isinstance(act, A.Action):
            act.subject = A.Obj("you", None, [], "you")
            act.extra["optional"] = True
        return A.Sentence([act], condition=A.Text("as_enters"))

    # ------------------------------------------------------------ clause riders
    def _subject_act(self, meta, ch):
        """(subject Obj or None, the Action) of "obj action …" / "action …" clause children."""
        acts = [i for i, c in enumerate(ch) if isinstance(c, (A.Action, A.GrantAbility, A.CreateToken))]
        i = acts[0]
        subj = ch[0] if i == 1 and isinstance(ch[0], A.Obj) else None
        act = ch[i]
        if subj is not None and hasattr(act, "subject"):
            act.subject = subj
        if hasattr(act, "text"):
            act.text = self._t(meta)
        return act, ch[i + 1:]

    def _extra(self, act):
        if isinstance(act, A.Action):
            return act.extra
        return {}

    def c_cv_duration_for_each(self, meta, ch):
        act, rest = self._subject_act(meta, ch)
        ex = self._extra(act)
        ex["duration"] = rest[0]
        ex["for_each"] = _first(rest[1:], A.Obj)
        return act

    def c_cv_duration_instead(self, meta, ch):
        act, rest = self._subject_act(meta, ch)
        ex = self._extra(act)
        ex["duration"] = rest[0]
        ex["instead"] = True  # a replacement of the preceding effect (CR 614.1a)
        return act

    def c_cv_for_each(self, meta, ch):
        act, rest = self._subject_act(meta, ch)
        if isinstance(act, A.CreateToken):
            act.count = A.Amount("for_each", ref=_first(rest, A.Obj), text=self._t(meta))
        else:
            self._extra(act)["for_each"] = _first(rest, A.Obj)
        return act

    def c_cv_each(self, meta, ch):  # "Two target creatures each get +2/+0 …"
        act, rest = self._subject_act(meta, ch)
        ex = self._extra(act)
        ex["each"] = True
        if rest:
            ex["duration"] = rest[0]
        return act

    def c_cv_may_duration(self, meta, ch):  # "you may gain control of … for as long as you control ~"
        act, rest = self._subject_act(meta, ch)
        ex = self._extra(act)
        ex["optional"] = True
        ex["duration"] = rest[0]
        return act

    def lead_then_if(self, meta, ch):
        return ch[0]

    # ------------------------------------------------------------ next-time shields (CR 615.8)
    def s_next_time(self, meta, ch):
        objs = [c for c in ch if isinstance(c, A.Obj)]
        effects = ch[-1]
        durs = [c for c in ch[:-1] if isinstance(c, (A.Text, A.Action))]
        extra = {"to": objs[1]}
        if durs:
            extra["duration"] = durs[0]
        cond = A.Action("condition:next_time_would_deal_damage", obj=objs[0], extra=extra,
                        text=self._t(meta).split(",", 1)[0])
        return A.Sentence(list(effects), condition=cond)

    def s_redirect_next(self, meta, ch):  # CR 615.7 shield whose damage is dealt elsewhere (CR 614.9)
        objs = [c for c in ch if isinstance(c, A.Obj)]
        dur = _first(ch, A.Text) or _first(ch, A.Action)
        return A.Sentence([A.Action("redirect_next", obj=objs[0], amount=_first(ch, A.Amount),
                                    extra={"to": objs[1], "duration": dur}, text=self._t(meta))])

    # ------------------------------------------------------------ targets (CR 601.2c-d, 115)
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
        return A.Obj("target", A.Amount("other", value=nums[-1].value, text=cnt_text), words, text, quals)

    def q_up_to_other(self, meta, ch):
        from pipeline.parse.transform import _Quant
        return _Quant("up_to_other_target", _first(ch, A.Amount))

    def a_damage_divided_obj(self, meta, ch):  # CR 601.2d: division chosen as the spell is cast
        return A.Action("damage_divided", obj=_first(ch, A.Obj), amount=_first(ch, A.Amount), text=self._t(meta))

    # ------------------------------------------------------------ search (CR 701.19)
    def cv_search_zone(self, meta, ch):
        return _Nth(self._low(meta))

    def a_search_zone(self, meta, ch):
        return A.Action("search", obj=_first(ch, A.Obj), extra={"zone": str(_first(ch, _Nth))}, text=self._t(meta))

    # ------------------------------------------------------------ misc.
    def p_mv_equal(self, meta, ch):
        a = _first(ch, A.Amount)
        return "mv_equal_to:" + (a.text if a is not None else self._low(meta))

    def qt_counters_on(self, meta, ch):
        t = self._t(meta)
        return A.Amount("equal_to", ref=A.Text(t[len("the number of "):]), text=t)

    def qt_damage_prevented(self, meta, ch):  # CR 615.5: an effect referring to the damage prevented
        return A.Amount("equal_to", ref=A.Text("damage prevented this way"), text=self._t(meta))

    def qt_times_kicked(self, meta, ch):  # CR 702.33 kicker
        return A.Amount("equal_to", ref=A.Text("times kicked"), text=self._t(meta))

    # ------------------------------------------------------------ cast without paying (CR 118.9)
    def p_without_paying(self, meta, ch):
        return "without_paying"

    def a_may_cast(self, meta, ch):
        """"cast X" / "cast X without paying its mana cost" (the latter → verb cast_free, the
        qualifier lifted off X and X's text cut before "without")."""
        obj = _first(ch, A.Obj)
        if obj is not None and "without_paying" in obj.qualifiers:
            obj.qualifiers.remove("without_paying")
            i = obj.text.lower().rfind(" without paying ")
            if i >= 0:
                obj.text = obj.text[:i]
            return A.Action("cast_free", obj=obj, text=self._t(meta))
        return A.Action("cast", obj=obj, text=self._t(meta))

    def p_blocking_rel(self, meta, ch):  # "each creature blocking it" (CR 509.1), as p_blocking
        return "blocking:" + _first(ch, A.Obj).text

    def p_blocking_or_blocked(self, meta, ch):  # "each creature blocking or blocked by ~" (CR 509.1)
        return "blocking_or_blocked_by:" + _first(ch, A.Obj).text

    # ------------------------------------------------------------ round 3
    def obj_and(self, meta, ch):
        """"each creature with flying and each player": the first object, with qualifier
        ``and:<text of the second>`` (the text keeps both)."""
        objs = [c for c in ch if isinstance(c, A.Obj)]
        first = objs[0]
        return A.Obj(first.quantifier, first.count, list(first.words), self._t(meta),
                     first.qualifiers + ["and:" + objs[1].text])

    def a_damage_split(self, meta, ch):  # "deals 2 damage to any target and 3 damage to you"
        objs = [c for c in ch if isinstance(c, A.Obj)]
        amts = [c for c in ch if isinstance(c, A.Amount)]
        low = self._t(meta)
        second = low[low.lower().rfind(" and ") + 5:]
        return A.Action("damage", obj=objs[0], amount=amts[0],
                        extra={"also": A.Action("damage", obj=objs[1], amount=amts[1], text=second)},
                        text=self._t(meta))

    def a_until_reveal(self, meta, ch):  # CR 701.20 reveal / 406 exile "until" a card of a kind
        objs = [c for c in ch if isinstance(c, A.Obj)]
        words = self._low(meta).split()
        verb = "reveal" if words[0].startswith("reveal") else "exile"
        i = words.index("until")
        verb2 = "reveal" if any(w.startswith("reveal") for w in words[i:]) else "exile"
        until = A.Action(verb2, subject=objs[1], obj=objs[2], text=" ".join(self._t(meta).split()[i + 1:]))
        return A.Action(verb + "_until", obj=objs[0], extra={"until": until}, text=self._t(meta))

    def z_named_hand(self, meta, ch):
        return "hand_of:" + self._low(meta).rsplit(" hand", 1)[0].replace(" 's", "'s")

    def z_outside_game(self, meta, ch):  # CR 400.11
        return "outside_game"

    def a_distribute_counters(self, meta, ch):  # CR 601.2d
        from pipeline.parse.transform import _Counter
        ck = next((c for c in ch if isinstance(c, _Counter)), None)
        return A.Action("distribute_counters", obj=_first(ch, A.Obj), amount=_first(ch, A.Amount),
                        extra={"counter": ck.kind if ck else None}, text=self._t(meta))

    def _dur_extra(self, ch) -> dict:
        dur = [c for c in ch if isinstance(c, (A.Text, A.Action))]
        return {"duration": dur[0]} if dur else {}

    def a_assign_no_combat_damage(self, meta, ch):  # CR 510.1a
        return A.Action("assign_no_combat_damage", extra=self._dur_extra(ch), text=self._t(meta))

    def a_switch_pt(self, meta, ch):  # CR 613.4d switching power and toughness
        return A.Action("switch_pt", obj=_first(ch, A.Obj), extra=self._dur_extra(ch), text=self._t(meta))

    def a_unblockable_except_obj(self, meta, ch):  # CR 509.1b
        extra = {"except": _first(ch, A.Obj)}
        extra.update(self._dur_extra(ch))
        return A.Action("unblockable_except", extra=extra, text=self._t(meta))

    def a_unblockable_for(self, meta, ch):
        """"can't be blocked this turn": the same Action as "can't be blocked" + a clause duration
        (the rule exists because "… blocked this turn except by Walls" needs the duration inside)."""
        return A.Action("unblockable", extra=self._dur_extra(ch), text=self._t(meta)[:len("can't be blocked")])

    def a_sacrifice_unless_act(self, meta, ch):  # "sacrifice it unless you discard a creature card"
        objs = [c for c in ch if isinstance(c, A.Obj)]
        low = self._t(meta)
        i = low.lower().find(" unless you ")
        rest = low[i + len(" unless you "):]
        verb = rest.split(" ", 1)[0].lower()
        verb = {"return": "return_to"}.get(verb, verb)
        extra = {}
        d = _first(ch, A.Text)
        if d is not None:
            extra["dest"] = d
        other = A.Action(verb, subject=A.Obj("you", None, [], "you"), obj=objs[1], extra=extra, text="you " + rest)
        return A.Action("sacrifice", obj=objs[0], extra={"unless": other}, text=self._t(meta))

    def a_put_into_other(self, meta, ch):  # "Put one of them into your hand and the other …"
        pos = _first(ch, _LibPos)
        low = self._low(meta)
        other = pos.extra() if pos is not None else {"zone": "graveyard"}
        owner = "their" if low.split(" into ", 1)[1].startswith("their") else "your"
        return A.Action("put_into", obj=_first(ch, A.Obj), extra={"zone": "hand", "owner": owner, "other": other},
                        text=self._t(meta))

    def until_end_of_combat(self, meta, ch):
        return A.Text("until end of combat")

    def s_delayed_lead(self, meta, ch):  # "At end of combat, sacrifice it." (CR 603.7)
        return A.Sentence(list(ch[-1]), condition=ch[0])

    def s_life_total_becomes(self, meta, ch):  # CR 119.5
        return A.Sentence([A.Action("life_total_becomes", subject=A.Obj("you", None, [], "you"),
                                    amount=_first(ch, A.Amount), text=self._t(meta))])

    def s_cant_prevent_duration(self, meta, ch):  # CR 615.12
        return A.Sentence([A.Action("damage_cant_be_prevented", extra=self._dur_extra(ch), text=self._t(meta))])

    def cd_mana_spent(self, meta, ch):  # CR 601.2h: mana spent to cast
        syms = [s for c in ch if isinstance(c, list) for s in c]
        extra = {"mana": syms} if syms else {"color": next((str(c) for c in ch if isinstance(c, Token)
                                                             and c.type == "COLOR"), None)}
        return A.Action("condition:mana_spent", amount=_first(ch, A.Amount), extra=extra, text=self._t(meta))

    def cd_tribute_not_paid(self, meta, ch):  # CR 702.104b
        return A.Action("condition:tribute_not_paid", text=self._t(meta))

    def p_different(self, meta, ch):
        return "with_different:" + self._low(meta).rsplit(" ", 1)[-1]

    def p_power_leq(self, meta, ch):
        a = _first(ch, A.Amount)
        return "power:<=:" + (a.text if a is not None else "")

    def ar_cv_upkeep_once(self, meta, ch):  # CR 602.5b
        return A.Action("activate_only", extra={"restriction": "upkeep_once"}, text=self._t(meta))

    def c_cv_gain_and_get(self, meta, ch):
        """"Target creature gains trample and gets +X/+0 until end of turn": two effects with one
        subject and one duration → [GrantAbility, Action(pump)] (flattened by clause_list)."""
        subj = ch[0]
        kws = [c for c in ch if isinstance(c, A.Node) and not isinstance(c, (A.Obj, A.Text, A.Action))]
        kws = [k for c in kws for k in (c if isinstance(c, list) else [c])]
        pt = next(self.orig[c.start_pos:c.end_pos] for c in ch if isinstance(c, Token) and c.type == "PT")
        extra = {"pt": pt}
        extra.update(self._dur_extra(ch[1:]))
        dur = extra.get("duration")
        text = self._t(meta)
        grant = A.GrantAbility(subj, kws, dur.text if dur is not None else None, text)
        return [grant, A.Action("pump", subject=subj, extra=extra, text=text)]

    def kw_cost_andor(self, meta, ch):  # CR 702.33d "Kicker [cost 1] and/or [cost 2]"
        from pipeline.parse.transform import _Name
        name = next((c.name for c in ch if isinstance(c, _Name)), "")
        costs = [c for c in ch if isinstance(c, list)]
        return A.Keyword(name, cost=A.Cost([A.ManaCost(costs[0])]), param=A.Cost([A.ManaCost(costs[1])]),
                         text=self._t(meta))

    # ------------------------------------------------------------ round 4
    def _cv_cond(name):  # noqa: N805
        def f(self, meta, ch):
            return A.Action("condition:" + name, obj=_first(ch, A.Obj), amount=_first(ch, A.Amount), text=self._t(meta))
        return f

    cd_no_one_does = _cv_cond("no_one_does")
    cd_total_power = _cv_cond("total_power_at_least")  # "creatures you control have total power 8 or greater"
    cd_x_is = _cv_cond("x_is")  # "If X is 5 or more" (CR 107.3)

    def cd_cast_during(self, meta, ch):  # "If you cast ~ during your main phase"
        low = self._low(meta)
        return A.Action("condition:cast_during", extra={"during": low.split(" during ", 1)[1]}, text=self._t(meta))

    def a_becomes_base(self, meta, ch):  # CR 613.4b: base power and toughness set by an effect
        words = [c for c in ch if isinstance(c, str) and not isinstance(c, Token)]
        pt = next(self.orig[c.start_pos:c.end_pos] for c in ch if isinstance(c, Token) and c.type == "PT")
        return A.Action("becomes", extra={"words": words, "base_pt": pt}, text=self._t(meta))

    def qt_opponents(self, meta, ch):
        return A.Amount("equal_to", ref=A.Text("opponents you have"), text=self._t(meta))

    def s_x_cant_be(self, meta, ch):  # CR 107.3
        return A.Sentence([A.Action("x_cant_be", amount=_first(ch, A.Amount), text=self._t(meta))])

    def s_additional_combat(self, meta, ch):  # CR 500.8
        return A.Sentence([A.Action("additional_combat_phase", extra={"then_main": "followed" in self._low(meta)},
                                    text=self._t(meta))])

    def s_during(self, meta, ch):
        return A.Sentence(list(ch[-1]), condition=A.Text(self._low(meta).split(",", 1)[0]))

    # ------------------------------------------------------------ round 5
    def kw_splice_cost(self, meta, ch):  # CR 702.47: "Splice onto Arcane—<cost>"
        words = [w for c in ch if isinstance(c, list) for w in c if isinstance(w, str)]
        return A.Keyword("splice", cost=_first(ch, A.Cost), param=A.Text(" ".join(words)), text=self._t(meta))

    def a_turn_face(self, meta, ch):  # CR 708 face-down permanents
        return A.Action("turn_face_" + self._low(meta).rsplit(" ", 1)[-1], obj=_first(ch, A.Obj), text=self._t(meta))

    def a_prevent_source(self, meta, ch):  # "Prevent all damage a source of your choice would deal this turn." (CR 615)
        return A.Action("prevent_from_source", obj=_first(ch, A.Obj), extra=self._dur_extra(ch), text=self._t(meta))

    def a_put_counters_equal(self, meta, ch):
        from pipeline.parse.transform import _Counter
        ck = next((c for c in ch if isinstance(c, _Counter)), None)
        q = _first(ch, A.Amount)
        amount = A.Amount("equal_to", ref=q.ref if q is not None else None, text=q.text if q is not None else "")
        return A.Action("put_counters", obj=_first(ch, A.Obj), amount=amount,
                        extra={"counter": ck.kind if ck else None}, text=self._t(meta))

    def z_controller_zone(self, meta, ch):
        return "controller_" + self._low(meta).rsplit(" ", 1)[-1]

    def qt_result(self, meta, ch):  # the result of a die roll or a coin flip (CR 706)
        return A.Amount("equal_to", ref=A.Text("result"), text=self._t(meta))

    def s_x_is(self, meta, ch):  # "X is the mana value of that card." (CR 107.3)
        return A.Sentence([A.WhereX("X", _first(ch, A.Amount) or A.Text(self._t(meta)))])

    def c_cv_life_total(self, meta, ch):  # "Each player's life total becomes …" (CR 119.5)
        return A.Action("life_total_becomes", subject=_first(ch, A.Obj), amount=_first(ch, A.Amount), text=self._t(meta))

    # ------------------------------------------------------------ round 6
    def c_cv_unattach(self, meta, ch):  # "Unattach ~" as a cost (CR 701.3d)
        return A.ActionCost("unattach", _first(ch, A.Obj), None, None, None, self._t(meta))

    # ------------------------------------------------------------ round 7
    cd_countered_this_way = _cv_cond("countered_this_way")

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
