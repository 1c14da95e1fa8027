"""The card rules page (text, Markdown, HTML) on real cards, and the HTML rendered in
headless Chromium: DOM dump, screenshot and OCR of the screenshot.

Chromium and Tesseract are required (CI installs the Debian packages ``chromium`` and
``tesseract-ocr``): when either is missing these tests fail, they never skip.
"""

from __future__ import annotations

import html
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from pipeline.annotate import annotate
from pipeline.serve.card_page import render_card_page
from pipeline.sources.comprehensive_rules import load_comprehensive_rules
from tests.test_annotate_fixtures import CR_FILE, build_card_db

pytestmark = pytest.mark.corpus

CARDS = {"Altered Ego", "Llanowar Elves", "Rules Lawyer", "Bonecrusher Giant // Stomp", "Marauder's Axe",
         "Metamorphic Alteration", "Clone"}
SEEDS = Path(__file__).parents[1].parent / "shared" / "seeds"
SEED_PAGES = {"Altered Ego": "000_65a2b964f83de9fd.txt", "Metamorphic Alteration": "003_3e90dfde10d18eac.txt"}


@pytest.fixture(scope="module")
def con():
    con, _ = build_card_db(CARDS)
    annotate(con, CR_FILE.read_text(encoding="utf-8-sig"))
    yield con
    con.close()


def test_text_page_llanowar_elves(con):
    page = render_card_page(con, "Llanowar Elves", "text")
    lines = page.splitlines()
    assert lines[0] == "Llanowar Elves"
    assert "{G}  Creature — Elf Druid" in lines
    assert "{T}: Add {G}." in lines
    assert "302.6  (in 302 Creatures)" in lines
    i = lines.index("302.6  (in 302 Creatures)")
    assert lines[i + 1].startswith("    A creature’s activated ability with the tap symbol or the untap symbol")
    assert "    - inferred: tap_cost_creature: a creature's activated ability with {T} in its cost (summoning sickness)" in lines
    assert "1. [activated, mana ability] {T}: Add {G}." in lines  # abilities numbered per face
    # Rules are in CR order: the inferred ones and those its rulings apply.
    numbers = [ln.split()[0] for ln in lines if re.fullmatch(r"\d{3}(\.\d+[a-z]?)?(  .*)?", ln)]
    assert numbers == sorted(numbers, key=lambda n: [int(x) if x.isdigit() else x for x in re.split(r"[.]|(?<=\d)(?=[a-z])", n)])
    assert {"106", "107.5", "302.6", "605"} <= set(numbers)
    assert lines[lines.index("106  Mana") - 1] == "-" * len("Rules that govern it (Comprehensive Rules 2026-02-27)")


def test_text_page_rulings_with_citations(con):
    page = render_card_page(con, "rules lawyer", "text")
    assert page.startswith("Rules Lawyer\n")
    assert "2018-01-19  You don’t lose the game if you’re at or below 0 life. (704.5a)" in page
    assert "    cites 704.5a: If a player has 0 or less life, that player loses the game." in page
    # a citation whose number now names another rule is flagged, and its wrong text is not shown
    assert "    cites 704.5u: renumbered? — the ruling predates the loaded CR, whose 704.5u says something else:" in page
    (line,) = [ln for ln in page.splitlines() if ln.startswith("    cites 704.5u:")]
    assert "space sculptor" not in line and "now probably 704.6c" in line


def test_face_name_finds_the_card(con):
    page = render_card_page(con, "Stomp", "text")
    assert page.startswith("Bonecrusher Giant // Stomp\n")
    assert "[Stomp]" in page and "715  Adventurer Cards" in page
    # abilities numbered per face, with the face's name on a card of two faces
    assert "Bonecrusher Giant 1. [triggered] Whenever Bonecrusher Giant becomes the target of a spell" in page
    assert "Stomp 1. [spell] Damage can't be prevented this turn." in page


def test_unknown_card_is_a_lookup_error_naming_it(con):
    with pytest.raises(LookupError, match="no card named 'Not A Real Card'"):
        render_card_page(con, "Not A Real Card", "text")
    with pytest.raises(ValueError, match="unknown format 'pdf'"):
        render_card_page(con, "Llanowar Elves", "pdf")


def test_markdown_page(con):
    md = render_card_page(con, "Altered Ego", "md")
    assert md.startswith("# Altered Ego\n")
    assert "- **107.3m**" in md
    assert "## Rulings" in md
    assert "> You may have Altered Ego enter the battlefield as a copy of any creature on the battlefield" in md
    # Markdown-special characters in card text are escaped ("+1/+1" has none; "[+1]" would).
    assert "\\[" not in md or "\\]" in md


def test_html_is_escaped_and_standalone(con):
    page = render_card_page(con, "Marauder's Axe", "html")
    assert page.startswith("<!DOCTYPE html>")
    assert "<title>Marauder&#x27;s Axe — card rules</title>" in page
    assert "Marauder's Axe" not in page  # every apostrophe escaped
    assert "<script" not in page and "http" not in page
    assert page.count("<html") == 1 and page.rstrip().endswith("</html>")


def _png_size_and_colors(path: Path) -> tuple[int, int, int]:
    """Width, height and number of distinct byte values in the decoded image data (PNG parsed by hand)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    idat, pos = b"", 8
    while pos < len(data):
        length = struct.unpack(">I", data[pos:pos + 4])[0]
        kind = data[pos + 4:pos + 8]
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    return width, height, len(set(zlib.decompress(idat)))


def _chromium() -> str:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    assert exe, "chromium is not installed: apt-get install -y chromium (required, not optional)"
    return exe


def test_html_renders_in_headless_chromium(con, tmp_path):
    exe = _chromium()
    page = tmp_path / "altered-ego.html"
    page.write_text(render_card_page(con, "Altered Ego", "html"), encoding="utf-8")
    flags = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             f"--user-data-dir={tmp_path / 'profile'}"]
    dom = subprocess.run(flags + ["--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120).stdout
    assert "<h1>Altered Ego</h1>" in dom
    assert '<span class="num">107.3m</span>' in dom
    for name in ("Altered Ego", "Metamorphic Alteration", "Clone"):
        check_rules_page(con, name, exe, flags, tmp_path)
    shot = tmp_path / "altered-ego.png"
    subprocess.run(flags + ["--window-size=1100,1600", f"--screenshot={shot}", page.as_uri()],
                   capture_output=True, timeout=120)
    assert shot.exists()
    width, height, colors = _png_size_and_colors(shot)
    assert (width, height) == (1100, 1600)
    assert colors > 50  # text was drawn: not a blank page

    tesseract = shutil.which("tesseract")
    assert tesseract, "tesseract is not installed: apt-get install -y tesseract-ocr (required, not optional)"
    text = subprocess.run([tesseract, str(shot), "stdout"], capture_output=True, text=True, timeout=120).stdout
    assert "Altered Ego" in text
    assert "107.3m" in text or "107.3" in text


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", text.lower().replace("’", "'")) if len(w) > 3}


def _rulings_in_dom(dom: str) -> dict[str, list[str]]:
    """Each ruling's text on the rendered page → the rule numbers shown beside it."""
    out = {}
    for block in re.findall(r'<div class="ruling">(.*?)</div>', dom, flags=re.S):
        text = re.sub(r"<[^>]+>.*?</[^>]+>", "", block.split('<a class="applies"')[0]).strip()
        out[html.unescape(text)] = re.findall(r'<a class="applies"[^>]*>([^<]+)</a>', block)
    return out


def check_rules_page(con, name, exe, flags, tmp_path):
    """The rendered page shows every ruling with the rules it applies; against its seed page
    (../shared/seeds/, newer wording) it holds every seed ruling the corpus has, matched by
    meaning (shared words), and the seed's rules that apply to the card, with their text."""
    page = tmp_path / f"{name}.html"
    page.write_text(render_card_page(con, name, "html"), encoding="utf-8")
    dom = subprocess.run(flags + ["--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120).stdout
    shown = _rulings_in_dom(dom)
    corpus = [c for (c,) in con.execute(
        "SELECT comment FROM rulings JOIN cards USING (oracle_id) WHERE name = ? ORDER BY published_at, rulings.rowid",
        [name]).fetchall()]
    assert [next(t for t in shown if c in t) for c in corpus] == list(shown)  # every ruling, in source order
    applied = {c: shown[next(t for t in shown if c in t)] for c in corpus}
    # per-ruling rules that a reader of these pages needs (CR 707 copy effects, 107.3 X)
    want = {"Altered Ego": {"copies exactly what was printed": "707.2", "has {X} in its mana cost": "107.3m",
                            "If the chosen creature is copying something else": "707.3",
                            "double-faced creature": "707.8"},
            "Metamorphic Alteration": {"copies exactly what is printed": "707.2",
                                       "If the chosen creature is copying something else": "707.3"},
            "Clone": {"doesn't target": "115.10", "X is considered to be zero": "107.3g",
                      "copies exactly what was printed": "707.2"}}[name]
    for phrase, rule in want.items():
        (ruling,) = [c for c in corpus if phrase in c]
        assert rule in applied[ruling], (name, ruling, applied[ruling])
    if name not in SEED_PAGES:
        return
    cr = {r.rule: r.text.split("\nExample:")[0] for r in load_comprehensive_rules(CR_FILE).rules}
    paragraphs = [p.strip() for p in (SEEDS / SEED_PAGES[name]).read_text(encoding="utf-8").split("\n\n")[1:] if p.strip()]
    seed_rules = {n for p in paragraphs for n, t in cr.items() if t == p}
    assert len(seed_rules) == 8  # the eight rules the seed pages show (106.5, 106.7, 106.12(a/b), 107.3m, 107.5, 107.6)
    seed_rulings = [p for p in paragraphs if p not in cr.values()]
    for seed in seed_rulings:
        best = max(corpus, key=lambda c: len(_words(c) & _words(seed)) / len(_words(c) | _words(seed)))
        overlap = len(_words(best) & _words(seed)) / len(_words(best) | _words(seed))
        if overlap >= 0.5:  # the corpus has this ruling (older wording)
            assert best in "".join(shown), (name, seed)
    governing = {r for (r,) in con.execute("SELECT rule FROM card_rules JOIN cards USING (oracle_id) WHERE name = ?",
                                           [name]).fetchall()}
    expected = {"Altered Ego": {"107.3m"}, "Metamorphic Alteration": set()}[name]
    assert seed_rules & governing == expected  # an X enters ability; no mana, no {T}/{Q}
    for rule in expected:
        assert f'<span class="num">{rule}</span>' in dom
        assert html.escape(cr[rule].split("\n")[0], quote=False) in dom  # with its text


def test_render_from_database_file(con, tmp_path):
    from pipeline.serve.card_page import render_card_page_from_path

    path = tmp_path / "cards.duckdb"
    con.execute(f"ATTACH '{path}' AS f")
    con.execute("COPY FROM DATABASE memory TO f")
    con.execute("DETACH f")
    assert render_card_page_from_path(path, "Llanowar Elves", "md").startswith("# Llanowar Elves\n")
    with pytest.raises(FileNotFoundError, match="no database at"):
        render_card_page_from_path(tmp_path / "missing.duckdb", "Llanowar Elves")


def test_cli_card_command(con, tmp_path):
    from click.testing import CliRunner

    from pipeline.cli import main

    path = tmp_path / "cli.duckdb"
    con.execute(f"ATTACH '{path}' AS g")
    con.execute("COPY FROM DATABASE memory TO g")
    con.execute("DETACH g")
    runner = CliRunner()
    result = runner.invoke(main, ["card", "llanowar elves", "--db", str(path), "--format", "html"])
    assert result.exit_code == 0, result.output
    assert "<h1>Llanowar Elves</h1>" in result.output and '<span class="num">302.6</span>' in result.output
    result = runner.invoke(main, ["card", "Not A Real Card", "--db", str(path)])
    assert result.exit_code == 1
    assert "error: no card named 'Not A Real Card' in the database" in result.output
