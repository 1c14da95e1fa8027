"""Transformer rules for ``grammar/statics.lark``: static abilities (CR 604) and replacement
effects (CR 614) — cost changes, enters-tapped / enters-with-counters, "can't" restrictions,
conditions of "as long as"/"unless"/"if … would" clauses, and a few whole-sentence statics.

:class:`StaticRules` is a mixin of :class:`pipeline.parse.transform.ToAst` (which inherits
it); every method takes ``(meta, children)`` like ``ToAst``'s. Methods return nodes of
:mod:`pipeline.parse.ast`:

* conditions (``cd_*``) → ``Action(verb="condition:<name>", obj, amount, extra, text)``;
* object post-modifiers (``p_*``) → qualifier strings (as in ``ToAst``), e.g. ``"you_cast"``;
* actions (``a_*``) → ``Action``, ``EntersWith`` or ``EntersTapped``;
* whole sentences (``st_*``) → ``Sentence([Action(...)])``.

Helpers of ``transform.py`` are imported lazily (``transform`` imports this module).
"""

from __future__ import annotations

from lark import Token, Transformer, v_args

from pipeline.parse import ast as A
from pipeline.parse.children import first_of as _first
from pipeline.parse.qualifiers import ref_post, take_posts
from pipeline.parse.transform_conditions import dur_extra, with_duration


def _tr():
    from pipeline.parse import transform  # lazy: transform.py imports this module
    return transform


class _UntapStep(str):
    """Internal: whose untap step — your, your_next, controller, controller_next (CR 502.3)."""


def _self_obj() -> A.Obj:
    return A.Obj("self", None, ["~"], "~")


@v_args(meta=True)
class StaticRules(Transformer):
    """Mixin with the rules of ``grammar/statics.lark`` (see the module docstring)."""

    # ------------------------------------------------------------ objects
    def p_you_cast(self, meta, ch):  # "spells you cast" (CR 601.2f cost changes)
        return "you_cast"

    def p_opps_cast(self, meta, ch):  # "spells your opponents cast"
        return "opps_cast"

    def p_you_activate(self, meta, ch):  # "equip abilities you activate" (CR 602.2b)
        return "you_activate"

    def o_keyword_abilities(self, meta, ch):  # "Equip abilities" (CR 702.6a equip, 702.29a cycling, 602)
        self._form_used = True  # (the keyword's name is the node's ``keyword``)
        return A.KeywordAbilities(None, None, ["abilities"], self._t(meta), keyword=self._lits[0])

    def p_thats_a(self, meta, ch):  # "creature you control that's a Wolf or a Werewolf"
        words = []
        for c in ch:
            if isinstance(c, list):
                words.extend(x for x in c if isinstance(x, str))
        return "thats_a:" + ",".join(words)

    def p_power_less_than_obj(self, meta, ch):  # "with power less than ~'s power" (CR 208.1)
        return ref_post("power_less_than", _first(ch, A.Obj))

    def p_that_target(self, meta, ch):  # "spells your opponents cast that target ~" (CR 115.1)
        return ref_post("that_targets", _first(ch, A.Obj))

    def z_top_of_library(self, meta, ch):  # "from the top of your library" (CR 401)
        return "top_of_library"

    def c_this_ability(self, meta, ch):  # "This ability costs {1} less to activate …" (CR 602.2b)
        act = _first(ch, A.Action)
        if act is not None:
            act.subject = A.Obj("this_ability", None, ["ability"], "this ability")
            act.text = self._t(meta)
        return act

    def z_opening_hand(self, meta, ch):  # CR 103.6
        return "opening_hand"

    def p_with_landwalk(self, meta, ch):  # CR 702.14 landwalk
        return "with_keyword:" + self._low(meta).split()[-1]

    def p_that_are(self, meta, ch):  # "creatures you control that are enchanted"
        return "that_are:" + self._low(meta).split()[-1]

    def o_both(self, meta, ch):
        self._form_used = True  # ("creatures" | "players": the word is the Obj's word)
        return A.Obj("both", None, [self._low(meta).split()[-1]], self._t(meta))

    def o_first_spell_each_turn(self, meta, ch):  # "the first spell you cast each turn"
        words = next((c for c in ch if isinstance(c, list)), [])
        return A.Obj("first_each_turn", None, list(words), self._t(meta), ["you_cast"])

    def o_activated_abilities_of(self, meta, ch):  # CR 602 "activated abilities of artifacts"
        return A.AbilitiesOf("of", None, ["activated", "abilities"], self._t(meta), source=_first(ch, A.Obj))

    def o_basic_land_types_among(self, meta, ch):  # domain (CR 702 / 205.3i basic land types)
        o = _first(ch, A.Obj)
        return A.Obj("each", None, ["basic", "land", "type"], self._t(meta),
                     ["among:" + (o.text if o is not None else "")])

    def o_types_among(self, meta, ch):
        """"basic land types among lands you control" (domain, CR 205.3i), "card types among cards in
        your graveyard" (CR 205.2a): a TypesAmong node."""
        words = next((c for c in ch if isinstance(c, list)), [])
        noun = "types" if "types" in self._raw_lits else "type"
        self._form_used = True  # (the noun keeps "type"/"types")
        return A.TypesAmong("types_among", None, list(words) + [noun], self._t(meta), among=_first(ch, A.Obj))

    def p_same_name_as(self, meta, ch):  # "with the same name as that creature" (CR 201.2)
        return ref_post("same_name_as", _first(ch, A.Obj))

    def p_enchanted_player_controls(self, meta, ch):
        return "enchanted_player_controls"

    def o_poss_activated_abilities(self, meta, ch):  # "enchanted creature's activated abilities"
        return A.AbilitiesOf("of", None, ["activated", "abilities"], self._t(meta), source=_first(ch, A.Obj),
                             possessive=True)

    def o_defending_player(self, meta, ch):  # CR 506.2
        return A.Obj("defending", None, ["player"], self._t(meta))

    def q_n_or_more_other(self, meta, ch):  # "two or more other lands"
        return _tr()._Quant("n_or_more_other", _first(ch, A.Amount))

    def q_n_or_fewer(self, meta, ch):  # "two or fewer other lands"
        name = "n_or_fewer_other" if "other" in self._low(meta).split() else "n_or_fewer"
        self._form_used = True  # (the name says "other")
        return _tr()._Quant(name, _first(ch, A.Amount))

    def st_colors(self, meta, ch):
        """"black and green" → ``["black", "green"]`` (CR 700.5a: devotion to two colors); an "or" between
        them is kept as a list entry (not a color: no renderer writes it)."""
        self._form_used = True
        colors = [str(c).lower() for c in ch if isinstance(c, Token) and c.type == "COLOR"]
        return colors if "or" not in self._lits else colors[:1] + ["or"] + colors[1:]

    # ------------------------------------------------------------ conditions
    def _cond(self, name, meta, ch, **extra):
        return A.Action("condition:" + name, obj=_first(ch, A.Obj), amount=_first(ch, A.Amount),
                        extra=extra, text=self._t(meta))

    def cd_opp_controls(self, meta, ch):
        return self._cond("opp_controls", meta, ch)

    def cd_player_controls(self, meta, ch):  # "defending player controls an Island"
        objs = [c for c in ch if isinstance(c, A.Obj)]
        return A.Action("condition:controls", obj=objs[0], extra={"controlled": objs[1]}, text=self._t(meta))

    def cd_opp_hand(self, meta, ch):
        return self._cond("opp_hand", meta, ch)

    def cd_devotion_less(self, meta, ch):  # CR 700.5 devotion
        colors = next((c for c in ch if isinstance(c, list)), [])
        return self._cond("devotion_less_than", meta, ch, colors=colors)

    def cd_card_types(self, meta, ch):  # delirium-style "four or more card types among …"
        return self._cond("card_types_among", meta, ch)

    def cd_opponents(self, meta, ch):
        """"you have two or more opponents" → ``condition:opponents`` with ``extra.comparison`` ``>=`` (CR 107.1,
        the number compared; render_alternatives writes the wording)."""
        act = self._cond("opponents", meta, ch)
        self._compare(act.extra, act.amount)
        return act

    def cd_completed_dungeon(self, meta, ch):  # CR 309.7
        return self._cond("completed_dungeon", meta, ch)

    def cd_city_blessing(self, meta, ch):  # CR 702.131 ascend
        return self._cond("city_blessing", meta, ch)

    def cd_damage_would(self, meta, ch):  # replacement/prevention of damage (CR 614.1a, 615)
        return self._cond("damage_would_be_dealt", meta, ch)

    def cd_you_would_draw(self, meta, ch):  # CR 614.11 draw replacement
        return self._cond("you_would_draw", meta, ch)

    def cd_you_would_gain_life(self, meta, ch):
        return self._cond("you_would_gain_life", meta, ch)

    def cd_source_would_deal(self, meta, ch):  # "a source you control would deal damage to an opponent"
        objs = [c for c in ch if isinstance(c, A.Obj)]
        return self._cond("source_would_deal_damage", meta, ch, to=objs[-1]) if len(objs) > 1 else \
            self._cond("source_would_deal_damage", meta, ch)

    def cd_neither_day_night(self, meta, ch):  # CR 726.2
        return self._cond("neither_day_nor_night", meta, ch)

    def cd_entered_this_turn(self, meta, ch):
        return self._cond("entered_this_turn", meta, ch)

    def cd_would_be_destroyed(self, meta, ch):  # CR 614 / 701.15 regeneration shields
        return self._cond("would_be_destroyed", meta, ch)

    def cd_counters_would_be_put(self, meta, ch):  # CR 614.1 counter replacement (Doubling Season)
        return self._cond("counters_would_be_put", meta, ch, counter=self._counter(ch))

    def cd_attached_to(self, meta, ch):  # CR 301.5 / 303.4
        objs = [c for c in ch if isinstance(c, A.Obj)]
        return A.Action("condition:attached_to", obj=objs[0], extra={"to": objs[-1]}, text=self._t(meta))

    def cd_control_exactly(self, meta, ch):
        words = next((c for c in ch if isinstance(c, list)), [])
        return self._cond("control_exactly", meta, ch, words=words)

    def cd_exact_counters(self, meta, ch):
        return self._cond("exact_counters", meta, ch, counter=self._counter(ch))

    def cd_more_cards(self, meta, ch):
        return self._cond("more_cards_in_hand_than_each_opponent", meta, ch)

    def cd_would_draw_empty(self, meta, ch):  # CR 121.4 / 704.5b (Laboratory Maniac)
        return self._cond("you_would_draw_from_empty_library", meta, ch)

    def cd_revolt(self, meta, ch):  # revolt (a permanent you controlled left the battlefield this turn)
        return self._cond("revolt", meta, ch)

    def cd_would_draw(self, meta, ch):  # CR 614.11 draw replacement
        return self._cond("would_draw", meta, ch)

    def cd_would_enter(self, meta, ch):  # CR 614.12
        return self._cond("would_enter", meta, ch)

    def cd_is_color(self, meta, ch):  # CR 105.2
        color = next((str(c).lower() for c in ch if isinstance(c, Token) and c.type == "COLOR"), None)
        return self._cond("is_color", meta, ch, color=color)

    def cd_control_as_cast(self, meta, ch):  # "you control a commander as you cast ~" (CR 601.2)
        return self._cond("control_as_cast", meta, ch)

    def cd_opp_graveyard(self, meta, ch):
        return self._cond("opp_graveyard_size", meta, ch)

    def cd_attacking_alone(self, meta, ch):  # CR 506.5
        return self._cond("attacking_alone", meta, ch)

    # ------------------------------------------------------------ for each
    def fe_obj(self, meta, ch):
        return A.Amount("for_each", ref=_first(ch, A.Obj), text=self._t(meta))

    def fe_kicked(self, meta, ch):  # CR 702.33 (multikicker): one per time it was kicked
        return A.Amount("for_each", ref=A.Action("quantity:times_kicked", obj=A.Obj("it", None, [], "it")),
                        text=self._t(meta))

    def fe_colors_spent(self, meta, ch):  # CR 601.2h (converge): one per color of mana spent
        return A.Amount("for_each", ref=A.Action("quantity:colors_spent", obj=A.Obj("it", None, [], "it")),
                        text=self._t(meta))

    # ------------------------------------------------------------ actions
    def _counter(self, ch) -> str:
        ck = next((c for c in ch if isinstance(c, _tr()._Counter)), None)
        return ck.kind if ck else ""

    def a_enters_tapped_unless_cond(self, meta, ch):
        return A.EntersTapped(A.Obj(None, None, [], ""), _first(ch, A.Action))

    def _restriction(self, verb, meta, ch):
        return A.Action(verb, extra={"unless": _first(ch, A.Action)}, text=self._t(meta))

    def a_cant_attack_unless_cond(self, meta, ch):  # CR 508.1c
        return self._restriction("cant_attack", meta, ch)

    def a_cant_block_unless_cond(self, meta, ch):  # CR 509.1b
        return self._restriction("cant_block", meta, ch)

    def a_cant_attack_block_unless_cond(self, meta, ch):  # CR 508.1c, 509.1b
        return self._restriction("cant_attack_block", meta, ch)

    def a_cant_alone(self, meta, ch):
        low = self._low(meta)
        verb = "cant_attack_block_alone" if " or " in low else (
            "cant_attack_alone" if "attack" in low else "cant_block_alone")
        return A.Action(verb, text=self._t(meta))

    def a_cost_activate(self, meta, ch):  # CR 602.2b, 601.2f
        syms = next((c for c in ch if isinstance(c, list)), [])
        low = self._low(meta)
        verb = "cost_less_activate" if " less " in low else "cost_more_activate"
        return A.Action(verb, obj=_first(ch, A.Obj), extra={"mana": syms}, text=self._t(meta))

    def a_cost_more_per_target(self, meta, ch):
        """"~ costs {1}{U} more to cast for each target beyond the first" (CR 601.2f: the total cost
        grows with the targets chosen, CR 601.2c) → ``cost_more``, ``extra.per: "target_beyond_first"``."""
        syms = next((c for c in ch if isinstance(c, list)), [])
        return A.Action("cost_more", extra={"mana": syms, "per": "target_beyond_first"}, text=self._t(meta))

    def a_pump_for_each(self, meta, ch):
        """"get(s) +1/+1 for each Elf you control" as a predicate that can be joined ("… and has reach",
        CR 613.4c) → ``Action(pump, amount Amount(for_each, ref obj), extra.pt)`` (as effects.lark's
        ``s_gets_for_each``)."""
        pt = next(str(c) for c in ch if isinstance(c, Token) and c.type == "PT")
        return A.Action("pump", amount=A.Amount("for_each", ref=_first(ch, A.Obj)), extra={"pt": pt},
                        text=self._t(meta))

    def a_pump_for_each_color(self, meta, ch):
        """"gets +1/+1 for each color among permanents you control" (CR 105.2) → ``pump`` with the
        amount of ``lead_for_each_color`` (``Obj(colors_among, among: the Obj)``)."""
        pt = next(str(c) for c in ch if isinstance(c, Token) and c.type == "PT")
        ref = A.Obj("colors_among", None, ["color"], "")
        take_posts(ref, [ref_post("among", _first(ch, A.Obj))])
        return A.Action("pump", amount=A.Amount("for_each", ref=ref), extra={"pt": pt}, text=self._t(meta))

    def cd_would_leave(self, meta, ch):  # "~ would leave the battlefield" (CR 614.1a, 400.7)
        return self._cond("would_leave", meta, ch)

    def a_exile_instead_anywhere(self, meta, ch):
        """"exile it instead of putting it anywhere else" (CR 614.1a) → ``Action(exile, obj, extra: {instead:
        True, instead_of: "anywhere"})`` (the pronoun agrees with the object)."""
        self._form_used = True
        return A.Action("exile", obj=_first(ch, A.Obj), extra={"instead": True, "instead_of": "anywhere"},
                        text=self._t(meta))

    def a_enters_tapped_no_untap(self, meta, ch):
        """"~ enters tapped and doesn't untap during your untap step" (CR 614.1c, 502.3) →
        ``Action(enters_tapped_no_untap, extra.untap_step)`` (whose untap step: :class:`_UntapStep`)."""
        self._form_used = True  # ("doesn't" agrees with the subject)
        return A.Action("enters_tapped_no_untap", extra={"untap_step": str(_first(ch, _UntapStep))},
                        text=self._t(meta))

    def a_cost_less_per_counter(self, meta, ch):  # CR 601.2f
        syms = next((c for c in ch if isinstance(c, list)), [])
        return A.Action("cost_less", amount=A.Amount("for_each", ref=_first(ch, A.Obj),
                                                     text=self._counter(ch) + " counter"),
                        extra={"mana": syms, "counter": self._counter(ch)}, text=self._t(meta))

    def c_isnt(self, meta, ch):  # "~ isn't a creature" (Theros gods)
        words = next((c for c in ch if isinstance(c, list)), [])
        return A.Action("is_not", subject=_first(ch, A.Obj), extra={"words": words}, text=self._t(meta))

    def c_redirect_damage(self, meta, ch):  # CR 614.9 redirection
        objs = [c for c in ch if isinstance(c, A.Obj)]
        return A.Action("redirect_damage", obj=objs[0], extra={"to": objs[1], "instead": True}, text=self._t(meta))

    def c_deck_any_number(self, meta, ch):  # CR 100.2a exception
        return A.Action("deck_any_number", subject=_self_obj(), text=self._t(meta))

    def a_spend_as_though(self, meta, ch):
        """"spend white mana as though it were red mana" / "spend mana as though it were mana of any color
        [to cast it]" (CR 609.4b) → ``spend_as_though``, ``extra: {spent, as}``: ``spent`` a color word, "colored",
        "colorless" or None (any mana); ``as`` a color word or "any_color" / "any_type"; the spell
        of "to cast <obj>" in ``obj``."""
        low = self._low(meta)
        cut = meta.start_pos + low.index(" as though ")
        colors = [(c.start_pos < cut, str(c).lower()) for c in ch if isinstance(c, Token) and c.type == "COLOR"]
        first = low.split()[1]
        spent = first if first in ("colored", "colorless") else next((w for before, w in colors if before), None)
        if " mana of any " in low:
            as_ = "any_type" if low.split(" mana of any ", 1)[1].startswith("type") else "any_color"
        else:
            as_ = next((w for before, w in colors if not before), None)
        self._form_used = True  # (the words are read into ``spent`` and ``as``)
        return A.Action("spend_as_though", obj=_first(ch, A.Obj), extra={"spent": spent, "as": as_},
                        text=self._t(meta))

    def c_every_basic_land_type(self, meta, ch):  # CR 305.6: the five basic land types, added (205.1b)
        return A.Action("is_also", subject=_first(ch, A.Obj),
                        extra={"words": ["plains", "island", "swamp", "mountain", "forest"],
                               "every": "basic land type"}, text=self._t(meta))

    def c_is_also_list(self, meta, ch):  # "~ is also a Cleric, Rogue, Warrior, and Wizard" (CR 205.1b)
        words = [w for w in next(c for c in ch if isinstance(c, list)) if w not in ("and", "or")]
        return A.Action("is_also", subject=_first(ch, A.Obj), extra={"words": words}, text=self._t(meta))

    def c_is_also_animated(self, meta, ch):  # "All Forests and all Saprolings are 1/1 green Saproling creatures and Forest lands …"
        first = _first(ch, A.Obj)
        lists = [c for c in ch if isinstance(c, list)]
        pt = next((str(c) for c in ch if isinstance(c, Token) and c.type == "PT"), None)
        second, types = lists[0], lists[-1]
        subject = A.Obj(first.quantifier, None, list(first.words) + list(second), f"{first.text} and all {' '.join(second)}")
        return A.Action("is_also", subject=subject, extra={"words": [w for w in types if w not in ("and", "or")], "pt": pt},
                        text=self._t(meta))

    def c_animated(self, meta, ch):  # "Enchanted land is a 5/6 … creature that's still a land" (CR 205.1b)
        subj = _first(ch, A.Obj)
        pt = next((str(c) for c in ch if isinstance(c, Token) and c.type == "PT"), None)
        lists = [c for c in ch if isinstance(c, list)]
        return A.Action("is_creature", subject=subj,
                        extra={"pt": pt, "words": lists[0] if lists else [], "still": lists[-1] if len(lists) > 1 else []},
                        text=self._t(meta))

    def c_cant_prevent(self, meta, ch):  # CR 615.12 (damage can't be prevented)
        return A.Action("damage_cant_be_prevented", extra={"source": _first(ch, A.Obj)} if _first(ch, A.Obj) else {},
                        text=self._t(meta))

    def c_is_chosen_type(self, meta, ch):
        also = "addition" in self._low(meta)
        return A.Action("is_also" if also else "is", subject=_first(ch, A.Obj), extra={"chosen": A.Chosen("type")},
                        text=self._t(meta))  # (was extra.words ["chosen type"]: audit cause A3)

    def c_counter_replacement(self, meta, ch):  # "twice that many … counters are put on it instead"
        low = self._low(meta)
        return A.Action("counters_instead", obj=_first(ch, A.Obj), amount=_first(ch, A.Amount),
                        extra={"mode": "twice" if low.startswith("twice") else "plus", "counter": self._counter(ch),
                               "instead": True}, text=self._t(meta))

    def c_no_etb_triggers(self, meta, ch):  # Torpor Orb family (CR 603.2)
        return A.Action("entering_doesnt_trigger", subject=_first(ch, A.Obj), text=self._t(meta))

    def a_enters_with_and(self, meta, ch):
        """"… enters with two +1/+1 counters on it and with first strike" (kicker riders):
        an EntersWith; the keywords/abilities go to ``extra`` of a wrapping Action."""
        ew = A.EntersWith(A.Obj(None, None, [], ""), [A.CounterSpec(self._counter(ch), _first(ch, A.Amount))])
        kws = next((c for c in ch if isinstance(c, list)), [])
        return A.Action("enters_with_counters_and_abilities", extra={"enters_with": ew, "abilities": kws},
                        text=self._t(meta))

    def a_enters_with_choice(self, meta, ch):  # "your choice of a flying counter or a first strike counter"
        words = [str(c).lower() for c in ch if isinstance(c, Token) and c.type == "WORD"]
        return A.Action("enters_with_counter_choice", extra={"words": words}, text=self._t(meta))

    # ------------------------------------------------------------ whole sentences
    def c_cant_lose(self, meta, ch):  # CR 104.3 exceptions (Platinum Angel)
        return A.Action("cant_lose_opponents_cant_win", subject=_first(ch, A.Obj), text=self._t(meta))

    def st_token_doubling(self, meta, ch):  # CR 614.1 (Doubling Season)
        return self._sentence("token_doubling", meta, ch)

    def st_reduction_floor(self, meta, ch):  # CR 601.2f
        return self._sentence("cost_reduction_floor_one", meta, ch)

    def st_reduction_generic_only(self, meta, ch):
        return self._sentence("cost_reduction_colored_only", meta, ch)

    def st_any_player_may(self, meta, ch):
        act = _first(ch, A.Action)
        if act is not None:
            act.subject = A.Obj("any", None, ["player"], "any player")
            act.extra["optional"] = True
        return A.Sentence([act] if act is not None else [])

    def st_flash_sacrifice(self, meta, ch):  # CR 307.1 timing; "flash" enchantments of Visions
        card_type = [str(c).lower() for c in ch if isinstance(c, Token) and c.type == "CARDTYPE"]
        return self._sentence("sacrifice_if_cast_at_instant_speed", meta, ch, words=card_type)

    def st_one_attacker(self, meta, ch):  # CR 508.1c / 509.1b restriction
        low = self._low(meta)
        card_type = [str(c).lower() for c in ch if isinstance(c, Token) and c.type == "CARDTYPE"]
        return self._sentence("max_one_" + ("attacker" if " attack " in low else "blocker"), meta, ch, words=card_type)

    def st_dont_lose_game(self, meta, ch):  # CR 104.3b exception (Lich)
        return A.Sentence([A.Action("dont_lose_game_for_life", subject=A.Obj("you", None, [], "you"),
                                    amount=_first(ch, A.Amount), text=self._t(meta))])

    def st_life_floor(self, meta, ch):
        """"Damage that would reduce your life total to less than 1 reduces it to 1 instead." (CR 614.1a
        replacement of damage's result, CR 120.3a) → ``life_total_floor``, amount the floor ("less than N"),
        ``extra.to`` the life total it reduces to."""
        floor, to = [c for c in ch if isinstance(c, A.Amount)][:2]
        return A.Sentence([A.Action("life_total_floor", amount=floor, extra={"to": to}, text=self._t(meta))])

    def _sentence(self, verb, meta, ch, **extra):
        return A.Sentence([A.Action(verb, obj=_first(ch, A.Obj), amount=_first(ch, A.Amount),
                                    extra=extra, text=self._t(meta))])

    def st_effect_doesnt_remove(self, meta, ch):  # Ward cycle: protection doesn't remove the Aura
        return self._sentence("effect_doesnt_remove_self", meta, ch)

    def c_lure_all(self, meta, ch):  # CR 509.1c requirement ("All creatures able to block ~ do so")
        objs = [c for c in ch if isinstance(c, A.Obj)]
        return A.Action("must_block", subject=objs[0], obj=objs[1], extra={"all_able": True}, text=self._t(meta))

    def c_assign_unblocked(self, meta, ch):  # CR 510.1c
        objs = [c for c in ch if isinstance(c, A.Obj)]
        return A.Action("assign_as_though_unblocked", subject=objs[1], extra={"optional": True}, text=self._t(meta))

    def st_max_hand_size(self, meta, ch):  # CR 402.2
        low = self._low(meta)
        return self._sentence("max_hand_size_" + ("increased" if "increased" in low else "reduced"), meta, ch)

    def st_draft_face_up(self, meta, ch):  # CR 905 (Conspiracy draft)
        return self._sentence("draft_face_up", meta, ch)

    def st_reveal_draft(self, meta, ch):
        return self._sentence("reveal_as_drafted", meta, ch)


    # ------------------------------------------------------------ continuous effects of spells (CR 611.2, 613)
    a_pump_for = with_duration("pump")  # "gets +1/+1 for as long as …"

    def c_gain_and_get(self, meta, ch):
        """"Target creature gains trample and gets +X/+0 until end of turn": two effects with one
        subject and one duration → [GrantAbility, Action(pump)] (flattened by clause_list)."""
        subj = ch[0]
        kws = [c for c in ch if isinstance(c, A.Node) and not isinstance(c, (A.Obj, A.Text, A.Action))]
        kws = [k for c in kws for k in (c if isinstance(c, list) else [c])]
        pt = next(self.orig[c.start_pos:c.end_pos] for c in ch if isinstance(c, Token) and c.type == "PT")
        extra = {"pt": pt}
        extra.update(dur_extra(ch[1:]))
        dur = extra.get("duration")
        text = self._t(meta)
        grant = A.GrantAbility(subj, kws, dur.text if dur is not None else None, text)
        return [grant, A.Action("pump", subject=subj, extra=extra, text=text)]

    def a_is_base(self, meta, ch):
        """"is a blue Frog creature with base power and toughness 1/1" (CR 205.1a, 613.1d–e, 613.4b) →
        ``is_base``, ``extra: {words: colors and types, article, pt}``."""
        words = next((c for c in ch if isinstance(c, list)), [])
        pt = next(str(c) for c in ch if isinstance(c, Token) and c.type == "PT")
        self._form_used = True
        art = next((w for w in self._lits if w in ("a", "an")), None)
        return A.Action("is_base", extra={"words": list(words), "article": art, "pt": pt}, text=self._t(meta))

    def a_switch_pt(self, meta, ch):  # CR 613.4d switching power and toughness
        return A.Action("switch_pt", obj=_first(ch, A.Obj), extra=dur_extra(ch), text=self._t(meta))

    def a_becomes_base(self, meta, ch):  # CR 613.4b: base power and toughness set by an effect
        words = [c for c in ch if isinstance(c, str) and not isinstance(c, Token)]
        pt = next(self.orig[c.start_pos:c.end_pos] for c in ch if isinstance(c, Token) and c.type == "PT")
        return A.Action("becomes", extra={"words": words, "base_pt": pt}, text=self._t(meta))

    def a_assign_no_combat_damage(self, meta, ch):  # CR 510.1a
        return A.Action("assign_no_combat_damage", extra=dur_extra(ch), text=self._t(meta))

    def a_unblockable_except_obj(self, meta, ch):  # CR 509.1b
        extra = {"except": _first(ch, A.Obj)}
        extra.update(dur_extra(ch))
        return A.Action("unblockable_except", extra=extra, text=self._t(meta))

    def a_unblockable_for(self, meta, ch):
        """"can't be blocked this turn": the same Action as "can't be blocked" + a clause duration
        (the rule exists because "… blocked this turn except by Walls" needs the duration inside)."""
        return A.Action("unblockable", extra=dur_extra(ch), text=self._t(meta)[:len("can't be blocked")])

    # ------------------------------------------------------------ untapping (CR 502.3)
    def _untap_step(kind):  # noqa: N805
        def f(self, meta, ch):
            return _UntapStep(kind)
        return f

    us_your = _untap_step("your")                  # "your untap step"
    us_your_next = _untap_step("your_next")        # "your next untap step"
    us_controller = _untap_step("controller")      # "its controller's untap step" / "their controllers' …"
    us_next = _untap_step("controller_next")       # "its controller's next untap step"
    # "Those creatures don't untap during their controller's next untap step" (a plural subject, the
    # singular "controller's": each one's controller; Oracle prints both this and "their controllers'")
    us_their_next = _untap_step("their_controller_next")

    def a_no_untap(self, meta, ch):
        """"~ doesn't untap during your untap step" → ``Action(no_untap, extra.untap_step)``."""
        self._form_used = True  # "doesn't"/"don't" agree with the subject; the step is the enum
        return A.Action("no_untap", extra={"untap_step": str(_first(ch, _UntapStep))}, text=self._t(meta))

    def a_may_not_untap(self, meta, ch):  # "You may choose not to untap ~ during your untap step" (CR 502.3)
        self._form_used = True
        return A.Action("may_not_untap", obj=_first(ch, A.Obj), extra={"untap_step": str(_first(ch, _UntapStep))},
                        text=self._t(meta))

    # ------------------------------------------------------------ combat requirements (CR 508.1d, 509.1c)
    def _requirement(verb):  # noqa: N805
        def f(self, meta, ch):
            """"attacks each combat if able" → ``extra.each_combat``; "… this turn if able" → a
            ``this turn`` duration; "blocks ~ this turn if able" → obj ~."""
            self._form_used = True
            extra = ({"duration": A.Duration("this turn", A.DurationKind.THIS_TURN)} if "this" in self._lits
                     else {"each_combat": True})
            dur = _first(ch, A.Duration)
            if dur is not None:
                extra = {"duration": dur}
            return A.Action(verb, obj=_first(ch, A.Obj), extra=extra, text=self._t(meta))
        return f

    a_must_attack = _requirement("must_attack")
    a_must_block = _requirement("must_block")
    a_must_attack_block = _requirement("must_attack_block")

    def a_attack_as_though(self, meta, ch):  # CR 702.3b: "can attack [this turn] as though it didn't have defender"
        self._form_used = True
        extra = {"duration": A.Duration("this turn", A.DurationKind.THIS_TURN)} if "this" in self._lits else {}
        return A.Action("attack_as_though", extra=extra, text=self._t(meta))

    def a_base_pt(self, meta, ch):  # CR 613.4b: "has base power and toughness 1/1"
        self._form_used = True  # "has"/"have" agree with the subject
        pt = next(self.orig[c.start_pos:c.end_pos] for c in ch if isinstance(c, Token) and c.type == "PT")
        return A.Action("base_pt", extra={"pt": pt}, text=self._t(meta))

    # ------------------------------------------------------------ "As ~ enters, choose …" (CR 614.12)
    def s_as_enters_choose(self, meta, ch):
        """"As ~ enters, choose a color / a creature type / a card name / an opponent" →
        ``Sentence([Action(choose_as_enters, subject ~, obj, extra.choice: object|type|name)])``
        (the choice of ``zones.lark`` ``choose_what``)."""
        from pipeline.parse.transform_zones import _Choice
        choices = [c for c in ch if isinstance(c, _Choice)]
        choice = choices[0] if choices else None
        extra = {"choice": choice.kind if choice else None}
        if len(choices) > 1:  # "choose a color and an opponent": the second choice (replacement.lark)
            extra["and_choice"] = choices[1].kind
            extra["and_obj"] = choices[1].obj
        return A.Sentence([A.Action("choose_as_enters", subject=_self_obj(), obj=choice.obj if choice else None,
                                    extra=extra, text=self._t(meta))])

    def s_as_enters_choose_secretly(self, meta, ch):
        """"As ~ enters, secretly choose an opponent" (the choice is hidden until revealed) →
        :meth:`s_as_enters_choose` with ``extra.secretly``."""
        out = self.s_as_enters_choose(meta, ch)
        out.effects[0].extra["secretly"] = True
        return out

    def s_as_it_enters_choose(self, meta, ch):
        """"As it enters, choose a color" (Thriving lands: "it" is the permanent the line is about) →
        :meth:`s_as_enters_choose` with subject ``it``."""
        out = self.s_as_enters_choose(meta, ch)
        out.effects[0].subject = A.Obj("it", None, [], "it")
        return out

    # ------------------------------------------------------------ characteristic-defining abilities (CR 604.3)
    def s_cda(self, meta, ch):
        """"~'s power and toughness are each equal to …" / "~'s power is equal to …" →
        ``Action(characteristic, subject ~, amount, extra.what: power_toughness|power|toughness)``."""
        self._form_used = True
        lits = self._lits
        what = "power_toughness" if "and" in lits else ("power" if "power" in lits else "toughness")
        return A.Sentence([A.Action("characteristic", subject=_self_obj(), amount=_first(ch, A.Amount),
                                    extra={"what": what}, text=self._t(meta))])

    def s_cda_toughness_plus(self, meta, ch):
        """"~'s power is equal to the number of creature cards in your graveyard and its toughness is equal
        to that number plus 1" (CR 604.3) → ``Action(characteristic, subject ~, amount, extra.what: power,
        extra.toughness_plus: Amount{fixed})`` — the toughness is the same count plus that number."""
        amounts = [c for c in ch if isinstance(c, A.Amount)]
        return A.Sentence([A.Action("characteristic", subject=_self_obj(), amount=amounts[0],
                                    extra={"what": "power", "toughness_plus": amounts[-1]}, text=self._t(meta))])

    def s_may_cast_as_long_as(self, meta, ch):
        """"You may cast ~ from your graveyard as long as you control a Zombie" → the Sentence that
        ``s_as_long_as_after`` gives for "<you may cast …> as long as <cond>" (CR 601.3, 611.2b)."""
        objs = [c for c in ch if isinstance(c, A.Obj)]
        cast = self.a_may_cast(meta, [objs[1]])
        act = self.c_may(meta, [objs[0], cast])
        cond = A.Action("condition:as_long_as", extra={"condition": ch[-1], "after": True}, text=self._t(meta))
        return A.Sentence([act], condition=cond)

    # ------------------------------------------------------------ joined predicates (CR 205.1b, 613.1d)
    def a_is_also_pred(self, meta, ch):
        """"… and is a Demon in addition to its other types", "… is a black Zombie in addition to its
        other colors and types" (no subject: the clause before gives it, ``transform._resolve_joined``)
        → ``Action(is_also, extra.words, extra.form)`` as ``c_is_also``; "colors and types" →
        ``extra.other = "colors_and_types"`` (CR 105.3 color and CR 205.1b types both kept)."""
        words = next((c for c in ch if isinstance(c, list)), [])
        lits = self._lits
        self._form_used = True
        form = (["a"] if "a" in lits else []) + (["their"] if "their" in lits else ["it"])
        extra = {"words": words, "form": form}
        kind = [str(c).lower() for c in ch if isinstance(c, Token) and c.type == "CARDTYPE"]
        if kind:  # "in addition to its other creature types" (CR 205.1b: only subtypes of that type)
            extra["other_types"] = kind[-1]
        if "color" in lits:
            extra["other"] = "colors_and_types"
        return A.Action("is_also", extra=extra, text=self._t(meta))

    def a_is_pred(self, meta, ch):
        """"… and is a black Zombie" (a type-setting predicate without its subject, CR 205.1a) →
        ``Action(is, extra.words, extra.form ["a"])`` as ``c_is``."""
        words = next((c for c in ch if isinstance(c, list)), [])
        self._form_used = True
        return A.Action("is", extra={"words": words, "form": ["a"]}, text=self._t(meta))

