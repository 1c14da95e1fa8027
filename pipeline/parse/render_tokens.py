"""Renderer of token creation (``grammar/tokens.lark``): :class:`CreateToken` (CR 111).

"create [count] [tapped] [P/T] [colors] [types] token(s) [with abilities] [that's tapped and
attacking]" — the order of CR 111.4's characteristics as Oracle writes them; descriptor words from
the closed lexicons (colors CR 105, types CR 205), "and" between two colors; keywords by name and
any other ability in quotes (CR 113.1a); predefined tokens by name (CR 111.10).
"""

from __future__ import annotations

import re

from pipeline.parse import ast as A
from pipeline.parse.lexicon import COLORS, is_object_word
from pipeline.parse.render import NotRendered, render, renders
from pipeline.parse.render_effects import _quoted
from pipeline.parse.render_mana import _for_each_ref as for_each_ref
from pipeline.parse.render_objects import amount_number, counted, is_plural, quantity

_TOKEN_PT = re.compile(r"^(?:\d+|X|\*)/(?:\d+|X|\*)$")


def _descriptor(t: A.CreateToken) -> str:
    """"1/1 black and green Worm creature", "Treasure"."""
    if t.token_name is not None:
        if t.pt is not None:
            raise NotRendered("CreateToken")
        return t.token_name
    words = list(t.words)
    if not words or (t.pt is None and "creature" in [w.lower() for w in words] and not _defines_pt(t)):
        raise NotRendered("CreateToken")
    if t.pt is not None and not _TOKEN_PT.match(t.pt):
        raise NotRendered("CreateToken:pt")
    for i, w in enumerate(words):
        low = w.lower()
        if low == "and":  # "black and green": between two colors only (CR 105.1)
            if not (0 < i < len(words) - 1 and words[i - 1].lower() in COLORS and words[i + 1].lower() in COLORS):
                raise NotRendered("CreateToken:word")
        elif not is_object_word(low):
            raise NotRendered("CreateToken:word")
    return " ".join(([t.pt] if t.pt else []) + words)


def _defines_pt(t: A.CreateToken) -> bool:
    """True when one of the token's abilities is a characteristic-defining ability setting its power
    and/or toughness ("This token's power and toughness are each equal to …", CR 604.3): a creature
    token written without a P/T then has one (CR 111.4); any other creature token without one lost it."""
    return any(isinstance(a, A.Static) and any(isinstance(n, A.Action) and n.verb == "characteristic"
                                               for n in a.walk()) for a in t.abilities)


def _abilities(t: A.CreateToken) -> str:
    items = [render(k) if isinstance(k, A.Keyword) else _quoted(k) for k in t.abilities]
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return f"{items[0]} and {items[1]}"
    return ", ".join(items[:-1]) + f", and {items[-1]}"


@renders(A.CreateToken)
def render_create(t: A.CreateToken, **_) -> str:
    """"create a Treasure token", "create two 1/1 white Soldier creature tokens with flying",
    "create a tapped Powerstone token", "… token that's tapped and attacking" (CR 111.4, 508.4);
    "create a number of … tokens equal to …", "create a … token for each …" (CR 107.1)."""
    if t.those:  # "create two of those tokens [instead]" (CR 608.2c)
        if t.tapped or t.attacking or t.abilities or t.attached_to is not None or t.words or t.pt or t.token_name:
            raise NotRendered("CreateToken:those")
        out = _creator(t) + " " + amount_number(t.count) + " of those tokens"
        return out + (" instead" if t.instead else "")
    desc = _descriptor(t)
    if t.tapped and not t.attacking:
        desc = "tapped " + desc
    cnt = t.count
    if cnt is not None and cnt.kind == "equal_to":
        head, plural = f"a number of {desc} tokens", True
    elif cnt is not None and cnt.kind == "for_each":
        head, plural = f"{counted(A.Amount('fixed', value=1), desc + ' token', '')}", False
    else:
        head = counted(cnt, f"{desc} token", f"{desc} tokens")
        plural = not (cnt is not None and cnt.kind == "fixed" and cnt.value == 1)
    out = _creator(t) + " " + head
    if t.abilities:
        out += " with " + _abilities(t)
    if t.attached_to is not None:  # CR 303.4f: the Aura token enters attached to it
        out += " attached to " + render(t.attached_to)
    if t.attacking:
        if not t.tapped:
            raise NotRendered("CreateToken:attacking")
        out += " that are tapped and attacking" if plural else " that's tapped and attacking"
        if t.attacking_whom is not None:  # CR 508.4: "… attacking that opponent"
            out += " " + render(t.attacking_whom)
    elif t.attacking_whom is not None:
        raise NotRendered("CreateToken:attacking_whom")
    if cnt is not None and cnt.kind == "equal_to":
        out += " equal to " + quantity(cnt)
    elif cnt is not None and cnt.kind == "for_each":
        if not isinstance(cnt.ref, A.Obj):
            raise NotRendered("CreateToken:for_each")
        out += " for each " + for_each_ref(cnt.ref)  # an object, or counters of a kind (CR 122.1)
    return out + (" instead" if t.instead else "")


def _creator(t: A.CreateToken) -> str:
    """"create", "you may create", "its controller creates" (the player who creates the token
    owns and controls it, CR 111.2)."""
    if t.subject is None:
        if t.optional:
            raise NotRendered("CreateToken:optional_without_subject")
        return "create"
    who = render(t.subject, role="subject")
    verb = "create" if who == "you" or is_plural(t.subject) else "creates"
    return f"{who} {'may create' if t.optional else verb}"
