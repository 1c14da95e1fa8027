"""Renderers of mana (``grammar/mana.lark``): :class:`ManaSymbol`, :class:`AddMana`,
:class:`ManaRestriction` (CR 106, 107.4, 605)."""

from __future__ import annotations

import copy
import re

from pipeline.parse import ast as A
from pipeline.parse.render import NotRendered, extra_keys, render, renders, renders_verb
from pipeline.parse.lexicon import is_counter_kind
from pipeline.parse.render_objects import amount_number, article, is_plural, number_word, quantity

_SYMBOL_RE = re.compile(r"^\{(?:\d+|[WUBRGCSXYZTQE]|H[WUBRG]|[WUBRGC2]/[WUBRGCP]|[WUBRG]/[WUBRG]/P)\}$")


@renders(A.ManaSymbol)
def render_symbol(sym: A.ManaSymbol, **_) -> str:
    """A mana symbol is structured (CR 107.4): ``raw`` is checked against the symbol set."""
    if not _SYMBOL_RE.match(sym.raw):
        raise NotRendered("ManaSymbol")
    return sym.raw


def symbols(syms: list[A.ManaSymbol]) -> str:
    if not syms:
        raise NotRendered("ManaSymbol:none")
    return "".join(render_symbol(s) for s in syms)


def one_of(options: list[list[A.ManaSymbol]]) -> str:
    """"{R} or {G}" / "{W}, {U}, or {B}" (the Oracle list form)."""
    parts = [symbols(o) for o in options]
    if len(parts) < 2:
        raise NotRendered("AddMana:one_of")
    if len(parts) == 2:
        return f"{parts[0]} or {parts[1]}"
    return ", ".join(parts[:-1]) + f", or {parts[-1]}"


def _mana_count(amount: A.Amount | None) -> str:
    """"one mana" / "two mana" / "X mana" (CR 106.1, 107.3); a for-each amount counts per object."""
    if amount is not None and amount.kind == "for_each" and amount.value is not None:
        return number_word(amount.value) + " mana"
    if amount is not None and amount.kind == "x" and amount.variable:
        return amount.variable + " mana"
    return amount_number(amount) + " mana"


def _for_each_ref(ref) -> str:
    """What a for-each amount counts: an object ("creature you control", "Elf on the
    battlefield"), or counters ("charge counter on ~", "storage counter removed this way")."""
    if isinstance(ref, A.Action) and ref.verb == "quantity:mana_spent_to_cast" and ref.obj is not None:
        extra_keys(ref, {"symbols"})  # "{S} spent to cast ~" (CR 601.2h)
        return f"{symbols(ref.extra.get('symbols') or [])} spent to cast {render(ref.obj)}"
    if isinstance(ref, A.Action) and ref.verb == "quantity:life_lost_this_turn" and isinstance(ref.obj, A.Obj):
        extra_keys(ref, set())  # "1 life your opponents have lost this turn" (CR 119.3)
        life = ref.amount
        if not is_plural(ref.obj) or life is None or life.kind != "fixed" or not isinstance(life.value, int):
            raise NotRendered("Amount:life_lost")
        return f"{life.value} life {render(ref.obj, role='subject')} have lost this turn"
    if not isinstance(ref, A.Obj):
        raise NotRendered("Amount:for_each")
    if ref.words == ["counter"] and ref.quantifier is None and len(ref.qualifiers) == 2:
        kind = ref.qualifiers[0].partition(":")[2] if ref.qualifiers[0].startswith("counter:") else ""
        if not is_counter_kind(kind):
            raise NotRendered("counter_kind")
        where = {"on:~": "on ~", "on:it": "on it", "removed_this_way": "removed this way"}.get(ref.qualifiers[1])
        if where is None:
            raise NotRendered("Amount:for_each_counter")
        return f"{kind} counter {where}"
    return render(ref, prep="in")


def _tail(amount: A.Amount | None) -> str:
    """The amount's words after the production: " for each …" (CR 107.1), ", where X is …"
    (CR 107.3a); "" for a plain number."""
    if amount is None:
        raise NotRendered("Amount:None")
    if amount.kind == "for_each":
        return " for each " + _for_each_ref(amount.ref)
    if amount.kind == "x" and amount.ref is not None:
        return ", where X is " + quantity(amount.ref)
    return ""


def _plain(amount: A.Amount | None) -> A.Amount | None:
    """The count itself of an amount whose tail is written apart (a where-X or per-object count)."""
    if amount is not None and amount.kind == "x" and amount.ref is not None:
        return A.Amount("x", variable=amount.variable)
    return amount


def _production(add: A.AddMana) -> str:
    p = add.production
    amt = add.amount
    if p == "fixed":
        if amt is not None and amt.kind == "for_each" and amt.value is None:
            return symbols(add.symbols) + _tail(amt)  # "Add {G} for each Elf you control"
        if amt is not None and amt.kind == "equal_to" and amt.value is None:
            return f"an amount of {symbols(add.symbols)} equal to {quantity(amt)}"  # CR 202.3 mana value
        if amt is not None and amt.ref is None and ((amt.kind == "fixed" and amt.value and amt.value > 1)
                                                    or (amt.kind == "x" and amt.variable)):
            return f"{amount_number(amt)} {symbols(add.symbols)}"  # "Add seven {R}", "add X {G}"
        if amt is None or not (amt.kind == "fixed" and amt.value == 1):
            raise NotRendered("AddMana:fixed_amount")
        return symbols(add.symbols)
    if p == "one_of":
        if amt is not None and amt.kind == "for_each" and amt.value in (None, 1):
            return one_of(add.options) + _tail(amt)  # "Add {B} or {G} for each permanent destroyed this way"
        if amt is None or not (amt.kind == "fixed" and amt.value == 1):
            raise NotRendered("AddMana:one_of_amount")
        return one_of(add.options)
    if amt is not None and amt.kind == "equal_to" and amt.value is None and amt.ref is not None:
        # "an amount of mana of that color equal to your devotion to that color" (Nykthos; CR 106.1)
        one = copy.copy(add)
        one.amount = A.Amount("fixed", value=1)
        kind = _production(one)
        if not kind.startswith("one mana "):
            raise NotRendered("AddMana:equal_to")
        return f"an amount of mana {kind[len('one mana '):]} equal to {quantity(amt)}"
    tail = _tail(amt)
    count = _mana_count(_plain(amt))
    if p == "chosen_color" and len(add.options) == 1 and add.source is None:
        # "{G} or one mana of the chosen color" (Thriving lands; CR 106.7)
        return f"{symbols(add.options[0])} or {count} of the chosen color" + tail
    if p == "combination" and add.options and add.source is None and all(len(o) == 1 for o in add.options):
        # "two mana in any combination of {R} and/or {G}" (CR 106.1)
        syms = [symbols(o) for o in add.options]
        if len(syms) < 2:
            raise NotRendered("AddMana:combination")
        lst = (f"{syms[0]} and/or {syms[1]}" if len(syms) == 2
               else ", ".join(syms[:-1]) + f", and/or {syms[-1]}")
        return f"{count} in any combination of {lst}" + tail
    if p == "could_produce" and isinstance(add.source, A.Obj) and not add.options:
        # "one mana of any color that a land an opponent controls could produce" (CR 106.7)
        what = "type" if add.of_type else "color"
        return f"{count} of any {what} that {render(add.source, role='subject')} could produce" + tail
    if p == "dependent" and add.of_type and not add.options and isinstance(add.source, A.Obj) \
            and add.source.qualifiers == ["that_creature"]:
        # "one mana of any type that land produced" (CR 106.7: the type the tapped permanent produced)
        return f"{count} of any type {render(add.source)} produced" + tail
    if p == "dependent" and not add.of_type and not add.options and isinstance(add.source, A.Obj) \
            and add.dependent in A.DEPENDENT_WORDINGS:
        return count + _dependent(add) + tail
    if add.options or add.source is not None or add.dependent is not None:
        raise NotRendered(f"AddMana:{p}")
    if add.chooser is not None and (p != "any_color" or add.chooser not in A.MANA_CHOOSERS or add.different):
        raise NotRendered("AddMana:chooser")
    if p == "any_color" and add.chooser is not None:
        # "That player adds one mana of any color they choose" (CR 106.1: the player adding it chooses)
        return count + (" of any one color" if add.any_one_color else " of any color") + f" {add.chooser} choose" + tail
    if p == "any_color":
        if add.any_one_color:
            return count + " of any one color" + tail
        if add.different:
            return count + " of different colors" + tail
        return count + " of any color" + tail
    if p == "any_type":
        return count + " of any type" + tail
    if p == "combination":
        return count + " in any combination of colors" + tail
    if p == "chosen_color":
        return count + (" of that color" if add.that_color else " of the chosen color") + tail
    if p == "commander_identity":
        return count + " of any color in your commander's color identity" + tail
    raise NotRendered(f"AddMana:{p}")


def _dependent(add: A.AddMana) -> str:
    """The words after "one mana" of a dependent production (CR 106.7): " of any color among
    legendary permanents you control", " of any of the exiled card's colors"."""
    src = add.source
    if add.dependent == "among":
        return f" of any {'one ' if add.any_one_color else ''}color among {render(src, prep='in')}"
    if add.any_one_color:
        raise NotRendered("AddMana:dependent")
    owner = render(src)
    owner += "'" if owner.endswith("s") and is_plural(src) else "'s"
    return f" of {'any' if add.dependent == 'colors_of' else 'one'} of {owner} colors"


@renders(A.AddMana)
def render_add(add: A.AddMana, **_) -> str:
    """"Add {G}" / "Add {R} or {G}" / "Add two mana of any one color" / "that player adds {G}{G}"
    / "add {C}{C} instead" (CR 106.3, 106.6, 614.1a)."""
    if add.of_type and add.production not in ("any_type", "could_produce", "dependent"):
        raise NotRendered("AddMana:rider")
    if add.player is not None:
        if not isinstance(add.player_obj, A.Obj):
            raise NotRendered("AddMana:rider")
        obj = add.player_obj
        # the verb agrees with its subject: "that player adds", "You add {B}{B}" (Priest of Forgotten Gods)
        third = not (obj.quantifier == "you" and not obj.qualifiers) and not is_plural(obj)
        verb = f"{render(obj, role='subject')} {'adds' if third else 'add'} "
        if add.optional:  # "its controller may add an additional {U}" (CR 608.2d)
            verb = f"{render(obj, role='subject')} may add "
    else:
        verb = "You may add " if add.optional else "Add "
    out = verb + ("an additional " if add.additional else "") + _production(add)
    if add.other_color or add.chooser is not None and add.also is not None:
        raise NotRendered("AddMana:other_color")
    if add.also is not None:  # "… and two mana of any other color" (CR 106.1)
        also = add.also
        if not (also.other_color and also.production == "any_color" and not also.any_one_color
                and also.also is None and not also.restrictions and also.source is None):
            raise NotRendered("AddMana:also")
        out += f" and {_mana_count(also.amount)} of any other color"
    if add.instead:
        out += " instead"
    for r in add.restrictions:
        out += ". " + render(r)
    return out


_JOIN_WORDS = frozenset({",", "or", "and", "and/or", ", or", ", and"})


@renders(A.ManaRestriction)
def render_restriction(r: A.ManaRestriction, **_) -> str:
    """CR 106.6: "Spend this mana only to cast creature spells or activate abilities of
    creatures." / "This mana can't be spent to cast nonartifact spells." — from the uses."""
    if r.kind == "persist" and r.duration is not None and not r.uses:
        # CR 106.4: "Until end of turn, you don't lose this mana as steps and phases end"
        dur = render(r.duration)
        return dur[:1].upper() + dur[1:] + ", you don't lose this mana as steps and phases end"
    if r.kind == "rider":
        return _rider(r)
    if r.kind != "spend_only" or not r.uses or len(r.joins) != len(r.uses) - 1 or len(r.effect) > 1:
        raise NotRendered(f"ManaRestriction:{r.kind}")
    if r.uses[0].purpose == "pay_x":
        return _spend_on_x(r)
    if r.negated:
        out = "You can't spend this mana " if r.wording == "you_cant_spend_this_mana" else "This mana can't be spent "
    else:
        out = "Spend this mana only "
    for i, use in enumerate(r.uses):
        if i:
            j = r.joins[i - 1]
            if j not in _JOIN_WORDS:
                raise NotRendered("ManaRestriction:join")
            out += j + " " if j.startswith(",") else " " + j + " "
        out += render(use)
    if r.effect:  # ", and that spell can't be countered" (CR 106.6)
        effect = render(r.effect[0])
        out += ", and " + effect[:1].lower() + (effect[1:-1] if effect.endswith(".") else effect[1:])
    return out


#: mana letter → its color word (CR 105.1)
_COLOR_WORDS = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}


def _spend_on_x(r: A.ManaRestriction) -> str:
    """"Spend only black mana on X." (CR 107.3): the one ``pay_x`` use, its one colored symbol."""
    use = r.uses[0]
    syms = use.symbols
    if len(r.uses) != 1 or r.negated or r.effect or r.joins or use.to or use.obj is not None or len(syms) != 1 \
            or syms[0].kind != "colored" or len(syms[0].colors) != 1 or syms[0].colors[0] not in _COLOR_WORDS:
        raise NotRendered("ManaUse:pay_x")
    return f"Spend only {_COLOR_WORDS[syms[0].colors[0]]} mana on X"


#: ManaRestriction.wording → the words that name the mana in a rider (CR 106.6)
_RIDER_WORDINGS = {"that_mana_is_spent": "that mana is spent", "this_mana_is_spent": "this mana is spent",
                   "you_spend_this_mana": "you spend this mana"}


def _rider(r: A.ManaRestriction) -> str:
    """"If that mana is spent on a creature spell, it gains haste until end of turn" / "When you
    spend this mana to cast a Dragon creature spell, scry 2" / "When that mana is spent, create …"
    (CR 106.6, 603.7a): lead, wording, the one use, then the effect sentence (its period is the
    enclosing sentence's)."""
    if r.lead not in A.MANA_RIDER_LEADS or r.wording not in _RIDER_WORDINGS or len(r.uses) > 1 \
            or len(r.effect) != 1 or r.joins:
        raise NotRendered("ManaRestriction:rider")
    out = f"{r.lead.capitalize()} {_RIDER_WORDINGS[r.wording]}"
    if r.uses:
        out += " " + render(r.uses[0])
    effect = render(r.effect[0])
    return out + ", " + (effect[:-1] if effect.endswith(".") else effect)


def _keyword_name(node) -> str:
    from pipeline.parse.lexicon import is_keyword

    if not isinstance(node, A.Keyword) or not is_keyword(node.name):
        raise NotRendered("ManaUse:keyword")
    return node.name


@renders(A.ManaUse)
def render_use(u: A.ManaUse, **_) -> str:
    """One use of restricted mana (CR 106.6): "to cast a creature spell", "activate abilities
    of artifacts", "on costs that contain {X}", "to turn permanents face up"."""
    to = "to " if u.to else ""
    p = u.purpose
    if p in ("cast", "activate") and u.obj is not None and not u.symbols:
        return f"{to}{p} {render(u.obj)}"
    if p == "spent_on" and u.obj is not None and not u.to:
        return f"on {render(u.obj)}"  # a rider's "(that mana is spent) on an instant or sorcery spell"
    if p == "turn_face_up" and u.obj is not None:
        return f"{to}turn {render(u.obj)} face up"
    if p == "cost_contains" and u.obj is None:
        if u.plural and not u.to:
            return "on costs that contain " + symbols(u.symbols)
        if not u.plural:
            return f"{to}pay a cost that contains " + symbols(u.symbols)
    if p == "gain_class_level" and u.obj is None:
        return f"{to}gain a Class level"
    if p == "unlock_door" and u.obj is None:
        return f"{to}unlock doors" if u.plural else f"{to}unlock a door"
    if p == "foretell" and u.obj is not None:
        return f"{to}foretell {render(u.obj)}"
    if p == "activate_keyword" and u.plural and not u.symbols:
        return f"{to}activate {_keyword_name(u.obj)} abilities"
    if p == "pay_keyword_cost" and not u.symbols:
        name = _keyword_name(u.obj)
        return f"{to}pay {name} costs" if u.plural else f"{to}pay {article(name)} {name} cost"
    raise NotRendered(f"ManaUse:{p}")


# --------------------------------------------------------------------------- tapped for mana
@renders_verb("event:tapped_for_mana")
def render_tapped_for_mana(a: A.Action, **_) -> str:
    """CR 106.12a: "[a permanent] is tapped for mana" (a trigger event)."""
    extra_keys(a, set())
    if a.obj is None or a.amount is not None or a.subject is not None:
        raise NotRendered("Action:event:tapped_for_mana")
    return f"{render(a.obj, role='subject')} is tapped for mana"


@renders_verb("event:tap_for_mana")
def render_tap_for_mana(a: A.Action, **_) -> str:
    """CR 106.12: "[a player] taps [a permanent] for mana" (a trigger event)."""
    extra_keys(a, {"objects", "form"})
    objs = a.extra.get("objects") or []
    if a.obj is None or a.amount is not None or len(objs) != 1:
        raise NotRendered("Action:event:tap_for_mana")
    third = not (isinstance(a.obj, A.Obj) and a.obj.quantifier == "you") and not is_plural(a.obj)
    form = a.extra.get("form")
    if form is not None and form != (["tap"] if not third else ["taps"]) and form != ["tap"]:
        raise NotRendered("Action:event:tap_for_mana+form")
    return f"{render(a.obj, role='subject')} {'taps' if third else 'tap'} {render(objs[0])} for mana"


@renders_verb("duration:until_cast_from_exile")
def render_until_cast_from_exile(a: A.Action, **_) -> str:
    """"until ~ is cast from exile" (CR 611.2b, 601.2a): the subject only."""
    if a.extra or a.obj is not None or a.amount is not None or a.subject is None:
        raise NotRendered("Action:duration:until_cast_from_exile")
    return "until " + render(a.subject, role="subject") + " is cast from exile"
