"""Transformer rules for the one-shot effect rules that ``grammar/effects.lark`` gained after
``transform.py``'s: clause riders ("… for each creature blocking it", "… each get …", "… instead",
"you may … for as long as …"), divided and split damage (CR 601.2d), distributed counters,
"sacrifice it unless you …", "turn ~ face down" (CR 708), delayed times at the start of a sentence
(CR 603.7), life totals becoming a number (CR 119.5), rules on X (CR 107.3), an additional combat
phase (CR 500.8) and "activate only during your upkeep and only once each turn" (CR 602.5b).

:class:`EffectRules` is a mixin of :class:`pipeline.parse.transform.ToAst`; every method takes
``(meta, children)`` like ``ToAst``'s and returns nodes of :mod:`pipeline.parse.ast`.
"""

from __future__ import annotations

import re

from lark import Token, Transformer, v_args

from pipeline.parse import ast as A
from pipeline.parse.children import first_of as _first

#: the P/T of "becomes a 2/2 … creature" (CR 208.1)
_PT_WORD = re.compile(r"^(?:\d+|x|\*)/(?:\d+|x|\*)$", re.I)


@v_args(meta=True)
class EffectRules(Transformer):
    """Mixin with one-shot effect rules of ``grammar/effects.lark`` (see the module docstring)."""

    # ------------------------------------------------------------ tickets (CR 107.17) and stickers (CR 123.3)
    def a_get_tickets(self, meta, ch):
        """"you get {TK}{TK}" → ``Action("get_tickets", amount=2, extra={"symbols": True})`` (each {TK} one
        ticket counter, written as symbols)."""
        self._form_used = True
        n = sum(1 for c in ch if isinstance(c, Token) and c.type == "TICKET_SYM")
        return A.Action("get_tickets", amount=A.Amount("fixed", value=n, text=self._t(meta).split(" ", 1)[-1]),
                        extra={"symbols": True}, text=self._t(meta))

    def a_get_n_tickets(self, meta, ch):
        """"you get seven {TK}" → ``Action("get_tickets", amount=7)`` (the count written as a number)."""
        self._form_used = True
        return A.Action("get_tickets", amount=_first(ch, A.Amount), text=self._t(meta))

    def a_put_sticker(self, meta, ch):
        """"put a sticker on a nonland permanent you own" → ``Action("put_sticker", obj, extra={"sticker":
        None | "name" | "power_toughness"})`` (CR 123.3; kinds CR 123.6, 123.8)."""
        self._form_used = True
        kind = next((c for c in ch if isinstance(c, str) and c.startswith("sticker:")), None)
        return A.Action("put_sticker", obj=_first(ch, A.Obj),
                        extra={"sticker": kind.split(":", 1)[1] if kind else None}, text=self._t(meta))

    def sk_name(self, meta, ch):
        return "sticker:name"

    def sk_power_toughness(self, meta, ch):
        return "sticker:power_toughness"

    # ------------------------------------------------------------ a card at random from a hand (CR 701.20a, 701.13a)
    def _random_from_hand(self, verb, meta, ch):
        self._form_used = True
        owner = "their" if "their" in self._lits else "your"
        return A.Action(verb, obj=_first(ch, A.Obj), extra={"owner": owner}, text=self._t(meta))

    def a_reveal_random(self, meta, ch):
        """"target player reveals a card at random from their hand" → ``Action("reveal_random", obj,
        extra={"owner": "your" | "their"})`` (CR 701.20a: the card is chosen at random, not by the player)."""
        return self._random_from_hand("reveal_random", meta, ch)

    def a_exile_random(self, meta, ch):
        """"that player exiles a card at random from their hand" → ``Action("exile_random", obj, extra={owner})``
        (CR 701.13a)."""
        return self._random_from_hand("exile_random", meta, ch)

    # ------------------------------------------------------------ voting (CR 701.38)
    def c_vote(self, meta, ch):
        """"Starting with you, each player votes for a nonland permanent you don't control" →
        ``Action("vote", subject=each player, obj=the choices, extra={"starting": "you"})`` (CR 701.38a)."""
        self._form_used = True
        voters, choice = [c for c in ch if isinstance(c, A.Obj)][:2]
        return A.Action("vote", subject=voters, obj=choice, extra={"starting": "you"}, text=self._t(meta))

    def p_most_votes(self, meta, ch):
        """"with the most votes or tied for most votes" → qualifier ``most_votes`` (CR 701.38a)."""
        return "most_votes"

    # ------------------------------------------------------------ clause riders (for each, each, instead, may … for a duration)
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

    def c_rider_duration_for_each(self, meta, ch):
        act, rest = self._subject_act(meta, ch)
        ex = self._extra(act)
        ex["duration"] = rest[0]
        ex["for_each"] = _first(rest[1:], A.Obj)
        return act

    def c_rider_duration_instead(self, meta, ch):
        act, rest = self._subject_act(meta, ch)
        ex = self._extra(act)
        ex["duration"] = rest[0]
        ex["instead"] = True  # a replacement of the preceding effect (CR 614.1a)
        return act

    def c_rider_for_each(self, meta, ch):
        act, rest = self._subject_act(meta, ch)
        if isinstance(act, A.CreateToken):
            act.count = A.Amount("for_each", ref=_first(rest, A.Obj), text=self._t(meta))
        else:
            self._extra(act)["for_each"] = _first(rest, A.Obj)
        return act

    def c_rider_each(self, meta, ch):  # "Two target creatures each get +2/+0 …"
        act, rest = self._subject_act(meta, ch)
        ex = self._extra(act)
        ex["each"] = True
        if rest:
            ex["duration"] = rest[0]
        return act

    def c_you_and_each(self, meta, ch):
        """"you and target opponent each draw a card" (CR 608.2c) → the action with ``subject`` "you"
        (the other player in its refs, qualifier ``and``) and ``extra.each``."""
        from pipeline.parse.qualifiers import ref_post, take_posts

        other = _first(ch, A.Obj)
        act = next((c for c in ch if isinstance(c, (A.Action, A.CreateToken))), None)
        if other is None or not isinstance(act, A.Action):  # (a token made by each: not read)
            return A.Unparsed(self._t(meta))
        subj = A.Obj("you", None, [], "you")
        take_posts(subj, [ref_post("and", other)])
        act.subject = subj
        act.extra["each"] = True
        act.text = self._t(meta)
        return act

    def c_rider_may_duration(self, meta, ch):  # "you may gain control of … for as long as you control ~"
        act, rest = self._subject_act(meta, ch)
        ex = self._extra(act)
        ex["optional"] = True
        ex["duration"] = rest[0]
        return act


    # ------------------------------------------------------------ keyword actions (CR 701), "… twice"
    def a_amass(self, meta, ch):
        """"amass 2" / "amass Zombies 2" (CR 701.47a: amass [subtype] N) → ``Action{verb: "amass",
        amount, extra: {subtype: the subtype word as written, CR 205.3m}}`` (no ``subtype`` when
        none is named)."""
        act = A.Action("amass", amount=_first(ch, A.Amount), text=self._t(meta))
        sub = next((c for c in ch if isinstance(c, Token) and c.type == "SUBTYPE"), None)
        if sub is not None:
            act.extra["subtype"] = self._tok(sub)
        return act

    def c_ring_tempts(self, meta, ch):
        """"the Ring tempts you" (CR 701.54a) → ``Action{verb: "ring_tempts", subject: you}``."""
        return A.Action("ring_tempts", subject=A.Obj("you", None, [], "you"), text=self._t(meta))

    def c_twice(self, meta, ch):
        """"investigate twice", "manifest dread twice": the action with ``extra["times"] = 2`` (the
        instruction is followed two times)."""
        act = ch[0]
        if not isinstance(act, A.Action):  # (a token or grant done twice: not read)
            return A.Unparsed(self._t(meta))
        act.extra["times"] = 2
        act.text = self._t(meta)
        return act

    # ------------------------------------------------------------ damage (CR 120, 601.2d), counters, sacrifice unless
    def a_damage_divided_obj(self, meta, ch):  # CR 601.2d: division chosen as the spell is cast
        return A.Action("damage_divided", obj=_first(ch, A.Obj), amount=_first(ch, A.Amount), text=self._t(meta))

    def a_damage_split(self, meta, ch):  # "deals 2 damage to any target and 3 damage to you"
        objs = [c for c in ch if isinstance(c, A.Obj)]
        amts = [c for c in ch if isinstance(c, A.Amount)]
        low = self._t(meta)
        second = low[low.lower().rfind(" and ") + 5:]
        return A.Action("damage", obj=objs[0], amount=amts[0],
                        extra={"also": A.Action("damage", obj=objs[1], amount=amts[1], text=second)},
                        text=self._t(meta))

    def a_distribute_counters(self, meta, ch):  # CR 601.2d
        from pipeline.parse.transform import _Counter
        ck = next((c for c in ch if isinstance(c, _Counter)), None)
        return A.Action("distribute_counters", obj=_first(ch, A.Obj), amount=_first(ch, A.Amount),
                        extra={"counter": ck.kind if ck else None}, text=self._t(meta))

    def a_put_counters_equal(self, meta, ch):
        from pipeline.parse.transform import _Counter
        ck = next((c for c in ch if isinstance(c, _Counter)), None)
        q = _first(ch, A.Amount)
        amount = A.Amount("equal_to", ref=q.ref if q is not None else None, text=q.text if q is not None else "")
        return A.Action("put_counters", obj=_first(ch, A.Obj), amount=amount,
                        extra={"counter": ck.kind if ck else None}, text=self._t(meta))

    def a_turn_face(self, meta, ch):
        """"turn ~ face down" / "turn it face up" (CR 708.7, 708.8) → verb ``turn_face_down`` |
        ``turn_face_up`` (the side is the verb, so no form is kept)."""
        self._form_used = True
        side = "up" if "up" in self._lits else "down"
        return A.Action("turn_face_" + side, obj=_first(ch, A.Obj), text=self._t(meta))

    def a_sacrifice_unless_act(self, meta, ch):  # "sacrifice it unless you discard a creature card"
        self._form_used = True  # the verb after "unless you" is the other Action's verb
        objs = [c for c in ch if isinstance(c, A.Obj)]
        low = self._t(meta)
        i = low.lower().find(" unless you ")
        rest = low[i + len(" unless you "):]
        verb = rest.split(" ", 1)[0].lower()
        extra = {}
        d = _first(ch, A.Text)
        if d is not None:  # "… unless you return an untapped Island you control to its owner's hand"
            extra["zone"] = d  # (the destination Zone, as transform_zones.a_return keeps it)
        other = A.Action(verb, subject=A.Obj("you", None, [], "you"), obj=objs[1], extra=extra, text="you " + rest)
        return A.Action("sacrifice", obj=objs[0], extra={"unless": other}, text=self._t(meta))


    # ------------------------------------------------------------ sentences: delayed times (CR 603.7), life totals (CR 119.5), X (CR 107.3), combat phases (CR 500.8)
    def s_delayed_lead(self, meta, ch):  # "At end of combat, sacrifice it." (CR 603.7)
        return A.Sentence(list(ch[-1]), condition=ch[0])

    def s_life_total_becomes(self, meta, ch):  # CR 119.5
        return A.Sentence([A.Action("life_total_becomes", subject=A.Obj("you", None, [], "you"),
                                    amount=_first(ch, A.Amount), text=self._t(meta))])

    def c_life_total(self, meta, ch):  # "Each player's life total becomes …" (CR 119.5)
        return A.Action("life_total_becomes", subject=_first(ch, A.Obj), amount=_first(ch, A.Amount), text=self._t(meta))

    def s_x_cant_be(self, meta, ch):  # CR 107.3
        return A.Sentence([A.Action("x_cant_be", amount=_first(ch, A.Amount), text=self._t(meta))])

    def s_x_is(self, meta, ch):  # "X is the mana value of that card." (CR 107.3)
        return A.Sentence([A.WhereX("X", _first(ch, A.Amount) or A.Text(self._t(meta)))])

    def s_additional_combat(self, meta, ch):
        """"After this [main] phase, there is an additional combat phase [followed by an additional
        main phase]." (CR 500.8) → ``additional_combat_phase`` with ``extra.then_main`` and
        ``extra.after`` "main_phase" | "phase" (the phase the clause names)."""
        self._form_used = True
        after = "main_phase" if self._lits[:3] == ["after", "this", "main"] else "phase"
        return A.Sentence([A.Action("additional_combat_phase", extra={"then_main": "followed" in self._lits,
                                                                      "after": after}, text=self._t(meta))])



    # ------------------------------------------------------------ "for each" riders inside an action, dice (CR 706)
    def _for_each_obj(self, name, meta, ch):
        """The generic Action of rule ``name``; when its alternative ends "for each <obj>" ("gain 1
        life for each card in your graveyard", "draw a card for each creature you control"), that
        object is ``extra["for_each"]``, not the action's object."""
        act = self._action(name, ch, self._t(meta))
        if "each" in self._lits and "for" in self._lits and act.obj is not None:
            act.extra["for_each"] = act.obj
            act.obj = None
            self._form_used = True
        return act

    def a_gain_life(self, meta, ch):
        return self._for_each_obj("a_gain_life", meta, ch)

    def a_draw(self, meta, ch):
        return self._for_each_obj("a_draw", meta, ch)

    def a_damage_equal(self, meta, ch):
        """"deals damage to target creature equal to its power" / "deals damage equal to its power
        to target creature" (CR 120.1): one Action; ``extra.equal_first`` is True for the second
        word order."""
        act = self._action("a_damage_equal", ch, self._t(meta))
        lits = self._lits
        self._form_used = True
        if lits.index("equal") < lits.index("to"):
            act.extra["equal_first"] = True
        return act

    def a_put_library(self, meta, ch):
        """"put that card on top" (after "search your library …, then shuffle and"): ``put_library``
        with ``extra: {position: top, library: None}`` (the library searched, CR 401); the other
        alternatives ("on top of REST") stay generic."""
        act = self._action("a_put_library", ch, self._t(meta))
        if "rest" not in act.extra and self._lits[-1:] == ["top"]:
            act.extra = {"position": "top", "library": None}
            self._form_used = True
        return act

    def a_roll_die(self, meta, ch):
        """"roll a d20" / "roll a six-sided die" / "roll two six-sided dice" (CR 706.1a: an
        "N-sided die" or "dN"): ``extra.sides`` (N) and ``extra.notation`` ("d" or "sided");
        ``amount`` the number of dice when more than one. A die word of another shape keeps
        ``extra.words`` (not rendered)."""
        from pipeline.parse.transform import _NUMWORDS

        word = next((self._tok(c) for c in ch if isinstance(c, Token) and c.type == "WORD"), "").lower()
        act = A.Action("roll_die", amount=_first(ch, A.Amount), text=self._t(meta))
        if word[:1] == "d" and word[1:].isdigit():
            act.extra.update(sides=int(word[1:]), notation="d")
        elif word.endswith("-sided") and word[:-6] in _NUMWORDS:
            act.extra.update(sides=_NUMWORDS[word[:-6]], notation="sided")
        else:
            act.extra["words"] = [word]
        self._form_used = True
        return act

    # ------------------------------------------------------------ "becomes a 2/1 red Warrior creature with first strike" (CR 613.1d/f, 613.4b)
    def a_becomes(self, meta, ch):
        """"~ becomes a 2/2 blue Faerie creature with flying" → ``Action{verb: "becomes", extra:
        {pt: "2/2" | None, words: [colors, types …], abilities: [Keyword | ability body …],
        article: "a" | "an" | None}}``: the characteristics an effect sets (CR 613.1d type,
        613.1e color, 613.1f abilities, 613.4b power and toughness); the words are those of the
        closed lexicons (colors CR 105, types CR 205)."""
        from pipeline.parse.transform import _Generic

        spec = next((c for c in ch if isinstance(c, _Generic) and c.name == "becomes"), None)
        if spec is None or not hasattr(spec, "words"):
            return self._action("a_becomes", ch, self._t(meta))
        words = list(spec.words)
        at = next((i for i, w in enumerate(words) if _PT_WORD.match(w)), None)
        pt = words.pop(at) if at is not None else None  # "a legendary 4/4 red Dragon creature"
        art = next((w for w in self._lits if w in ("a", "an")), None)
        self._form_used = True
        extra = {"pt": pt, "words": words, "article": art}
        if spec.abilities:
            extra["abilities"] = list(spec.abilities)
        return A.Action("becomes", extra=extra, text=self._t(meta))

    def a_becomes_also(self, meta, ch):
        """"target land becomes an artifact in addition to its other types" (CR 205.1b: the new
        types are added, not set) → a ``becomes`` Action as :meth:`a_becomes` with ``extra.also``
        "its" | "their" (the possessive the clause names)."""
        act = self.a_becomes(meta, ch)
        if act.verb == "becomes":
            act.extra["also"] = "their" if "their" in self._lits else "its"
        return act

    # ------------------------------------------------------------ "put one of them into your hand and the rest …" (CR 401.4)
    def _rest_whose(self):
        return "their" if "their" in self._lits else ("your" if "your" in self._lits else None)

    def ro_any(self, meta, ch):
        return _RestOrder("any")

    def ro_random(self, meta, ch):
        return _RestOrder("random")

    def _rest_library(self, position, ch):
        self._form_used = True
        order = next((c for c in ch if isinstance(c, _RestOrder)), None)
        return _RestDest({"position": position, "library": self._rest_whose(), "order": str(order) if order else None,
                          "back": "back" in self._lits})

    def rd_bottom(self, meta, ch):
        return self._rest_library("bottom", ch)

    def rd_top(self, meta, ch):
        return self._rest_library("top", ch)

    def rd_zone(self, meta, ch):
        self._form_used = True
        return _RestDest({"zone": "hand" if "hand" in self._lits else "graveyard", "owner": self._rest_whose()})

    def a_put_into_rest(self, meta, ch):
        """"Put one of them into your hand and the rest on the bottom of your library in a random
        order" → ``Action{verb: "put_into_rest", obj, extra: {zone: hand | graveyard | battlefield,
        owner: your | their | None, rest: {position: top | bottom, library: your | their | None,
        order: any | random | None, back: bool} or {zone: graveyard | hand, owner}}}`` (CR 401.4).
        (The first part is not read "into your graveyard": "and" after it would be a new
        shift/reduce conflict, grammar_conflicts.json.)"""
        self._form_used = True
        rest = next(c for c in ch if isinstance(c, _RestDest))
        lits = self._lits[:self._lits.index("rest")]
        zone = "battlefield" if "battlefield" in lits else ("hand" if "hand" in lits else "graveyard")
        owner = "their" if "their" in lits else ("your" if "your" in lits else None)
        return A.Action("put_into_rest", obj=_first(ch, A.Obj),
                        extra={"zone": zone, "owner": owner, "rest": dict(rest.spec)}, text=self._t(meta))

    # ------------------------------------------------------------ doubling (CR 701.10)
    def dbs_power(self, meta, ch):
        return _Stat("power")

    def dbs_toughness(self, meta, ch):
        return _Stat("toughness")

    def dbs_pt(self, meta, ch):
        return _Stat("power_and_toughness")

    def _double(self, meta, ch, obj, stat, of=False):
        from pipeline.parse.transform_conditions import dur_extra

        self._form_used = True
        extra = {"stat": stat, **dur_extra(ch)}
        if of:
            extra["of"] = True  # "the power of target creature" (not "target creature's power")
        return A.Action("double", obj=obj, extra=extra, text=self._t(meta))

    def a_double_stat(self, meta, ch):
        """"double target creature's power [and toughness] [until end of turn]" (CR 701.10b) →
        ``Action{verb: "double", obj, extra: {stat: power|toughness|power_and_toughness,
        duration?, of?}}``; ``of`` for "double the power of …"."""
        return self._double(meta, ch, _first(ch, A.Obj), _first(ch, _Stat))

    def a_double_stat_its(self, meta, ch):
        """"double its power" / "double their power and toughness" (the object referred to)."""
        them = "their" in self._lits
        obj = A.Obj("them", None, [], "them") if them else A.Obj("it", None, [], "it")
        return self._double(meta, ch, obj, _first(ch, _Stat))

    def a_double_stat_of(self, meta, ch):
        return self._double(meta, ch, _first(ch, A.Obj), _first(ch, _Stat), of=True)

    def a_double_life(self, meta, ch):
        """"double target player's life total" (CR 701.10d): ``extra.stat`` life_total."""
        return self._double(meta, ch, _first(ch, A.Obj), "life_total")

    def a_double_life_yours(self, meta, ch):
        return self._double(meta, ch, A.Obj("you", None, [], "you"), "life_total")


class _RestOrder(str):
    """Internal: "any" or "random" order of the rest (CR 401.4)."""


class _RestDest:
    """Internal: where "the rest" go (a dict of closed values, see ``a_put_into_rest``)."""

    def __init__(self, spec: dict):
        self.spec = spec


def share_zone(nodes: list, joins: list) -> None:
    """"You may play lands and cast spells from the top of your library" (audit A6): the zone written
    once after the last object is that of both permissions (CR 305.1 playing a land, 601.2a casting).
    A ``may_play`` (play) Action whose object has no zone, joined by "and" to a ``cast``/``may_play``
    Action whose object has one, gets those ``zone:*`` qualifiers on its object too and
    ``extra["zone_shared"] = True`` (the renderer writes the zone only after the second object)."""
    for i, (node, nxt) in enumerate(zip(nodes, nodes[1:])):
        if not (isinstance(node, A.Action) and node.verb == "may_play" and node.extra.get("play") == "play"
                and isinstance(nxt, A.Action) and nxt.verb in ("cast", "may_play") and i < len(joins)
                and joins[i] == "and" and isinstance(node.obj, A.Obj) and isinstance(nxt.obj, A.Obj)):
            continue
        zones = [q for q in nxt.obj.qualifiers if isinstance(q, str) and q.startswith("zone:")]
        if zones and not any(isinstance(q, str) and q.startswith("zone:") for q in node.obj.qualifiers):
            node.obj.qualifiers.extend(zones)
            node.extra["zone_shared"] = True


class _Stat(str):
    """Internal: what a doubling names (dbl_stat): power, toughness, power_and_toughness."""

