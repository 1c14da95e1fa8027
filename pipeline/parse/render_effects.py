"""Renderers of effects (``grammar/effects.lark``): :class:`Sentence` and the one-shot
:class:`Action` verbs (CR 608.2, 701 keyword actions)."""

from __future__ import annotations

import copy

from pipeline.parse import ast as A
from pipeline.parse.render import NotRendered, cap, extra_keys, render, renders, renders_verb
from pipeline.parse.lexicon import is_object_word
from pipeline.parse.transform_digital import is_perpetual
from pipeline.parse.render_objects import POSTS, amount_number, article, counted, for_each_phrase, is_plural, quantity

_PT = __import__("re").compile(r"^[+-](?:\d+|X)/[+-](?:\d+|X)$")


#: condition verbs whose renderer writes its own leading words ("as long as …", "the next time …")
SELF_LEADING = frozenset({"condition:as_long_as", "condition:next_time_would_deal_damage", "condition:during_turn",
                          "condition:as_enters", "condition:otherwise", "condition:next_time_would_draw",
                          "duration:for_as_long_as"})  # "For as long as that card remains exiled, …" (CR 611.2b)


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
    if where is not None and not effects and s.condition is None and not getattr(s, "joins", None):
        # "X is the mana value of the exiled card." (CR 107.3a: X defined in a sentence of its own;
        # transform_effects.s_x_is)
        if where.variable != "X" or not isinstance(where.definition, A.Amount):
            raise NotRendered("WhereX")
        return f"X is {quantity(where.definition)}."
    # "Until end of turn, ~ becomes an Angel and gains flying": the lead duration governs each
    # effect, so a grant in it is one-shot ("gains", CR 611.2a) though it holds no duration itself
    if len(effects) == 1 and isinstance(effects[0], A.Sentence):
        # a sentence with its own condition under a lead (parser._partial_sentence): written inside,
        # without its period ("If you do, return that card … at the beginning of the next end step.")
        inner = render(effects[0])
        if not inner.endswith(".") or inner.endswith('."'):
            raise NotRendered("Sentence:nested")
        parts = [inner[:-1]]
    else:
        parts = _joined_parts(effects, timed=isinstance(s.condition, A.Duration))
    if where is not None:  # "…, where X is the number of cards in your hand" (CR 107.3a)
        if where.variable != "X" or not parts:
            raise NotRendered("WhereX")
        parts[-1] += ", where X is " + (quantity(where.definition) if isinstance(where.definition, A.Amount)
                                         else render(where.definition))
    joins = list(getattr(s, "joins", []))
    lead_then = len(joins) == len(parts) and joins[:1] == ["then"]  # "Then draw a card."
    if lead_then:
        joins.pop(0)
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
            if cond.extra.get("instead") is True:  # "If …, instead …" (transform_conditions.s_if_instead)
                cond = copy.copy(cond)
                cond.extra = {k: v for k, v in cond.extra.items() if k != "instead"}
                body = "instead " + body[:1].lower() + body[1:]
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
    if lead_then:
        body = "then " + body[:1].lower() + body[1:]
    # a sentence ending in a quoted ability ends inside the quotes: 'have "{T}: Add {G}."'
    return cap(body) if body.endswith('."') else cap(body) + "."


def _joined_parts(effects: list, **ctx) -> list[str]:
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
        text = render(node, **ctx)
        if joined:
            prefix = render(subj, role="subject") + " "
            if _optional(e) and _optional(effects[i - 1]):  # "you may X and Y": one "may" (CR 608.2d)
                prefix += "may "
            elif is_perpetual(e) and is_perpetual(effects[i - 1]):  # "it perpetually gets +1/+1 and gains …"
                prefix += "perpetually "
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
        if is_perpetual(node):  # (written before the verb, by render_grant)
            return "perpetually"
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
    draw" when ``extra["optional"]`` (CR 608.2d: the controller chooses); "you may have it fight"
    when ``extra["have"]`` (the chooser, an Obj) is set too; "two target creatures each get" when
    ``extra["each"]``. Raises NotRendered for a "may"/"have"/"each" without a subject."""
    optional = action.extra.get("optional") is True
    if action.subject is None:
        if optional or "have" in action.extra or "each" in action.extra:
            raise NotRendered(f"Action:{action.verb}:optional_without_subject")
        return base
    subj = render(action.subject, role="subject")
    have = action.extra.get("have")
    if have is not None:  # "you may have it fight …": the chooser has the subject act (CR 608.2d)
        if not optional or not isinstance(have, A.Obj):
            raise NotRendered(f"Action:{action.verb}+have")
        return f"{render(have, role='subject')} may have {render(action.subject)} {base}"
    if action.extra.get("each") is True:  # "Two target creatures each get +2/+0"
        if optional:
            raise NotRendered(f"Action:{action.verb}+each+optional")
        return f"{subj} each {base}"
    verb = base if subj == "you" or is_plural(action.subject) else third
    if action.extra.get("perpetually") is True:  # MTG Arena: "it perpetually gets +1/+1" (transform_digital)
        if optional:
            raise NotRendered(f"Action:{action.verb}+perpetually+optional")
        return f"{subj} perpetually {verb}"
    if optional:
        return f"{subj} may {base}"
    return f"{subj} {verb}"


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
    extra_keys(action, CLAUSE_KEYS | {"instead", "for_each"})
    if action.amount is not None:
        raise NotRendered(f"Action:{action.verb}+amount")
    base, third = _SIMPLE[action.verb]
    # "sacrifice it unless you discard a creature card" (CR 118.12a)
    # "target opponent discards a card for each Shrine you control"
    return (f"{subject_verb(action, base, third)} {_obj(action)}" + _for_each_tail(action) + unless_tail(action)
            + instead_tail(action))


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
    extra_keys(a, CLAUSE_KEYS | {"for_each", "instead"})
    if a.obj is not None:
        raise NotRendered("Action:draw+obj")
    # "draw a card for each creature you control"
    return (f"{subject_verb(a, 'draw', 'draws')} {counted(a.amount, 'card', 'cards')}" + _for_each_tail(a)
            + unless_tail(a) + instead_tail(a))


@renders_verb("mill", "scry", "surveil")
def render_mill(a: A.Action, **_) -> str:
    """"mill two cards" (CR 701.17a), "scry 2" (701.22a), "surveil 1" (701.25a); "any number of target
    players each mill …" (``extra.each``)."""
    extra_keys(a, CLAUSE_KEYS - {"unless"})
    if a.obj is not None:
        raise NotRendered(f"Action:{a.verb}+obj")
    if a.verb == "mill":
        return f"{subject_verb(a, 'mill', 'mills')} {counted(a.amount, 'card', 'cards')}"
    return f"{subject_verb(a, a.verb, a.verb + 's')} {amount_number(a.amount, words=False)}"


@renders_verb("gain_life", "lose_life")
def render_life(a: A.Action, **_) -> str:
    extra_keys(a, CLAUSE_KEYS | {"for_each", "instead"})
    if a.obj is not None:
        raise NotRendered(f"Action:{a.verb}+obj")
    base = "gain" if a.verb == "gain_life" else "lose"
    if a.amount is not None and a.amount.kind == "equal_to":  # "gains life equal to its power"
        return f"{subject_verb(a, base, base + 's')} life equal to {quantity(a.amount)}" + instead_tail(a)
    # "you gain 1 life for each card in your graveyard"
    return (f"{subject_verb(a, base, base + 's')} {amount_number(a.amount, words=False)} life" + _for_each_tail(a)
            + unless_tail(a) + instead_tail(a))


@renders_verb("damage")
def render_damage(a: A.Action, **_) -> str:
    """"~ deals 3 damage to any target" (CR 120.1)."""
    extra_keys(a, CLAUSE_KEYS | {"also", "instead", "for_each"})
    # "~ deals 2 damage to you for each Treasure you control"
    out = f"{subject_verb(a, 'deal', 'deals')} {amount_number(a.amount, words=False)} damage to {_obj(a)}" + _for_each_tail(a)
    also = a.extra.get("also")
    if also is not None:  # "~ deals 2 damage to any target and 3 damage to you" (one source, two recipients)
        if not isinstance(also, A.Action) or also.verb != "damage" or also.subject is not None or also.extra:
            raise NotRendered("Action:damage+also")
        out += f" and {amount_number(also.amount, words=False)} damage to {_obj(also)}"
    return out + unless_tail(a) + instead_tail(a)


@renders_verb("pump")
def render_pump(a: A.Action, **_) -> str:
    """"target creature gets +3/+3 [until end of turn]", "~ gets +1/+1 for each creature card
    in your graveyard" (CR 613.4c)."""
    extra_keys(a, CLAUSE_KEYS | {"pt", "duration", "for_each", "instead"})
    pt = a.extra.get("pt")
    each = a.amount is not None and a.amount.kind == "for_each" and isinstance(a.amount.ref, A.Obj)
    if not isinstance(pt, str) or not _PT.match(pt) or a.obj is not None or (a.amount is not None and not each):
        raise NotRendered("Action:pump")
    out = f"{subject_verb(a, 'get', 'gets')} {pt}"
    if each:
        out += " for each " + render(a.amount.ref, prep="in")
    if "duration" in a.extra:
        out += " " + render(a.extra["duration"])
    # "gets +1/+1 until end of turn for each creature blocking it" (the rider after the duration);
    # "… gets +4/+4 until end of turn instead" (CR 614.1a: replaces the effect before it)
    return out + _for_each_tail(a) + (" instead" if a.extra.get("instead") is True else "")


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


def ability_list(abilities: list) -> str:
    """Keywords by name and any other ability in quotes ("{T}: Add {G}.", CR 113.1a), joined
    "A", "A and B", "A, B, and C". Raises NotRendered for an empty list or an unreadable ability."""
    items = [render(k) if isinstance(k, A.Keyword) else _quoted(k) for k in abilities]
    if not items:
        raise NotRendered("abilities:empty")
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + f", and {items[-1]}"


@renders(A.GrantAbility)
def render_grant(g: A.GrantAbility, timed: bool = False, **_) -> str:
    """"[subject] has/have/gains/gain [keywords and quoted abilities] [duration]" (CR 113.1,
    611). The verb ("has" or "gains") is not kept in the AST, so a grant with a duration
    is written "gains" and one without "has" — the Oracle convention for static vs. one-shot."""
    if not g.abilities:
        raise NotRendered("GrantAbility")
    kw = ability_list(g.abilities)
    if is_perpetual(g):  # MTG Arena: "That card perpetually gains "~ enters tapped."" (transform_digital)
        base, third = "perpetually gain", "perpetually gains"
        g = A.GrantAbility(g.subject, g.abilities, None, g.text)
    elif g.verb is not None:  # the verb the line used (transform.a_gain_kw)
        if g.verb not in ("gain", "have"):
            raise NotRendered("GrantAbility:verb")
        base, third = (g.verb, "gains") if g.verb == "gain" else (g.verb, "has")
    elif g.duration is None and not timed:  # (timed: a duration leads the sentence)
        base, third = "have", "has"
    else:
        base, third = "gain", "gains"
    subj = g.subject
    if not (isinstance(subj, A.Obj) and (subj.quantifier is not None or subj.words or subj.qualifiers)):
        raise NotRendered("GrantAbility:subject")
    who = render(subj, role="subject")
    verb = base if (who == "you" or is_plural(subj)) else third
    if g.duration is not None and kw.endswith('."'):
        kw = kw[:-2] + '"'  # a quote that does not end the sentence has no period: 'gains "{T}: Add {G}" until …'
    out = f"{who} {verb} {kw}"
    if g.duration is not None:
        out += " " + render(g.duration)
    return out


def _duration_tail(a: A.Action) -> str:
    return " " + render(a.extra["duration"]) if "duration" in a.extra else ""


@renders_verb("unblockable", "cant_block")
def render_cant(a: A.Action, **_) -> str:
    """"~ can't be blocked [this turn]" (CR 509.1b), "~ can't block"."""
    extra_keys(a, {"duration", "unless"})
    if a.subject is None or a.obj is not None or a.amount is not None:
        raise NotRendered(f"Action:{a.verb}")
    words = "can't be blocked" if a.verb == "unblockable" else "can't block"
    unless = a.extra.get("unless")
    if unless is not None and not (isinstance(unless, A.Action) and unless.verb.startswith("condition:")):
        raise NotRendered(f"Action:{a.verb}:unless")
    tail = f" unless {render(unless)}" if unless is not None else ""  # CR 509.1b: "can't block unless …"
    return f"{render(a.subject, role='subject')} {words}{_duration_tail(a)}{tail}"


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


#: "Nth from the top" (zones.lark lib_nth, CR 401.7)
_NTH = ("second", "third", "fourth", "fifth", "sixth", "seventh")
_LIBRARY = {"your": "your library", "their": "their library", "owner": "its owner's library",
            "their_owner": "their owner's library", "their_owners": "their owners' libraries",
            # another player's library (zones.lark lw_other, CR 401.1)
            "that_player": "that player's library", "target_player": "target player's library",
            "each_player": "each player's library", "that": "that library"}


@renders_verb("put_library")
def render_put_library(a: A.Action, **_) -> str:
    """"put target card on top of its owner's library", "… on the bottom of your library in any
    order" (CR 401)."""
    extra_keys(a, {"position", "library", "order", "optional", "nth", "instead"})
    pos, lib, order = a.extra.get("position"), a.extra.get("library"), a.extra.get("order")
    if pos == "nth":  # "put target creature into its owner's library second from the top" (CR 401.7)
        nth = a.extra.get("nth")
        if nth not in _NTH or lib not in _LIBRARY or order is not None or a.amount:
            raise NotRendered("Action:put_library+nth")
        return f"{subject_verb(a, 'put', 'puts')} {_obj(a)} into {_LIBRARY[lib]} {nth} from the top"
    if "nth" in a.extra:
        raise NotRendered("Action:put_library+nth")
    if pos not in ("top", "bottom") or (lib not in _LIBRARY and lib is not None) or order not in (None, "any", "random") \
            or a.amount:
        raise NotRendered("Action:put_library")
    tail = {None: "", "any": " in any order", "random": " in a random order"}[order]
    if lib is None:  # "then shuffle and put that card on top" (the library just searched)
        if pos != "top":
            raise NotRendered("Action:put_library")
        return f"{subject_verb(a, 'put', 'puts')} {_obj(a)} on top{tail}" + instead_tail(a)
    where = "on top of " if pos == "top" else "on the bottom of "
    return f"{subject_verb(a, 'put', 'puts')} {_obj(a)} {where}{_LIBRARY[lib]}{tail}" + instead_tail(a)


#: CR 115.7a: "change the target(s) of [a spell or ability]"; ``change_target_single`` adds the
#: spell's restriction "with a single target" (Deflection)
_CHANGE_TARGET = {"change_target": ("the target of", ""), "change_targets": ("the targets of", ""),
                  "change_target_single": ("the target of", " with a single target")}


@renders_verb(*_CHANGE_TARGET)
def render_change_target(a: A.Action, **_) -> str:
    """"Change the target of target spell with a single target." / "You may change the targets of target
    instant or sorcery spell." (CR 115.7a)."""
    extra_keys(a, CLAUSE_KEYS)
    if a.amount is not None:
        raise NotRendered(f"Action:{a.verb}")
    head, tail = _CHANGE_TARGET[a.verb]
    return f"{subject_verb(a, 'change', 'changes')} {head} {_obj(a)}{tail}" + unless_tail(a)


@renders_verb("get_tickets")
def render_get_tickets(a: A.Action, **_) -> str:
    """"you get {TK}{TK}" / "you get seven {TK}" (CR 107.17: each {TK} is one ticket counter)."""
    extra_keys(a, CLAUSE_KEYS | {"symbols"})
    n = a.amount.value if a.amount is not None and a.amount.kind == "fixed" else None
    if not isinstance(n, int) or n < 1 or a.obj is not None or a.extra.get("symbols") not in (None, True):
        raise NotRendered("Action:get_tickets")
    count = "{TK}" * n if a.extra.get("symbols") else amount_number(a.amount) + " {TK}"
    return f"{subject_verb(a, 'get', 'gets')} {count}"


#: CR 123.6 name and 123.8 power and toughness stickers (None: any sticker, CR 123.3)
_STICKERS = {None: "a sticker", "name": "a name sticker", "power_toughness": "a power and toughness sticker"}


@renders_verb("put_sticker")
def render_put_sticker(a: A.Action, **_) -> str:
    """"you may put a sticker on a nonland permanent you own" (CR 123.3)."""
    extra_keys(a, CLAUSE_KEYS | {"sticker"})
    kind = a.extra.get("sticker")
    if kind not in _STICKERS or a.amount is not None:
        raise NotRendered("Action:put_sticker")
    return f"{subject_verb(a, 'put', 'puts')} {_STICKERS[kind]} on {_obj(a)}" + unless_tail(a)


@renders_verb("reveal_random", "exile_random")
def render_random_from_hand(a: A.Action, **_) -> str:
    """"target player reveals a card at random from their hand" / "exiles a card at random from their hand"
    (CR 701.20a, 701.13a)."""
    extra_keys(a, CLAUSE_KEYS | {"owner"})
    owner = a.extra.get("owner")
    if owner not in ("your", "their") or a.amount is not None:
        raise NotRendered(f"Action:{a.verb}")
    base = a.verb.split("_")[0]
    return f"{subject_verb(a, base, base + 's')} {_obj(a)} at random from {owner} hand" + unless_tail(a)


@renders_verb("vote")
def render_vote(a: A.Action, **_) -> str:
    """"starting with you, each player votes for a nonland permanent you don't control" (CR 701.38a)."""
    extra_keys(a, {"starting"})
    if a.extra.get("starting") != "you" or a.subject is None or a.amount is not None:
        raise NotRendered("Action:vote")
    return f"starting with you, {subject_verb(a, 'vote', 'votes')} for {_obj(a)}"


# "each permanent with the most votes or tied for most votes" (effects.lark p_most_votes, CR 701.38a), read by
# render_objects like its other post-modifiers
POSTS["most_votes"] = "with the most votes or tied for most votes"


@renders_verb("search")
def render_search(a: A.Action, **_) -> str:
    """"search your library for a basic land card" (CR 701.23); a player other than you searches
    "their" library."""
    extra_keys(a, CLAUSE_KEYS | {"form", "zone"})
    form = a.extra.get("form") or []  # the alternative's words: whose library, "and graveyard"
    if a.amount is not None or not set(form) <= {"your", "their", "and", "graveyard"}:
        raise NotRendered("Action:search")
    if "zone" in a.extra:  # "search target opponent's library", "your library, hand, and/or graveyard"
        return f"{subject_verb(a, 'search', 'searches')} {_search_zones(a.extra['zone'])} for {_obj(a)}"
    if "your" in form or "their" in form:
        whose = "their" if "their" in form else "your"
    else:
        whose = "your" if a.subject is None or render(a.subject, role="subject") == "you" else "their"
    lib = f"{whose} library" + (" and graveyard" if "graveyard" in form else "")
    return f"{subject_verb(a, 'search', 'searches')} {lib} for {_obj(a)}"


#: whose zones are searched (transform_zones._SEARCH_OWNERS values) → words
SEARCH_OWNERS = {"target_opponent": "target opponent's", "target_player": "target player's",
                 "that_player": "that player's", "its_controller": "its controller's", "its_owner": "its owner's",
                 "your": "your", "their": "their"}


def _search_zones(zone) -> str:
    """"target opponent's library", "your library and/or graveyard", "your library, hand, and/or
    graveyard" (CR 701.23) from ``{owner, zones}``."""
    if not isinstance(zone, dict) or zone.get("owner") not in SEARCH_OWNERS or not zone.get("zones"):
        raise NotRendered("Action:search+zone")
    names = list(zone["zones"])
    join = zone.get("join", "and/or")  # "and": every zone named is searched
    if not set(names) <= {"library", "graveyard", "hand"} or join not in ("and", "and/or") \
            or not set(zone) <= {"owner", "zones", "join"}:
        raise NotRendered("Action:search+zone")
    if len(names) == 1:
        listed = names[0]
    elif len(names) == 2:
        listed = f"{names[0]} {join} {names[1]}"
    else:
        listed = ", ".join(names[:-1]) + f", {join} {names[-1]}"
    return f"{SEARCH_OWNERS[zone['owner']]} {listed}"


@renders_verb("condition:searched")
def render_searched(a: A.Action, **_) -> str:
    """"If you search your library this way, shuffle." (CR 701.23: a search of library and
    graveyard shuffles only when the library was searched); ``form`` the words that tell it from
    conditions.lark's "you searched your/a library this way" (g-triggers hook)."""
    extra_keys(a, {"form"})
    if a.obj is not None or a.amount is not None or a.extra.get("form") not in (None, ["search", "your"]):
        raise NotRendered(a.verb)
    return "you search your library this way"


@renders_verb("shuffle")
def render_shuffle(a: A.Action, **_) -> str:
    """"shuffle" (the current wording of "shuffle your library", CR 701.24), or the older "shuffle
    your library" / "target player shuffles their library" (``extra.form``: the possessive and
    "library")."""
    extra_keys(a, {"optional", "form"})
    form = a.extra.get("form")
    if a.obj is not None or a.amount is not None or form not in (None, ["your", "library"], ["their", "library"]):
        raise NotRendered("Action:shuffle")
    out = subject_verb(a, "shuffle", "shuffles")
    return out + f" {form[0]} library" if form else out


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

    extra_keys(a, {"mana", "optional", "for_each"})
    if a.obj is not None or "mana" not in a.extra or a.amount is not None:
        raise NotRendered("Action:pay")
    return f"{subject_verb(a, 'pay', 'pays')} {symbols(a.extra['mana'])}" + _for_each_tail(a)


@renders_verb("damage_equal")
def render_damage_equal(a: A.Action, **_) -> str:
    """"~ deals damage to target creature equal to its power" (CR 120.1)."""
    extra_keys(a, CLAUSE_KEYS | {"equal_first"})
    if a.extra.get("equal_first"):  # "~ deals damage equal to its power to any target"
        return f"{subject_verb(a, 'deal', 'deals')} damage equal to {quantity(a.amount)} to {_obj(a)}"
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


# --------------------------------------------------------------------------- one-shot actions (CR 701 keyword actions, CR 120 damage)
#: extra keys every clause-level renderer below writes through :func:`subject_verb` ("may", "each")
CLAUSE_KEYS = frozenset({"optional", "have", "each", "perpetually", "unless"})


def unless_tail(a: A.Action) -> str:
    """" unless you pay {U}{U}" from ``extra["unless"]`` (an Action, CR 118.12a), else ""."""
    other = a.extra.get("unless")
    if other is None:
        return ""
    if not isinstance(other, A.Action):
        raise NotRendered(f"Action:{a.verb}+unless")
    return " unless " + render(other)


def instead_tail(a: A.Action) -> str:
    """" instead" when ``extra["instead"]`` is True ("draw two cards instead", "return it to its
    owner's hand instead": CR 614.1a, the effect replaces another), else ""."""
    v = a.extra.get("instead")
    if v is None:
        return ""
    if v is not True:
        raise NotRendered(f"Action:{a.verb}+instead")
    return " instead"


def _for_each_tail(a: A.Action) -> str:
    """" for each creature you control" from ``extra["for_each"]`` (an Obj, CR 107.3-style count)."""
    fe = a.extra.get("for_each")
    if fe is None:
        return ""
    if not isinstance(fe, (A.Obj, A.Action)):
        raise NotRendered(f"Action:{a.verb}+for_each")
    return " for each " + for_each_phrase(fe)


@renders_verb("fight")
def render_fight(a: A.Action, **_) -> str:
    """"target creature you control fights target creature you don't control", "you may have it
    fight …" (CR 701.14a: each deals damage equal to its power to the other)."""
    extra_keys(a, CLAUSE_KEYS)
    if a.amount is not None:
        raise NotRendered("Action:fight+amount")
    return f"{subject_verb(a, 'fight', 'fights')} {_obj(a)}" + unless_tail(a)


@renders_verb("fight_each_other")
def render_fight_each_other(a: A.Action, **_) -> str:
    """"Those creatures fight each other" (CR 701.14a)."""
    extra_keys(a, CLAUSE_KEYS)
    if a.obj is not None or a.amount is not None or a.subject is None:
        raise NotRendered("Action:fight_each_other")
    return f"{subject_verb(a, 'fight', 'fights')} each other"


@renders_verb("flip_coin")
def render_flip_coin(a: A.Action, **_) -> str:
    """"flip a coin" (CR 705.1)."""
    extra_keys(a, CLAUSE_KEYS)
    if a.obj is not None or a.amount is not None:
        raise NotRendered("Action:flip_coin")
    return f"{subject_verb(a, 'flip', 'flips')} a coin"


@renders_verb("condition:win_flip", "condition:lose_flip")
def render_flip_result(a: A.Action, **_) -> str:
    """"if you win the flip" / "if you lose the flip" (CR 705.2: the caller wins or loses)."""
    extra_keys(a, set())
    if a.obj is not None or a.amount is not None:
        raise NotRendered(a.verb)
    return "you win the flip" if a.verb == "condition:win_flip" else "you lose the flip"


@renders_verb("roll_die")
def render_roll_die(a: A.Action, **_) -> str:
    """"roll a d20", "roll a six-sided die", "each player rolls two six-sided dice" (CR 706.1a:
    an "N-sided die" or "dN"); ``extra``: ``sides`` (int), ``notation`` ("d" | "sided")."""
    extra_keys(a, CLAUSE_KEYS | {"sides", "notation"})
    sides, notation = a.extra.get("sides"), a.extra.get("notation")
    if not isinstance(sides, int) or notation not in ("d", "sided") or a.obj is not None:
        raise NotRendered("Action:roll_die")
    one = a.amount is None or (a.amount.kind == "fixed" and a.amount.value == 1)
    if notation == "d":
        die = f"d{sides}"
        head = article(die) if one else amount_number(a.amount)
        return f"{subject_verb(a, 'roll', 'rolls')} {head} {die}"
    from pipeline.parse.render_objects import number_word

    die = f"{number_word(sides)}-sided " + ("die" if one else "dice")
    head = article(die) if one else amount_number(a.amount)
    return f"{subject_verb(a, 'roll', 'rolls')} {head} {die}"


@renders_verb("monarch")
def render_monarch(a: A.Action, **_) -> str:
    """"you become the monarch" (CR 724.1)."""
    extra_keys(a, CLAUSE_KEYS)
    if a.obj is not None or a.amount is not None:
        raise NotRendered("Action:monarch")
    return f"{subject_verb(a, 'become', 'becomes')} the monarch"



@renders_verb("tap_or_untap")
def render_tap_or_untap(a: A.Action, **_) -> str:
    """"you may tap or untap target permanent" (CR 701.26)."""
    extra_keys(a, CLAUSE_KEYS)
    if a.amount is not None:
        raise NotRendered("Action:tap_or_untap")
    return f"{subject_verb(a, 'tap', 'taps')} or untap {_obj(a)}"



@renders_verb("discard_random")
def render_discard_random(a: A.Action, **_) -> str:
    """"that player discards a card at random" (CR 701.9b: the card is chosen at random)."""
    extra_keys(a, CLAUSE_KEYS)
    if a.amount is not None:
        raise NotRendered("Action:discard_random")
    return f"{subject_verb(a, 'discard', 'discards')} {_obj(a)} at random" + unless_tail(a)


@renders_verb("damage_that_much")
def render_damage_that_much(a: A.Action, **_) -> str:
    """"~ deals that much damage to that creature's controller" (CR 120.1); the amount is the
    ``that_much`` Amount the generic action reader sets (the damage an earlier event dealt)."""
    extra_keys(a, CLAUSE_KEYS)
    if a.amount is not None and (a.amount.kind != "that_much" or a.amount.ref is not None):
        raise NotRendered("Action:damage_that_much")
    return f"{subject_verb(a, 'deal', 'deals')} that much damage to {_obj(a)}"


@renders_verb("damage_divided")
def render_damage_divided(a: A.Action, **_) -> str:
    """"~ deals 4 damage divided as you choose among any number of targets" (CR 601.2d: the
    division is announced as the spell is cast)."""
    extra_keys(a, CLAUSE_KEYS)
    return (f"{subject_verb(a, 'deal', 'deals')} {amount_number(a.amount, words=False)} damage divided as you "
            f"choose among {_obj(a)}")


@renders_verb("sacrifice_unless")
def render_sacrifice_unless(a: A.Action, **_) -> str:
    """"sacrifice ~ unless you pay {W}{W}" / "… unless you pay its mana cost" (CR 118.12a: "[do
    something] unless [a player does something else]")."""
    from pipeline.parse.render_mana import symbols

    extra_keys(a, CLAUSE_KEYS | {"mana", "for_each"})
    if a.amount is not None or ("for_each" in a.extra and "mana" not in a.extra):
        raise NotRendered("Action:sacrifice_unless")
    what = symbols(a.extra["mana"]) if "mana" in a.extra else "its mana cost"
    # "sacrifice ~ unless you pay {1} for each other creature you control"
    return f"{subject_verb(a, 'sacrifice', 'sacrifices')} {_obj(a)} unless you pay {what}" + _for_each_tail(a)


@renders_verb("becomes")
def render_becomes(a: A.Action, **_) -> str:
    """"~ becomes a 2/1 red Warrior creature with first strike until end of turn" (CR 613.1d
    type, 613.1e color, 613.1f abilities, 613.4b P/T set by an effect), from ``extra``: ``pt``,
    ``words`` (colors CR 105 and types CR 205 only, "and" between two of them), ``article``,
    ``abilities``; "… with base power and toughness 1/1" from ``base_pt``."""
    extra_keys(a, CLAUSE_KEYS | {"pt", "words", "article", "abilities", "duration", "base_pt", "form", "also"})
    words, pt = a.extra.get("words") or [], a.extra.get("pt")
    form = a.extra.get("form") or []
    if a.obj is not None or a.amount is not None or not words or not set(form) <= {"a", "an"}:
        raise NotRendered("Action:becomes")
    _type_words(words)
    # supertypes come before the P/T: "a legendary 4/4 red Dragon creature" (CR 205.4a)
    n = next((i for i, w in enumerate(words) if w.lower() not in SUPERTYPES), len(words))
    desc = " ".join(list(words[:n]) + ([pt] if pt else []) + list(words[n:]))
    if a.extra.get("article") is not None or form:
        desc = f"{article(desc)} {desc}"
    out = f"{subject_verb(a, 'become', 'becomes')} {desc}"
    if "base_pt" in a.extra:
        out += " with base power and toughness " + a.extra["base_pt"]
    if a.extra.get("abilities"):
        out += " with " + ability_list(a.extra["abilities"])
    also = a.extra.get("also")
    if also is not None:  # "… in addition to its other types" (CR 205.1b)
        if also not in ("its", "their") or "base_pt" in a.extra:
            raise NotRendered("Action:becomes+also")
        out += f" in addition to {also} other types"
    return out + _duration_tail(a)


#: supertypes (CR 205.4a) — written before a P/T in a description
SUPERTYPES = frozenset({"basic", "legendary", "ongoing", "snow", "world"})


def _type_words(words: list[str]) -> None:
    """Raise NotRendered unless every word is a color or type of the closed lexicons (CR 105, 205),
    or "and" between two of them."""
    for i, w in enumerate(words):
        if not (is_object_word(w.lower()) or (w.lower() == "and" and 0 < i < len(words) - 1)):
            raise NotRendered("type_word")


@renders_verb("still_type")
def render_still_type(a: A.Action, **_) -> str:
    """"It's still a land." / "They're still lands." (CR 613.1d: the types added do not replace
    the old ones)."""
    extra_keys(a, {"words"})
    words = a.extra.get("words") or []
    if not isinstance(a.obj, A.Obj) or a.obj.quantifier not in ("it", "them") or not words:
        raise NotRendered("Action:still_type")
    _type_words(words)
    desc = " ".join(words)
    return f"they're still {desc}" if a.obj.quantifier == "them" else f"it's still {article(desc)} {desc}"


_ORDER_WORDS = {None: "", "any": " in any order", "random": " in a random order"}


def _rest_words(rest: dict) -> str:
    """Where "the rest" go: "into your graveyard", "on the bottom of your library in a random
    order", "back on top of your library in any order", "on top in any order" (CR 401.4)."""
    if "zone" in rest:
        if set(rest) != {"zone", "owner"} or rest["zone"] not in ("hand", "graveyard") or rest["owner"] not in ("your", "their"):
            raise NotRendered("Action:put_into_rest:rest")
        return f"into {rest['owner']} {rest['zone']}"
    pos, lib, order = rest.get("position"), rest.get("library"), rest.get("order")
    if pos not in ("top", "bottom") or lib not in (None, "your", "their") or order not in _ORDER_WORDS:
        raise NotRendered("Action:put_into_rest:rest")
    out = ("back " if rest.get("back") else "") + ("on top" if pos == "top" else "on the bottom")
    if lib is not None:
        out += f" of {lib} library"
    return out + _ORDER_WORDS[order]


@renders_verb("put_into_rest")
def render_put_into_rest(a: A.Action, **_) -> str:
    """"put one of them into your hand and the rest into your graveyard" (CR 401.4 for the order of
    cards put into a library together)."""
    extra_keys(a, CLAUSE_KEYS | {"zone", "owner", "rest"})
    zone, owner = a.extra.get("zone"), a.extra.get("owner")
    if zone == "battlefield" and owner is None:
        first = "onto the battlefield"
    elif zone in ("hand", "graveyard") and owner in ("your", "their"):
        first = f"into {owner} {zone}"
    else:
        raise NotRendered("Action:put_into_rest")
    return f"{subject_verb(a, 'put', 'puts')} {_obj(a)} {first} and the rest {_rest_words(a.extra.get('rest') or {})}"


@renders_verb("reveal_until", "exile_until")
def render_reveal_until(a: A.Action, **_) -> str:
    """"reveal cards from the top of your library until you reveal a nonland card" / "exile cards
    from the top of your library until you exile a land card" (CR 701.20 reveal; ``extra.until``
    the stopping action)."""
    extra_keys(a, CLAUSE_KEYS | {"until"})
    until = a.extra.get("until")
    if not isinstance(until, A.Action) or until.verb not in ("reveal", "exile") or a.amount is not None:
        raise NotRendered(f"Action:{a.verb}")
    base = a.verb.split("_")[0]
    return f"{subject_verb(a, base, base + 's')} {_obj(a)} until {render(until)}"


# keyword actions written "[subject] verb [words]" with no object or amount: verb → (base form, third
# person). CR 701.44 explore, 701.50 connive, 701.48 learn, 701.49 venture into the dungeon, 701.30 clash,
# 702.26 phasing ("phase out"), 104.3e/104.2b an effect that loses / wins the game, 500.7 extra turns, 615.1 prevention
FIXED_ACTIONS = {
    "explore": ("explore", "explores"), "connive": ("connive", "connives"), "learn": ("learn", "learns"),
    "venture": ("venture into the dungeon", "ventures into the dungeon"),
    "clash": ("clash with an opponent", "clashes with an opponent"),
    "phase_out": ("phase out", "phases out"),
    "lose_game": ("lose the game", "loses the game"), "win_game": ("win the game", "wins the game"),
    "extra_turn": ("take an extra turn after this one", "takes an extra turn after this one"),
    "fog": ("prevent all combat damage that would be dealt this turn",) * 2,
    # CR 701.51 open an Attraction, 701.52 roll to visit your Attractions, 701.56 time travel, 701.61 forage,
    # 701.62 manifest dread, 725.1 take the initiative
    "open_attraction": ("open an Attraction", "opens an Attraction"),
    "roll_to_visit": ("roll to visit your Attractions", "rolls to visit your Attractions"),
    "time_travel": ("time travel", "time travels"), "forage": ("forage", "forages"),
    "manifest_dread": ("manifest dread", "manifests dread"),
    "initiative": ("take the initiative", "takes the initiative"),
    # CR 404.1 every graveyard; CR 121.1 drawing ("that player draws an additional card", a draw step's extra draw)
    "exile_graveyards": ("exile all graveyards", "exiles all graveyards"),
    "draw_additional": ("draw an additional card", "draws an additional card"),
    # CR 701.21a: "… chooses three lands they control, then sacrifices the rest" (the permanents not chosen)
    "sacrifice_rest": ("sacrifice the rest", "sacrifices the rest"),
}


def times_tail(a: A.Action) -> str:
    """" twice" when ``extra["times"]`` is 2 (an instruction followed two times: "investigate twice"), else ""."""
    times = a.extra.get("times")
    if times is None:
        return ""
    if times != 2:
        raise NotRendered(f"Action:{a.verb}+times")
    return " twice"


@renders_verb(*FIXED_ACTIONS)
def render_fixed_action(a: A.Action, **_) -> str:
    """A keyword action of :data:`FIXED_ACTIONS` ("~ explores", "Venture into the dungeon.")."""
    extra_keys(a, CLAUSE_KEYS | {"duration", "times"})
    if a.obj is not None or a.amount is not None:
        raise NotRendered(f"Action:{a.verb}")
    return subject_verb(a, *FIXED_ACTIONS[a.verb]) + times_tail(a) + _duration_tail(a) + unless_tail(a)


@renders_verb("ring_tempts")
def render_ring_tempts(a: A.Action, **_) -> str:
    """"the Ring tempts you" (CR 701.54a: you choose your Ring-bearer)."""
    extra_keys(a, {"times"})
    if a.obj is not None or a.amount is not None or a.subject is None or render(a.subject, role="subject") != "you":
        raise NotRendered("Action:ring_tempts")
    return "the Ring tempts you" + times_tail(a)


# keyword actions with a number: CR 701.47 amass, 701.39 bolster, 701.41 support, 701.46 adapt,
# 701.37 monstrosity ("Monstrosity 3."), 701.53 incubate, 701.57 discover, 701.59 collect evidence, 701.63 endure,
# 701.66 earthbend, 701.68 blight
NUMBER_ACTIONS = {"amass": ("amass", "amasses"), "bolster": ("bolster", "bolsters"), "support": ("support", "supports"),
                  "adapt": ("adapt", "adapts"), "monstrosity": ("monstrosity", "monstrosity"),
                  "incubate": ("incubate", "incubates"), "discover": ("discover", "discovers"),
                  "collect_evidence": ("collect evidence", "collects evidence"), "endure": ("endure", "endures"),
                  "earthbend": ("earthbend", "earthbends"), "blight": ("blight", "blights")}


@renders_verb(*NUMBER_ACTIONS)
def render_number_action(a: A.Action, **_) -> str:
    """"Adapt 2.", "Bolster 1.", "Monstrosity X.", "amass Zombies 2" (the number in digits, CR 107.1;
    ``extra["subtype"]`` the [subtype] of CR 701.47a, a word of CR 205.3m)."""
    extra_keys(a, CLAUSE_KEYS | {"times", "subtype"})
    if a.obj is not None:
        raise NotRendered(f"Action:{a.verb}")
    verb = subject_verb(a, *NUMBER_ACTIONS[a.verb])
    sub = a.extra.get("subtype")
    if sub is not None:
        if a.verb != "amass" or not is_object_word(sub.lower()):
            raise NotRendered(f"Action:{a.verb}+subtype")
        verb += " " + sub
    return f"{verb} {amount_number(a.amount, words=False)}" + times_tail(a) + unless_tail(a)


# keyword actions on an object: CR 701.15 goad, 701.35 detain, 701.40 manifest
# 701.4 behold, 701.58 cloak, 701.60 suspect, 701.64 harness, 701.65 airbend
OBJECT_ACTIONS = {"goad": ("goad", "goads"), "detain": ("detain", "detains"), "manifest": ("manifest", "manifests"),
                  "behold": ("behold", "beholds"), "cloak": ("cloak", "cloaks"), "suspect": ("suspect", "suspects"),
                  "harness": ("harness", "harnesses"), "airbend": ("airbend", "airbends")}


@renders_verb(*OBJECT_ACTIONS)
def render_object_action(a: A.Action, **_) -> str:
    """"Goad target creature.", "detain up to two target nonland permanents", "Manifest the top card
    of your library." """
    extra_keys(a, CLAUSE_KEYS | {"times"})
    if a.amount is not None:
        raise NotRendered(f"Action:{a.verb}")
    return f"{subject_verb(a, *OBJECT_ACTIONS[a.verb])} {_obj(a)}" + times_tail(a) + unless_tail(a)



@renders_verb("pay_life")
def render_pay_life(a: A.Action, **_) -> str:
    """"you may pay 2 life" (CR 119.4, 118.3)."""
    extra_keys(a, CLAUSE_KEYS)
    if a.obj is not None:
        raise NotRendered("Action:pay_life")
    return f"{subject_verb(a, 'pay', 'pays')} {amount_number(a.amount, words=False)} life"


@renders_verb("damage_instead")
def render_damage_instead(a: A.Action, **_) -> str:
    """"~ deals 5 damage instead" (CR 614.1a: it replaces the damage of the sentence before)."""
    extra_keys(a, CLAUSE_KEYS)
    if a.obj is not None:
        raise NotRendered("Action:damage_instead")
    return f"{subject_verb(a, 'deal', 'deals')} {amount_number(a.amount, words=False)} damage instead"


@renders_verb("exchange_control")
def render_exchange_control(a: A.Action, **_) -> str:
    """"exchange control of two target creatures" / "… of ~ and target nonland permanent" (CR 701.12a)."""
    extra_keys(a, CLAUSE_KEYS | {"objects"})
    objs = a.extra.get("objects") or []
    if a.amount is not None or len(objs) > 1:
        raise NotRendered("Action:exchange_control")
    tail = f" and {render(objs[0])}" if objs else ""
    return f"{subject_verb(a, 'exchange', 'exchanges')} control of {_obj(a)}{tail}"


#: "the basic land type of your choice" / "the creature type of your choice" (becomes_type: the form word)
_TYPE_OF_CHOICE = {"basic": "basic land type", "creature": "creature type"}


@renders_verb("becomes_type")
def render_becomes_type(a: A.Action, **_) -> str:
    """"Target land becomes the basic land type of your choice until end of turn" (CR 305.7: a land
    type set by an effect; 205.3 subtypes)."""
    extra_keys(a, CLAUSE_KEYS | {"duration", "words", "form"})
    form = a.extra.get("form") or []
    words = [w.lower() for w in a.extra.get("words") or []]
    kind = form[0] if len(form) == 1 else ("creature" if not form and not words else None)
    if kind not in _TYPE_OF_CHOICE or (kind == "basic" and words != ["land"]) or (kind == "creature" and words):
        raise NotRendered("Action:becomes_type")
    return f"{subject_verb(a, 'become', 'becomes')} the {_TYPE_OF_CHOICE[kind]} of your choice{_duration_tail(a)}"


@renders_verb("switch_pt")
def render_switch_pt(a: A.Action, **_) -> str:
    """"switch target creature's power and toughness until end of turn" (CR 613.4d: the switch
    applies after every other P/T effect)."""
    extra_keys(a, CLAUSE_KEYS | {"duration"})
    if a.amount is not None:
        raise NotRendered("Action:switch_pt")
    return f"{subject_verb(a, 'switch', 'switches')} {_obj(a)}'s power and toughness{_duration_tail(a)}"


#: what "double" names (transform_effects._double ``extra.stat``) → words (CR 701.10b, 701.10d)
DOUBLE_STATS = {"power": "power", "toughness": "toughness", "power_and_toughness": "power and toughness",
                "life_total": "life total"}
#: possessive of a pronoun object ("double its power", "double your life total")
_POSSESSIVE = {"it": "its", "them": "their", "you": "your"}


@renders_verb("double")
def render_double(a: A.Action, **_) -> str:
    """"double target creature's power until end of turn", "double the power and toughness of each
    creature you control", "double your life total" (CR 701.10)."""
    extra_keys(a, CLAUSE_KEYS | {"stat", "of", "duration"})
    stat = DOUBLE_STATS.get(a.extra.get("stat"))
    if stat is None or a.amount is not None or not isinstance(a.obj, A.Obj):
        raise NotRendered("Action:double")
    verb = subject_verb(a, "double", "doubles")
    if a.extra.get("of") is True:
        if a.extra["stat"] == "life_total":
            raise NotRendered("Action:double+of")
        return f"{verb} the {stat} of {_obj(a)}{_duration_tail(a)}"
    if a.obj.quantifier in _POSSESSIVE and not a.obj.words and not a.obj.qualifiers:
        whose = _POSSESSIVE[a.obj.quantifier]
    else:
        whose = _obj(a) + "'s"
    return f"{verb} {whose} {stat}{_duration_tail(a)}"


@renders_verb("additional_combat_phase")
def render_additional_combat(a: A.Action, **_) -> str:
    """"after this main phase, there is an additional combat phase followed by an additional main
    phase" (CR 500.8: the phases are added directly after this one)."""
    extra_keys(a, {"then_main", "after"})
    after = {"main_phase": "main phase", "phase": "phase"}.get(a.extra.get("after"))
    if after is None or a.subject is not None or a.obj is not None or a.amount is not None:
        raise NotRendered("Action:additional_combat_phase")
    out = f"after this {after}, there is an additional combat phase"
    if a.extra.get("then_main") is True:
        out += " followed by an additional main phase"
    return out


@renders_verb("turn_face_up", "turn_face_down")
def render_turn_face(a: A.Action, **_) -> str:
    """"turn the exiled card face up", "you may turn a face-down creature you control face up"
    (CR 708: face-down spells and permanents)."""
    extra_keys(a, CLAUSE_KEYS)
    if a.amount is not None:
        raise NotRendered(f"Action:{a.verb}")
    side = "up" if a.verb == "turn_face_up" else "down"
    return f"{subject_verb(a, 'turn', 'turns')} {_obj(a)} face {side}" + unless_tail(a)


@renders_verb("life_total_becomes")
def render_life_total_becomes(a: A.Action, **_) -> str:
    """"your life total becomes 26", "each player's life total becomes the number of creatures they
    control" (CR 119.5: the player gains or loses the difference)."""
    extra_keys(a, set())
    if not isinstance(a.subject, A.Obj) or a.obj is not None or a.amount is None:
        raise NotRendered("Action:life_total_becomes")
    whose = "your" if a.subject.quantifier == "you" and not a.subject.words else render(a.subject, role="subject") + "'s"
    value = quantity(a.amount) if a.amount.kind == "equal_to" else amount_number(a.amount, words=False)
    return f"{whose} life total becomes {value}"

