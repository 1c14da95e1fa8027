"""Shift/reduce conflicts of the LALR grammar, which Lark settles silently by shifting.

Lark resolves an LALR(1) shift/reduce conflict in favour of the shift and says so only in a
debug log record; a grammar edit that adds one can silently re-route sentences that parsed
before (docs/ast.md § Known limits). :func:`shift_reduce_conflicts` builds the parse tables in
memory and returns every such conflict; ``tests/test_parse_grammar_conflicts.py`` ratchets their
number against ``tests/data/grammar_conflicts.json``, which ``python -m pipeline.parse.conflicts
--write tests/data/grammar_conflicts.json`` regenerates (after checking that each new conflict is
settled the right way by the shift).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

import lark
from lark import Lark

from pipeline.parse.grammar import STARTS, grammar_text
from pipeline.parse.lexer import WordLexer


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        self.records.append(record)


def shift_reduce_conflicts(text: str | None = None, start: list[str] | None = None,
                           lexer=WordLexer) -> list[tuple[str, str]]:
    """Build the LALR tables of grammar ``text`` (default: the current grammar with its start
    symbols and word lexer, in memory, no cache) and return one ``(terminal, rule)`` pair per shift/reduce conflict Lark resolved as a
    shift, sorted: ``terminal`` the lookahead (a literal shown as its word in quotes), ``rule`` the
    rule that was not reduced (``origin : symbols``, literals quoted). A pair appears once per
    parser state it occurs in. Raises lark's GrammarError for a grammar that does not build."""
    log = lark.logger
    handler = _Collect()
    saved = (log.level, list(log.handlers), log.propagate)
    log.handlers = [handler]
    log.setLevel(logging.DEBUG)
    log.propagate = False
    try:
        parser = Lark(grammar_text() if text is None else text, parser="lalr", lexer=lexer,
                      start=list(start or STARTS), keep_all_tokens=True, propagate_positions=True,
                      maybe_placeholders=False)
    finally:
        log.setLevel(saved[0])
        log.handlers = saved[1]
        log.propagate = saved[2]
    words = {t.name: t.pattern.value for t in parser.terminals if t.pattern.type == "str"}

    def sym(name: str) -> str:
        return json.dumps(words[name]) if name in words else name

    out = []
    recs = handler.records
    for i, r in enumerate(recs):
        if r.msg.startswith("Shift/Reduce conflict") and i + 1 < len(recs):
            rule = recs[i + 1].args[0]
            shown = f"{rule.origin.name} : " + " ".join(sym(s.name) for s in rule.expansion)
            out.append((sym(r.args[0]), shown))
    return sorted(out)


def dump(pairs: list[tuple[str, str]]) -> str:
    """The ratchet file's JSON: ``{"shift_reduce": count, "conflicts": [[terminal, rule], …]}``,
    one conflict per line (diffs stay readable)."""
    lines = ",\n".join("  " + json.dumps(list(p)) for p in pairs)
    return f'{{"shift_reduce": {len(pairs)},\n "conflicts": [\n{lines}\n ]}}\n'


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pipeline.parse.conflicts",
                                 description="Count the grammar's shift/reduce conflicts (Lark shifts them silently).")
    ap.add_argument("--write", metavar="FILE", help="write the count and the list as JSON to FILE")
    args = ap.parse_args(argv)
    pairs = shift_reduce_conflicts()
    if args.write:
        Path(args.write).write_text(dump(pairs), encoding="utf-8")
    print(f"{len(pairs)} shift/reduce conflicts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
