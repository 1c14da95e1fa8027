"""The card rules page: one card, its abilities, the rules that govern it and its rulings.

:func:`render_card_page` reads an annotated database (``cards``, ``faces``, ``abilities``,
``rulings`` and the annotation tables of :mod:`pipeline.annotate`) and returns the page as
terminal text, Markdown or one standalone HTML document (inline CSS, no scripts, every
database value escaped with :func:`html.escape`).
"""

from __future__ import annotations

import html
import sys
from dataclasses import dataclass, field
from pathlib import Path

import click
import duckdb

from pipeline.paths import DB_ENV, default_db_path
from pipeline.serve.names import find_name
from pipeline.serve.object_page import render_object_page
from pipeline.serve.terminal import safe_text
from pipeline.store.runs import DatabaseBusy
from pipeline.store.versions import DatabaseUnusable, check_schema

FORMATS = ("text", "md", "html")


@dataclass
class RuleEntry:
    """A rule governing the card: number, title/text from ``rules`` (None when the number is not
    in the loaded CR), and every (how, reason) that brought it in."""

    rule: str
    title: str | None
    text: str | None
    reasons: list[tuple[str, str]] = field(default_factory=list)
    context: str | None = None  # "302 Creatures": the enclosing rule of a subrule, for orientation


@dataclass
class Citation:
    """A CR number the ruling cites: ``text`` is the rule's text only when the citation checked out
    (``status`` 'resolved'); for 'renumbered?' or 'missing' the page shows the flag and ``evidence``
    instead of a rule that may not be the one the ruling meant (docs/annotate.md)."""

    rule: str
    status: str
    text: str | None
    evidence: str


@dataclass
class RulingEntry:
    """A ruling in source order with the rules it applies (``ruling_rules``: rule, how), its
    citations and its linked ability (ability label, method)."""

    published_at: str
    comment: str
    citations: list[Citation]
    ability: tuple[str, str] | None  # (ability label "2" / "Stomp 1", method)
    rules: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class CardPage:
    """Everything a card page shows (format-independent)."""

    name: str
    oracle_id: str
    layout: str | None
    faces: list[dict]
    abilities: list[dict]
    rules: list[RuleEntry]
    rulings: list[RulingEntry]
    cr_date: str | None
    annotated: bool
    produced_mana: list[str] = field(default_factory=list)


def _tables(con: duckdb.DuckDBPyConnection) -> set[str]:
    return {r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()}


def _dicts(con, sql: str, params: list) -> list[dict]:
    cur = con.execute(sql, params)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, row)) for row in cur.fetchall()]


def _columns(con: duckdb.DuckDBPyConnection, table: str) -> set[str]:
    return {r[0] for r in con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = ?", [table]).fetchall()}


def _number_abilities(abilities: list[dict], faces: list[dict]) -> None:
    """Give each ability its number on its face, 1-based ("2"), with the face name on a card of
    several faces ("Stomp 1"); reminder-only lines ("//") get no number."""
    names = {f["face_index"]: f["name"] for f in faces}
    count: dict[int, int] = {}
    for a in abilities:
        if (a["text"] or "").strip() in ("", "//"):
            a["label"] = ""
            continue
        count[a["face_index"]] = count.get(a["face_index"], 0) + 1
        n = count[a["face_index"]]
        a["label"] = f"{names.get(a['face_index'], '')} {n}" if len(faces) > 1 else str(n)


def _rule_body(text: str | None) -> list[str]:
    """A rule's text without its examples, one entry per paragraph."""
    return [p for p in (text or "").split("\nExample:")[0].split("\n") if p.strip()]


def _rule_sort_key(rule: str) -> tuple:
    head, _, rest = rule.partition(".")
    num = "".join(ch for ch in rest if ch.isdigit())
    letter = "".join(ch for ch in rest if ch.isalpha())
    return (int(head) if head.isdigit() else 0, int(num) if num else -1, letter)


def load_card_page(con: duckdb.DuckDBPyConnection, name: str) -> CardPage:
    """Collect a card's page data. ``name``: the card's full name, one face's name or a printed name in
    any language (``card_names``), in any case, accents optional (:func:`pipeline.serve.names.find_name`).

    Raises LookupError naming the card when no card matches.
    """
    match = find_name(con, name, kinds=("card",))  # LookupError with the closest names (pipeline/serve/names.py)
    oracle_id, full_name, layout = match.oracle_id, match.name, match.layout
    faces = _dicts(con, "SELECT face_index, name, mana_cost, type_line, oracle_text FROM faces "
                        "WHERE oracle_id = ? ORDER BY face_index", [oracle_id])
    abilities = _dicts(con, "SELECT ability_id, face_index, ability_index, text, kind, is_mana_ability, fully_parsed "
                            "FROM abilities WHERE oracle_id = ? ORDER BY face_index, ability_index", [oracle_id])
    _number_abilities(abilities, faces)
    tables = _tables(con)
    annotated = {"rules", "card_rules", "ruling_rule_refs", "ruling_abilities"} <= tables

    rules: dict[str, RuleEntry] = {}
    cr_date = None
    if annotated:
        d = con.execute("SELECT max(effective_date) FROM rules").fetchone()[0]
        cr_date = str(d) if d is not None else None
        for rule, how, reason, title, text in con.execute(
            "SELECT cr.rule, cr.how, cr.reason, r.title, r.text FROM card_rules cr "
            "LEFT JOIN rules r USING (rule) WHERE cr.oracle_id = ? ORDER BY cr.how, cr.reason", [oracle_id]
        ).fetchall():
            entry = rules.setdefault(rule, RuleEntry(rule, title, text))
            if entry.context is None and "." in rule:
                head = rule.split(".")[0]
                row = con.execute("SELECT title FROM rules WHERE rule = ?", [head]).fetchone()
                entry.context = f"{head} {row[0]}" if row and row[0] else None
            if (how, reason) not in entry.reasons:
                entry.reasons.append((how, reason))

    rulings: list[RulingEntry] = []
    labels = {a["ability_id"]: a["label"] for a in abilities}
    has_rows = annotated and "ruling_rules" in tables
    has_status = annotated and "status" in _columns(con, "ruling_rule_refs")
    # Rulings in the order of the source file (rows are stored in that order; same-date rulings keep it).
    for r in _dicts(con, "SELECT ruling_id, published_at, comment FROM rulings WHERE oracle_id = ? "
                         "ORDER BY published_at, rowid", [oracle_id]):
        citations: list[Citation] = []
        ability = None
        applied: list[tuple[str, str]] = []
        if annotated:
            status = "x.status, x.evidence" if has_status else \
                "CASE WHEN x.resolved THEN 'resolved' ELSE 'missing' END, ''"
            citations = [Citation(rule, st, text if st == "resolved" else None, ev or "")
                         for rule, st, ev, text in con.execute(
                             f"SELECT x.rule, {status}, r.text FROM ruling_rule_refs x LEFT JOIN rules r USING (rule) "
                             "WHERE x.ruling_id = ?", [r["ruling_id"]]).fetchall()]
            link = con.execute("SELECT ability_id, method FROM ruling_abilities WHERE ruling_id = ?",
                               [r["ruling_id"]]).fetchone()
            ability = (labels.get(link[0], link[0]), link[1]) if link else None
        if has_rows:
            applied = [(rule, how) for rule, how in con.execute(
                "SELECT rule, how FROM ruling_rules WHERE ruling_id = ? ORDER BY rank", [r["ruling_id"]]).fetchall()]
        rulings.append(RulingEntry(str(r["published_at"]), r["comment"] or "", citations, ability, applied))

    ordered = sorted(rules.values(), key=lambda e: _rule_sort_key(e.rule))
    (produced,) = con.execute("SELECT produced_mana FROM cards WHERE oracle_id = ?", [oracle_id]).fetchone()
    return CardPage(full_name, oracle_id, layout, faces, abilities, ordered, rulings, cr_date, annotated,
                    list(produced or []))


def render_card_page(con: duckdb.DuckDBPyConnection, name: str, fmt: str = "text") -> str:
    """Return the rules page of card ``name`` as ``fmt``: ``"text"``, ``"md"`` or ``"html"``.

    A name that is no card's but a token's or other object's gives that object's page.

    Raises LookupError naming the card when it is not in the database, ValueError for an
    unknown format.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    match = find_name(con, name)
    if match.kind == "other":  # a token, emblem, plane, … (other_objects)
        return render_object_page(con, match, fmt)
    page = load_card_page(con, match.name)
    return {"text": _text, "md": _markdown, "html": _html}[fmt](page)


def render_card_page_from_path(db_path, name: str, fmt: str = "text") -> str:
    """Open the database file ``db_path`` read-only and return :func:`render_card_page`.

    Raises FileNotFoundError naming the path when the database does not exist, LookupError
    naming the card when it is not in the database, ValueError for an unknown format.
    """
    path = Path(db_path)
    if not path.exists():
        raise FileNotFoundError(f"no database at {path}: build one with `mtg-pipeline refresh`")
    from pipeline.serve.query import connect  # the one read path: retrying, read-only, schema checked

    con = connect(path)
    try:
        return render_card_page(con, name, fmt)
    finally:
        con.close()


def _first_line(text: str | None) -> str:
    return (text or "").split("\n")[0]


def _rules_heading(page: CardPage) -> str:
    return f"Rules that govern it (Comprehensive Rules {page.cr_date})" if page.cr_date else "Rules that govern it"


def _produced(page: CardPage) -> str:
    """The card's produced mana (cards.produced_mana, CR 106.7) as '{W}{G}', or 'none'."""
    return "".join(f"{{{m}}}" for m in page.produced_mana) or "none"


def _ability_tag(a: dict) -> str:
    return (a["kind"] or "ability") + (", mana ability" if a["is_mana_ability"] else "")


def _unparsed_note(a: dict) -> str:
    """Marks a line the grammar could not fully read (its AST keeps an Unparsed node)."""
    return "  (not fully parsed: kept as text)" if a.get("fully_parsed") is False else ""


def _citation_text(c: Citation) -> str:
    """The cited rule's text when the citation checked out, else its flag and evidence."""
    if c.status == "resolved":
        return _first_line(c.text) if c.text else "(not in the loaded Comprehensive Rules)"
    if c.status == "missing":
        return "(not in the loaded Comprehensive Rules)"
    return f"{c.status} — the ruling predates the loaded CR, whose {c.rule} says something else: {c.evidence}"


def _text(page: CardPage) -> str:
    out = [page.name, "=" * len(page.name)]
    for f in page.faces:
        if len(page.faces) > 1:
            out.append(f"[{f['name']}]")
        out.append("  ".join(x for x in (f["mana_cost"], f["type_line"]) if x))
        out.extend(f["oracle_text"].split("\n") if f["oracle_text"] else [])
        out.append("")
    out += [f"Produced mana: {_produced(page)}", ""]
    out += ["Abilities", "---------"]
    for a in page.abilities:
        if a["label"]:
            out.append(f"{a['label']}. [{_ability_tag(a)}] {a['text']}{_unparsed_note(a)}")
    out.append("")
    heading = _rules_heading(page)
    out += [heading, "-" * len(heading)]
    if not page.annotated:
        out.append("(this database has no rules annotation: build it with the Comprehensive Rules)")
    for e in page.rules:
        label = e.title or (f"(in {e.context})" if e.context else "")
        out.append(f"{e.rule}  {label}".rstrip())
        if e.text and e.text != e.title:
            out.extend(f"    {p}" for p in _rule_body(e.text))
        if e.text is None:
            out.append("    (not in the loaded Comprehensive Rules)")
        for how, reason in e.reasons:
            out.append(f"    - {how}: {reason}")
    out.append("")
    out += ["Rulings", "-------"]
    for r in page.rulings:
        out.append(f"{r.published_at}  {r.comment}")
        if r.rules:
            out.append(f"    applies: {', '.join(rule for rule, _ in r.rules)}")
        for c in r.citations:
            out.append(f"    cites {c.rule}: {_citation_text(c)}")
        if r.ability:
            out.append(f"    about: ability {r.ability[0]}  [{r.ability[1]}]")
    if not page.rulings:
        out.append("(no rulings)")
    return "\n".join(out).rstrip() + "\n"


def _md_escape(text: str) -> str:
    return "".join("\\" + ch if ch in "\\`*_[]<>|#" else ch for ch in text)


def _markdown(page: CardPage) -> str:
    e = _md_escape
    out = [f"# {e(page.name)}", ""]
    for f in page.faces:
        if len(page.faces) > 1:
            out += [f"## {e(f['name'])}", ""]
        head = " — ".join(e(x) for x in (f["mana_cost"], f["type_line"]) if x)
        out += [f"**{head}**", ""]
        for line in (f["oracle_text"] or "").split("\n"):
            if line:
                out.append(f"> {e(line)}  ")
        out.append("")
    out += [f"**Produced mana:** {e(_produced(page))}", "", "## Abilities", ""]
    for a in page.abilities:
        if a["label"]:
            out.append(f"- `{e(a['label'])}` *{e(_ability_tag(a))}*: {e(a['text'])}{e(_unparsed_note(a))}")
    out += ["", f"## {e(_rules_heading(page))}", ""]
    if not page.annotated:
        out.append("*This database has no rules annotation.*")
    for r in page.rules:
        label = r.title or (f"(in {r.context})" if r.context else "")
        title = f" — {e(label)}" if label else ""
        out.append(f"- **{r.rule}**{title}")
        if r.text and r.text != r.title:
            out.extend(f"  > {e(p)}  " for p in _rule_body(r.text))
        for how, reason in r.reasons:
            out.append(f"  - *{how}*: {e(reason)}")
    out += ["", "## Rulings", ""]
    for r in page.rulings:
        applies = f" — *applies* {', '.join(f'**{rule}**' for rule, _ in r.rules)}" if r.rules else ""
        out.append(f"- **{r.published_at}** {e(r.comment)}{applies}")
        for c in r.citations:
            out.append(f"  - cites **{c.rule}**: {e(_citation_text(c))}")
        if r.ability:
            out.append(f"  - about: ability {e(r.ability[0])} *({r.ability[1]})*")
    if not page.rulings:
        out.append("*No rulings.*")
    return "\n".join(out).rstrip() + "\n"


_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;max-width:52rem;margin:2rem auto;
padding:0 1rem;line-height:1.45;color:#1d1d1f;background:#fff}
h1{margin-bottom:.2rem}h2{border-bottom:1px solid #ccc;padding-bottom:.2rem;margin-top:2rem}
.face{border:1px solid #bbb;border-radius:.6rem;padding:.8rem 1rem;margin:.8rem 0;background:#faf8f2}
.cost{float:right;font-family:monospace}.type{font-weight:600;margin:.3rem 0}.oracle p{margin:.3rem 0}
.rule{margin:.6rem 0}.num{font-family:monospace;font-weight:700;background:#eef;padding:0 .3rem;border-radius:.2rem}
.why{color:#555;font-size:.9rem;margin:.1rem 0 0 1.2rem}.ruletext{margin:.2rem 0 0 1.2rem}
.ruling{margin:.8rem 0}.date{font-family:monospace;color:#555}.cite,.about{font-size:.9rem;margin-left:1.2rem;color:#333}
.kind{font-family:monospace;color:#555}.abilities{list-style:none;padding-left:0}.abnum{font-weight:700}
.unparsed{color:#a40;font-style:italic}.applies{font-family:monospace;font-weight:700;background:#efe;padding:0 .3rem;
border-radius:.2rem;margin-left:.2rem;color:#063;text-decoration:none}.flag{color:#fff;background:#b30;padding:0 .3rem;
border-radius:.2rem;font-weight:700}
"""


def _html(page: CardPage) -> str:
    esc = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(page.name)} — card rules</title><style>{_CSS}</style></head><body>",
        f"<h1>{esc(page.name)}</h1>",
    ]
    for f in page.faces:
        parts.append('<section class="face">')
        if f["mana_cost"]:
            parts.append(f'<span class="cost">{esc(f["mana_cost"])}</span>')
        if len(page.faces) > 1:
            parts.append(f"<h3>{esc(f['name'])}</h3>")
        parts.append(f'<div class="type">{esc(f["type_line"] or "")}</div><div class="oracle">')
        parts += [f"<p>{esc(line)}</p>" for line in (f["oracle_text"] or "").split("\n") if line]
        parts.append("</div></section>")
    parts.append(f'<p class="produced">Produced mana: {esc(_produced(page))}</p>')
    parts.append('<h2>Abilities</h2><ul class="abilities">')
    for a in page.abilities:
        if a["label"]:
            note = f' <span class="unparsed">{esc(_unparsed_note(a).strip())}</span>' if _unparsed_note(a) else ""
            parts.append(f'<li><span class="abnum">{esc(a["label"])}.</span> <span class="kind">[{esc(_ability_tag(a))}]</span> '
                         f'{esc(a["text"])}{note}</li>')
    parts.append(f"</ul><h2>{esc(_rules_heading(page))}</h2>")
    if not page.annotated:
        parts.append("<p><em>This database has no rules annotation.</em></p>")
    for r in page.rules:
        label = r.title or (f"(in {r.context})" if r.context else "")
        title = f" {esc(label)}" if label else ""
        parts.append(f'<div class="rule" id="rule-{esc(r.rule)}"><span class="num">{esc(r.rule)}</span>{title}')
        if r.text and r.text != r.title:
            parts += [f'<div class="ruletext">{esc(p)}</div>' for p in _rule_body(r.text)]
        elif r.text is None:
            parts.append('<div class="ruletext"><em>not in the loaded Comprehensive Rules</em></div>')
        for how, reason in r.reasons:
            parts.append(f'<div class="why">{esc(how)}: {esc(reason)}</div>')
        parts.append("</div>")
    parts.append("<h2>Rulings</h2>")
    for r in page.rulings:
        applies = "".join(f' <a class="applies" href="#rule-{esc(rule)}">{esc(rule)}</a>' for rule, _ in r.rules)
        parts.append(f'<div class="ruling"><span class="date">{esc(r.published_at)}</span> {esc(r.comment)}{applies}')
        for c in r.citations:
            flag = "" if c.status == "resolved" else f' <span class="flag">{esc(c.status)}</span>'
            parts.append(f'<div class="cite">cites <span class="num">{esc(c.rule)}</span>{flag} {esc(_citation_text(c))}</div>')
        if r.ability:
            parts.append(f'<div class="about">about: ability {esc(r.ability[0])} ({esc(r.ability[1])})</div>')
        parts.append("</div>")
    if not page.rulings:
        parts.append("<p><em>No rulings.</em></p>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


@click.command("card")
@click.argument("name")
@click.option("--db", "db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help=f"Database file (default: ${DB_ENV}, else the platform data dir; see `mtg-pipeline paths`).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text for a terminal, md for Markdown, html for one standalone HTML page.")
def card_command(name: str, db: Path | None, fmt: str) -> None:
    """Show one card's rules page: the card, its abilities, the Comprehensive Rules that
    govern it (cited by its rulings or inferred from its abilities) and its rulings.

    NAME is the card's full name, one face's name or its printed name in another language
    (card_names), in any case, accents optional ("Jotun Grunt"); a token or other object
    (other_objects) gets its own short page. Exit code 1 when the database or the card is
    missing (the error lists the closest names).
    """
    try:
        page = render_card_page_from_path(db if db is not None else default_db_path(), name, fmt)
    except (LookupError, FileNotFoundError, DatabaseUnusable, DatabaseBusy) as exc:
        click.echo(safe_text(f"error: {exc}").splitlines()[0], err=True)
        sys.exit(1)
    except duckdb.Error as exc:  # e.g. a database file another version cannot read
        click.echo(f"error: {db}: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}", err=True)
        sys.exit(1)
    click.echo(safe_text(page), nl=False)  # values are data, never terminal commands (pipeline/serve/terminal.py)
