"""Renderers of zone actions (``grammar/zones.lark``): putting objects into a hand or graveyard,
revealing, discarding and shuffling zones, looking at cards, choosing, investigating, emblems
(CR 400–406, 701, 114), and the objects that name a part of a zone ("the top three cards of your
library", "target player's hand"). Structured fields only (docs/ast.md § Rendering): the closed
``extra`` values of :mod:`pipeline.parse.transform_zones`."""

from __future__ import annotations

import copy

from pipeline.parse import ast as A
from pipeline.parse.render import NotRendered, extra_keys, render, renders_verb
from pipeline.parse.render_effects import _for_each_tail, _quoted, instead_tail, subject_verb, times_tail, unless_tail
from pipeline.parse.render_objects import OBJ_FORMS, ZONES, _post, amount_number, is_plural, render_obj

#: whose zone (transform_zones._WHOSE values) → the possessive Oracle writes
WHOSE = {"your": "your", "their": "their", "owner": "its owner's"}
ZONE_NAMES = ("hand", "graveyard", "library")
#: owner of "the top N cards of X library" → words
TOP_OWNERS = {"your": "your", "their": "their", "that_player": "that player's",
              "target_player": "target player's", "each_player": "each player's",
              "target_opponent": "target opponent's", "each_opponent": "each opponent's",
              "an_opponent": "an opponent's"}
# the zone "the top of <owner> library" (transform_zones.z_top_of_named_library: qualifier zone:top_of:<owner>;
# statics.lark's "the top of your library": zone:top_of_library), read by render_objects._post like the
# other zones: "reveal cards from the top of your library" (CR 401.1)
ZONES.update({f"top_of:{k}": f"the top of {v} library" for k, v in {**TOP_OWNERS, "owner": "its owner's"}.items()})
ZONES["top_of_library"] = "the top of your library"
ZONES["each_graveyard"] = "each graveyard"  # CR 404.1 (zones.lark z_each_graveyard)


def _obj(a: A.Action) -> str:
    if a.obj is None:
        raise NotRendered(f"Action:{a.verb}:no_obj")
    return render(a.obj)


def _whose(value) -> str:
    if value not in WHOSE:
        raise NotRendered("zone:whose")
    return WHOSE[value]


# ------------------------------------------------------------------ objects in a zone
def _top_cards(obj: A.Obj, **_) -> str:
    """"the top card of your library", "the top X cards of target player's library" (CR 401.1)."""
    quals = obj.qualifiers
    if obj.quantifier is not None or obj.words or len(quals) < 2 or not quals[1].startswith("of:"):
        raise NotRendered("Obj:top_cards")
    owner, _, zone = quals[1][3:].rpartition("_")
    if owner not in TOP_OWNERS or zone not in ("library", "graveyard"):
        raise NotRendered("Obj:top_cards")
    if obj.count is None:
        head = "the top card"
    else:
        n = amount_number(obj.count)
        head = f"the top {n} card" if n == "one" else f"the top {n} cards"
    tail = [_post(p, ["the"]) for p in quals[2:]]
    return " ".join([head, "of", TOP_OWNERS[owner], zone] + tail)


def _poss_zone(obj: A.Obj, role: str = "object", **_) -> str:
    """"target player's hand", "that player's graveyard", "each opponent's library" (CR 400.1)."""
    zone = obj.qualifiers[0].partition(":")[2]
    if zone not in ZONE_NAMES:
        raise NotRendered("Obj:poss_zone")
    base = A.Obj(obj.quantifier, obj.count, obj.words, "", obj.qualifiers[1:], list(obj.refs))
    return f"{render_obj(base, role=role)}'s {zone}"


def _owner_of(obj: A.Obj, **_) -> str:
    """"the owner of target nonland permanent" (CR 108.3)."""
    if obj.quantifier is not None or obj.words or obj.count is not None or obj.qualifiers != ["owner_of"] \
            or len(obj.refs) != 1 or not isinstance(obj.refs[0], A.Obj):
        raise NotRendered("Obj:owner_of")
    return "the owner of " + render(obj.refs[0])


OBJ_FORMS["top_cards"] = _top_cards
OBJ_FORMS["owner_of"] = _owner_of
OBJ_FORMS["poss_zone"] = _poss_zone


# ------------------------------------------------------------------ actions
@renders_verb("put_into")
def render_put_into(a: A.Action, **_) -> str:
    """"put that card into your hand", "put the rest into your graveyard", "put target creature
    into its owner's graveyard" (CR 400.1: hand, graveyard)."""
    extra_keys(a, {"zone", "owner", "optional", "instead", "other"})
    zone = a.extra.get("zone")
    if zone not in ("hand", "graveyard") or a.amount is not None:
        raise NotRendered("Action:put_into")
    owner = a.extra.get("owner")
    if owner == "their_owners":  # "into their owners' graveyards"
        where, zone = "their owners'", zone + "s"
    else:
        where = {"that_player": "that player's", "their_owner": "their owner's"}.get(owner) or _whose(owner)
    out = f"{subject_verb(a, 'put', 'puts')} {_obj(a)} into {where} {zone}"
    if "other" in a.extra:  # "Put one of them into your hand and the other into your graveyard" (CR 401.4)
        out += " and the other " + _other_place(a.extra["other"])
    return out + instead_tail(a)


def _other_place(other) -> str:
    """Where "the other" card goes: "into your graveyard", "on the bottom of your library", "on top
    of your library" (the ``other`` dict of transform_zones.a_put_into_other)."""
    from pipeline.parse.render_effects import _LIBRARY

    if not isinstance(other, dict):
        raise NotRendered("Action:put_into+other")
    if other.get("zone") == "graveyard" and set(other) == {"zone", "owner"} and other["owner"] in ("your", "their"):
        return f"into {other['owner']} graveyard"
    pos, lib = other.get("position"), other.get("library")
    if set(other) != {"position", "library"} or pos not in ("top", "bottom") or lib not in _LIBRARY:
        raise NotRendered("Action:put_into+other")
    return ("on top of " if pos == "top" else "on the bottom of ") + _LIBRARY[lib]


@renders_verb("put_library_choice")
def render_put_library_choice(a: A.Action, **_) -> str:
    """"its owner puts it on their choice of the top or bottom of their library", "put it on the top or
    bottom of its owner's library" (CR 401.1: the player chooses)."""
    from pipeline.parse.render_effects import _LIBRARY

    extra_keys(a, {"library", "chooser", "the", "optional"})
    lib, chooser = a.extra.get("library"), a.extra.get("chooser")
    if lib not in _LIBRARY or chooser not in (None, "their", "your") or a.amount is not None \
            or (chooser is not None and "the" in a.extra):
        raise NotRendered("Action:put_library_choice")
    where = f"{chooser} choice of the top" if chooser else ("the top" if a.extra.get("the") is True else "top")
    return f"{subject_verb(a, 'put', 'puts')} {_obj(a)} on {where} or bottom of {_LIBRARY[lib]}"


@renders_verb("reveal_hand")
def render_reveal_hand(a: A.Action, **_) -> str:
    """"target opponent reveals their hand" (CR 701.20)."""
    extra_keys(a, {"whose", "optional"})
    if a.obj is not None or a.amount is not None:
        raise NotRendered("Action:reveal_hand")
    return f"{subject_verb(a, 'reveal', 'reveals')} {_whose(a.extra.get('whose'))} hand"


@renders_verb("discard_hand")
def render_discard_hand(a: A.Action, **_) -> str:
    """"each player discards their hand", "discard all the cards in your hand" (CR 701.9)."""
    extra_keys(a, {"whose", "all_cards", "optional"})
    if a.obj is not None or a.amount is not None:
        raise NotRendered("Action:discard_hand")
    hand = f"{_whose(a.extra.get('whose'))} hand"
    if a.extra.get("all_cards") is True:
        hand = "all the cards in " + hand
    return f"{subject_verb(a, 'discard', 'discards')} {hand}"


@renders_verb("shuffle_into")
def render_shuffle_into(a: A.Action, **_) -> str:
    """"shuffle ~ into its owner's library", "target player shuffles their graveyard into their
    library", "each player shuffles their hand and graveyard into their library" (CR 701.24)."""
    extra_keys(a, {"zones", "whose", "library", "optional", "instead"})
    lib = f"{_whose(a.extra.get('library'))} library"
    zones = a.extra.get("zones")
    if a.amount is not None or (zones is None) == (a.obj is None):
        raise NotRendered("Action:shuffle_into")
    if zones is not None:
        if not zones or any(z not in ("hand", "graveyard") for z in zones):
            raise NotRendered("Action:shuffle_into")
        what = f"{_whose(a.extra.get('whose'))} {' and '.join(zones)}"
    else:
        what = _obj(a)
    return f"{subject_verb(a, 'shuffle', 'shuffles')} {what} into {lib}" + instead_tail(a)


@renders_verb("investigate")
def render_investigate(a: A.Action, **_) -> str:
    """"investigate" / "investigate N times" / "investigate twice" (CR 701.16a: create a Clue token)."""
    extra_keys(a, {"optional", "times"})
    if a.amount is not None and "times" in a.extra:
        raise NotRendered("Action:investigate+times")
    if a.obj is not None:
        raise NotRendered("Action:investigate")
    out = subject_verb(a, "investigate", "investigates")
    if a.amount is not None:
        out += f" {amount_number(a.amount, words=False)} times"
    return out + times_tail(a)


@renders_verb("look")
def render_look(a: A.Action, **_) -> str:
    """"look at the top four cards of your library", "look at target player's hand"."""
    extra_keys(a, {"optional"})
    if a.amount is not None:
        raise NotRendered("Action:look")
    return f"{subject_verb(a, 'look', 'looks')} at {_obj(a)}"


@renders_verb("look_any_time")
def render_look_any_time(a: A.Action, **_) -> str:
    """"you may look at the top card of your library any time" (CR 401.2 exception)."""
    extra_keys(a, {"optional"})
    if a.obj is not None or a.amount is not None:
        raise NotRendered("Action:look_any_time")
    return f"{subject_verb(a, 'look', 'looks')} at the top card of your library any time"


@renders_verb("choose")
def render_choose(a: A.Action, **_) -> str:
    """"choose target creature you control", "choose a creature type", "choose a card name"
    (CR 608.2d)."""
    extra_keys(a, {"choice", "optional", "identical"})
    kind = a.extra.get("choice")
    if kind not in ("object", "type", "name") or a.amount is not None:
        raise NotRendered("Action:choose")
    tail = "" if kind == "object" else " " + kind
    if "identical" in a.extra:  # "a creature card name with an identical mana cost" (CR 201.4a, 202.1)
        if kind != "name" or a.extra["identical"] != "mana_cost":
            raise NotRendered("Action:choose:identical")
        tail += " with an identical mana cost"
    return f"{subject_verb(a, 'choose', 'chooses')} {_obj(a)}{tail}"


@renders_verb("emblem")
def render_emblem(a: A.Action, **_) -> str:
    """"you get an emblem with "…"" (CR 114.2: "[Player] gets an emblem with [ability]")."""
    extra_keys(a, {"abilities"})
    abilities = a.extra.get("abilities") or []
    if len(abilities) != 1 or a.obj is not None or a.amount is not None:
        raise NotRendered("Action:emblem")
    return f"{subject_verb(a, 'get', 'gets')} an emblem with {_quoted(abilities[0])}"


@renders_verb("put_back")
def render_put_back(a: A.Action, **_) -> str:
    """"…, then put them back in any order" (the looked-at cards, CR 401.4)."""
    extra_keys(a, {"optional"})
    if a.obj is not None or a.amount is not None:
        raise NotRendered("Action:put_back")
    return f"{subject_verb(a, 'put', 'puts')} them back in any order"


#: battlefield modifiers (transform_zones._take_mods) in the order Oracle writes them
_BF_FLAGS = (("face_down", "face down"), ("transformed", "transformed"))
CONTROL = {"your": "under your control", "owner": "under its owner's control",
           "their_owner": "under their owner's control", "their_owners": "under their owners' control",
           "their": "under their control", "that_player": "under that player's control"}
BF_KEYS = {"tapped", "attacking", "attached_to", "transformed", "face_down", "counters", "control", "control_first"}


def battlefield(a: A.Action) -> str:
    """"the battlefield [face down] [transformed] [tapped [and attacking]] [attached to …]
    [with N counters on it] [under … control]" (or the control first) from the action's battlefield modifiers (CR 110.2, 701.27)."""
    x = a.extra
    parts = ["the battlefield"]
    for key, words in _BF_FLAGS:
        if x.get(key) is True:
            parts.append(words)
    if x.get("tapped") is True:
        parts.append("tapped and attacking" if x.get("attacking") is True else "tapped")
    elif x.get("attacking") is True:
        parts.append("attacking")
    if "attached_to" in x:
        parts.append("attached to " + render(x["attached_to"]))
    if "counters" in x:  # "with a +1/+1 counter on it" (CR 122.6)
        from pipeline.parse.render_counters import counter_word

        c = x["counters"]
        if not isinstance(c, A.CounterSpec):
            raise NotRendered("Action:battlefield:counters")
        on = "on them" if is_plural(a.obj) else "on it"
        if c.additional:  # "an additional +1/+1 counter", "two additional +1/+1 counters"
            n = amount_number(c.amount) if c.amount is not None else "one"
            word = counter_word(c.counter)
            what = f"an additional {word} counter" if n == "one" else f"{n} additional {word} counters"
        else:
            what = render(c)
        parts.append(f"with {what} {on}")
    if "control" in x:
        if x["control"] not in CONTROL:
            raise NotRendered("Action:battlefield:control")
        ctl = CONTROL[x["control"]]
        if x.get("control_first") is True:
            parts.insert(1, ctl)
        else:
            parts.append(ctl)
    return " ".join(parts)


@renders_verb("return")
def render_return(a: A.Action, **_) -> str:
    """"return target creature to its owner's hand", "return all creatures to their owners'
    hands", "return target creature card from your graveyard to the battlefield tapped under
    your control" (CR 400.7)."""
    extra_keys(a, {"zone", "from_zone", "optional", "instead", "unless", "dest_first"} | BF_KEYS)
    dest = a.extra.get("zone")
    if not isinstance(dest, A.Zone) or dest.kind is None or a.amount is not None:
        raise NotRendered("Action:return:destination")
    kind = A.Destination(dest.kind)
    if kind != A.Destination.BATTLEFIELD and BF_KEYS & set(a.extra):
        raise NotRendered("Action:return:destination")
    many = is_plural(a.obj)
    if kind == A.Destination.OWNER_HAND and dest.owner is not None:  # the wording the line used (CR 108.3)
        w = A.OwnerWording(dest.owner)
        hand = f"{A.OWNER_WORDS[w]} " + ("hands" if w == A.OwnerWording.THEIR_OWNERS else "hand")
    else:
        hand = "their owners' hands" if many else "its owner's hand"
    words = {A.Destination.OWNER_HAND: hand,
             A.Destination.YOUR_HAND: "your hand", A.Destination.THEIR_HAND: "their hand",
             A.Destination.OWNER_LIBRARY_TOP: "the top of its owner's library"}.get(kind)
    if kind == A.Destination.BATTLEFIELD:
        words = battlefield(a)
    if words is None:
        raise NotRendered("Action:return:destination")
    src = ""
    if "from_zone" in a.extra:
        if a.extra["from_zone"] not in ZONES:
            raise NotRendered("Action:return:from")
        src = " from " + ZONES[a.extra["from_zone"]]
    if a.extra.get("dest_first") is True:  # "Return to your hand all creature cards in your graveyard …"
        if src or BF_KEYS & set(a.extra):
            raise NotRendered("Action:return:dest_first")
        return f"{subject_verb(a, 'return', 'returns')} to {words} {_obj(a)}" + unless_tail(a) + instead_tail(a)
    # "return this creature to its owner's hand unless you remove two oil counters from it" (CR 118.12a)
    return f"{subject_verb(a, 'return', 'returns')} {_obj(a)}{src} to {words}" + unless_tail(a) + instead_tail(a)


@renders_verb("put_onto_battlefield")
def render_put_onto_battlefield(a: A.Action, **_) -> str:
    """"you may put a creature card from your hand onto the battlefield", "put it onto the
    battlefield tapped under your control" (CR 305.1, 400.7)."""
    extra_keys(a, {"optional", "instead", "other"} | BF_KEYS)
    if "other" in a.extra:  # "put one onto the battlefield tapped and the other into your hand"
        other = a.extra["other"]
        if a.obj is not None or a.amount is None or not isinstance(other, dict) or set(other) != {"zone", "owner"} \
                or other["zone"] not in ("hand", "graveyard") or other["owner"] not in ("your", "their"):
            raise NotRendered("Action:put_onto_battlefield+other")
        return (f"{subject_verb(a, 'put', 'puts')} {amount_number(a.amount)} onto {battlefield(a)} and the other "
                f"into {other['owner']} {other['zone']}")
    if a.amount is not None:
        raise NotRendered("Action:put_onto_battlefield")
    return f"{subject_verb(a, 'put', 'puts')} {_obj(a)} onto {battlefield(a)}" + instead_tail(a)


@renders_verb("exile")
def render_exile(a: A.Action, **_) -> str:
    """"exile target creature", "exile it instead" (CR 614.1a), "… instead of putting it into its
    owner's graveyard", "exile target artifact until ~ leaves the battlefield" (CR 610.3),
    "sacrifice … unless …" riders (CR 701.13)."""
    extra_keys(a, {"optional", "unless", "instead", "instead_of", "duration", "face_down"})
    if a.amount is not None:
        raise NotRendered("Action:exile+amount")
    out = f"{subject_verb(a, 'exile', 'exiles')} {_obj(a)}"
    if a.extra.get("face_down") is True:
        out += " face down"
    if "duration" in a.extra:
        out += " " + render(a.extra["duration"])
    if a.extra.get("instead") is True:
        out += " instead"
        if a.extra.get("instead_of") == "graveyard":
            many = is_plural(a.obj)
            out += " of putting " + ("them into their owners' graveyards" if many else "it into its owner's graveyard")
        elif a.extra.get("instead_of") == "anywhere":  # CR 614.1a: "… instead of putting it anywhere else"
            out += " of putting " + ("them" if is_plural(a.obj) else "it") + " anywhere else"
        elif "instead_of" in a.extra:
            raise NotRendered("Action:exile+instead_of")
    elif "instead_of" in a.extra:
        raise NotRendered("Action:exile+instead_of")
    if "unless" in a.extra:
        out += " unless " + render(a.extra["unless"])
    return out


@renders_verb("duration:until_leaves_battlefield")
def render_until_leaves(a: A.Action, **_) -> str:
    """"until ~ leaves the battlefield" (CR 610.3: the one-shot effect ends when ~ leaves)."""
    extra_keys(a, set())
    if a.subject is not None or a.amount is not None or not isinstance(a.obj, A.Obj) or a.obj.quantifier != "self":
        raise NotRendered("Action:duration:until_leaves_battlefield")
    return f"until {render(a.obj)} leaves the battlefield"


@renders_verb("may_play")
def render_may_play(a: A.Action, **_) -> str:
    """"you may play lands from your graveyard", "you may cast that card this turn" (CR 305.1,
    601.2a)."""
    extra_keys(a, {"play", "duration", "optional", "zone_shared"})
    verb = a.extra.get("play")
    if verb not in ("play", "cast") or a.amount is not None:
        raise NotRendered("Action:may_play")
    obj = _obj(a)
    if a.extra.get("zone_shared") is True:  # "play lands and cast spells from …": the zone is written after the spells
        bare = copy.copy(a.obj)
        bare.qualifiers = [q for q in a.obj.qualifiers if not (isinstance(q, str) and q.startswith("zone:"))]
        obj = render(bare)
    out = f"{subject_verb(a, verb, verb + 's')} {obj}"
    if "duration" in a.extra:
        out += " " + render(a.extra["duration"])
    return out


@renders_verb("cast", "cast_free")
def render_cast(a: A.Action, **_) -> str:
    """"you may cast it", "cast a spell with mana value 3 or less from your hand without paying
    its mana cost" (CR 118.9: an alternative cost of zero)."""
    extra_keys(a, {"optional"})
    if a.amount is not None:
        raise NotRendered(f"Action:{a.verb}")
    out = f"{subject_verb(a, 'cast', 'casts')} {_obj(a)}"
    if a.verb == "cast_free":
        out += " without paying " + ("their mana costs" if is_plural(a.obj) or _any_number(a.obj) else "its mana cost")
    return out


def _any_number(obj) -> bool:
    return isinstance(obj, A.Obj) and (obj.quantifier == "any_number" or "any_number" in obj.qualifiers[:1])


@renders_verb("counter_unless")
def render_counter_unless(a: A.Action, **_) -> str:
    """"counter target spell unless its controller pays {3}" (CR 701.6, 118.12)."""
    from pipeline.parse.render_mana import symbols

    extra_keys(a, {"mana", "optional", "for_each"})
    if not a.extra.get("mana") or a.amount is not None:
        raise NotRendered("Action:counter_unless")
    # "… unless its controller pays {1} for each card in your hand"
    return (f"{subject_verb(a, 'counter', 'counters')} {_obj(a)} unless its controller pays {symbols(a.extra['mana'])}"
            + _for_each_tail(a))
