"""Trigger events (CR 603.2) rendered from the grammar's own wording of each event rule.

An event Action (``event:<name>``) comes from one of the alternatives of the grammar rule aliased
``ev_<name>`` (``grammar/triggers.lark``, ``grammar/conditions.lark``, …); it is written in the
wording of the alternative its structured fields select (:mod:`pipeline.parse.render_alternatives`),
the verb inflected to agree with its subject. This module adds the qualifiers that follow an event
("… for the first time each turn", "… during your turn").
"""

from __future__ import annotations

from functools import lru_cache

from pipeline.parse import ast as A
from pipeline.parse.render import NotRendered, render, renders_verb, renders_verb_prefix
from pipeline.parse.render_alternatives import render_alternative


@lru_cache(maxsize=1)
def _periods() -> frozenset[str]:
    """The wordings of grammar rule ``ev2_period`` ("your turn", "an opponent's turn", …)."""
    from pipeline.parse.forms import literal_table
    from pipeline.parse.grammar import get_parser

    parser = get_parser()
    lit = {t.name: t.pattern.value for t in parser.terminals if t.name in literal_table().literal_types}
    out = set()
    for r in parser.rules:
        if r.origin.name == "ev2_period" and all(x.name in lit for x in r.expansion):
            out.add(" ".join(lit[x.name] for x in r.expansion).replace(" '", "'"))
    return frozenset(out)


_SUFFIX = {"first_time_each_turn": "for the first time each turn", "during_your_turn": "during your turn",
           "while_saddled": "while saddled", "this_turn": "this turn",
           "this_way": "this way"}


@renders_verb_prefix("event:")
def render_event(a: A.Action, **_) -> str:
    """Render a trigger event Action (``event:<name>``) with the wording of the grammar
    alternative its fields select (module docstring). ``extra["when"]`` ("… for the first time
    each turn", "… during your turn", CR 603.2) follows the event. Raises NotRendered when no
    alternative holds exactly the node's fields."""
    if not a.verb.startswith("event:"):
        raise NotRendered(f"Action:{a.verb}")
    when = a.extra.get("when")
    if when == "while" and isinstance(a.extra.get("while"), A.Action):
        # "… while you control a Dinosaur" (conditions.lark evs_while_cond): the condition's own wording
        inner = A.Action(a.verb, obj=a.obj, amount=a.amount,
                         extra={k: v for k, v in a.extra.items() if k not in ("when", "while")}, text="")
        return render_event(inner) + " while " + render(a.extra["while"])
    if when is not None:
        if when not in _SUFFIX or "while" in a.extra:
            raise NotRendered(f"Action:{a.verb}+when")
        inner = A.Action(a.verb, obj=a.obj, amount=a.amount,
                         extra={k: v for k, v in a.extra.items() if k != "when"}, text="")
        return render_event(inner) + " " + _SUFFIX[when]
    if a.verb == "event:cast" and "during" in a.extra and "or_event" not in a.extra:
        # "Whenever you cast a spell during your turn" (conditions.lark ev_cast_during): the period
        # is one of the closed wordings of rule ev2_period
        period = a.extra["during"]
        if period not in _periods():
            raise NotRendered("Action:event:cast+during")
        inner = A.Action(a.verb, obj=a.obj, amount=a.amount,
                         extra={k: v for k, v in a.extra.items() if k != "during"}, text="")
        return render_event(inner) + " during " + period
    return render_alternative(a, ("ev_" + a.verb.split(":", 1)[1],))


@renders_verb("event:roll_chaos")
def render_roll_chaos(a: A.Action, **_) -> str:
    """"Whenever you roll {CHAOS}" (CR 107.12, 901.9b: the planar die's chaos symbol; the
    transformer reads no other symbol into this verb)."""
    from pipeline.parse.render import extra_keys

    extra_keys(a, set())
    if a.obj is None or a.amount is not None:
        raise NotRendered("Action:event:roll_chaos")
    who = render(a.obj, role="subject")
    return f"{who} {'roll' if who == 'you' else 'rolls'} {{CHAOS}}"
