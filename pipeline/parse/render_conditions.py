"""Renderers of conditions (``grammar/effects.lark`` ``cond``, ``grammar/conditions.lark``;
CR 603.4 intervening "if", 608.2c "if" in effects, 611.2b "as long as").

Only conditions whose rule keeps every word the meaning depends on are rendered; a rule that
merges two wordings ("you cast it from your hand" / "you didn't …") renders the first, so the
other fails the round trip, as it should.
"""

from __future__ import annotations

from pipeline.parse import ast as A
from pipeline.parse.render import NotRendered, extra_keys, render, renders, renders_verb, renders_verb_prefix
from pipeline.parse.render_alternatives import render_alternative
from pipeline.parse.render_objects import amount_number, article, descriptor, is_plural

def _renders_condition(*verbs: str):
    """Register a condition renderer that is tried after the grammar alternative
    (:func:`render_condition`): the wording of the rule that matched wins; this one writes the
    conditions no grammar alternative holds exactly (built by another rule's callback)."""
    def deco(fn):
        def f(a: A.Action, **ctx) -> str:
            try:
                return render_condition(a)
            except NotRendered:
                return fn(a, **ctx)
        f.__doc__ = fn.__doc__
        renders_verb(*verbs)(f)
        return fn
    return deco


#: condition rules with a fixed wording (``condition:<rule>`` → words)
FIXED = {
    "you_do": "you do", "you_dont": "you don't", "your_turn": "it's your turn",
    "not_your_turn": "it's not your turn", "cast_it": "you cast it", "win": "you win",
    "cant": "you can't", "opp_lost_life": "an opponent lost life this turn",
}


def _fixed(a: A.Action, **_) -> str:
    words = FIXED[a.verb.split(":", 1)[1]]
    # "If you don't, …": the negation the rule's literals carry is the wording's own "n't"
    extra_keys(a, {"negated"} if "n't" in words and a.extra.get("negated") is True else set())
    if a.obj is not None or a.amount is not None:
        raise NotRendered(a.verb)
    return FIXED[a.verb.split(":", 1)[1]]


_renders_condition(*("condition:" + k for k in FIXED))(_fixed)


@renders_verb("condition:otherwise")
def render_otherwise(a: A.Action, **_) -> str:
    """"otherwise" (the lead of "Otherwise, …": the preceding condition was false, CR 608.2c)."""
    extra_keys(a, set())
    if a.obj is not None or a.amount is not None:
        raise NotRendered(a.verb)
    return "otherwise"


def for_each_lead(amount: A.Amount) -> str:
    """"for each opponent" / "for each creature card exiled this way" / "for each of them": the
    lead of a sentence whose effect happens once per object (``Amount`` for_each / for_each_of with
    an ``Obj`` ref, CR 608.2c)."""
    if amount.kind not in ("for_each", "for_each_of") or not isinstance(amount.ref, A.Obj) \
            or amount.value is not None or amount.variable is not None:
        raise NotRendered("Sentence:condition:Amount")
    return ("for each of " if amount.kind == "for_each_of" else "for each ") + render(amount.ref)


@renders_verb("condition:or_if")
def render_or_if(a: A.Action, **_) -> str:
    """"~ entered this turn or if you control a basic land": two conditions, either of which
    suffices (``extra.conds``; an "Activate only if …" restriction, CR 602.5b)."""
    extra_keys(a, {"conds"})
    conds = a.extra.get("conds")
    if a.obj is not None or a.amount is not None or not isinstance(conds, list) or len(conds) != 2:
        raise NotRendered(a.verb)
    return render(conds[0]) + " or if " + render(conds[1])


@_renders_condition("condition:control", "condition:not_control")
def render_control(a: A.Action, **_) -> str:
    """"you control a Swamp" / "you don't control an artifact" (CR 108.4)."""
    extra_keys(a, set())
    if a.obj is None or a.amount is not None:
        raise NotRendered(a.verb)
    return ("you control " if a.verb == "condition:control" else "you don't control ") + render(a.obj)


@renders_verb("condition:as_long_as")
def render_as_long_as(a: A.Action, **_) -> str:
    """"as long as [condition]" (CR 611.2b)."""
    extra_keys(a, {"condition"})
    return "as long as " + render(a.extra.get("condition"))


@_renders_condition("condition:kicked")
def render_kicked(a: A.Action, **_) -> str:
    """"it was kicked" / "~ was kicked" (CR 702.33d); the grammar merges "is"/"was"."""
    extra_keys(a, set())
    if a.obj is None or a.amount is not None:
        raise NotRendered(a.verb)
    return f"{render(a.obj, role='subject')} was kicked"


@_renders_condition("condition:controls")
def render_controls(a: A.Action, **_) -> str:
    """"defending player controls an Island" (CR 108.4)."""
    extra_keys(a, {"controlled"})
    if a.obj is None or not isinstance(a.extra.get("controlled"), A.Obj) or a.amount is not None:
        raise NotRendered(a.verb)
    who = render(a.obj, role="subject")
    return f"{who} {'control' if who == 'you' else 'controls'} {render(a.extra['controlled'])}"


#: "remains …" states of a "for as long as" duration (transform_conditions ``cd_remains``) → words
REMAINS = {"tapped": "tapped", "exiled": "exiled", "haunted": "haunted", "on_battlefield": "on the battlefield"}


@renders_verb("condition:remains")
def render_remains(a: A.Action, **_) -> str:
    """"~ remains tapped", "they remain on the battlefield" (in "for as long as …", CR 611.2b)."""
    extra_keys(a, {"state"})
    state = REMAINS.get(a.extra.get("state"))
    if a.obj is None or state is None or a.amount is not None:
        raise NotRendered(a.verb)
    who = render(a.obj, role="subject")
    return f"{who} {'remain' if who == 'you' or is_plural(a.obj) else 'remains'} {state}"


#: states of "~ is tapped" / "it's attacking" (CR 110.5 tapped, 506.4 attacking/blocking, 301.5
#: enchanted/equipped, 701.37b monstrous, 702.62 suspended, 702.112 renowned): the rule's literal word
STATES = frozenset({"tapped", "untapped", "attacking", "blocking", "enchanted", "equipped", "monstrous",
                    "suspended", "renowned"})


@_renders_condition("condition:state")
def render_state(a: A.Action, **_) -> str:
    """"equipped creature is tapped", "it's untapped" (a state of a permanent)."""
    extra_keys(a, {"form"})
    form = a.extra.get("form") or []
    if len(form) != 1 or form[0] not in STATES or a.amount is not None:
        raise NotRendered(a.verb)
    if a.obj is None:
        return f"it's {form[0]}"
    return f"{render(a.obj, role='subject')} {'are' if is_plural(a.obj) else 'is'} {form[0]}"


@_renders_condition("condition:is_a")
def render_is_a(a: A.Action, **_) -> str:
    """"it's an artifact creature", "enchanted permanent is a creature" (CR 205: its types)."""
    extra_keys(a, {"words"})
    words = a.extra.get("words") or []
    if not words or a.amount is not None:
        raise NotRendered(a.verb)
    what = descriptor(words)
    what = f"{article(what)} {what}"
    if a.obj is None:
        return f"it's {what}"
    return f"{render(a.obj, role='subject')} is {what}"


_COMPARE_WORDS = {">=": "or more", "<=": "or fewer"}


def _compared(a: A.Action) -> str:
    """"three or fewer" / "seven or more" from ``extra.comparison`` (CR 107.1: counts in words)."""
    cmp = a.extra.get("comparison")
    if not isinstance(cmp, A.Comparison) or cmp.comparator not in _COMPARE_WORDS or cmp.amount is not a.amount:
        raise NotRendered(a.verb + ":comparison")
    return f"{amount_number(a.amount)} {_COMPARE_WORDS[cmp.comparator]}"


#: what "there are N or more … among …" counts (statics.lark cd_card_types; the form words): card
#: types (delirium, CR 205.2a) or mana values (CR 202.3)
AMONG = {("card", "type"): "card types", ("mana", "value"): "mana values"}


@_renders_condition("condition:card_types_among")
def render_card_types_among(a: A.Action, **_) -> str:
    """"there are four or more card types among cards in your graveyard" (delirium, CR 207.2c),
    "there are five or more mana values among cards in your graveyard" (CR 202.3)."""
    extra_keys(a, {"form"})
    what = AMONG.get(tuple(a.extra.get("form") or ()))
    if what is None or a.obj is None or a.amount is None:
        raise NotRendered(a.verb)
    return f"there are {amount_number(a.amount)} or more {what} among {render(a.obj)}"


def _no_fields(a: A.Action, *, obj: bool = False, amount: bool = False, keys: frozenset = frozenset()) -> None:
    """NotRendered unless ``a`` has exactly the fields named (an obj, an amount, extra ``keys``)."""
    extra_keys(a, set(keys))
    if (a.obj is not None) != obj or (a.amount is not None) != amount or set(a.extra) != set(keys):
        raise NotRendered(a.verb)


# Conditions of statics.lark whose verb names one grammar alternative (transform_statics ``_cond``:
# the verb holds the comparison, the number is ``amount``; CR 107.1 counts in words)

@_renders_condition("condition:opponents")
def render_opponents(a: A.Action, **_) -> str:
    """"you have two or more opponents" (statics.lark cd_opponents; CR 102.2: a multiplayer game)."""
    _no_fields(a, amount=True)
    return f"you have {amount_number(a.amount)} or more opponents"


@_renders_condition("condition:opp_graveyard_size")
def render_opp_graveyard_size(a: A.Action, **_) -> str:
    """"an opponent has seven or more cards in their graveyard" (statics.lark cd_opp_graveyard)."""
    _no_fields(a, amount=True)
    return f"an opponent has {amount_number(a.amount)} or more cards in their graveyard"


@_renders_condition("condition:control_exactly")
def render_control_exactly(a: A.Action, **_) -> str:
    """"you control exactly one creature" (statics.lark cd_control_exactly; ``words``: the type words)."""
    _no_fields(a, amount=True, keys=frozenset({"words"}))
    words = a.extra["words"]
    from pipeline.parse.lexicon import is_object_word

    if not words or not all(is_object_word(w) for w in words):
        raise NotRendered(a.verb)
    return f"you control exactly {amount_number(a.amount)} {descriptor(words)}"


@_renders_condition("condition:exact_counters")
def render_exact_counters(a: A.Action, **_) -> str:
    """"there is exactly one tide counter on ~" / "there are exactly three …" (statics.lark
    cd_exact_counters; the counter kind, CR 122.1)."""
    from pipeline.parse.lexicon import is_counter_kind

    _no_fields(a, obj=True, amount=True, keys=frozenset({"counter"}))
    kind, n = a.extra["counter"], a.amount
    if not is_counter_kind(kind) or n.kind != "fixed" or n.value is None or n.ref is not None:
        raise NotRendered(a.verb)
    one = n.value == 1
    return (f"there {'is' if one else 'are'} exactly {amount_number(n)} {kind} "
            f"{'counter' if one else 'counters'} on {render(a.obj)}")


@_renders_condition("condition:more_cards_in_hand_than_each_opponent")
def render_more_cards(a: A.Action, **_) -> str:
    """"you have more cards in hand than each opponent" (statics.lark cd_more_cards)."""
    _no_fields(a)
    return "you have more cards in hand than each opponent"


@_renders_condition("condition:and")
def render_and(a: A.Action, **_) -> str:
    """"an opponent controls a Swamp and you control a Plains" (conditions.lark
    cd2_opp_controls_and: ``extra.conds``, both conditions must be true, CR 608.2c)."""
    _no_fields(a, keys=frozenset({"conds"}))
    conds = a.extra["conds"]
    if len(conds) != 2 or not all(isinstance(c, A.Action) and c.verb.startswith("condition:") for c in conds):
        raise NotRendered(a.verb)
    return " and ".join(render(c) for c in conds)


@_renders_condition("condition:werewolf")
def render_werewolf(a: A.Action, **_) -> str:
    """"a player cast two or more spells last turn" / "no spells were cast last turn" (the
    day/night-less werewolf transform conditions)."""
    extra_keys(a, {"comparison"})
    if a.obj is not None:
        raise NotRendered(a.verb)
    if a.amount is None:
        if a.extra:
            raise NotRendered(a.verb)
        return "no spells were cast last turn"
    return f"a player cast {_compared(a)} spells last turn"


@_renders_condition("condition:damage_would_be_dealt")
def render_damage_would(a: A.Action, **_) -> str:
    """"damage would be dealt to ~" (the event a prevention or replacement effect watches, CR 615.1)."""
    extra_keys(a, {"form"})
    if a.extra.get("form") != ["to"] or a.obj is None or a.amount is not None:
        raise NotRendered(a.verb)
    return f"damage would be dealt to {render(a.obj)}"


@renders(A.Delayed)
def render_delayed(d: A.Delayed, **_) -> str:
    if d.kind is None:
        raise NotRendered("Delayed")
    return A.DELAYED_WORDS[A.DelayedTime(d.kind)]


#: whose turn a "During …'s turn, …" sentence applies in (CR 500: turns) → words
DURING_TURN = {"your": "during your turn", "each_opponent": "during each opponent's turn",
               "an_opponent": "during an opponent's turn", "not_yours": "during turns other than yours"}


@renders_verb("condition:during_turn")
def render_during_turn(a: A.Action, **_) -> str:
    """"during your turn" (the leading words of "During your turn, ~ has lifelink")."""
    extra_keys(a, {"whose"})
    words = DURING_TURN.get(a.extra.get("whose"))
    if words is None or a.obj is not None or a.amount is not None:
        raise NotRendered(a.verb)
    return words


@renders_verb_prefix("condition:")
def render_condition(a: A.Action, **_) -> str:
    """Any other condition (``condition:<name>``, CR 603.4, 608.2c) in the wording of the
    alternative of grammar rules ``cd_<name>`` (effects.lark) / ``cd2_<name>`` (conditions.lark)
    that its fields select (:mod:`pipeline.parse.render_alternatives`); NotRendered when none or
    several with different words fit."""
    name = a.verb.split(":", 1)[1]
    return render_alternative(a, ("cd_" + name, "cd2_" + name))
