"""Generate ``data/counter_kinds.tsv``, the closed lexicon of counter kinds (CR 122.1).

Run: ``python -m pipeline.parse.gen_counters [RULES.txt] [CORPUS_DIR]`` (defaults: the bundled
Comprehensive Rules and ``../shared/corpus`` beside the source tree). A counter kind is every
``<kind> counter(s)`` that

(a) the Comprehensive Rules text names (source: the first rule naming it, ``CR 122.1c``), or
(b) Wizards' Oracle text names in the two bundled corpora — MTGJSON 2022 (every set file's cards)
    and oracle-2026 (source: the first card naming it — the earliest MTGJSON printing by set release
    date, then name; a kind only in oracle-2026 its alphabetically first card),

where ``<kind>`` is one word (letters, digits, ``-``, ``'``) or a two-word keyword ("first strike",
CR 122.1b), leaving out the English words that are not kinds (:data:`NOT_KINDS`: determiners,
numbers, pronouns, verbs — "a counter", "those counters", "counter target spell"). P/T counters
("+1/+1", CR 122.1a) are kinds of their own shape (``lexicon.is_counter_kind``) and are not listed.
The file is committed (the grammar never depends on the corpora a user has), like
``grammar/keywords_cr.lark``; a test checks it is what this module writes from the bundled inputs.
"""

from __future__ import annotations

import gzip
import json
import re
import sys
from pathlib import Path

from pipeline.paths import BUNDLED_RULES, DATA_DIR

#: The committed lexicon (``kind<TAB>source`` lines after ``#`` comments).
OUTPUT = DATA_DIR / "counter_kinds.tsv"
#: The shared corpus beside a source tree (``../shared/corpus`` from the checkout root).
DEFAULT_CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"

#: Words before "counter(s)" that are not a kind: determiners, numbers and ordinals, pronouns,
#: conjunctions, prepositions, verbs and adjectives of ordinary English ("a counter", "one or more
#: counters", "that had counters", "to counter", "N counters", "keyword counters", "the last time
#: counter"). A kind is the one word before "counter(s)", or two when the word before it is not one
#: of these ("an acquired taste counter"); "first strike"/"double strike" are keywords (CR 122.1b).
NOT_KINDS = frozenset("""
a an the of or and to no all any each every another other more many most fewer less that those this
these its their your his her my our n x with without about yourself
had have has get gets got may would could can must will become becomes lose loses put puts remove
removes add adds use uses using placing putting move moved given received states specifically
instead then as new additional different keyword main-game last
zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen
seventeen eighteen nineteen twenty thirty forty fifty hundred
first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth
""".split())

# the word before the kind (a two-word kind when it is not in NOT_KINDS: "an acquired taste counter"),
# the kind, then "counter(s)" not followed by the object of the verb "counters" ("you control counters
# a spell"); kinds are lower case in Oracle text ("Spell Counter" is a card name)
_KIND_RE = re.compile(r"(?:\b([a-z][\w'\-]*) )?\b(first strike|double strike|[a-z][\w'\-]*|[+\-][\dxy]+/[+\-][\dxy]+)"
                      r" counters?\b(?! (?:a|an|target)\b)")
_PT_RE = re.compile(r"^[+-](?:\d+|x|y)/[+-](?:\d+|x|y)$")
_RULE_RE = re.compile(r"^(\d{3}\.\d+[a-z]?)\.? ")


def _clean(text: str) -> str:
    return text.replace("\u2212", "-").replace("\u2019", "'")


def _is_kind_word(word: str) -> bool:
    return not (word.endswith("'s") or word in NOT_KINDS or _PT_RE.match(word) or word.isdigit())


def kinds_in(text: str) -> list[str]:
    """The counter kinds ``text`` names, in order (lower case; P/T counters and :data:`NOT_KINDS`
    left out). ``"Put a +1/+1 counter and a storage counter on it"`` → ``["storage"]``."""
    out = []
    for m in _KIND_RE.finditer(_clean(text or "")):
        before, kind = m.group(1), m.group(2).rstrip("'")
        if _is_kind_word(kind):
            out.append(f"{before} {kind}" if before and _is_kind_word(before) else kind)
    return out


def cr_kinds(cr_text: str) -> dict[str, str]:
    """``{kind: "CR <rule>"}`` for every kind the rules text names, the first rule naming it, and the
    keyword counters CR 122.1b lists."""
    out: dict[str, str] = {}
    for line in cr_text.splitlines():
        m = _RULE_RE.match(line)
        if not m:
            continue
        for kind in kinds_in(line):
            out.setdefault(kind, f"CR {m.group(1)}")
        # CR 122.1b: "The keywords that a keyword counter can be are flying, first strike, …, and vigilance"
        kw = re.search(r"keywords that a keyword counter can be are (.+?)(?:, as well as|\.)", line)
        if kw:
            for word in re.split(r", (?:and )?", kw.group(1)):
                out.setdefault(word.strip().lower(), f"CR {m.group(1)}")
    return out


def mtgjson_kinds(mtgjson_dir: Path) -> dict[str, str]:
    """``{kind: "<card> (<SET> <release date>)"}`` over the MTGJSON v5 set files of ``mtgjson_dir``:
    for each kind the earliest printing naming it (release date, then card name)."""
    first: dict[str, tuple[str, str, str]] = {}
    for path in sorted(mtgjson_dir.glob("*.json.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            data = json.load(fh)["data"]
        date, code = data.get("releaseDate") or "9999", data.get("code") or path.name.split(".")[0]
        for card in data.get("cards", []):
            name = card.get("faceName") or card.get("name") or ""
            for kind in kinds_in(card.get("text") or ""):
                key = (date, name, code)
                if kind not in first or key < first[kind]:
                    first[kind] = key
    return {k: f"{name} ({code} {date})" for k, (date, name, code) in first.items()}


def oracle_kinds(jsonl_gz: Path) -> dict[str, str]:
    """``{kind: "<card> (oracle-2026)"}`` over the oracle-2026 JSON Lines file: the alphabetically
    first card (or face) naming each kind."""
    first: dict[str, str] = {}
    with gzip.open(jsonl_gz, "rt", encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            faces = [f for f in rec.get("faces") or [] if f.get("oracle_text")] or [rec]
            for face in faces:
                for kind in kinds_in(face.get("oracle_text") or ""):
                    name = face.get("name") or rec.get("name") or ""
                    if kind not in first or name < first[kind]:
                        first[kind] = name
    return {k: f"{n} (oracle-2026)" for k, n in first.items()}


def read_rules(path: Path) -> str:
    """The rules text of ``path`` (``.txt`` or ``.txt.gz``, UTF-8 with or without BOM)."""
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8-sig") as fh:
        return fh.read()


def build(cr_text: str, corpus_dir: Path) -> str:
    """The text of ``data/counter_kinds.tsv``: one ``kind<TAB>source`` line per kind, sorted by kind;
    the CR's source wins over a card's. Raises FileNotFoundError when a corpus file is missing."""
    oracle = corpus_dir / "oracle-2026" / "cards-2026.jsonl.gz"
    mtgjson = corpus_dir / "mtgjson-v5-20220425"
    if not oracle.is_file() or not mtgjson.is_dir():
        raise FileNotFoundError(f"corpus not found under {corpus_dir}")
    kinds = oracle_kinds(oracle)
    kinds.update(mtgjson_kinds(mtgjson))
    kinds.update(cr_kinds(cr_text))
    head = ["# Counter kinds (CR 122.1): every \"<kind> counter\" the Comprehensive Rules or Wizards' Oracle",
            "# text in the bundled corpora (MTGJSON 2022, oracle-2026) names, with its source: the first CR",
            "# rule naming it, else the first card. Generated by `python -m pipeline.parse.gen_counters`;",
            "# do not edit by hand. P/T counters (+1/+1, CR 122.1a) are recognised by their shape."]
    return "\n".join(head + [f"{k}\t{kinds[k]}" for k in sorted(kinds)]) + "\n"


def main(argv: list[str]) -> None:
    rules = Path(argv[0]) if argv else BUNDLED_RULES
    corpus = Path(argv[1]) if len(argv) > 1 else DEFAULT_CORPUS
    OUTPUT.write_text(build(read_rules(rules), corpus), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
