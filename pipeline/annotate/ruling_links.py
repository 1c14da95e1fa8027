"""Link a ruling to the ability of its card that it talks about (``ruling_abilities``).

Method — tried in this order; the first method that names exactly one ability wins, and
a method that finds two or more candidate abilities gives no link (a missing link is
better than a wrong one):

1. ``quoted``: the ruling quotes text (“…” or "…", at least 3 words, no ``[placeholder]``)
   that occurs, after normalisation (lower case, the card's name and "this creature/…" → ``~``, "enters the
   battlefield" → "enters", punctuation dropped), in exactly one ability's text.
2. ``ordinal``: the ruling names the ability by position — "Kenrith’s first ability", "its
   last ability", "the final chapter ability" — counted on the named face (or the only
   face) the way rulings count: each keyword of a keyword line is one ability,
   reminder-only lines are none; "first triggered/activated/loyalty/chapter ability"
   counts only abilities of that kind; a Class's "level 2 ability" is the ability after
   its "…: Level 2" line. A ruling naming two positions ("middle ability and last
   ability"), "middle"/"other" or a position that cannot be placed gets no link from any
   method.
3. ``keyword``: the ruling names one of the card's keyword abilities (a keyword line of
   the card: ``Flying``, ``Equip {2}``) outside parentheses and "such as …"/"for example …"
   clauses, and exactly one ability line starts with it.
4. ``cost``: the ruling writes a run of mana/tap symbols (``{T}``, ``{2}{U}``) that is part
   of the cost (before the colon) of exactly one activated ability.
5. ``topic``: topics are an enters-the-battlefield trigger, a dies trigger, an attack
   trigger, a mana ability, a copy effect, tokens and a triggered ability ("trigger"). For every topic the ruling mentions, the abilities of the card that have it
   are found; if any topic has two or more such abilities there is no link, else the
   topics' abilities must be one and the same ability.
6. ``words``: the content words (stop words, the card name and words of 2 letters or
   fewer dropped, a crude plural/-ed stemming) of the ruling overlap one ability in at
   least 3 words and every other ability in at least 2 fewer.

A ruling whose text is also a ruling of another card is about a mechanic (all Class
cards share "Each Class starts with only the first of three class abilities…"): it is
linked only by the ``quoted``, ``keyword`` and ``cost`` methods, never by ``ordinal``,
``topic`` or ``words``.

A ruling about another object's ability ("Nikara’s ability triggers" on Yannik, a
partner; "Brisela’s last ability" on Bruna, a meld card) is not linked.

Cards with a single ability line are not linked by default: a ruling about such a card
may be about its casting, its mana cost or its type rather than its one ability.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from pipeline.annotate.features import keyword_names, split_cost, strip_reminder

_PAREN_RE = re.compile(r"\([^()]*\)")
_EXAMPLE_RE = re.compile(r"\b(?:such as|for example|e\.g\.)[^.;:]*", re.I)
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
    "token": (re.compile(r"\btokens?\b", re.I), re.compile(r"\btokens?\b", re.I)),
    "trigger": (re.compile(r"\btrigger(s|ed)?\b", re.I),
                re.compile(r"^(?:[A-Z][A-Za-z’' ,-]{1,40} — )?(When|Whenever|At)\b")),
}


ORDINALS = {"first": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4, "sixth": 5, "last": -1}
_ORDINAL_RE = re.compile(
    r"(?:(?P<owner>[A-Z][\w,’' -]*?)’s |\bits |\bthe )?"
    r"\b(?P<ord>first|second|third|fourth|fifth|sixth|middle|last|final|other|level \d)"
    r"(?: and (?:first|second|third|fourth|fifth|sixth|middle|last))? "
    r"(?P<kind>(?:class |chapter |triggered |activated |static |mana |level |loyalty )?)abilit",
    re.I)
# The part of _ORDINAL_RE every match contains, without the owner's name: a cheap test that skips
# the full search (whose lazy owner group is slow) on the rulings that name no position.
_ORDINAL_CORE_RE = re.compile(
    r"\b(?:first|second|third|fourth|fifth|sixth|middle|last|final|other|level \d)"
    r"(?: and (?:first|second|third|fourth|fifth|sixth|middle|last))? "
    r"(?:class |chapter |triggered |activated |static |mana |level |loyalty )?abilit",
    re.I)
# "Nikara’s ability", "Brisela’s last triggered ability": an ability owned by a named object.
_OWNER_RE = re.compile(r"(?P<owner>[A-Z][\w’'-]*(?:,? (?:the |of |[A-Z])[\w’'-]*)*)’s (?:[a-z]+ ){0,2}abilit")
_KIND_TESTS = {
    "triggered ": lambda text: bool(re.match(r"^(?:[A-Z][A-Za-z’' ,-]{1,40} — )?(When|Whenever|At)\b", text)),
    "activated ": lambda text: split_cost(text) is not None,
    "loyalty ": lambda text: bool(re.match(r"^\[?[+−–-]?(\d+|X)\]?:", text)),
    "chapter ": lambda text: bool(re.match(r"^[IVX]+(?:, [IVX]+)* — ", text)),
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


def _ability_slots(abilities: list[dict]) -> list[str]:
    """Ability ids in the order rulings count abilities: a keyword line counts once per keyword
    ("Flying, vigilance" is two abilities); reminder-only lines do not count."""
    slots: list[str] = []
    for a in abilities:
        text = a.get("text") or ""
        if not strip_reminder(text):
            continue
        names = keyword_names(text)
        slots.extend([a["ability_id"]] * max(1, len(names)))
    return slots


def ordinal_target(comment: str, card_name: str, abilities: list[dict]) -> tuple[bool, str | None]:
    """(whether the ruling names abilities by position, the one ability it names or None).

    Handles "Kenrith's first ability", "its last ability", "the second ability" on the face
    the owner's name designates (or the only face). Two positions, "middle", "other" or a
    position that cannot be placed give (True, None): the ruling names an ability this
    method cannot pin down, so no other method should guess.
    """
    if not _ORDINAL_CORE_RE.search(comment):
        return False, None
    matches = list(_ORDINAL_RE.finditer(comment))
    if not matches:
        return False, None
    picks: set[str] = set()
    for m in matches:
        word = m.group("ord").lower()
        if word.startswith("level "):  # a Class's "level 2 ability": the ability after "…: Level 2"
            level_line = re.compile(rf":\s*Level {word.split()[1]}\s*$")
            texts = [a for a in abilities if strip_reminder(a.get("text") or "")]
            after = [texts[i + 1]["ability_id"] for i, a in enumerate(texts[:-1])
                     if level_line.search(strip_reminder(a.get("text") or ""))]
            if len(after) != 1:
                return True, None
            picks.add(after[0])
            continue
        if word not in ORDINALS and word != "final" or " and " in m.group(0):
            return True, None
        faces = sorted({a.get("face_index") or 0 for a in abilities})
        owner = (m.group("owner") or "").strip()
        if owner:  # "Augusta’s last ability" on "Plargg, … // Augusta, …"; "Brisela’s" elsewhere
            face = next((idx for idx, face_name in enumerate(card_name.split(" // "))
                         if owner.endswith(face_name) or owner.endswith(face_name.split(",")[0])), None)
        else:
            face = faces[0] if len(faces) == 1 else None
        if face is None:
            return True, None
        on_face = [a for a in abilities if (a.get("face_index") or 0) == face]
        kind = (m.group("kind") or "").lower()
        if kind:  # "first triggered ability": count only abilities of that kind
            test = _KIND_TESTS.get(kind)
            if test is None:
                return True, None
            on_face = [a for a in on_face if test(strip_reminder(a.get("text") or ""))]
        slots = _ability_slots(on_face)
        index = -1 if word in ("last", "final") else ORDINALS[word]
        if not slots or index >= len(slots):
            return True, None
        picks.add(slots[index])
    return True, (picks.pop() if len(picks) == 1 else None)


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
    faces = card_name.split(" // ")
    for m in _OWNER_RE.finditer(comment):  # about another object's ability ("Nikara’s ability")
        owner = m.group("owner")
        if not any(owner.endswith(f) or owner.endswith(f.split(",")[0]) for f in faces):
            return None
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

    # 2. an ability named by its position ("Kenrith's last ability")
    if not shared:  # a mechanic ruling's "the first level ability" is not about this card's slots
        positional, target = ordinal_target(comment, card_name, abilities)
        if target:
            return Link(ruling_id, target, "ordinal")
        if positional:
            return None

    # 3. keyword named in the ruling
    kw_hits: list[str] = []
    # A keyword named only as an example — "(such as a flashback cost)" — is not the topic.
    lowered = _EXAMPLE_RE.sub(" ", _PAREN_RE.sub(" ", comment)).lower()
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

    # 4. cost symbols
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

    # 5. topic: every topic of the ruling that some ability has must point at the same single ability
    topic_hits: list[str] = []
    for name, (ruling_rx, ability_rx) in TOPICS.items():
        if not ruling_rx.search(comment):
            continue
        hits = [a["ability_id"] for a in abilities if ability_rx.search(strip_reminder(a["text"]))]
        if len(hits) > 1:
            topic_hits = []
            break
        topic_hits.extend(hits)
    found = _unique(topic_hits)
    if found:
        return Link(ruling_id, found, "topic")

    # 6. content-word overlap
    ruling_words = content_words(comment, card_name)
    scores = sorted(
        ((len(ruling_words & content_words(a["text"], card_name)), a["ability_id"]) for a in abilities),
        reverse=True,
    )
    if scores and scores[0][0] >= 3 and (len(scores) == 1 or scores[0][0] - scores[1][0] >= 2):
        return Link(ruling_id, scores[0][1], "words")
    return None
