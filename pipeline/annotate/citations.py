"""Extract explicit Comprehensive Rules references from ruling text.

A *cited* reference is a CR number written in the ruling itself. Forms handled:

* after ``rule``/``rules``/``section``/``sections``/``CR``: ``rule 107.3i``,
  ``rules 702.19c and 702.19d``, ``rules 100.2a, 100.2b, or 100.2c``,
  ``See rule 605, “Mana Abilities.”`` (a bare 3-digit rule), ``section 7`` (a section);
* any dotted number anywhere (``(704.5a)`` — Rules Lawyer's rulings cite this way),
  also in lists joined by ``and``/``or``/commas;
* ranges, expanded to every number in between: letter ranges ``702.19a–c`` and
  ``702.19a–702.19c`` (letters follow the CR order, which skips ``l`` and ``o``,
  :data:`~pipeline.sources.comprehensive_rules.SUBRULE_LETTERS`), number ranges
  ``103.4 through 103.6`` / ``103.4–103.6`` and ``rules 701–702``. A range whose ends do
  not share a base, or that runs backwards or spans more than :data:`MAX_RANGE`
  numbers, is kept as its two ends only.

Bare numbers without one of those keywords (``100 cards``, ``20 life``) are never
references. Extraction is purely textual: whether a number exists in a given CR is
decided later (``ruling_rule_refs.resolved``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.sources.comprehensive_rules import SUBRULE_LETTERS

MAX_RANGE = 40

_DASH = r"(?:\s*[–—-]\s*|\s+through\s+|\s+to\s+)"
_SEP = r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s+and/or\s+)"
_DOTTED = r"[1-9]\d\d\.\d+(?:[a-z](?![a-z]))?"
_ANYNUM = rf"(?:{_DOTTED}|[1-9]\d\d(?![\d.]\d)|[1-9](?![\d.]\d))"
# One item: a number, optionally followed by a range end (a number or a single letter).
_LETTER_END = r"\s*[–—-]\s*[a-z](?![a-z])"
_NUM_END = rf"{_DASH}(?:{_DOTTED}|[1-9]\d\d(?![\d.]\d))"
_ITEM = rf"{_ANYNUM}(?:{_NUM_END}|{_LETTER_END})?"
_KEYWORD_LIST_RE = re.compile(
    rf"\b(?:rules?|sections?|CR)\s+(?P<list>{_ITEM}(?:{_SEP}{_ITEM})*)", re.IGNORECASE
)
_DOTTED_LIST_RE = re.compile(
    rf"(?<![\w.])(?P<list>{_DOTTED}(?:{_NUM_END}|{_LETTER_END})?"
    rf"(?:{_SEP}{_DOTTED}(?:{_NUM_END}|{_LETTER_END})?)*)"
)
_ITEM_RE = re.compile(
    rf"(?P<start>{_ANYNUM})(?:{_DASH}(?P<end>{_DOTTED}|[1-9]\d\d(?![\d.]\d))|\s*[–—-]\s*(?P<letter>[a-z](?![a-z])))?"
)
_PARTS_RE = re.compile(r"^([1-9]\d\d)(?:\.(\d+)([a-z]?))?$")


@dataclass(frozen=True)
class Citation:
    """One cited rule number. ``rule``: the number (``"107.3i"``, ``"605"``, ``"7"``);
    ``start``/``end``: character span in the ruling of the written reference it came from
    (a range's numbers share the span); ``written``: that text (``"702.19a–c"``)."""

    rule: str
    start: int
    end: int
    written: str


def expand_range(first: str, last: str) -> list[str]:
    """Expand a written range into CR numbers.

    ``("702.19a", "c")`` or ``("702.19a", "702.19c")`` → ``702.19a, 702.19b, 702.19c``;
    ``("103.4", "103.6")`` → ``103.4, 103.5, 103.6``; ``("701", "702")`` → ``701, 702``.
    Ends that do not share a base, or a backwards or overlong range, give ``[first, last]``
    (``last`` completed with ``first``'s base when it is a single letter).
    """
    m1 = _PARTS_RE.match(first)
    if m1 is None:
        return [first, last]
    if len(last) == 1 and last.isalpha():
        if not m1.group(3):
            return [first]
        last = f"{m1.group(1)}.{m1.group(2)}{last}"
    m2 = _PARTS_RE.match(last)
    if m2 is None:
        return [first, last]
    r1, n1, l1 = m1.groups()
    r2, n2, l2 = m2.groups()
    if n1 is None and n2 is None:  # 701–702
        a, b = int(r1), int(r2)
        if a <= b <= a + MAX_RANGE and r1[0] == r2[0]:
            return [str(i) for i in range(a, b + 1)]
        return [first, last]
    if r1 != r2 or n1 is None or n2 is None:
        return [first, last]
    if l1 and l2 and n1 == n2:  # 702.19a–702.19c
        i, j = SUBRULE_LETTERS.find(l1), SUBRULE_LETTERS.find(l2)
        if 0 <= i <= j:
            return [f"{r1}.{n1}{c}" for c in SUBRULE_LETTERS[i : j + 1]]
        return [first, last] if i >= 0 and j >= 0 else [first]
    if not l1 and not l2:  # 103.4 through 103.6
        a, b = int(n1), int(n2)
        if a <= b <= a + MAX_RANGE:
            return [f"{r1}.{i}" for i in range(a, b + 1)]
    return [first, last]


def _items(list_text: str, offset: int, sections: bool) -> list[Citation]:
    out: list[Citation] = []
    for m in _ITEM_RE.finditer(list_text):
        start, end = m.group("start"), m.group("end") or m.group("letter")
        if len(start) == 1 and not sections:  # a single digit is a section only after "section"
            continue
        span = (offset + m.start(), offset + m.end())
        numbers = expand_range(start, end) if end else [start]
        out.extend(Citation(n, span[0], span[1], m.group(0)) for n in numbers)
    return out


def extract_citations(text: str) -> list[Citation]:
    """Return every CR number cited in ``text``, in order of appearance, without duplicates
    (a number cited twice keeps its first span). See the module docstring for the forms."""
    found: list[Citation] = []
    covered: list[tuple[int, int]] = []
    for m in _KEYWORD_LIST_RE.finditer(text):
        sections = m.group(0).lower().startswith("section")
        found.extend(_items(m.group("list"), m.start("list"), sections))
        covered.append((m.start("list"), m.end("list")))
    for m in _DOTTED_LIST_RE.finditer(text):
        s = m.start("list")
        if any(cs <= s < ce for cs, ce in covered):
            continue
        found.extend(_items(m.group("list"), s, False))
    found.sort(key=lambda c: c.start)
    seen: set[str] = set()
    out: list[Citation] = []
    for c in found:
        if c.rule not in seen:
            seen.add(c.rule)
            out.append(c)
    return out
