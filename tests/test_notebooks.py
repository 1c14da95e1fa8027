"""Every notebook in notebooks/ runs top to bottom (nbclient, kernel python3 of this interpreter)
against the bundled database and draws its figures; notebooks are committed without outputs."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from tests.conftest import bundled_database, changelog_database

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"

#: notebook → number of figures (PNG outputs) it draws
EXPECTED_FIGURES = {"mana_landscape": 4, "costs": 3, "copy_effects_and_rulings": 5, "changes": 1}
#: notebook → the database its test opens (the changelog notebook needs a build that replaced another)
DATABASE = {"changes": changelog_database}


def read(name: str) -> nbformat.NotebookNode:
    return nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)


def run(nb: nbformat.NotebookNode) -> None:
    # kernel "python3": jupyter_client starts it with this interpreter (sys.executable), so the
    # kernel sees the same venv; raises CellExecutionError naming the cell on any error
    NotebookClient(nb, kernel_name="python3", timeout=900,
                   resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()


def test_the_notebooks_are_there_and_committed_without_outputs():
    assert {p.stem for p in NOTEBOOKS.glob("*.ipynb")} == set(EXPECTED_FIGURES)
    for name in EXPECTED_FIGURES:
        nb = read(name)
        nbformat.validate(nb)
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert code and all(c.outputs == [] and c.execution_count is None for c in code), \
            f"{name}.ipynb has outputs: strip them before committing"
        prose = [c for c in nb.cells if c.cell_type == "markdown"]
        assert len(prose) >= 3 and "MTG_PIPELINE_DB" in prose[0].source


@pytest.mark.parametrize("name", sorted(EXPECTED_FIGURES))
def test_notebook_runs_and_draws_its_figures(name, monkeypatch):
    db = DATABASE.get(name, bundled_database)()
    monkeypatch.setenv("MTG_PIPELINE_DB", str(db))
    nb = read(name)
    run(nb)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    figures = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(figures) == EXPECTED_FIGURES[name]
    # the first cell says which database it opened
    first = "".join(o.get("text", "") for o in nb.cells[1].outputs)
    assert first.startswith(f"{db}: mtgjson 5.2.0+20220425")


def test_without_the_env_var_the_setup_cell_builds_the_bundled_snapshot(monkeypatch):
    monkeypatch.delenv("MTG_PIPELINE_DB", raising=False)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    nb = read("mana_landscape")
    nb.cells = nb.cells[:2]  # the introduction and the setup cell
    run(nb)
    text = "".join(o.get("text", "") for o in nb.cells[1].outputs)
    db = Path(text.split(": mtgjson ")[0])
    try:
        assert db.parent.name.startswith("mtg-notebook-") and db.is_file()
        assert ": mtgjson 5.2.0+20220425+sha256:" in text and ", grammar " in text
    finally:
        if db.parent.name.startswith("mtg-notebook-"):
            shutil.rmtree(db.parent, ignore_errors=True)
