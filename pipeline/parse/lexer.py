"""Word-level contextual lexer for the LALR oracle grammar.

The input (normalised, lower-cased oracle text) is cut into whole tokens by one regex:
quoted text, ``{…}`` symbols, power/toughness (``+1/+1``), numbers, ``~`` (self reference),
words (possessive ``'s`` split off), punctuation. Each word is then given a terminal type,
chosen *in the parser's current state* (like Lark's contextual lexer, but by whole word):

1. the literal terminal for that exact word (e.g. ``"draw"``), if the grammar has one and
   the parser can accept it here;
2. else the first word-class terminal (``NUMWORD``, ``COLOR``, ``CARDTYPE``, ``SUPERTYPE``,
   ``SUBTYPE``, ``NONTYPE`` — regexes defined in ``grammar/*.lark``) that fully matches the
   word and is acceptable here;
3. else ``WORD`` if acceptable; else the first candidate (the parser then reports the error).

One lexical rule looks one token ahead: a word followed by "counter(s)" is a counter name
(``WORD``) where the parser accepts one ("an omen counter": Omen is also a spell type).

A comma is a list comma (``LISTCOMMA``) where the parser accepts one and the words after it
are a list of type words ending in "or"/"and" + type words ("target artifact, creature,
enchantment, or land"); every other comma stays a clause separator (LALR(1) alone cannot
tell the two apart after a noun).

"and" is ``ANDLIST`` inside an object list ("each creature and each player": the words after it
are type words closing the object), ``ANDDMG`` before "N damage" ("… and 3 damage to you") and
``ANDCTR`` before "N <kind> counter(s) on" ("… on it and a +1/+1 counter on ~"),
where the parser accepts them; elsewhere it is the clause conjunction.

"blocking" before an object ("each creature blocking it", "… blocking or blocked by ~") is
``BLOCKINGREL`` where the parser accepts it (grammar/objects.lark), not the type word "blocking".

Whole-word matching means a literal such as ``"a"`` never matches the start of ``"all"``.
"""

from __future__ import annotations

import re
from typing import Iterator

from lark.lexer import Lexer, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedToken
from lark.parsers.lalr_analysis import Shift

_TOKEN_RE = re.compile(r"""
 (?P<QUOTED>"[^"]*"?)
|(?P<SYM>\{[^}]*\})
|(?P<PT>[+-]?(?:\d+|x|\*)(?:[+-]\d+)?/[+-]?(?:\d+|x|\*)(?:[+-]\d+)?(?![\w/]))
|(?P<NUM>\d+(?![\w]))
|(?P<ANDOR>and/or\b)
|(?P<WORD>[^\W\d_](?:[\w'-]*\w)?!?)
|(?P<SELF>~)
|(?P<PUNCT>'s\b|[.,:;—•'+\-/−])
|(?P<WS>\s+)
""", re.X)

#: Contractions and words whose trailing "'s" is not a possessive.
_KEEP_S: set[str] = {"urza's"}  # every "'s"  is split off ("it's" → "it" "'s"); the grammar spells both

#: Order in which word-class terminals are tried (after the exact literal).
WORD_CLASSES = ("NUMWORD", "COLOR", "CARDTYPE", "SUPERTYPE", "SUBTYPE", "NONTYPE", "CYCLINGWORD", "WALKWORD")

#: Word classes and literals that can be one word of a type list (grammar/objects.lark ``dword``).
_TYPE_CLASSES = frozenset({"COLOR", "CARDTYPE", "SUPERTYPE", "SUBTYPE", "NONTYPE"})
_DWORD_LITERALS = frozenset({"permanent", "permanents", "spell", "spells", "card", "cards", "token", "tokens",
                             "player", "players", "opponent", "opponents", "source", "sources", "colorless",
                             "multicolored", "monocolored", "historic", "ability", "abilities", "activated",
                             "triggered", "legendary"})

#: Words that may start the item after an "and" of an object list, and words that may follow it.
_LIST_QUANTS = frozenset({"each", "all", "other", "target", "another", "up", "to", "one", "two", "three"})
_LIST_CLOSERS = frozenset({",", ".", "you", "your", "with", "without", "that", "on", "in", "from", "an", "target",
                           "they", "to", "until", "this", "at", "named", "among", "defending", "it", "its", "their",
                           "those", "blocking", "attacking", "he", "she"})
_NUMBER_WORDS = frozenset({"x", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"})

#: a "non-" descriptor word (grammar/common.lark NONTYPE): a comma between two of them is NONCOMMA
_NON_WORD = re.compile(r"non-?[a-z][a-z'-]*$")

_SYMBOLS = {"{t}": "TAP_SYM", "{q}": "UNTAP_SYM", "{e}": "ENERGY_SYM", "{tk}": "TICKET_SYM"}  # CR 107.17 {TK}

#: verbs that start a predicate joined to the subject of the clause before ("Enchanted creature gets
#: +2/+2, has flying, and can't block"): singular and plural forms (CR 613 continuous effects)
PREDICATE_VERBS = ("has", "have", "is", "are", "gets", "get", "gains", "gain", "loses", "lose", "can't", "can",
                   "attacks", "attack", "blocks", "block", "doesn't", "don't", "must", "assigns", "assign")

#: Words that get a terminal of their own when the parser accepts it and the next words are as
#: given — where LALR(1) would otherwise settle a shift/reduce conflict the wrong way (an object's
#: post-modifier "with …"/"that …"/"an opponent …" against what follows the object in a copy
#: effect, CR 707). word → ((terminal, next words), …); the terminals are declared in copy.lark
#: and objects.lark.
LOOKAHEAD_TERMINALS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "with": (("COPYWITH", ("a", "number", "of", "additional")),),  # The Mimeoplasm
    "an": (("ANADDL", ("additional", "time")),),                     # "copy that spell an additional time"
    "that": (("THATMANY", ("many", "times")),),                       # Twinning Staff
    "loyalty": (("LOYALTYW", ("ability",)), ("LOYALTYW", ("abilities",))),  # "a loyalty ability" (not a counter)
    "and": (("ANDCAST", ("you", "may", "cast", "the", "copy")),) +    # God-Eternal Kefnet
           (("ANDMAY", ("may", "choose", "new")),) +                  # Bonus Round: "copies it and may choose new targets"
           tuple(("ANDX", (w,)) for w in ("it", "they", "is", "has", "it's", "they're", "he", "he's")) +  # copy exceptions
           # "Add two mana of any one color and two mana of any other color" (mana.lark aw_and_other)
           tuple(("ANDOTHER", (n, "mana", "of", "any", "other")) for n in ("one", "two", "three")) +
           # "has flying and is a Knight …": an "and" before a joined predicate's verb, not one of a keyword
           # list (grammar/statics.lark PREDAND, as PREDCOMMA below); not before "loses", which a copy
           # exception joins with its own "and" ("except it has haste and loses soulbond", copy.lark), nor
           # before "doesn't"/"don't", which statics.lark reads with "enters tapped and doesn't untap …"
           tuple(("PREDAND", (v,)) for v in PREDICATE_VERBS if v not in ("loses", "lose", "doesn't", "don't")),
    # "each creature blocking it" (a relation, not the type word "blocking"; declared in objects.lark)
    "blocking": tuple(("BLOCKINGREL", (w,)) for w in ("it", "~", "or", "him", "them")),
    # "or" joining two conditions/events after an object (conditions.lark): "you control a Desert or there is …"
    "or": tuple(("ORV", (w,)) for w in ("there", "controlled", "cast", "casts", "you", "on",
                                                "dies", "activate", "activates", "discards", "to"))
          # "sacrifice a creature or pay {3}{B}": a choice between two costs (costs.lark, CR 601.2b)
          + tuple(("COSTOR", (w,)) for w in ("pay", "sacrifice", "discard", "reveal", "exile", "behold",
                                             "return", "tap", "collect", "forage", "put", "remove", "mill")),
    "cast": (("CASTTW", ("this", "way")),),                           # "a spell cast this way" (obj_post)
    # "if ~ dealt damage to an opponent this turn" (a condition, conditions.lark), not the obj_post
    # "dealt damage this turn" / "dealt damage by …" of objects.lark
    "dealt": (("DEALTTO", ("damage", "to")), ("DEALTTO", ("combat", "damage", "to"))),
    "tapped": (("TAPPEDTW", ("this", "way")),),                       # "each creature tapped this way" (objects.lark)
    # "Add X mana …, where X is …" (mana.lark), not "Add {B}, then …"; "half …, rounded up" (objects.lark)
    # "… token with flying, then …" (tokens.lark); ", has flying, and is a Demon …": a comma before a joined
    # predicate's verb, not one of a keyword list (grammar/statics.lark PREDCOMMA; LALR(1) would shift the
    # keyword-list comma)
    ",": (("WHERECOMMA", ("where", "x")), ("ROUNDCOMMA", ("rounded",)),
          ("COMMATHEN", ("then",)), ("COMMAWHERE", ("where", "x")))
         + tuple(("PREDCOMMA", pre + (v,)) for v in PREDICATE_VERBS for pre in ((), ("and",))),
    "colors": (("COLORSOF", ("of", "mana", "spent")),),               # "the number of colors of mana spent …"
    "at": (("ATRANDOM", ("random",)),),  # "reveals a card at random from their hand" (effects.lark), not "at the …"
}


def _shifts(accept: dict, term: str) -> bool:
    """True if the LALR state ``accept`` (terminal → (action, arg)) shifts ``term``."""
    act = accept.get(term)
    return act is not None and act[0] is Shift


def _reaches_shift(states: dict, stack: list, term: str) -> bool:
    """True if the LALR parser with state stack ``stack`` would shift ``term`` after the reductions
    it calls for (a walk of the tables only, nothing built). A terminal in a state's table may be
    only a reduce lookahead that LALR merged in from another context; this tells the two apart."""
    stack = list(stack)
    while True:
        act = states[stack[-1]].get(term)
        if act is None:
            return False
        if act[0] is Shift:
            return True
        rule = act[1]
        if rule.expansion:
            del stack[-len(rule.expansion):]
        goto = states[stack[-1]].get(rule.origin.name)
        if goto is None:
            return False
        stack.append(goto[1])


#: lookahead terminals given only where the parser would shift them after its reductions
#: (pipeline/parse/lexer.py _reaches_shift): "," before "where X is" of a mana production, the
#: "and" between two copy exceptions, the "," inside a list of mana symbols (grammar/mana.lark, copy.lark)
_SHIFT_CHECKED = frozenset({"WHERECOMMA", "ANDX", "MANACOMMA", "COMMATHEN", "COMMAWHERE", "PREDCOMMA", "COSTOR", "DEALTTO",
                            "ATRANDOM", "PREDAND"})


def split_tokens(text: str) -> Iterator[tuple[str, str, int]]:
    """Yield ``(kind, value, start)`` for each token of ``text`` (whitespace skipped).

    kind is QUOTED, SYM, PT, NUM, ANDOR, WORD, SELF, PUNCT or BAD (an unknown character)."""
    pos = 0
    n = len(text)
    while pos < n:
        m = _TOKEN_RE.match(text, pos)
        if m is None:
            yield "BAD", text[pos], pos
            pos += 1
            continue
        kind = m.lastgroup
        val = m.group()
        if kind == "WORD" and val.endswith("'s") and val not in _KEEP_S and len(val) > 2:
            yield "WORD", val[:-2], pos
            yield "PUNCT", "'s", pos + len(val) - 2
        elif kind != "WS":
            yield kind, val, pos
        pos = m.end()


class WordLexer(Lexer):
    """Lark custom lexer (interface 2) implementing the word-level contextual lexing above."""

    __future_interface__ = 2

    def __init__(self, lexer_conf):
        self.literals: dict[str, str] = {}
        self.classes: list[tuple[str, re.Pattern]] = []
        by_name = {t.name: t for t in lexer_conf.terminals}
        for t in lexer_conf.terminals:
            if t.pattern.type == "str":
                self.literals[t.pattern.value] = t.name
        for name in WORD_CLASSES:
            if name in by_name:
                self.classes.append((name, re.compile(by_name[name].pattern.to_regexp())))
        self._cands: dict[str, tuple[str, ...]] = {}

    def _candidates(self, word: str) -> tuple[str, ...]:
        c = self._cands.get(word)
        if c is None:
            out = []
            if word in self.literals:
                out.append(self.literals[word])
            for name, rx in self.classes:
                if rx.fullmatch(word):
                    out.append(name)
            out.append("WORD")
            c = self._cands[word] = tuple(out)
        return c

    def _is_type_word(self, kind: str, word: str) -> bool:
        if kind != "WORD":
            return False
        if word in _DWORD_LITERALS:
            return True
        return any(c in _TYPE_CLASSES for c in self._candidates(word))

    def _list_commas(self, toks, i) -> list[int]:
        """Indices of the commas of a type list whose first comma is toks[i], or [] if none."""
        commas = [i]
        j = i + 1
        n = len(toks)
        while True:
            if j < n and toks[j][1] in ("or", "and", "and/or"):
                j += 1
                if j < n and toks[j][1] in ("a", "an"):
                    j += 1
                return commas if j < n and self._is_type_word(*toks[j][:2]) else []
            if j < n and toks[j][1] in ("a", "an"):
                j += 1
            k = j
            while j < n and self._is_type_word(*toks[j][:2]):
                j += 1
            if j == k or j >= n:
                return []
            if toks[j][1] == ",":
                commas.append(j)
                j += 1
            elif toks[j][1] not in ("or", "and", "and/or"):
                return []

    @staticmethod
    def _damage_follows(toks, j) -> bool:
        """toks[j:] starts with a number and "damage" ("3 damage", "X damage")."""
        return (j + 1 < len(toks) and toks[j + 1][1] == "damage"
                and (toks[j][0] == "NUM" or toks[j][1] in _NUMBER_WORDS))

    @staticmethod
    def _counters_follow(toks, j) -> bool:
        """toks[j:] is a count, a counter kind of one or two words and "counter(s) on" ("a +1/+1
        counter on", "two loyalty counters on", "a first strike counter on")."""
        if j >= len(toks) or not (toks[j][0] == "NUM" or toks[j][1] in _NUMBER_WORDS or toks[j][1] in ("a", "an")):
            return False
        for k in (j + 2, j + 3):
            if k + 1 < len(toks) and toks[k][1] in ("counter", "counters") and toks[k + 1][1] == "on":
                return True
        return False

    def _and_list(self, toks, j) -> bool:
        """True if the words from toks[j] are an optional quantifier and type words that close an
        object (end of text, a comma or period, or a word starting a post-modifier)."""
        n = len(toks)
        while j < n and toks[j][1] in _LIST_QUANTS:
            j += 1
        k = j
        while j < n and self._is_type_word(*toks[j][:2]):
            j += 1
        return j > k and (j == n or toks[j][1] in _LIST_CLOSERS)

    def lex(self, lexer_state, parser_state) -> Iterator[Token]:
        text = lexer_state.text
        if not isinstance(text, str):  # TextSlice (lark >= 1.2)
            text = text.text
        states = parser_state.parse_conf.states
        toks = list(split_tokens(text))
        list_commas: set[int] = set()
        for i, (kind, val, start) in enumerate(toks):
            if kind == "BAD":
                raise UnexpectedCharacters(text, start, 0, 0)
            if kind == "WORD" or kind == "ANDOR" or (kind == "PUNCT" and val in self.literals):
                cands = self._candidates(val) if kind != "PUNCT" else (self.literals[val],)
                accept = states[parser_state.position]
                if i + 1 < len(toks) and toks[i + 1][1] in ("counter", "counters") and "WORD" in accept:
                    cands = ("WORD",)  # a word naming a counter kind ("omen counter") is a counter name
                ttype = next((c for c in cands if c in accept), cands[0])
                looked = False
                for term, follow in LOOKAHEAD_TERMINALS.get(val, ()):
                    if term in accept and tuple(t[1] for t in toks[i + 1:i + 1 + len(follow)]) == follow \
                            and (term not in _SHIFT_CHECKED or _reaches_shift(states, parser_state.state_stack, term)):
                        ttype, looked = term, True
                        break
                if val == "and" and not looked and i + 1 < len(toks) and not _shifts(accept, "AND"):
                    # (a literal "and" the parser shifts here, as in the type word "instant and sorcery", wins)
                    if "ANDDMG" in accept and self._damage_follows(toks, i + 1):
                        ttype = "ANDDMG"  # "… to any target and 3 damage to you"
                    elif "ANDCTR" in accept and self._counters_follow(toks, i + 1):
                        ttype = "ANDCTR"  # "… on it and a +1/+1 counter on up to one other target creature"
                    elif "ANDLIST" in accept and self._and_list(toks, i + 1):
                        ttype = "ANDLIST"  # "each creature and each player"
                if (val == "," and "NONCOMMA" in accept and 0 < i < len(toks) - 1
                        and _NON_WORD.match(toks[i - 1][1]) and _NON_WORD.match(toks[i + 1][1])):
                    ttype = "NONCOMMA"  # "noncreature, nonland permanent" (grammar/objects.lark)
                elif val == "," and "EXCEPTCOMMA" in accept and i + 1 < len(toks) and toks[i + 1][1] == "except":
                    ttype = "EXCEPTCOMMA"  # ", except …" of a copy effect (CR 707.9)
                elif (val == "," and "MANACOMMA" in accept and i + 1 < len(toks) and toks[i + 1][0] == "SYM"
                      and toks[i + 1][1] not in _SYMBOLS  # a cost's "{2}, {T}" keeps its comma
                      and _reaches_shift(states, parser_state.state_stack, "MANACOMMA")):
                    ttype = "MANACOMMA"  # "{W}, {U}, or {B}" (mana.lark), not "Add {B}, then add …"
                elif val == "," and "LISTCOMMA" in accept:
                    if i not in list_commas:
                        list_commas.update(self._list_commas(toks, i))
                    if i in list_commas:
                        ttype = "LISTCOMMA"
            elif kind == "SYM":
                ttype = _SYMBOLS.get(val, "MANA_SYM")
            elif kind == "NUM":
                ttype = "DIGITS"
            elif kind == "PUNCT":
                ttype = "PUNCT_" + str(ord(val[0]))
            else:
                ttype = kind
            accept = states[parser_state.position]
            if ttype not in accept:
                if "REST" in accept:
                    # opaque remainder (CR text kept verbatim, e.g. a spend restriction)
                    yield Token("REST", text[start:], start, 1, start + 1, 1, len(text) + 1, len(text))
                    return
                # the parser's next step looks this terminal up in this very state and fails: fail here,
                # without the set of expected terminals Lark would build for the message (nobody reads it)
                raise UnexpectedToken(Token(ttype, val, start, 1, start + 1), set(), state=parser_state)
            yield Token(ttype, val, start, 1, start + 1, 1, start + len(val) + 1, start + len(val))
