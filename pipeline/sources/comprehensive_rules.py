"""Read and parse the Magic: The Gathering Comprehensive Rules (CR) text file.

Wizards publishes the CR as one plain-text file (``MagicCompRules-YYYYMMDD.txt``):
a title, the effective-date line, an introduction, a table of contents ("Contents")
that repeats every section and rule title, the numbered rules, a glossary and credits.

:func:`parse_comprehensive_rules` turns that text into

* :class:`Rule` rows — one per section (``"1"``), rule (``"107"``), numbered rule
  (``"107.3"``) and subrule (``"107.3i"``), each with its parent
  (``107.3i → 107.3 → 107 → 1``), the section digit, an optional title and the full
  text (``Example:`` lines and indented continuation lines are appended to the text of
  the rule they follow, separated by ``\\n``);
* :class:`GlossaryEntry` rows (term, text);
* the effective date (``These rules are effective as of February 27, 2026.``).

Input quirks handled (all seen in published files): a UTF-8 byte-order mark; CRLF,
bare CR or LF line endings; the table of contents (only the body's headings are
kept); subrule letters that skip ``l`` and ``o`` (CR introduction); a subrule number
written with a trailing period (``119.1d.``); lines holding only spaces.
"""

from __future__ import annotations

import datetime as _dt
import gzip
import re
from dataclasses import dataclass
from pathlib import Path

#: Subrule letters in CR order. The CR skips "l" and "o" (confusable with 1 and 0).
SUBRULE_LETTERS = "abcdefghijkmnpqrstuvwxyz"

_SECTION_RE = re.compile(r"^([1-9])\. (\S.*)$")
_RULE_HEADING_RE = re.compile(r"^([1-9]\d\d)\. (\S.*)$")
_NUMBERED_RE = re.compile(r"^([1-9]\d\d)\.(\d+)([a-z]?)\.?(?:\s+(.*))?$")
_EFFECTIVE_RE = re.compile(r"These rules are effective as of ([A-Z][a-z]+ \d{1,2}, \d{4})\.")
_RULE_ID_RE = re.compile(r"^(?:[1-9]|[1-9]\d\d(?:\.\d+(?:[a-z])?)?)$")


class RulesFormatError(ValueError):
    """The CR text does not have the expected shape; the message names the source and line."""


@dataclass(frozen=True)
class Rule:
    """One numbered entry of the CR.

    ``rule``: the number as printed without trailing period (``"1"``, ``"107"``,
    ``"107.3"``, ``"107.3i"``). ``parent``: the enclosing entry's number (``None`` for a
    section). ``section``: the section digit (``"1"``..``"9"``). ``title``: the heading of a
    section or rule (``"Numbers and Symbols"``), or of a numbered rule that is only a
    heading (``702.19`` → ``"Trample"``); else ``None``. ``text``: the rule's full text.
    ``position``: 0-based order in the document.
    """

    rule: str
    parent: str | None
    section: str
    title: str | None
    text: str
    position: int


@dataclass(frozen=True)
class GlossaryEntry:
    """One glossary entry: ``term`` (e.g. ``"Activated Ability"``) and its ``text``."""

    term: str
    text: str


@dataclass(frozen=True)
class ComprehensiveRules:
    """The parsed CR: ``rules`` in document order, ``glossary`` in document order,
    ``effective_date`` (``None`` when the file has no effective-date line)."""

    rules: list[Rule]
    glossary: list[GlossaryEntry]
    effective_date: _dt.date | None

    def by_number(self) -> dict[str, Rule]:
        """Map rule number → :class:`Rule`."""
        return {r.rule: r for r in self.rules}


def normalize_text(text: str) -> str:
    """Drop a leading byte-order mark and turn CRLF and bare CR line endings into LF."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_rules_text(path: str | Path) -> str:
    """Read a CR file (plain or gzip-compressed, UTF-8 with or without BOM) as normalized text.

    Raises :class:`RulesFormatError` naming the file when it is not valid UTF-8.
    """
    path = Path(path)
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RulesFormatError(f"{path}: not UTF-8 text at byte {exc.start}") from exc
    return normalize_text(text)


def parent_of(rule: str) -> str | None:
    """Return the parent number of a CR number: ``107.3i → 107.3 → 107 → 1 → None``."""
    m = re.match(r"^([1-9]\d\d)\.(\d+)([a-z]?)$", rule)
    if m:
        return f"{m.group(1)}.{m.group(2)}" if m.group(3) else m.group(1)
    if re.match(r"^[1-9]\d\d$", rule):
        return rule[0]
    return None


def is_rule_number(s: str) -> bool:
    """True for strings shaped like a CR number (``"7"``, ``"605"``, ``"107.3"``, ``"107.3i"``)."""
    return bool(_RULE_ID_RE.match(s))


def parse_effective_date(text: str) -> _dt.date | None:
    """Return the date of the first ``These rules are effective as of <Month D, YYYY>.`` line."""
    m = _EFFECTIVE_RE.search(text)
    if not m:
        return None
    return _dt.datetime.strptime(m.group(1), "%B %d, %Y").date()


def _heading_title(text: str) -> str | None:
    """A numbered rule whose whole text is a short heading (``702.19. Trample``) has a title."""
    if "\n" in text or len(text) > 60 or text.endswith((".", ":", "”", '"')):
        return None
    return text


def parse_comprehensive_rules(text: str, source: str = "<rules text>") -> ComprehensiveRules:
    """Parse CR text (any line endings, optional BOM) into rules, glossary and effective date.

    ``source`` names the input in error messages. Raises :class:`RulesFormatError` when no
    numbered rule is found, when a text line appears before the first rule of the body,
    or when a rule number repeats in the body.
    """
    lines = normalize_text(text).split("\n")
    effective = parse_effective_date("\n".join(lines[:20])) or parse_effective_date("\n".join(lines))

    # The body starts at the last section heading before the first numbered rule;
    # every heading before it belongs to the introduction and the table of contents.
    first_numbered = next((i for i, ln in enumerate(lines) if _NUMBERED_RE.match(ln.strip())), None)
    if first_numbered is None:
        raise RulesFormatError(f"{source}: no numbered rule (like '100.1.') found")
    body_start = next(
        (i for i in range(first_numbered, -1, -1) if _SECTION_RE.match(lines[i].strip())), first_numbered
    )
    glossary_start = next(
        (i for i in range(first_numbered, len(lines)) if lines[i].strip() == "Glossary"), len(lines)
    )
    credits_start = next(
        (i for i in range(glossary_start, len(lines)) if lines[i].strip() == "Credits"), len(lines)
    )

    rules: list[dict] = []
    seen: dict[str, int] = {}
    section: str | None = None

    def add(number: str, title: str | None, body: str, lineno: int) -> None:
        if number in seen:
            raise RulesFormatError(f"{source}: line {lineno}: rule {number} appears twice")
        seen[number] = len(rules)
        rules.append(
            {"rule": number, "parent": parent_of(number), "section": section, "title": title, "text": body}
        )

    for idx in range(body_start, glossary_start):
        line = lines[idx].strip()
        lineno = idx + 1
        if not line:
            continue
        m = _NUMBERED_RE.match(line)
        if m:
            number = f"{m.group(1)}.{m.group(2)}{m.group(3)}"
            body = (m.group(4) or "").strip()
            add(number, None, body, lineno)
            continue
        m = _RULE_HEADING_RE.match(line)
        if m:
            add(m.group(1), m.group(2), m.group(2), lineno)
            continue
        m = _SECTION_RE.match(line)
        if m:
            section = m.group(1)
            add(m.group(1), m.group(2), m.group(2), lineno)
            continue
        # "Example: ..." lines and indented continuation paragraphs belong to the preceding rule.
        if not rules:
            raise RulesFormatError(f"{source}: line {lineno}: text before the first rule: {line[:60]!r}")
        rules[-1]["text"] = f"{rules[-1]['text']}\n{line}"

    out: list[Rule] = []
    for pos, r in enumerate(rules):
        title = r["title"]
        if title is None and "." in r["rule"] and not r["rule"][-1].isalpha():
            title = _heading_title(r["text"])
        sec = r["section"] or r["rule"][0]
        out.append(Rule(r["rule"], r["parent"], sec, title, r["text"], pos))

    glossary = _parse_glossary(lines[glossary_start + 1 : credits_start])
    return ComprehensiveRules(out, glossary, effective)


def _parse_glossary(lines: list[str]) -> list[GlossaryEntry]:
    """Glossary entries are blocks separated by blank lines: the term, then its definition lines."""
    entries: list[GlossaryEntry] = []
    block: list[str] = []
    for raw in lines + [""]:
        line = raw.strip()
        if line:
            block.append(line)
            continue
        if block:
            term, text = block[0], "\n".join(block[1:])
            entries.append(GlossaryEntry(term, text))
            block = []
    return entries


def load_comprehensive_rules(path: str | Path) -> ComprehensiveRules:
    """Read and parse a CR file (plain or gzip). See :func:`parse_comprehensive_rules`."""
    return parse_comprehensive_rules(read_rules_text(path), source=str(path))
