"""The parse step of a build: every face's Oracle text → ability rows, through the parse cache.

Parse results are cached by (sha256 of face name, type line and Oracle text; grammar_version):
a refresh parses only texts it has not seen with the current grammar (benchmarks measure this).
"""

from __future__ import annotations

import hashlib
import json
from typing import Callable, Iterable

from pipeline.normalize.model import OracleCard
from pipeline.parse import GRAMMAR_VERSION, parse_face


def face_text_hash(name: str, type_line: str | None, oracle_text: str) -> str:
    """Return the parse-cache key of one face: hex sha256 of name, type line and Oracle text."""
    return hashlib.sha256("\x1f".join((name, type_line or "", oracle_text)).encode()).hexdigest()


def parse_face_records(name: str, type_line: str | None, oracle_text: str) -> list[dict]:
    """Parse one face and return its ability records.

    Each record: ``{"text", "kind", "is_mana_ability", "fully_parsed", "ast"}`` where ``ast`` is the
    ability's ``to_json()`` dict. An empty Oracle text gives an empty list.
    """
    if not oracle_text.strip():
        return []
    return [
        {
            "text": a.text,
            "kind": a.kind,
            "is_mana_ability": bool(a.is_mana_ability),
            "fully_parsed": bool(a.fully_parsed),
            "ast": a.to_json(),
        }
        for a in parse_face(oracle_text, name=name, type_line=type_line or "")
    ]


class FaceParser:
    """Parse faces with a cache of earlier results (``{text_hash: [ability record, …]}``).

    ``parsed`` counts faces actually parsed (cache misses); ``cache`` ends holding every face seen,
    ready to be written to the ``parse_cache`` table.
    """

    def __init__(self, cache: dict[str, list[dict]] | None = None):
        self.cache: dict[str, list[dict]] = dict(cache or {})
        self.used: set[str] = set()
        self.parsed = 0

    def abilities(self, name: str, type_line: str | None, oracle_text: str) -> list[dict]:
        """Return the ability records of one face, from the cache or by parsing it."""
        key = face_text_hash(name, type_line, oracle_text)
        self.used.add(key)
        records = self.cache.get(key)
        if records is None:
            records = parse_face_records(name, type_line, oracle_text)
            self.cache[key] = records
            self.parsed += 1
        return records

    def ability_rows(self, cards: Iterable[OracleCard], tick: Callable[[int], None] | None = None):
        """Yield ``abilities`` table rows (tuples in schema column order) for every face of ``cards``."""
        for card in cards:
            for face in card.faces:
                for index, rec in enumerate(self.abilities(face.name, face.type_line, face.oracle_text)):
                    yield (
                        f"{card.oracle_id}:{face.face_index}:{index}",
                        card.oracle_id,
                        face.face_index,
                        index,
                        rec["text"],
                        rec["kind"],
                        rec["is_mana_ability"],
                        rec["fully_parsed"],
                        json.dumps(rec["ast"], ensure_ascii=False),
                    )
            if tick:
                tick(1)

    def cache_rows(self) -> list[tuple[str, str, str]]:
        """Rows for ``parse_cache``: the entries used by this build (stale texts are dropped)."""
        return [(k, GRAMMAR_VERSION, json.dumps(self.cache[k], ensure_ascii=False)) for k in sorted(self.used)]
