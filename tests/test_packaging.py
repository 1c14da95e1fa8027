"""The sdist and the wheel ship the grammar and the bundled data, and an installed wheel parses
like the checkout.

The build runs offline (``python -m build --no-isolation``: setuptools and build come with the
test extra). The wheel is installed without dependencies into a fresh venv whose only other
path is this venv's site-packages (a ``.pth`` line: the editable install's finder is not loaded
from there), and run from a directory outside the checkout. ``.ci/run`` also installs the wheel
with its dependencies from the registry and runs refresh, parse, query and card from it.
"""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

import pipeline
from pipeline.cli import main, version_text
from tests.conftest import ROOT

GRAMMAR = sorted(p.name for p in (ROOT / "grammar").glob("*.lark"))
DATA = sorted(p.name for p in (ROOT / "data").iterdir() if p.is_file() and p.name != "__init__.py")


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return out


def test_sdist_and_wheel_hold_every_grammar_and_data_file(dist):
    assert len(GRAMMAR) >= 13 and {"AllPrintings-subset.json.gz", "rule_features.csv"} <= set(DATA)
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")
    assert wheel.name == f"mtg_pipeline-{pipeline.__version__}-py3-none-any.whl"
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {f"pipeline/grammar/{n}" for n in GRAMMAR} | {f"pipeline/data/{n}" for n in DATA} <= names
    assert not any(n.startswith(("grammar/", "data/", "tests/")) for n in names)  # no stray top-level packages
    top = f"mtg_pipeline-{pipeline.__version__}/"
    members = set(tarfile.open(sdist).getnames())
    assert {top + f"grammar/{n}" for n in GRAMMAR} | {top + f"data/{n}" for n in DATA} | {top + "setup.py"} <= members
    # the packaged bytes are the checkout's (the top-level folders are the source of truth)
    with zipfile.ZipFile(wheel) as zf:
        assert zf.read("pipeline/grammar/common.lark") == (ROOT / "grammar" / "common.lark").read_bytes()
        assert zf.read("pipeline/data/rule_features.csv") == (ROOT / "data" / "rule_features.csv").read_bytes()


def test_installed_wheel_run_elsewhere_parses_like_the_checkout(dist, tmp_path):
    (wheel,) = dist.glob("*.whl")
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)  # this venv's pip installs into it (--python)
    py = env_dir / "bin" / "python"
    site = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")  # dependencies, not the checkout
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps",
                           "--no-index", str(wheel)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    def run(*args: str) -> str:
        done = subprocess.run([str(env_dir / "bin" / "mtg-pipeline"), *args], cwd=elsewhere,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout

    where = subprocess.run([str(py), "-c", "import pipeline.paths as p; print(p.__file__); print(p.GRAMMAR_DIR)"],
                           cwd=elsewhere, capture_output=True, text=True, check=True).stdout.split()
    assert where == [str(site / "pipeline" / "paths.py"), str(site / "pipeline" / "grammar")]
    assert run("--version").strip() == version_text()
    text = "{T}: Add {G}.\nFlying"
    installed = json.loads(run("parse", text, "--name", "Llanowar Elves"))
    here = CliRunner().invoke(main, ["parse", text, "--name", "Llanowar Elves"])
    assert here.exit_code == 0, here.output
    assert installed == json.loads(here.output)
    assert installed[0]["body"]["node"] == "Activated"
