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
     "token; only tokens the card's controller can get (not 'target opponent creates …'; see created_tokens); "
     "never mixed into produced_mana. [] when none."),
    ("granted_produced_mana", "VARCHAR[]",
     "Mana types (WUBRGC order) of mana abilities this card gives other objects: granted abilities ('Enchanted land has "
     "\"{T}: Add …\"', 'Creatures you control have …') and basic land types it sets or adds (CR 305.7: Blood Moon R, "
     "Urborg, Tomb of Yawgmoth B; see characteristic_effects); when the group includes the card itself the types "
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
        ("recipients", "VARCHAR[]", "Who adds the mana, per 'Add' instruction: 'you' (the ability's controller, CR 106.3) or the player as worded ('its controller', 'that player', 'each player')."),
        ("condition", "VARCHAR", "The condition the card has the ability under, as worded: 'as long as' wording ('~ is renowned'), a leveler's 'level 1-4' (CR 711.2a/b), 'class level 2 or greater' (CR 716.2a); NULL when always."),
        ("rule", "VARCHAR", "The CR rule that gives an intrinsic or effect-given ability ('CR 305.6'; 'CR 305.7, 205.1b, 305.6 (Swamp)' for a land type the card's own effect gives it); NULL for printed abilities."),
    ],
)

#: ``characteristic_effects``: (table comment, columns). Built by :mod:`pipeline.derive.effects`.
CHARACTERISTIC_EFFECTS: tuple[str, list[tuple[str, str, str]]] = (
    "One row per effect of an ability line on objects' characteristics (CR 613): land types set or added "
    "(CR 305.7), types added or set (CR 205.1b, 613.1d), abilities granted (CR 613.1f) — with the affected group, "
    "whether it can include the card itself, the zone the effect works from and its condition (docs/mana.md).",
    [
        ("ability_id", "VARCHAR", "The ability line (abilities.ability_id)."),
        ("oracle_id", "VARCHAR", "The card (cards.oracle_id)."),
        ("face_index", "INTEGER", "The face (faces.face_index)."),
        ("ability_index", "INTEGER", "Position of the line in the face (abilities.ability_index)."),
        ("effect", "VARCHAR", "land_types_set ('Nonbasic lands are Mountains', CR 305.7), land_types_added ('… in addition to its "
                              "other land types', CR 305.7, 205.1b), types_set, types_added ('is also a …', CR 205.1b), "
                              "ability_granted ('… have \"…\"', 'it has …', CR 613.1f)."),
        ("rule", "VARCHAR", "The CR rule the effect follows."),
        ("affected", "VARCHAR", "The affected objects as worded ('Each land', 'Enchanted land', 'lands you control', '~', 'it')."),
        ("includes_self", "BOOLEAN", "The card itself can be one of the affected objects: the group names one of its types (or it, or ~) "
                                     "and the effect works where the group is (a type-described group means permanents, CR 109.2)."),
        ("includes_others", "BOOLEAN", "Objects other than the card can be affected."),
        ("zone", "VARCHAR", "Zone the effect works from: 'battlefield' (CR 113.6) or the zone its condition names ('graveyard', CR 113.6b)."),
        ("condition", "VARCHAR", "The condition the effect holds under, as worded, or a level / Class level (CR 711.2, 716.2a); NULL when always."),
        ("effect_values", "VARCHAR[]", "Land types or types set or added (singular, lower case), or the granted abilities as worded."),
        ("grants_mana", "VARCHAR[]", "Mana types (WUBRGC order) the affected objects can produce because of the effect: each basic land "
                                     "type's '{T}: Add [symbol]' (CR 305.6), the granted abilities' 'Add …'."),
        ("pt", "VARCHAR", "Power/toughness the effect sets with the types, else NULL."),
        ("text", "VARCHAR", "The ability line as printed."),
    ],
)

#: ``created_tokens``: (table comment, columns).
CREATED_TOKENS: tuple[str, list[tuple[str, str, str]]] = (
    "One row per 'create … token' instruction in an ability line (CR 111), with who gets the token (CR 111.2) and the "
    "mana its own abilities could produce.",
    [
        ("ability_id", "VARCHAR", "The ability line (abilities.ability_id)."),
        ("oracle_id", "VARCHAR", "The card (cards.oracle_id)."),
        ("face_index", "INTEGER", "The face (faces.face_index)."),
        ("ability_index", "INTEGER", "Position of the line in the face (abilities.ability_index)."),
        ("token", "VARCHAR", "Predefined token name ('Treasure', 'Food', CR 111.10) or the token's wording."),
        ("count", "VARCHAR", "How many: a number, 'X' or the wording."),
        ("recipient", "VARCHAR", "The player who creates (owns and controls, CR 111.2) the token as worded; 'you' when the text names none."),
        ("recipient_kind", "VARCHAR", "you, opponent (never the card's controller), each_player, other_controller ('its controller'), "
                                      "chosen_player ('target player', 'that player')."),
        ("may_be_yours", "BOOLEAN", "The card's controller can be the player who gets it (every recipient_kind but opponent); only such "
                                    "tokens count in cards.token_produced_mana."),
        ("produces", "VARCHAR[]", "Mana types (WUBRGC) the token's own abilities could produce: Treasure/Gold WUBRG, Powerstone C "
                                  "(CR 111.10a/c/h), abilities written on it."),
    ],
)


#: ``copy_exceptions``: (table comment, columns). Built by :mod:`pipeline.derive.copies`.
COPY_EXCEPTIONS: tuple[str, list[tuple[str, str, str]]] = (
    "One row per exception of a copy effect (CR 707.9) — printed 'except …' clauses and those a keyword's rule defines "
    "(embalm CR 702.128a, eternalize 702.129a) — classified by what it does to the copiable values, with structured values.",
    [
        ("ability_id", "VARCHAR", "The ability line (abilities.ability_id)."),
        ("oracle_id", "VARCHAR", "The card (cards.oracle_id)."),
        ("path", "VARCHAR", "JSONPath of the CopyEffect (or keyword) node inside abilities.ast, as copy_effects.path."),
        ("source", "VARCHAR", "copy_effect (a printed copy effect) or keyword (exceptions defined by the keyword's rule)."),
        ("position", "INTEGER", "0-based position of the exception in its copy effect."),
        ("kind", "VARCHAR", "The grammar's exception kind (copy_effects.exceptions[].kind)."),
        ("text", "VARCHAR", "The exception as worded."),
        ("rule", "VARCHAR", "Its CR 707.9 class: 'CR 707.9a' ability gained, '707.9b' characteristic modified, '707.9c' "
                            "characteristic not copied / original kept, '707.9e' additional effect, not a characteristic."),
        ("rules", "VARCHAR[]", "rule, plus 'CR 707.9f' when the exception applies only if the copy is or has a characteristic."),
        ("operation", "VARCHAR", "gained (707.9a), set / added ('in addition to its other types', CR 205.1b) / removed (707.9b), "
                                 "not_copied (707.9c), additional_effect (707.9e)."),
        ("characteristic", "VARCHAR", "What it changes: abilities, types, color, pt, loyalty, name, mana_cost, supertypes, counters "
                                      "(several joined by '+')."),
        ("applies_if", "VARCHAR", "The CR 707.9f condition ('if it's a creature', 'if that permanent is legendary'), else NULL."),
        ("condition", "VARCHAR", "Any other condition of the exception ('if ~ was embalmed'), else NULL."),
        ("types", "VARCHAR[]", "Card types, subtypes or supertypes set or added (singular, lower case)."),
        ("supertypes_removed", "VARCHAR[]", "Supertypes removed ('it isn't legendary' → legendary)."),
        ("colors", "VARCHAR[]", "Colors set (lower case)."),
        ("pt", "VARCHAR", "Power/toughness set ('4/4'), else NULL."),
        ("loyalty", "VARCHAR", "Starting loyalty set ('its starting loyalty is 1' → '1', CR 306.5b), else NULL."),
        ("name", "VARCHAR", "Name set ('~' = the copy keeps this card's name), else NULL."),
        ("mana_cost", "VARCHAR", "Mana cost set ('' = it has no mana cost), else NULL."),
        ("abilities", "VARCHAR[]", "Abilities gained or removed: keyword names and quoted abilities; 'this ability' for the copy "
                                   "ability itself."),
        ("counters", "JSON", "Additional counters the copy enters with (707.9e): list of {counter, amount}."),
    ],
)
