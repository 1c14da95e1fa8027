"""Generate ``grammar/keywords_cr.lark`` (keyword names by parameter shape) from the Comprehensive Rules.

Run: ``python -m pipeline.parse.gen_keywords [RULES.txt[.gz]]`` (default: the bundled
``data/MagicCompRules-20260227.txt.gz``). The output is committed, as ``grammar/types.lark`` is
(pipeline/parse/gen_lexicon.py): the grammar never reads the rules a refresh downloads.

* **Keyword abilities** (CR 702.2–702.190): the name of each rule ``702.N. <Name>`` ("Daybound and
  Nightbound" names two). Its **parameter shape** is read from the way the rule quotes the keyword
  (“Equip [cost]”, “Rampage N”, “Suspend N—[cost]”, “Flying”): ``[cost]`` → ``kw_cost_name`` (read as
  ``Name {cost}`` / ``Name—cost`` by grammar/keywords.lark), ``N`` → ``kw_num_name``, ``N—[cost]`` →
  ``kw_cost_name`` too (the ``kw_num_cost`` alternative), no parameter (or no quoted form) →
  ``keyword_simple``. Keywords written with another parameter (“Enchant [object or player]”,
  “Protection from [quality]”, “Boast — [Cost]: [Effect]”) are read by hand-written alternatives of
  ``keyword`` in grammar/keywords.lark and are left out, as is any name that file's ``keyword`` rule
  starts with itself (two derivations of one text would be a reduce/reduce conflict).
* **Keyword actions** (CR 701.2–701.N) and **ability words** (CR 207.2c) are listed in comments with
  their shapes (``To scry N``), for the lexicon and for readers; the action grammar is in effects.lark.

The rules text is read as UTF-8 with or without BOM; curly quotes and dashes as the CR prints them.
Raises ValueError naming the rule when the CR text does not have the expected layout.
"""

from __future__ import annotations

import gzip
import re
import sys
from pathlib import Path

from pipeline.paths import BUNDLED_RULES, GRAMMAR_DIR

OUTPUT = "keywords_cr.lark"

_TITLE = re.compile(r"^(70[12])\.(\d+)\. (.+?)\s*$", re.M)
_PREFERENCE = ("num_cost", "cost", "num", "simple", "other")
_SHAPES = {"": "simple", "n": "num", "[cost]": "cost", "n—[cost]": "num_cost", "n-[cost]": "num_cost"}


def read_rules(path: Path) -> str:
    """The CR text of ``path`` (``.gz`` or plain), BOM removed."""
    raw = gzip.open(path, "rb").read() if str(path).endswith(".gz") else Path(path).read_bytes()
    return raw.decode("utf-8-sig")


def _rule_text(text: str, section: str, n: int) -> str:
    """All lines of rule ``section.n`` and its subrules."""
    rx = re.compile(rf"^{section}\.{n}[a-z.]? .*$", re.M)
    return "\n".join(m.group(0) for m in rx.finditer(text))


def keyword_shapes(text: str) -> dict[str, str]:
    """Keyword ability name (lower case) → shape (simple|num|cost|num_cost|other), CR 702.2 onward."""
    out: dict[str, str] = {}
    titles = [(int(m.group(2)), m.group(3)) for m in _TITLE.finditer(text) if m.group(1) == "702"]
    if not titles:
        raise ValueError("CR 702: no keyword ability titles ('702.N. Name') found")
    for n, title in titles:
        if n < 2:
            continue
        names = title.split(" and ") if title.startswith("Daybound") else [title]
        body = _rule_text(text, "702", n)
        for name in names:
            if not re.fullmatch(r"[A-Za-z][A-Za-z' !-]*", name):
                continue  # "∞ (Infinity)": a symbol, not a word the lexer reads
            found = [_SHAPES.get((m.group(1) or "").strip().lower(), "other")
                     for m in re.finditer(rf"“{re.escape(name)}(?: ([^”]*?))?[.,]?”", body, re.I)]
            # also written without quotes: "Ward [cost] means …", "Casualty N means …"
            found += [_SHAPES[m.group(1).lower()] for m in re.finditer(
                rf"\b{re.escape(name)} (N—\[cost\]|N|\[cost\])(?=[\s”.,])", body, re.I)]
            # a parameter shape wins over the bare name ("Foretell" and "Foretell [cost]"), the bare
            # name over a shape read by hand ("Hexproof" and "Hexproof from [quality]")
            shape = min(found, key=_PREFERENCE.index) if found else "simple"
            out[name.lower()] = shape
    return out


def keyword_actions(text: str) -> dict[str, str]:
    """Keyword action (CR 701.2 onward, lower case) → its shape as the rule states it ("scry N")."""
    out = {}
    for m in _TITLE.finditer(text):
        if m.group(1) != "701" or int(m.group(2)) < 2:
            continue
        name = m.group(3).lower()
        body = _rule_text(text, "701", int(m.group(2)))
        shape = re.search(rf"“?to {re.escape(name)}( n| \[[^\]]*\])?", body, re.I)
        out[name] = name + ((shape.group(1) or "").lower() if shape else "")
    return out


def ability_words(text: str) -> list[str]:
    """The ability words of CR 207.2c, lower case, in the rule's order."""
    m = re.search(r"^207\.2c .*?The ability words are (.+?)\.\s*$", text, re.M)
    if m is None:
        raise ValueError("CR 207.2c: no list 'The ability words are …'")
    return [w.strip().lower().replace("’", "'") for w in re.split(r", (?:and )?", m.group(1)) if w.strip()]


def hand_starts(keywords_lark: str) -> dict[str, bool]:
    """First literal words of the alternatives of ``keyword`` in grammar/keywords.lark (the names
    that file reads with a rule of its own) → True when an alternative is that word alone."""
    block = keywords_lark.split("\nkeyword:", 1)[1].split("\n\n", 1)[0]
    out: dict[str, bool] = {}
    for m in re.finditer(r'(?:^|\|)\s*"([^"]+)"(\s*->)?', block, re.M):
        out[m.group(1)] = out.get(m.group(1), False) or bool(m.group(2))
    return out


def hand_listed(keywords_lark: str) -> set[str]:
    """Names keywords.lark adds itself to the keyword lists (``%extend keyword_simple: …``)."""
    out = set()
    for m in re.finditer(r"^%extend (?:keyword_simple|kw_cost_name|kw_num_name):(.*?)(?=\n[^\s|]|\n\n|\Z)",
                         keywords_lark, re.M | re.S):
        for alt in m.group(1).split("|"):
            words = re.findall(r'"([^"]+)"', alt)
            if words and len(words) == len(alt.split()):
                out.add(" ".join(words))
    return out


def _hand_read(name: str, shape: str, starts: dict[str, bool]) -> bool:
    """True when keywords.lark reads ``name`` with a rule of its own that would derive the same text
    as the generated entry (a parameter shape, or the bare word): generating it too would make a
    reduce/reduce conflict. ("Hexproof" stays simple beside "hexproof from …": no same text.)"""
    first = name.split()[0]
    return first in starts and (shape != "simple" or starts[first])


def _alt(name: str) -> str:
    return " ".join(f'"{w}"' for w in name.split())


def build(text: str, keywords_lark: str) -> str:
    """Return the text of grammar/keywords_cr.lark for the rules text ``text``."""
    shapes = keyword_shapes(text)
    starts = hand_starts(keywords_lark)
    listed = hand_listed(keywords_lark)
    lists: dict[str, list[str]] = {"keyword_simple": [], "kw_cost_name": [], "kw_num_name": []}
    rule_of = {"simple": "keyword_simple", "cost": "kw_cost_name", "num_cost": "kw_cost_name", "num": "kw_num_name"}
    for name, shape in shapes.items():
        if shape in rule_of and not _hand_read(name, shape, starts) and name not in listed:
            lists[rule_of[shape]].append(name)
    out = ["// Generated by pipeline/parse/gen_keywords.py from the Comprehensive Rules (CR 702.2-702.190 keyword",
           "// abilities by parameter shape; CR 701 keyword actions and CR 207.2c ability words listed below).",
           "// Do not edit by hand: run `python -m pipeline.parse.gen_keywords [RULES.txt]`. Names the CR does not",
           "// list (older wordings, variants) are %extend-ed in keywords.lark."]
    for rule, names in lists.items():
        out.append(f"{rule}: " + ("\n" + " " * len(rule) + "| ").join(_alt(n) for n in sorted(names)))
    out.append("// keyword abilities read by hand-written rules (keywords.lark): " + ", ".join(
        sorted(n for n, s in shapes.items() if s == "other" or (s in rule_of and _hand_read(n, s, starts)))))
    out.append("// keyword actions (CR 701): " + "; ".join(keyword_actions(text).values()))
    out.append("// ability words (CR 207.2c): " + ", ".join(ability_words(text)))
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> None:
    path = Path(argv[0]) if argv else BUNDLED_RULES
    text = read_rules(path)
    hand = (GRAMMAR_DIR / "keywords.lark").read_text(encoding="utf-8")
    (GRAMMAR_DIR / OUTPUT).write_text(build(text, hand), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
