"""The parse step of a build: every face's Oracle text → ability rows, through the parse cache.

Parse results are cached by (sha256 of face name, type line and Oracle text; grammar_version):
a refresh parses only texts it has not seen with the current grammar (benchmarks measure this).

The distinct texts that miss the cache are parsed in ``jobs`` worker processes when there are at
least :data:`MIN_PARALLEL` of them (Lark is pure Python: one process uses one core). Each worker
is a fresh interpreter (``spawn``: nothing of the parent's DuckDB connections or threads is
inherited) that loads the cached grammar once (:func:`pipeline.parse.grammar.get_parser`) and
then parses chunks of faces; the results come back in submission order, so the rows, the cache
and every table built from them are the same as with ``jobs=1`` (tests/test_refresh_parallel.py).
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Callable, Iterable, Sequence

from pipeline.normalize.model import OracleCard

try:  # a faster encoder/decoder (same JSON text as json.dumps(..., separators=(",", ":"), ensure_ascii=False))
    import orjson

    def dumps(value) -> str:
        """Compact JSON text of ``value`` (UTF-8 kept, no spaces)."""
        return orjson.dumps(value).decode()

    loads = orjson.loads
except ImportError:  # pragma: no cover - orjson is a dependency; the fallback writes the same text
    def dumps(value) -> str:
        """Compact JSON text of ``value`` (UTF-8 kept, no spaces)."""
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    loads = json.loads

#: Fewer cache misses than this are parsed in this process: starting a worker (interpreter, imports,
#: grammar load) costs about a second, which a few hundred faces do not repay.
MIN_PARALLEL = 400
#: Faces per task sent to a worker (small enough to balance two workers, large enough that pickling is cheap).
CHUNK = 64

#: One face's parse result as the build uses it: (the parse_cache JSON of its records,
#: [(text, kind, is_mana_ability, fully_parsed, ast JSON), …] one per ability line).
Parsed = tuple[str, list[tuple[str, str, bool, bool, str]]]


def default_jobs() -> int:
    """Worker processes used when ``--jobs`` is not given: the CPUs this process may run on, at most 4
    (each worker holds the grammar, ≈ 150 MB; beyond 4 the parent's merging becomes the limit)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, 4))


def face_text_hash(name: str, type_line: str | None, oracle_text: str) -> str:
    """Return the parse-cache key of one face: hex sha256 of name, type line and Oracle text."""
    return hashlib.sha256("\x1f".join((name, type_line or "", oracle_text)).encode()).hexdigest()


def parse_face_records(name: str, type_line: str | None, oracle_text: str, memo=None) -> list[dict]:
    """Parse one face and return its ability records.

    Each record: ``{"text", "kind", "is_mana_ability", "fully_parsed", "ast"}`` where ``ast`` is the
    ability's ``to_json()`` dict. An empty Oracle text gives an empty list. ``memo``: a
    :class:`pipeline.parse.line_memo.LineMemo` of lines parsed before (the same records, faster).
    """
    if not oracle_text.strip():
        return []
    from pipeline.parse import parse_face

    return [
        {
            "text": a.text,
            "kind": a.kind,
            "is_mana_ability": bool(a.is_mana_ability),
            "fully_parsed": bool(a.fully_parsed),
            "ast": a.to_json(),
        }
        for a in parse_face(oracle_text, name=name, type_line=type_line or "", memo=memo)
    ]


def _as_parsed(records: list[dict]) -> Parsed:
    return dumps(records), [(r["text"], r["kind"], r["is_mana_ability"], r["fully_parsed"], dumps(r["ast"]))
                            for r in records]


def parse_faces(faces: Sequence[tuple[str, str | None, str]], memo=None) -> list[Parsed]:
    """Parse ``(name, type_line, oracle_text)`` faces in this process; one :data:`Parsed` per face, in order.
    ``memo``: a :class:`pipeline.parse.line_memo.LineMemo` kept across calls (each line repeated
    across faces is parsed once; the same result)."""
    return [_as_parsed(parse_face_records(*face, memo=memo)) for face in faces]


#: The lines a parse worker has parsed (its chunks share it; set by _worker_start).
_WORKER_MEMO = None


def _worker_start() -> None:
    global _WORKER_MEMO
    from pipeline.gc_policy import use_in_this_process
    from pipeline.parse.grammar import get_parser
    from pipeline.parse.line_memo import LineMemo

    use_in_this_process()  # fewer cyclic GC passes over the grammar and the ASTs being built

    get_parser()  # load the cached grammar once per worker, before the first chunk
    _WORKER_MEMO = LineMemo()


def _parse_chunk(faces: Sequence[tuple[str, str | None, str]]) -> list[Parsed]:
    """A worker's task: :func:`parse_faces` with the worker's line memo."""
    return parse_faces(faces, _WORKER_MEMO)


def parse_faces_parallel(faces: Sequence[tuple[str, str | None, str]], jobs: int,
                         tick: Callable[[int], None] | None = None) -> list[Parsed]:
    """Like :func:`parse_faces`, in ``jobs`` worker processes (module docstring); same result, same order.

    ``tick(n)`` is called as chunks of ``n`` faces come back. An exception in a worker is raised here.
    """
    workers = ParseWorkers(jobs)
    try:
        return list(workers.results(workers.submit(faces), tick))
    finally:
        workers.terminate()


class ParseWorkers:
    """``jobs`` spawn worker processes that load the cached grammar as soon as they start (module docstring).

    Made before the faces are known — a cold refresh starts them before it reads its sources, so that
    their start-up (interpreter, imports, grammar load: ≈ 1 s CPU each) overlaps the read — and fed with
    :meth:`submit`, which returns at once: the parent goes on with the work that does not need the
    parse results (inserting cards, printings and rulings, the Comprehensive Rules tables) while the
    workers parse. :meth:`terminate` stops them (their results read, or on an error).
    """

    def __init__(self, jobs: int):
        import multiprocessing

        self.jobs = max(1, int(jobs))
        self._pool = multiprocessing.get_context("spawn").Pool(self.jobs, initializer=_worker_start)
        self._stopped = False

    def submit(self, faces: Sequence[tuple[str, str | None, str]]):
        """Start parsing ``faces`` in chunks of :data:`CHUNK`; return the pending work for :meth:`results`."""
        chunks = [faces[i:i + CHUNK] for i in range(0, len(faces), CHUNK)]
        return chunks, self._pool.imap(_parse_chunk, chunks)

    @staticmethod
    def results(pending, tick: Callable[[int], None] | None = None):
        """Yield the :data:`Parsed` of every face of one :meth:`submit`, in submission order (waiting for
        the workers); ``tick(n)`` as each chunk of ``n`` faces comes back. A worker's exception is raised here."""
        chunks, results = pending
        for chunk, result in zip(chunks, results):
            yield from result
            if tick:
                tick(len(chunk))

    def terminate(self) -> None:
        """Stop the workers at once (what ``with Pool()`` does on exit); later calls do nothing."""
        if not self._stopped:
            self._stopped = True
            self._pool.terminate()
            self._pool.join()


class FaceParser:
    """Parse faces with a cache of earlier results.

    ``cache``: ``{text_hash: records JSON}`` (the ``parse_cache.abilities`` text) of an earlier
    build, decoded only on a hit. ``jobs``: worker processes for the cache misses (see the module
    docstring; 1 parses in this process). ``workers``: a :class:`ParseWorkers` already started (a
    cold refresh starts them before reading), used when there are at least :data:`MIN_PARALLEL`
    misses and closed by :meth:`prepare` / :meth:`close` (terminated if unused). ``parsed`` counts
    faces actually parsed (distinct texts missing from the cache); ``used`` the cache keys of every face seen.

    :meth:`start` hands the misses to the workers and returns at once; :meth:`prepare` (called by
    :meth:`ability_rows` when :meth:`start` was not) waits for them. A caller that uses :meth:`start`
    calls :meth:`close` in a ``finally``: it stops the workers when the build fails before their results are read.
    """

    def __init__(self, cache: dict[str, str] | None = None, jobs: int = 1, workers: ParseWorkers | None = None):
        self.cache: dict[str, str] = dict(cache or {})
        self.jobs = max(1, int(jobs))
        self.results: dict[str, Parsed] = {}
        self.new: set[str] = set()
        self.used: set[str] = set()
        self.parsed = 0
        self._workers = workers
        self._pending = None  # (keys, faces, tick, ParseWorkers.submit result or None) between start and prepare

    def start(self, cards: Iterable[OracleCard], tick: Callable[[int], None] | None = None) -> None:
        """Collect every distinct face text of ``cards``, decode the cache hits, and hand the misses to the
        worker processes when there are many (module docstring): returns without waiting for them.
        ``tick(n)``: faces done (the cache hits now, the rest as :meth:`prepare` receives them)."""
        todo: dict[str, tuple[str, str | None, str]] = {}
        for card in cards:
            for face in card.faces:
                key = face_text_hash(face.name, face.type_line, face.oracle_text)
                self.used.add(key)
                if key in self.results or key in todo:
                    continue
                cached = self.cache.get(key)
                if cached is not None:
                    self.results[key] = (cached, [
                        (r["text"], r["kind"], r["is_mana_ability"], r["fully_parsed"], dumps(r["ast"]))
                        for r in loads(cached)])
                else:
                    todo[key] = (face.name, face.type_line, face.oracle_text)
        if tick:
            tick(len(self.results))
        keys = list(todo)
        faces = [todo[k] for k in keys]
        pending = None
        if len(faces) >= MIN_PARALLEL and (self._workers is not None or self.jobs > 1):
            if self._workers is None:
                self._workers = ParseWorkers(min(self.jobs, -(-len(faces) // CHUNK)))
            pending = self._workers.submit(faces)
        else:
            self.close()  # pre-started workers are not needed for a few faces
        self._pending = (keys, faces, tick, pending)

    def prepare(self, cards: Iterable[OracleCard], tick: Callable[[int], None] | None = None) -> None:
        """Parse every distinct face text of ``cards`` missing from the cache (in workers when there are
        many; see the module docstring) and decode the cache hits; wait for the results of :meth:`start`
        when it was called first (then ``cards`` and ``tick`` are those given to it). ``tick(n)``: faces done."""
        if self._pending is None:
            self.start(cards, tick)
        keys, faces, tick, pending = self._pending
        self._pending = None
        if pending is not None:
            try:
                parsed = list(self._workers.results(pending, tick))
            finally:
                self.close()
        else:
            from pipeline.parse.line_memo import LineMemo

            memo = LineMemo()
            parsed = []
            for face in faces:
                parsed.extend(parse_faces([face], memo))
                if tick:
                    tick(1)
        self.results.update(zip(keys, parsed))
        self.new.update(keys)
        self.parsed += len(keys)

    def close(self) -> None:
        """Stop the worker processes (their results read, not needed, or the build failed); idempotent."""
        workers, self._workers = self._workers, None
        if workers is not None:
            workers.terminate()

    def ability_rows(self, cards: Iterable[OracleCard], tick: Callable[[int], None] | None = None):
        """Yield ``abilities`` table rows (tuples in schema column order) for every face of ``cards``.

        Faces not seen by :meth:`prepare` are parsed here, one by one (``tick(1)`` per card).
        """
        cards = list(cards)
        self.prepare(cards, tick)
        for card in cards:
            for face in card.faces:
                _, rows = self.results[face_text_hash(face.name, face.type_line, face.oracle_text)]
                for index, (text, kind, mana, full, ast) in enumerate(rows):
                    yield (f"{card.oracle_id}:{face.face_index}:{index}", card.oracle_id, face.face_index, index,
                           text, kind, mana, full, ast)

    def cache_rows(self, only_new: bool = False) -> list[tuple[str, str, str]]:
        """Rows for ``parse_cache``: the entries used by this build (stale texts are dropped), or with
        ``only_new`` just the texts parsed in this build."""
        from pipeline.parse import GRAMMAR_VERSION

        keys = sorted(self.new if only_new else self.used)
        return [(k, GRAMMAR_VERSION, self.results[k][0]) for k in keys]
