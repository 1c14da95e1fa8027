"""The rules a ruling applies (``ruling_rules``): 0–3 CR numbers per ruling, most specific first.

:class:`RulingRuleLinker` is built once from the Comprehensive Rules alone (rule texts, the
glossary, keyword titles and ``data/ruling_phrases.csv``); :meth:`RulingRuleLinker.link` then
looks at one ruling at a time — its text, the card's name, the CR numbers it cites and the
rules its ability brings — so an incremental refresh that re-annotates a few rulings gets the
same rows as a full build. No statistic is taken over the rulings.

Signals (the ``how`` of a row; docs/annotate.md has the closed list):

``cited``            the ruling writes the number (``rule 107.3i``, ``(704.5a)``);
``phrase``           a ruling template of ``data/ruling_phrases.csv`` matches ("is an illegal
                     target … doesn't resolve" → 608.2b, "copies exactly what was printed" → 707.2);
``keyword``          the ruling names a keyword ability or a distinctive keyword action (the
                     title of a CR 701/702 rule: "trample", "scry"); the subrule is picked by BM25
                     among that rule's subrules;
``glossary_term``    the ruling uses a term the CR glossary defines ("state-based action",
                     "mana value"); the subrule is picked by BM25 among the rules the entry points to;
``ability_feature``  the ability the ruling is about (``ruling_abilities``) has a feature whose
                     rule (``inferred_rules``: X → 107.3, copy → 707, mana ability → 605) holds a
                     subrule BM25 ranks high for the ruling;
``text_match``       BM25 (``bm25s``) over every numbered rule and subrule of the CR: never alone,
                     only the free ranks beside a found rule (the best rule of a 3-digit rule already
                     found, then the best documents of numbered rules no row has yet).

Before those best documents, free ranks 2–3 are offered to the families the signals name (the rules
of the ruling's ability, every keyword and glossary term it names, also those too weak to stand alone):
their best subrule keeps the family's ``how`` and, like every fill, scores ≤ 0.3
(:meth:`RulingRuleLinker._family_fill`).

A ruling that states no rules point (errata notes, card-specific reading) gets no row: phrases
marked ``none`` in the data file, and weak text matches, give nothing.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable

import ahocorasick
import bm25s
import numpy as np

try:  # the regex parser, to find the literals a phrase needs (Python 3.11+ / older)
    import re._constants as _sc
    import re._parser as _sp
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _sc  # type: ignore[no-redef]
    import sre_parse as _sp  # type: ignore[no-redef]

from pipeline.annotate.citations import extract_citations
from pipeline.paths import DATA_DIR
from pipeline.sources.comprehensive_rules import ComprehensiveRules, is_rule_number

RULING_PHRASES_FILE = DATA_DIR / "ruling_phrases.csv"
HOWS = ("cited", "phrase", "keyword", "glossary_term", "ability_feature", "text_match")
MAX_ROWS = 3
#: A keyword named in a ruling stands alone only when one of its subrules matches the ruling
#: this well (BM25) and about as well as any rule: "multiple instances of shadow are redundant".
KEYWORD_SUPPORT = 7.0
#: ... and its score is at least this share of the best score of any rule.
SUPPORT_SHARE = 0.8

#: Free ranks beside a found rule are filled with BM25's best documents of other numbered rules
#: (among the FILL_DEPTH best) that score at least this share of the best document.
FILL_SHARE = 0.95
FILL_DEPTH = 10
#: Free ranks are first filled with the best subrule of each family a signal names (the ruling's
#: ability's rules, every keyword and glossary term it names, in passing too) scoring at least this
#: share of the best document; then by FILL_SHARE.
FAMILY_SHARE = 0.5

# Keyword actions (CR 701) that rulings name in passing ("exile it", "destroy"), so naming
# them says nothing about which rule applies; distinctive ones (scry, proliferate) do.
GENERIC_ACTIONS = frozenset({
    "activate", "attach", "cast", "counter", "create", "destroy", "discard", "double", "triple", "exchange",
    "exile", "fight", "play", "reveal", "sacrifice", "search", "shuffle", "tap and untap", "regenerate",
    "transform", "convert", "vote", "support", "learn", "discover", "behold",
})
_STOP = frozenset("""a an the and or of to in on it its is are be been was were that this these those with for from as
at by if then than any each your you their they them can may will would does do not no only also into onto has have had
which who whose when whenever while other another same such so but there here what how all one more less up out even
because before after during until both either s t ll won don doesn isn""".split())
_WORD_RE = re.compile(r"[a-z0-9]+(?:/[a-z0-9+]+)?")
# A glossary term used more often than this in the rule texts is too general to point anywhere,
# and so are these, which rulings use as everyday words ("it's tapped", "when it dies").
GENERIC_TERM_USES = 60
GENERIC_TERMS = frozenset({
    "tapped", "untapped", "untap", "dies", "basic", "oracle", "loyalty", "creature type", "defending player",
    "as though", "leaves the battlefield", "combat damage", "poison counter", "emblem", "enchantment",
    "attacking player", "nonbasic land", "permanent card", "land type", "card type", "counter",
})


class PhraseError(ValueError):
    """``data/ruling_phrases.csv`` is malformed; the message names the file, line and field."""


def required_literals(pattern: str) -> tuple[frozenset[str], ...]:
    """Sets of lower-case strings (3 characters or more) such that every text ``pattern`` matches
    contains at least one string of each set; ``()`` when no such set is known. A cheap test of
    them (one Aho–Corasick pass over the ruling) skips most regex searches: the phrase table is
    tried on every ruling. ``"won't be put (?:on|onto) the stack"`` → ``({"won't be put "},
    {" the stack"})``; ``"(?:dies|die) at the same time"`` → ``({"die"}, {" at the same time"})``."""
    def best(sets: list[frozenset[str]]) -> frozenset[str] | None:
        return max(sets, key=lambda c: min(map(len, c)), default=None)

    def seq(items) -> list[frozenset[str]]:
        found: list[frozenset[str]] = []
        run = ""

        def offer(cands) -> None:
            found.extend(c for c in cands if c and min(map(len, c)) >= 3)
        for op, arg in list(items) + [(None, None)]:
            if op is _sc.LITERAL:
                run += chr(arg).lower()
                continue
            offer([frozenset({run})] if run else [])
            run = ""
            if op is _sc.BRANCH:  # one string of every branch's best set
                branches = [best(seq(b)) for b in arg[1]]
                offer([] if any(b is None for b in branches) else [frozenset().union(*branches)])
            elif op is _sc.SUBPATTERN:
                offer(seq(arg[-1]))
            elif op in (_sc.MAX_REPEAT, _sc.MIN_REPEAT) and arg[0] >= 1:
                offer(seq(arg[2]))
        return found
    return tuple(dict.fromkeys(seq(_sp.parse(pattern))))


@dataclass(frozen=True)
class Phrase:
    """One ruling template: ``pattern`` (regex, case-insensitive, on the ruling text with ’ as ')
    → ``rules`` (CR numbers, most specific first; ``722*`` = the subrule of 722 that BM25 ranks
    highest for the ruling) or ``none`` (the ruling states no rules point)."""

    pattern: re.Pattern
    rules: tuple[str, ...]
    none: bool
    reason: str
    needs: tuple[frozenset[str], ...] = ()  # required_literals(pattern): one string of each set


@dataclass(frozen=True)
class RuleLink:
    """One ``ruling_rules`` row without its ids: ``rule`` (CR number), ``rank`` (1 = most
    specific / strongest), ``how`` (one of :data:`HOWS`) and ``score`` (0..1, larger is surer)."""

    rule: str
    rank: int
    how: str
    score: float


def load_phrases(path: str | Path = RULING_PHRASES_FILE, known: set[str] | None = None) -> list[Phrase]:
    """Read the phrase table (columns ``pattern``, ``rules``, ``reason``; ``rules`` is
    space-separated CR numbers or ``none``). Raises :class:`PhraseError` for a missing column,
    an empty field, a bad regex, or a number that is not a CR number (or not in ``known``)."""
    path = Path(path)
    out: list[Phrase] = []
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        missing = {"pattern", "rules", "reason"} - set(reader.fieldnames or [])
        if missing:
            raise PhraseError(f"{path}: missing column(s) {sorted(missing)}")
        for lineno, row in enumerate(reader, start=2):
            pattern, rules, reason = ((row.get(k) or "").strip() for k in ("pattern", "rules", "reason"))
            if not pattern or not rules or not reason:
                raise PhraseError(f"{path}: line {lineno}: empty pattern, rules or reason")
            try:
                rx = re.compile(pattern, re.IGNORECASE)
            except re.error as exc:
                raise PhraseError(f"{path}: line {lineno}: field pattern: {exc}") from exc
            numbers = tuple(rules.split())
            none = numbers == ("none",)
            for n in () if none else numbers:
                n = n.removesuffix("*")
                if not is_rule_number(n) or (known is not None and n not in known):
                    raise PhraseError(f"{path}: line {lineno}: field rules: {n!r} is not a rule of the loaded CR")
            out.append(Phrase(rx, () if none else numbers, none, reason, required_literals(pattern)))
    return out


def _plain(text: str) -> str:
    return (text or "").replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')


@lru_cache(maxsize=1 << 16)
def _stem(word: str) -> str:
    for suffix in ("ing", "ies", "es", "ed", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def tokens(text: str) -> list[str]:
    """Lower-cased, stop-word-free, crudely stemmed words of ``text`` (the BM25 vocabulary)."""
    t = _plain(text).lower().replace("enters the battlefield", "enters")
    return [_stem(w) for w in _WORD_RE.findall(t) if w not in _STOP and len(w) > 1]




_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789'/+-")


def verb_forms(phrase: str) -> tuple[str, ...]:
    """The -ing and -ed forms of a keyword action's title, its first word inflected
    ("manifest" → "manifesting", "manifested"; "scry" → "scrying", "scried"; "explore" →
    "exploring", "explored"; "collect evidence" → "collecting evidence", "collected evidence")."""
    word, _, rest = phrase.partition(" ")
    if word.endswith("e"):
        forms = (word[:-1] + "ing", word + "d")
    elif word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        forms = (word + "ing", word[:-1] + "ied")
    else:
        forms = (word + "ing", word + "ed")
    return tuple(f"{f} {rest}".strip() for f in forms)


class Vocabulary(dict):
    """Lower-case phrases (keyword titles, glossary terms) → a value, with an Aho–Corasick
    automaton that finds them and their plurals in a text in one pass; ``forms`` adds more
    surfaces of some phrases (phrase → other spellings found as that phrase)."""

    def __init__(self, items: dict, forms: dict[str, tuple[str, ...]] | None = None):
        super().__init__(items)
        self.automaton = ahocorasick.Automaton()
        for phrase in self:
            for surface in (phrase, phrase + "s", phrase + "es", *(forms or {}).get(phrase, ())):
                self.automaton.add_word(surface, (phrase, len(surface)))
        if len(self):
            self.automaton.make_automaton()


def _phrases_in(text: str, vocabulary: Vocabulary) -> list[str]:
    """Every entry of ``vocabulary`` found in ``text`` as whole words, a plural last word allowed
    ("state-based actions" finds "state-based action"), in order of appearance; a longer phrase
    wins over the phrases inside it."""
    if not len(vocabulary):
        return []
    t = _plain(text).lower()
    hits = []
    for end, (phrase, n) in vocabulary.automaton.iter(t):
        start = end - n + 1
        if (start == 0 or t[start - 1] not in _WORD_CHARS) and (end + 1 == len(t) or t[end + 1] not in _WORD_CHARS):
            hits.append((start, -n, end, phrase))
    hits.sort()
    out: list[str] = []
    reached = -1
    for start, _, end, phrase in hits:
        if start > reached:
            out.append(phrase)
            reached = end
    return out


# Examples a ruling gives ("(such as a flashback cost)", "For example, you can't cast a spell using its
# flashback ability …") name keywords and glossary terms the ruling is not about: they are left out
# before keywords and terms are looked for (BM25 still reads the whole text). The same rule as the
# ruling → ability links' example rule (ruling_links.py).
_EXAMPLES = re.compile(
    r"\((?:such as|for example|for instance|like|e\.g\.)[^)]*\)"
    r"|,? such as [^.;:(),]*"
    r"|(?:^|(?<=[.!?] ))for (?:example|instance),[^.]*(?:\.|$)", re.IGNORECASE)


def without_examples(text: str) -> str:
    """``text`` with its examples left out: parentheses opening with "such as"/"for example", a
    ", such as …" run up to the next comma or stop, and whole sentences opening with "For example,"."""
    return _EXAMPLES.sub(" ", text)


def _base(rule: str) -> str:
    """The numbered rule of a subrule (``707.9b`` → ``707.9``); other numbers unchanged."""
    return rule[:-1] if "." in rule and rule[-1].isalpha() else rule


class RulingRuleLinker:
    """Links rulings to CR rules; built from one CR edition (see the module docstring).

    ``cr``: the parsed rules; ``phrases``: the phrase table (default: ``data/ruling_phrases.csv``).
    Raises :class:`PhraseError` when a phrase names a number the CR does not have.
    """

    def __init__(self, cr: ComprehensiveRules, phrases: list[Phrase] | None = None):
        by = cr.by_number()
        self.known = set(by)
        self.phrases = phrases if phrases is not None else load_phrases(known=self.known)
        # Documents: numbered rules and subrules ("608.2", "608.2b"), each with its rule's title.
        self.docs = [r.rule for r in cr.rules if "." in r.rule]
        self.index_of = {rule: i for i, rule in enumerate(self.docs)}
        texts = []
        for rule in self.docs:
            head = by.get(rule.split(".")[0])
            parent = by.get(_base(rule)) if rule != _base(rule) else None
            title = " ".join(x for x in (head.title if head else "", parent.title if parent and parent.title else "") if x)
            texts.append(tokens(f"{title} {by[rule].text.split('Example:')[0]}"))
        self.bm25 = bm25s.BM25()
        self.bm25.index(texts, show_progress=False)
        # Subtrees: numbered rule / rule → its documents.
        self.subtree: dict[str, list[int]] = {}
        for i, rule in enumerate(self.docs):
            for prefix in {rule.split(".")[0], _base(rule), rule}:
                self.subtree.setdefault(prefix, []).append(i)
        # Keywords (CR 701/702 titles) → rule, and glossary terms → the rules their entries point
        # to (a term that is in many rule texts is too general to point anywhere): one regex each.
        keywords: dict[str, str] = {}
        for r in cr.rules:
            if r.title and r.rule.count(".") == 1 and r.rule.split(".")[0] in ("701", "702") and r.rule[-1].isdigit():
                if r.title.lower() not in GENERIC_ACTIONS:
                    keywords.setdefault(r.title.lower(), r.rule)
        # keyword actions are also named as verbs ("manifesting a card", "the scried cards")
        forms = {k: verb_forms(k) for k, rule in keywords.items() if rule.startswith("701.")}
        self.keywords = Vocabulary(keywords, forms)
        candidates: dict[str, tuple[str, ...]] = {}
        for g in cr.glossary:
            term = re.sub(r"\s*\(.*\)$", "", g.term).strip().lower()
            rules = tuple(dict.fromkeys(c.rule for c in extract_citations(g.text) if c.rule in by))
            if (len(term) >= 4 and rules and term not in keywords and term not in GENERIC_ACTIONS
                    and term not in GENERIC_TERMS):
                candidates.setdefault(term, rules)
        uses: dict[str, int] = {}
        for phrase in _phrases_in(" ".join(by[d].text for d in self.docs), Vocabulary(candidates)):
            uses[phrase] = uses.get(phrase, 0) + 1
        terms = {t: r for t, r in candidates.items() if uses.get(t, 0) <= GENERIC_TERM_USES}
        self.terms = Vocabulary(terms)
        self.vocabulary = Vocabulary({**terms, **keywords}, forms)
        self._memo: dict[tuple, list[RuleLink]] = {}
        # Every literal some phrase needs, found in one pass (Aho–Corasick, overlapping matches).
        self._literals = ahocorasick.Automaton()
        self._literals_all: set[str] = set()
        self._always = [i for i, ph in enumerate(self.phrases) if not ph.needs]
        self._needed_by: dict[str, list[int]] = {}
        for i, ph in enumerate(self.phrases):
            # indexed by its most selective set (longest shortest string), the others checked after
            for w in max(ph.needs, key=lambda c: min(map(len, c))) if ph.needs else ():
                self._needed_by.setdefault(w, []).append(i)
            for w in frozenset().union(*ph.needs):
                self._literals_all.add(w)
        for w in self._literals_all:
            self._literals.add_word(w, w)
        if len(self._literals):
            self._literals.make_automaton()

    def _literals_in(self, lowered: str) -> set[str]:
        """The phrase-table literals (:func:`required_literals`) that occur in ``lowered``."""
        if not len(self._literals):
            return set()
        return {w for _, w in self._literals.iter(lowered)}

    # -- scoring helpers -------------------------------------------------------------------
    def scores(self, text: str) -> np.ndarray:
        """BM25 score of every document for ``text`` (array aligned with ``self.docs``)."""
        q = tokens(text)
        if not q:
            return np.zeros(len(self.docs), dtype=np.float32)
        return self.bm25.get_scores(q)

    def best_in(self, prefix: str, s: np.ndarray) -> tuple[str, float] | None:
        """The best-scoring document under ``prefix`` (a rule and its subrules), or None."""
        idx = self.subtree.get(prefix)
        if not idx:
            return None
        j = max(idx, key=lambda i: s[i])
        return self.docs[j], float(s[j])

    def _family_fill(self, s: np.ndarray, norm: float, named: list[str],
                     feature_rules: Iterable[str]) -> list[tuple[str, str, float]]:
        """Fill candidates ``(rule, how, score)`` for ranks 2–3, best BM25 score first: the best
        document under each family a signal of the ruling names — the rules its ability brings
        (``ability_feature``), each keyword (``keyword``) and each glossary entry's rules
        (``glossary_term``) it names, also those too weak to stand alone — when it scores at least
        :data:`FAMILY_SHARE` of ``norm`` (the best score of any document). Scores are ≤ 0.3, as for
        ``text_match`` fills."""
        families = [(rule, "ability_feature") for rule in feature_rules]
        families += [(self.keywords[n], "keyword") for n in named if n in self.keywords]
        families += [(rule, "glossary_term") for n in named if n in self.terms for rule in self.terms[n]]
        picks = []
        for family, how in families:
            best = self.best_in(family, s)
            if best and best[1] >= FAMILY_SHARE * norm:
                picks.append((best[1], best[0], how))
        picks.sort(key=lambda p: -p[0])  # stable: ties keep the order of the signals
        return [(rule, how, round(0.3 * sc / norm, 3)) for sc, rule, how in picks]

    # -- the method ------------------------------------------------------------------------
    def link(self, comment: str, card_name: str = "", cited: Iterable[str] = (),
             feature_rules: Iterable[str] = (), card_keywords: Iterable[str] = ()) -> list[RuleLink]:
        """Return 0–:data:`MAX_ROWS` :class:`RuleLink` for one ruling, rank 1 first.

        ``comment``: the ruling text; ``card_name``: its card (removed before matching);
        ``cited``: CR numbers the ruling cites that exist in this CR; ``feature_rules``: rules
        the ruling's ability brings (``inferred_rules`` of the linked ability); ``card_keywords``:
        the card's keywords (a keyword the card has counts more than one named in passing).
        """
        text = _plain(comment)
        for name in sorted({card_name, *card_name.split(" // ")}, key=len, reverse=True):
            if len(name) > 2:
                text = text.replace(_plain(name), "this")
        named = list(dict.fromkeys(_phrases_in(without_examples(text), self.vocabulary)))
        own = frozenset(k.lower() for k in card_keywords) & frozenset(named)
        key = (text, tuple(cited), tuple(feature_rules), own)
        if key not in self._memo:  # the same text and signals on another card: the same links
            self._memo[key] = self._link(text, named, list(cited), list(feature_rules), own)
        return self._memo[key]

    def _link(self, text: str, named: list[str], cited: list[str], feature_rules: list[str],
              own: frozenset[str]) -> list[RuleLink]:
        says_none = False
        phrase_rules: list[str] = []
        candidates = set(self._always)
        present = self._literals_in(text.lower())
        for w in present:
            candidates.update(self._needed_by.get(w, ()))
        for i in sorted(candidates):  # in file order
            ph = self.phrases[i]
            if all(present & need for need in ph.needs) and ph.pattern.search(text):
                says_none = says_none or ph.none
                phrase_rules.extend(ph.rules)
        if says_none and not cited:
            return []
        keywords = [n for n in named if n in self.keywords]
        terms = [n for n in named if n in self.terms]
        if not (cited or phrase_rules or keywords or terms):
            return []  # nothing in the ruling points at a rule: no BM25 needed
        s = self.scores(text)
        top = float(s.max()) if len(s) else 0.0
        norm = max(top, 1e-9)
        found: list[tuple[str, str, float]] = []  # (rule, how, score) in priority order
        weak: list[tuple[str, str, float]] = []   # only fill ranks beside a signal in `found`
        found.extend((rule, "cited", 1.0) for rule in cited)
        for rule in phrase_rules:
            if rule.endswith("*"):
                best = self.best_in(rule[:-1], s)
                rule = best[0] if best and best[1] > 0 else rule[:-1]
            found.append((rule, "phrase", 0.9))
        for name in keywords:
            rule = self.keywords[name]
            best = self.best_in(rule, s)
            if best:
                pick = best[0] if best[1] >= 0.5 * norm else rule
                score = (0.6 if name in own else 0.5) + 0.3 * best[1] / norm
                # named in passing ("… and give them haste"): only beside a stronger signal
                (found if best[1] >= KEYWORD_SUPPORT and best[1] >= SUPPORT_SHARE * norm else weak).append(
                    (pick, "keyword", score))
        for term in terms:
            cands = [b for b in (self.best_in(r, s) for r in self.terms[term]) if b]
            if cands:
                rule, sc = max(cands, key=lambda b: b[1])
                if sc >= KEYWORD_SUPPORT and sc >= SUPPORT_SHARE * norm:
                    found.append((rule, "glossary_term", 0.4 + 0.3 * sc / norm))
                elif sc >= 0.6 * norm or " " in term or "-" in term:
                    weak.append((rule, "glossary_term", 0.4 + 0.3 * sc / norm))
        if not found:
            return []
        found.extend(weak)
        for fr in feature_rules:  # the ruling's ability's features refine, never stand alone
            best = self.best_in(fr, s)
            if best and best[1] >= 0.8 * norm:
                found.append((best[0], "ability_feature", 0.3 + 0.4 * best[1] / norm))
        if top > 0:  # BM25's best rule fills a free rank beside a found rule of the same 3-digit rule
            best = self.docs[int(np.argmax(s))]
            if any(best.split(".")[0] == rule.split(".")[0] for rule, _, _ in found):
                found.append((best, "text_match", 0.3 * min(1.0, top / 20)))
        # Free ranks left: BM25's best documents of numbered rules no row has yet fill them, best
        # first, while they score at least FILL_SHARE of the best document ("text_match", never rank 1).
        fill: list[tuple[str, str, float]] = []
        if top > 0:
            for j in np.argsort(-s)[:FILL_DEPTH]:
                if s[j] < FILL_SHARE * top:
                    break
                fill.append((self.docs[j], "text_match", 0.3 * min(1.0, float(s[j]) / 20)))
        # Before them: the best subrule of each family the ruling's signals name (issue 14, fourth round).
        fill = self._family_fill(s, norm, named, feature_rules) + fill
        out: list[RuleLink] = []
        seen: set[str] = set()
        for k, (rule, how, score) in enumerate(found + fill):
            # one row per rule; a numbered rule and its own subrule are one rule here (608.2 / 608.2b),
            # two subrules of one numbered rule (107.3g, 107.3m) are two, except when filling
            if rule in seen or (rule == _base(rule) and rule in {_base(r) for r in seen}) or _base(rule) in seen:
                continue
            if k >= len(found) and _base(rule) in {_base(r) for r in seen}:
                continue
            seen.add(rule)
            out.append(RuleLink(rule, len(out) + 1, how, round(score, 3)))
            if len(out) == MAX_ROWS:
                break
        return out


