"""Measure ``ruling_rules`` on the gold set's parts without rebuilding a database, and the two
weak-supervision experiments of issue 14 (docs/annotate.md § Rules a ruling applies).

``DB`` is a database built from the MTGJSON 2022 corpus (``refresh`` of
``../shared/corpus/mtgjson-v5-20220425``). The linker is rebuilt from the CR and the committed
phrase table, and each gold ruling is linked alone with the context ``annotate`` gives it (its
card's name and keywords, its resolved citations, the rules of the ability it is about), so the
figures equal those of a fresh build. Scoring is ``tests/test_annotate_ruling_rules.py``'s.

Usage, from the project root::

    python tools/ruling_rules_measure.py DB                  # P / R / none, rank-1 confusion by how, the how that hit each primary and where the misses are (no row / beside a row), every part
    python tools/ruling_rules_measure.py DB --misses tune    # the misses of one part (tune or tune2; never tune on report or fresh)
    python tools/ruling_rules_measure.py DB --weak tune      # the weak-supervision experiments on one part

``--weak`` counts the distinct corpus ruling texts with a resolved citation, then uses the rulings
the method itself links by ``cited`` or ``phrase`` (texts of every gold part left out, card names
replaced by "this") as labels nobody wrote: (1) BM25 k-nearest neighbours (``bm25s``, top 5, votes
weighted by score) proposing rules for rulings the method gives no row, at several thresholds of
score per query token; (2) every rule's BM25 document expanded with the texts of the rulings linked
to it, as the subrule picker. Each is printed against the method alone.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import Counter, defaultdict
from pathlib import Path

import bm25s
import duckdb
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.annotate.ruling_rules import RulingRuleLinker, _base, _plain, tokens  # noqa: E402
from pipeline.sources.comprehensive_rules import load_comprehensive_rules  # noqa: E402
from tests.conftest import RULES_TXT  # noqa: E402
from tests.test_annotate_ruling_rules import gold_rows, matches, score  # noqa: E402

PARTS = ("tune", "tune2", "report", "fresh")


def contexts(con: duckdb.DuckDBPyConnection) -> dict[str, dict]:
    """ruling_id → comment, card name, keywords, resolved citations and the ruling's ability rules."""
    out = {rid: {"comment": c or "", "name": n or "", "keywords": list(k or []), "cited": [], "features": set()}
           for rid, c, n, k in con.execute(
               "SELECT r.ruling_id, r.comment, c.name, c.keywords FROM rulings r JOIN cards c USING (oracle_id)").fetchall()}
    for rid, rule in con.execute("SELECT ruling_id, rule FROM ruling_rule_refs WHERE status = 'resolved'").fetchall():
        out[rid]["cited"].append(rule)
    for rid, rule in con.execute("""SELECT DISTINCT a.ruling_id, i.rule FROM ruling_abilities a
                                    JOIN inferred_rules i ON i.ability_id = a.ability_id""").fetchall():
        out[rid]["features"].add(rule)
    return out


def link_all(linker: RulingRuleLinker, ctx: dict[str, dict], ids) -> dict[str, list]:
    """ruling_id → its RuleLinks, each ruling linked alone as ``annotate`` links it."""
    return {rid: linker.link(ctx[rid]["comment"], ctx[rid]["name"], ctx[rid]["cited"],
                             sorted(ctx[rid]["features"]), ctx[rid]["keywords"]) for rid in ids}


def figures(part: str, gold: list[dict], pred: dict[str, list[str]]) -> str:
    """One line: the part's top-1 precision, top-3 recall of primaries and 'none' → no row, with counts."""
    s = score(gold, pred)
    h1, wr, h, p, no, n = s["counts"]
    return (f"{part:7s} P {h1}/{wr} = {s['precision']:.3f}   R {h}/{p} = {s['recall']:.3f}   "
            f"none {no}/{n} = {s['none']:.3f}")


def confusion(gold: list[dict], links: dict[str, list]) -> Counter:
    """(how of the rank-1 row, right|wrong|on_none) counts."""
    out: Counter = Counter()
    for g in gold:
        got = links.get(g["ruling_id"], [])
        if not got:
            continue
        if g["none"] == "1":
            out[(got[0].how, "on_none")] += 1
        else:
            ok = any(matches(got[0].rule, x) for x in (g["primary"] + " " + g["related"]).split())
            out[(got[0].how, "right" if ok else "wrong")] += 1
    return out


def recall_by_how(gold: list[dict], links: dict[str, list]) -> Counter:
    """how of the first top-3 row matching each primary rule ('missed' when none does), over the
    primaries of the rulings not labeled 'none'."""
    out: Counter = Counter()
    for g in gold:
        got = links.get(g["ruling_id"], [])[:3]
        for x in g["primary"].split():
            hit = next((link.how for link in got if matches(link.rule, x)), "missed")
            out[hit] += 1
    return out


def missed_where(gold: list[dict], links: dict[str, list]) -> tuple[int, int]:
    """(missed primaries of rulings with no row, missed primaries beside a row): where recall is lost,
    as counts only (no ruling is shown)."""
    no_row = beside = 0
    for g in gold:
        got = links.get(g["ruling_id"], [])[:3]
        for x in g["primary"].split():
            if not any(matches(link.rule, x) for link in got):
                no_row += not got
                beside += bool(got)
    return no_row, beside


def pseudo_labels(con, ctx, gold_texts: set[str]) -> dict[str, list[str]]:
    """Distinct corpus ruling texts (card names → "this") linked by ``cited`` or ``phrase`` → their rules,
    gold texts left out."""
    out: dict[str, list[str]] = {}
    for rid, rule in con.execute("""SELECT ruling_id, rule FROM ruling_rules WHERE how IN ('cited', 'phrase')
                                    ORDER BY ruling_id, rank""").fetchall():
        c = ctx.get(rid)
        if c is None or c["comment"] in gold_texts:
            continue
        out.setdefault(normalized(c), [])
        if rule not in out[normalized(c)]:
            out[normalized(c)].append(rule)
    return out


def normalized(c: dict) -> str:
    """The ruling text with its card's (and faces') names replaced by "this", as the linker sees it."""
    text = _plain(c["comment"])
    for name in sorted({c["name"], *c["name"].split(" // ")}, key=len, reverse=True):
        if len(name) > 2:
            text = text.replace(_plain(name), "this")
    return text


def weak(con, ctx, linker: RulingRuleLinker, gold: list[dict], part: str) -> None:
    """Print the weak-supervision experiments (module docstring) on one gold part."""
    texts = {t for (t,) in con.execute("""SELECT DISTINCT r.comment FROM ruling_rule_refs x JOIN rulings r USING (ruling_id)
                                          WHERE x.status = 'resolved'""").fetchall()}
    print(f"distinct corpus ruling texts with a resolved citation: {len(texts)}")
    labels = pseudo_labels(con, ctx, {g["comment"] for g in gold_rows(*PARTS)})
    train = list(labels)
    print(f"pseudo-labeled distinct texts (cited or phrase): {len(train)}")
    knn = bm25s.BM25()
    knn.index([tokens(t) for t in train], show_progress=False)
    ids = [g["ruling_id"] for g in gold]
    base = {rid: [link.rule for link in links] for rid, links in link_all(linker, ctx, ids).items()}
    print(figures(part, gold, base), "  (the method)")
    votes_of: dict[str, tuple[list[str], float]] = {}
    for rid in ids:
        q = tokens(normalized(ctx[rid]))
        if not q:
            continue
        s = knn.get_scores(q)
        votes: dict[str, float] = defaultdict(float)
        for j in np.argsort(-s)[:5]:
            for k, rule in enumerate(labels[train[j]]):
                votes[rule] += float(s[j]) / (1 + k)
        if votes:
            ranked = sorted(votes, key=votes.get, reverse=True)
            votes_of[rid] = (ranked, votes[ranked[0]] / len(q))
    for threshold, alone in [(t, True) for t in (1.5, 2.0, 2.5, 3.0, 3.5, 4.0)] + [(t, False) for t in (0.0, 1.0, 2.0)]:
        pred = {}
        for rid in ids:
            got = list(base[rid])
            ranked, strength = votes_of.get(rid, ([], 0.0))
            if alone and not got and strength >= threshold:
                got = ranked[:1]
            for rule in ranked if got and strength >= threshold else ():
                if len(got) < 3 and _base(rule) not in {_base(r) for r in got}:
                    got.append(rule)
            pred[rid] = got
        print(figures(part, gold, pred), f"  (+ kNN over pseudo-labels, votes/token ≥ {threshold}"
              f"{'' if alone else ', only beside a row of the method'})")
    by = load_comprehensive_rules(RULES_TXT).by_number()
    expanded: dict[str, list[str]] = defaultdict(list)
    for text, rules in labels.items():
        for rule in rules:
            expanded[rule].append(text)
    docs = []
    for rule in linker.docs:
        head = by.get(rule.split(".")[0])
        parent = by.get(_base(rule)) if rule != _base(rule) else None
        title = " ".join(x for x in (head.title if head else "", parent.title if parent and parent.title else "") if x)
        extra = " ".join(sorted(expanded.get(rule, ()))[:30])
        docs.append(tokens(f"{title} {by[rule].text.split('Example:')[0]} {extra}"))
    plain_bm25 = linker.bm25
    linker.bm25 = bm25s.BM25()
    linker.bm25.index(docs, show_progress=False)
    linker._memo.clear()
    pred = {rid: [link.rule for link in links] for rid, links in link_all(linker, ctx, ids).items()}
    print(figures(part, gold, pred), "  (rule documents expanded by pseudo-labeled rulings)")
    linker.bm25 = plain_bm25
    linker._memo.clear()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("db")
    ap.add_argument("--misses", choices=PARTS)
    ap.add_argument("--weak", choices=PARTS)
    args = ap.parse_args()
    con = duckdb.connect(args.db, read_only=True)
    ctx = contexts(con)
    linker = RulingRuleLinker(load_comprehensive_rules(RULES_TXT))
    if args.weak:
        weak(con, ctx, linker, gold_rows(args.weak), args.weak)
        return
    for part in PARTS:
        gold = gold_rows(part)
        links = link_all(linker, ctx, [g["ruling_id"] for g in gold])
        print(figures(part, gold, {rid: [x.rule for x in ls] for rid, ls in links.items()}))
        print("        rank-1 by how:", dict(sorted(confusion(gold, links).items())))
        print("        primaries hit by how:", dict(recall_by_how(gold, links).most_common()))
        print("        missed primaries: %d in rulings with no row, %d beside a row" % missed_where(gold, links))
        if part == args.misses:
            for g in gold:
                got = links[g["ruling_id"]]
                primary, related = g["primary"].split(), g["related"].split()
                missed = [x for x in primary if not any(matches(link.rule, x) for link in got[:3])]
                wrong1 = got and g["none"] == "0" and not any(matches(got[0].rule, x) for x in primary + related)
                if missed or wrong1 or (g["none"] == "1" and got):
                    print(f"  {g['card']}: gold {g['primary'] or 'none'} (related {g['related'] or '-'}) got "
                          f"{[(x.rule, x.how) for x in got]}\n    {g['comment'][:200]}")


if __name__ == "__main__":
    main()
