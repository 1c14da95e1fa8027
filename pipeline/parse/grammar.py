"""Load the oracle grammar (``grammar/*.lark``) and build the LALR parser, cached on disk.

The grammar files are concatenated in :data:`GRAMMAR_FILES` order (one file per concern).
The parser is LALR(1) with the word-level contextual lexer of :mod:`pipeline.parse.lexer`;
it has one start symbol per segment kind (:data:`STARTS`).

Building the LALR tables of this ~1,300-line grammar costs seconds of CPU (3–8 s on the
benchmark machine), paid by every process that parses. :func:`get_parser` therefore keeps the
built parser in a file and loads it in later processes (≈ 0.6 s) with **Lark's own cache**
(``Lark(..., cache=<path>)``), which works for LALR with a custom lexer class: Lark pickles the
parse tables, rules and terminals (``Lark.save``), stores the lexer *class* by reference only and
rebuilds the lexer from the loaded terminals on load, so :class:`~pipeline.parse.lexer.WordLexer`
itself is never frozen into the file. Details:

* **Where**: ``$MTG_PIPELINE_GRAMMAR_CACHE`` if set, else ``<download cache dir>/grammar`` (the
  download cache dir is ``$MTG_PIPELINE_CACHE`` or the platformdirs user cache dir), see
  :func:`pipeline.paths.grammar_cache_dir`; ``mtg-pipeline paths`` prints it.
* **Key**: the file name holds the grammar version (sha256 of the grammar text, like
  :func:`grammar_version`), the Lark version and the Python minor version
  (``oracle-1.<sha10>-lark1.3.1-py3.11.pickle``), so a grammar edit or a Lark/Python upgrade never
  reads a stale table. Lark checks a second key itself: the file's first line is the sha256 of the
  grammar text + the options + Lark's version; a mismatch is rebuilt. (The lexer module's source is
  not in either key, and need not be: it is not in the file.)
* **Faults**: Lark treats an unreadable or corrupt cache file (any exception while loading) as a
  miss: it builds the parser and rewrites the file. A directory that cannot be created or written
  falls back to a build in memory; both are reported only by a ``logging`` debug record
  (logger ``pipeline.parse.grammar``). Builds and loads run under a file lock per cache file
  (``<file>.lock``, ``filelock``) because Lark writes the file in place: without it a process starting
  while another writes could read half a file (which would only cost a rebuild, but two writers
  could also interleave). One lock per file, not per directory: a process loading the current
  grammar never waits for another building a different one (an edited checkout sharing the cache).
* **Pruning**: after writing a new file, all but the :data:`KEEP_CACHE_FILES` most recently written
  ``oracle-*.pickle`` files are deleted (each is ≈ 3 MB; grammar work makes a new one per edit).
"""

from __future__ import annotations

import hashlib
import logging
import sys
import time
from functools import lru_cache
from pathlib import Path

import filelock
import lark
from lark import Lark

from pipeline.paths import GRAMMAR_DIR, grammar_cache_dir
from pipeline.parse.lexer import WordLexer

GRAMMAR_FILES = ("common.lark", "types.lark", "mana.lark", "costs.lark", "objects.lark",
                 "keywords_cr.lark", "keywords.lark", "triggers.lark", "effects.lark", "zones.lark", "digital.lark", "tokens.lark", "counters.lark", "conditions.lark", "copy.lark", "statics.lark",
                 "replacement.lark", "abilities.lark")
STARTS = ("start_cost", "start_keywords", "start_trigger", "start_sentence", "start_loyalty", "start_altcost", "start_lead", "start_spend")
GRAMMAR_MAJOR = "1"

#: How many grammar cache files (``oracle-*.pickle``) to keep in the cache dir after a new one is written.
KEEP_CACHE_FILES = 8
#: Seconds to wait for another process's build under the cache lock before building in memory.
LOCK_TIMEOUT_S = 300.0

log = logging.getLogger(__name__)


def grammar_text() -> str:
    """Return the concatenated grammar text. Raises FileNotFoundError naming a missing file."""
    parts = []
    for name in GRAMMAR_FILES:
        path = GRAMMAR_DIR / name
        parts.append(f"// ---- {name}\n" + path.read_text(encoding="utf-8"))
    return "\n".join(parts)


def version_of(text: str) -> str:
    """``"<major>.<sha256 of text, 10 hex>"`` for a grammar text (see :func:`grammar_version`)."""
    return GRAMMAR_MAJOR + "." + hashlib.sha256(text.encode()).hexdigest()[:10]


def grammar_version() -> str:
    """``"<major>.<sha256 of the grammar text, 10 hex>"`` — changes whenever the grammar does."""
    return version_of(grammar_text())


@lru_cache(maxsize=1)
def parse_version() -> str:
    """``"<major>.<sha256, 10 hex>"`` of the grammar text *and* the source of the modules that
    turn parse trees into ASTs and render them (``pipeline/parse/*.py``): an AST and its
    ``fully_parsed`` (a round trip through the renderer, docs/ast.md § Rendering) change when
    any of them does, so parse caches are keyed by this version (``Ability.grammar_version``,
    ``GRAMMAR_VERSION``). The Lark table cache stays keyed by :func:`grammar_version`."""
    here = Path(__file__).parent
    code = "".join(p.read_text(encoding="utf-8") for p in sorted(here.glob("*.py")))
    return version_of(grammar_text() + "\n// ---- code\n" + code)


def cache_file_name(text: str) -> str:
    """File name of the cached parser for grammar ``text`` under this Lark and Python version:
    ``oracle-<grammar version>-lark<version>-py<major>.<minor>.pickle``."""
    return f"oracle-{version_of(text)}-lark{lark.__version__}-py{sys.version_info[0]}.{sys.version_info[1]}.pickle"


def grammar_cache_path(text: str | None = None) -> Path:
    """Path of the cached parser for grammar ``text`` (default: the current grammar) in
    :func:`pipeline.paths.grammar_cache_dir` (read from the environment at each call)."""
    return grammar_cache_dir() / cache_file_name(grammar_text() if text is None else text)


def _lark(text: str, cache: str | bool) -> Lark:
    # keep_all_tokens: the literal words of the matched alternative reach the transformer, which
    # filters them out of the callbacks' children and keeps them as the alternative's ``form``
    # (pipeline.parse.transform.ToAst._call_userfunc) — without it "into your hand" and "into your
    # graveyard" would give one tree.
    return Lark(text, parser="lalr", lexer=WordLexer, start=list(STARTS), keep_all_tokens=True,
                propagate_positions=True, maybe_placeholders=False, cache=cache)


def _prune(directory: Path, keep: Path) -> None:
    """Delete all but the KEEP_CACHE_FILES newest ``oracle-*.pickle`` files (never ``keep``)."""
    try:
        files = sorted(directory.glob("oracle-*.pickle"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in files[KEEP_CACHE_FILES:]:
            if old != keep:
                old.unlink(missing_ok=True)
                _lock_path(old).unlink(missing_ok=True)
                log.debug("grammar cache: removed old %s", old)
    except OSError as exc:  # another process pruning at once, or a read-only dir: harmless
        log.debug("grammar cache: pruning %s failed: %s", directory, exc)


def _lock_path(cache_path: Path) -> Path:
    """The lock of one cache file (``<file>.lock``): a build of another grammar (another checkout, an
    edit in progress) never makes this one wait."""
    return cache_path.with_name(cache_path.name + ".lock")


def _mtime(path: Path) -> int | None:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return None


def build_parser(text: str, cache_path: Path | None) -> Lark:
    """Return the LALR parser for grammar ``text``, loaded from ``cache_path`` when that file holds
    it, else built (and written there). ``cache_path`` None: build in memory, write nothing.

    Never raises for cache trouble (corrupt file → rebuilt; unwritable dir → built in memory, a
    debug log record says so). Raises lark's GrammarError etc. for a bad grammar, as a plain build does.
    ``parser.source_path == "<deserialized>"`` tells that it came from the file (Lark sets it)."""
    if cache_path is None:
        return _lark(text, False)
    t0 = time.perf_counter()
    before = _mtime(cache_path)
    try:
        cache_path.parent.mkdir(parents=True, exist_ok=True)
        with filelock.FileLock(str(_lock_path(cache_path)), timeout=LOCK_TIMEOUT_S):
            before = _mtime(cache_path)
            parser = _lark(text, str(cache_path))
    except (OSError, filelock.Timeout) as exc:  # no dir / no lock: Lark's cache alone is still safe to read
        log.debug("grammar cache: %s not usable (%s); building in memory", cache_path.parent, exc)
        parser = _lark(text, str(cache_path) if before is not None else False)
    took = time.perf_counter() - t0
    after = _mtime(cache_path)
    if parser.source_path == "<deserialized>":
        log.debug("grammar cache: loaded %s in %.2f s", cache_path, took)
    elif after is not None and after != before:
        log.debug("grammar cache: built in %.2f s and wrote %s%s", took, cache_path,
                  " (the old file was unusable)" if before is not None else "")
        _prune(cache_path.parent, cache_path)
    else:
        log.debug("grammar cache: built in %.2f s in memory; %s could not be written", took, cache_path)
    return parser


@lru_cache(maxsize=1)
def get_parser() -> Lark:
    """Return the LALR parser (one per process), loaded from the on-disk grammar cache when it
    holds the current grammar, else built and cached (see the module docstring)."""
    text = grammar_text()
    return build_parser(text, grammar_cache_dir() / cache_file_name(text))
