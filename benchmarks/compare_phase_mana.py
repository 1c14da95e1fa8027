"""Compare our per-card produced mana with phase.rs's parser over the MTGJSON corpus.

phase.rs (PyPI ``phase-python``, optional extra ``peers``) builds a typed ``CardFace`` from an
MTGJSON card record with ``phase.build_oracle_face(record, oracle_id)``; its mana effects are
``{"type": "Mana", "produced": {"type": …, "colors"/"color_options"/…}}``. For every card
(oracle_id) of the corpus we take the union of the mana types phase's own abilities of all
faces could add (CR 106.7 widest reading of each ``produced.type``, see PHASE_TYPES), and compare it
with ``cards.produced_mana`` — from a database built from the same corpus (``--db``), or
from fresh parses (default; slower). Mana phase puts in created tokens or abilities granted to
other objects is kept apart exactly as ours is (token / granted), never mixed into the card's own.

Usage::

    .venv/bin/python benchmarks/compare_phase_mana.py [--corpus DIR] [--db PATH] [--examples N] [--json OUT]

Prints the number of cards, cards with mana abilities (CR 605.1a/b, ours), agreement, and
each disagreement category with examples. Not a test: phase is no runtime dependency.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.derive.compare import mentions_adding_mana  # noqa: E402
from pipeline.derive.mana import COLORS, MANA_TYPES, sort_types  # noqa: E402
from pipeline.normalize.model import GAME_LAYOUTS  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "mtgjson-v5-20220425"
#: The CR-adjudicated disagreements (docs/mana.md § Peer comparison).
ADJUDICATION = ROOT / "docs" / "mana_phase_adjudication.json"
#: phase layouts built with build_oracle_face_multi (phase/gen.py MULTI_LAYOUTS).
MULTI_LAYOUTS = {"split", "flip", "transform", "meld", "adventure", "modal_dfc", "prepare", "aftermath"}
_COLOR_NAMES = {"White": "W", "Blue": "U", "Black": "B", "Red": "R", "Green": "G", "Colorless": "C"}

#: phase ``produced.type`` → the widest set of mana types it could add (CR 106.7), and
#: whether the set depends on other objects. Types not listed are counted as unknown.
PHASE_TYPES: dict[str, tuple[tuple[str, ...] | None, bool]] = {
    "Fixed": (None, False),                       # its "colors"
    "Colorless": (("C",), False),
    "AnyOneColor": (None, False),                 # its "color_options"
    "AnyCombination": (None, False),              # its "color_options"
    "ChosenColor": (COLORS, False),               # + "fixed_alternative"
    "AnyTypeProduceableBy": (MANA_TYPES, True),   # "any type that a land … could produce"
    "AnyInCommandersColorIdentity": (COLORS, True),
    "ChoiceAmongExiledColors": (COLORS, True),
    "AnyOneColorAmongPermanents": (COLORS, True),
    "OpponentLandColors": (COLORS, True),         # "any color that a land an opponent controls could produce"
    "TriggerEventManaType": (MANA_TYPES, True),   # "any type that land produced"
    "ChoiceAmongCombinations": (None, False),     # its "options": lists of color names
    "Mixed": (None, False),                       # "colorless_count" {C} plus "colors"
    "DistinctColorsAmongPermanents": (COLORS, True),
}
#: predefined token names phase gives as Token effects (CR 111.10a/c/h).
TOKEN_MANA = {"Treasure": COLORS, "Gold": COLORS, "Powerstone": ("C",)}


def _letters(names) -> set[str]:
    return {_COLOR_NAMES[n] for n in names or [] if n in _COLOR_NAMES}


def phase_types(produced: dict, unknown: Counter) -> set[str]:
    """Widest set of mana types one phase ``produced`` dict could add."""
    kind = produced.get("type")
    if kind not in PHASE_TYPES:
        unknown[kind] += 1
        return set()
    fixed, _ = PHASE_TYPES[kind]
    out = set(fixed or ())
    out |= _letters(produced.get("colors")) | _letters(produced.get("color_options"))
    for option in produced.get("options") or []:
        out |= _letters(option if isinstance(option, list) else [option])
    if produced.get("colorless_count"):
        out.add("C")
    alt = produced.get("fixed_alternative")
    if isinstance(alt, str):
        out |= _letters([alt])
    return out


def phase_extract(face: dict) -> dict:
    """The mana-related parts of one phase CardFace, JSON-able (cacheable).

    own / token / granted: lists of ``produced`` dicts of Mana effects — own: its abilities,
    triggers, replacements and abilities it grants to itself (``affected: SelfRef``); token:
    inside a Token effect; granted: abilities granted to other objects. token_names: names of
    created tokens (predefined Treasure, Gold, Powerstone …). unimplemented: descriptions of
    phase's Unimplemented clauses that mention adding mana. Basic land types: phase adds the
    intrinsic abilities to ``abilities`` itself (CR 305.6)."""
    out = {"own": [], "token": [], "granted": [], "token_names": [], "unimplemented": []}

    def walk(o, where):
        if isinstance(o, dict):
            t = o.get("type")
            if t == "Token":
                out["token_names"].append(o.get("name"))
                where = "token"
            if t == "Unimplemented" and mentions_adding_mana(o.get("description") or ""):
                out["unimplemented"].append(o.get("description"))
            if t == "Mana" and isinstance(o.get("produced"), dict):
                out[where].append(o["produced"])
            if where == "own" and "modifications" in o:
                affected = (o.get("affected") or {}).get("type")
                for m in o.get("modifications") or []:
                    walk(m, "own" if affected == "SelfRef" else "granted")
                for k, v in o.items():
                    if k != "modifications":
                        walk(v, where)
                return
            for v in o.values():
                walk(v, where)
        elif isinstance(o, list):
            for v in o:
                walk(v, where)

    for key in ("abilities", "triggers", "static_abilities", "replacements", "keywords"):
        walk(face.get(key), "own")
    return out


def phase_mana(extracts: list[dict], unknown: Counter) -> dict:
    """Union over a card's faces (``phase_extract`` results) as mana-type sets: own, token,
    granted; kinds (phase ``produced.type`` of own mana); unimplemented clause texts."""
    p = {"own": set(), "token": set(), "granted": set(), "unimplemented": [], "kinds": set()}
    for ex in extracts:
        for where in ("own", "token", "granted"):
            for produced in ex[where]:
                p[where] |= phase_types(produced, unknown)
                if where == "own":
                    p["kinds"].add(produced.get("type"))
        for name in ex["token_names"]:
            p["token"] |= set(TOKEN_MANA.get(name, ()))
        p["unimplemented"] += ex["unimplemented"]
    return p


def read_corpus(corpus: Path) -> dict[str, list[dict]]:
    """oracle_id → the first MTGJSON record of each face (by side), traditional cards only."""
    cards: dict[str, dict[str, dict]] = defaultdict(dict)
    for path in sorted(corpus.glob("*.json.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            data = json.load(fh)["data"]
        for rec in data.get("cards", []):
            oid = (rec.get("identifiers") or {}).get("scryfallOracleId")
            if not oid or rec.get("layout") not in GAME_LAYOUTS or rec.get("isFunny"):
                continue
            cards[oid].setdefault(rec.get("side") or "a", rec)
    return {oid: [faces[s] for s in sorted(faces)] for oid, faces in cards.items()}


def ours_from_db(db: Path) -> dict[str, dict]:
    """Our derived values per oracle_id from a built database."""
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    out = {}
    for oid, name, produced, dep, token, granted in con.execute(
            "SELECT oracle_id, name, produced_mana, produced_mana_dependent, token_produced_mana, "
            "granted_produced_mana FROM cards").fetchall():
        out[oid] = {"name": name, "produced": set(produced or []), "dependent": dep, "token": set(token or []),
                    "granted": set(granted or []), "kinds": set(), "self_granted": False, "mana_ability": False,
                    "unparsed": [], "basic": set()}
    for oid, origin, kind, is_ma, produces in con.execute(
            "SELECT oracle_id, origin, production_kind, is_mana_ability, produces FROM mana_abilities").fetchall():
        o = out[oid]
        o["kinds"].add(kind)
        o["mana_ability"] |= bool(is_ma)
        o["self_granted"] |= origin == "granted_to_self"
        if origin == "basic_land_type":
            o["basic"] |= set(produces)
    # "has an Unparsed node" (Ability.no_unparsed), not the round trip fully_parsed now means
    for oid, text in con.execute("""SELECT oracle_id, text FROM abilities
            WHERE NOT COALESCE(CAST(json_extract(ast, '$.no_unparsed') AS BOOLEAN), fully_parsed)""").fetchall():
        if mentions_adding_mana(text):
            out[oid]["unparsed"].append(text)
    con.close()
    return out


def ours_fresh(records: dict[str, list[dict]]) -> dict[str, dict]:
    """Our derived values per oracle_id from fresh parses of the records' Oracle text."""
    from pipeline.derive.mana import face_mana, mana_ability_rows
    from pipeline.parse import parse_face

    out = {}
    for oid, faces in records.items():
        o = {"name": " // ".join(f.get("faceName") or f["name"] for f in faces), "produced": set(),
             "dependent": False, "token": set(), "granted": set(), "kinds": set(), "self_granted": False,
             "mana_ability": False, "unparsed": [], "basic": set()}
        for f in faces:
            name, type_line, text = f.get("faceName") or f["name"], f.get("type") or "", f.get("text") or ""
            asts = [a.to_json() for a in parse_face(text, name=name, type_line=type_line)] if text.strip() else []
            fm = face_mana(asts, type_line)
            o["produced"] |= set(fm.produced)
            o["dependent"] |= fm.dependent
            o["token"] |= set(fm.token)
            o["granted"] |= set(fm.granted)
            o["basic"] |= set(fm.basic_types)
            for r in mana_ability_rows(fm):
                o["kinds"].add(r["production_kind"])
                o["mana_ability"] |= bool(r["is_mana_ability"])
                o["self_granted"] |= r["origin"] == "granted_to_self"
            o["unparsed"] += [a["text"] for a in asts if not a.get("no_unparsed", a["fully_parsed"])
                              and mentions_adding_mana(a["text"])]
        out[oid] = o
    return out


#: Disagreement categories, most specific first.
CATEGORIES = {
    "ours_unparsed": "our grammar leaves a line that adds mana unparsed",
    "ours_unstructured": "our AST keeps an 'Add …' only as wording (production kind 'other')",
    "phase_unimplemented": "phase leaves a clause that adds mana Unimplemented",
    "self_grant": "a granted ability reaches the card itself ('Creatures you control have …' on a creature): "
                  "ours counts it as the card's own, phase as granted only",
    "token_vs_own": "one side counts mana of a created token / granted ability as the card's own",
    "colorless_breadth": "only C differs, on an 'any type' / dependent ability (CR 106.7)",
    "dependent_breadth": "a dependent ability where the sides read the widest set differently (CR 106.7)",
    "phase_missing": "phase has no mana where our structured AST adds mana",
    "ours_missing": "we have no mana where phase's ability adds mana",
    "other": "anything else",
}


def categorize(o: dict, p: dict) -> str:
    ours, theirs = o["produced"], p["own"]
    missing, extra = theirs - ours, ours - theirs
    if missing and o["unparsed"]:
        return "ours_unparsed"
    if "other" in o["kinds"]:
        return "ours_unstructured"
    if extra and p["unimplemented"]:
        return "phase_unimplemented"
    if extra and o["self_granted"] and extra <= p["granted"]:
        return "self_grant"
    if (missing and missing <= (o["token"] | o["granted"])) or (extra and extra <= (p["token"] | p["granted"])):
        return "token_vs_own"
    if (missing | extra) == {"C"} and (o["dependent"] or o["kinds"] & {"any_type", "could_produce", "dependent"}):
        return "colorless_breadth"
    if o["dependent"]:
        return "dependent_breadth"
    if not theirs and ours:
        return "phase_missing"
    if not ours and theirs:
        return "ours_unparsed" if o["unparsed"] else "ours_missing"
    return "other"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="directory of MTGJSON set files")
    ap.add_argument("--db", type=Path, default=None, help="database built from the same corpus (else parse fresh)")
    ap.add_argument("--examples", type=int, default=6, help="examples printed per category")
    ap.add_argument("--json", type=Path, default=None, help="also write every disagreement as JSON here")
    ap.add_argument("--phase-cache", type=Path, default=None,
                    help="JSON file of phase's extracted mana per oracle_id: read if present, written after the run")
    args = ap.parse_args(argv)
    try:
        import phase
    except ImportError as exc:
        print(f"phase-python is not installed ({exc}); `pip install 'mtg-pipeline[peers]'`", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    records = read_corpus(args.corpus)
    ours = ours_from_db(args.db) if args.db else ours_fresh(records)
    t1 = time.perf_counter()
    from importlib.metadata import version

    phase_version = version("phase-python")
    unknown: Counter = Counter()
    errors: dict[str, str] = {}
    cache: dict[str, list] = {}
    if args.phase_cache and args.phase_cache.exists():
        cache = json.loads(args.phase_cache.read_text(encoding="utf-8"))
        if cache.get("phase_version") != phase_version and "phase_version" in cache:
            cache = {}
        cache.pop("phase_version", None)
    compared = agree = 0
    by_cat: dict[str, list] = defaultdict(list)
    counts = Counter()
    for oid, faces in records.items():
        o = ours.get(oid)
        if o is None:
            continue
        if oid in cache:
            extracts = cache[oid]
        else:
            try:
                multi = len(faces) > 1 and faces[0].get("layout") in MULTI_LAYOUTS
                extracts = [phase_extract((phase.build_oracle_face_multi if multi else phase.build_oracle_face)(f, oid))
                            for f in faces]
            except Exception as exc:  # a peer's failure is a finding, not a crash
                errors[oid] = f"{type(exc).__name__}: {exc}"
                continue
            cache[oid] = extracts
        p = phase_mana(extracts, unknown)
        compared += 1
        counts["ours_mana_ability_cards"] += o["mana_ability"]
        counts["ours_produces"] += bool(o["produced"])
        counts["phase_produces"] += bool(p["own"])
        for side, s in (("ours", o), ("phase", p)):
            counts[f"{side}_token"] += bool(s["token"])
            counts[f"{side}_granted"] += bool(s["granted"])
        counts["either_produces"] += bool(o["produced"] or p["own"])
        if o["produced"] == p["own"]:
            agree += 1
            continue
        cat = categorize(o, p)
        by_cat[cat].append({"oracle_id": oid, "name": o["name"], "ours": sort_types(o["produced"]),
                            "phase": sort_types(p["own"]), "ours_kinds": sorted(k for k in o["kinds"] if k),
                            "phase_kinds": sorted(k for k in p["kinds"] if k),
                            "ours_unparsed": o["unparsed"], "phase_unimplemented": p["unimplemented"],
                            "text": " // ".join(f.get("text") or "" for f in faces)})
    t2 = time.perf_counter()
    if args.phase_cache:
        args.phase_cache.write_text(json.dumps({**cache, "phase_version": phase_version}),
                                    encoding="utf-8")
    print(f"phase-python {phase_version}; cards compared: {compared} (phase errors: {len(errors)}); "
          f"ours {t1 - t0:.0f}s, phase {t2 - t1:.0f}s")
    print(f"cards with mana abilities (ours, CR 605.1a/b incl. CR 305.6): {counts['ours_mana_ability_cards']}")
    print(f"cards producing mana: ours {counts['ours_produces']}, phase {counts['phase_produces']}; "
          f"token mana: ours {counts['ours_token']}, phase {counts['phase_token']}; "
          f"granted: ours {counts['ours_granted']}, phase {counts['phase_granted']}")
    mana_cards = counts["either_produces"]
    mana_agree = mana_cards - (compared - agree)
    print(f"agreement: {agree}/{compared} = {agree / max(compared, 1):.2%} of all cards; on the {mana_cards} cards "
          f"where either side produces mana: {mana_agree}/{mana_cards} = {mana_agree / max(mana_cards, 1):.2%}")
    if unknown:
        print(f"phase produced.type values not mapped: {dict(unknown)}")
    for cat, items in sorted(by_cat.items(), key=lambda kv: -len(kv[1])):
        print(f"\n{cat}: {len(items)} — {CATEGORIES[cat]}")
        for it in items[:args.examples]:
            print(f"  {it['name']}: ours {''.join(it['ours']) or '-'} {it['ours_kinds']}, "
                  f"phase {''.join(it['phase']) or '-'} {it['phase_kinds']}")
            for line in (it["ours_unparsed"] if cat == "ours_unparsed" else
                         it["phase_unimplemented"] if cat == "phase_unimplemented" else []):
                print(f"      unparsed: {line}")
    if errors:
        print(f"\nphase errors: {len(errors)}, e.g. {list(errors.items())[:3]}")
    # CR adjudication of every disagreement (docs/mana_phase_adjudication.json)
    adjudicated = {c["oracle_id"]: c for c in json.loads(ADJUDICATION.read_text(encoding="utf-8"))["cards"]}
    sides, unadjudicated, stale = Counter(), [], []
    for cat, items in by_cat.items():
        for it in items:
            a = adjudicated.get(it["oracle_id"])
            if a is None:
                unadjudicated.append(it["name"])
            elif set(a["ours"]) != set(it["ours"]) or set(a["phase"]) != set(it["phase"]):
                stale.append(it["name"])
            else:
                sides[(a["cr_side"], a["category"])] += 1
    ours_side = sum(n for (side, _), n in sides.items() if side == "ours")
    phase_side = sum(n for (side, _), n in sides.items() if side == "phase")
    print(f"\nCR adjudication: {ours_side} disagreements the CR decides for us, {phase_side} for phase "
          f"({phase_side / max(mana_cards, 1):.2%} of the {mana_cards} mana makers); "
          f"{len(unadjudicated)} not adjudicated, {len(stale)} with other values than the file")
    for (side, cat), n in sorted(sides.items()):
        print(f"  {side:5} {cat}: {n}")
    for label, names in (("not adjudicated", unadjudicated), ("values differ from the file", stale)):
        if names:
            print(f"  {label}: {names}")
    if args.json:
        args.json.write_text(json.dumps({"agree": agree, "compared": compared, "categories": by_cat,
                                         "errors": errors, "unknown_phase_types": dict(unknown)},
                                        ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
