"""Oracle text → typed ability ASTs (Lark LALR grammar in ``grammar/*.lark``).

Public interface::

    from pipeline.parse import parse_face, GRAMMAR_VERSION
    abilities = parse_face(oracle_text, name="Llanowar Elves", type_line="Creature — Elf Druid")

See docs/ast.md for the AST JSON shape, the closed list of ability kinds and the
normalisation rules.
"""

from pipeline.parse.ast import ABILITY_KINDS, PRODUCTION_KINDS, Ability
from pipeline.parse.grammar import parse_version
from pipeline.parse.parser import parse_face

#: Version of the grammar and of the code that builds and renders ASTs (keys parse caches).
GRAMMAR_VERSION: str = parse_version()

__all__ = ["parse_face", "GRAMMAR_VERSION", "Ability", "ABILITY_KINDS", "PRODUCTION_KINDS"]
