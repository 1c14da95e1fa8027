"""Columns and table the derive stage adds, with the comments stored in the database
(``COMMENT ON``; docs/schema.md is generated from them). Definitions: docs/mana.md § Produced mana."""

from __future__ import annotations

PRODUCED_MANA_COMMENT = (
    "Mana types (W,U,B,R,G,C; WUBRGC order; [] when none) this card could produce through its own "
    "abilities on any face (CR 106.3, 106.7): every 'Add …' of its abilities' ASTs - mana abilities "
    "(CR 605), spells, loyalty, targeted and other triggered abilities alike - plus the intrinsic "
    "'{T}: Add [symbol]' of each basic land type of a land face (CR 305.6, even when the text box shows "
    "it only as reminder text or not at all) plus abilities the card grants to a group that includes "
    "itself. Reminder text never counts (CR 207.2a). 'any color' = WUBRG, 'any type' = WUBRGC, 'the "
    "chosen color' = WUBRG; mana depending on other objects ('could produce', 'among', commander's color "
    "identity) = the widest set the wording allows (see produced_mana_dependent). Mana made only through "
    "tokens the card creates or abilities it grants to other objects is NOT included (see "
    "token_produced_mana, granted_produced_mana); replacement effects that change mana (CR 106.12b) "
    "add nothing. Differs from Scryfall's produced_mana (source_produced_mana) there; see docs/mana.md."
)

#: Columns added to ``cards``: (name, type, comment).
CARD_COLUMNS: list[tuple[str, str, str]] = [
    ("produced_mana_dependent", "BOOLEAN",
     "True when part of produced_mana depends on objects other than the card (CR 106.7 'could produce', "
     "'of any color among …', the commander's color identity CR 903.4f): produced_mana then holds the "
     "widest set the wording allows; in a game the ability may produce fewer types or none (CR 106.5)."),
    ("token_produced_mana", "VARCHAR[]",
     "Mana types (WUBRGC order) the tokens this card creates could produce through their own abilities: "
     "predefined Treasure and Gold = WUBRG, Powerstone = C (CR 111.10a/c/h), and abilities written on the "
     "token; never mixed into produced_mana. [] when none."),
    ("granted_produced_mana", "VARCHAR[]",
     "Mana types (WUBRGC order) of mana abilities this card grants to other objects ('Enchanted land has "
     "\"{T}: Add …\"', 'Creatures you control have …'); when the group includes the card itself the types "
     "are in produced_mana too. [] when none."),
]

#: The ``mana_abilities`` table: (table comment, [(column, type, comment)]).
MANA_ABILITIES: tuple[str, list[tuple[str, str, str]]] = (
    "One row per ability that adds mana itself (an 'Add …' in its AST outside created tokens and other "
    "objects' granted abilities; mana abilities CR 605.1a/b and also spells, loyalty and other non-mana "
    "abilities that add mana, CR 106.3), plus one row per intrinsic basic-land-type mana ability (CR 305.6).",
    [
        ("ability_id", "VARCHAR", "The ability (abilities.ability_id); NULL for an intrinsic basic-land-type ability."),
        ("oracle_id", "VARCHAR", "The card (cards.oracle_id)."),
        ("face_index", "INTEGER", "The face (faces.face_index)."),
        ("ability_index", "INTEGER", "Position of the line in the face (abilities.ability_index); NULL for intrinsic."),
        ("origin", "VARCHAR", "'text' (an ability line of the Oracle text that adds mana), 'granted_to_self' (an ability the line grants to a group that includes the card itself; flags are the granted ability's) or 'basic_land_type' (CR 305.6 intrinsic '{T}: Add [symbol]')."),
        ("produces", "VARCHAR[]", "Mana types the ability could add, WUBRGC order, widest reading (CR 106.7): any color = WUBRG, any type = WUBRGC."),
        ("amount", "VARCHAR", "How much mana: a number ('1', '2'), 'X', or the wording of an expression ('for each …', 'equal to …'); alternatives joined by ' or '."),
        ("production_kind", "VARCHAR", "How the types are chosen (docs/ast.md PRODUCTION_KINDS): fixed, one_of, any_color, any_type, combination, chosen_color, commander_identity, could_produce (CR 106.7), dependent, other; with several 'Add' instructions, the one producing the most types."),
        ("production_kinds", "VARCHAR[]", "Production kinds of all the ability's 'Add' instructions, in text order."),
        ("has_tap_cost", "BOOLEAN", "The activation cost includes {T} (CR 107.5); such an ability is 'tapping for mana' (CR 106.12)."),
        ("has_untap_cost", "BOOLEAN", "The activation cost includes {Q} (CR 107.6)."),
        ("is_triggered", "BOOLEAN", "A triggered ability (CR 603), e.g. 'Whenever enchanted land is tapped for mana, its controller adds …' (CR 605.1b)."),
        ("is_mana_ability", "BOOLEAN", "Mana ability by CR 605.1a (activated, no target, could add mana, not loyalty) or 605.1b (triggered, no target, triggers from a mana ability or mana being added, could add mana), as derived here."),
        ("ast_is_mana_ability", "BOOLEAN", "The parser's own is_mana_ability flag (abilities.is_mana_ability), kept for comparison; NULL for intrinsic rows."),
        ("is_dependent", "BOOLEAN", "produces depends on other objects (could_produce, dependent, commander_identity; CR 106.7, 903.4f)."),
        ("restrictions", "VARCHAR[]", "Riders on the mana as worded: spend-only restrictions, 'don't lose this mana', spend triggers (CR 106.6)."),
        ("text", "VARCHAR", "The ability line as printed (reminder text included), or the intrinsic ability for basic land types."),
    ],
)
