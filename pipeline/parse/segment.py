"""Segmentation: a face's oracle text → ability blocks → pieces of one ability line.

Structural cuts only (what the layout of oracle text marks), never meaning:

* :func:`ability_blocks` — one block per paragraph; "•" mode lines join the preceding
  "Choose …" line (CR 700.2); a leveler's "LEVEL n-m" line, its power/toughness line and the
  abilities under it form one block (CR 711.2).
* :func:`split_reminders` — parenthesised reminder text (CR 207.2a) cut out and kept.
* :func:`split_ability_word` — an ability word before " — " (CR 207.2c), a keyword that
  heads an ability the same way ("Exhaust — ", CR 702), or a flavor word (CR 207.2d);
  :func:`prefix_role` tells them apart.
* :func:`top_level_index` / :func:`split_sentences` — cut at ":" or ". " outside quotes.
"""

from __future__ import annotations

import re

_LEVEL_RE = re.compile(r"^LEVEL \d+(?:-\d+|\+)$")
_AW_RE = re.compile(r"^([A-Z][A-Za-z' ,!-]{1,40}?) — (?=\S)")
_NOT_AW = ("Choose", "Companion", "Level", "LEVEL")
_CHAPTER_RE = re.compile(r"^((?:[IVX]+)(?:, [IVX]+)*) — ")


def ability_blocks(text: str) -> list[str]:
    """Split a face's oracle text into ability blocks (original text, newlines inside a
    block kept). Empty lines are skipped. Never raises."""
    blocks: list[str] = []
    in_levels = False
    for line in (text or "").split("\n"):
        if not line.strip():
            continue
        if line.lstrip().startswith("•") and blocks:
            blocks[-1] += "\n" + line
        elif _LEVEL_RE.match(line.strip()):
            in_levels = True
            blocks.append(line)
        elif in_levels:
            blocks[-1] += "\n" + line
        else:
            blocks.append(line)
    return blocks


def split_reminders(line: str) -> list[tuple[int, int, str]]:
    """Return pieces ``(start, end, role)`` tiling ``line``: role "reminder" for a
    parenthesised span (parentheses included), "sep" for whitespace around it, "body" for
    the rest. Unbalanced "(" runs to the end of the line."""
    pieces: list[tuple[int, int, str]] = []
    i = 0
    n = len(line)
    start = 0
    depth = 0
    rstart = 0
    while i < n:
        ch = line[i]
        if ch == "(":
            if depth == 0:
                if i > start:
                    pieces.append((start, i, "body"))
                rstart = i
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                pieces.append((rstart, i + 1, "reminder"))
                start = i + 1
        i += 1
    if depth:
        pieces.append((rstart, n, "reminder"))
    elif start < n:
        pieces.append((start, n, "body"))
    out: list[tuple[int, int, str]] = []
    for s, e, role in pieces:
        if role == "body":
            seg = line[s:e]
            ls = len(seg) - len(seg.lstrip())
            rs = len(seg) - len(seg.rstrip())
            if ls:
                out.append((s, s + ls, "sep"))
            if e - rs > s + ls:
                out.append((s + ls, e - rs, "body"))
            if rs and e - rs >= s + ls:
                out.append((e - rs, e, "sep"))
        else:
            out.append((s, e, role))
    return out


def split_ability_word(body: str) -> tuple[str | None, int]:
    """Return (ability word, offset of the text after " — ") or (None, 0)."""
    m = _AW_RE.match(body)
    if not m or m.group(1).startswith(_NOT_AW) or _CHAPTER_RE.match(body):
        return None, 0
    return m.group(1), m.end()


#: Terms the Comprehensive Rules define that head an ability with a long dash and are neither
#: keywords of CR 702 nor ability words: "To solve — [condition]" (CR 719.3a) and the "Prize —"
#: paragraph of a visit ability (CR 702.159b).
DASH_TERMS = frozenset(("to solve", "prize"))


def prefix_role(word: str) -> str:
    """Role of the italic word before " — " that :func:`split_ability_word` cut off:
    ``"ability_word"`` for an ability word (CR 207.2c), a keyword of CR 702 written that way
    ("Exhaust", "Max speed", "Solved", "Visit", "Boast", "Forecast") or a term of
    :data:`DASH_TERMS`; else ``"flavor_word"`` — a flavor word (CR 207.2d: no rules meaning, not
    listed in the Comprehensive Rules, e.g. "Grav-cannon"), kept in ``Ability.ability_word`` but
    like reminder text not part of the text the renderer must give back."""
    from pipeline.parse.lexicon import is_ability_word, is_keyword

    low = word.lower()
    if is_ability_word(low) or is_keyword(low) or low in DASH_TERMS:
        return "ability_word"
    return "flavor_word"


#: a mode line's name: "• Breathe Flame — ~ deals X damage …" (the name at a bullet, CR 700.2)
_MODE_NAME_RE = re.compile(r"(?m)^(• ?)([A-Z][A-Za-z' ,!-]{1,40}?) — (?=\S)")


def mode_name_pieces(text: str, start: int) -> list[tuple[int, int, str]]:
    """Cut the names of modes out of one body piece of a modal block (offsets ``start``-based):
    ``[(s, e, role)]`` with role "body", "flavor_word" (a name with no rules meaning, CR 207.2d, as
    "Breathe Flame" on Klauth's Will) or "sep" (the " — " after it). A name that is an ability
    word or a keyword (:func:`prefix_role`) stays in the body."""
    out: list[tuple[int, int, str]] = []
    pos = 0
    for m in _MODE_NAME_RE.finditer(text):
        if prefix_role(m.group(2)) != "flavor_word":
            continue
        name_s, name_e = m.start(2), m.end(2)
        out.append((start + pos, start + name_s, "body"))
        out.append((start + name_s, start + name_e, "flavor_word"))
        out.append((start + name_e, start + m.end(), "sep"))
        pos = m.end()
    out.append((start + pos, start + len(text), "body"))
    return [p for p in out if p[1] > p[0]]


def chapter_prefix(body: str) -> tuple[list[int], int] | None:
    """Saga chapter prefix "I, II — " → ([1, 2], offset after it), else None (CR 714.2b)."""
    m = _CHAPTER_RE.match(body)
    if not m:
        return None
    return [roman(x) for x in m.group(1).split(", ")], m.end()


def roman(s: str) -> int:
    """Roman numeral → int ("IV" → 4)."""
    vals = {"I": 1, "V": 5, "X": 10}
    total = 0
    for a, b in zip(s, s[1:] + " "):
        v = vals[a]
        total += -v if b != " " and vals.get(b, 0) > v else v
    return total


def top_level_index(text: str, char: str, start: int = 0) -> int:
    """Index of the first ``char`` at or after ``start`` outside double quotes, or -1."""
    inq = False
    for i in range(start, len(text)):
        c = text[i]
        if c == '"':
            inq = not inq
        elif c == char and not inq:
            return i
    return -1


def top_level_all(text: str, char: str) -> list[int]:
    """Indices of every ``char`` outside double quotes."""
    out = []
    inq = False
    for i, c in enumerate(text):
        if c == '"':
            inq = not inq
        elif c == char and not inq:
            out.append(i)
    return out


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Spans ``(start, end)`` of the sentences of ``text``, each including its final "."
    when present; cuts after ". " outside double quotes, and after a closing quote that ends
    a sentence ('."' followed by a space and a capital letter). Spans tile ``text`` minus the
    single spaces between sentences."""
    spans = []
    start = 0
    inq = False
    n = len(text)
    i = 0
    while i < n:
        c = text[i]
        end = None
        if c == '"':
            inq = not inq
            if not inq and text[i - 1:i] == "." and text[i + 1:i + 2] == " " and text[i + 2:i + 3].isupper():
                end = i + 1  # a quoted ability ends the sentence: 'it has "… you control." It gains haste …'
        elif c == "." and not inq and (i + 1 == n or text[i + 1] == " "):
            end = i + 1
        if end is None:
            i += 1
            continue
        spans.append((start, end))
        j = end
        while j < n and text[j] == " ":
            j += 1
        start = i = j
    if start < n:
        spans.append((start, n))
    return spans
