"""SQL views for SQL users, built on the ability ASTs (``abilities.ast``, docs/ast.md).

:func:`create_views` runs at the end of a build, after the derive and annotate stages, and
creates every view of :data:`VIEWS` with a comment on the view and on each of its columns
(``COMMENT ON``; docs/schema.md is generated from them).

Every view finds AST nodes by walking the JSON with DuckDB's ``json_tree`` (``ast_nodes``
shows that walk: one row per node) and reads them with DuckDB's JSON operators (``->``,
``->>``, ``json_extract``, ``json_transform``). A node or field the grammar does not (yet)
produce gives no rows or NULL values, never an error: the views only filter on the ``node``
name and read fields by name. Walking every AST is the expensive part, so each view walks only
the abilities whose AST text mentions the node names it needs (a superset: the walk still
checks the ``node`` field).
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb

from pipeline.derive.copies import KEYWORD_COPIES
from pipeline.store.ddl import comment_relation


@dataclass(frozen=True)
class View:
    """One view: ``name``, one-line ``comment``, ``sql`` (the SELECT), ``columns`` {column: comment}.

    ``columns`` lists every output column of ``sql`` in order; :func:`create_views` checks it.
    ``requires``: tables of a later stage (derive) the view reads besides cards and abilities.
    """

    name: str
    comment: str
    sql: str
    columns: dict[str, str]
    requires: tuple[str, ...] = ()


# Amount (docs/ast.md) → short text: the variable ('X'), the number, else the wording.
def _amount(expr: str) -> str:
    return f"coalesce({expr}->>'variable', {expr}->>'value', nullif({expr}->>'text', ''))"


def _is_x(expr: str) -> str:
    # CR 107.3: an Amount of kind 'x' or naming the variable X
    return f"coalesce({expr}->>'kind' = 'x' OR {expr}->>'variable' = 'X', false)"


def _walk(prefilter: str, condition: str) -> str:
    """A subquery with ast_nodes' columns (minus ``field``): the AST nodes matching ``condition``
    (on ``t``, a json_tree row) of the abilities ``a`` matching ``prefilter``."""
    return f"""(
    SELECT a.ability_id, a.oracle_id, a.face_index, a.ability_index, a.kind AS ability_kind,
           t.fullkey AS path, t.value->>'node' AS node, t.value AS json
    FROM abilities a, json_tree(a.ast) t
    WHERE ({prefilter}) AND t.type = 'OBJECT' AND ({condition}))"""


def _mentions(*words: str) -> str:
    """The ability's AST text contains one of ``words`` as a JSON string (e.g. a node name)."""
    return " OR ".join(f"""contains(a.ast::VARCHAR, '"{w}"')""" for w in words)


def _nodes(*names: str) -> str:
    """:func:`_walk` for the nodes named ``names``."""
    return _walk(_mentions(*names), "(t.value->>'node') IN (" + ", ".join(f"'{n}'" for n in names) + ")")


def _cost_components(*mentions: str) -> str:
    """The SELECT of cost_components, over the abilities whose AST text mentions one of ``mentions``."""
    return f"""
SELECT n.ability_id,
       CASE c.value->>'node'
           WHEN 'ManaCost' THEN 'mana' WHEN 'TapCost' THEN 'tap' WHEN 'UntapCost' THEN 'untap'
           WHEN 'EnergyCost' THEN 'energy' WHEN 'LoyaltyCost' THEN 'loyalty'
           -- "Tap/Untap an untapped creature you control" (CR 118.3) is not {{T}}/{{Q}}
           WHEN 'ActionCost' THEN CASE c.value->>'action' WHEN 'tap' THEN 'tap_object' WHEN 'untap' THEN 'untap_object'
                                  ELSE coalesce(c.value->>'action', 'action') END
           WHEN 'Unparsed' THEN 'unparsed'
           ELSE lower(c.value->>'node') END AS component,
       CASE c.value->>'node'
           WHEN 'ManaCost' THEN array_to_string(json_extract_string(c.value, '$.symbols[*].raw'), '')
           WHEN 'TapCost' THEN '{{T}}' WHEN 'UntapCost' THEN '{{Q}}'
           WHEN 'EnergyCost' THEN repeat('{{E}}', coalesce(TRY_CAST(c.value->>'amount' AS INTEGER), 1))
           WHEN 'LoyaltyCost' THEN coalesce(c.value->>'sign', '')
                || coalesce(c.value->'amount'->>'variable', c.value->'amount'->>'value', c.value->'amount'->>'text', '')
           ELSE coalesce(nullif(c.value->>'text', ''), c.value->'obj'->>'text', '') END AS detail,
       n.oracle_id,
       CAST(c.key AS INTEGER) AS position,
       n.node AS cost_owner,
       n.path || '.cost' AS cost_path,
       n.json->'cost'->>'text' AS cost_text,
       regexp_matches(regexp_replace(n.path, '^\\$\\.body\\.abilities\\[[0-9]+\\]', ''),
                      '\\.(abilities|exceptions)\\[[0-9]+\\]') AS granted,
       c.value AS json
FROM {_walk(_mentions(*mentions), "(t.value->'cost'->>'node') IS NOT NULL")} n,
     json_each(CASE WHEN n.json->'cost'->>'node' = 'Cost' THEN n.json->'cost'->'components'
                    ELSE json_array(n.json->'cost') END) c"""


_COUNTER_STRUCT = ("{{'counter': {e}->>'counter', 'amount': " + _amount("{e}->'amount'")
                   + ", 'is_x': " + _is_x("{e}->'amount'") + "}}")

# A CopyEffect's extra counters (CR 707.9, 107.3m): its ``counters`` list; when that is empty,
# the CounterSpec values of its "enters with … additional … counters" exceptions.
_COPY_COUNTERS = f"""CASE WHEN len(coalesce(json_extract(n.json, '$.counters[*]'), [])) > 0
  THEN list_transform(json_extract(n.json, '$.counters[*]'), lambda s: {_COUNTER_STRUCT.format(e='s')})
  ELSE list_transform(
        list_filter(coalesce(json_extract(n.json, '$.exceptions[*]'), []),
                    lambda e: e->>'kind' = 'enters_with_counters'),
        lambda e: CASE WHEN e->'value'->>'node' = 'CounterSpec'
                       THEN {_COUNTER_STRUCT.format(e="e->'value'")}
                       ELSE {{'counter': NULL, 'amount': e->>'text',
                              'is_x': coalesce(regexp_matches(e->>'text', '\\bX\\b'), false)}} END) END"""

#: json_transform shape of a CopyEffect's exceptions.
_EXCEPTION_SHAPE = '[{"kind": "VARCHAR", "text": "VARCHAR", "condition": {"text": "VARCHAR"}}]'

_COUNTER_COMMENT = ("list of {counter, amount, is_x}: counter kind ('+1/+1'), amount ('X', a number or "
                    "the wording), is_x (the amount is X, CR 107.3m)")

# Category of a card by the type line of its first face, most specific first.
_CATEGORY = """CASE
    WHEN regexp_matches(split_part(c.type_line, ' // ', 1), '\\bLand\\b') THEN 'land'
    WHEN regexp_matches(split_part(c.type_line, ' // ', 1), '\\bCreature\\b') THEN 'creature'
    WHEN regexp_matches(split_part(c.type_line, ' // ', 1), '\\bArtifact\\b') THEN 'artifact'
    WHEN regexp_matches(split_part(c.type_line, ' // ', 1), '\\bEnchantment\\b') THEN 'enchantment'
    WHEN regexp_matches(split_part(c.type_line, ' // ', 1), '\\bPlaneswalker\\b') THEN 'planeswalker'
    WHEN regexp_matches(split_part(c.type_line, ' // ', 1), '\\b(Instant|Sorcery)\\b') THEN 'instant_sorcery'
    ELSE 'other' END"""


VIEWS: list[View] = [
    View(
        "ast_nodes",
        "Every node of every ability AST (abilities.ast, docs/ast.md), one row each, found by walking the JSON "
        "(json_tree), as the other AST views do.",
        """
SELECT a.ability_id, a.oracle_id, a.face_index, a.ability_index, a.kind AS ability_kind,
       t.fullkey AS path,
       regexp_extract(t.fullkey, '\\.([A-Za-z_][A-Za-z_0-9]*)(\\[[0-9]+\\])*$', 1) AS field,
       t.value->>'node' AS node,
       t.value AS json
FROM abilities a, json_tree(a.ast) t
WHERE t.type = 'OBJECT' AND (t.value->>'node') IS NOT NULL""",
        {
            "ability_id": "The ability (abilities.ability_id).",
            "oracle_id": "The card (cards.oracle_id).",
            "face_index": "The face (faces.face_index).",
            "ability_index": "Position of the ability line in the face (abilities.ability_index).",
            "ability_kind": "Kind of the ability line (abilities.kind).",
            "path": "JSONPath of the node inside abilities.ast ('$' = the Ability node, '$.body.cost' = an activated ability's cost).",
            "field": "Field of the enclosing node that holds this node ('body', 'cost', 'effects', …); '' for the root.",
            "node": "Node class name (docs/ast.md): Activated, Cost, TapCost, CopyEffect, AddMana, EntersWith, …",
            "json": "The node itself, as JSON (every field present, NULL when not set).",
        },
    ),
    View(
        "mana_producers",
        "Cards that could produce mana through their own abilities (cards.produced_mana non-empty, CR 106.7), "
        "with their produced mana, card category and how the mana is produced (mana_abilities).",
        f"""
SELECT c.oracle_id, c.name, c.type_line,
       {_CATEGORY} AS category,
       regexp_matches(c.type_line, '\\bLand\\b') AS is_land,
       regexp_matches(c.type_line, '\\bCreature\\b') AS is_creature,
       regexp_matches(c.type_line, '\\bArtifact\\b') AS is_artifact,
       c.colors,
       c.produced_mana,
       list_filter(c.produced_mana, lambda m: m <> 'C') AS produced_colors,
       len(c.produced_mana) AS produced_count,
       list_contains(c.produced_mana, 'C') AS produces_colorless,
       c.produced_mana_dependent AS dependent,
       coalesce(m.production_kinds, []) AS production_kinds,
       coalesce(m.mana_ability_count, 0) AS mana_ability_count,
       coalesce(m.tap_ability_count, 0) AS tap_ability_count,
       coalesce(m.intrinsic, false) AS intrinsic
FROM cards c
LEFT JOIN (
    SELECT oracle_id,
           list_sort(list_distinct(flatten(list(production_kinds)))) AS production_kinds,
           count(*) FILTER (WHERE is_mana_ability) AS mana_ability_count,
           count(*) FILTER (WHERE has_tap_cost) AS tap_ability_count,
           bool_or(origin = 'basic_land_type') AS intrinsic
    FROM mana_abilities GROUP BY oracle_id
) m USING (oracle_id)
WHERE len(c.produced_mana) > 0""",
        {
            "oracle_id": "The card (cards.oracle_id).",
            "name": "Card name.",
            "type_line": "Type line (faces joined by ' // ').",
            "category": "By the first face's type line, first match of: land, creature, artifact, enchantment, planeswalker, instant_sorcery, other.",
            "is_land": "Some face is a land.",
            "is_creature": "Some face is a creature.",
            "is_artifact": "Some face is an artifact.",
            "colors": "The card's colors (CR 105), WUBRG order.",
            "produced_mana": "Mana types the card could produce (cards.produced_mana), WUBRGC order.",
            "produced_colors": "produced_mana without colorless: the colors the card could produce.",
            "produced_count": "Number of mana types in produced_mana (1-6).",
            "produces_colorless": "produced_mana contains C.",
            "dependent": "Part of produced_mana depends on other objects (cards.produced_mana_dependent).",
            "production_kinds": "Distinct production kinds of the card's mana-adding abilities (mana_abilities.production_kinds), sorted.",
            "mana_ability_count": "Rows of the card in mana_abilities that are mana abilities (CR 605), intrinsic ones included.",
            "tap_ability_count": "Rows of the card in mana_abilities with {T} in the cost (CR 107.5).",
            "intrinsic": "The card has an intrinsic mana ability from a basic land type (CR 305.6).",
        },
        requires=("mana_abilities",),
    ),
    View(
        "cost_components",
        "One row per component of every cost in every ability AST (activated and loyalty abilities, keyword "
        "costs, additional and alternative costs, class levels, granted abilities), in printed order (CR 118, 602.1).",
        _cost_components("cost"),
        {
            "ability_id": "The ability line whose AST holds the cost (abilities.ability_id).",
            "component": "What the component is: mana, tap ({T}, CR 107.5), untap ({Q}, CR 107.6), energy, loyalty (CR 606.4), "
                         "an action cost's action (sacrifice, discard, exile, pay_life, remove_counters, …, CR 118.3; tapping or "
                         "untapping other permanents is tap_object/untap_object), unparsed.",
            "detail": "The component as written: mana symbols ('{2}{G}'), '{T}', '{Q}', '{E}{E}', loyalty '+1'/'-X', or the action's wording.",
            "oracle_id": "The card (cards.oracle_id).",
            "position": "0-based position of the component within its cost.",
            "cost_owner": "AST node the cost belongs to: Activated, Keyword, AdditionalCost, AlternativeCost, ClassLevel, ….",
            "cost_path": "JSONPath of the cost inside abilities.ast ('$.body.cost' = the line's own activation cost).",
            "cost_text": "The whole cost as written, when the AST records it.",
            "granted": "True when the cost belongs to an ability the line grants to other objects or to tokens it creates "
                       "(inside a GrantAbility/CreateToken 'abilities' list or a copy exception), not to the card itself.",
            "json": "The component node as JSON.",
        },
    ),
]


def _cost_symbol_view(name: str, component: str, node: str, symbol: str, rule: str) -> View:
    return View(
        name,
        f"Abilities with {symbol} in a cost ({rule}): one row per (ability, cost containing {symbol}), with the "
        f"cost's components (as in cost_components).",
        f"""
SELECT a.ability_id, a.oracle_id, c.name, a.face_index, a.text, a.kind, a.is_mana_ability,
       k.cost_owner, k.cost_text, k.components, k.granted
FROM (
    SELECT ability_id, cost_path, any_value(cost_owner) AS cost_owner, any_value(cost_text) AS cost_text,
           list(component ORDER BY position) AS components, bool_or(granted) AS granted
    FROM ({_cost_components(node)}) GROUP BY ability_id, cost_path
    HAVING list_contains(list(component), '{component}')
) k
JOIN abilities a USING (ability_id)
JOIN cards c USING (oracle_id)""",
        {
            "ability_id": "The ability (abilities.ability_id).",
            "oracle_id": "The card (cards.oracle_id).",
            "name": "Card name.",
            "face_index": "The face (faces.face_index).",
            "text": "The ability line as printed.",
            "kind": "Ability kind (abilities.kind).",
            "is_mana_ability": "The parser's mana-ability flag (abilities.is_mana_ability, CR 605).",
            "cost_owner": "AST node the cost belongs to (Activated, Keyword, …).",
            "cost_text": "The cost as written, when the AST records it.",
            "components": f"Components of that cost in order (cost_components.component), '{component}' among them.",
            "granted": "The cost is of an ability granted to other objects or tokens (cost_components.granted).",
        },
    )


#: Keywords whose rule makes a copy (pipeline.derive.copies.KEYWORD_COPIES), populate aside (an Action).
_KEYWORD_COPY_NAMES = tuple(k for k in KEYWORD_COPIES if k != "populate")
_KEYWORD_COPY_VALUES = ", ".join(
    f"('{k}', '{kc.copy_kind}', '{kc.copied_object}', {str(kc.new_targets).lower()}, '{kc.rule}')"
    for k, kc in KEYWORD_COPIES.items() if k != "populate")

VIEWS += [
    _cost_symbol_view("tap_abilities", "tap", "TapCost", "{T}", "the tap symbol, CR 107.5"),
    _cost_symbol_view("untap_abilities", "untap", "UntapCost", "{Q}", "the untap symbol, CR 107.6"),
    View(
        "copy_effects",
        "One row per copy effect (CR 707) in any ability AST — printed copy effects, populate (CR 701.36a) and the "
        "keywords whose rule makes a copy (token copies: embalm, eternalize, encore, myriad, squad, offspring; spell "
        "copies, CR 707.10: storm, replicate, gravestorm, conspire, demonstrate, casualty) — with what is copied, its exceptions "
        "(CR 707.9) and their classes (copy_exceptions), and extra counters (CR 107.3m).",
        f"""
WITH copies AS (
    SELECT n.ability_id, n.oracle_id, n.json->>'mode' AS copy_kind,
           coalesce(TRY_CAST(n.json->>'optional' AS BOOLEAN), false) AS optional,
           coalesce(nullif(n.json->'original'->>'text', ''), n.json->'original'->>'node') AS copied_object,
           coalesce(json_transform(n.json->'exceptions', '{_EXCEPTION_SHAPE}'), []) AS exceptions,
           {_COPY_COUNTERS} AS extra_counters,
           coalesce(nullif(n.json->'subject'->>'text', ''), n.json->'subject'->>'node') AS subject,
           {_amount("n.json->'count'")} AS copies,
           coalesce(TRY_CAST(n.json->>'new_targets' AS BOOLEAN), false) AS new_targets,
           n.path, 'copy_effect' AS source, 'CR 707' AS rule
    FROM {_nodes("CopyEffect")} n
    UNION ALL
    -- populate: "create a token that's a copy of a creature token you control" (CR 701.36a)
    SELECT n.ability_id, n.oracle_id, 'create_token_copy', false, 'a creature token you control',
           json_transform('[]', '{_EXCEPTION_SHAPE}'), [], NULL, NULL, false, n.path, 'keyword_action', 'CR 701.36a'
    FROM {_walk(_mentions("populate"), "(t.value->>'node') = 'Action' AND (t.value->>'verb') = 'populate'")} n
    UNION ALL
    -- keywords whose rule makes a copy: token copies of the card, spell copies (KEYWORD_COPIES)
    SELECT n.ability_id, n.oracle_id, kc.copy_kind, false,
           -- the card's own keyword line, or a keyword this ability grants (Wort, the Raidmother: conspire)
           CASE WHEN n.path LIKE '$.body.keywords[%' THEN kc.copied_object
                ELSE 'an object given ' || kc.name || ' by this ability' END,
           json_transform('[]', '{_EXCEPTION_SHAPE}'), [], NULL, NULL, kc.new_targets, n.path, 'keyword', kc.rule
    FROM {_walk(_mentions(*_KEYWORD_COPY_NAMES), "(t.value->>'node') = 'Keyword' AND lower(t.value->>'name') IN ("
                + ", ".join(f"'{k}'" for k in _KEYWORD_COPY_NAMES) + ")")} n
    JOIN (VALUES {_KEYWORD_COPY_VALUES}) kc(name, copy_kind, copied_object, new_targets, rule)
      ON kc.name = lower(n.json->>'name')
)
SELECT k.ability_id, k.oracle_id, k.copy_kind, k.optional, k.copied_object, k.exceptions, k.extra_counters,
       c.name, k.subject, k.copies, k.new_targets, a.text, k.path, k.source, k.rule,
       coalesce(x.exception_classes, []) AS exception_classes
FROM copies k
JOIN abilities a USING (ability_id)
JOIN cards c ON c.oracle_id = k.oracle_id
LEFT JOIN (
    SELECT ability_id, path, list({{'position': position, 'text': text, 'rule': rule, 'rules': rules,
                                   'operation': operation, 'characteristic': characteristic,
                                   'applies_if': applies_if}} ORDER BY position) AS exception_classes
    FROM copy_exceptions GROUP BY ability_id, path
) x ON x.ability_id = k.ability_id AND x.path = k.path""",
        {
            "ability_id": "The ability (abilities.ability_id).",
            "oracle_id": "The card (cards.oracle_id).",
            "copy_kind": "Copy mode (docs/ast.md COPY_MODES): enter_as_copy, becomes_copy, is_copy, create_token_copy, "
                         "copy_spell, copy_ability, copy_card, other.",
            "optional": "'You may' copy (the controller chooses).",
            "copied_object": "What is copied, as worded ('any creature on the battlefield', 'target instant or sorcery spell'); "
                             "for a keyword row, as its rule words it ('this spell', 'this card'), or 'an object given "
                             "<keyword> by this ability' when the ability grants the keyword to other objects.",
            "exceptions": "The 'except …' clauses (CR 707.9): list of {kind, text, condition: {text}}; kind is_type, has_ability, "
                          "has_keyword, not_legendary, name_is, enters_with_counters, no_mana_cost, other; condition NULL "
                          "unless the exception holds only if … ('if it's a creature').",
            "extra_counters": "Counters the copy enters with: " + _COUNTER_COMMENT + ".",
            "name": "Card name.",
            "subject": "What becomes the copy (for enter/becomes copy effects; '~' = this object), as worded.",
            "copies": "Number of copies ('X', a number or the wording) when given.",
            "new_targets": "'You may choose new targets for the copy' (CR 707.10c).",
            "text": "The ability line as printed.",
            "path": "JSONPath of the CopyEffect node (or of the populate Action / the keyword) inside abilities.ast.",
            "source": "copy_effect (printed), keyword_action (populate, CR 701.36) or keyword (a keyword whose rule makes the "
                      "copy: embalm, eternalize, encore, myriad, squad, offspring, storm, replicate, gravestorm, conspire, "
                      "demonstrate, casualty; the rule column names its CR subrule).",
            "rule": "The rule of the copy: 'CR 707' for printed copy effects, the keyword action's or keyword's rule otherwise.",
            "exception_classes": "What each exception does to the copiable values (copy_exceptions, CR 707.9): list of "
                                 "{position, text, rule, rules, operation, characteristic, applies_if} in order; the exceptions "
                                 "a keyword's rule defines (embalm: white, no mana cost, Zombie in addition) are here too.",
        },
        requires=("copy_exceptions",),
    ),
    View(
        "x_enters_effects",
        "Effects that depend on X as a permanent enters (CR 107.3, 107.3m): 'enters with X counters' replacement "
        "effects, copy effects with X extra counters, enters-triggered abilities whose effect uses X, and planeswalkers "
        "whose printed loyalty is X (they enter with X loyalty counters, CR 306.5b).",
        f"""
WITH hits AS (
    -- "~ enters with X +1/+1 counters on it" (CR 614.1c, 107.3m)
    SELECT n.ability_id, n.oracle_id, 'enters_with_counters' AS effect_kind, n.path,
           list_transform(coalesce(json_extract(n.json, '$.counters[*]'), []),
                          lambda s: {_COUNTER_STRUCT.format(e='s')}) AS counters
    FROM {_nodes("EntersWith")} n
    WHERE len(list_filter(coalesce(json_extract(n.json, '$.counters[*].amount'), []),
                          lambda m: {_is_x('m')})) > 0
    UNION ALL
    -- copy effects whose copy enters with X additional counters (CR 707.9, 107.3m)
    SELECT n.ability_id, n.oracle_id, 'copy_with_counters', n.path, {_COPY_COUNTERS}
    FROM {_nodes("CopyEffect")} n
    UNION ALL
    -- "When ~ enters, … X …" (CR 603.6a); X means the value chosen on casting (CR 107.3m)
    SELECT n.ability_id, n.oracle_id, 'enters_trigger', n.path, []
    FROM {_walk("(" + _mentions("Triggered") + ") AND (" + _mentions("x", "X") + ")",
                "(t.value->>'node') = 'Triggered'")} n
    WHERE regexp_matches(lower(coalesce(n.json->'event'->>'node', '') || ' ' || coalesce(n.json->'event'->>'verb', '')
                               || ' ' || coalesce(n.json->'event'->>'kind', '') || ' ' || coalesce(n.json->'event'->>'text', '')),
                         '\\benters?\\b')
      AND (json_contains(n.json->'effect', '{{"node": "Amount", "kind": "x"}}')
           OR json_contains(n.json->'effect', '{{"node": "Amount", "variable": "X"}}'))
    UNION ALL
    -- printed loyalty X: the intrinsic "enters with a number of loyalty counters equal to its printed
    -- loyalty number" (CR 306.5b, a replacement effect 614.1c) refers to X (CR 107.3m)
    SELECT NULL::VARCHAR, f.oracle_id, 'loyalty_x', NULL::VARCHAR,
           [{{'counter': 'loyalty', 'amount': 'X', 'is_x': true}}]
    FROM faces f WHERE f.loyalty = 'X'
)
SELECT h.ability_id, h.oracle_id, c.name, h.effect_kind, h.counters,
       coalesce(c.mana_cost LIKE '%{{X}}%', false) AS x_in_mana_cost,
       w.x_definition,
       coalesce(a.text, 'Loyalty X: enters with X loyalty counters (CR 306.5b)') AS text, h.path
FROM hits h
LEFT JOIN abilities a USING (ability_id)
JOIN cards c ON c.oracle_id = h.oracle_id
LEFT JOIN (
    SELECT ability_id, first(coalesce(nullif(json->'definition'->>'text', ''), json->'definition'->>'node')
                              ORDER BY path) AS x_definition
    FROM {_nodes("WhereX")} GROUP BY ability_id
) w USING (ability_id)
WHERE h.effect_kind <> 'copy_with_counters' OR len(list_filter(h.counters, lambda s: s.is_x)) > 0""",
        {
            "ability_id": "The ability (abilities.ability_id).",
            "oracle_id": "The card (cards.oracle_id).",
            "name": "Card name.",
            "effect_kind": "enters_with_counters (EntersWith node with X counters), copy_with_counters (CopyEffect with X extra "
                           "counters), enters_trigger (Triggered ability on an enters event whose effect has an X amount), "
                           "loyalty_x (a planeswalker face whose printed loyalty is X: it enters with X loyalty counters, "
                           "CR 306.5b, 107.3m; ability_id and path NULL).",
            "counters": "Counters involved (empty for enters_trigger): " + _COUNTER_COMMENT + ".",
            "x_in_mana_cost": "The card's mana cost contains {X} (X chosen on casting, CR 107.3m, 601.2f).",
            "x_definition": "Definition of X from a 'where X is …' in the same ability (WhereX node), else NULL.",
            "text": "The ability line as printed (for loyalty_x the intrinsic ability, CR 306.5b).",
            "path": "JSONPath of the node found inside abilities.ast (NULL for loyalty_x).",
        },
        requires=("faces",),
    ),
]

# Card data (printings, legalities): the everyday questions of deck and collection analytics.
VIEWS += [
    View(
        "legal_cards",
        "Cards playable in each format: one row per (format, card) whose legalities row says legal or restricted "
        "(a format the source does not list for a card is not legal there).",
        """
SELECT l.format, l.oracle_id, c.name, l.status, c.type_line, c.mana_value, c.color_identity,
       c.is_digital_only, c.first_released_at
FROM legalities l JOIN cards c USING (oracle_id)
WHERE l.status IN ('legal', 'restricted')""",
        {
            "format": "Format (legalities.format): standard, modern, commander, pauper, …",
            "oracle_id": "The card (cards.oracle_id).",
            "name": "Card name.",
            "status": "legal or restricted (one copy per deck, vintage).",
            "type_line": "Type line.",
            "mana_value": "Mana value (CR 202.3).",
            "color_identity": "Color identity (CR 903.4), WUBRG order.",
            "is_digital_only": "The card has no paper printing (cards.is_digital_only).",
            "first_released_at": "Release date of its first printing (cards.first_released_at).",
        },
    ),
    View(
        "newest_printings",
        "The newest printing of each card, preferring one with an image: its set, date, rarity, artist and the "
        "first face's image URIs (Scryfall sources; NULL for MTGJSON, which has no images).",
        """
SELECT p.oracle_id, c.name, p.set_code, p.set_name, p.released_at, p.collector_number, p.lang, p.rarity,
       p.artist, p.image_uris[1].normal AS image_normal, p.image_uris[1].large AS image_large,
       p.image_uris[1].art_crop AS image_art_crop, p.image_uris, p.scryfall_id, p.price_usd, p.prices_date
FROM printings p JOIN cards c USING (oracle_id)
QUALIFY row_number() OVER (PARTITION BY p.oracle_id ORDER BY p.image_uris IS NULL, p.released_at DESC NULLS LAST,
                                                              p.lang = 'en' DESC, p.set_code DESC, p.collector_number DESC) = 1""",
        {
            "oracle_id": "The card (cards.oracle_id).",
            "name": "Card name.",
            "set_code": "Set of the printing (printings.set_code).",
            "set_name": "Set name.",
            "released_at": "Release date of the printing.",
            "collector_number": "Collector number.",
            "lang": "Language code of the printing (English preferred among printings of the same date).",
            "rarity": "Rarity.",
            "artist": "Artist.",
            "image_normal": "URI of the first face's 'normal' image (488×680 JPG), NULL without images.",
            "image_large": "URI of the first face's 'large' image (672×936 JPG).",
            "image_art_crop": "URI of the first face's art crop.",
            "image_uris": "Every face's image URIs (printings.image_uris).",
            "scryfall_id": "Scryfall id of the printing.",
            "price_usd": "Its Scryfall USD price where present.",
            "prices_date": "Date of that price (printings.prices_date).",
        },
    ),
    View(
        "sets",
        "One row per set of the database's printings: name, type, release date and year, how many printings and "
        "cards it holds and how many cards were first printed there.",
        """
SELECT p.set_code, any_value(p.set_name) AS set_name, any_value(p.set_type) AS set_type,
       min(p.released_at) AS released_at, year(min(p.released_at)) AS release_year,
       count(*) AS printings, count(DISTINCT p.oracle_id) AS cards,
       count(DISTINCT p.oracle_id) FILTER (WHERE c.first_set_code = p.set_code) AS new_cards
FROM printings p JOIN cards c USING (oracle_id)
GROUP BY p.set_code""",
        {
            "set_code": "Set code (printings.set_code).",
            "set_name": "Set name.",
            "set_type": "Set type (core, expansion, funny, …; NULL where the source has none).",
            "released_at": "Earliest release date among the set's printings.",
            "release_year": "Year of released_at.",
            "printings": "Printing rows of the set (every language).",
            "cards": "Distinct cards printed in the set.",
            "new_cards": "Cards whose first printing is in this set (cards.first_set_code).",
        },
    ),
]

#: View names in creation order.
VIEW_NAMES = tuple(v.name for v in VIEWS)

#: Deprecated alias → view it selects from. The views lost their ``v_`` prefix in 0.2.0 (one
#: naming scheme: plain nouns); the old names stay as ``SELECT *`` aliases for one release and
#: are removed in 0.3.0. They are not exported (``export --parquet`` writes the new names).
DEPRECATED_ALIASES: dict[str, str] = {
    "v_ast_nodes": "ast_nodes",
    "v_mana_producers": "mana_producers",
    "v_tap_abilities": "tap_abilities",
    "v_untap_abilities": "untap_abilities",
    "v_x_enters_effects": "x_enters_effects",
}

#: Release that removes :data:`DEPRECATED_ALIASES`.
ALIASES_REMOVED_IN = "0.3.0"


def create_views(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Create (or replace) every view of :data:`VIEWS` in ``con`` with its comments, then the
    :data:`DEPRECATED_ALIASES` of the views created (``SELECT *`` from the new name, with the
    same column comments and a comment saying what replaces them).

    Needs the tables ``cards`` and ``abilities``; a view whose ``requires`` tables are missing
    (a checkout without the derive stage, whose ``mana_abilities`` and
    ``cards.produced_mana_dependent`` mana_producers reads) is not created, nor its alias.
    Returns the names of the views created (aliases included). Views are not evaluated here
    (no build time). Raises ``ValueError`` when a view's output columns differ from its
    documented ``columns``, and ``duckdb.Error`` (naming the view) when a view cannot be created.
    """
    tables = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    created = []
    for view in VIEWS:
        if not set(view.requires) <= tables:
            continue
        try:
            con.execute(f"CREATE OR REPLACE VIEW {view.name} AS {view.sql}")
        except duckdb.Error as exc:
            raise type(exc)(f"view {view.name}: {exc}") from None
        actual = [r[0] for r in con.execute(
            "SELECT column_name FROM duckdb_columns() WHERE table_name = ? ORDER BY column_index",
            [view.name]).fetchall()]
        if actual != list(view.columns):
            raise ValueError(f"view {view.name}: columns {actual} differ from the documented {list(view.columns)}")
        comment_relation(con, view.name, view.comment, view.columns, kind="VIEW")
        created.append(view.name)
    by_name = {v.name: v for v in VIEWS}
    for alias, target in DEPRECATED_ALIASES.items():
        if target not in created:
            continue
        con.execute(f"CREATE OR REPLACE VIEW {alias} AS SELECT * FROM {target}")
        comment_relation(con, alias, f"Deprecated alias of {target} (SELECT * FROM {target}), kept for one release: "
                         f"removed in {ALIASES_REMOVED_IN}; query {target} instead.",
                         by_name[target].columns, kind="VIEW")
        created.append(alias)
    return created
