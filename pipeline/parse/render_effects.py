"""Renderers of effects (``grammar/effects.lark``): :class:`Sentence` and the one-shot
:class:`Action` verbs (CR 608.2, 701 keyword actions)."""

from __future__ import annotations

import copy

from pipeline.parse import ast as A
from pipeline.parse.render import NotRendered, cap, extra_keys, render, renders, renders_verb
from pipeline.parse.render_objects import amount_number, article, counted, is_plural, quantity

_PT = __import__("re").compile(r"^[+-](?:\d+|X)/[+-](?:\d+|X)$")


#: condition verbs whose renderer writes its own leading words ("as long as …", "the next time …")
SELF_LEADING = frozenset({"condition:as_long_as", "condition:next_time_would_deal_damage", "condition:during_turn",
                          "condition:as_enters", "condition:otherwise"})


@renders(A.Sentence)
def render_sentence(s: A.Sentence, **_) -> str:
    """Effects of one sentence joined by " and ", capitalised, ending with "." (the Oracle
    sentence); a condition leads ("If …, …", CR 608.2c)."""
    if not s.effects:
        raise NotRendered("Sentence:empty")
    if s.optional:
        raise NotRendered("Sentence:optional")
    effects = list(s.effects)
    where = effects.pop() if effects and isinstance(effects[-1], A.WhereX) else None
    parts = _joined_parts(effects)
    if where is not None:  # "…, where X is the number of cards in your hand" (CR 107.3a)
        if where.variable != "X" or not parts:
            raise NotRendered("WhereX")
        parts[-1] += ", where X is " + (quantity(where.definition) if isinstance(where.definition, A.Amount)
                                         else render(where.definition))
    joins = getattr(s, "joins", [])
    if len(joins) != len(parts) - 1:
        raise NotRendered("Sentence:joins")
    body = parts[0]
    for j, p in zip(joins, parts[1:]):
        body += (j if j.startswith(",") else " " + j) + " " + p
    if s.condition is not None:
        cond = s.condition
        after = isinstance(cond, A.Action) and cond.extra.get("after") is True  # "… if …" / "… as long as …"
        if after:
            cond = copy.copy(cond)
            cond.extra = {k: v for k, v in cond.extra.items() if k != "after"}
        if isinstance(cond, A.Action) and cond.verb in SELF_LEADING:
            lead = render(cond)
        elif isinstance(cond, A.Action) and cond.verb.startswith("condition:"):
            lead = f"if {render(cond)}"
        elif isinstance(cond, A.Amount):  # "For each opponent, …" (render_conditions)
            from pipeline.parse.render_conditions import for_each_lead

            lead = for_each_lead(cond)
        elif isinstance(cond, A.Duration):  # "Until end of turn, …" (CR 611.2b)
            lead = render(cond)
        elif isinstance(cond, A.Triggered) and not cond.effect:
            # a delayed or reflexive triggered ability: "When you do, …" (CR 603.7, 603.12)
            from pipeline.parse.render_triggers import trigger_head

            lead = trigger_head(cond)
        elif isinstance(cond, A.Delayed):  # "At end of combat, …" / "… at the beginning of the next end step"
            lead, after = render(cond), cond.after
        else:
            raise NotRendered("Sentence:condition:" + type(cond).__name__)
        body = f"{body} {lead}" if after else f"{lead}, {body[:1].lower() + body[1:]}"
    # a sentence ending in a quoted ability ends inside the quotes: 'have "{T}: Add {G}."'
    return cap(body) if body.endswith('."') else cap(body) + "."


def _joined_parts(effects: list) -> list[str]:
    """Rendered effects of a sentence; a joined predicate (an effect whose subject is the previous
    effect's subject object, see ``ToAst.clause_list``) is written without its subject, and a
    duration it shares with the next predicate of its chain only once, at the end ("target
    creature gets +2/+2 and gains trample until end of turn")."""
    out = []
    for i, e in enumerate(effects):
        subj = getattr(e, "subject", None)
        joined = i > 0 and subj is not None and getattr(effects[i - 1], "subject", None) is subj
        nxt = effects[i + 1] if i + 1 < len(effects) else None
        node = e
        if (nxt is not None and subj is not None and getattr(nxt, "subject", None) is subj
                and isinstance(e, A.Action) and "duration" in e.extra and _duration_of(nxt) == _duration_of(e)):
            node = copy.copy(e)
            node.extra = {k: v for k, v in e.extra.items() if k != "duration"}
        text = render(node)
        if joined:
            prefix = render(subj, role="subject") + " "
            if _optional(e) and _optional(effects[i - 1]):  # "you may X and Y": one "may" (CR 608.2d)
                prefix += "may "
            if not text.startswith(prefix):
                raise NotRendered("Sentence:joined")
            text = text[len(prefix):]
        out.append(text)
    return out


def _optional(node) -> bool:
    if isinstance(node, A.Action):
        return node.extra.get("optional") is True
    return isinstance(node, A.CreateToken) and node.optional


def _duration_of(node):
    if isinstance(node, A.Action):
        d = node.extra.get("duration")
        return render(d) if d is not None else None
    if isinstance(node, A.GrantAbility):
        return render(node.duration) if node.duration is not None else None
    return None


@renders(A.EntersTapped)
def render_enters_tapped(e: A.EntersTapped, **_) -> str:
    """"~ enters tapped" / "Creatures your opponents control enter tapped" (CR 614.1c); an
    "unless …" condition is not rendered."""
    if e.subject is None or isinstance(e.condition, (A.Text, A.Unparsed)):
        raise NotRendered("EntersTapped")
    verb = "enter" if is_plural(e.subject) else "enters"
    out = f"{render(e.subject, role='subject')} {verb} tapped"
    if e.condition is not None:  # "~ enters tapped unless you control two or more basic lands"
        out += " unless " + render(e.condition)
    return out


def subject_verb(action: A.Action, base: str, third: str) -> str:
    """"draw" (imperative, no subject), "you draw", "target player draws", "~ deals"; "you may
    draw" when ``extra["optional"]`` (CR 608.2d: the controller chooses)."""
    optional = action.extra.get("optional") is True
    if action.subject is None:
        if optional:
            raise NotRendered(f"Action:{action.verb}:optional_without_subject")
        return base
    subj = render(action.subject, role="subject")
    if optional:
        return f"{subj} may {base}"
    if subj == "you" or is_plural(action.subject):
        return f"{subj} {base}"
    return f"{subj} {third}"


def _obj(action: A.Action) -> str:
    if action.obj is None:
        raise NotRendered(f"Action:{action.verb}:no_obj")
    return render(action.obj)


# verb → (base form, third person) of actions written "[subject] verb obj"
_SIMPLE = {
    "destroy": ("destroy", "destroys"), "tap": ("tap", "taps"),
    "untap": ("untap", "untaps"), "sacrifice": ("sacrifice", "sacrifices"), "counter": ("counter", "counters"),
    "regenerate": ("regenerate", "regenerates"), "reveal": ("reveal", "reveals"),
    "discard_obj": ("discard", "discards"), "discard": ("discard", "discards"),
    "transform": ("transform", "transforms"),
}


def _simple(action: A.Action, **_) -> str:
    extra_keys(action, {"optional", "unless"})
    if action.amount is not None:
        raise NotRendered(f"Action:{action.verb}+amount")
    base, third = _SIMPLE[action.verb]
    out = f"{subject_verb(action, base, third)} {_obj(action)}"
    if "unless" in action.extra:  # "sacrifice it unless you discard a creature card" (CR 118.12)
        out += " unless " + render(action.extra["unless"])
    return out


renders_verb(*_SIMPLE)(_simple)


@renders_verb("uncounterable")
def render_uncounterable(a: A.Action, **_) -> str:
    """"This spell can't be countered." (CR 113.6g: an ability that states it can't be countered functions on the stack; counter, CR 701.6)."""
    extra_keys(a, set())
    if a.subject is None or a.obj is not None or a.amount is not None:
        raise NotRendered("Action:uncounterable")
    return f"{render(a.subject, role='subject')} can't be countered"


@renders_verb("draw")
def render_draw(a: A.Action, **_) -> str:
    extra_keys(a, {"optional"})
    if a.obj is not None:
        raise NotRendered("Action:draw+obj")
    return f"{subject_verb(a, 'draw', 'draws')} {counted(a.amount, 'card', 'cards')}"


@renders_verb("mill", "scry", "surveil")
def render_mill(a: A.Action, **_) -> str:
    extra_keys(a, {"optional"})
    if a.obj is not None:
        raise NotRendered(f"Action:{a.verb}+obj")
    if a.verb == "mill":
        return f"{subject_verb(a, 'mill', 'mills')} {counted(a.amount, 'card', 'cards')}"
    return f"{subject_verb(a, a.verb, a.verb + 's')} {amount_number(a.amount, words=False)}"


@renders_verb("gain_life", "lose_life")
def render_life(a: A.Action, **_) -> str:
    extra_keys(a, {"optional"})
    if a.obj is not None:
        raise NotRendered(f"Action:{a.verb}+obj")
    base = "gain" if a.verb == "gain_life" else "lose"
    if a.amount is not None and a.amount.kind == "equal_to":  # "gains life equal to its power"
        return f"{subject_verb(a, base, base + 's')} life equal to {quantity(a.amount)}"
    return f"{subject_verb(a, base, base + 's')} {amount_number(a.amount, words=False)} life"


@renders_verb("damage")
def render_damage(a: A.Action, **_) -> str:
    """"~ deals 3 damage to any target" (CR 120.1)."""
    extra_keys(a, set())
    return f"{subject_verb(a, 'deal', 'deals')} {amount_number(a.amount, words=False)} damage to {_obj(a)}"


@renders_verb("pump")
def render_pump(a: A.Action, **_) -> str:
    """"target creature gets +3/+3 [until end of turn]", "~ gets +1/+1 for each creature card
    in your graveyard" (CR 613.4c)."""
    extra_keys(a, {"pt", "duration"})
    pt = a.extra.get("pt")
    each = a.amount is not None and a.amount.kind == "for_each" and isinstance(a.amount.ref, A.Obj)
    if not isinstance(pt, str) or not _PT.match(pt) or a.obj is not None or (a.amount is not None and not each):
        raise NotRendered("Action:pump")
    out = f"{subject_verb(a, 'get', 'gets')} {pt}"
    if each:
        out += " for each " + render(a.amount.ref, prep="in")
    if "duration" in a.extra:
        out += " " + render(a.extra["duration"])
    return out


# CR 611.2b durations (DurationKind) as Oracle writes them
DURATION_WORDS = {
    A.DurationKind.UNTIL_END_OF_TURN: "until end of turn", A.DurationKind.THIS_TURN: "this turn",
    A.DurationKind.UNTIL_YOUR_NEXT_TURN: "until your next turn",
    A.DurationKind.UNTIL_END_OF_YOUR_NEXT_TURN: "until the end of your next turn",
}


@renders(A.Duration)
def render_duration(d: A.Duration, **_) -> str:
    if d.kind is None:
        raise NotRendered("Duration")
    return DURATION_WORDS[A.DurationKind(d.kind)]


def _quoted(body: A.Node) -> str:
    """A granted ability in quotes; quotes inside it become single quotes (Oracle style)."""
    if isinstance(body, (A.Unparsed, A.Text)):
        raise NotRendered("GrantAbility:quoted")
    return '"' + render(body).replace('"', "'") + '"'


@renders(A.GrantAbility)
def render_grant(g: A.GrantAbility, **_) -> str:
    """"[subject] has/have/gains/gain [keywords and quoted abilities] [duration]" (CR 113.1,
    611). The verb ("has" or "gains") is not kept in the AST, so a grant with a duration
    is written "gains" and one without "has" — the Oracle convention for static vs. one-shot."""
    if not g.abilities:
        raise NotRendered("GrantAbility")
    # keywords by name, any other ability in quotes ("{T}: Add {G}.", CR 113.1a)
    kws = [render(k) if isinstance(k, A.Keyword) else _quoted(k) for k in g.abilities]
    kw = kws[0] if len(kws) == 1 else (f"{kws[0]} and {kws[1]}" if len(kws) == 2 else ", ".join(kws[:-1]) + f", and {kws[-1]}")
    if g.duration is None:
        base, third = "have", "has"
    else:
        base, third = "gain", "gains"
    subj = g.subject
    if not (isinstance(subj, A.Obj) and (subj.quantifier is not None or subj.words)):
        raise NotRendered("GrantAbility:subject")
    who = render(subj, role="subject")
    verb = base if (who == "you" or is_plural(subj)) else third
    out = f"{who} {verb} {kw}"
    if g.duration is not None:
        out += " " + render(g.duration)
    return out


# CR 602.5b restrictions on activation ("Activate only …"), by the grammar's rule name
ACTIVATE_ONLY = {
    "sorcery": "Activate only as a sorcery.", "instant": "Activate only as an instant.",
    "once": "Activate only once each turn.", "your_turn": "Activate only during your turn.",
    "upkeep": "Activate only during your upkeep.", "combat": "Activate only during combat.",
}


@renders_verb("activate_only")
def render_activate_only(a: A.Action, **_) -> str:
    extra_keys(a, {"restriction", "condition"})
    if a.extra.get("restriction") == "if" and isinstance(a.extra.get("condition"), A.Action):
        # CR 602.5b: "Activate only if you control an Island."
        return f"Activate only if {render(a.extra['condition'])}."
    if "condition" in a.extra:
        raise NotRendered("Action:activate_only+condition")
    words = ACTIVATE_ONLY.get(a.extra.get("restriction"))
    if words is None or a.obj is not None or a.amount is not None:
        raise NotRendered(f"Action:activate_only:{a.extra.get('restriction')}")
    return words


def _duration_tail(a: A.Action) -> str:
    return " " + render(a.extra["duration"]) if "duration" in a.extra else ""


@renders_verb("unblockable", "cant_block")
def render_cant(a: A.Action, **_) -> str:
    """"~ can't be blocked [this turn]" (CR 509.1b), "~ can't block"."""
    extra_keys(a, {"duration"})
    if a.subject is None or a.obj is not None or a.amount is not None:
        raise NotRendered(f"Action:{a.verb}")
    words = "can't be blocked" if a.verb == "unblockable" else "can't block"
    return f"{render(a.subject, role='subject')} {words}{_duration_tail(a)}"


@renders_verb("gain_control")
def render_gain_control(a: A.Action, **_) -> str:
    """"gain control of target artifact [for as long as you control ~]" (CR 108.4, 611.2b)."""
    extra_keys(a, {"duration", "optional"})
    if a.amount is not None:
        raise NotRendered("Action:gain_control")
    return f"{subject_verb(a, 'gain', 'gains')} control of {_obj(a)}{_duration_tail(a)}"


@renders_verb("duration:for_as_long_as")
def render_for_as_long_as(a: A.Action, **_) -> str:
    extra_keys(a, {"condition"})
    if a.obj is not None or a.subject is not None:
        raise NotRendered("Action:duration:for_as_long_as")
    return "for as long as " + render(a.extra.get("condition"))


_LIBRARY = {"your": "your library", "their": "their library", "owner": "its owner's library"}


@renders_verb("put_library")
def render_put_library(a: A.Action, **_) -> str:
    """"put target card on top of its owner's library", "… on the bottom of your library in any
    order" (CR 401)."""
    extra_keys(a, {"position", "library", "order", "optional"})
    pos, lib, order = a.extra.get("position"), a.extra.get("library"), a.extra.get("order")
    if pos not in ("top", "bottom") or lib not in _LIBRARY or order not in (None, "any", "random") or a.amount:
        raise NotRendered("Action:put_library")
    where = "on top of " if pos == "top" else "on the bottom of "
    tail = {None: "", "any": " in any order", "random": " in a random order"}[order]
    return f"{subject_verb(a, 'put', 'puts')} {_obj(a)} {where}{_LIBRARY[lib]}{tail}"


@renders_verb("search")
def render_search(a: A.Action, **_) -> str:
    """"search your library for a basic land card" (CR 701.23); a player other than you searches
    "their" library."""
    extra_keys(a, {"optional", "form"})
    form = a.extra.get("form") or []  # the alternative's words: whose library, "and graveyard"
    if a.amount is not None or not set(form) <= {"your", "their", "and", "graveyard"}:
        raise NotRendered("Action:search")
    if "your" in form or "their" in form:
        whose = "their" if "their" in form else "your"
    else:
        whose = "your" if a.subject is None or render(a.subject, role="subject") == "you" else "their"
    lib = f"{whose} library" + (" and graveyard" if "graveyard" in form else "")
    return f"{subject_verb(a, 'search', 'searches')} {lib} for {_obj(a)}"


@renders_verb("shuffle")
def render_shuffle(a: A.Action, **_) -> str:
    """"shuffle" (the current wording of "shuffle your library", CR 701.24)."""
    extra_keys(a, {"optional"})
    if a.obj is not None or a.amount is not None:
        raise NotRendered("Action:shuffle")
    return subject_verb(a, "shuffle", "shuffles")


@renders_verb("attach")
def render_attach(a: A.Action, **_) -> str:
    """"attach target Equipment you control to target creature you control" (CR 701.3)."""
    extra_keys(a, {"objects", "optional"})
    objs = a.extra.get("objects") or []
    if len(objs) != 1 or a.amount is not None:
        raise NotRendered("Action:attach")
    return f"{subject_verb(a, 'attach', 'attaches')} {_obj(a)} to {render(objs[0])}"


@renders_verb("pay")
def render_pay(a: A.Action, **_) -> str:
    """"you may pay {2}" (CR 118.1), "pay 3 life"."""
    from pipeline.parse.render_mana import symbols

    extra_keys(a, {"mana", "optional"})
    if a.obj is not None or "mana" not in a.extra or a.amount is not None:
        raise NotRendered("Action:pay")
    return f"{subject_verb(a, 'pay', 'pays')} {symbols(a.extra['mana'])}"


@renders_verb("damage_equal")
def render_damage_equal(a: A.Action, **_) -> str:
    """"~ deals damage to target creature equal to its power" (CR 120.1)."""
    extra_keys(a, set())
    return f"{subject_verb(a, 'deal', 'deals')} damage to {_obj(a)} equal to {quantity(a.amount)}"


@renders_verb("cant_attack")
def render_cant_attack(a: A.Action, **_) -> str:
    """"~ can't attack [unless defending player controls an Island]" (CR 508.1c)."""
    extra_keys(a, {"duration", "unless"})
    if a.subject is None or a.obj is not None or a.amount is not None:
        raise NotRendered("Action:cant_attack")
    out = f"{render(a.subject, role='subject')} can't attack{_duration_tail(a)}"
    if "unless" in a.extra:
        out += " unless " + render(a.extra["unless"])
    return out
