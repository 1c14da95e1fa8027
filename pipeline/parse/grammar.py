"""Load the oracle grammar (``grammar/*.lark``) once and build the cached LALR parser.

The grammar files are concatenated in :data:`GRAMMAR_FILES` order (one file per concern).
The parser is LALR(1) with the word-level contextual lexer of :mod:`pipeline.parse.lexer`;
it has one start symbol per segment kind (:data:`STARTS`).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

from lark import Lark

from pipeline.paths import GRAMMAR_DIR
from pipeline.parse.lexer import WordLexer

GRAMMAR_FILES = ("common.lark", "types.lark", "mana.lark", "costs.lark", "objects.lark",
                 "keywords.lark", "triggers.lark", "effects.lark", "copy.lark", "statics.lark", "abilities.lark")
STARTS = ("start_cost", "start_keywords", "start_trigger", "start_sentence", "start_loyalty", "start_altcost", "start_lead")
GRAMMAR_MAJOR = "1"


def grammar_text() -> str:
    """Return the concatenated grammar text. Raises FileNotFoundError naming a missing file."""
    parts = []
    for name in GRAMMAR_FILES:
        path = GRAMMAR_DIR / name
        parts.append(f"// ---- {name}\n" + path.read_text(encoding="utf-8"))
    return "\n".join(parts)


def grammar_version() -> str:
    """``"<major>.<sha256 of the grammar text, 10 hex>"`` — changes whenever the grammar does."""
    return GRAMMAR_MAJOR + "." + hashlib.sha256(grammar_text().encode()).hexdigest()[:10]


@lru_cache(maxsize=1)
def get_parser() -> Lark:
    """Build (once per process) and return the LALR parser."""
    return Lark(grammar_text(), parser="lalr", lexer=WordLexer, start=list(STARTS),
                propagate_positions=True, maybe_placeholders=False)
