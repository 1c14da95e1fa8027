"""Named alternatives: the literal words that tell apart the alternatives of one grammar rule.

Lark drops the anonymous string tokens of a rule (``"hand"``, ``"less"``, ``"target"``) from its
parse tree, so two alternatives of one alias that differ only in such words — ``("put"|"puts")
obj "into" ("your"|"their") ("hand"|"graveyard") -> a_put_into`` — would give one tree: "into your
hand" and "into your graveyard" the same AST. The parser is therefore built with
``keep_all_tokens=True`` (pipeline/parse/grammar.py) and the transformer
(:meth:`pipeline.parse.transform.ToAst._call_userfunc`) takes the literal tokens out of every
callback's children again, keeping them aside: when the rule (alias) is one whose alternatives
collapse — two expansions with the same non-literal symbols but different literal words — the
matched words that tell such expansions apart are the alternative's **form**, kept on the
node the callback returned (``Action.extra["form"]``, an ``Obj`` qualifier ``form:<w>+<w>``, a
quantifier ``name:<w>+<w>``, a qualifier string ``name:<w>+<w>``).

A form's words are grammar literals (a closed vocabulary: the literal words of ``grammar/*.lark``),
normalised so that inflections do not count as a difference (:func:`norm_word`: "draws" = "draw",
"an" = "a", "counters" = "counter"). Punctuation never counts.

:func:`literal_table` computes the table once per process from the built parser's rules.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache

#: Literal words that are spelling variants of another (number, article, reflexive, tense of "be";
#: "in"/"from" a zone: "creature cards in your graveyard" = "… from your graveyard").
SYNONYMS = {"an": "a", "itself": "it", "they": "it", "them": "it", "themselves": "it", "counters": "counter",
            "cards": "card", "in": "from", "was": "is", "are": "is", "were": "is", "did": "do"}

_WORDLIKE = re.compile(r"[a-z0-9]")


@dataclass(frozen=True)
class LiteralTable:
    """literal_types: terminal names whose pattern is a string (the anonymous literals Lark would
    filter); literals: their values; common: rule key (alias, else rule name) → the normalised
    literal words found in every expansion of that key, for the keys whose alternatives collapse
    (only those get a form)."""
    literal_types: frozenset
    literals: frozenset
    distinguishing: dict

    def dist(self, name: str) -> frozenset | None:
        """The distinguishing words of rule (alias) ``name`` (:func:`rule_key`), None when its
        alternatives do not collapse."""
        return self.distinguishing.get(rule_key(name))


def norm_word(word: str, literals: frozenset) -> str:
    """Normalise one literal word for comparing alternatives: SYNONYMS, then a plural / third
    person "-s"/"-es"/"-ies" form whose stem is itself a grammar literal ("draws" → "draw")."""
    word = SYNONYMS.get(word, word)
    if word.endswith("ies") and word[:-3] + "y" in literals:  # "scries" = "scry"
        return word[:-3] + "y"
    if word.endswith("es") and word[:-2] in literals:
        return word[:-2]
    if word.endswith("s") and word[:-1] in literals:
        return word[:-1]
    return word


def rule_key(name: str) -> str:
    """The key under which a rule's alternatives are compared: its alias, except that the
    conditions of ``grammar/conditions.lark`` (``cd2_<name>``) and of ``grammar/effects.lark``
    (``cd_<name>``) give one node (``condition:<name>``) and are compared as one rule."""
    return "cd_" + name[4:] if name.startswith("cd2_") else name


def _symbol_class(key: str, name: str) -> str:
    """A symbol of an event or condition rule (``ev_*``, ``cd_*``) as its renderer sees it: a list
    of type words (``dwords`` / ``dlist``) and a repetition of post-modifiers (Lark's ``__…`` helper
    rules) are one symbol each, so alternatives that differ only in literal words around them
    ("you control no Islands" / "… no other Islands") are told apart by their form."""
    if not key.startswith(("ev_", "cd_")):
        return name
    if name in ("dwords", "dlist"):
        return "dlist"
    return "__rep" if name.startswith("__") else name


def is_word(value: str) -> bool:
    """A literal that can be part of a form (not punctuation, not the possessive "'s")."""
    return bool(_WORDLIKE.search(value)) and not value.startswith("'")


def build_table(rules, terminals, declared=frozenset()) -> LiteralTable:
    """Build the LiteralTable from a Lark parser's ``rules`` and ``terminals``; ``declared``: the
    names of ``%declare``d terminals (made by the lexer, never literals — a literal "rest" is named
    after the declared REST by Lark, so the name alone does not tell)."""
    lit = {t.name: t.pattern.value for t in terminals if t.pattern.type == "str" and t.name not in declared}
    literals = frozenset(lit.values())
    by_key: dict = defaultdict(lambda: defaultdict(set))
    for r in rules:
        key = rule_key(r.alias or r.origin.name)
        kept = tuple(_symbol_class(key, s.name) for s in r.expansion if s.name not in lit)
        if key.startswith(("ev_", "cd_")):
            # the renderer of events and conditions sees a node's symbols, not their order: "~ has no
            # charge counters on it" / "there are no charge counters on ~" collapse (render_alternatives)
            kept = tuple(sorted(kept))
        words = tuple(norm_word(lit[s.name], literals) for s in r.expansion if s.name in lit and is_word(lit[s.name]))
        by_key[key][kept].add(words)
    dist = {}
    for key, by_kept in by_key.items():
        words = set()
        for variants in by_kept.values():
            if len(variants) > 1:
                sets = [set(v) for v in variants]
                words |= set.union(*sets) - set.intersection(*sets)
        if words:
            dist[key] = frozenset(words)
    return LiteralTable(frozenset(lit), literals, dist)


@lru_cache(maxsize=1)
def literal_table() -> LiteralTable:
    """The LiteralTable of the current grammar (built once per process)."""
    from pipeline.parse.grammar import get_parser, grammar_text
    declared = frozenset(w for line in grammar_text().splitlines() if line.startswith("%declare")
                         for w in line.split()[1:])
    parser = get_parser()
    return build_table(parser.rules, parser.terminals, declared)
