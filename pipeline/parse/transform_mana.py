"""Transformer rules for ``grammar/mana.lark``: spend restrictions of produced mana (CR 106.6).

:class:`ManaRules` is a mixin of :class:`pipeline.parse.transform.ToAst` (which inherits it);
every method takes ``(meta, children)`` like ``ToAst``'s and returns nodes of
:mod:`pipeline.parse.ast`:

* ``spend_only`` / ``spend_not`` → :class:`~pipeline.parse.ast.ManaRestriction` (kind
  ``spend_only``). The grammar reads "Spend this mana only" / "This mana can't be spent" and
  keeps the rest as ``REST`` (so a restriction the grammar cannot read still attaches to its
  ``AddMana`` and the line's mana stays known, CR 106.6); that rest is then parsed with the
  start symbol ``start_spend`` (``spend_uses``) into :class:`~pipeline.parse.ast.ManaUse`
  nodes. When it does not parse, ``uses`` stays empty and the restriction does not render.
* ``sj_*`` → the separator words between uses; ``su_*``/``sw_*`` → :class:`ManaUse`.
"""

from __future__ import annotations

from lark import Token, Transformer, v_args

from pipeline.parse import ast as A
from pipeline.parse.children import first_of as _first

#: separator rule → its words (``ManaRestriction.joins``)
_JOINS = {"sj_comma": ",", "sj_or": "or", "sj_and": "and", "sj_andor": "and/or",
          "sj_comma_or": ", or", "sj_comma_and": ", and"}


#: color word → its mana letter (CR 105.1, 107.4a)
_COLOR_LETTERS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}


class _Join(str):
    """Internal: a separator between two uses."""


@v_args(meta=True)
class ManaRules(Transformer):
    """Mixin with the spend-restriction rules of ``grammar/mana.lark`` (module docstring)."""

    def _spend_restriction(self, meta, ch, negated: bool) -> A.ManaRestriction:
        r = A.ManaRestriction("spend_only", self._t(meta), negated=negated)
        rest = self._rest_text(ch)
        if rest:
            from pipeline.parse.parser import parse_segment  # lazy: the parser imports this module

            parsed = parse_segment("start_spend", rest)
            if isinstance(parsed, tuple):
                r.uses, r.joins = parsed[:2]
                if len(parsed) == 3:
                    r.effect = [parsed[2]]
        return r

    def spend_only(self, meta, ch):
        """"Spend this mana only to cast creature spells." (CR 106.6)"""
        return self._spend_restriction(meta, ch, negated=False)

    def spend_color_on_x(self, meta, ch):
        """"Spend only black mana on X." (CR 107.3: the mana paid for X in a cost) →
        ManaRestriction(kind ``spend_only``, uses = [ManaUse("pay_x", symbols=[the color's symbol],
        to=False)])."""
        self._form_used = True  # (the color is the use's symbol)
        word = next(str(t).lower() for t in ch if isinstance(t, Token) and t.type == "COLOR")
        letter = _COLOR_LETTERS.get(word)
        uses = [A.ManaUse("pay_x", symbols=[A.ManaSymbol("{%s}" % letter, "colored", [letter])], to=False)] \
            if letter else []
        return A.ManaRestriction("spend_only", self._t(meta), uses=uses)

    def spend_not(self, meta, ch):
        """"This mana can't be spent to cast nonartifact spells." / "You can't spend this mana to
        cast spells." (CR 106.6; ``wording`` ``you_cant_spend_this_mana`` for the latter)."""
        r = self._spend_restriction(meta, ch, negated=True)
        who = _first(ch, A.Obj)  # "You can't spend this mana …": only "you" is a wording of its own
        if who is not None and who.quantifier == "you" and not who.words and not who.qualifiers:
            r.wording = "you_cant_spend_this_mana"
        elif who is not None:
            r.uses = []  # another player's "can't spend": no wording of its own, not rendered
        return r

    def mana_rider(self, meta, ch):
        """A rider on produced mana (CR 106.6): "If that mana is spent on a creature spell, it
        gains haste until end of turn." (lead ``if``: an additional effect) / "When you spend this
        mana to cast a Dragon creature spell, scry 2." (lead ``when``: a delayed triggered ability,
        CR 603.7a) → ManaRestriction(kind ``rider``, lead, wording, uses = [the one ManaUse],
        effect = [Sentence]). The REST after the wording is split at the first comma after which
        both sides parse: the use with ``start_spend``, the effect as a sentence. When no split
        parses, uses and effect stay empty and the rider does not render."""
        low = self._low(meta).split()
        wording = {"that": "that_mana_is_spent", "this": "this_mana_is_spent"}.get(low[1], "you_spend_this_mana")
        r = A.ManaRestriction("rider", self._t(meta), lead=low[0], wording=wording)
        rest = self._rest_text(ch).strip()
        from pipeline.parse.parser import parse_effect, parse_segment  # lazy: the parser imports this module

        if rest.startswith(","):  # "When that mana is spent, create a Deep Dish Pizza token."
            r.effect = parse_effect(rest[1:].strip())
            return r
        at = rest.find(", ")
        while at > 0:
            parsed = parse_segment("start_spend", rest[:at])
            if isinstance(parsed, tuple) and len(parsed[0]) == 1:
                effect = parse_effect(rest[at + 2:])
                if effect and not any(isinstance(e, A.Unparsed) for e in effect):
                    r.uses, r.effect = parsed[0], effect
                    return r
            at = rest.find(", ", at + 2)
        return r

    def aw_count_syms(self, meta, ch):
        """"Add seven {R}" / "add X {G}": ``count`` times the symbols (CR 106.3, 107.3)."""
        syms = [s for c in ch if isinstance(c, list) for s in c if isinstance(s, A.ManaSymbol)]
        return A.AddMana("fixed", symbols=syms, amount=_first(ch, A.Amount))

    def mk_produced_type(self, meta, ch):
        """"one mana of any type that land produced" (Heartbeat of Spring; CR 106.7, 605.1b): a
        dependent production whose source is the permanent tapped for mana, ``Obj`` "that <type>"
        (qualifier ``that_creature``, as objects.lark reads "that land")."""
        # a CARDTYPE token, else the grammar's other alternative: the literal "permanent" (Kinnan, Bonder
        # Prodigy), an anonymous token Lark filters out of ``ch``
        word = next((str(t).lower() for t in ch if isinstance(t, Token) and str(t).lower() not in
                     ("of", "any", "type", "that", "produced")), "permanent")
        low = self._low(meta)
        text = self._t(meta)[low.index("that "):low.rindex(" produced")]
        return A.AddMana("dependent", of_type=True, source=A.Obj(None, None, [word], text, ["that_creature"]))

    def aw_and_other(self, meta, ch):
        """"two mana of any one color and two mana of any other color" (Open the Omenpaths): the first
        production with ``also`` the second, ``AddMana("any_color", other_color=True)`` (CR 106.1)."""
        amounts = [c for c in ch if isinstance(c, A.Amount)]
        first = _first(ch, A.AddMana)
        first.amount = amounts[0]
        first.also = A.AddMana("any_color", amount=amounts[1], other_color=True)
        return first

    def mk_dependent_exiled(self, meta, ch):
        """"of any of the exiled card's colors" (Chrome Mox): a dependent production (CR 106.7) whose
        source is the card exiled by the linked ability (CR 607.2a), ``Obj("the_exiled:exiled", words
        ["card"])`` as objects.lark reads "the exiled card" (the plural "the exiled cards' colors" is
        that object followed by "'")."""
        at = self._low(meta).index("the exiled")
        text = self._t(meta)[at:at + len("the exiled card")]
        return A.AddMana("dependent", dependent="colors_of", source=A.Obj("the_exiled:exiled", None, ["card"], text))

    def at_for_each_spent(self, meta, ch):
        """"for each {S} spent to cast this spell" (Tundra Fumarole; CR 106.1, 601.2h: the mana paid
        for a spell's costs) → Amount(for_each, ref=Action("quantity:mana_spent_to_cast", obj=the
        spell, extra.symbols=the symbols counted))."""
        syms = [s for c in ch if isinstance(c, list) for s in c if isinstance(s, A.ManaSymbol)]
        ref = A.Action("quantity:mana_spent_to_cast", obj=_first(ch, A.Obj), extra={"symbols": syms},
                       text=self._t(meta)[len("for each "):])
        return A.Amount("for_each", ref=ref, text=self._t(meta))

    def at_for_each_life_lost(self, meta, ch):
        """"for each 1 life your opponents have lost this turn" (Neheb, the Eternal; CR 119.3: life
        lost) → Amount(for_each, ref=Action("quantity:life_lost_this_turn", obj=the players,
        amount=Amount(fixed, the life counted per unit)))."""
        digits = next(t for t in ch if isinstance(t, Token) and t.type == "DIGITS")
        ref = A.Action("quantity:life_lost_this_turn", obj=_first(ch, A.Obj), amount=A.Amount("fixed", value=int(str(digits))),
                       text=self._t(meta)[len("for each "):])
        return A.Amount("for_each", ref=ref, text=self._t(meta))

    def dt_your_next_main_this_turn(self, meta, ch):
        """"at the beginning of your next main phase this turn" → Delayed(YOUR_NEXT_MAIN_THIS_TURN)
        (CR 603.7: a delayed triggered ability; it triggers only if that phase comes this turn)."""
        return A.Delayed(self._t(meta), A.DelayedTime.YOUR_NEXT_MAIN_THIS_TURN)

    def until_cast_from_exile(self, meta, ch):
        """"until this card is cast from exile" → Action("duration:until_cast_from_exile", subject=the
        card) (CR 611.2b: the effect's duration ends when the card is cast, CR 601.2a)."""
        return A.Action("duration:until_cast_from_exile", subject=_first(ch, A.Obj), text=self._t(meta))

    def mana_persist_steps(self, meta, ch):
        """"Until end of turn, you don't lose this mana as steps and phases end." (CR 106.4:
        mana empties from the pool at the end of each step and phase; this effect stops that)."""
        dur = _first(ch, A.Node)
        return A.ManaRestriction("persist", self._t(meta), duration=dur)

    def start_spend(self, meta, ch):
        return ch[0]

    def spend_uncounterable(self, meta, ch):
        """"…, and that spell can't be countered" → Sentence([Action("uncounterable", subject=Obj
        "that spell")]), as statics.lark reads "That spell can't be countered." (CR 101.2)."""
        low = self._low(meta)
        text = self._t(meta)[low.index("that spell"):]
        spell = A.Obj(None, None, [], text[:len("that spell")], ["that_spell"])
        return A.Sentence([A.Action("uncounterable", subject=spell, text=text)])

    def sw_class_level(self, meta, ch):  # CR 716.2
        return A.ManaUse("gain_class_level")

    def sw_unlock_door(self, meta, ch):  # CR 709.5e
        return A.ManaUse("unlock_door")

    def sw_unlock_doors(self, meta, ch):  # CR 709.5e
        return A.ManaUse("unlock_door", plural=True)

    def sw_foretell(self, meta, ch):  # CR 702.143a
        return A.ManaUse("foretell", obj=_first(ch, A.Node))

    def sw_keyword_abilities(self, meta, ch):
        """"to activate equip abilities" (the activated abilities a keyword stands for, CR 702)"""
        return A.ManaUse("activate_keyword", obj=_first(ch, A.Node), plural=True)

    def spend_uses(self, meta, ch):
        """The uses and their joins; a trailing ", and that spell can't be countered" (Cavern of
        Souls) is a third item, its Sentence (CR 106.6)."""
        uses = [c for c in ch if isinstance(c, A.ManaUse)]
        joins = [str(c) for c in ch if isinstance(c, _Join)]
        clause = next((c for c in ch if isinstance(c, A.Node) and not isinstance(c, A.ManaUse)), None)
        if clause is None:
            return uses, joins
        return uses, joins, clause if isinstance(clause, A.Sentence) else A.Sentence([clause])

    def _sj(name):  # noqa: N805
        def f(self, meta, ch):
            return _Join(_JOINS[name])
        return f

    sj_comma = _sj("sj_comma")
    sj_or = _sj("sj_or")
    sj_and = _sj("sj_and")
    sj_andor = _sj("sj_andor")
    sj_comma_or = _sj("sj_comma_or")
    sj_comma_and = _sj("sj_comma_and")

    def su_to(self, meta, ch):
        return ch[0]

    def su_bare(self, meta, ch):
        u = ch[0]
        u.to = False
        return u

    def su_costs_contain(self, meta, ch):
        """"on costs that contain {X}" (CR 107.3)"""
        syms = next((c for c in ch if isinstance(c, list)), [])
        return A.ManaUse("cost_contains", symbols=list(syms), to=False, plural=True)

    def su_on(self, meta, ch):
        """"(spent) on a Dragon creature spell" (CR 106.6: the spell or ability the mana is spent on)"""
        return A.ManaUse("spent_on", obj=_first(ch, A.Node), to=False)

    def sw_cast(self, meta, ch):  # CR 601
        return A.ManaUse("cast", obj=_first(ch, A.Node))

    def sw_activate(self, meta, ch):  # CR 602
        return A.ManaUse("activate", obj=_first(ch, A.Node))

    def sw_cost_contains(self, meta, ch):
        """"to pay a cost that contains {C}" (CR 118)"""
        syms = next((c for c in ch if isinstance(c, list)), [])
        return A.ManaUse("cost_contains", symbols=list(syms), plural=False)

    def sw_turn_face_up(self, meta, ch):  # CR 702.37e, 708.8
        return A.ManaUse("turn_face_up", obj=_first(ch, A.Node))

    # ---- objects of spend restrictions: "abilities of artifacts", "an ability of an artifact source"
    def p_of(self, meta, ch):
        """obj_post "of" + type words → qualifier ``of:<w>,<w>`` (CR 113.8 an ability's source)."""
        words = [w for c in ch if isinstance(c, list) for w in c if isinstance(w, str)]
        return "of:" + ",".join(words)

    def p_of_a(self, meta, ch):
        """obj_post "of a/an" + type words [you control | in your graveyard] → qualifier
        ``of_a:<w>,<w>`` (a trailing "you control"/"in your graveyard" is kept after ``;``)."""
        words = [w for c in ch if isinstance(c, list) for w in c if isinstance(w, str)]
        out = "of_a:" + ",".join(words)
        low = self._low(meta)
        if low.endswith("you control"):
            out += ";you_control"
        elif low.endswith("in your graveyard"):
            out += ";zone:your_graveyard"
        return out

    def kw_cost_words(self, meta, ch):
        """A keyword naming a cost ("disturb", "cumulative upkeep", CR 702) as a Keyword; any
        other words ("generic mana") stay Text (not a keyword, not rendered)."""
        from pipeline.parse.lexicon import is_keyword

        name = " ".join(str(t).lower() for t in ch if isinstance(t, Token))
        return A.Keyword(name) if is_keyword(name) else A.Text(self._t(meta))

    def sw_keyword_cost(self, meta, ch):
        """"to pay a disturb cost" (the cost of a keyword ability, CR 702)"""
        return A.ManaUse("pay_keyword_cost", obj=_first(ch, A.Node))

    def sw_keyword_costs(self, meta, ch):
        """"to pay cumulative upkeep costs" (CR 702.24)"""
        return A.ManaUse("pay_keyword_cost", obj=_first(ch, A.Node), plural=True)
