"""Choose the bundled snapshot in data/ from ../shared/corpus (reproducible: fixed seed).

Writes ``data/AllPrintings-subset.json.gz``: an MTGJSON AllPrintings-shaped file
(``{"meta", "data": {SET: {set fields…, "cards": [...], "tokens": [...]}}}``) holding, for each
chosen oracle card, every face record of one real printing, unchanged (rulings included); and
``data/MagicCompRules-20260227.txt.gz``: the Comprehensive Rules, byte for byte, gzipped.

Chosen: every card whose text shows a family the grammar targets (mana abilities, {Q},
copy effects, X with enters effects), the cards the tests name, several cards of every
multi-face layout, a handful of tokens, and a seeded random sample of the rest.

Run from the project root: ``python tools/make_snapshot.py``.
"""

from __future__ import annotations

import gzip
import json
import random
import re
import shutil
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
SETS = CORPUS / "mtgjson-v5-20220425"
RULES = CORPUS / "comprehensive-rules" / "MagicCompRules-20260227.txt"
OUT = ROOT / "data" / "AllPrintings-subset.json.gz"
OUT_RULES = ROOT / "data" / "MagicCompRules-20260227.txt.gz"

NAMED = {
    "Altered Ego", "Metamorphic Alteration", "Clone", "Reflecting Pool", "Exotic Orchard", "Birds of Paradise",
    "Llanowar Elves", "Treetop Village", "Gemstone Mine", "City of Brass", "Wild Growth", "Utopia Sprawl",
    "Mana Reflection", "Command Tower", "Mystic Gate", "Adarkar Wastes", "Smothering Tithe", "Forest", "Island",
    "Plains", "Swamp", "Mountain", "Wastes", "Tundra", "Breeding Pool", "Phyrexian Metamorph", "Spark Double",
    "Mirror Image", "Sakashima the Impostor", "Quasiduplicate", "Fork", "Twincast", "Hydroid Krasis",
    "Endless One", "Ulamog's Crusher", "Sol Ring", "Black Lotus", "Dark Ritual", "Lotus Petal", "Overgrowth",
    "Heartbeat of Spring", "Mana Flare", "Vorinclex, Voice of Hunger", "Cryptolith Rite", "Chromatic Sphere",
    "Fellwar Stone", "Sylvan Caryatid", "Urborg, Tomb of Yawgmoth", "Yavimaya, Cradle of Growth",
    "Jegantha, the Wellspring", "Ancient Tomb", "Eldrazi Temple", "Karn, the Great Creator", "Gilded Lotus",
    "Adeline, Resplendent Cathar", "Jace, the Mind Sculptor", "Liliana of the Veil", "Hangarback Walker",
    "Walking Ballista", "Stonecoiler", "Heaven // Earth", "Fire // Ice", "Brazen Borrower", "Bonecrusher Giant",
    "Delver of Secrets", "Emeria's Call", "Valakut Awakening", "Bruna, the Fading Light", "Brisela, Voice of Nightmares",
    "Gisela, the Broken Blade", "Who // What // When // Where // Why", "Kitsune Mystic", "The Eldest Reborn",
    "Druid Class", "Figure of Destiny", "Student of Warfare", "Pithing Needle", "Ward of Bones",
    "Lightning Bolt", "Counterspell", "Ornithopter", "Tarmogoyf", "Cultivate", "Thran Dynamo", "Mind Stone",
    "Coldsteel Heart", "Arcane Signet", "Manamorphose", "Birgi, God of Storytelling", "Dockside Extortionist",
    "Pentad Prism", "Grim Monolith", "Basalt Monolith", "Mana Vault", "Cabal Coffers", "Nykthos, Shrine to Nyx",
    "Gaea's Cradle", "Elvish Archdruid", "Priest of Titania", "Spectral Searchlight", "Prismatic Omen",
    "Chromatic Orrery", "Tinder Wall", "Simian Spirit Guide", "Elvish Spirit Guide", "Squandered Resources",
    "Springleaf Drum", "Channel", "Jeweled Lotus", "Mox Diamond", "Lion's Eye Diamond", "Skirk Prospector",
    "Bubbling Muck", "Zhur-Taa Ancient", "Doubling Cube", "Paradox Engine", "Crypt of Agadeem", "Vesuva",
    "Thespian's Stage", "Clever Impersonator", "Phantasmal Image", "Cackling Counterpart", "Helm of the Host",
    "Mirrormade", "Copy Enchantment", "Sculpting Steel", "Masterwork of Ingenuity", "Stunt Double",
}
FAMILY = [
    re.compile(r"\bAdd \{|\bAdd (one|two|three|X|an amount|that much|an additional)\b|mana of any"),
    re.compile(r"\{Q\}"),
    re.compile(r"copy of|copies of|\bcopy (target|that|it)\b"),
    re.compile(r"enters the battlefield with (X|a number)|where X is"),
]
MULTI_LAYOUTS = {"split", "aftermath", "flip", "transform", "modal_dfc", "meld", "adventure", "reversible_card",
                 "leveler", "class", "saga", "host", "augment", "planar", "scheme", "vanguard"}
TOKEN_NAMES = {"Treasure", "Clue", "Food", "Gold", "Eldrazi Scion", "Eldrazi Spawn"}
RANDOM_SAMPLE = 1600
SEED = 20260227


def main() -> None:
    by_oracle: dict[str, list[tuple[str, dict]]] = {}
    texts: dict[str, str] = {}
    names: dict[str, str] = {}
    layouts: dict[str, str] = {}
    set_meta: dict[str, dict] = {}
    tokens: dict[str, tuple[str, dict]] = {}
    meta = None
    for path in sorted(SETS.glob("*.json.gz")):
        doc = json.load(gzip.open(path))
        meta = doc["meta"]
        data = doc["data"]
        code = data["code"]
        set_meta[code] = {k: v for k, v in data.items() if k not in ("cards", "tokens")}
        printing: dict[tuple, list[dict]] = defaultdict(list)
        for card in data["cards"]:
            oid = card["identifiers"].get("scryfallOracleId") or "reversible:" + card["name"]
            printing[(oid, card.get("number"))].append(card)
        for (oid, _), records in printing.items():
            if oid not in by_oracle:
                by_oracle[oid] = [(code, r) for r in records]
                texts[oid] = "\n".join(r.get("text", "") for r in records)
                names[oid] = records[0]["name"]
                layouts[oid] = records[0]["layout"]
        for token in data.get("tokens", []):
            if token["name"] in TOKEN_NAMES and token["name"] not in tokens:
                tokens[token["name"]] = (code, token)
    chosen = set()
    for oid, text in texts.items():
        face_names = {r.get("faceName") for _, r in by_oracle[oid]}
        if names[oid] in NAMED or face_names & NAMED or any(p.search(text) for p in FAMILY):
            chosen.add(oid)
    per_layout: dict[str, list[str]] = defaultdict(list)
    for oid in sorted(texts):
        per_layout[layouts[oid]].append(oid)
    rng = random.Random(SEED)
    for layout in sorted(MULTI_LAYOUTS):
        pool = per_layout.get(layout, [])
        chosen.update(rng.sample(pool, min(8, len(pool))))
    rest = sorted(set(texts) - chosen)
    chosen.update(rng.sample(rest, RANDOM_SAMPLE))
    # MTGJSON ships reversible_card records without an oracle id; the reader resolves them by
    # face name, so the card they reprint must come along.
    by_face_name = {r.get("faceName") or r["name"]: oid for oid, recs in by_oracle.items()
                    if not oid.startswith("reversible:") for _, r in recs}
    chosen.update(by_face_name[by_oracle[oid][0][1].get("faceName")] for oid in list(chosen)
                  if oid.startswith("reversible:"))
    out: dict[str, dict] = {}
    for oid in sorted(chosen):
        for code, record in by_oracle[oid]:
            out.setdefault(code, {**set_meta[code], "cards": [], "tokens": []})["cards"].append(record)
    for code, token in tokens.values():
        out.setdefault(code, {**set_meta[code], "cards": [], "tokens": []})["tokens"].append(token)
    OUT.parent.mkdir(exist_ok=True)
    with gzip.open(OUT, "wt", encoding="utf-8", compresslevel=9) as fh:
        json.dump({"meta": meta, "data": dict(sorted(out.items()))}, fh, ensure_ascii=False, separators=(",", ":"))
    with open(RULES, "rb") as src, gzip.open(OUT_RULES, "wb", compresslevel=9) as dst:
        shutil.copyfileobj(src, dst)
    print(f"{len(chosen)} oracle cards from {len(out)} sets, {len(tokens)} tokens → {OUT} "
          f"({OUT.stat().st_size / 1e6:.2f} MB); rules → {OUT_RULES} ({OUT_RULES.stat().st_size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
