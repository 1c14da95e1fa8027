"""Renderers of counters (``grammar/counters.lark``, CR 122): putting, removing, getting and
distributing counters, proliferate (CR 701.34), and the enters-with-counters replacement
(:class:`EntersWith`, CR 614.1c, 122.6).

A counter kind is written only when it is in the closed lexicon of
:func:`pipeline.parse.lexicon.is_counter_kind` (P/T counters CR 122.1a, keyword counters
CR 122.1b, the kinds the CR names); any other kind ("mire", "storage") is a free word and the
line does not round-trip (shape ``counter_kind``).
"""

from __future__ import annotations

from pipeline.parse import ast as A
from pipeline.parse.lexicon import is_counter_kind
from pipeline.parse.render import NotRendered, extra_keys, render, renders, renders_verb
from pipeline.parse.render_objects import amount_number, article, for_each_phrase, is_plural, number_word, quantity


def counter_word(kind: str | None) -> str:
    """The counter kind as Oracle writes it ("+1/+1", "-1/-1", "charge", "flying"); raises
    NotRendered("counter_kind") for a kind outside the closed lexicon (CR 122.1)."""
    if not kind or not is_counter_kind(kind.lower()):
        raise NotRendered("counter_kind")
    return kind.upper() if kind[:1] in "+-" else kind.lower()


def counters(amount: A.Amount | None, kind: str | None) -> str:
    """"a +1/+1 counter", "an oil counter", "two -1/-1 counters", "X charge counters", "that many
    lore counters", "up to three counters", "any number of +1/+1 counters" (CR 107.1: counts of
    counters in words); kind ``""`` is a counter of any kind ("a counter", CR 122.1)."""
    word = "" if kind == "" else counter_word(kind) + " "
    if amount is not None and amount.kind == "fixed" and amount.value == 1 and amount.ref is None:
        return f"{article(word or 'counter')} {word}counter"
    if amount is not None and amount.kind == "up_to" and amount.ref is None:
        n = amount.variable or (number_word(amount.value) if amount.value is not None else None)
        if n is None:
            raise NotRendered("Amount:up_to")
        return f"up to {n} {word}counters"
    if amount is not None and amount.kind == "any" and amount.ref is None:
        return f"any number of {word}counters"
    return f"{amount_number(amount)} {word}counters"


def counter_list(specs: list) -> str:
    """"a +1/+1 counter and a trample counter", "a +1/+1 counter, a reach counter, and a
    deathtouch counter" (CR 122.1: one CounterSpec per kind)."""
    if len(specs) < 2 or not all(isinstance(c, A.CounterSpec) and not c.additional for c in specs):
        raise NotRendered("CounterSpec:list")
    parts = [counters(c.amount, c.counter) for c in specs]
    return " and ".join(parts) if len(parts) == 2 else ", ".join(parts[:-1]) + ", and " + parts[-1]


def counter_choice(a: A.Action) -> str:
    """The kinds of ``extra.choice`` joined by "or" (CR 122.1): "your choice of a vigilance counter, a reach
    counter, or a trample counter", "a +1/+1 counter or a loyalty counter", "your choice of a menace,
    trample, or lifelink counter" (``shared_noun``: one counter, the kinds before one noun)."""
    specs = a.extra.get("choice")
    if not isinstance(specs, list) or len(specs) < 2 or not all(
            isinstance(c, A.CounterSpec) and not c.additional for c in specs):
        raise NotRendered("CounterSpec:choice")
    chooser = a.extra.get("chooser")
    if chooser not in (None, "your") or (chooser is None and "shared_noun" in a.extra):
        raise NotRendered("CounterSpec:choice")
    if a.extra.get("shared_noun") is True:
        amt = specs[0].amount
        if not (amt is not None and amt.kind == "fixed" and amt.value == 1) or len(specs) < 3:
            raise NotRendered("CounterSpec:choice")
        words = [counter_word(c.counter) for c in specs]
        parts = ", ".join(words[:-1]) + ", or " + words[-1]
        body = f"{article(words[0])} {parts} counter"
    else:
        parts = [counters(c.amount, c.counter) for c in specs]
        body = " or ".join(parts) if len(parts) == 2 else ", ".join(parts[:-1]) + ", or " + parts[-1]
    return ("your choice of " if chooser == "your" else "") + body


def _subject_verb(a: A.Action, base: str, third: str) -> str:
    from pipeline.parse.render_effects import subject_verb

    return subject_verb(a, base, third)


def counted_counters(ref: A.Node) -> str:
    """What "for each …" counts when it counts counters (CR 122.1, 107.1): "-1/-1 counter on ~", "+1/+1
    counter among other creatures you control" (``extra.among``), "counter removed this way"
    (``quantity:counters_removed``, CR 118.3); any other ref as :func:`render_objects.for_each_phrase`."""
    if isinstance(ref, A.Action) and ref.verb == "quantity:counters_removed":
        extra_keys(ref, {"counter"})
        if ref.obj is not None or ref.subject is not None or ref.amount is not None:
            raise NotRendered("Action:quantity:counters_removed")
        kind = ref.extra.get("counter")
        return f"{counter_word(kind) + ' ' if kind else ''}counter removed this way"
    if isinstance(ref, A.Action) and ref.verb == "quantity:counters" and ref.extra.get("among") is True:
        if set(ref.extra) != {"counter", "among"} or not isinstance(ref.obj, A.Obj) or ref.subject is not None \
                or ref.amount is not None:
            raise NotRendered("Action:quantity:counters+among")
        kind = ref.extra["counter"]
        return f"{counter_word(kind) + ' ' if kind else ''}counter among {render(ref.obj)}"
    return for_each_phrase(ref)


@renders_verb("quantity:counters_removed")
def render_counters_removed(a: A.Action, **_) -> str:
    """"the number of charge counters removed this way" (a quantity, CR 107.1; the counters a cost removed,
    CR 118.3)."""
    extra_keys(a, {"counter"})
    if a.obj is not None or a.subject is not None or a.amount is not None:
        raise NotRendered("Action:quantity:counters_removed")
    kind = a.extra.get("counter")
    return f"the number of {counter_word(kind) + ' ' if kind else ''}counters removed this way"


def _tail(a: A.Action) -> str:
    """The riders a counter action may carry after its object: "for each …" (an Obj counted,
    CR 107.1), "instead" (CR 614.1a), a duration (CR 611.2b)."""
    out = ""
    if "for_each" in a.extra:
        out += " for each " + counted_counters(a.extra["for_each"])  # an Obj, or counters (quantity:counters)
    if a.extra.get("instead") is True:
        out += " instead"
    if "duration" in a.extra:
        out += " " + render(a.extra["duration"])
    return out


@renders_verb("put_counters")
def render_put_counters(a: A.Action, **_) -> str:
    """"put a +1/+1 counter on target creature", "you may put a charge counter on ~", "put a
    number of +1/+1 counters on it equal to its power", "put a +1/+1 counter on each creature you
    control for each …" (CR 122.6)."""
    extra_keys(a, {"counter", "optional", "for_each", "instead", "duration", "counters", "also", "those",
                   "equal_first", "choice", "chooser", "shared_noun"})
    if a.obj is None:
        raise NotRendered("Action:put_counters:no_obj")
    verb = _subject_verb(a, "put", "puts")
    if "choice" in a.extra:  # "put your choice of a vigilance counter or a reach counter on it" (CR 122.1)
        if a.amount is not None or set(a.extra) - {"choice", "chooser", "shared_noun", "optional"}:
            raise NotRendered("Action:put_counters+choice")
        return f"{verb} {counter_choice(a)} on {render(a.obj)}"
    if {"chooser", "shared_noun"} & set(a.extra):
        raise NotRendered("Action:put_counters+choice")
    if "those" in a.extra:  # "put its counters on …", "put those +1/+1 counters on ~" (CR 122.1)
        kind = a.extra.get("counter")
        if a.extra["those"] not in ("its", "those") or a.amount is not None or set(a.extra) - {"counter", "those", "optional"}:
            raise NotRendered("Action:put_counters+those")
        word = counter_word(kind) + " " if kind else ""
        return f"{verb} {a.extra['those']} {word}counters on {render(a.obj)}"
    if a.extra.get("equal_first") is True:  # "put a number of +1/+1 counters equal to its power on ~"
        if a.amount is None or a.amount.kind != "equal_to" or set(a.extra) - {"counter", "equal_first", "optional"}:
            raise NotRendered("Action:put_counters+equal_first")
        return f"{verb} a number of {counter_word(a.extra.get('counter'))} counters equal to {quantity(a.amount)} on {render(a.obj)}"
    if "equal_first" in a.extra:
        raise NotRendered("Action:put_counters+equal_first")
    also = a.extra.get("also")
    if also is not None:  # "… on it and a +1/+1 counter on up to one other target creature"
        if not isinstance(also, A.Action) or also.verb != "put_counters" or set(also.extra) != {"counter"} \
                or also.subject is not None or set(a.extra) - {"counter", "optional", "also"}:
            raise NotRendered("Action:put_counters+also")
        return (f"{verb} {counters(a.amount, a.extra.get('counter'))} on {render(a.obj)} and "
                f"{counters(also.amount, also.extra['counter'])} on {render(also.obj)}")
    if "counters" in a.extra:  # several kinds (CR 122.1)
        if "counter" in a.extra or a.amount is not None:
            raise NotRendered("Action:put_counters:list")
        return f"{verb} {counter_list(a.extra['counters'])} on {render(a.obj)}{_tail(a)}"
    if a.amount is not None and a.amount.kind == "equal_to":
        word = counter_word(a.extra.get("counter"))
        return (f"{verb} a number of {word} counters on {render(a.obj)} equal to {quantity(a.amount)}"
                + _tail(a))
    return f"{verb} {counters(a.amount, a.extra.get('counter'))} on {render(a.obj)}{_tail(a)}"


@renders_verb("remove_counters")
def render_remove_counters(a: A.Action, **_) -> str:
    """"remove a +1/+1 counter from target creature" (CR 122)."""
    extra_keys(a, {"counter", "optional", "instead", "those"})
    if "those" in a.extra:  # "remove those counters", "remove them all", "remove all of them" (CR 122.1)
        kind = a.extra.get("counter")
        which = a.extra["those"]
        if a.obj is not None or a.amount is not None or which not in ("those", "all_of_them", "them_all", "them") \
                or (kind and which != "those"):
            raise NotRendered("Action:remove_counters+those")
        what = {"those": f"those {counter_word(kind) + ' ' if kind else ''}counters", "all_of_them": "all of them",
                "them_all": "them all", "them": "them"}[which]
        return f"{_subject_verb(a, 'remove', 'removes')} {what}" + _instead(a)
    if a.obj is None:
        raise NotRendered("Action:remove_counters:no_obj")
    # "… remove that many eyestalk counters from it instead" (CR 614.1a)
    return (f"{_subject_verb(a, 'remove', 'removes')} {counters(a.amount, a.extra.get('counter'))} from {render(a.obj)}"
            + _instead(a))


def _instead(a: A.Action) -> str:
    from pipeline.parse.render_effects import instead_tail

    return instead_tail(a)


@renders_verb("remove_all_counters")
def render_remove_all_counters(a: A.Action, **_) -> str:
    """"remove all counters from target permanent", "remove all -1/-1 counters from it" (CR 122.1)."""
    extra_keys(a, {"optional", "counter"})
    if a.obj is None or a.amount is not None:
        raise NotRendered("Action:remove_all_counters")
    kind = counter_word(a.extra["counter"]) + " " if "counter" in a.extra else ""
    return f"{_subject_verb(a, 'remove', 'removes')} all {kind}counters from {render(a.obj)}"


@renders_verb("move_counters")
def render_move_counters(a: A.Action, **_) -> str:
    """CR 122.5: "move a +1/+1 counter from target creature you control onto ~", "move any number
    of counters from target permanent onto a second target permanent"."""
    extra_keys(a, {"optional", "counter", "onto"})
    if a.obj is None or not isinstance(a.extra.get("onto"), A.Node):
        raise NotRendered("Action:move_counters")
    if a.amount is not None and a.amount.kind == "all" and a.amount.ref is None:  # "move all counters from …"
        kind = a.extra.get("counter")
        what = f"all {counter_word(kind) + ' ' if kind else ''}counters"
    else:
        what = counters(a.amount, a.extra.get("counter"))
    return f"{_subject_verb(a, 'move', 'moves')} {what} from {render(a.obj)} onto {render(a.extra['onto'])}"


@renders_verb("get_counters")
def render_get_counters(a: A.Action, **_) -> str:
    """"each opponent gets two poison counters", "you get an experience counter" (CR 122.1f)."""
    extra_keys(a, {"counter", "optional"})
    if a.obj is not None:
        raise NotRendered("Action:get_counters+obj")
    return f"{_subject_verb(a, 'get', 'gets')} {counters(a.amount, a.extra.get('counter'))}"


@renders_verb("distribute_counters")
def render_distribute_counters(a: A.Action, **_) -> str:
    """"distribute two -1/-1 counters among one or two target creatures" (CR 601.2d)."""
    extra_keys(a, {"counter", "optional"})
    if a.obj is None:
        raise NotRendered("Action:distribute_counters:no_obj")
    return f"{_subject_verb(a, 'distribute', 'distributes')} {counters(a.amount, a.extra.get('counter'))} among {render(a.obj)}"


@renders_verb("proliferate")
def render_proliferate(a: A.Action, **_) -> str:
    """"proliferate" (CR 701.34), "you may proliferate"."""
    extra_keys(a, {"optional"})
    if a.obj is not None or a.amount is not None:
        raise NotRendered("Action:proliferate")
    return _subject_verb(a, "proliferate", "proliferates")


@renders(A.CounterSpec)
def render_counter_spec(c: A.CounterSpec, **_) -> str:
    """"two +1/+1 counters"; a for-each amount ("a +1/+1 counter … for each …") is written by
    its holder."""
    return counters(c.amount, c.counter)


@renders(A.EntersWith)
def render_enters_with(e: A.EntersWith, **_) -> str:
    """"~ enters with X +1/+1 counters on it", "~ enters tapped with two charge counters on it",
    "Creatures you control enter with an additional +1/+1 counter on them", "~ enters with a
    +1/+1 counter on it for each …" (CR 614.1c, 122.6)."""
    subj = e.subject
    if not isinstance(subj, A.Obj) or (subj.quantifier is None and not subj.words):
        raise NotRendered("EntersWith:subject")
    if not e.counters:
        raise NotRendered("EntersWith")
    plural = is_plural(subj)
    specs, tails = [], []
    for c in e.counters:
        amt = c.amount
        if c.additional and (amt is None or amt.kind != "fixed"):
            raise NotRendered("EntersWith:additional")
        if amt is not None and amt.kind == "for_each":  # CR 107.1: N per counted object
            specs.append(counters(A.Amount("fixed", value=amt.value if amt.value is not None else 1), c.counter))
            tails.append(" for each " + counted_counters(amt.ref))
        elif amt is not None and amt.kind == "equal_to":
            specs.append(f"a number of {counter_word(c.counter)} counters")
            tails.append(" equal to " + quantity(amt))
        elif c.additional:  # "an additional +1/+1 counter" (CR 122.6)
            word = counter_word(c.counter)
            n = amount_number(amt)
            specs.append(f"an additional {word} counter" if n == "one" else f"{n} additional {word} counters")
            tails.append("")
        else:
            specs.append(counters(amt, c.counter))
            tails.append("")
    if len(specs) != 1 and any(tails):
        raise NotRendered("EntersWith")
    what = specs[0] if len(specs) == 1 else " and ".join(specs) if len(specs) == 2 \
        else ", ".join(specs[:-1]) + ", and " + specs[-1]
    verb = "enter" if plural else "enters"
    tapped = " tapped" if e.tapped else ""
    on = "them" if plural else "it"
    return f"{render(subj, role='subject')} {verb}{tapped} with {what} on {on}{tails[0] if len(tails) == 1 else ''}"


@renders_verb("quantity:counters")
def render_counter_quantity(a: A.Action, **_) -> str:
    """"the number of +1/+1 counters on ~" (a quantity, CR 107.1)."""
    extra_keys(a, {"counter"})
    if a.obj is None or a.subject is not None or a.amount is not None:
        raise NotRendered("Action:quantity:counters")
    kind = a.extra.get("counter")  # "" : "the number of counters on that creature" (any kind, CR 122.1)
    return f"the number of {counter_word(kind) + ' ' if kind else ''}counters on {render(a.obj)}"


@renders_verb("get_energy", "pay_energy")
def render_energy(a: A.Action, **_) -> str:
    """"you get {E}{E}", "you may pay {E}{E}{E}" (CR 107.14: each {E} is one energy counter)."""
    extra_keys(a, {"optional"})
    n = a.amount.value if a.amount is not None and a.amount.kind == "fixed" else None
    if not isinstance(n, int) or n < 1 or a.obj is not None:
        raise NotRendered(f"Action:{a.verb}")
    base = "get" if a.verb == "get_energy" else "pay"
    return f"{_subject_verb(a, base, base + 's')} " + "{E}" * n


def _compared(a: A.Action) -> str:
    """"three or more +1/+1 counters", "one or more +1/+1 counters", "a +1/+1 counter": a count of
    counters with its comparison (``extra["comparison"]``, CR 122)."""
    kind = counter_word(a.extra.get("counter"))
    cmp = a.extra.get("comparison")
    if cmp is None:
        return counters(a.amount, a.extra.get("counter"))
    tail = {">=": "or more", "<=": "or fewer"}.get(getattr(cmp, "comparator", None))
    if tail is None or a.amount is None or a.amount.kind != "fixed":
        raise NotRendered(f"Action:{a.verb}+comparison")
    return f"{amount_number(a.amount)} {tail} {kind} counters"


@renders_verb("pump_for_each_counter")
def render_pump_for_each_counter(a: A.Action, **_) -> str:
    """"Creatures you control get +1/+1 for each unity counter on ~" (CR 613.4c, 122)."""
    from pipeline.parse.render_effects import _PT

    extra_keys(a, {"pt", "counter", "duration"})
    pt = a.extra.get("pt")
    if a.subject is None or a.obj is None or a.amount is not None or not isinstance(pt, str) or not _PT.match(pt):
        raise NotRendered("Action:pump_for_each_counter")
    kind = a.extra.get("counter")  # "" : "for each counter on ~" (any kind, CR 122.1)
    out = f"{_subject_verb(a, 'get', 'gets')} {pt} for each {counter_word(kind) + ' ' if kind else ''}counter on {render(a.obj)}"
    if "duration" in a.extra:
        out += " " + render(a.extra["duration"])
    return out


@renders_verb("condition:has_counter")
def render_has_counter(a: A.Action, **_) -> str:
    """"it has a +1/+1 counter on it", "~ has seven or more quest counters on it" (CR 122)."""
    extra_keys(a, {"counter", "comparison"})
    if a.obj is None or a.subject is not None:
        raise NotRendered("Action:condition:has_counter")
    return f"{render(a.obj, role='subject')} has {_compared(a)} on it"


@renders_verb("event:counter_put")
def render_counter_put(a: A.Action, **_) -> str:
    """"one or more +1/+1 counters are put on another creature you control", "a +1/+1 counter is
    put on ~" (CR 122.6)."""
    extra_keys(a, {"counter", "comparison"})
    if a.obj is None or a.subject is not None:
        raise NotRendered("Action:event:counter_put")
    many = "comparison" in a.extra or not (a.amount is not None and a.amount.kind == "fixed" and a.amount.value == 1)
    return f"{_compared(a)} {'are' if many else 'is'} put on {render(a.obj)}"


@renders_verb("double_counters")
def render_double_counters(a: A.Action, **_) -> str:
    """"double the number of +1/+1 counters on each creature you control", "double the number of
    each kind of counter on target permanent" (CR 701.10e)."""
    extra_keys(a, {"counter", "optional"})
    if a.obj is None or a.amount is not None:
        raise NotRendered("Action:double_counters")
    kind = a.extra.get("counter")
    what = "each kind of counter" if kind == "each_kind" else f"{counter_word(kind)} counters"
    return f"{_subject_verb(a, 'double', 'doubles')} the number of {what} on {render(a.obj)}"


@renders_verb("enters_with_counters_and_abilities")
def render_enters_with_and(a: A.Action, **_) -> str:
    """"it enters with two +1/+1 counters on it and with first strike" (kicker riders: CR 614.1c
    enters-with replacement, 122.6 counters on a permanent entering; the abilities, CR 613.1f, as
    keywords by name or quoted abilities)."""
    from pipeline.parse.render_effects import ability_list

    extra_keys(a, {"enters_with", "abilities"})
    ew, abilities = a.extra.get("enters_with"), a.extra.get("abilities") or []
    if not isinstance(ew, A.EntersWith) or len(ew.counters) != 1 or ew.tapped or not isinstance(a.subject, A.Obj) \
            or is_plural(a.subject) or a.obj is not None or a.amount is not None:
        raise NotRendered("Action:enters_with_counters_and_abilities")
    c = ew.counters[0]
    if not isinstance(c, A.CounterSpec) or c.additional:
        raise NotRendered("Action:enters_with_counters_and_abilities")
    return (f"{render(a.subject, role='subject')} enters with {counters(c.amount, c.counter)} on it and with "
            f"{ability_list(abilities)}")


def with_counter_phrase(name: str, arg: str) -> str:
    """An object's counters (CR 122.1), from its qualifier ``with_counter:<n>:<kind>:<it|them>`` /
    ``without_counter:…``: "with a +1/+1 counter on it", "with a counter on it", "with two time counters
    on them", "with +1/+1 counters on them" (n ``some``), "with counters on it", "with no counters on
    it" (``no``), "with one or more counters on it" (``one_or_more``), "without a fate counter on it"."""
    n, _, rest = arg.partition(":")
    kind, _, pronoun = rest.partition(":")
    if pronoun not in ("it", "them"):
        raise NotRendered(f"Obj:post={name}")
    word = counter_word(kind) + " " if kind else ""
    head = "without" if name == "without_counter" else "with"
    if n in ("some", "no", "one_or_more"):
        if name != "with_counter":
            raise NotRendered(f"Obj:post={name}")
        lead = {"some": "", "no": "no ", "one_or_more": "one or more "}[n]
        return f"with {lead}{word}counters on {pronoun}"
    if not kind:
        if n != "1":
            raise NotRendered(f"Obj:post={name}")
        return f"{head} a counter on {pronoun}"
    amount = A.Amount("fixed", value=int(n)) if n.isdigit() else A.Amount("x", variable=n) if n == "X" else None
    if amount is None or (name == "without_counter" and n != "1"):
        raise NotRendered(f"Obj:post={name}")
    return f"{head} {counters(amount, kind)} on {pronoun}"
