"""Where things live: the grammar files, bundled data, default database path, caches.

The grammar (``grammar/*.lark``) and the bundled data (``data/``) are top-level folders of the
source tree; setup.py installs them as the resource packages ``pipeline.grammar`` and
``pipeline.data``, found with :mod:`importlib.resources` when the code runs from an installed
wheel (see :func:`resource_dir`). They must be real files (not inside a zip archive).

The default database path is ``$MTG_PIPELINE_DB`` when set, else
``<platformdirs user_data_dir>/mtg-pipeline/cards.duckdb``; ``--db`` overrides both.
Downloads go to ``$MTG_PIPELINE_CACHE`` or ``<user_cache_dir>/mtg-pipeline``; the built grammar
(parser tables, see :mod:`pipeline.parse.grammar`) to ``$MTG_PIPELINE_GRAMMAR_CACHE`` or the
``grammar`` subdirectory of the download cache dir.
"""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path

import platformdirs


#: The folder holding the ``pipeline`` package; in a source tree (a checkout, or the copy
#: benchmarks/run.py measures) it also holds ``grammar/`` and ``data/``.
_TREE = Path(__file__).resolve().parent.parent


def resource_dir(package: str) -> Path:
    """The directory of resource package ``package`` (``"pipeline.grammar"``) as a file-system path.

    In a source tree (``grammar/`` and ``data/`` beside ``pipeline/``, each with its
    ``__init__.py``) that folder, so a copy of the tree reads its own grammar; otherwise (an
    installed wheel) the installed package, found with :func:`importlib.resources.files`.
    Raises RuntimeError when the package is not a directory on disk (e.g. imported from a zip).
    """
    name = package.rpartition(".")[2]
    if all((_TREE / d / "__init__.py").is_file() for d in ("grammar", "data")):
        return _TREE / name
    path = Path(str(files(package)))
    if not path.is_dir():
        raise RuntimeError(f"{package}: resource folder {path} is not a directory on disk; "
                           f"install mtg-pipeline unzipped (pip install)")
    return path


GRAMMAR_DIR = resource_dir("pipeline.grammar")
DATA_DIR = resource_dir("pipeline.data")
BUNDLED_CARDS = DATA_DIR / "AllPrintings-subset.json.gz"
BUNDLED_RULES = DATA_DIR / "MagicCompRules-20260227.txt.gz"

DB_ENV = "MTG_PIPELINE_DB"
CACHE_ENV = "MTG_PIPELINE_CACHE"
GRAMMAR_CACHE_ENV = "MTG_PIPELINE_GRAMMAR_CACHE"


def default_db_path() -> Path:
    """Return the database path used when ``--db`` is not given (see module docstring)."""
    env = os.environ.get(DB_ENV)
    if env:
        return Path(env)
    return Path(platformdirs.user_data_dir("mtg-pipeline")) / "cards.duckdb"


def default_cache_dir() -> Path:
    """Return the download cache directory (``$MTG_PIPELINE_CACHE`` or the platform cache dir)."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    return Path(platformdirs.user_cache_dir("mtg-pipeline"))


def grammar_cache_dir() -> Path:
    """Return the directory of the cached grammar parser (``$MTG_PIPELINE_GRAMMAR_CACHE``, else
    ``default_cache_dir() / "grammar"``)."""
    env = os.environ.get(GRAMMAR_CACHE_ENV)
    if env:
        return Path(env)
    return default_cache_dir() / "grammar"


def pid_alive(pid: int) -> bool:
    """True when process ``pid`` exists (leftover files named after a dead process's pid may be removed)."""
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    return True
