"""mtg-pipeline: Magic: The Gathering card data → typed ability ASTs → DuckDB.

Stages (one subpackage each, in data-flow order):

``sources``    read Scryfall bulk files, MTGJSON files, the Comprehensive Rules; download them
``normalize``  turn source records into one model: one :class:`OracleCard` per oracle_id
``parse``      oracle text → typed ability ASTs with the Lark grammar in ``grammar/``
``derive``     properties computed from ASTs (produced mana, CR 106.7 / 605)
``store``      DuckDB schema, atomic database builds, the ``runs`` table
``annotate``   rulings ↔ Comprehensive Rules ↔ abilities
``serve``      read-only SQL, card pages, exports
"""

__version__ = "0.2.0"
