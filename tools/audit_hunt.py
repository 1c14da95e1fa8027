"""Hunt silent misparses over the whole round-tripping population (issue 13 audit, beyond its sample).

The hand audit (tests/data/ast_audit_2026) judges 100 drawn lines; a cause below 1 % of the population
is rarely drawn. These scans run over every ability of :func:`audit_sample.round_tripping` (the audit's
population) and look at the *stripped* AST (``strip`` of tests/test_parse_metamorphic.py: what a SQL user
can query):

* ``collisions`` — lines with different texts (reminder text and ability word cut, case folded) that
  share one stripped AST: a word of meaning no field holds.
* ``words`` — ``words`` entries outside the closed lexicons in round-tripping ASTs: the renderer read
  them, yet the stripping (and docs/ast.md § Rendering) counts them as free text — meaning held on the
  wrong field, or a strip rule that is too strict.
* ``perturb`` — a metamorphic probe: one meaningful phrase of a line, outside reminder text, is swapped
  (:data:`SWAPS`: hand → graveyard, +1/+1 → -1/-1, "another" → "a", …). When the probe still
  round-trips and its stripped AST equals the original's, the phrase is held by no field. The probes are
  generated text used to *find* causes; the committed metamorphic pairs are real cards.

Usage, from the project root (each parses the whole corpus once, ≈ 1 min CPU; ``perturb`` adds one
parse per probe)::

    python tools/audit_hunt.py collisions
    python tools/audit_hunt.py words
    python tools/audit_hunt.py perturb [--cap 300] [--seed 5]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from audit_sample import round_tripping  # noqa: E402  (the audit's population)

from pipeline.parse import parse_face  # noqa: E402
from tests.test_parse_metamorphic import _word_ok, strip  # noqa: E402  (audit_sample put the root on sys.path)

_REMINDER = re.compile(r"\([^()]*\)")

#: (name, pattern, replacement) — one meaningful phrase and its counterpart; the replacement may use
#: the pattern's groups (``re.Match.expand``). Only the first match outside reminder text is swapped.
SWAPS: tuple[tuple[str, str, str], ...] = (
    ("your hand / your graveyard", r"\byour hand\b", "your graveyard"),
    ("your graveyard / your hand", r"\byour graveyard\b", "your hand"),
    ("+1/+1 / -1/-1 counter", r"\+1/\+1 counter", "-1/-1 counter"),
    ("or more / or fewer", r"\bor more\b", "or fewer"),
    ("or less / or greater", r"\bor less\b", "or greater"),
    ("untapped / tapped", r"\buntapped\b", "tapped"),
    ("you control / an opponent controls", r"\byou control\b", "an opponent controls"),
    ("until end of turn / none", r" until end of turn\b", ""),
    ("this turn / none", r" this turn\b", ""),
    ("you may / must", r"\byou may (?=\w)", ""),
    ("another / a", r"\banother\b", "a"),
    ("other / none", r"\bother (?=\w)", ""),
    ("each opponent / each player", r"\beach opponent\b", "each player"),
    ("target creature / each creature", r"\btarget creature\b", "each creature"),
    ("each creature / target creature", r"\beach creature\b", "target creature"),
    ("on top of / on the bottom of", r"\bon top of\b", "on the bottom of"),
    ("under your control / its owner's", r"\bunder your control\b", "under its owner's control"),
    ("power / toughness", r"\bpower\b", "toughness"),
    ("two / three", r"\btwo\b", "three"),
    ("white / black", r"\bwhite\b", "black"),
    ("attacking / blocking", r"\battacking\b", "blocking"),
    ("nontoken / token", r"\bnontoken\b", "token"),
    ("less / more (cost)", r"\} less\b", "} more"),
    ("gain / lose life", r"\bgain (\d+|X) life\b", r"lose \1 life"),
    ("enters / dies", r"\benters\b", "dies"),
    ("up to N / N", r"\bup to (one|two|three)\b", r"\1"),
    ("an additional / a", r"\ban additional\b", "a"),
    ("enchanted / equipped creature", r"\benchanted creature\b", "equipped creature"),
    ("attacks / blocks", r"\battacks\b", "blocks"),
    ("damage / combat damage", r"\bdeals (\d+|X) damage\b", r"deals \1 combat damage"),
    ("sacrifice / exile (cost)", r"\bSacrifice (an?|another) ", r"Exile \1 "),
    ("instead / none", r" instead\b", ""),
    ("{T} / {Q}", r"\{T\}", "{Q}"),
    ("target player / each player", r"\btarget player\b", "each player"),
    ("during your turn / an opponent's", r"\bduring your turn\b", "during an opponent's turn"),
    ("from your graveyard / from a graveyard", r"\bfrom your graveyard\b", "from a graveyard"),
    ("onto the battlefield / into your graveyard", r"\bonto the battlefield\b", "into your graveyard"),
    ("charge / time counter", r"\bcharge counter\b", "time counter"),
)


def _line_key(j: dict) -> str:
    """The line's text without reminder text and ability word, case folded."""
    text = _REMINDER.sub("", j["normalized"])
    if j.get("ability_word") and text.startswith(j["ability_word"]):
        text = text[len(j["ability_word"]):].lstrip(" —")
    return " ".join(text.split()).lower()


def collisions(pop: list) -> list[tuple[int, dict[str, str]]]:
    """Groups of different line texts that share one stripped AST, largest first: ``(lines, {text:
    card})``."""
    groups: dict[str, dict[str, str]] = defaultdict(dict)
    sizes: Counter = Counter()
    for rec, _fi, _f, j in pop:
        key = json.dumps(strip(j["body"]), sort_keys=True)
        groups[key].setdefault(_line_key(j), rec.get("name") or "")
        sizes[key] += 1
    return sorted(((sizes[k], g) for k, g in groups.items() if len(g) > 1), key=lambda x: -x[0])


def free_words(pop: list) -> list[tuple[int, str, str, str]]:
    """``words`` entries outside the lexicons: ``(lines, node class, word, example card)``, most
    frequent first."""
    counts: Counter = Counter()
    example: dict[tuple, str] = {}

    def walk(v, seen: set) -> None:
        if isinstance(v, dict):
            for k, x in v.items():
                if k == "words" and isinstance(x, list):
                    seen.update((str(v.get("node")), w) for w in x if not _word_ok(w))
                walk(x, seen)
        elif isinstance(v, list):
            for x in v:
                walk(x, seen)

    for rec, _fi, _f, j in pop:
        seen: set = set()
        walk(j["body"], seen)
        for key in seen:
            counts[key] += 1
            example.setdefault(key, rec.get("name") or "")
    return [(n, node, w, example[(node, w)]) for (node, w), n in counts.most_common()]


def swap(pattern: str, replacement: str, text: str) -> str | None:
    """``text`` with the first match of ``pattern`` outside parentheses replaced; None without one."""
    spans = [(m.start(), m.end()) for m in _REMINDER.finditer(text)]
    for m in re.finditer(pattern, text):
        if not any(a <= m.start() < b for a, b in spans):
            return text[:m.start()] + m.expand(replacement) + text[m.end():]
    return None


def perturb(pop: list, cap: int = 300, seed: int = 5) -> list[tuple[str, int, int, list]]:
    """For each of :data:`SWAPS`: ``(name, probes, probes that round-trip, [(card, line, probe)]
    whose stripped AST equals the original's)``, over up to ``cap`` lines drawn with ``seed``."""
    order = list(pop)
    random.Random(seed).shuffle(order)
    out = []
    for name, pattern, replacement in SWAPS:
        tried = round_trips = 0
        same = []
        for rec, _fi, f, j in order:
            if tried >= cap:
                break
            probe = swap(pattern, replacement, j["text"])
            if probe is None or probe == j["text"]:
                continue
            tried += 1
            abilities = parse_face(probe, name=f["name"], type_line=f["type_line"])
            if len(abilities) != 1 or not abilities[0].fully_parsed:
                continue
            round_trips += 1
            if strip(abilities[0].to_json()["body"]) == strip(j["body"]):
                same.append((rec.get("name") or "", j["text"], probe))
        out.append((name, tried, round_trips, same))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scan", choices=("collisions", "words", "perturb"))
    ap.add_argument("--cap", type=int, default=300, help="perturb: probes per swap (default 300)")
    ap.add_argument("--seed", type=int, default=5, help="perturb: the order lines are tried in")
    args = ap.parse_args(argv)
    pop = list(round_tripping())
    print(f"{len(pop)} round-tripping abilities")
    if args.scan == "collisions":
        groups = collisions(pop)
        print(f"{len(groups)} stripped ASTs shared by different texts ({sum(n for n, _ in groups)} lines)")
        for n, g in groups:
            print(f"{n:5d}  " + " || ".join(f"{t[:120]} [{c}]" for t, c in list(g.items())[:4]))
    elif args.scan == "words":
        for n, node, w, card in free_words(pop):
            print(f"{n:5d}  {node}: {w!r}  e.g. {card}")
    else:
        for name, tried, round_trips, same in perturb(pop, args.cap, args.seed):
            print(f"{name}: {tried} probes, {round_trips} round-trip, {len(same)} with the original's AST")
            for card, line, probe in same[:5]:
                print(f"    {card}: {line[:110]!r} -> {probe[:110]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
