"""Where things live: the project root, bundled data, grammar files, default database path.

The default database path is ``$MTG_PIPELINE_DB`` when set, else
``<platformdirs user_data_dir>/mtg-pipeline/cards.duckdb``; ``--db`` overrides both.
Downloads go to ``$MTG_PIPELINE_CACHE`` or ``<user_cache_dir>/mtg-pipeline``; the built grammar
(parser tables, see :mod:`pipeline.parse.grammar`) to ``$MTG_PIPELINE_GRAMMAR_CACHE`` or the
``grammar`` subdirectory of the download cache dir.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

PROJECT_ROOT = Path(__file__).resolve().parent.parent
GRAMMAR_DIR = PROJECT_ROOT / "grammar"
DATA_DIR = PROJECT_ROOT / "data"
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
