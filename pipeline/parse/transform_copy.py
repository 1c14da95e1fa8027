"""Transformer rules for ``grammar/copy.lark``: copy effects (CR 707) and the wording around them.

:class:`CopyRules` is a mixin of :class:`pipeline.parse.transform.ToAst` (which inherits it);
every method takes ``(meta, children)`` like ``ToAst``'s. Methods return nodes of
:mod:`pipeline.parse.ast`:

* ``cp_*`` → :class:`~pipeline.parse.ast.CopyEffect` (mode, original, optional, count,
  exceptions, counters, new_targets, subject, duration);
* ``ce_*`` / ``copy_except`` → :class:`~pipeline.parse.ast.CopyException` (CR 707.9);
* ``ct_*`` → the number of copies (``_Times`` holding an :class:`~pipeline.parse.ast.Amount`);
* ``sc_*`` → whole sentences (:class:`~pipeline.parse.ast.Sentence`) whose copy effect
  comes with another instruction or a leading clause (Tibalt's "Cast a copy of one of the
  following cards chosen at random—…", "The next time … enter this turn, they enter as copies …").

Card names standing for the original ("becomes a copy of Lightning Bolt") are accepted only
when the wording is a Title Case name in the original text (:func:`card_name`); any other
remainder stays :class:`~pipeline.parse.ast.Unparsed`.
"""

from __future__ import annotations

import re

from lark import Token, Transformer, v_args

from pipeline.parse import ast as A
from pipeline.parse.children import first_of as _first
from pipeline.parse.qualifiers import ref_post
from pipeline.parse.transform_zones import _Choice  # what "choose" picks (zones.lark choose_what)

#: A card name in oracle text: capitalised words, with lower-case particles between them
#: ("Lightning Bolt", "Crack the Earth", "Dance with Devils").
_NAME_RE = re.compile(r"[A-Z][\w'-]*(?:,? (?:(?:of|the|a|an|in|to|with|from|and)\b|[A-Z][\w'-]*))*")


def _tr():
    from pipeline.parse import transform  # lazy: transform.py imports this module
    return transform


def _nodes(children, cls=A.Node):
    return [c for c in children if isinstance(c, cls)]


def card_name(text: str) -> str | None:
    """``text`` stripped of a final period if it reads as one card name (Title Case words with
    lower-case particles: "Lightning Bolt", "Crack the Earth"), else None."""
    t = text.strip().rstrip(".").strip()
    return t if _NAME_RE.fullmatch(t) else None


def named_obj(name: str, text: str) -> A.Obj:
    """The original of a copy effect given by card name: ``Obj("named", words=["card"],
    qualifiers=["named:<name>"])`` (qualifier spelling as ``p_named``)."""
    return A.Obj("named", None, ["card"], text, ["named:" + name])


class _CondExc:
    """Internal: an exception headed by a condition ("if it's a creature, …")."""

    def __init__(self, condition, exception):
        self.condition, self.exception = condition, exception


class _NewTargetsFor:
    """Internal: "a new target" (single) and "that copy" (that) of a new-targets choice."""

    def __init__(self, single, that):
        self.single, self.that = single, that


def _new_targets_for(eff: A.CopyEffect, ch) -> None:
    ntf = next((c for c in ch if isinstance(c, _NewTargetsFor)), None)
    if ntf is not None:
        eff.new_targets_single, eff.new_targets_that = ntf.single, ntf.that


class _Times:
    """Internal: how many copies ("twice", "three times", "an additional time")."""

    def __init__(self, amount):
        self.amount = amount


@v_args(meta=True)
class CopyRules(Transformer):
    """Mixin with the rules of ``grammar/copy.lark`` (see the module docstring)."""

    # ------------------------------------------------------------ copy effects (grammar/copy.lark)
    def _copy_node(self, mode, meta, ch, optional=False, new_targets=False) -> A.CopyEffect:
        """Build a CopyEffect of ``mode`` from a ``cp_*`` rule's children: the last Obj is the
        original; for enter/become/is copies (and optional copies) the first Obj is the subject."""
        objs = _nodes(ch, A.Obj)
        subject = None
        original = objs[-1] if objs else None
        if optional and mode in ("enter_as_copy", "becomes_copy") and len(objs) >= 3:
            objs = objs[1:]  # "You may have [subject] enter/become …"
        if mode in ("enter_as_copy", "becomes_copy", "is_copy") and len(objs) >= 2:
            subject, original = objs[0], objs[1]
        elif mode == "copy_spell" and optional and len(objs) >= 2:
            subject, original = objs[0], objs[1]
        elif mode == "create_token_copy" and len(objs) >= 2:
            # "Its controller creates a token that's a copy of …": who gets the token (CR 111.2)
            subject, original = objs[0], objs[1]
        excs = [e for c in ch if isinstance(c, list) for e in c if isinstance(e, A.CopyException)]
        dur = [e for e in excs if e.kind == "duration"]
        excs = [e for e in excs if e.kind != "duration"]
        cnt = None
        if mode == "create_token_copy":
            cnt = _first(ch, A.Amount)
        times = next((c for c in ch if isinstance(c, _Times)), None)
        if times is not None:
            cnt = times.amount
        counters = [e.value for e in excs if e.kind == "enters_with_counters"]
        m = mode
        if m == "copy_spell" and original is not None:  # CR 707.10: spells, abilities (707.10), cards (707.12)
            words = set(original.words) | set(original.text.lower().split())
            if "ability" in words or "abilities" in words:
                m = "copy_ability"
            elif "card" in words or "cards" in words:
                m = "copy_card"
        eff = A.CopyEffect(m, original, optional, cnt, excs, counters, new_targets, subject, self._t(meta))
        lits = self._lits
        if m in ("enter_as_copy", "create_token_copy"):
            eff.tapped = "tapped" in lits  # CR 110.5b: it enters tapped
            eff.attacking = "attacking" in lits  # CR 508.4: put onto the battlefield attacking
            # "… a copy of it and that's tapped and attacking": the status after the original
            eff.status_last = eff.attacking and "and" in lits[lits.index("copy" if "copy" in lits else "copies"):]
        if dur:
            eff.duration = dur[0].value
        return eff

    def _copy(mode, optional=False, new_targets=False):  # noqa: N805
        def f(self, meta, ch):
            return self._copy_node(mode, meta, ch, optional, new_targets)
        return f

    cp_enter_optional = _copy("enter_as_copy", optional=True)
    cp_enter = _copy("enter_as_copy")
    cp_becomes = _copy("becomes_copy")
    cp_becomes_optional = _copy("becomes_copy", optional=True)
    cp_create_card_copy = _copy("copy_card")  # "Create a copy of the card …" (CR 707.12)
    cp_is = _copy("is_copy")
    cp_token = _copy("create_token_copy")
    cp_token_attacking = _copy("create_token_copy")
    cp_token_blocking = _copy("create_token_copy")
    cp_token_optional = _copy("create_token_copy", optional=True)
    cp_copy = _copy("copy_spell")
    def cp_copy_new_targets(self, meta, ch):
        """"copy that spell and you may choose new targets for the copy" (CR 707.10c)."""
        eff = self._copy_node("copy_spell", meta, ch, new_targets=True)
        eff.new_targets_join = "and_you_may"
        _new_targets_for(eff, ch)
        return eff

    def cp_copy_optional_new_targets(self, meta, ch):
        """"you may copy it and [may] choose new targets for the copy [they control]" (CR 707.10c)."""
        eff = self._copy_node("copy_spell", meta, ch, optional=True, new_targets=True)
        eff.new_targets_join = "and_may" if self._lits.count("may") > 1 else "and"
        eff.new_targets_own = "they" in [w.lower() for w in self._raw_lits]
        _new_targets_for(eff, ch)
        return eff

    def _ntf(single, that):  # noqa: N805
        def f(self, meta, ch):
            return _NewTargetsFor(single, that)
        return f

    ntf_the = _ntf(False, False)
    ntf_that = _ntf(False, True)
    ntf_single_the = _ntf(True, False)
    ntf_single_that = _ntf(True, True)

    def a_new_targets(self, meta, ch):
        """"choose new targets for the copy" / "choose a new target for that copy" (CR 707.10c):
        Action("new_targets", extra={"single"?: True, "that"?: True}); the parser hands the
        choice to the copy effect before it (parser._merge_riders)."""
        act = self._action("a_new_targets", ch, self._t(meta))
        words = self._lits
        if "a" in words:
            act.extra["single"] = True
        if "that" in words:
            act.extra["that"] = True
        self._form_used = "a" in words or "that" in words
        return act

    cp_copy_optional = _copy("copy_spell", optional=True)

    def a_copy_targets(self, meta, ch):
        """"The copy targets the chosen creature." (CR 707.10e: the copy's new target specified) → a
        Sentence of Action("copy_targets", obj=the target); a sentence of its own (grammar/copy.lark)."""
        return A.Sentence([self._action("a_copy_targets", ch, self._t(meta))])

    def cp_copy_by(self, meta, ch):
        """"that player copies that spell for each other Golem that spell could target" (CR 707.10:
        the player who copies a spell controls the copy; 707.10d the count) → CopyEffect(copy_spell,
        subject the player, original the spell)."""
        eff = self._copy_node("copy_spell", meta, ch)
        objs = _nodes(ch, A.Obj)
        eff.subject, eff.original = objs[0], objs[1]
        return eff

    def cp_copy_by_new_targets(self, meta, ch):
        """"that player copies it and may choose new targets for the copy" (Bonus Round; CR 707.10:
        that player controls the copy, 707.10c new targets) → cp_copy_by's CopyEffect with
        ``new_targets`` joined ``and_may``."""
        eff = self.cp_copy_by(meta, ch)
        eff.new_targets, eff.new_targets_join = True, "and_may"
        _new_targets_for(eff, ch)
        return eff


    def copy_except(self, meta, ch):
        """The exceptions in order; a leading condition (``ce_conditional``) applies to the
        exception it heads and to every later one (CR 707.9)."""
        out = []
        cond = None
        for c in ch:
            for e in (c if isinstance(c, list) else [c]):
                if isinstance(e, _CondExc):
                    cond = e.condition
                    if isinstance(cond, A.Action):  # written before the exceptions it conditions
                        cond.extra["lead"] = True
                    e = e.exception
                if isinstance(e, A.CopyException):
                    if e.condition is None:
                        e.condition = cond
                    out.append(e)
        return out

    def ce_conditional(self, meta, ch):
        """"if it's a creature, it enters with two additional +1/+1 counters on it" (Moritte)."""
        cond = _first(ch, A.Action)
        inner = [e for c in ch for e in (c if isinstance(c, list) else [c]) if isinstance(e, A.CopyException)]
        return [_CondExc(cond, e) for e in inner]

    def ce_no_mana_cost(self, meta, ch):  # CR 702.128a (embalm), 702.129a (eternalize)
        return A.CopyException("no_mana_cost", None, self._t(meta))

    def ce_is_type_with(self, meta, ch):
        """"it's a Vehicle artifact with crew 3" (Imposter Mech) → [is_type, has_keyword]."""
        words = [c for c in ch if isinstance(c, str)]
        kw = [c for c in ch if isinstance(c, A.Keyword)]
        txt = self._t(meta)
        cut = txt.lower().rfind(" with ")
        lits = list(self._raw_lits)
        return [A.CopyException("is_type", words, txt[:cut], form=lits[:lits.index("with")]),
                A.CopyException("has_keyword", kw, txt[cut + 1:], form=["with"])]

    def ce_is_type_with_addition(self, meta, ch):
        """"it's a 4/4 Dragon creature with flying in addition to its other types" (Will of the
        Temur) → [is_type (types added, CR 707.9b), has_keyword (CR 707.9a)]."""
        words = [c for c in ch if isinstance(c, str)]
        kws = [c for c in ch if isinstance(c, A.Keyword)]
        txt = self._t(meta)
        low = txt.lower()
        cut, add = low.rfind(" with "), low.rfind(" in addition ")
        lits = list(self._raw_lits)
        head = lits[:lits.index("with")]
        tail = lits[lits.index("in"):]
        return [A.CopyException("is_type", words, txt[:cut] + txt[add:], form=head + tail, addition="types"),
                A.CopyException("has_keyword", kws, txt[cut + 1:add], form=["with"])]

    # conditions of one exception (copy_if): Action("condition:…") like the cond rules
    def _cif(name):  # noqa: N805
        def f(self, meta, ch):
            words = [str(c).lower() for c in ch if isinstance(c, Token) and c.type != "REST"]
            dw = next((c for c in ch if isinstance(c, list)), None)
            extra = {"words": [w for w in dw if isinstance(w, str)]} if dw else ({"words": words} if words else {})
            return A.Action("condition:" + name, obj=_first(ch, A.Obj), extra=extra, text=self._t(meta))
        return f

    cif_is_a = _cif("is_a")
    cif_control = _cif("control")
    cif_is = _cif("is_supertype")
    def cif_was(self, meta, ch):  # "if ~ was embalmed" (CR 702.128b), "… eternalized" (CR 702.129a)
        return A.Action("condition:was", obj=_first(ch, A.Obj), extra={"words": [self._low(meta).split()[-1]]},
                        text=self._t(meta))

    def ce_has_loses(self, meta, ch):
        """"it has haste and loses soulbond" → [has_keyword, loses_ability] (CR 707.9b)."""
        has = [c for c in ch if isinstance(c, A.Node)]
        lost = [n for c in ch if isinstance(c, list) for n in c if isinstance(n, A.Node)]
        txt = self._t(meta)
        cut = txt.lower().rfind(" and loses ")
        lits = list(self._raw_lits)
        return [A.CopyException("has_keyword", has, txt[:cut], form=lits[:2]),
                A.CopyException("loses_ability", lost, txt[cut + 5:], form=["loses"])]

    def cx_item(self, meta, ch):
        return self._t(meta)

    def ct_times(self, meta, ch):
        return _Times(_first(ch, A.Amount))

    def ct_additional(self, meta, ch):
        return _Times(A.Amount("fixed", value=1, text=self._t(meta)))

    def ct_for_each_time(self, meta, ch):
        return _Times(A.Amount("for_each", text=self._t(meta)))

    def ct_commander_casts(self, meta, ch):
        """"for each time you've cast your commander from the command zone this game" (the count
        behind the commander tax, CR 903.8) → Amount(for_each, ref=Action("quantity:commander_casts"))."""
        return _Times(A.Amount("for_each", ref=A.Action("quantity:commander_casts", text=self._t(meta)[9:]),
                               text=self._t(meta)))

    def ct_that_many_plus_one(self, meta, ch):  # Twinning Staff (CR 614.1a replacement)
        return _Times(A.Amount("other", text=self._t(meta)))

    def ct_twice(self, meta, ch):
        return _Times(A.Amount("fixed", value=2, text="twice"))

    def ct_for_each(self, meta, ch):
        return _Times(A.Amount("for_each", ref=_first(ch, A.Obj), text=self._t(meta)))

    def _ce(kind, addition=None):  # noqa: N805
        def f(self, meta, ch):
            val = None
            if kind == "is_type":
                val = [c for c in ch if isinstance(c, str)]
            elif kind == "name_is":
                val = self._rest_text(ch).rstrip(".")
            elif kind == "has_ability":
                q = next((c for c in ch if isinstance(c, Token) and c.type == "QUOTED"), None)
                val = self._tok(q) if q is not None else None
            elif kind == "has_keyword":
                val = [n for c in ch if isinstance(c, list) for n in c if isinstance(n, A.Node)]
                if any(not isinstance(n, A.Keyword) for n in val):
                    return A.CopyException("has_ability", val, self._t(meta), form=list(self._raw_lits))
            elif kind == "loses_ability":  # CR 707.9b: the exception removes an ability
                val = [n for c in ch if isinstance(c, list) for n in c if isinstance(n, A.Node)]
            elif kind == "enters_with_counters":
                ck = next((c for c in ch if isinstance(c, _tr()._Counter)), None)
                val = A.CounterSpec(ck.kind if ck else "", _first(ch, A.Amount) or A.Amount("fixed", value=1),
                                    additional="additional" in self._lits)  # CR 122.6
            elif kind == "pt":
                val = self._low(meta)
            elif kind == "not_color":  # "it doesn't copy that creature's color": the type word (CR 205)
                val = [str(c).lower() for c in ch if isinstance(c, Token) and c.type == "CARDTYPE"]
            exc = A.CopyException(kind, val, self._t(meta), condition=_first(ch, A.Action),
                                  form=list(self._raw_lits))
            if addition is not None:  # CR 707.9b: types added to the copiable values, not set
                exc.addition = "colors_and_types" if "colors" in self._raw_lits else "types"
                words = self._low(meta).split()
                if words[-2:] == ["creature", "types"]:  # "… in addition to its other creature types" (CR 205.3m)
                    exc.addition = "creature_types"
                    exc.value = val[:-1] if val and str(val[-1]).lower() == "creature" else val
                    exc.form = exc.form[:-1] + ["creature", "types"]
            return exc
        return f

    ce_is_type_addition = _ce("is_type", addition=True)
    ce_is_type = _ce("is_type")
    ce_is_pt = _ce("is_type")
    ce_name_is = _ce("name_is")
    ce_not_legendary = _ce("not_legendary")
    ce_has_ability = _ce("has_ability")
    ce_has_keyword = _ce("has_keyword")
    ce_counters = _ce("enters_with_counters")
    ce_pt = _ce("pt")
    ce_not_color = _ce("not_color")  # CR 707.9b: the copy doesn't copy the original's color
    def ce_loses_types(self, meta, ch):
        """"it loses all other card types" (CR 205.1b, 707.9b: the copy keeps only the types the
        exception gives) → kind ``loses_other_card_types``, ``form`` the subject ("it"/"they")."""
        return A.CopyException("loses_other_card_types", None, self._t(meta), form=list(self._raw_lits)[:1])

    def ce_name_is_self(self, meta, ch):
        """"its name is ~" / "his name is ~" (CR 707.9b: the copy keeps this object's name); ``form``
        the possessive written."""
        return A.CopyException("name_is", "~", self._t(meta), form=[self._low(meta).split()[0]])

    def ce_loyalty(self, meta, ch):
        """"its starting loyalty is 1" (CR 306.5b, 707.9b): kind ``loyalty``, value the Amount."""
        return A.CopyException("loyalty", _first(ch, A.Amount), self._t(meta), form=list(self._raw_lits))

    ce_lacks_this_ability = _ce("lacks_this_ability")  # "it doesn't have this ability" (CR 707.9b)
    ce_has_this_ability = _ce("has_this_ability")
    ce_loses = _ce("loses_ability")
    def ce_has_keyword_this(self, meta, ch):
        """"it has hexproof and this ability" → [has_keyword (the keywords), has_this_ability]
        (CR 707.9a: both abilities are gained)."""
        kws = [n for c in ch for n in (c if isinstance(c, list) else [c]) if isinstance(n, A.Node)]
        lits = list(self._raw_lits)
        txt = self._t(meta)
        cut = txt.lower().rfind(" and this ability")
        return [A.CopyException("has_keyword", kws, txt[:cut], form=lits[:2]),
                A.CopyException("has_this_ability", None, txt[cut + 5:], form=["and"])]  # one clause with the keywords

    def ce_has_keyword_ability(self, meta, ch):
        q = next((c for c in ch if isinstance(c, Token) and c.type == "QUOTED"), None)
        kws = [k for c in ch if isinstance(c, list) for k in c if isinstance(k, A.Keyword)]
        return A.CopyException("has_ability", kws + ([self._tok(q)] if q is not None else []), self._t(meta))

    def c_copy_instead(self, meta, ch):
        """"instead create a token that's a copy of …" / "… copy that spell twice instead": the
        copy replaces the instruction before it (CR 608.2c); ``instead`` says where the word is."""
        eff = ch[0]
        if isinstance(eff, A.CopyEffect):
            eff.instead = "lead" if self._low(meta).startswith("instead") else "trail"
        return eff

    def cp_copy_instead(self, meta, ch):
        """"copy that spell twice instead" (CR 608.2c)."""
        eff = self._copy_node("copy_spell", meta, ch)
        eff.instead = "trail"
        return eff

    def copy_duration(self, meta, ch):
        return [A.CopyException("duration", ch[0], self._t(meta))]

    def copy_tail(self, meta, ch):
        return ch[0]


    # ------------------------------------------------------------ objects, sentences (copy.lark tail)
    def cp_token_except(self, meta, ch):
        """"Each player except that creature's controller creates a token that's a copy of …":
        subject ``each player`` with qualifier ``except:<excluded>``."""
        objs = _nodes(ch, A.Obj)
        eff = self._copy_node("create_token_copy", meta, [objs[0], objs[2]] + [c for c in ch if not isinstance(c, A.Obj)])
        subj = objs[0]
        eff.subject = A.Obj(subj.quantifier, subj.count, subj.words, subj.text, subj.qualifiers + ["except:" + objs[1].text])
        return eff

    def o_player_group(self, meta, ch):
        """"each friend", "each foe", "your teammates": ``Obj(quantifier, words=[word])``."""
        q = next((c for c in ch if isinstance(c, _tr()._Quant)), None)
        word = self._low(meta).split()[-1]
        return A.Obj(q.name if q else None, None, [word], self._t(meta))

    def o_the_copy(self, meta, ch):
        """"the copy" / "the copies" (the copy a copy effect made, CR 707.10, 707.12): qualifier
        ``the_copy`` or ``the_copies`` (rendered by render_copy)."""
        plural = self._low(meta).split()[-1] == "copies"
        return A.Obj(None, None, [], self._t(meta), ["the_copies" if plural else "the_copy"])

    def o_any_number_of_the_copies(self, meta, ch):
        """"any number of the copies" (Arcane Bombardment; CR 707.12 cast copies, 601.2c "any
        number"): qualifier ``any_number_of_the_copies`` (rendered by render_copy)."""
        return A.Obj(None, None, [], self._t(meta), ["any_number_of_the_copies"])

    def cw_name_identical_mana_cost(self, meta, ch):
        """"choose a creature card name with an identical mana cost" (Killer Cosplay): a card name
        chosen with a characteristic (CR 201.4a) — the mana cost (CR 202.1) identical to that of
        the object the sentence is about (the creature the Equipment became attached to)."""
        return _Choice("name", _first(ch, A.Obj), {"identical": "mana_cost"})

    def until_unattached(self, meta, ch):
        """"until this Equipment becomes unattached from it" → Action("duration:until_unattached",
        subject=the Equipment/Aura, obj=what it was attached to) (CR 611.2b)."""
        objs = _nodes(ch, A.Obj)
        return A.Action("duration:until_unattached", subject=objs[0], obj=objs[1], text=self._t(meta))

    def p_exiled_with_named(self, meta, ch):  # CR 607.2a: "you exiled with cards named ~"
        return "exiled_with_named:~"

    def p_exiled_with_it(self, meta, ch):  # CR 607.2a: "exiled with it"
        return "exiled_with:it"

    def p_that_targets_single(self, meta, ch):
        """"that targets only a single creature you control" (CR 115.1: a spell with one target, that
        object; the spells CR 707.10 copies) → the ``that_targets`` ref with form ``only+a+single``."""
        return ref_post("that_targets", _first(ch, A.Obj), ["only", "a", "single"])

    def a_populate_times(self, meta, ch):
        """"populate X times" (CR 701.36a, done that many times) → Action("populate", amount)."""
        self._form_used = True  # (the amount says "times")
        return A.Action("populate", amount=_first(ch, A.Amount), text=self._t(meta))

    def p_entered_this_turn(self, meta, ch):  # CR 400.7: "creature token that entered this turn"
        return "entered_this_turn"

    def p_not_mana_ability(self, meta, ch):  # CR 605.1a/b: "an ability that isn't a mana ability"
        return "not_mana_ability"

    def sc_as_transforms(self, meta, ch):
        """"As ~ transforms into ~, …" (CR 701.27 transform; the effect applies as it
        transforms, like CR 614.1c "As [this permanent] enters"): Sentence with condition
        ``Action("event:transforms")``."""
        effects = next(c for c in ch if isinstance(c, list))
        low = self._low(meta)
        head = self._t(meta)[:low.index(",")]
        return A.Sentence(list(effects), condition=A.Action("event:transforms", subject=A.Obj("self", None, ["~"], "~"), text=head))

    def sc_cast_copy_random(self, meta, ch):
        """Tibalt the Chaotic: "Cast a copy of one of the following cards chosen at random—A, B, C."
        → ``[CopyEffect(copy_card, original=Obj("one_of_random", qualifiers=["named:A", …])),
        Action("cast", obj=the copy)]`` (CR 707.12 casting a copy of an object)."""
        rest = self._rest_text(ch).lstrip("—-– ").rstrip(".")
        names = [card_name(n) for n in rest.split(",")]
        if not names or any(n is None for n in names):
            return A.Sentence([A.Unparsed(self._t(meta))])
        orig = A.Obj("one_of_random", None, ["card"], rest, ["named:" + n for n in names])
        text = self._t(meta)
        return A.Sentence([A.CopyEffect("copy_card", orig, text=text),
                           A.Action("cast", obj=A.Obj("the", None, ["copy"], "the copy"), text=text)])

    def sc_becomes_named(self, meta, ch):
        """"Target instant or sorcery spell becomes a copy of Lightning Bolt." (Transcantation):
        the original is a card name (CR 707.2, 707.8); any other remainder stays Unparsed."""
        rest = self._rest_text(ch)
        name = card_name(rest)
        if name is None:
            return A.Sentence([A.Unparsed(self._t(meta))])
        subj = _first(ch, A.Obj)
        return A.Sentence([A.CopyEffect("becomes_copy", named_obj(name, rest), subject=subj, text=self._t(meta))])

    def sc_enters_with_token_copy(self, meta, ch):
        """"~ enters with a token copy of Pacifism attached to it." (Domesticated Mammoth;
        a replacement effect, CR 614.1c) → ``[CopyEffect(create_token_copy, original=named
        card), Action("attach", obj=the copy, extra={"to": ~})]``."""
        rest = self._rest_text(ch)
        m = re.fullmatch(r"(.*?) attached to (?:it|~)\.?", rest.strip())
        name = card_name(m.group(1)) if m else None
        if name is None:
            return A.Sentence([A.Unparsed(self._t(meta))])
        subj = _first(ch, A.Obj)
        text = self._t(meta)
        eff = A.CopyEffect("create_token_copy", named_obj(name, m.group(1)), count=A.Amount("fixed", value=1, text="a"),
                           subject=subj, text=text)
        return A.Sentence([eff, A.Action("attach", obj=A.Obj("the", None, ["copy"], "the copy"),
                                         extra={"to": subj}, text=text)])

    cp_token_optional_attacking = _copy("create_token_copy", optional=True)

    def cp_put_stack_copy(self, meta, ch):
        """"the player puts it onto the stack as a copy of the original spell" (Ertai's Meddling):
        the card becomes a copy of the spell (subject ``it``, CR 707.2)."""
        eff = self._copy_node("becomes_copy", meta, [c for c in ch if isinstance(c, A.Obj)][-1:])
        eff.subject = A.Obj("it", None, [], "it")
        return eff

    def cw_counters_equal(self, meta, ch):
        """"with a number of additional +1/+1 counters on it equal to …" (CR 122.6, 707.9)."""
        ck = next((c for c in ch if isinstance(c, _tr()._Counter)), None)
        amt = _first(ch, A.Amount)
        return [A.CopyException("enters_with_counters", A.CounterSpec(ck.kind if ck else "", amt, additional=True),
                                self._t(meta))]

    def qt_stat_of(self, meta, ch):
        """"the power of the other card" → Amount(equal_to, ref=Obj with qualifier stat:power)."""
        o = _first(ch, A.Obj)
        stat = next((c for c in ch if isinstance(c, str) and c.startswith("stat:")), "stat:")
        ref = A.Obj(o.quantifier, o.count, o.words, o.text, o.qualifiers + [stat]) if o else A.Text(self._t(meta))
        return A.Amount("equal_to", ref=ref, text=self._t(meta))

    def p_you_cast_this_turn(self, meta, ch):
        return "you_cast_this_turn"

    def c_copy_if(self, meta, ch):
        """"copy it if you control an artifact" (Banish into Fable, Mentor's Guidance): the CopyEffect
        with its ``condition`` (CR 608.2c: the copy is made only if the condition holds)."""
        eff, cond = ch[0], ch[-1]
        if isinstance(eff, A.CopyEffect) and isinstance(cond, A.Action):
            eff.condition = cond
            return eff
        return A.Sentence([eff], condition=cond)

    def c_may_instead_action(self, meta, ch):
        """"you may instead choose …" (Esix): the optional action, marked ``instead``."""
        act = self.c_may(meta, [ch[0], ch[-1]])
        if isinstance(act, A.Action):
            act.extra["instead"] = True
        return act

    def c_copy_when_cast(self, meta, ch):
        """"copy the next instant or sorcery spell … you cast this turn when you cast it" (Sea Gate
        Stormcaller): a delayed triggered ability (CR 603.7) whose effect is the copy."""
        eff = self._copy_node("copy_spell", meta, ch)
        ev = A.Action("event:cast", subject=A.Obj("you", None, [], "you"), obj=eff.original, text="when you cast it")
        return A.Triggered("when", ev, None, [A.Sentence([eff])])

    def sc_next_time(self, meta, ch):
        """"The next time …, …" / "The first time …, …": a replacement effect that applies once
        (CR 614.1, 614.5) → Sentence(effects, condition=Action("condition:next_time" |
        "condition:first_time", extra={"event": …}))."""
        low = self._low(meta)
        which = "first_time" if low.startswith("the first") else "next_time"
        ev = next((c for c in ch if isinstance(c, A.Node)), None)
        effects = next(c for c in ch if isinstance(c, list))
        head = self._t(meta)[:low.index(",")]
        return A.Sentence(list(effects), condition=A.Action("condition:" + which, extra={"event": ev}, text=head))

    def te_event(self, meta, ch):
        ev = ch[0]
        if isinstance(ev, A.Action):
            ev.extra["duration"] = "this turn"
        return ev

    def te_would_create(self, meta, ch):
        return A.Action("event:would_create_tokens", subject=A.Obj("you", None, [], "you"),
                        extra={"when": "during each of your turns"}, text=self._t(meta))

    def delayed_when(self, meta, ch):
        return A.Action("event:cast", subject=A.Obj("you", None, [], "you"), obj=_first(ch, A.Obj),
                        extra={"duration": "this turn"}, text=self._t(meta))

    def sc_if_delayed(self, meta, ch):
        """"If you attacked this turn, when you cast your next instant or sorcery spell this turn,
        copy that spell …" (Howl of the Horde): the spell creates a delayed triggered ability
        (CR 603.7) if the condition holds → Sentence([Triggered("when", …)], condition)."""
        cond, ev = ch[0], ch[1]
        effects = next(c for c in ch if isinstance(c, list))
        return A.Sentence([A.Triggered("when", ev, None, [A.Sentence(list(effects))])], condition=cond)

    def cd_would_copy(self, meta, ch):  # Twinning Staff: replacement of copying (CR 614.1a)
        return self._cond("would_copy", meta, ch)

    def cd_same_name(self, meta, ch):  # Spellweaver Helix (CR 201.3)
        objs = _nodes(ch, A.Obj)
        return self._cond("same_name", meta, ch, other=objs[-1] if len(objs) > 1 else None)

    def c_exile_pay_mana_cost(self, meta, ch):
        """Cost "Exile a creature card from your graveyard and pay its mana cost" (Back from the
        Brink) → two components: exile, pay_mana_cost (CR 118, 202.1)."""
        o = _first(ch, A.Obj)
        txt = self._t(meta)
        cut = txt.lower().rfind(" and pay ")
        zone = next((q.split(":", 1)[1] for q in o.qualifiers if q.startswith("zone:")), None) if o else None
        return [A.ActionCost("exile", o, None, None, zone, txt[:cut]),
                A.ActionCost("pay_mana_cost", A.Obj("its", None, [], "its"), None, None, None, txt[cut + 5:])]

    def cp_copy_and_cast(self, meta, ch):
        """"copy that card and you may cast the copy" (God-Eternal Kefnet) → Sentence([CopyEffect,
        optional Action("cast", obj=the copy)]) (CR 707.12)."""
        eff = self._copy_node("copy_spell", meta, ch)
        text = self._t(meta)
        eff.text = text[:text.lower().rfind(" and you may cast")]
        cast = A.Action("cast", subject=A.Obj("you", None, [], "you"), obj=A.Obj("the", None, ["copy"], "the copy"),
                        extra={"optional": True}, text=text[len(eff.text) + 5:])
        return A.Sentence([eff, cast])
