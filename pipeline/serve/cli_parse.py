"""``mtg-pipeline parse`` and ``mtg-pipeline coverage`` (docs/ast.md).

* ``parse "TEXT" [--name NAME] [--type-line T]`` prints the AST JSON of one face's oracle text.
* ``parse --jsonl FILE`` reads JSON Lines ``{"name", "oracle_text", "type_line"?}`` ("-" = stdin)
  and writes one JSON object per line: ``{"name", "ast": [Ability JSON…], "fully_parsed",
  "produced_mana"}`` (produced_mana from :func:`pipeline.derive.mana.produced_mana_for_face`).
* ``coverage [--db PATH] [--json]`` reports, on a built database, the fraction of ability lines
  and of card faces fully parsed (overall and per kind) and the 30 most frequent unparsed
  shapes (numbers → N, the card's name → ~) with an example card each.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

import click

from pipeline.paths import DB_ENV, default_db_path

_NUM_RE = re.compile(r"\d+")


class BadRecord(ValueError):
    """A --jsonl line that is not a JSON object with a string ``oracle_text``."""


def parse_record(rec: dict) -> dict:
    """Parse one ``{"name", "oracle_text", "type_line"?}`` record → output dict (see module doc)."""
    from pipeline.parse import parse_face

    name = rec.get("name") or ""
    type_line = rec.get("type_line") or ""
    abilities = parse_face(rec["oracle_text"], name=name, type_line=type_line)
    asts = [a.to_json() for a in abilities]
    out = {"name": name, "ast": asts, "fully_parsed": all(a.fully_parsed for a in abilities)}
    try:
        from pipeline.derive.mana import produced_mana_for_face
    except ImportError:  # derive stage not installed: leave the key out, never fake it
        return out
    out["produced_mana"] = produced_mana_for_face(asts, type_line)
    return out


def iter_jsonl(path: str):
    """Yield records of a JSON Lines file (``-`` = stdin). Raises BadRecord naming the file,
    the line number and the field."""
    fh = sys.stdin if path == "-" else open(path, encoding="utf-8")
    try:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                raise BadRecord(f"{path}:{n}: not JSON ({e.msg})") from None
            if not isinstance(rec, dict):
                raise BadRecord(f"{path}:{n}: expected a JSON object")
            if not isinstance(rec.get("oracle_text"), str):
                raise BadRecord(f"{path}:{n}: field 'oracle_text' missing or not a string")
            for key in ("name", "type_line"):
                if rec.get(key) is not None and not isinstance(rec[key], str):
                    raise BadRecord(f"{path}:{n}: field {key!r} is not a string")
            yield rec
    finally:
        if fh is not sys.stdin:
            fh.close()


@click.command("parse")
@click.argument("text", required=False)
@click.option("--name", default="", help="Face name (self references become ~).")
@click.option("--type-line", "type_line", default="", help="Type line (instants/sorceries → kind 'spell').")
@click.option("--jsonl", "jsonl", default=None, help="Read JSON Lines records from FILE ('-' = stdin).")
def parse_command(text: str | None, name: str, type_line: str, jsonl: str | None) -> None:
    """Parse oracle TEXT (or --jsonl FILE) and print the ability AST JSON."""
    if jsonl is None and text is None:
        raise click.UsageError("give TEXT or --jsonl FILE")
    if jsonl is not None:
        try:
            for rec in iter_jsonl(jsonl):
                click.echo(json.dumps(parse_record(rec), ensure_ascii=False))
        except (BadRecord, OSError) as e:
            raise click.ClickException(str(e)) from None
        return
    from pipeline.parse import parse_face

    abilities = parse_face(text, name=name, type_line=type_line)
    click.echo(json.dumps([a.to_json() for a in abilities], ensure_ascii=False, indent=2))


def unparsed_texts(ast) -> list[str]:
    """Texts of every Unparsed node in an Ability JSON (dict or JSON string)."""
    if isinstance(ast, str):
        ast = json.loads(ast)
    out = []
    stack = [ast.get("body", ast)] if isinstance(ast, dict) else [ast]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            if v.get("node") == "Unparsed":
                out.append(v.get("text", ""))
            else:
                stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return out


def shape(text: str, name: str = "") -> str:
    """Unparsed shape: the card's name → ~, numbers → N, whitespace collapsed."""
    if name:
        for part in sorted({name, *name.split(" // ")}, key=len, reverse=True):
            if part:
                text = text.replace(part, "~")
    return " ".join(_NUM_RE.sub("N", text).split())


def coverage_report(con, top: int = 30) -> dict:
    """Compute the coverage report from an open DuckDB connection with the ``abilities`` and
    ``faces``/``cards`` tables (docs/ast.md § Coverage). Returns
    ``{"lines": {"total", "fully_parsed", "fraction"}, "faces": {...}, "per_kind": {kind: {...}},
    "mana_abilities": {...}, "unparsed_shapes": [{"shape", "count", "example"}]}``."""
    rows = con.execute("""
        SELECT a.oracle_id, a.face_index, a.kind, a.fully_parsed, a.is_mana_ability, a.ast,
               COALESCE(f.name, c.name) AS name
        FROM abilities a
        LEFT JOIN faces f ON f.oracle_id = a.oracle_id AND f.face_index = a.face_index
        LEFT JOIN cards c ON c.oracle_id = a.oracle_id
        ORDER BY a.oracle_id, a.face_index, a.ability_index""").fetchall()
    per_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    faces: dict[tuple, bool] = {}
    mana = [0, 0]
    shapes: Counter = Counter()
    example: dict[str, str] = {}
    for oid, fi, kind, fully, is_mana, ast, name in rows:
        per_kind[kind][0] += 1
        per_kind[kind][1] += bool(fully)
        faces[(oid, fi)] = faces.get((oid, fi), True) and bool(fully)
        if is_mana:
            mana[0] += 1
            mana[1] += bool(fully)
        if not fully and ast is not None:
            for t in unparsed_texts(ast):
                s = shape(t, name or "")
                shapes[s] += 1
                example.setdefault(s, name or "")
    face_rows = con.execute("SELECT oracle_id, face_index FROM faces").fetchall()
    for key in face_rows:  # faces without abilities (vanilla) are fully parsed
        faces.setdefault(tuple(key), True)

    def frac(total, ok):
        return {"total": total, "fully_parsed": ok, "fraction": (ok / total) if total else None}

    total = sum(v[0] for v in per_kind.values())
    ok = sum(v[1] for v in per_kind.values())
    return {
        "lines": frac(total, ok),
        "faces": frac(len(faces), sum(faces.values())),
        "per_kind": {k: frac(*v) for k, v in sorted(per_kind.items(), key=lambda kv: -kv[1][0])},
        "mana_abilities": frac(*mana),
        "unparsed_shapes": [{"shape": s, "count": c, "example": example[s]} for s, c in shapes.most_common(top)],
    }


def format_report(rep: dict) -> str:
    """Plain-text rendering of :func:`coverage_report`."""
    def pct(d):
        return "n/a" if d["fraction"] is None else f"{100 * d['fraction']:.1f}%"

    lines = [f"ability lines fully parsed: {pct(rep['lines'])} ({rep['lines']['fully_parsed']}/{rep['lines']['total']})",
             f"card faces fully parsed:    {pct(rep['faces'])} ({rep['faces']['fully_parsed']}/{rep['faces']['total']})",
             f"mana abilities fully parsed: {pct(rep['mana_abilities'])} ({rep['mana_abilities']['fully_parsed']}/{rep['mana_abilities']['total']})",
             "", "per kind:"]
    for k, d in rep["per_kind"].items():
        lines.append(f"  {k:<12} {pct(d):>7}  ({d['fully_parsed']}/{d['total']})")
    lines += ["", f"top {len(rep['unparsed_shapes'])} unparsed shapes:"]
    for s in rep["unparsed_shapes"]:
        lines.append(f"  {s['count']:>6}  {s['shape'][:120]}  — e.g. {s['example']}")
    return "\n".join(lines)


@click.command("coverage")
@click.option("--db", "db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help=f"Database file (default: ${DB_ENV}, else the platform data dir).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--top", default=30, show_default=True, help="How many unparsed shapes to list.")
def coverage_command(db: Path | None, as_json: bool, top: int) -> None:
    """Fraction of ability lines and card faces fully parsed; most frequent unparsed shapes."""
    import duckdb

    path = db if db is not None else default_db_path()
    if not path.exists():
        raise click.ClickException(f"no database at {path}; build one with `mtg-pipeline refresh`")
    con = duckdb.connect(str(path), read_only=True)
    try:
        rep = coverage_report(con, top=top)
    except duckdb.Error as e:
        raise click.ClickException(f"{path}: {e}") from None
    finally:
        con.close()
    click.echo(json.dumps(rep, indent=2) if as_json else format_report(rep))
