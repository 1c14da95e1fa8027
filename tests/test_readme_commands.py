"""The README's two commands: the test command is the one ``.ci/run`` runs, and it installs what
the tests need (system packages, the DuckDB CLI of tests/test_storage_readers.py)."""

from __future__ import annotations

import re

from tests.conftest import ROOT
from tests.test_storage_readers import CLI, INSTALL

README = (ROOT / "README.md").read_text(encoding="utf-8")


def bash_block_after(heading_text: str) -> str:
    """The first ```bash block after the paragraph containing ``heading_text``, as one string."""
    start = README.index(heading_text)
    (block,) = re.findall(r"^```bash\n(.*?)^```", README[start:], flags=re.S | re.M)[:1]
    return block.strip()


def test_ci_runs_exactly_the_readme_test_command():
    command = bash_block_after("Run the whole test suite")
    assert "\n" not in command  # one command line
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert command in ci_lines
    # it installs the system packages and the reader the tests need, then runs the suite
    assert "apt-get install -y -qq chromium tesseract-ocr" in command
    assert INSTALL in command
    assert CLI.relative_to(ROOT).parts[0] in command  # .venv-duckdb-cli
    assert command.endswith("pip install -q -e '.[test]' && pytest -q")


def test_quick_start_builds_the_database_the_examples_use():
    command = bash_block_after("Install and build the database")
    assert "\n" not in command
    assert "mtg-pipeline refresh --source bundled --db cards.duckdb" in command


def test_notebooks_extra_installs_what_the_readme_runs():
    from importlib.metadata import requires

    assert "jupyter lab notebooks/" in README and "pip install -e '.[notebooks]'" in README
    notebooks = [r for r in requires("mtg-pipeline") if r.endswith('extra == "notebooks"')]
    assert any(r.startswith("jupyterlab") for r in notebooks), notebooks
