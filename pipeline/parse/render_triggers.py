"""Renderers of triggered abilities (``grammar/triggers.lark``, CR 603): the ability, its intervening
"if" and the step events; every other trigger event is written by :mod:`pipeline.parse.render_events`."""

from __future__ import annotations

from pipeline.parse import ast as A
from pipeline.parse.render import NotRendered, cap, extra_keys, render, renders, renders_verb


def trigger_head(t: A.Triggered) -> str:
    """"when [event]" / "whenever …" / "at …", with its intervening "if" (CR 603.4), lower case."""
    if t.word not in ("when", "whenever", "at"):
        raise NotRendered("Triggered:word")
    event, lead = t.event, ""
    if isinstance(event, A.Action) and "stated_duration" in event.extra:
        # CR 603.7b: "until end of turn, whenever …" (transform_conditions.lead_timed_trigger)
        lead = render(event.extra["stated_duration"]) + ", "
        event = A.Action(event.verb, subject=event.subject, obj=event.obj, amount=event.amount,
                         extra={k: v for k, v in event.extra.items() if k != "stated_duration"}, text="")
    head = f"{lead}{t.word} {render(event)}"
    if t.intervening_if is not None:  # CR 603.4: "When …, if [condition], …"
        cond = t.intervening_if
        if not (isinstance(cond, A.Action) and cond.verb.startswith("condition:")
                and cond.verb != "condition:as_long_as"):
            raise NotRendered("Triggered:intervening_if")
        head += ", if " + render(cond)
    return head


@renders(A.Triggered)
def render_triggered(t: A.Triggered, **_) -> str:
    """"When/Whenever/At [event], [effect]" (CR 603.1); the intervening "if" (CR 603.4)."""
    head = trigger_head(t)
    if not t.effect:
        raise NotRendered("Triggered:no_effect")
    effect = " ".join(render(e) for e in t.effect)
    return cap(head) + ", " + effect[:1].lower() + effect[1:]


@renders_verb("do_only_once_each_turn")
def render_do_only_once(a: A.Action, **_) -> str:
    """"do this only once each turn" (CR 603.2h; ``transform_conditions.s_do_only_once``)."""
    extra_keys(a, set())
    if a.subject is not None or a.obj is not None or a.amount is not None:
        raise NotRendered(f"Action:{a.verb}")
    return "do this only once each turn"


# CR 500.1 steps and phases as Oracle names them; owners as "your upkeep" / "each opponent's upkeep"
STEP_WORDS = {
    A.Step.UPKEEP: "upkeep", A.Step.DRAW_STEP: "draw step", A.Step.FIRST_MAIN: "first main phase",
    A.Step.SECOND_MAIN: "second main phase", A.Step.PRECOMBAT_MAIN: "precombat main phase",
    A.Step.POSTCOMBAT_MAIN: "postcombat main phase", A.Step.MAIN_PHASE: "main phase",
    A.Step.COMBAT: "combat", A.Step.END_STEP: "end step",
    A.Step.FIRST_UPKEEP: "first upkeep",  # CR 503, 103.8: "at the beginning of the first upkeep" (CR 103.6b cards)
}
OWNER_WORDS = {
    A.StepOwner.YOUR: "your", A.StepOwner.EACH: "each", A.StepOwner.EACH_PLAYER: "each player's",
    A.StepOwner.EACH_OPPONENT: "each opponent's", A.StepOwner.THAT_PLAYER: "that player's",
    A.StepOwner.ENCHANTED_PLAYER: "enchanted player's", A.StepOwner.TARGET_OPPONENT: "target opponent's",
    A.StepOwner.CHOSEN_PLAYER: "the chosen player's", A.StepOwner.THE: "the",
    A.StepOwner.YOUR_NEXT: "your next", A.StepOwner.EACH_OTHER_PLAYER: "each other player's",
    A.StepOwner.NEXT: "the next", A.StepOwner.EACH_OF_YOUR: "each of your",
    A.StepOwner.EACH_OF_THAT_PLAYER: "each of that player's",
    A.StepOwner.EACH_OF_ENCHANTED_PLAYER: "each of enchanted player's",
    A.StepOwner.ENCHANTED_OPPONENT: "enchanted opponent's",
}
#: owners after which the step is named in the plural: "each of your upkeeps" (one trigger per step)
PLURAL_OWNERS = frozenset((A.StepOwner.EACH_OF_YOUR, A.StepOwner.EACH_OF_THAT_PLAYER,
                           A.StepOwner.EACH_OF_ENCHANTED_PLAYER))
STEP_PLURALS = {
    A.Step.UPKEEP: "upkeeps", A.Step.END_STEP: "end steps", A.Step.DRAW_STEP: "draw steps",
    A.Step.PRECOMBAT_MAIN: "precombat main phases", A.Step.POSTCOMBAT_MAIN: "postcombat main phases",
    A.Step.MAIN_PHASE: "main phases",
}


@renders_verb("event:step")
def render_step(a: A.Action, **_) -> str:
    """"the beginning of your upkeep", "the beginning of combat on your turn", "end of combat"
    (CR 603.2, 500.1), from the ``phase``/``owner`` enums; ``step`` (the wording) is not read."""
    extra_keys(a, {"step", "phase", "owner", "on_your_turn", "on_turn", "player"})
    phase = a.extra.get("phase")
    if phase is None or a.obj is not None:
        raise NotRendered("Action:event:step")
    phase = A.Step(phase)
    if phase == A.Step.END_OF_COMBAT:
        return "end of combat"
    owner = A.StepOwner(a.extra["owner"])
    if phase == A.Step.COMBAT and a.extra.get("on_your_turn"):
        return "the beginning of combat on your turn"
    if phase == A.Step.COMBAT and a.extra.get("on_turn"):  # "combat on each opponent's turn" (CR 506.1)
        return f"the beginning of combat on {OWNER_WORDS[owner]} turn"
    if owner == A.StepOwner.OF:  # "the beginning of the upkeep of enchanted creature's controller"
        return f"the beginning of the {STEP_WORDS[phase]} of {render(a.extra['player'])}"
    if "player" in a.extra:
        raise NotRendered("Action:event:step+player")
    if owner in PLURAL_OWNERS:
        if phase not in STEP_PLURALS:
            raise NotRendered("Action:event:step+plural")
        return f"the beginning of {OWNER_WORDS[owner]} {STEP_PLURALS[phase]}"
    return f"the beginning of {OWNER_WORDS[owner]} {STEP_WORDS[phase]}"


#: trigger words (CR 603.1)
TRIGGER_WORDS = frozenset(("when", "whenever", "at"))


@renders_verb("event:and_when")
def render_and_when(a: A.Action, **_) -> str:
    """"~ enters and whenever you cast a party spell": two trigger conditions of one ability
    (CR 603.2), the second with its own trigger word."""
    extra_keys(a, {"first", "word", "event"})
    if a.extra.get("word") not in TRIGGER_WORDS or a.obj is not None:
        raise NotRendered("Action:event:and_when")
    return f"{render(a.extra['first'])} and {a.extra['word']} {render(a.extra['event'])}"
