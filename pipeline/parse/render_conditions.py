"""Renderers of conditions (``grammar/effects.lark`` ``cond``, ``grammar/conditions.lark``;
CR 603.4 intervening "if", 608.2c "if" in effects, 611.2b "as long as").

Only conditions whose rule keeps every word the meaning depends on are rendered; a rule that
merges two wordings ("you cast it from your hand" / "you didn't …") renders the first, so the
other fails the round trip, as it should.
"""

from __future__ import annotations

from pipeline.parse import ast as A
from pipeline.parse.render import NotRendered, extra_keys, render, renders_verb
from pipeline.parse.render_objects import is_plural

#: condition rules with a fixed wording (``condition:<rule>`` → words)
FIXED = {
    "you_do": "you do", "you_dont": "you don't", "your_turn": "it's your turn",
    "not_your_turn": "it's not your turn", "cast_it": "you cast it", "win": "you win",
    "cant": "you can't", "opp_lost_life": "an opponent lost life this turn",
}


def _fixed(a: A.Action, **_) -> str:
    extra_keys(a, set())
    if a.obj is not None or a.amount is not None:
        raise NotRendered(a.verb)
    return FIXED[a.verb.split(":", 1)[1]]


renders_verb(*("condition:" + k for k in FIXED))(_fixed)


@renders_verb("condition:control", "condition:not_control")
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


@renders_verb("condition:kicked")
def render_kicked(a: A.Action, **_) -> str:
    """"it was kicked" / "~ was kicked" (CR 702.33d); the grammar merges "is"/"was"."""
    extra_keys(a, set())
    if a.obj is None or a.amount is not None:
        raise NotRendered(a.verb)
    return f"{render(a.obj, role='subject')} was kicked"


@renders_verb("condition:controls")
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
