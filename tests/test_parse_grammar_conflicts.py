"""Shift/reduce conflicts of the LALR grammar (issue 13 § 5): Lark settles each one silently by
shifting, so a grammar edit that adds one can re-route sentences that parsed before without any
error. Their number is ratcheted: it may only go down. The committed list
(tests/data/grammar_conflicts.json) says which ones are new when the count goes up; regenerate it
with ``python -m pipeline.parse.conflicts --write tests/data/grammar_conflicts.json`` only after
checking each new conflict against the corpus (docs/ast.md § Known limits)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from pipeline.parse.conflicts import dump, shift_reduce_conflicts

RATCHET = Path(__file__).parent / "data" / "grammar_conflicts.json"


def test_no_new_shift_reduce_conflict():
    saved = json.loads(RATCHET.read_text(encoding="utf-8"))
    pairs = shift_reduce_conflicts()
    new = Counter(pairs) - Counter(tuple(p) for p in saved["conflicts"])
    assert len(pairs) <= saved["shift_reduce"], (
        f"{len(pairs)} shift/reduce conflicts, ratchet {saved['shift_reduce']}; not in {RATCHET.name}:\n"
        + "\n".join(f"  lookahead {t}: reduce {r}" for t, r in sorted(new)))


def test_ratchet_file_is_consistent():
    saved = json.loads(RATCHET.read_text(encoding="utf-8"))
    assert saved["shift_reduce"] == len(saved["conflicts"])
    pairs = sorted(tuple(p) for p in saved["conflicts"])
    assert RATCHET.read_text(encoding="utf-8") == dump(pairs)


def test_conflicts_are_found():
    """The dangling "else" (a conflict LALR settles by shifting) is reported once, the same
    grammar with the conflict removed not at all — so the ratchet can fail."""
    dangling = '''
start: s
s: "if" "x" "then" s | "if" "x" "then" s "else" s | "y"
%ignore " "
'''
    found = shift_reduce_conflicts(dangling, start=["start"], lexer="basic")
    assert found == [('"else"', 's : "if" "x" "then" s')]
    fixed = '''
start: s
s: "if" "x" "then" s "end" | "if" "x" "then" s "else" s "end" | "y"
%ignore " "
'''
    assert shift_reduce_conflicts(fixed, start=["start"], lexer="basic") == []
