"""Oracle text → typed ability ASTs (Lark LALR grammar in ``grammar/*.lark``).

Public interface::

    from pipeline.parse import parse_face, GRAMMAR_VERSION
    abilities = parse_face(oracle_text, name="Llanowar Elves", type_line="Creature — Elf Druid")

See docs/ast.md for the AST JSON shape, the closed list of ability kinds and the
normalisation rules.

The names are loaded on first use (PEP 562 ``__getattr__``): ``GRAMMAR_VERSION`` alone (what an
unchanged refresh needs) does not import the parser and transformer modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pipeline.parse.ast import ABILITY_KINDS, PRODUCTION_KINDS, Ability
    from pipeline.parse.parser import parse_face

    #: Version of the grammar and of the code that builds and renders ASTs (keys parse caches).
    GRAMMAR_VERSION: str

__all__ = ["parse_face", "GRAMMAR_VERSION", "Ability", "ABILITY_KINDS", "PRODUCTION_KINDS"]


def __getattr__(name: str):
    if name == "GRAMMAR_VERSION":
        from pipeline.parse.grammar import parse_version
        value = parse_version()  # the grammar and the AST/renderer code (pipeline/parse/*.py)
    elif name == "parse_face":
        from pipeline.parse.parser import parse_face as value
    elif name in ("ABILITY_KINDS", "PRODUCTION_KINDS", "Ability"):
        from pipeline.parse import ast
        value = getattr(ast, name)
    else:
        raise AttributeError(f"module 'pipeline.parse' has no attribute {name!r}")
    globals()[name] = value
    return value
