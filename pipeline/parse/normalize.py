"""Normalisation of oracle text before parsing (documented in docs/ast.md § Normalisation).

Two steps, both pure functions of (text, card face name):

1. :func:`normalize_chars` — typography: curly quotes/apostrophes → ASCII, U+2212 minus →
   ``-``, non-breaking spaces → space, MTGJSON's bracketed loyalty costs ``[−2]:`` → ``-2:``.
2. :func:`normalize_wording` — one wording for both Oracle generations, so ONE grammar reads
   both: the face name, its short name (part before the first comma of a legendary name,
   e.g. "Adeline") and "this creature/land/artifact/spell/…" → ``~`` (one self-reference);
   "enters the battlefield" → "enters" (and enter/entered/entering); "his or her" →
   "their", "he or she" → "they", "him or her" → "them".
"""

from __future__ import annotations

import re
from functools import lru_cache

_CHAR_MAP = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
    "\u2212": "-", "\u00a0": " ", "\u2013": "-",
})

_BRACKET_LOYALTY = re.compile(r"^\[([+\-]?(?:\d+|X))\]:", re.M)

#: Words after "this" that make a self-reference (CR 201.5: text referring to the object
#: by name or as "this [type]" means that object).
SELF_NOUNS = ("creature", "land", "artifact", "enchantment", "planeswalker", "spell", "permanent",
              "card", "Aura", "Equipment", "Vehicle", "Saga", "Class", "token", "Fortification",
              "battle", "Room", "Case", "Attraction", "Contraption", "Siege", "Curse", "Shrine",
              "Background", "Role", "Food", "Clue", "Treasure", "Dungeon", "Sphere", "Lesson",
              "Spacecraft", "Planet", "Mount")

_THIS_RE = re.compile(r"\b[Tt]his (?:" + "|".join(SELF_NOUNS) + r")\b")

_WORDING = [
    (re.compile(r"\b(enter|enters|entered|entering) the battlefield\b"), r"\1"),
    (re.compile(r"\bhis or her\b"), "their"),
    (re.compile(r"\bhe or she\b"), "they"),
    (re.compile(r"\bhim or her\b"), "them"),
]


def normalize_chars(text: str) -> str:
    """Return ``text`` with typographic variants replaced (step 1 above). Never raises."""
    text = text.translate(_CHAR_MAP)
    return _BRACKET_LOYALTY.sub(r"\1:", text)


def self_names(name: str, type_line: str = "") -> tuple[str, ...]:
    """Names by which a face refers to itself, longest first.

    ``name`` is the face name; for "A // B" each half counts. A name with a comma ("Adeline,
    Resplendent Cathar") also yields its short name ("Adeline"), CR 201.5c; so does a legendary
    creature's or planeswalker's "X the Y" / "X of Y" name or first word ("Tymna the Weaver" →
    "Tymna", "Nissa of Shadowed Boughs" → "Nissa", "Rasputin Dreamweaver" → "Rasputin") — not an
    object's "X of the Y" name ("Sword of the Animist", "Helm of Kaldra", "Vault of Catlacan"),
    which cards never shorten. A short name is replaced only as a proper name (see
    :func:`normalize_wording`)."""
    return _self_names(name or "", type_line or "")


@lru_cache(maxsize=4096)
def _self_names(name: str, type_line: str) -> tuple[str, ...]:
    out = set()
    for part in normalize_chars(name).split(" // "):
        part = part.strip()
        if not part:
            continue
        out.add(part)
        if part.startswith("A-"):  # MTGJSON's Alchemy rebalanced names ("A-Spell Satchel")
            part = part[2:]
            out.add(part)
        person = re.search(r"Legendary (?:Artifact |Enchantment )?(?:Creature|Planeswalker)", type_line)
        head_the = part.split(" the ", 1)[0].strip()
        if "," in part:
            out.add(part.split(",", 1)[0].strip())
        elif person and " the " in part and " of" not in " " + head_the:
            out.add(head_the)  # "Tymna" for "Tymna the Weaver", never "Sword of" (Sword of the Animist)
        elif person and " of " in part:
            out.add(part.split(" of ", 1)[0].strip())  # "Nissa" for "Nissa of Shadowed Boughs", never "Helm"
        elif person and " " in part:
            out.add(part.split(" ", 1)[0])  # "Rasputin" for "Rasputin Dreamweaver"
    return tuple(sorted((n for n in out if len(n) > 1), key=len, reverse=True))


#: Words after which a short name is a type, not the card (CR 201.5c short names are proper
#: names): "put a loyalty counter on each Garruk you control" (Garruk, Cursed Huntsman).
DETERMINERS = frozenset(("a", "an", "each", "another", "target", "other", "all", "every", "any", "non"))


def _replace_name(text: str, name: str, proper: bool = False) -> str:
    """Replace whole-word occurrences of ``name`` in ``text`` by "~" (no regex compile per
    card: names are many, texts short). ``proper``: not after a determiner (:data:`DETERMINERS`)."""
    out = []
    i = 0
    n = len(name)
    while True:
        j = text.find(name, i)
        if j < 0:
            out.append(text[i:])
            return "".join(out)
        before = text[j - 1] if j else " "
        after = text[j + n] if j + n < len(text) else " "
        prev = text[:j].rstrip(" -").rsplit(" ", 1)[-1].lower() if proper else ""
        if (not (before.isalnum() or before in "_~") and not (after.isalnum() or after == "_")
                and prev not in DETERMINERS):
            out.append(text[i:j])
            out.append("~")
        else:
            out.append(text[i:j + n])
        i = j + n


def normalize_wording(text: str, names: tuple[str, ...] = ()) -> str:
    """Apply step 2 above to already char-normalised ``text``. Never raises."""
    for name in names:  # longest first (self_names order)
        if name in text:
            # a short name (a strict prefix of another name of the face) is a proper name only
            short = any(n != name and n.startswith(name) for n in names)
            text = _replace_name(text, name, proper=short)
    text = _THIS_RE.sub("~", text)
    for pat, rep in _WORDING:
        text = pat.sub(rep, text)
    return text


def normalize_text(text: str, name: str = "", type_line: str = "") -> str:
    """Both steps: characters then wording, for the face ``name``."""
    return normalize_wording(normalize_chars(text), self_names(name, type_line))


def lower_same_length(text: str) -> str:
    """Lower-case ``text`` keeping every offset (characters whose lower case is longer are
    kept as they are), so spans into the lower-cased text are spans into ``text``."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
