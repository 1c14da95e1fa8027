"""Renderers of MTG Arena's digital-only actions (``grammar/digital.lark``, not in the CR): seek,
draft from a spellbook, conjure a duplicate, get a boon. "Perpetually" is written by
:func:`pipeline.parse.render_effects.subject_verb` (Actions) and ``render_grant`` (grants)."""

from __future__ import annotations

from pipeline.parse import ast as A
from pipeline.parse.render import NotRendered, extra_keys, renders_verb
from pipeline.parse.render_effects import CLAUSE_KEYS, _obj, _quoted, subject_verb
from pipeline.parse.render_objects import BASES, counted
from pipeline.parse.transform_digital import BOON_TIMES


@renders_verb("seek")
def render_seek(a: A.Action, **_) -> str:
    """"seek a nonland card", "that player seeks two creature cards"."""
    extra_keys(a, CLAUSE_KEYS)
    if a.amount is not None:
        raise NotRendered("Action:seek")
    return f"{subject_verb(a, 'seek', 'seeks')} {_obj(a)}"


@renders_verb("draft_spellbook")
def render_draft_spellbook(a: A.Action, **_) -> str:
    """"draft a card from ~'s spellbook"."""
    extra_keys(a, CLAUSE_KEYS)
    if a.obj is not None:
        raise NotRendered("Action:draft_spellbook")
    return f"{subject_verb(a, 'draft', 'drafts')} {counted(a.amount, 'card', 'cards')} from ~'s spellbook"


_CONJURE_ZONES = {"exile": "into exile", "battlefield": "onto the battlefield"}


def _conjure_zone(a: A.Action) -> str:
    zone, owner = a.extra.get("zone"), a.extra.get("owner")
    if zone in _CONJURE_ZONES and owner is None:
        return _CONJURE_ZONES[zone]
    if zone in ("hand", "graveyard", "library") and owner in ("your", "their"):
        return f"into {owner} {zone}"
    raise NotRendered(f"Action:{a.verb}")


@renders_verb("conjure_spellbook")
def render_conjure_spellbook(a: A.Action, **_) -> str:
    """"conjure a random card from ~'s spellbook into your hand"."""
    extra_keys(a, CLAUSE_KEYS | {"zone", "owner", "random"})
    if a.extra.get("random") is not True or a.obj is not None or a.amount is not None:
        raise NotRendered("Action:conjure_spellbook")
    return f"{subject_verb(a, 'conjure', 'conjures')} a random card from ~'s spellbook {_conjure_zone(a)}"


@renders_verb("conjure_duplicate")
def render_conjure_duplicate(a: A.Action, **_) -> str:
    """"conjure a duplicate of it into your hand" / "… onto the battlefield"."""
    extra_keys(a, CLAUSE_KEYS | {"zone", "owner"})
    return f"{subject_verb(a, 'conjure', 'conjures')} a duplicate of {_obj(a)} {_conjure_zone(a)}"


@renders_verb("boon")
def render_boon(a: A.Action, **_) -> str:
    """"you get a one-time boon with "…"" / "you get a boon with "…"" (an Arena boon: its quoted triggered
    ability, the number of times it works)."""
    extra_keys(a, CLAUSE_KEYS | {"abilities", "times"})
    abilities, times = a.extra.get("abilities") or [], a.extra.get("times")
    if len(abilities) != 1 or a.obj is not None or a.amount is not None:
        raise NotRendered("Action:boon")
    if times is not None and not (isinstance(times, int) and 1 <= times <= len(BOON_TIMES)):
        raise NotRendered("Action:boon:times")
    kind = f"a {BOON_TIMES[times - 1]} boon" if times is not None else "a boon"
    return f"{subject_verb(a, 'get', 'gets')} {kind} with {_quoted(abilities[0])}"


# "the duplicate" / "that duplicate" / "the duplicates" / "those duplicates" (transform_digital.o_the_duplicate),
# read by render_objects like its other object bases
BASES.update({f"duplicate:{d}": f"{d} duplicate" for d in ("the", "that")})
BASES.update({f"duplicates:{d}": f"{d} duplicates" for d in ("the", "those")})
