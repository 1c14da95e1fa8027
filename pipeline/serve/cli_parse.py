"""``mtg-pipeline parse`` and ``mtg-pipeline coverage`` (docs/ast.md).

* ``parse "TEXT" [--name NAME] [--type-line T]`` prints the AST JSON of one face's oracle text.
* ``parse --jsonl FILE`` reads JSON Lines ``{"name", "oracle_text", "type_line"?}`` ("-" = stdin)
  and writes one JSON object per input line: ``{"name", "ast": [Ability JSON…], "fully_parsed",
  "produced_mana"}`` (produced_mana from :func:`pipeline.derive.mana.produced_mana_for_face`);
  a record with a ``faces`` list (the oracle-2026 shape) gives ``{"name", "faces": [{"name",
  "ast", "fully_parsed"}], "fully_parsed"}``. ``fully_parsed`` is the round trip (docs/ast.md
  § Rendering).
* ``coverage [--db PATH | --jsonl FILE] [--json]`` reports the fraction of card faces and
  ability lines that round-trip (overall, per kind, mana lines, copy effects) and the most
  frequent shapes that do not, with an example card each (pipeline/serve/coverage.py).
"""

from __future__ import annotations

import io
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

    from pipeline.serve.coverage import record_faces

    name = rec.get("name") or ""
    type_line = rec.get("type_line") or ""
    if isinstance(rec.get("faces"), list) and rec["faces"]:  # the oracle-2026 shape: parse each face
        faces = []
        for f in record_faces(rec):
            fab = parse_face(f["oracle_text"], name=f["name"], type_line=f["type_line"])
            faces.append({"name": f["name"], "ast": [a.to_json() for a in fab],
                          "fully_parsed": all(a.fully_parsed for a in fab)})
        return {"name": name, "faces": faces, "fully_parsed": all(f["fully_parsed"] for f in faces)}
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
    """Yield records of a JSON Lines file, plain or gzip (``-`` = stdin). Raises BadRecord naming
    the file, the line number and the field."""
    if path == "-":
        yield from _jsonl_records(sys.stdin, path)
        return
    from pipeline.sources.errors import SourceError
    from pipeline.sources.files import open_binary

    try:
        with open_binary(path) as raw:  # refuses a FIFO or /dev/zero; gzip by its magic bytes
            yield from _jsonl_records(io.TextIOWrapper(raw, encoding="utf-8"), path)
    except SourceError as exc:
        raise BadRecord(str(exc)) from None
    except (OSError, EOFError) as exc:  # a truncated or corrupt gzip
        raise BadRecord(f"{path}: unreadable ({exc})") from None


def _jsonl_records(fh, path: str):
    n = 0
    try:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                raise BadRecord(f"{path}:{n}: not JSON ({e.msg})") from None
            except RecursionError:
                raise BadRecord(f"{path}:{n}: nested too deeply") from None
            if not isinstance(rec, dict):
                raise BadRecord(f"{path}:{n}: expected a JSON object")
            if not isinstance(rec.get("oracle_text"), str):
                raise BadRecord(f"{path}:{n}: field 'oracle_text' missing or not a string")
            for key in ("name", "type_line"):
                if rec.get(key) is not None and not isinstance(rec[key], str):
                    raise BadRecord(f"{path}:{n}: field {key!r} is not a string")
            yield rec
    except UnicodeDecodeError as exc:
        raise BadRecord(f"{path}:{n + 1}: not UTF-8 text ({exc.reason})") from None


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
        except (BadRecord, OSError, UnicodeDecodeError) as e:
            raise click.ClickException(str(e).splitlines()[0] if str(e) else type(e).__name__) from None
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
    """Coverage of a built database (``abilities`` with ``faces``/``cards``), docs/ast.md
    § Coverage: :func:`pipeline.serve.coverage.summarize` over its faces (``fully_parsed`` is
    the round trip), plus ``"unparsed_shapes"``: the most frequent Unparsed texts (numbers → N,
    the card's name → ~) with an example card each."""
    from pipeline.serve.coverage import summarize

    rows = con.execute("""
        SELECT a.oracle_id, a.face_index, a.kind, a.fully_parsed, a.is_mana_ability, a.ast, a.text,
               COALESCE(f.name, c.name) AS name
        FROM abilities a
        LEFT JOIN faces f ON f.oracle_id = a.oracle_id AND f.face_index = a.face_index
        LEFT JOIN cards c ON c.oracle_id = a.oracle_id
        ORDER BY a.oracle_id, a.face_index, a.ability_index""").fetchall()
    faces: dict[tuple, tuple[str, list[dict]]] = {}
    shapes: Counter = Counter()
    example: dict[str, str] = {}
    for oid, fi, kind, fully, is_mana, ast, text, name in rows:
        ast = json.loads(ast) if isinstance(ast, str) else (ast or {})
        rec = {"text": text, "kind": kind, "fully_parsed": bool(fully), "is_mana_ability": bool(is_mana),
               "no_unparsed": ast.get("no_unparsed", bool(fully)), "render_mismatch": ast.get("render_mismatch"),
               "body": ast.get("body")}
        faces.setdefault((oid, fi), (name or "", []))[1].append(rec)
        if not fully:
            for t in unparsed_texts(ast):
                s = shape(t, name or "")
                shapes[s] += 1
                example.setdefault(s, name or "")
    for oid, fi, name in con.execute("SELECT oracle_id, face_index, name FROM faces").fetchall():
        faces.setdefault((oid, fi), (name or "", []))  # faces without abilities (vanilla) round-trip
    rep = summarize(faces.values(), top=top)
    rep["unparsed_shapes"] = [{"shape": s, "count": c, "example": example[s]} for s, c in shapes.most_common(top)]
    return rep


def format_report(rep: dict) -> str:
    """Plain-text rendering of :func:`coverage_report`."""
    from pipeline.serve.coverage import format_summary

    lines = [format_summary(rep)]
    if rep.get("unparsed_shapes") is not None:
        lines += ["", f"top {len(rep['unparsed_shapes'])} unparsed shapes:"]
        for s in rep["unparsed_shapes"]:
            lines.append(f"  {s['count']:>6}  {s['shape'][:120]}  — e.g. {s['example']}")
    return "\n".join(lines)


def iter_parsed_faces(path: str, all_layouts: bool = False, counts: dict | None = None):
    """Yield ``(face name, [Ability JSON, ...])`` for every face of a JSON Lines corpus
    (``parse --jsonl`` records or the oracle-2026 shape, :func:`pipeline.serve.coverage.record_faces`).
    Planes, schemes, vanguards and Alchemy ``A-`` cards are left out unless ``all_layouts``; faces
    without text are skipped. ``counts``, when given, gets ``"records"`` and ``"left_out"``
    incremented. Raises BadRecord."""
    from pipeline.parse import parse_face
    from pipeline.serve.coverage import is_traditional, record_faces

    counts = {"records": 0, "left_out": 0} if counts is None else counts
    for rec in iter_jsonl(path):
        counts["records"] += 1
        if not all_layouts and not is_traditional(rec):
            counts["left_out"] += 1
            continue
        for f in record_faces(rec):
            if not f["oracle_text"].strip():
                continue
            abilities = parse_face(f["oracle_text"], name=f["name"], type_line=f["type_line"])
            yield f["name"], [a.to_json() for a in abilities]


def coverage_jsonl(path: str, top: int = 30, all_layouts: bool = False) -> dict:
    """Parse every face of a JSON Lines corpus (:func:`iter_parsed_faces`) and summarise it.
    Adds ``"records"`` and ``"left_out"`` counts. Raises BadRecord."""
    from pipeline.serve.coverage import summarize

    counts = {"records": 0, "left_out": 0}
    rep = summarize(iter_parsed_faces(path, all_layouts, counts), top=top)
    rep.update(counts)
    return rep


@click.command("coverage")
@click.option("--db", "db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help=f"Database file (default: ${DB_ENV}, else the platform data dir).")
@click.option("--jsonl", "jsonl", default=None,
              help="Parse and summarise a JSON Lines text corpus instead of a database ('-' = stdin): "
                   "records {name, oracle_text, type_line?} or the oracle-2026 shape (with faces).")
@click.option("--all-layouts", is_flag=True,
              help="With --jsonl: also count planes, schemes, vanguards and Alchemy A- cards.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--top", default=30, show_default=True, help="How many shapes to list.")
def coverage_command(db: Path | None, jsonl: str | None, all_layouts: bool, as_json: bool, top: int) -> None:
    """Round-trip coverage: faces and ability lines whose AST renders back to their text
    (overall, per kind, mana lines, copy effects) and the most frequent shapes that do not."""
    if jsonl is not None:
        try:
            rep = coverage_jsonl(jsonl, top=top, all_layouts=all_layouts)
        except (BadRecord, OSError) as e:
            raise click.ClickException(str(e)) from None
        click.echo(json.dumps(rep, indent=2, ensure_ascii=False) if as_json else
                   f"records: {rep['records']} (left out: {rep['left_out']})\n" + format_report(rep))
        return
    import duckdb

    path = db if db is not None else default_db_path()
    if not path.exists():
        raise click.ClickException(f"no database at {path}; build one with `mtg-pipeline refresh`")
    from pipeline.store.runs import connect_retrying  # the one read path: waits out a refresh's run append

    con = connect_retrying(path, read_only=True)
    try:
        rep = coverage_report(con, top=top)
    except duckdb.Error as e:
        raise click.ClickException(f"{path}: {e}") from None
    finally:
        con.close()
    click.echo(json.dumps(rep, indent=2, ensure_ascii=False) if as_json else format_report(rep))
