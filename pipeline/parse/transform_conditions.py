"""Transformer rules for ``grammar/conditions.lark``: conditions (CR 603.4 intervening "if"
clauses, CR 608.2c conditional effects) and trigger events (CR 603.2, state triggers CR 603.8).

:class:`ConditionRules` is a mixin of :class:`pipeline.parse.transform.ToAst` (which inherits it);
every method takes ``(meta, children)`` like ``ToAst``'s and returns nodes of
:mod:`pipeline.parse.ast` (no new node classes):

* ``cd2_<name>`` → ``Action(verb="condition:<name>", obj=first Obj, amount=first Amount,
  extra={objects: further Objs, counter: counter kind, words: type/colour/name words, mana: symbols,
  cond: nested condition, event/step: nested nodes}, text=wording)``;
* ``ev_<name>`` → ``Action(verb="event:<name>", …)`` with the same ``extra`` keys;
* ``dt2_at`` → ``Delayed(kind=DelayedTime)`` ("At the beginning of that turn's end step, …", the
  time of a delayed triggered ability, CR 603.7); a wording outside ``DelayedTime``:
  ``Action(verb="event:step", extra={step: "the beginning of …", delayed: True})``;
* ``lead_for_each_who`` → ``Amount(kind="for_each", ref=Obj)`` whose Obj has the qualifier
  ``who:does`` / ``who:doesn't`` ("For each opponent who does, …");
* ``p_*`` object post-modifiers → qualifier strings (as ``ToAst._post``); ``o_cost`` → an Obj
  for "~'s prowl cost" (words ``[<keyword>, "cost"]``, CR 118.9).
"""

from __future__ import annotations

from lark import Token, Transformer, v_args

from pipeline.parse import ast as A
from pipeline.parse.children import first_of as _first


def dur_extra(children) -> dict:
    """``{"duration": <first Text/Action child>}`` of a rule with an optional ``duration``, else ``{}``."""
    dur = [c for c in children if isinstance(c, (A.Text, A.Action))]
    return {"duration": dur[0]} if dur else {}


def with_duration(verb: str):
    """A transformer method for ``<verb words> [PT] obj? duration`` → ``Action(verb, obj, extra:
    {pt?, duration: the last duration child})`` ("gets +1/+1 for as long as …", "exile … until ~
    leaves the battlefield", CR 610.3, 611.2b)."""
    def f(self, meta, ch):
        dur = [c for c in ch if isinstance(c, (A.Text, A.Action))][-1]
        pt = next((self.orig[c.start_pos:c.end_pos] for c in ch if isinstance(c, Token) and c.type == "PT"), None)
        extra = {"pt": pt} if pt else {}
        extra["duration"] = dur
        return A.Action(verb, obj=_first(ch, A.Obj), extra=extra, text=self._t(meta))
    return f


def _tr():
    from pipeline.parse import transform  # lazy: transform.py imports this module
    return transform


#: Condition rule names (without the ``cd2_`` prefix) → Action verb ``condition:<name>``.
CONDITIONS = (
    "can", "does", "no_one_does", "guess", "and", "or", "mana_spent", "no_mana_spent", "cost_paid",
    "tribute_not_paid", "tribute_paid", "was", "not_exerted", "cast_during", "cast_this_way", "dont_cast",
    "nth_combat", "resolved_nth", "first_spell", "nth_spell", "not_first_land", "x_is", "result", "roll",
    "coin", "win_flips", "counters", "counters_removed", "chosen_name", "is", "is_not", "is_a", "stat_compare",
    "is_pt", "targets", "on_stack", "command_zone", "opening_hand", "entered", "controlled", "exchanged",
    "didnt_transform", "attached", "this_way", "dealt_damage_this_way", "prevented_this_way",
    "dealt_this_way", "you_this_way", "cant_choose", "didnt_put", "dont_sacrifice", "would_damage",
    "would_enter", "would_draw", "more_than", "exactly", "monarch", "defending", "one_of_those",
    "full_party", "lost_life", "dealt_damage", "eating", "didnt_cast", "attacked_with", "attacked",
    "none_this_turn", "entered_this_turn", "had_enter", "did_this_turn", "attacked_you",
    "basic_land_types", "there_are_no", "control_exactly", "control_or", "total_power", "tied",
    "not_completed_dungeon", "votes", "chooses", "revealed_or_controlled", "not_kicked",
    "exiled_with_counter", "didnt_deal_damage", "day_night", "no_opponent_controls", "life_total",
    "control_at_least", "died", "shares_color", "pay_more", "did_this_way", "flip", "pays", "has_keyword", "counter_put",
    "has_no_counters",  # counters.lark: "it has no ice counters on it" (CR 122.1)
    # same verbs as effects.lark's cd_* rules (ToAst._cd), with type words/counters kept in extra
    "control_no", "controls", "controls_more", "gained_life", "hand", "in_zone", "is_not_a", "life",
    "searched", "shares_type", "stat", "there_are", "win", "would_put",
    "gift_promised", "evidence_collected", "descended", "no_monarch", "left",
    "starting_player", "initiative", "this_turn", "put_this_turn", "control_count",
    "played_land", "whose_turn", "dealt_damage_to",
    "exiled_with", "entered_this_way", "own", "team", "graveyard_count",
)

#: Event rule names (without ``ev_``) defined in conditions.lark → verb ``event:<name>``.
EVENTS = (
    "attacks_with_others", "day_night", "causes", "planeswalk", "planeswalk_or_step", "dealt_damage",
    "enters_or_dies", "dies", "enters_or_step", "roll_die", "win_flip", "clash", "attacked",
    "cycle_or_dies", "counter_removed", "last_counter_removed", "enters", "cast_nth", "unattached",
    "attached", "exert", "becomes_target", "leave_graveyard", "leaves", "cast", "attacks",
    "life_first_time", "enters_or_damage", "enters_or_turned_up", "enters_or_transforms",
    "compound", "complete_dungeon", "put_counters", "state", "control_none", "put_graveyard",
    "crews", "phases", "blocks", "counters", "lose_control", "doesnt_pay_upkeep", "ability_activated",
    "get_energy", "shuffle", "damage", "this_way", "enters_under", "enters_from", "returned_to_hand",
    "lose_flip", "play_or_cast", "copy", "keyword_action", "countered", "monarch", "crewed",
    "or_becomes_target", "attacks_or_dies", "damage_or_dies", "cast_or_activate", "sacrifice_or_discard",
    "renowned", "draw", "damage_dealt_to", "pay_life", "gain_control", "foretell",
    "commit_crime", "expend", "unlock", "next_cast",
    "enlist", "ring_tempts", "becomes_designation", "enters_or_becomes", "leaves_or_untapped", "untapped_or_leaves", "dies_or_exiled",
    "gain_or_lose_life", "cast_passive", "cast_or_cycle", "roll_result", "pay_cost", "nth_counter",
    "fights", "turn_face_up", "give_gift", "activate_exhaust",
)

#: Zone names returned by objects.lark's z_* rules (ToAst).
ZONES = frozenset(("your_graveyard", "a_graveyard", "graveyards", "your_hand", "your_library", "exile",
                   "opp_graveyard", "tp_graveyard", "their_graveyard", "their_hand", "that_player_graveyard",
                   "owner_graveyard", "gy_hand", "battlefield", "among_them", "opening_hand", "each_graveyard"))

#: Object post-modifiers defined in conditions.lark (qualifier names).
#: (p_that_has, p_with_mana_symbol keep what they name: transform_objects.ObjectRules)
POSTS = ("dealt_damage_this_way", "total_power", "thats_color",
         "from_anywhere_but_hand", "share_type", "you_dont_own", "haunted")


class _When:
    """Internal: the qualifier of a qualified event (``ev2_suffix``)."""

    def __init__(self, kind, cond=None):
        self.kind, self.cond = kind, cond


@v_args(meta=True)
class ConditionRules(Transformer):
    """Mixin of ToAst for conditions.lark (see the module docstring for the node shapes)."""

    def _cond_action(self, verb: str, meta, ch) -> A.Action:
        """Build ``Action(verb, …)`` from a rule's children: first Obj → obj (others in
        ``extra["objects"]``), first Amount → amount, nested Actions (conditions, events, steps)
        → ``extra["cond"]`` / ``extra["event"]``, counter kinds, type words and named tokens
        → ``extra["counter"]`` / ``extra["words"]``; post-modifiers of listed words →
        ``extra["qualifiers"]``."""
        T = _tr()
        act = self._action("a_x", ch, self._t(meta))
        act.verb = verb
        if verb.startswith("condition:"):
            # the negation word stays in the form where it tells alternatives apart: "the player
            # doesn't" / "didn't" (the tense of the condition, CR 608.2c)
            self._consumed -= T._NEGATIONS
        words: list[str] = []
        quals: list[str] = []
        prev_list = False
        sep = "or"
        for c in ch:
            if isinstance(c, list) and c and all(isinstance(x, str) for x in c) and prev_list:
                words.append(sep)  # "instant and/or sorcery cards": one list of alternatives (as ToAst.dlist)
                sep = "or"
            prev_list = isinstance(c, list) and bool(c) and all(isinstance(x, str) for x in c)
            if isinstance(c, A.Text) and c.text.strip(" ,").lower() in ("or", "and/or", "and", ""):
                prev_list = True  # dl_sep between two lists of type words (its word: a grammar literal)
                sep = c.text.strip(" ,").lower() or "or"
                if act.extra.get("text") is c:
                    del act.extra["text"]
                continue
            if isinstance(c, T._Counter):
                act.extra["counter"] = c.kind
            elif isinstance(c, A.Action):
                key = "cond" if c.verb.startswith("condition:") else "event"
                act.extra[key] = c
                act.extra.pop("action", None)
            elif isinstance(c, list) and c and all(isinstance(x, str) for x in c):
                words.extend(c)
            elif isinstance(c, Token):
                if c.type == "ORV":
                    act.extra["or"] = True  # "… or there is …": two conditions / events joined (lexer ORV)
                elif c.type not in ("PT", "QUOTED", "REST", "DEALTTO"):  # DEALTTO: the word "dealt" (lexer)
                    words.append(str(c).lower())
            elif isinstance(c, str) and c.split(":")[0] in ZONES:
                act.extra.setdefault("zone", c)  # a zone (objects.lark z_* rules)
            elif isinstance(c, str):
                quals.extend(T._quals([c]))  # an object post-modifier (obj_post) of the listed words
        for c in ch:
            if isinstance(c, T._StepTime):
                # "When you planeswalk to ~ or at the beginning of your upkeep" (CR 603.2): the step
                # as the event:step Action of ev_step (its Step/StepOwner enums), in ``extra.step``
                act.extra.pop(c.name, None)
                step = A.Action("event:step", extra={"step": " ".join(c.text.lower().split()), **c.extra},
                                text=c.text)
                act.extra["step"] = step
        if isinstance(act.extra.get("keyword"), A.Keyword):
            # "if enchanted creature has flying" (grammar keyword_simple, CR 702): one keyword, as
            # the list ``extra.keywords`` that a keyword_simple symbol of an alternative stands for
            act.extra["keywords"] = [act.extra.pop("keyword")]
        dur = act.extra.get("text")
        if isinstance(dur, A.Text) and dur.text.lower().startswith(("this turn", "until ", "for as long")):
            act.extra["duration"] = act.extra.pop("text")  # a duration (common.lark) of the condition
        act.extra.pop("words", None)
        if words:
            act.extra["words"] = words
        if quals:
            act.extra["qualifiers"] = quals
        return act

    def _cd2(name):  # noqa: N805
        def f(self, meta, ch):
            return self._cond_action("condition:" + name, meta, ch)
        f.__doc__ = f"condition:{name} (conditions.lark cd2_{name})"
        return f

    for _n in CONDITIONS:
        locals()["cd2_" + _n] = _cd2(_n)

    def _ev2(name):  # noqa: N805
        def f(self, meta, ch):
            return self._cond_action("event:" + name, meta, ch)
        f.__doc__ = f"event:{name} (conditions.lark ev_{name})"
        return f

    for _n in EVENTS:
        locals()["ev_" + _n] = _ev2(_n)

    def _p2(name):  # noqa: N805
        def f(self, meta, ch):
            return _tr().ToAst._post(name)(self, meta, ch)
        return f

    for _n in POSTS:
        locals()["p_" + _n] = _p2(_n)
    del _n

    def p_total_power(self, meta, ch):
        """"with total power 8 or greater" (CR 208): qualifier ``total_power:<n>:>=``."""
        amt = next((c for c in ch if isinstance(c, A.Amount)), None)
        return "total_power:" + (str(amt.value) if amt is not None and amt.value is not None else "?") + ":>="

    def p_cast_this_way(self, meta, ch):
        """"a spell cast this way" (CR 608.2c): qualifier ``cast_this_way``."""
        return "cast_this_way"

    def o_cost(self, meta, ch):
        """"~'s prowl cost", "its surge cost": the cost (CR 118.9) as Obj words [keyword, "cost"]."""
        word = next((str(c).lower() for c in ch if isinstance(c, Token) and c.type == "WORD"), "")
        owner = next((c for c in ch if isinstance(c, A.Obj)), None)
        quals = ["of:" + owner.text] if owner is not None else []
        return A.Obj("cost", None, [word, "cost"], self._t(meta), quals)

    def lead_for_each_who(self, meta, ch):
        """"For each opponent who does": Amount for_each over the players who did (CR 608.2c)."""
        obj = next((c for c in ch if isinstance(c, A.Obj)), None)
        if obj is not None:
            obj.qualifiers.append("who:" + self._low(meta).split()[-1])
        return A.Amount("for_each", ref=obj, text=self._t(meta))

    def cd2_player_does(self, meta, ch):
        """"If a player does, …" (CR 608.2c): condition:does with the player as obj (as cd_does)."""
        act = self._cond_action("condition:does", meta, ch)
        words = self._low(meta).split()
        act.obj = A.Obj("a", None, ["player"], self._t(meta)[:len("a player")])
        if words[2:] != ["does"]:
            # "a player doesn't" / "does either": no alternative of cd_does holds these words; kept
            # in ``words`` so that they do not round-trip as "a player does"
            act.extra["words"] = words[2:]
        return act

    def cd2_this_way(self, meta, ch):
        """"If a creature card is milled this way" (CR 608.2c): what the instruction before did
        to obj — ``extra["how"]`` is the verb ("milled", "put_into", "returned")."""
        act = self._cond_action("condition:this_way", meta, ch)
        quals = act.extra.pop("qualifiers", [])
        low = self._low(meta)
        how = quals[0] if quals else ("put_into" if " put into " in low else "returned" if " returned " in low else
                                      "exiled_with" if " exiled with " in low else "")
        act.extra["how"] = how
        return act

    def rp_if_or(self, meta, ch):
        """"Activate only if ~ entered this turn or if you control a basic land" (CR 602.5b): the
        restriction part ``if`` whose condition is ``Action("condition:or_if", extra={"conds": [first,
        second]})`` — either condition allows the activation."""
        conds = [c for c in ch if isinstance(c, A.Action)]
        if len(conds) != 2 or not all(c.verb.startswith("condition:") for c in conds):
            raise ValueError("rp_if_or: two conditions")
        from pipeline.parse.transform_costs import _Part

        return _Part(restriction="if", condition=A.Action("condition:or_if", extra={"conds": conds},
                                                          text=self._t(meta)[len("if "):]))

    def lead_for_each_of(self, meta, ch):
        """"For each of them, …" / "For each of those creatures, …": ``Amount(kind="for_each_of",
        ref=Obj)`` (a lead distributing the effect over each object, CR 608.2c)."""
        return A.Amount("for_each_of", ref=_first(ch, A.Obj), text=self._t(meta))

    def trigger_head_and(self, meta, ch):
        """"When ~ enters and whenever you cast a party spell": one triggered ability with two
        trigger conditions (CR 603.2) — ``Triggered(word, Action("event:and_when", extra={first:
        the first event, word: the second trigger word, event: the second event}), …)``."""
        words = [c.w for c in ch if type(c).__name__ == "_Word"]
        events = [c for c in ch if isinstance(c, A.Node)]
        cond = events[2] if len(events) > 2 else None
        ev = A.Action("event:and_when", extra={"first": events[0], "word": words[1], "event": events[1]},
                      text=self._t(meta))
        return A.Triggered(words[0], ev, cond, [])

    def lead_for_each_flip(self, meta, ch):
        """"For each flip you win" (CR 705): Amount for_each over the won coin flips."""
        return A.Amount("for_each", ref=A.Text("flip you win"), text=self._t(meta))

    def lead_for_each_damage(self, meta, ch):
        """"For each 1 damage prevented this way" (CR 615): Amount for_each, ref Text, value the unit."""
        unit = next((c for c in ch if isinstance(c, A.Amount)), None)
        return A.Amount("for_each", value=unit.value if unit is not None else None,
                        ref=A.Text("damage prevented this way"), text=self._t(meta))

    def lead_during(self, meta, ch):
        """"During each of your turns, …" (CR 500): ``Action("condition:during", extra={"period"})``."""
        low = self._low(meta)
        return A.Action("condition:during", extra={"period": low[len("during "):]}, text=self._t(meta))

    def until_your_next_upkeep(self, meta, ch):
        """Duration "until the beginning of your next upkeep" (CR 611.2b) as Text, like ToAst's durations."""
        return A.Text("until the beginning of your next upkeep")

    def evs_first_time(self, meta, ch):
        return _When("first_time_each_turn")

    def evs_during_your_turn(self, meta, ch):
        return _When("during_your_turn")

    def _head_tail(when):  # noqa: N805
        def f(self, meta, ch):
            word = ch[0].w
            event = next(c for c in ch if isinstance(c, A.Action))
            if "when" in event.extra:
                raise ValueError("trigger head: two qualifiers")
            event.extra["when"] = when
            return A.Triggered(word, event, None, [])
        f.__doc__ = (f'"… {when.replace("_", " ")}" after a trigger event: the event Action with '
                     f'``extra["when"]`` = "{when}" (CR 603.7b stated duration / CR 603.12 reflexive trigger).')
        return f

    trigger_head_this_turn = _head_tail("this_turn")
    trigger_head_this_way = _head_tail("this_way")

    def trigger_head_while(self, meta, ch):
        """"Whenever ~ attacks while you control a Dinosaur": the event Action with ``extra["when"]``
        = "while" and ``extra["while"]`` the condition (a ``condition:*`` Action of the ``cond``
        grammar) under which the event counts (CR 603.2)."""
        word = ch[0].w
        event, cond = [c for c in ch if isinstance(c, A.Action)][:2]
        if not cond.verb.startswith("condition:") or "when" in event.extra:
            raise ValueError("trigger_head_while: no condition")
        event.extra["when"] = "while"
        event.extra["while"] = cond
        return A.Triggered(word, event, None, [])

    def lead_timed_trigger(self, meta, ch):
        """"Until end of turn, whenever a creature you control dies": a delayed triggered ability with
        a stated duration (CR 603.7b: it triggers each time until the duration ends) — the Triggered
        head with the Duration in its event's ``extra["stated_duration"]``."""
        dur = next(c for c in ch if isinstance(c, A.Duration))
        head = next(c for c in ch if isinstance(c, A.Triggered))
        if not isinstance(head.event, A.Action) or "stated_duration" in head.event.extra:
            raise ValueError("lead_timed_trigger: no event")
        head.event.extra["stated_duration"] = dur
        return head

    def ev_qualified(self, meta, ch):
        """"Whenever you surveil for the first time each turn", "… during your turn", "… while ~ is
        on the battlefield" (CR 603.2): the inner event Action with ``extra["when"]`` =
        first_time_each_turn | during_your_turn | while, and ``extra["while"]`` the condition."""
        ev = next(c for c in ch if isinstance(c, A.Action))
        when = next(c for c in ch if isinstance(c, _When))
        ev.extra["when"] = when.kind
        if when.cond is not None:
            ev.extra["while"] = when.cond
        ev.text = self._t(meta)
        return ev

    def cd2_opp_controls_and(self, meta, ch):
        """"If an opponent controls a Swamp and you control a Plains": ``condition:and`` with
        ``extra["conds"]`` = [condition:opp_controls (obj), the second condition]."""
        obj = next(c for c in ch if isinstance(c, A.Obj))
        second = next(c for c in ch if isinstance(c, A.Action))
        text = self._t(meta)
        first = A.Action("condition:opp_controls", obj=obj, text=text[:text.lower().index(" and ")])
        return A.Action("condition:and", extra={"conds": [first, second]}, text=text)

    def ev_cast_during(self, meta, ch):
        """"Whenever an opponent casts a spell during your turn [or when ~ dies]" (CR 603.2):
        ``event:cast`` with ``extra["during"]`` = the period ("your turn", "an opponent's turn" …)
        and ``extra["or_event"]`` the second event of "… or when …"."""
        act = self._cond_action("event:cast", meta, ch)
        low = self._low(meta)
        period = low.split(" during ", 1)[1].split(" or when ", 1)[0]
        act.extra.pop("text", None)  # the ev2_period Text, kept as extra["during"]
        act.extra["during"] = period
        if "event" in act.extra:
            act.extra["or_event"] = act.extra.pop("event")
        return act

    def cd2_a_permanent(self, meta, ch):
        """"If a permanent dealt damage this way would die this turn", "… would be put into a graveyard",
        "a permanent was put into your hand from the battlefield this turn": condition:would_die /
        would_put / put_this_turn with obj ``Obj("a", words=["permanent"], qualifiers=<post-modifiers>)``."""
        act = self._cond_action("condition:x", meta, ch)
        low = self._low(meta)
        act.verb = ("condition:would_die" if " would die" in low else
                    "condition:would_put" if " would be put" in low else "condition:put_this_turn")
        quals = act.extra.pop("qualifiers", [])
        head = low.split(" would ")[0].split(" was ")[0]
        act.obj = A.Obj("a", None, ["permanent"], self._t(meta)[:len(head)], quals)
        if act.verb == "condition:put_this_turn":
            # written with the wording of cd2_put_this_turn: its distinguishing words are the form
            from pipeline.parse.forms import literal_table

            self._form_used = True
            act.extra.pop("form", None)
            dist = literal_table().dist("cd2_put_this_turn") or frozenset()
            form = [w for w in self._lits if w in dist]
            if form:
                act.extra["form"] = form
        return act

    def dt2_at(self, meta, ch):
        """"At the beginning of that turn's end step" as a lead: the time of a delayed triggered
        ability (CR 603.7) — ``Delayed(kind)`` (``ast.DelayedTime``), else ``Action("event:step",
        extra={step, delayed: True})``."""
        low = " ".join(self._low(meta).replace(" '", "'").split())
        kind = next((k for k, w in A.DELAYED_WORDS.items() if w == low), None)
        if kind is not None:  # one of the closed times of A.DelayedTime (the grammar's literal wordings)
            return A.Delayed(self._t(meta), A.DelayedTime(kind))
        return A.Action("event:step", extra={"step": low[3:] if low.startswith("at ") else low, "delayed": True},
                        text=self._t(meta))


    # ------------------------------------------------------------ durations (CR 610.3, 611.2b, 500.5a)
    def until_leaves(self, meta, ch):
        return A.Action("duration:until_leaves_battlefield", obj=A.Obj("self", None, ["~"], "~"), text=self._t(meta))

    def until_end_of_your_next_turn(self, meta, ch):
        return A.Duration("until the end of your next turn", A.DurationKind.UNTIL_END_OF_YOUR_NEXT_TURN)

    def until_end_of_combat(self, meta, ch):
        return A.Text("until end of combat")

    def for_as_long_as(self, meta, ch):
        conds = [c for c in ch if isinstance(c, A.Node)]
        return A.Action("duration:for_as_long_as", extra={"condition": conds[0] if len(conds) == 1 else conds},
                        text=self._t(meta))

    def dur_nested(self, meta, ch):
        return ch[0]

    def cd_remains(self, meta, ch):
        low = self._low(meta)
        state = ("on_battlefield" if low.endswith("battlefield") else "on_top_of_library" if low.endswith("library")
                 else low.rsplit(" ", 1)[-1])
        if state != "on_top_of_library":
            self._form_used = True  # the state names the alternative ("your"/"their" library keep a form)
        return A.Action("condition:remains", obj=_first(ch, A.Obj), extra={"state": state}, text=self._t(meta))

    def s_if_instead(self, meta, ch):
        """"If ~ was kicked, instead search your library for two basic land cards" (CR 608.2c): the
        effect replaces the instruction before it when the condition holds — ``Sentence(condition=
        <condition Action with extra["instead"] = True>)``."""
        cond = ch[0]
        if not (isinstance(cond, A.Action) and cond.verb.startswith("condition:")):
            raise ValueError("instead: not a condition")  # parse_segment → None
        cond.extra["instead"] = True
        return A.Sentence(_tr()._clauses(ch[-1]), condition=cond)

    # ------------------------------------------------------------ then if, during (CR 608.2c)
    def s_then_if_after(self, meta, ch):
        """"Then <effect> if <cond>." (CR 608.2c): ``s_if_after`` whose joins begin with "then"
        (``s_then``): the condition follows the effect (``extra.after``)."""
        T = _tr()
        s = T.ToAst.s_if_after(self, meta, ch)
        n = len(s.effects) - (1 if s.effects and isinstance(s.effects[-1], A.WhereX) else 0)
        if len(s.joins) == n - 1:
            s.joins = ["then"] + s.joins
        return s

    def s_do_only_once(self, meta, ch):
        """"Do this only once each turn." after a triggered ability's instruction (CR 603.2h: the
        ability triggers only if its controller hasn't yet taken that action this turn) →
        ``Sentence([Action("do_only_once_each_turn")])``."""
        return A.Sentence([A.Action("do_only_once_each_turn", text=self._t(meta))])

    def lead_then_if(self, meta, ch):
        return ch[0]

    def s_during(self, meta, ch):
        """"During your turn, …" / "During each opponent's turn, …" / "During turns other than yours, …"
        → ``Sentence(condition=Action("condition:during_turn", extra.whose:
        your|each_opponent|an_opponent|not_yours))`` (CR 102.1: "your turn" is the turn you are the
        active player in)."""
        self._form_used = True
        lits = self._lits
        whose = ("not_yours" if "other" in lits else "your" if "your" in lits else
                 "each_opponent" if "each" in lits else "an_opponent")
        cond = A.Action("condition:during_turn", extra={"whose": whose}, text=self._t(meta).split(",", 1)[0])
        return A.Sentence(list(ch[-1]), condition=cond)

    # ------------------------------------------------------------ mana spent (CR 601.2h), tribute, X, …
    def cd_mana_spent(self, meta, ch):  # CR 601.2h: mana spent to cast (symbols or a color word, ~)
        return self._cond_action("condition:mana_spent", meta, ch)

    def cd_tribute_not_paid(self, meta, ch):  # CR 702.104b
        # the negation "wasn't" is ``extra.negated`` (the rule's own word), as in every condition
        return self._cond_action("condition:tribute_not_paid", meta, ch)

    def _simple_cond(name):  # noqa: N805
        def f(self, meta, ch):
            return A.Action("condition:" + name, obj=_first(ch, A.Obj), amount=_first(ch, A.Amount), text=self._t(meta))
        return f

    cd_countered_this_way = _simple_cond("countered_this_way")

    # ------------------------------------------------------------ chaos ability (CR 311.7)
    def ev_roll_chaos(self, meta, ch):
        sym = next(c for c in ch if isinstance(c, Token) and c.type == "MANA_SYM")
        if str(sym).lower() != "{chaos}":
            raise ValueError(f"not the chaos symbol: {sym}")  # parse_segment → None
        return A.Action("event:roll_chaos", obj=_first(ch, A.Obj), text=self._t(meta))

    # ------------------------------------------------------------ "as long as" (CR 611.2b)
    def s_as_long_as(self, meta, ch):
        """"As long as <cond>, <effect>" → ``Sentence(condition=Action("condition:as_long_as",
        extra.condition))`` — not the "if" of a one-shot effect (CR 611.2b: the effect lasts while
        the condition holds)."""
        cond = A.Action("condition:as_long_as", extra={"condition": ch[0]}, text=self._t(meta).split(",", 1)[0])
        return A.Sentence(_tr()._clauses(ch[-1]), condition=cond)

    def s_as_long_as_after(self, meta, ch):
        """"<effect> as long as <cond>" (``extra.after``: the condition follows the effect)."""
        cond = A.Action("condition:as_long_as", extra={"condition": ch[-1], "after": True}, text=self._t(meta))
        return A.Sentence(_tr()._clauses(ch[0]), condition=cond)

    # ------------------------------------------------------------ delayed times (CR 603.7)
    def _delayed(kind):  # noqa: N805
        def f(self, meta, ch):
            return A.Delayed(self._low(meta), A.DelayedTime(kind))
        return f

    dt_next_end_step = _delayed("next_end_step")
    dt_next_upkeep = _delayed("next_upkeep")
    dt_end_of_combat = _delayed("end_of_combat")
    dt_your_next_upkeep = _delayed("your_next_upkeep")
    dt_end_step = _delayed("end_step")
