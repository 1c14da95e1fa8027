"""Renderers of costs (``grammar/costs.lark``, CR 118, 602.1, 606.4)."""

from __future__ import annotations

import copy

from pipeline.parse import ast as A
from pipeline.parse.lexicon import is_counter_kind
from pipeline.parse.render import NotRendered, extra_keys, render, renders, renders_verb, uncap
from pipeline.parse.render_mana import symbols
from pipeline.parse.render_objects import amount_number, counted, is_plural


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


#: cost components that are a keyword action with no object: its words, then its number if it has one
#: ("Collect evidence 6", CR 701.59a; "Blight 2", CR 701.68a; "Forage", CR 701.61a; "Discard your hand", CR 701.9a)
_BARE = {"discard_hand": "Discard your hand", "forage": "Forage", "collect_evidence": "Collect evidence",
         "blight": "Blight"}


@renders(A.ActionCost)
def render_action_cost(c: A.ActionCost, **_) -> str:
    """Non-mana cost components (CR 118.3): "Sacrifice ~", "Discard a card", "Pay 2 life",
    "Remove a +1/+1 counter from ~", "Exile a card from your graveyard"."""
    a = c.action
    if a in ("sacrifice", "discard", "exile", "tap", "untap", "reveal", "exert", "behold") and c.obj is not None:
        if c.amount is not None or c.counter is not None:
            raise NotRendered(f"ActionCost:{a}")
        return f"{a.capitalize()} {render(c.obj)}"
    if a == "discard_random" and c.obj is not None and c.amount is None and c.counter is None:
        return f"Discard {render(c.obj)} at random"  # CR 701.9b
    if a == "unattach" and c.obj is not None and c.amount is None and c.counter is None:
        return f"Unattach {render(c.obj)}"  # CR 701.3d
    if c.obj is None and c.counter is None and a in _BARE:
        if (c.amount is None) != (a in ("discard_hand", "forage")):
            raise NotRendered(f"ActionCost:{a}")
        return _BARE[a] + ("" if c.amount is None else " " + amount_number(c.amount, words=False))
    if a == "waterbend" and isinstance(c.obj, A.ManaCost) and c.amount is None:
        return "Waterbend " + render(c.obj)  # CR 701.67a
    if a == "return_to_hand" and c.obj is not None:
        # "Return a land you control to its owner's hand" / "Return three lands you control to their owner's
        # hand" (Soratami Mirror-Mage: the possessive agrees with the objects, CR 108.3 owner)
        return f"Return {render(c.obj)} to {'their' if is_plural(c.obj) else 'its'} owner's hand"
    if a == "pay_life" and c.obj is None and c.counter is None:
        return f"Pay {amount_number(c.amount, words=False)} life"
    if a == "pay_life" and c.obj is not None and c.amount is not None:  # "Pay 3 life for each velocity counter on ~"
        return f"Pay {amount_number(c.amount, words=False)} life for each {_counter(c.counter)} counter on {render(c.obj)}"
    if a == "pay_energy" and c.obj is None and c.counter is None and c.amount is not None:
        return f"Pay {amount_number(c.amount)} {{E}}"  # "Pay eight {E}" (CR 107.14)
    if a == "remove_all_counters" and c.obj is not None and c.amount is None:
        return f"Remove all {_counter(c.counter)} counters from {render(c.obj)}"
    if a in ("remove_counters", "remove_counters_among") and c.obj is not None and c.amount is not None:
        # kind "" : a counter of any kind ("Remove a counter from ~", CR 122.1)
        kind = _counter(c.counter) + " " if c.counter != "" else ""
        among = " among" if a == "remove_counters_among" else ""
        if c.amount.kind in ("any", "one_or_more") and c.amount.ref is None:  # "Remove any number of charge counters from ~"
            lead = "any number of" if c.amount.kind == "any" else "one or more"
            return f"Remove {lead} {kind}counters from{among} {render(c.obj)}"
        return f"Remove {counted(c.amount, kind + 'counter', kind + 'counters')} from{among} {render(c.obj)}"
    if a == "put_counters" and c.obj is not None and c.amount is not None:
        kind = _counter(c.counter)
        return f"Put {counted(c.amount, kind + ' counter', kind + ' counters')} on {render(c.obj)}"
    if a == "mill" and c.amount is not None and c.obj is None:
        return f"Mill {counted(c.amount, 'card', 'cards')}"
    raise NotRendered(f"ActionCost:{a}")


@renders(A.AdditionalCost)
def render_additional(c: A.AdditionalCost, **_) -> str:
    """CR 601.2b: "As an additional cost to cast this spell, [you may] [cost]"."""
    body = _in_words(c.cost.components) if isinstance(c.cost, A.Cost) else uncap(render(c.cost))
    return "As an additional cost to cast ~, " + ("you may " if c.optional else "") + body


@renders(A.CostChoice)
def render_cost_choice(c: A.CostChoice, **_) -> str:
    """"Sacrifice a creature or pay {3}{B}" (CR 601.2b): the options joined by "or"; a mana component
    alone is "pay {…}" in the sentence's words."""
    if len(c.options) != 2 or not all(isinstance(o, A.Cost) for o in c.options):
        raise NotRendered("CostChoice")
    return " or ".join(_in_words(o.components) for o in c.options)


def _in_words(components: list) -> str:
    """Cost components as an instruction in a sentence: "pay {1} and return a basic land you control
    to its owner's hand" (a mana component is "pay {…}"; two joined by "and", more by ", … , and")."""
    if not components:
        raise NotRendered("Cost:empty")
    parts = [("pay " + render(p)) if isinstance(p, A.ManaCost) else uncap(render(p)) for p in components]
    return parts[0] if len(parts) == 1 else (f"{parts[0]} and {parts[1]}" if len(parts) == 2
                                             else ", ".join(parts[:-1]) + f", and {parts[-1]}")


@renders(A.AlternativeCost)
def render_alternative(c: A.AlternativeCost, **_) -> str:
    """CR 118.9: "You may [cost] rather than pay ~'s mana cost" — the components in the sentence's
    words ("pay {1} and return a basic land you control to its owner's hand"): a mana component is
    "pay {…}", two components are joined by "and", more by ", … , and"."""
    if not isinstance(c.cost, A.Cost) or not c.cost.components:
        raise NotRendered("AlternativeCost")
    body = f"you may {_in_words(c.cost.components)} rather than pay ~'s mana cost"
    cond = c.condition
    if cond is None:
        return body
    # CR 118.9: "If you control a Swamp, you may pay 4 life rather than …" / "… mana cost if …"
    if not isinstance(cond, A.Action) or not cond.verb.startswith("condition:"):
        raise NotRendered("AlternativeCost:condition")
    after = cond.extra.get("after") is True
    if after:
        cond = copy.copy(cond)
        cond.extra = {k: v for k, v in cond.extra.items() if k != "after"}
    return f"{body} if {render(cond)}" if after else f"if {render(cond)}, {body}"


# ---------------------------------------------------------------- restrictions (CR 602.5b, 601.3)
#: the words of each restriction part that takes no field (transform_costs.rp_*)
RESTRICTION_WORDS = {"sorcery": "as a sorcery", "instant": "as an instant",  # CR 602.5d–e
                     "any_time_sorcery": "any time you could cast a sorcery",
                     "once_each_turn": "once each turn", "once": "once",
                     "attacked_this_step": "if you've been attacked this step"}  # CR 508.1
#: whose turn or step a Timing names (ast.TIMING_WHOSE) → its words
TIMING_WHOSE_WORDS = {"your": "your", "opponent": "an opponent's", "the": "the"}
#: each TimingPeriod → its words (CR 500.1, 508.1, 509.1)
TIMING_PERIOD_WORDS = {A.TimingPeriod.TURN: "turn", A.TimingPeriod.UPKEEP: "upkeep", A.TimingPeriod.COMBAT: "combat",
                       A.TimingPeriod.DECLARE_ATTACKERS_STEP: "declare attackers step",
                       A.TimingPeriod.DECLARE_BLOCKERS_STEP: "declare blockers step",
                       A.TimingPeriod.COMBAT_DAMAGE_STEP: "combat damage step",
                       A.TimingPeriod.END_OF_COMBAT_STEP: "end of combat step", A.TimingPeriod.END_STEP: "end step",
                       A.TimingPeriod.ATTACKERS_DECLARED: "attackers are declared",
                       A.TimingPeriod.BLOCKERS_DECLARED: "blockers are declared"}


@renders(A.Timing)
def render_timing(t: A.Timing, **_) -> str:
    """"during your turn, before attackers are declared", "during combat on an opponent's turn", "before
    the combat damage step", "after combat" (CR 500.1, 508.1, 509.1). A narrower time after a turn takes
    a comma ("during your turn, before …"), after a step or phase none ("during combat before …")."""
    if t.relation not in A.TIMING_RELATIONS or t.period not in TIMING_PERIOD_WORDS:
        raise NotRendered("Timing")
    if t.whose is not None and t.whose not in TIMING_WHOSE_WORDS:
        raise NotRendered("Timing:whose")
    words = [t.relation] + ([TIMING_WHOSE_WORDS[t.whose]] if t.whose else []) + [TIMING_PERIOD_WORDS[t.period]]
    if t.on_turn is not None:
        if t.on_turn not in TIMING_WHOSE_WORDS:
            raise NotRendered("Timing:on_turn")
        words += ["on", TIMING_WHOSE_WORDS[t.on_turn], "turn"]
    out = " ".join(words)
    if t.then is not None:
        out += ("," if t.period == A.TimingPeriod.TURN else "") + " " + render(t.then)
    return out


def _part(a: A.Action) -> str:
    """One restriction part: "as a sorcery", "once each turn", "if you control an Island", "during
    your upkeep" (keys ``restriction`` and ``condition`` / ``timing``)."""
    x, r = a.extra, a.extra.get("restriction")
    if a.obj is not None or a.amount is not None:
        raise NotRendered(f"Action:{a.verb}:{r}")
    if r == "if" and isinstance(x.get("condition"), A.Action) and "timing" not in x:
        return "if " + render(x["condition"])
    if r in A.TIMING_RELATIONS and isinstance(x.get("timing"), A.Timing) and "condition" not in x:
        if x["timing"].relation != r:
            raise NotRendered(f"Action:{a.verb}:timing")
        return render(x["timing"])
    if r in RESTRICTION_WORDS and "condition" not in x and "timing" not in x:
        return RESTRICTION_WORDS[r]
    raise NotRendered(f"Action:{a.verb}:{r}")


def _parts(a: A.Action) -> str:
    """The first part and each "and only …" part (``extra.and_only``, Actions of the same verb)."""
    more = a.extra.get("and_only", [])
    if not isinstance(more, list) or any(not isinstance(m, A.Action) or m.verb != a.verb or m.subject is not None
                                         or "and_only" in m.extra for m in more):
        raise NotRendered(f"Action:{a.verb}:and_only")
    for m in more:
        extra_keys(m, {"restriction", "condition", "timing"})
    return " and only ".join([_part(a)] + [_part(m) for m in more])


#: "Activate no more than N times each turn": N as Oracle writes it (CR 602.5b)
_TIMES = {2: "twice"}


@renders_verb("activate_only")
def render_activate_only(a: A.Action, **_) -> str:
    """"Activate only as a sorcery.", "Activate only during your turn, before attackers are declared.",
    "Activate only if you control an Island and only once each turn.", "Activate no more than three
    times each turn." (CR 602.5b, 602.5d–e)."""
    extra_keys(a, {"restriction", "condition", "timing", "and_only"})
    if a.subject is not None:
        raise NotRendered("Action:activate_only+subject")
    if a.extra.get("restriction") == "limit_per_turn" and len(a.extra) == 1 and a.amount is not None \
            and a.amount.kind == "fixed" and a.amount.value is not None and a.obj is None:
        n = a.amount.value
        return f"Activate no more than {_TIMES.get(n) or amount_number(a.amount) + ' times'} each turn."
    return f"Activate only {_parts(a)}."


@renders_verb("cast_only")
def render_cast_only(a: A.Action, **_) -> str:
    """"Cast this spell only during combat before blockers are declared.", "Cast this spell only during
    the declare attackers step and only if you've been attacked this step." (CR 601.3, 307.1)."""
    extra_keys(a, {"restriction", "condition", "timing", "and_only"})
    if a.subject is None:
        raise NotRendered("Action:cast_only:subject")
    return f"Cast {render(a.subject, role='subject')} only {_parts(a)}"  # (the Sentence writes the period)
