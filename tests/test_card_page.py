"""The card rules page (text, Markdown, HTML) on real cards, and the HTML rendered in
headless Chromium: DOM dump, screenshot and OCR of the screenshot.

Chromium and Tesseract are required (CI installs the Debian packages ``chromium`` and
``tesseract-ocr``): when either is missing these tests fail, they never skip.
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from pipeline.annotate import annotate
from pipeline.serve.card_page import render_card_page
from tests.test_annotate_fixtures import CR_FILE, build_card_db

pytestmark = pytest.mark.corpus

CARDS = {"Altered Ego", "Llanowar Elves", "Rules Lawyer", "Bonecrusher Giant // Stomp", "Marauder's Axe"}


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
    # Rules are in CR order.
    numbers = [ln for ln in lines if re.fullmatch(r"\d{3}(\.\d+[a-z]?)?(  .*)?", ln)]
    assert [n.split()[0] for n in numbers] == ["106", "107.5", "302.6", "605"]
    assert lines[lines.index("106  Mana") - 1] == "-" * len("Rules that govern it (Comprehensive Rules 2026-02-27)")


def test_text_page_rulings_with_citations(con):
    page = render_card_page(con, "rules lawyer", "text")
    assert page.startswith("Rules Lawyer\n")
    assert "2018-01-19  You don’t lose the game if you’re at or below 0 life. (704.5a)" in page
    assert "    cites 704.5a: If a player has 0 or less life, that player loses the game." in page


def test_face_name_finds_the_card(con):
    page = render_card_page(con, "Stomp", "text")
    assert page.startswith("Bonecrusher Giant // Stomp\n")
    assert "[Stomp]" in page and "715  Adventurer Cards" in page


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
