"""Round-trip coverage of parsed ability lines (``mtg-pipeline coverage``, docs/ast.md § Coverage).

:func:`summarize` takes faces as ``(face name, [Ability JSON dict, …])`` and counts, with the
round-trip definition of ``fully_parsed`` (pipeline.parse.render):

* faces whose every ability round-trips, and lines;
* per ability kind;
* *mana lines*: lines whose text (reminder text aside) adds mana — "Add"/"add(s)" followed by a
  mana symbol or the word "mana" (CR 106.3);
* *copy effects*: lines with a CopyEffect node or whose text copies (CR 707: "copy",
  "copies", populate CR 701.36);
* the most frequent shapes that do not round-trip, each with an example card: the node
  without a renderer (``Action:search``, ``Obj:word``) or, when the rendering differs from
  the text, ``text: <rendered words> ≠ <expected words>``.

The input may come from a database (``abilities.ast``) or a JSON Lines text corpus
(:func:`iter_corpus_faces`, the ``parse --jsonl`` input shape and the oracle-2026 shape).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from typing import Iterable

_REMINDER_RE = re.compile(r"\([^()]*\)")
MANA_LINE_RE = re.compile(r"\badds?\b(?:\s+an\s+additional)?\s+(?:\{|[^.]*?\bmana\b)", re.I)
COPY_LINE_RE = re.compile(r"\b(?:copy|copies|populate)\b", re.I)

#: Layouts of oracle-2026 records that are not traditional Magic cards (CR 901 planes, 314
#: schemes, 902 vanguards): the issue's face counts leave them out, as Alchemy ``A-`` cards.
NONTRADITIONAL_LAYOUTS = frozenset({"planar", "scheme", "vanguard"})


def body_text(ability: dict) -> str:
    """An ability's line without reminder text (for the mana/copy line tests)."""
    return _REMINDER_RE.sub("", ability.get("text") or "")


def _has_node(node, name: str) -> bool:
    stack = [node]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            if v.get("node") == name:
                return True
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return False


def is_mana_line(ability: dict) -> bool:
    return bool(MANA_LINE_RE.search(body_text(ability)))


def is_copy_line(ability: dict) -> bool:
    return _has_node(ability.get("body"), "CopyEffect") or bool(COPY_LINE_RE.search(body_text(ability)))


def mismatch_shape(ability: dict) -> str:
    """Coverage key of an ability that does not round-trip."""
    m = ability.get("render_mismatch") or {}
    shape = m.get("shape") or ("Unparsed" if not ability.get("no_unparsed", True) else "?")
    if shape == "text":
        return f"text: {m.get('rendered', '')!s} ≠ {m.get('expected', '')!s}"
    return shape


def frac(total: int, ok: int) -> dict:
    return {"total": total, "fully_parsed": ok, "fraction": (ok / total) if total else None}


def summarize(faces: Iterable[tuple[str, list[dict]]], top: int = 30) -> dict:
    """Coverage of ``faces`` (``(name, [Ability JSON])``). Returns ``{"lines", "faces",
    "per_kind": {kind: …}, "mana_lines", "copy_lines", "mana_abilities", "unrendered_shapes":
    [{"shape", "count", "example"}]}``, each figure ``{"total", "fully_parsed", "fraction"}``.
    A face with no ability counts as round-tripping."""
    lines = [0, 0]
    faces_c = [0, 0]
    per_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    mana = [0, 0]
    copy = [0, 0]
    mana_ab = [0, 0]
    shapes: Counter = Counter()
    example: dict[str, str] = {}
    for name, abilities in faces:
        face_ok = True
        for a in abilities:
            ok = bool(a.get("fully_parsed"))
            face_ok &= ok
            lines[0] += 1
            lines[1] += ok
            k = per_kind[a.get("kind") or "other"]
            k[0] += 1
            k[1] += ok
            if is_mana_line(a):
                mana[0] += 1
                mana[1] += ok
            if is_copy_line(a):
                copy[0] += 1
                copy[1] += ok
            if a.get("is_mana_ability"):
                mana_ab[0] += 1
                mana_ab[1] += ok
            if not ok:
                s = mismatch_shape(a)
                shapes[s] += 1
                example.setdefault(s, name)
        faces_c[0] += 1
        faces_c[1] += face_ok
    return {
        "lines": frac(*lines),
        "faces": frac(*faces_c),
        "per_kind": {k: frac(*v) for k, v in sorted(per_kind.items(), key=lambda kv: -kv[1][0])},
        "mana_lines": frac(*mana),
        "copy_lines": frac(*copy),
        "mana_abilities": frac(*mana_ab),
        "unrendered_shapes": [{"shape": s, "count": c, "example": example[s]} for s, c in shapes.most_common(top)],
    }


def record_faces(rec: dict) -> list[dict]:
    """The faces of one JSON Lines record: its ``faces`` list when it has one (the oracle-2026
    shape; faces without text are skipped), else the record itself. Each face:
    ``{"name", "type_line", "oracle_text"}``."""
    faces = rec.get("faces")
    if isinstance(faces, list) and faces:
        out = []
        for f in faces:
            if isinstance(f, dict) and isinstance(f.get("oracle_text"), str):
                out.append({"name": f.get("name") or rec.get("name") or "",
                            "type_line": f.get("type_line") or rec.get("type_line") or "",
                            "oracle_text": f["oracle_text"]})
        return out
    return [{"name": rec.get("name") or "", "type_line": rec.get("type_line") or "",
             "oracle_text": rec["oracle_text"]}]


def is_traditional(rec: dict) -> bool:
    """False for planes, phenomena, schemes and vanguards (by layout) and Alchemy ``A-`` cards."""
    return rec.get("layout") not in NONTRADITIONAL_LAYOUTS and not (rec.get("name") or "").startswith("A-")


def format_summary(rep: dict) -> str:
    """Plain-text rendering of :func:`summarize`."""
    def pct(d):
        return "n/a" if d["fraction"] is None else f"{100 * d['fraction']:.1f}%"

    def row(label, d):
        return f"{label:<34} {pct(d):>7} ({d['fully_parsed']}/{d['total']})"

    out = [row("faces round-tripping:", rep["faces"]), row("ability lines round-tripping:", rep["lines"]),
           row("mana lines (add mana):", rep["mana_lines"]), row("copy-effect lines:", rep["copy_lines"]),
           row("mana abilities (CR 605):", rep["mana_abilities"]), "", "per kind:"]
    for k, d in rep["per_kind"].items():
        out.append(f"  {k:<12} {pct(d):>7}  ({d['fully_parsed']}/{d['total']})")
    out += ["", f"top {len(rep['unrendered_shapes'])} shapes that do not round-trip:"]
    for s in rep["unrendered_shapes"]:
        out.append(f"  {s['count']:>6}  {s['shape'][:110]}  — e.g. {s['example']}")
    return "\n".join(out)
