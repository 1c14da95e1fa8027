"""Link a ruling to the ability of its card that it talks about (``ruling_abilities``).

Method — tried in this order; the first method that names exactly one ability wins, and
a method that finds two or more candidate abilities gives no link (a missing link is
better than a wrong one):

1. ``quoted``: the ruling quotes text (“…” or "…", at least 3 words, no ``[placeholder]``) that occurs, after
   normalisation (lower case, the card's name and "this creature/…" → ``~``, "enters the
   battlefield" → "enters", punctuation dropped), in exactly one ability's text.
2. ``keyword``: the ruling names one of the card's keyword abilities (a keyword line of
   the card: ``Flying``, ``Equip {2}``) and exactly one ability line starts with it.
3. ``cost``: the ruling writes a run of mana/tap symbols (``{T}``, ``{2}{U}``) that is part
   of the cost (before the colon) of exactly one activated ability.
4. ``topic``: the ruling is about one topic — an enters-the-battlefield trigger, a dies
   trigger, an attack trigger, a mana ability, a copy effect, tokens, counters — and
   exactly one ability of the card has that topic.
5. ``words``: the content words (stop words, the card name and words of 2 letters or
   fewer dropped, a crude plural/-ed stemming) of the ruling overlap one ability in at
   least 3 words and every other ability in at least 2 fewer.

A ruling whose text is also a ruling of another card is about a mechanic (all Class
cards share "Each Class starts with only the first of three class abilities…"): it is
linked only by the ``quoted``, ``keyword`` and ``cost`` methods, never by ``topic`` or
``words``.

Cards with a single ability line are not linked by default: a ruling about such a card
may be about its casting, its mana cost or its type rather than its one ability.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from pipeline.annotate.features import split_cost, strip_reminder

_QUOTE_RE = re.compile(r"“([^”]+)”|\"([^\"]+)\"")
_SYMBOL_RUN_RE = re.compile(r"(?:\{[^{}\s]{1,5}\})+")
_WORD_RE = re.compile(r"[a-z][a-z’']+")
_SELF_RE = re.compile(
    r"\bthis (creature|artifact|enchantment|land|permanent|spell|card|planeswalker|equipment|aura|vehicle)\b"
)
STOP_WORDS = frozenset(
    """a an the and or of to in on it its it's is are be been was were that this these those
    with for from as at by if then than any each your you their they them can can't cannot
    may will won't would does doesn't don't not no only also into onto has have had which who
    whose when whenever while other another same such so but there here what how all one
    two three more less up out get gets still even because before after during until both
    either neither ability abilities card cards player players controller""".split()
)

# topic → (pattern in a ruling, pattern in an ability's text)
TOPICS: dict[str, tuple[re.Pattern, re.Pattern]] = {
    "enters": (re.compile(r"\benters?( the battlefield)?\b|enters-the-battlefield", re.I),
               re.compile(r"\b(when|whenever|as)\b[^,]*\benters?( the battlefield)?\b|\benters?( the battlefield)? with\b", re.I)),
    "dies": (re.compile(r"\bdies\b", re.I), re.compile(r"\b(when|whenever)\b[^,]*\bdies\b", re.I)),
    "attacks": (re.compile(r"\battacks?\b", re.I), re.compile(r"\b(when|whenever)\b[^,]*\battacks\b", re.I)),
    "mana": (re.compile(r"\bmana abilit|\badds? (one|two|three|\{)", re.I), re.compile(r"^[^:“\"]*:\s*Add\b", re.I)),
    "copy": (re.compile(r"\bcop(y|ies|ied)\b", re.I), re.compile(r"\bcop(y|ies)\b", re.I)),
    "token": (re.compile(r"\btokens?\b", re.I), re.compile(r"\bcreates?\b[^.]*\btokens?\b", re.I)),
    "counters": (re.compile(r"[+−-]1/[+−-]1 counters?", re.I), re.compile(r"[+−-]1/[+−-]1 counters?", re.I)),
}


@dataclass(frozen=True)
class Link:
    """``ruling_id`` is about ``ability_id``, found by ``method`` (quoted|keyword|cost|topic|words)."""

    ruling_id: str
    ability_id: str
    method: str


@lru_cache(maxsize=65536)
def normalize(text: str, card_name: str) -> str:
    """Lower-case ``text``, replace the card's name (and each face name, and "this
    creature"-style self references) with ``~``, modernise "enters the battlefield" to
    "enters", and reduce punctuation to spaces."""
    t = text
    for name in sorted({card_name, *card_name.split(" // ")}, key=len, reverse=True):
        if name:
            t = t.replace(name, "~")
            short = name.split(",")[0]
            if short != name and len(short) > 3:
                t = t.replace(short, "~")
    t = t.lower()
    t = _SELF_RE.sub("~", t)
    t = re.sub(r"\benters the battlefield\b", "enters", t)
    t = re.sub(r"\benter the battlefield\b", "enter", t)
    t = re.sub(r"[^\w~{}/+−-]+", " ", t)
    return " ".join(t.split())


def _stem(word: str) -> str:
    for suffix in ("ies", "es", "ed", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


@lru_cache(maxsize=65536)
def content_words(text: str, card_name: str) -> frozenset[str]:
    """Stemmed content words of ``text`` (see method 5 in the module docstring)."""
    t = normalize(strip_reminder(text), card_name)
    return frozenset(_stem(w) for w in _WORD_RE.findall(t) if w not in STOP_WORDS and len(w) > 2)


def _unique(candidates: list[str]) -> str | None:
    distinct = list(dict.fromkeys(candidates))
    return distinct[0] if len(distinct) == 1 else None


def link_ruling(ruling_id: str, comment: str, card_name: str, abilities: list[dict],
                keywords: list[str] | None = None, shared: bool = False) -> Link | None:
    """Return the :class:`Link` of one ruling to one of ``abilities`` or ``None``.

    ``abilities``: the card's ability rows as dicts with ``ability_id`` and ``text``.
    ``keywords``: the card's keyword list (``cards.keywords``), may be empty.
    ``shared``: the same ruling text is a ruling of another card too (see module docstring).
    """
    abilities = [a for a in abilities if (a.get("text") or "").strip() and a.get("text").strip() != "//"]
    if len(abilities) < 2:
        return None
    norm = {a["ability_id"]: normalize(strip_reminder(a["text"]), card_name) for a in abilities}
    norm_full = {a["ability_id"]: normalize(a["text"], card_name) for a in abilities}

    # 1. quoted text
    quoted_hits: list[str] = []
    for m in _QUOTE_RE.finditer(comment):
        raw = m.group(1) or m.group(2)
        if "[" in raw:  # a template such as “as [this creature] enters”, not this card's text
            continue
        q = normalize(raw, card_name)
        if len(q.split()) < 3:
            continue
        hits = [aid for aid, t in norm_full.items() if q in t]
        if len(set(hits)) == 1:
            quoted_hits.extend(hits)
    found = _unique(quoted_hits)
    if found:
        return Link(ruling_id, found, "quoted")

    # 2. keyword named in the ruling
    kw_hits: list[str] = []
    lowered = comment.lower()
    for kw in keywords or []:
        if not re.search(rf"\b{re.escape(kw.lower())}\b", lowered):
            continue
        starts = [a["ability_id"] for a in abilities
                  if re.match(rf"^{re.escape(kw.lower())}\b", strip_reminder(a["text"]).lower())]
        if len(starts) == 1:
            kw_hits.append(starts[0])
    found = _unique(kw_hits)
    if found:
        return Link(ruling_id, found, "keyword")

    # 3. cost symbols
    cost_hits: list[str] = []
    costs = {a["ability_id"]: (split_cost(a["text"]) or ("", ""))[0] for a in abilities}
    for m in _SYMBOL_RUN_RE.finditer(comment):
        hits = [aid for aid, c in costs.items() if c and m.group(0) in c]
        if len(hits) == 1:
            cost_hits.append(hits[0])
    found = _unique(cost_hits)
    if found:
        return Link(ruling_id, found, "cost")

    if shared:
        return None

    # 4. topic
    topic_hits: list[str] = []
    topics_in_ruling = [name for name, (rx, _) in TOPICS.items() if rx.search(comment)]
    if len(topics_in_ruling) == 1:
        _, ability_rx = TOPICS[topics_in_ruling[0]]
        hits = [a["ability_id"] for a in abilities if ability_rx.search(strip_reminder(a["text"]))]
        if len(hits) == 1:
            topic_hits.append(hits[0])
    found = _unique(topic_hits)
    if found:
        return Link(ruling_id, found, "topic")

    # 5. content-word overlap
    ruling_words = content_words(comment, card_name)
    scores = sorted(
        ((len(ruling_words & content_words(a["text"], card_name)), a["ability_id"]) for a in abilities),
        reverse=True,
    )
    if scores and scores[0][0] >= 3 and (len(scores) == 1 or scores[0][0] - scores[1][0] >= 2):
        return Link(ruling_id, scores[0][1], "words")
    return None
