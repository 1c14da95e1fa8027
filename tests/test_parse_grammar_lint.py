"""Lint of the grammar and its transformer, run on every change: several grammar files extend the
same rules (grammar/*.lark) and several mixins (pipeline/parse/transform_*.py) serve one
Transformer, so two of them can define the same thing without an error — the later one silently
wins. These tests make that an error."""

from __future__ import annotations

from collections import Counter

from pipeline.parse import transform as T
from pipeline.parse.grammar import get_parser


def _classes():
    # CachedTransformer is Lark machinery (callback lookup), which ToAst extends through super(): not a rule mixin
    return [c for c in T.ToAst.__mro__ if c.__module__.startswith("pipeline.parse")
            and c.__module__ != "pipeline.parse.cached_transformer"]


def test_no_transformer_callback_defined_twice():
    """A rule callback (or helper) defined in two of ToAst and its mixins: only one would run."""
    seen = Counter(name for cls in _classes() for name in vars(cls) if not name.startswith("__")
                   and name != "_abc_impl")
    assert sorted(n for n, k in seen.items() if k > 1) == []


def test_no_rule_expansion_defined_twice():
    """The same rule expansion in two grammar files (Lark accepts it when the aliases agree)."""
    rules = Counter((r.origin.name, tuple(s.name for s in r.expansion)) for r in get_parser().rules)
    assert [r for r, k in rules.items() if k > 1] == []
