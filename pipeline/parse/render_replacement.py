"""Renderers of replacement and prevention effects (CR 614, 615; ``grammar/replacement.lark``,
transformer ``transform_replacement.py``): canonical Oracle text from the structured fields of
``prevent_next`` … actions (docs/ast.md § Rendering)."""

from __future__ import annotations

from pipeline.parse import ast as A
from pipeline.parse.render import NotRendered, extra_keys, render, renders_verb
from pipeline.parse.render_effects import _duration_tail, _obj
from pipeline.parse.render_objects import amount_number, is_plural


@renders_verb("prevent_next")
def render_prevent_next(a: A.Action, **_) -> str:
    """"prevent the next 3 damage that would be dealt to any target this turn" (CR 615.7)."""
    extra_keys(a, {"duration"})
    if a.subject is not None:
        raise NotRendered("Action:prevent_next")
    n = amount_number(a.amount, words=False)
    return f"prevent the next {n} damage that would be dealt to {_obj(a)}{_duration_tail(a)}"


@renders_verb("prevent_that_damage")
def render_prevent_that_damage(a: A.Action, **_) -> str:
    """"prevent that damage" (the damage of the replaced event, CR 615.1)."""
    extra_keys(a, set())
    if a.obj is not None or a.amount is not None or a.subject is not None:
        raise NotRendered("Action:prevent_that_damage")
    return "prevent that damage"


#: where the damage a "prevent all damage" effect stops goes or comes from (``extra.direction``)
DIRECTIONS = {"to": "to", "by": "by", "to_and_by": "to and dealt by"}


@renders_verb("prevent")
def render_prevent(a: A.Action, **_) -> str:
    """"prevent all combat damage that would be dealt to and dealt by enchanted creature",
    "prevent all damage that would be dealt this turn to creatures you control" (CR 615.1)."""
    extra_keys(a, {"direction", "combat", "duration", "duration_first"})
    direction = DIRECTIONS.get(a.extra.get("direction"))
    if direction is None or a.amount is not None or a.subject is not None:
        raise NotRendered("Action:prevent")
    head = f"prevent all {'combat ' if a.extra.get('combat') else ''}damage that would be dealt"
    if a.extra.get("duration_first"):
        return f"{head}{_duration_tail(a)} {direction} {_obj(a)}"
    return f"{head} {direction} {_obj(a)}{_duration_tail(a)}"


@renders_verb("condition:next_time_would_deal_damage")
def render_next_time(a: A.Action, **_) -> str:
    """"the next time a source of your choice would deal damage to you this turn" (a prevention
    shield's event, CR 615.8, 609.7a)."""
    extra_keys(a, {"to", "duration", "combat"})
    to = a.extra.get("to")
    if a.obj is None or not (to is None or isinstance(to, A.Obj)) or a.amount is not None:
        raise NotRendered(a.verb)
    if to is None and "duration" not in a.extra:  # (the grammar reads no bare "would deal damage,")
        raise NotRendered(a.verb + ":no_to")
    combat = "combat " if a.extra.get("combat") is True else ""
    to_words = f" to {render(to)}" if to is not None else ""
    return f"the next time {render(a.obj, role='subject')} would deal {combat}damage{to_words}{_duration_tail(a)}"


@renders_verb("condition:next_time_would_draw")
def render_next_time_draw(a: A.Action, **_) -> str:
    """"the next time you would draw a card this turn" (a one-time draw replacement, CR 614.11, 609.7a)."""
    extra_keys(a, {"duration"})
    if a.obj is None or a.amount is not None or "duration" not in a.extra:
        raise NotRendered(a.verb)
    return f"the next time {render(a.obj, role='subject')} would draw a card{_duration_tail(a)}"


@renders_verb("redirect_that_damage")
def render_redirect_that_damage(a: A.Action, **_) -> str:
    """"that damage is dealt to target creature you control instead" (CR 614.9)."""
    extra_keys(a, {"instead"})
    if a.extra.get("instead") is not True or a.subject is not None or a.amount is not None:
        raise NotRendered(a.verb)
    return f"that damage is dealt to {_obj(a)} instead"


@renders_verb("condition:as_enters")
def render_as_enters(a: A.Action, **_) -> str:
    """"As ~ enters" — the event a replacement effect modifies (CR 614.1c, 614.12)."""
    extra_keys(a, set())
    if a.obj is None or a.obj.quantifier != "self" or a.amount is not None:
        raise NotRendered("Action:condition:as_enters")
    return "as ~ enters"


@renders_verb("prevent_damage_to_by")
def render_prevent_damage_to_by(a: A.Action, **_) -> str:
    """"Prevent all damage that would be dealt to ~ by creatures" (CR 615.1)."""
    extra_keys(a, {"objects"})
    objs = a.extra.get("objects") or []
    if len(objs) != 1 or a.subject is not None or a.amount is not None:
        raise NotRendered("Action:prevent_damage_to_by")
    return f"prevent all damage that would be dealt to {_obj(a)} by {render(objs[0])}"


@renders_verb("prevent_n_of_that")
def render_prevent_n_of_that(a: A.Action, **_) -> str:
    """"prevent 1 of that damage" (CR 615.7: part of the damage of the replaced event)."""
    extra_keys(a, set())
    if a.subject is not None or a.obj is not None:
        raise NotRendered("Action:prevent_n_of_that")
    return f"prevent {amount_number(a.amount, words=False)} of that damage"


#: the factor of a multiplied damage event (CR 614.1a, 120.3): verb → word
DAMAGE_FACTORS = {"damage_double": "double", "damage_triple": "triple"}


@renders_verb(*DAMAGE_FACTORS)
def render_damage_double(a: A.Action, **_) -> str:
    """"it deals double that damage to that permanent or player instead", "it deals triple that damage
    instead" (no object: the replaced event's recipient) (CR 614.1a)."""
    extra_keys(a, {"instead"})
    if a.extra.get("instead") is not True or a.subject is None or a.amount is not None:
        raise NotRendered(f"Action:{a.verb}")
    verb = "deal" if is_plural(a.subject) else "deals"
    to = "" if a.obj is None else f" to {_obj(a)}"
    return f"{render(a.subject, role='subject')} {verb} {DAMAGE_FACTORS[a.verb]} that damage{to} instead"


@renders_verb("counters_instead")
def render_counters_instead(a: A.Action, **_) -> str:
    """"twice that many … counters are put on it instead" / "that many plus one +1/+1 counters are put
    on that creature instead" (CR 614.1a, 122.6)."""
    from pipeline.parse.render_counters import counter_word

    extra_keys(a, {"mode", "counter", "instead"})
    mode = a.extra.get("mode")
    if a.extra.get("instead") is not True or a.subject is not None:
        raise NotRendered("Action:counters_instead")
    if mode == "twice" and a.amount is None:
        many = "twice that many"
    elif mode == "plus" and a.amount is not None:
        many = f"that many plus {amount_number(a.amount)}"
    else:
        raise NotRendered("Action:counters_instead:mode")
    return f"{many} {counter_word(a.extra.get('counter'))} counters are put on {_obj(a)} instead"


@renders_verb("condition:counters_would_be_put")
def render_counters_would_be_put(a: A.Action, **_) -> str:
    """"one or more +1/+1 counters would be put on a creature you control" (CR 614.1a)."""
    from pipeline.parse.render_counters import counter_word

    extra_keys(a, {"counter"})
    if a.amount is not None:
        raise NotRendered(a.verb)
    return f"one or more {counter_word(a.extra.get('counter'))} counters would be put on {_obj(a)}"


@renders_verb("condition:source_would_deal_damage")
def render_source_would_deal(a: A.Action, **_) -> str:
    """"a source you control would deal damage to an opponent" (CR 614.1a, 615: the replaced event)."""
    extra_keys(a, {"to"})
    to = a.extra.get("to")
    if not isinstance(to, A.Obj) or a.amount is not None:
        raise NotRendered(a.verb)
    return f"{render(a.obj, role='subject')} would deal damage to {render(to)}"


#: skipped steps and whose (CR 614.10; replacement.lark ``skip_step`` and the possessive words)
SKIP_STEPS = frozenset({"turn", "untap step", "upkeep", "draw step", "combat phase", "untap steps", "draw steps"})
SKIP_PLAYERS = frozenset({"your", "their", "that player's", "that"})
#: "skip that turn / draw / step": the replaced event of an "if … would …" (CR 614.10, 614.11)
SKIP_THAT = frozenset({"turn", "draw", "step"})


@renders_verb("skip")
def render_skip(a: A.Action, **_) -> str:
    """"Skip your draw step", "Players skip their untap steps", "skips their next turn" (CR 614.10); "that
    player skips that turn instead", "you may skip that draw instead" (player "that", :data:`SKIP_THAT`)."""
    from pipeline.parse.render_effects import instead_tail, subject_verb

    extra_keys(a, {"step", "player", "next", "optional", "instead"})
    step, who = a.extra.get("step"), a.extra.get("player")
    steps = SKIP_THAT if who == "that" else SKIP_STEPS
    if step not in steps or who not in SKIP_PLAYERS or a.obj is not None or a.amount is not None \
            or (who == "that" and a.extra.get("next") is True):
        raise NotRendered("Action:skip")
    nxt = "next " if a.extra.get("next") is True else ""
    return f"{subject_verb(a, 'skip', 'skips')} {who} {nxt}{step}{instead_tail(a)}"


#: designation verbs (the prepared designation: "While it's prepared, you may cast a copy of its
#: spell", Secrets of Strixhaven reminder text) → (base, third person) wording
DESIGNATIONS = {"enters_prepared": ("enter prepared", "enters prepared"),  # an enters replacement, CR 614.1c
                "becomes_prepared": ("become prepared", "becomes prepared")}


@renders_verb(*DESIGNATIONS)
def render_designation(a: A.Action, **_) -> str:
    """"~ enters prepared", "this creature becomes prepared" — the verb agrees with the subject
    (``render_effects.subject_verb``); any other field fails the round trip."""
    from pipeline.parse.render_effects import subject_verb

    extra_keys(a, set())
    if a.obj is not None or a.amount is not None or a.subject is None:
        raise NotRendered(f"Action:{a.verb}")
    return subject_verb(a, *DESIGNATIONS[a.verb])


@renders_verb("gain_plus")
def render_gain_plus(a: A.Action, **_) -> str:
    """"you gain that much life plus 1 instead" (CR 614.1a: a replacement of a life gain event)."""
    extra_keys(a, {"instead"})
    if a.extra.get("instead") is not True or a.subject is None or a.obj is not None \
            or not isinstance(a.amount, A.Amount) or a.amount.kind != "fixed":
        raise NotRendered("Action:gain_plus")
    who = render(a.subject, role="subject")
    verb = "gain" if who == "you" or is_plural(a.subject) else "gains"
    return f"{who} {verb} that much life plus {amount_number(a.amount, words=False)} instead"


@renders_verb("redirect_next")
def render_redirect_next(a: A.Action, **_) -> str:
    """"The next 1 damage that would be dealt to ~ this turn is dealt to target creature you control
    instead" (CR 615.7 prevention shield whose damage is redirected, CR 614.9)."""
    extra_keys(a, {"to", "duration"})
    to, dur = a.extra.get("to"), a.extra.get("duration")
    if not isinstance(to, A.Obj) or not isinstance(a.obj, A.Obj) or not isinstance(a.amount, A.Amount) \
            or a.amount.kind != "fixed" or not isinstance(dur, A.Duration) or a.subject is not None:
        raise NotRendered("Action:redirect_next")
    return (f"the next {amount_number(a.amount, words=False)} damage that would be dealt to {render(a.obj)} "
            f"{render(dur)} is dealt to {render(to)} instead")


@renders_verb("redirect_damage")
def render_redirect_damage(a: A.Action, **_) -> str:
    """"All damage that would be dealt to you is dealt to enchanted creature instead" (CR 614.9)."""
    extra_keys(a, {"to", "instead"})
    to = a.extra.get("to")
    if a.extra.get("instead") is not True or not isinstance(to, A.Obj) or not isinstance(a.obj, A.Obj) \
            or a.subject is not None or a.amount is not None:
        raise NotRendered("Action:redirect_damage")
    return f"all damage that would be dealt to {render(a.obj)} is dealt to {render(to)} instead"


@renders_verb("prevent_from_source")
def render_prevent_from_source(a: A.Action, **_) -> str:
    """"Prevent all damage target instant or sorcery spell would deal this turn." (CR 615.1)."""
    extra_keys(a, {"duration"})
    if a.subject is not None or not isinstance(a.obj, A.Obj) or a.amount is not None:
        raise NotRendered("Action:prevent_from_source")
    return f"prevent all damage {render(a.obj)} would deal{_duration_tail(a)}"


@renders_verb("life_total_floor")
def render_life_total_floor(a: A.Action, **_) -> str:
    """"damage that would reduce your life total to less than 1 reduces it to 1 instead" (CR 614.1a)."""
    extra_keys(a, {"to"})
    to = a.extra.get("to")
    if a.subject is not None or a.obj is not None or not all(
            isinstance(n, A.Amount) and n.kind == "fixed" for n in (a.amount, to)):
        raise NotRendered("Action:life_total_floor")
    return (f"damage that would reduce your life total to less than {amount_number(a.amount, words=False)} "
            f"reduces it to {amount_number(to, words=False)} instead")


@renders_verb("gain_twice")
def render_gain_twice(a: A.Action, **_) -> str:
    """"you gain twice that much life instead" (CR 614.1a)."""
    extra_keys(a, {"instead"})
    if a.extra.get("instead") is not True or a.subject is None or a.obj is not None \
            or not (isinstance(a.amount, A.Amount) and a.amount.kind == "that_much"):
        raise NotRendered("Action:gain_twice")
    who = render(a.subject, role="subject")
    verb = "gain" if who == "you" or is_plural(a.subject) else "gains"
    return f"{who} {verb} twice that much life instead"


@renders_verb("prevent_noncombat")
def render_prevent_noncombat(a: A.Action, **_) -> str:
    """"Prevent all noncombat damage that would be dealt to you and other permanents you control." (CR 615.1)."""
    extra_keys(a, {"words"})
    if a.extra.get("words") != ["noncombat"] or a.subject is not None or not isinstance(a.obj, A.Obj) \
            or a.amount is not None:
        raise NotRendered("Action:prevent_noncombat")
    return f"prevent all noncombat damage that would be dealt to {render(a.obj)}"
