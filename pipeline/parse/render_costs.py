"""Renderers of costs (``grammar/costs.lark``, CR 118, 602.1, 606.4)."""

from __future__ import annotations

from pipeline.parse import ast as A
from pipeline.parse.lexicon import is_counter_kind
from pipeline.parse.render import NotRendered, render, renders, uncap
from pipeline.parse.render_mana import symbols
from pipeline.parse.render_objects import amount_number, counted


@renders(A.Cost)
def render_cost(cost: A.Cost, **_) -> str:
    """Components joined by ", " (CR 602.1: "[Cost]: [Effect.]")."""
    if not cost.components:
        raise NotRendered("Cost:empty")
    return ", ".join(render(c) for c in cost.components)


@renders(A.ManaCost)
def render_mana_cost(c: A.ManaCost, **_) -> str:
    return symbols(c.symbols)


@renders(A.TapCost)
def render_tap(c, **_) -> str:
    return "{T}"  # CR 107.5


@renders(A.UntapCost)
def render_untap(c, **_) -> str:
    return "{Q}"  # CR 107.6


@renders(A.EnergyCost)
def render_energy(c: A.EnergyCost, **_) -> str:
    if c.amount < 1:
        raise NotRendered("EnergyCost")
    return "Pay " + "{E}" * c.amount  # CR 107.14


@renders(A.LoyaltyCost)
def render_loyalty(c: A.LoyaltyCost, **_) -> str:
    """CR 606.4: "+N", "−N" (normalised to "-N"), "0"."""
    n = amount_number(c.amount, words=False)
    if c.sign == "" and n != "0":
        raise NotRendered("LoyaltyCost")
    return c.sign + n


def _counter(kind: str | None) -> str:
    if kind is None or not is_counter_kind(kind):
        raise NotRendered("counter_kind")
    return kind


@renders(A.ActionCost)
def render_action_cost(c: A.ActionCost, **_) -> str:
    """Non-mana cost components (CR 118.3): "Sacrifice ~", "Discard a card", "Pay 2 life",
    "Remove a +1/+1 counter from ~", "Exile a card from your graveyard"."""
    a = c.action
    if a in ("sacrifice", "discard", "exile", "tap", "untap", "reveal", "exert") and c.obj is not None:
        if c.amount is not None or c.counter is not None:
            raise NotRendered(f"ActionCost:{a}")
        return f"{a.capitalize()} {render(c.obj)}"
    if a == "return_to_hand" and c.obj is not None:
        return f"Return {render(c.obj)} to its owner's hand"
    if a == "pay_life" and c.obj is None and c.counter is None:
        return f"Pay {amount_number(c.amount, words=False)} life"
    if a == "remove_counters" and c.obj is not None and c.amount is not None:
        kind = _counter(c.counter)
        if c.amount.kind == "any" and c.amount.ref is None:  # "Remove any number of charge counters from ~"
            return f"Remove any number of {kind} counters from {render(c.obj)}"
        return f"Remove {counted(c.amount, kind + ' counter', kind + ' counters')} from {render(c.obj)}"
    if a == "put_counters" and c.obj is not None and c.amount is not None:
        kind = _counter(c.counter)
        return f"Put {counted(c.amount, kind + ' counter', kind + ' counters')} on {render(c.obj)}"
    if a == "mill" and c.amount is not None and c.obj is None:
        return f"Mill {counted(c.amount, 'card', 'cards')}"
    raise NotRendered(f"ActionCost:{a}")


@renders(A.AdditionalCost)
def render_additional(c: A.AdditionalCost, **_) -> str:
    """CR 601.2b: "As an additional cost to cast this spell, [you may] [cost]"."""
    return "As an additional cost to cast ~, " + ("you may " if c.optional else "") + uncap(render(c.cost))


@renders(A.AlternativeCost)
def render_alternative(c: A.AlternativeCost, **_) -> str:
    """CR 118.9: "You may [cost] rather than pay ~'s mana cost" — the components in the sentence's
    words ("pay {1} and return a basic land you control to its owner's hand"): a mana component is
    "pay {…}", two components are joined by "and", more by ", … , and"."""
    if not isinstance(c.cost, A.Cost) or not c.cost.components or c.condition is not None:
        raise NotRendered("AlternativeCost")
    parts = [("pay " + render(p)) if isinstance(p, A.ManaCost) else uncap(render(p)) for p in c.cost.components]
    body = parts[0] if len(parts) == 1 else (f"{parts[0]} and {parts[1]}" if len(parts) == 2
                                             else ", ".join(parts[:-1]) + f", and {parts[-1]}")
    return f"you may {body} rather than pay ~'s mana cost"
