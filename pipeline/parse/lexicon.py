"""Closed lexicons the renderer may write words from (docs/ast.md § Rendering).

A renderer writes Oracle text from an AST's structured fields only; a *word* stored in the AST
is structured when it comes from a closed list the Comprehensive Rules define:

* card types, supertypes and subtypes (CR 205.2a, 205.4a, 205.3g–m), read from
  ``grammar/types.lark`` (generated from the CR by :mod:`pipeline.parse.gen_lexicon`), singular
  and plural forms, ``non``-prefixed forms (CR 205.4b-style "nonland", "noncreature");
* keyword abilities (CR 702.2–702.190 headings), keyword actions (CR 701.2–…), ability words
  (CR 207.2c), read from the Comprehensive Rules bundled with the package
  (``data/MagicCompRules-*.txt.gz``) — never from the rules file a refresh reads;
* colors (CR 105.1, 105.2), object and player nouns and statuses (CR 109, 102, 110.5, 111).

Every set is lower case. Sets are built once per process (``functools.lru_cache``).
"""

from __future__ import annotations

import gzip
import re
from functools import lru_cache

from pipeline.paths import BUNDLED_RULES, GRAMMAR_DIR

#: CR 105.1 colors and the CR 105.2 color words.
COLORS = frozenset({"white", "blue", "black", "red", "green", "colorless", "multicolored", "monocolored"})

#: Object and player nouns (CR 109.1 objects, 102.1 players, 111 tokens, 113 abilities, 609.7
#: sources), statuses (CR 110.5: tapped/untapped, face up/down; 506.4 attacking/blocking) and
#: the rules terms that select objects (CR 700.6 historic, 700.9 modified, 702.33 kicked,
#: 903.3 commander, 700.11 outlaw, 712 double-faced).
OBJECT_WORDS = frozenset("""
permanent permanents spell spells card cards token tokens player players opponent opponents
source sources ability abilities activated triggered mana color colors
tapped untapped attacking blocking blocked unblocked face-down face-up
historic outlaw modified commander commanders kicked double-faced nontoken nonbasic legendary
""".split())


def _alternatives(terminal: str, text: str) -> list[str]:
    m = re.search(rf"^{terminal}: /\(\?:(.*)\)/$", text, re.M)
    return [w.replace("\\-", "-") for w in m.group(1).split("|")] if m else []


@lru_cache(maxsize=1)
def type_words() -> frozenset[str]:
    """Card types, supertypes and subtypes with their plural and ``non`` forms (CR 205)."""
    text = (GRAMMAR_DIR / "types.lark").read_text(encoding="utf-8")
    words = set()
    for term in ("CARDTYPE", "SUPERTYPE", "SUBTYPE"):
        words.update(_alternatives(term, text))
    words |= {"non" + w for w in list(words)} | {"non-" + w for w in list(words)}
    return frozenset(words)


def _cr_text() -> str:
    with gzip.open(BUNDLED_RULES, "rt", encoding="utf-8-sig") as fh:
        return fh.read()


@lru_cache(maxsize=1)
def cr_lexicons() -> dict[str, frozenset[str]]:
    """``{"keywords": CR 702 keyword abilities, "actions": CR 701 keyword actions,
    "ability_words": CR 207.2c}``, lower case, from the bundled Comprehensive Rules."""
    text = _cr_text()
    kw = set()
    for m in re.finditer(r"^702\.(\d+)\. (.+?)\s*$", text, re.M):
        if int(m.group(1)) >= 2:  # "Daybound and Nightbound" (CR 702.145) names two keywords
            kw.update(m.group(2).lower().split(" and ") if m.group(2).startswith("Daybound") else [m.group(2).lower()])
    # variants the CR names in a subrule: "Megamorph is a variant of the morph ability" (CR 702.37b),
    # multikicker (702.33c), commander ninjutsu (702.49d), double agenda (702.106f), trample over
    # planeswalkers (702.19c)
    kw.update(m.group(1).lower() for m in re.finditer(r"^702\.\d+[a-z] ([A-Z][a-z]+(?: [a-z]+)*) is a variant of ", text, re.M)
              if m.group(1) != "Typecycling")
    act = {m.group(2).lower() for m in re.finditer(r"^701\.(\d+)\. (.+?)\s*$", text, re.M) if int(m.group(1)) >= 2}
    m = re.search(r"^207\.2c .*?The ability words are (.+?)\.\s*$", text, re.M)
    aw = set()
    if m:
        for part in re.split(r", (?:and )?", m.group(1).replace("’", "'")):
            aw.add(part.strip().lower())
    return {"keywords": frozenset(kw), "actions": frozenset(act), "ability_words": frozenset(aw)}


_NON_COLORS = frozenset("non" + c for c in COLORS)  # "nonblack" (CR 105.2, 205.4b style)


def is_object_word(word: str) -> bool:
    """True if ``word`` (lower case) may be rendered as a descriptor of an object or player."""
    return word in OBJECT_WORDS or word in COLORS or word in _NON_COLORS or word in type_words()


def is_keyword(name: str) -> bool:
    """True if ``name`` (lower case) is a keyword ability of CR 702 (a heading, or a variant a
    subrule names: "Megamorph is a variant of the morph ability"), a landwalk (CR 702.14c:
    a land type + "walk") or a typecycling (CR 702.29e: a type + "cycling", "basic landcycling")."""
    if name in cr_lexicons()["keywords"]:
        return True
    for suffix in ("walk", "cycling"):
        if name.endswith(suffix) and name[: -len(suffix)] in type_words():
            return True
    # "basic landcycling" (CR 702.29e: [type]cycling, the type a supertype and a card type)
    head, _, last = name.rpartition(" ")
    if head and last.endswith("cycling") and all(w in type_words() for w in head.split() + [last[:-7]]):
        return True
    return False


def is_ability_word(word: str) -> bool:
    """True if ``word`` (any case) is an ability word of CR 207.2c."""
    return word.lower() in cr_lexicons()["ability_words"]


#: Counter kinds the Comprehensive Rules name (CR 122.1b–122.1h, 122.2, 306.5b, 310.4c, 714.2,
#: 702.32 fading, 702.62 suspend, 702.24 cumulative upkeep …) and those the grammar lists.
COUNTER_KINDS = frozenset("""
poison loyalty time level lore defense charge age ticket energy stun shield rad fade finality slime
oil ki quest experience
""".split())

_PT_COUNTER = re.compile(r"^[+-](?:\d+|X)/[+-](?:\d+|X)$")


def is_counter_kind(kind: str) -> bool:
    """True if ``kind`` (lower case) is a counter kind of the closed lexicon: a P/T counter
    ("+1/+1", "-1/-1", CR 122.1a), a keyword counter (CR 122.1b) or a named kind above."""
    return bool(_PT_COUNTER.match(kind)) or kind in COUNTER_KINDS or is_keyword(kind)
