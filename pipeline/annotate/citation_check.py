"""Check a cited CR number against what the ruling says around it (``ruling_rule_refs.status``).

Rulings cite the CR of their own date, and numbers move between editions: Rules Lawyer's 2018
rulings cite 704.5s, 704.5t and 704.5u for the Two-Headed Giant and Commander losing
conditions, which the 2026 CR numbers 704.6a, 704.6b and 704.6c (its 704.5s is now about
Sagas). Resolving by number alone would show the wrong rule's text.

:func:`check_citation` is generic (no list of known cases): it takes the ruling's words around
the citation (:func:`citation_context`), scores every rule of the CR against them with the same
BM25 index ``ruling_rules`` uses, and compares the cited rule with the best rule of the same
3-digit rule (704.*). Statuses:

``resolved``     the number exists and the context supports it: its score is at least
                 :data:`MIN_SUPPORT`, or at least :data:`RESOLVED_SHARE` of the best score in
                 its family;
``renumbered?``  the number exists but another rule of the family matches the context clearly
                 better — the evidence names it ("now probably 704.6a");
``missing``      the number is not in the loaded CR.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.annotate.citations import Citation, extract_citations
from pipeline.annotate.ruling_rules import RulingRuleLinker, tokens

RESOLVED_SHARE = 0.5
#: A BM25 score of the cited rule for the context at or above this means the ruling's words are
#: about that rule (they share its distinctive terms), whatever else also matches.
MIN_SUPPORT = 1.5
_LIST_GAP = re.compile(r"^(?:\s*(?:,|and|or|and/or|–|-)\s*)*$")


@dataclass(frozen=True)
class CitationStatus:
    """``status`` (resolved | renumbered? | missing) and its human-readable ``evidence``."""

    status: str
    evidence: str


def citation_context(comment: str, citation: Citation, previous_end: int = 0) -> str:
    """The words the ruling says about the cited rule: its text from the end of the previous
    citation (``previous_end``, 0 for the first) to this citation, or, when that is too short to
    judge (a citation at the start of a sentence), the sentence that follows. Citation numbers
    themselves are left out."""
    text = comment[previous_end: citation.start]
    if len(tokens(text)) < 3:
        text = f"{text} {comment[citation.end:].split('.')[0]}"
    return re.sub(r"\b\d{3}\.\d+[a-z]?\b", " ", text).strip(" ()")


def citation_starts(comment: str) -> list[tuple[Citation, int]]:
    """Every citation of ``comment`` (:func:`~pipeline.annotate.citations.extract_citations`) with
    where its context starts: the end of the previous citation, except that citations written as
    one list ("(704.5s and 704.5t)") share the context of the list's first."""
    out: list[tuple[Citation, int]] = []
    start, prev = 0, None
    for c in extract_citations(comment):
        if prev is not None and not _LIST_GAP.match(comment[prev.end: c.start]):
            start = prev.end
        out.append((c, start))
        prev = c
    return out


def check_citation(linker: RulingRuleLinker, comment: str, citation: Citation,
                   previous_end: int = 0) -> CitationStatus:
    """Status of one cited number (see the module docstring). ``linker``: built from the CR the
    citation is checked against; ``previous_end``: where the ruling's previous citation ends."""
    rule = citation.rule
    if rule not in linker.known:
        return CitationStatus("missing", f"{rule} is not in the loaded CR")
    if rule not in linker.index_of:  # a section or 3-digit rule: nothing finer to compare
        return CitationStatus("resolved", f"{rule} exists (a whole rule or section; not compared)")
    context = citation_context(comment, citation, previous_end)
    s = linker.scores(context)
    family = rule.split(".")[0]
    own = float(s[linker.index_of[rule]])
    best = linker.best_in(family, s)
    words = " ".join(context.split()[:12])
    if best is None or best[0] == rule or own >= MIN_SUPPORT or own >= RESOLVED_SHARE * best[1]:
        return CitationStatus("resolved", f"context “{words}…” matches {rule} (score {own:.1f})")
    return CitationStatus(
        "renumbered?",
        f"context “{words}…” matches {rule} weakly (score {own:.1f}); "
        f"now probably {best[0]} (score {best[1]:.1f})")
