"""Golden produced mana of real cards (tests/golden_mana/cards.json, checked by hand against
CR 106, 106.7, 111.10, 305.6, 605), computed from fresh parses of their MTGJSON Oracle text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.derive.mana import FaceMana, face_mana, mana_ability_rows
from pipeline.normalize.ingest import collect
from pipeline.parse import parse_face

CORPUS = Path(__file__).parents[1].parent / "shared" / "corpus"
MTGJSON = CORPUS / "mtgjson-v5-20220425"
GOLDEN = json.loads((Path(__file__).parent / "golden_mana" / "cards.json").read_text(encoding="utf-8"))["cards"]

pytestmark = pytest.mark.corpus


@pytest.fixture(scope="module")
def derived() -> dict[str, dict]:
    """oracle_id → {"card", "mana": FaceMana (union), "rows": [(face, row)], "asts": [(face, ast)]}."""
    sets = sorted({g["set"] for g in GOLDEN})
    collection, _ = collect([MTGJSON / f"{s}.json.gz" for s in sets])
    out = {}
    for g in GOLDEN:
        card = collection.cards[g["oracle_id"]]
        total, rows, asts = FaceMana(), [], []
        for face in card.faces:
            abilities = [a.to_json() for a in parse_face(face.oracle_text, name=face.name,
                                                          type_line=face.type_line or "")]
            fm = face_mana(abilities, face.type_line)
            total = total.merge(fm)
            rows += [(face.face_index, r) for r in mana_ability_rows(fm)]
            asts += [(face.face_index, a) for a in abilities]
        out[g["oracle_id"]] = {"card": card, "mana": total, "rows": rows, "asts": asts}
    return out


def _norm(text: str | None, name: str) -> str:
    text = " ".join((text or "").lower().split())
    for part in name.lower().split(" // "):
        text = text.replace(part, "~")
    return text


def test_golden_file_covers_the_brief():
    kinds = {a["production_kind"] for g in GOLDEN for a in g["abilities"]}
    assert len(GOLDEN) >= 40
    # Every production kind but any_type and other: no card in the corpus says "one mana of any type"
    # on its own — every "any type" wording is "that … could produce" (could_produce) or "produced"
    # (dependent) — and no AddMana of the corpus is "other" since the Thriving lands' "{G} or one
    # mana of the chosen color" became chosen_color with {G} in options.
    assert {"fixed", "one_of", "any_color", "combination", "chosen_color", "commander_identity",
            "could_produce", "dependent"} <= kinds
    names = {g["name"] for g in GOLDEN}
    for needed in ("Llanowar Elves", "Birds of Paradise", "City of Brass", "Reflecting Pool", "Exotic Orchard",
                   "Gemstone Mine", "Wild Growth", "Utopia Sprawl", "Mana Reflection", "Command Tower"):
        assert needed in names


def _ast_gap(node) -> bool:
    """A GrantAbility whose subject the parser left empty (no words, no text), or an AddMana
    with production or amount "other" (wording the AST keeps but does not structure)."""
    if isinstance(node, dict):
        if node.get("node") == "AddMana" and (node.get("production") == "other"
                                              or (node.get("amount") or {}).get("kind") == "other"):
            return True
        if node.get("node") == "GrantAbility":
            subj = node.get("subject") or {}
            if subj.get("node") == "Obj" and not subj.get("words") and not (subj.get("text") or "").strip():
                return True
        return any(_ast_gap(v) for v in node.values())
    if isinstance(node, list):
        return any(_ast_gap(v) for v in node)
    return False


def _unparsed_lines(d) -> list[str]:
    """Lines the grammar does not (fully) structure yet: Unparsed nodes and :func:`_ast_gap`. A difference on such a card is a grammar gap (xfail with
    the exact text, reported to the grammar owner), never silently passed."""
    return [a["text"] for _, a in d["asts"]
            if a["kind"] != "reminder" and (not a["no_unparsed"] or _ast_gap(a["body"]))]


@pytest.mark.parametrize("golden", GOLDEN, ids=[g["name"] for g in GOLDEN])
def test_card_produced_mana(golden, derived):
    d = derived[golden["oracle_id"]]
    mana: FaceMana = d["mana"]
    got = {"produced_mana": mana.produced, "produced_mana_dependent": mana.dependent,
           "token_produced_mana": mana.token, "granted_produced_mana": mana.granted,
           "basic_land_types": mana.basic_types}
    want = {k: golden[k] for k in got}
    if got != want and _unparsed_lines(d):
        pytest.xfail(f"grammar gap: unparsed {_unparsed_lines(d)}")
    assert got == want, golden["why"]


@pytest.mark.parametrize("golden", GOLDEN, ids=[g["name"] for g in GOLDEN])
def test_card_mana_ability_rows(golden, derived):
    d = derived[golden["oracle_id"]]
    name = golden["name"]
    got = sorted(
        ((face, r["origin"], r["text"]), {
            "produces": r["produces"], "production_kind": r["production_kind"], "amount": _norm(r["amount"], name),
            "is_mana_ability": r["is_mana_ability"], "has_tap_cost": r["has_tap_cost"],
            "has_untap_cost": r["has_untap_cost"], "is_triggered": r["is_triggered"],
            "is_dependent": r["is_dependent"], "restrictions": len(r["restrictions"])})
        for face, r in d["rows"] if r["origin"] != "basic_land_type")
    want = sorted(
        ((a["face"], a["origin"], a["text"]), {
            "produces": a["produces"], "production_kind": a["production_kind"], "amount": _norm(a["amount"], name),
            "is_mana_ability": a["is_mana_ability"], "has_tap_cost": a["has_tap_cost"],
            "has_untap_cost": a["has_untap_cost"], "is_triggered": a["is_triggered"],
            "is_dependent": a["is_dependent"], "restrictions": a.get("restrictions", 0)})
        for a in golden["abilities"])
    if got != want and _unparsed_lines(d):
        pytest.xfail(f"grammar gap: unparsed {_unparsed_lines(d)}")
    assert got == want, golden["why"]


@pytest.mark.parametrize("golden", GOLDEN, ids=[g["name"] for g in GOLDEN])
def test_ast_mana_ability_flag_agrees(golden, derived):
    """The parser's is_mana_ability (CR 605.1a/b) agrees with the hand-checked value on every
    line that adds mana, and is False on every other line of the card."""
    d = derived[golden["oracle_id"]]
    want = {(a["face"], a["text"]): a["is_mana_ability"] for a in golden["abilities"] if a["origin"] == "text"}
    got = {(face, a["text"]): a["is_mana_ability"] for face, a in d["asts"]}
    expected = {k: want.get(k, False) for k in got}
    if got != expected and _unparsed_lines(d):
        pytest.xfail(f"grammar gap: unparsed {_unparsed_lines(d)}")
    assert got == expected
