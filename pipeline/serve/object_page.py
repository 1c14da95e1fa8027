"""The page of an object that is not a card (``other_objects``: tokens CR 111, emblems CR 114,
planes, schemes, vanguards, art cards): its name, layout, type line, text and rulings."""

from __future__ import annotations

import html

import duckdb

from pipeline.serve.names import NameMatch


def render_object_page(con: duckdb.DuckDBPyConnection, match: NameMatch, fmt: str) -> str:
    """Render ``match`` (an 'other' :class:`NameMatch`) as ``fmt``: 'text', 'md' or 'html'."""
    type_line, text = con.execute(
        "SELECT type_line, oracle_text FROM other_objects WHERE name = ? AND layout = ? "
        "AND oracle_id IS NOT DISTINCT FROM ? LIMIT 1", [match.name, match.layout, match.oracle_id]).fetchone()
    rulings = con.execute("SELECT published_at, comment FROM rulings WHERE oracle_id = ? ORDER BY published_at, comment",
                          [match.oracle_id]).fetchall() if match.oracle_id else []
    what = f"Not a card: a {match.layout} (other_objects)"
    lines = [line for line in (text or "").split("\n") if line]
    if fmt == "html":
        esc = html.escape
        parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
                 f"<title>{esc(match.name)}</title></head><body>", f"<h1>{esc(match.name)}</h1>",
                 f"<p><em>{esc(what)}</em></p>", f"<p><strong>{esc(type_line or '')}</strong></p>"]
        parts += [f"<p>{esc(line)}</p>" for line in lines]
        if rulings:
            parts.append("<h2>Rulings</h2>")
            parts += [f"<p>{esc(str(d))} {esc(c)}</p>" for d, c in rulings]
        return "\n".join(parts + ["</body></html>"]) + "\n"
    if fmt == "md":
        out = [f"# {match.name}", "", f"*{what}*", "", f"**{type_line or ''}**", ""]
        out += [f"> {line}  " for line in lines]
        if rulings:
            out += ["", "## Rulings", ""] + [f"- **{d}** {c}" for d, c in rulings]
        return "\n".join(out).rstrip() + "\n"
    out = [match.name, "=" * len(match.name), what, type_line or ""] + lines
    if rulings:
        out += ["", "Rulings", "-------"] + [f"{d}  {c}" for d, c in rulings]
    return "\n".join(out).rstrip() + "\n"
