"""Digests of the MTGJSON records as read, so that a refresh normalizes only the records of cards that changed.

A daily MTGJSON refresh rewrites every set file (``meta.version`` changes in each), so every file
must be decompressed and decoded; but most records in it are the same as in the last build. Each
build records, per **group** — the records carrying one Scryfall oracle id
(``identifiers.scryfallOracleId``; ``''`` for records without one) — a **source digest**: sha256
over the group's records in reading order, each as ``orjson.dumps`` of the decoded JSON value,
preceded by what the normalizer takes from outside the record (its kind, set code and the set's
name, type and release date: :data:`pipeline.sources.mtgjson.Unit`). The digests are stored in
``card_digests`` under the keys ``#source:<oracle id>`` (:mod:`pipeline.store.incremental`).

The next refresh decodes every file and digests every record the same way, keeping each record's
JSON bytes, and normalizes (validates, converts, merges) only the groups whose digest differs from
the recorded one, or that are new (:meth:`SourceRecords.collection`); the normalized records of the
other groups are the same as the last build's, and so are their ``card_digests`` entries, which are
carried over. Normalization is a function of a group's records alone except where a group is
marked :data:`RENORMALIZE` — recorded instead of a digest, so it is always normalized again:

* the group ``''`` (objects without an oracle id; a ``reversible_card`` record without one is
  merged into the card with its face name, :meth:`pipeline.normalize.collect.CardCollection.finish`,
  so every group holding a face of that name is normalized with it);
* a group with a record quarantined or a value ignored by validation (the ``data_quality`` row
  names the file and the record's position), with two different Oracle texts for one face
  (``meta.text_conflicts``), or that received a record without an oracle id;
* a group with a record ``orjson`` cannot encode (e.g. an integer beyond 64 bits).

A record whose oracle id validation would read from elsewhere (a top-level ``oracle_id`` or
``card_faces``: not MTGJSON's shape), or a set without a type (another card's printing of the same
set may then lend one, :func:`pipeline.normalize.collect.fill_set_types`), turns the shortcut off:
every record is normalized. What the build then does with the normalized records is decided by
their ``card_digests`` (:mod:`pipeline.store.incremental`); tests/test_refresh_incremental.py
checks that the result equals a cold build table by table.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Callable, Iterable, Sequence

import orjson

from pipeline.normalize.model import GAME_LAYOUTS

#: ``card_digests`` key prefix of a group's source digest (the rest of the key is the oracle id).
SOURCE_PREFIX = "#source:"
#: Stored instead of a digest for a group that is always normalized again (module docstring).
RENORMALIZE = "renormalize"


def record_group(record: object) -> str:
    """The group of one MTGJSON record: its ``identifiers.scryfallOracleId`` when a non-empty string, else ''."""
    if isinstance(record, dict):
        ids = record.get("identifiers")
        if isinstance(ids, dict):
            oracle_id = ids.get("scryfallOracleId")
            if isinstance(oracle_id, str) and oracle_id:
                return oracle_id
    return ""


class SourceRecords:
    """The MTGJSON records of one refresh grouped by oracle id, with each group's source digest.

    ``keep``: also keep every record's JSON bytes in reading order, so that :meth:`collection` can
    normalize any set of groups later (the incremental read); without it only the digests are kept
    (a cold build records them for the next refresh). ``shortcut`` turns False when a record or set
    rules the shortcut out (module docstring).
    """

    def __init__(self, keep: bool):
        self.keep = keep
        self.shortcut = True
        self._hashes: dict[str, "hashlib._Hash"] = {}
        self._unhashable: set[str] = set()
        self._units: list[tuple] = []  # (group, path, kind, where, index, JSON bytes or the value, info, face name)
        self._unresolved_names: set = set()  # face names of game card records without an oracle id
        self._headers: dict[tuple, tuple[object, bytes]] = {}

    def add_file(self, path: Path, units: Iterable[tuple]) -> int:
        """:meth:`add` every unit of one file; return how many. The kept JSON bytes of a file are joined
        into one buffer (one allocation per file, not one per record: ≈ 60,000 small buffers amid
        each file's decoded JSON fragmented the heap to ≈ 4× their size)."""
        start = len(self._units)
        n = 0
        for n, unit in enumerate(units, start=1):
            self.add(path, unit)
        self._join(start)
        return n

    def _join(self, start: int) -> None:
        """Join the kept JSON bytes of the units from ``start`` on (one file's) into one buffer (:meth:`add_file`)."""
        if not self.keep or start == len(self._units):
            return
        kept = self._units[start:]
        blob = b"".join(u[5] for u in kept if type(u[5]) is bytes)
        offset = 0
        for i, u in enumerate(kept, start=start):
            if type(u[5]) is bytes:
                size = len(u[5])
                self._units[i] = u[:5] + ((blob, offset, size),) + u[6:]
                offset += size

    def add(self, path: Path, unit: tuple) -> None:
        """Digest one :data:`pipeline.sources.mtgjson.Unit` of ``path`` into its group (and keep it with ``keep``)."""
        kind, where, index, record, info = unit
        group = record_group(record)
        name = layout = None
        foreign = card_record = False
        if isinstance(record, dict):
            foreign = "oracle_id" in record or "card_faces" in record
            card_record = kind != "token"
            if card_record:
                name, layout = record.get("faceName") or record.get("name"), record.get("layout")
        try:
            payload = orjson.dumps(record)
        except TypeError:  # orjson.JSONEncodeError: a value orjson refuses (an int past 64 bits, a lone surrogate)
            self._unhashable.add(group)
            payload = record
        self._add(path, kind, where, index, info, group, payload, (name, layout, foreign, card_record))

    def add_encoded_file(self, path: Path, units: Sequence[tuple]) -> int:
        """:meth:`add_file` for the :data:`pipeline.sources.mtgjson.EncodedUnit` of one file, whose records
        are already compact JSON (:func:`pipeline.sources.mtgjson.mtgjson_encoded_units`): the same
        digests and kept records as :meth:`add_file` of the decoded file, without decoding it."""
        start = len(self._units)
        for kind, where, index, payload, info, (group, *fields) in units:
            self._add(path, kind, where, index, info, group, payload, fields)
        self._join(start)
        return len(units)

    def _add(self, path: Path, kind: str, where, index: int, info, group: str, payload, fields) -> None:
        """Digest one record (``payload``: its compact JSON, or the value itself when it has none) into ``group``.
        ``fields``: (face name, layout, has ``oracle_id`` or ``card_faces``, is a card record: an object, not a token)."""
        name, layout, foreign, card_record = fields
        if foreign:
            self.shortcut = False
        header = self._headers.get((kind, where))
        if header is None or header[0] is not info:
            if info is not None and info.get("type") is None:
                self.shortcut = False
            header = (info, orjson.dumps([kind, where, info]))
            self._headers[(kind, where)] = header
        digest = self._hashes.get(group)
        if digest is None:
            digest = self._hashes[group] = hashlib.sha256()
        if type(payload) is bytes:
            digest.update(header[1])
            digest.update(len(payload).to_bytes(8, "little"))
            digest.update(payload)
        if self.keep:
            if card_record and group == "" and (layout or "normal") in GAME_LAYOUTS:
                self._unresolved_names.add(name)
            self._units.append((group, path, kind, where, index, payload, info, name))

    def digests(self) -> dict[str, str]:
        """Source digest (hex) of every group read; :data:`RENORMALIZE` for those with an unencodable record and ''."""
        out = {g: h.hexdigest() for g, h in self._hashes.items()}
        for group in self._unhashable | ({""} & out.keys()):
            out[group] = RENORMALIZE
        return out

    def changed(self, previous: dict[str, str]) -> set[str]:
        """The groups to normalize given the ``previous`` build's source digests (module docstring)."""
        if not self.shortcut:
            return set(self._hashes)
        now = self.digests()
        groups = {g for g, d in now.items() if d == RENORMALIZE or previous.get(g) != d}
        return groups | self._face_name_holders()

    def _face_name_holders(self) -> set[str]:
        """Groups with a game card face named like a game card record without an oracle id (module docstring)."""
        names = self._unresolved_names
        return {u[0] for u in self._units if u[0] and u[7] in names} if names else set()

    def collection(self, groups: set[str] | None, normalize: Callable, add: Callable) -> None:
        """Normalize the kept records of ``groups`` (None: every group) in reading order:
        ``add(path, items)`` receives ``normalize(unit, path)`` of each (pipeline.normalize.ingest)."""
        for group, path, kind, where, index, payload, info, _ in self._units:
            if groups is None or group in groups:
                if type(payload) is tuple:  # (file buffer, offset, size): add_file
                    blob, offset, size = payload
                    record = orjson.loads(memoryview(blob)[offset:offset + size])
                else:
                    record = orjson.loads(payload) if type(payload) is bytes else payload
                add(path, normalize((kind, where, index, record, info), path))

    def release(self) -> None:
        """Drop the kept records (their digests stay): the build has normalized what it needs."""
        self._units = []

    def __len__(self) -> int:
        """Number of groups read."""
        return len(self._hashes)

    @property
    def groups(self) -> Iterable[str]:
        """Every group read."""
        return self._hashes.keys()


def marked_groups(collection) -> set[str]:
    """Groups of a normalized collection to mark :data:`RENORMALIZE` (module docstring): those with a
    flag (data_quality row), a text conflict, or a record resolved into them by face name."""
    marked = {f.issue.oracle_id or "" for f in collection.flags}
    marked.update(collection.text_conflicts)
    marked.update(collection.resolved)
    return marked


def source_digest_rows(records: SourceRecords, collection) -> dict[str, str]:
    """The ``card_digests`` entries (``#source:<oracle id>`` → digest) of a build of ``collection`` read from ``records``."""
    digests = records.digests()
    for group in marked_groups(collection):
        if group in digests:
            digests[group] = RENORMALIZE
    return {SOURCE_PREFIX + g: d for g, d in digests.items()}
