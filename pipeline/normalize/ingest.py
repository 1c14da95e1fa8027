"""Read one or more source paths into a :class:`CardCollection` (the extract → normalize hand-off)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from pipeline.normalize.collect import CardCollection
from pipeline.normalize.model import OtherObject, SourceInfo
from pipeline.sources import detect
from pipeline.normalize.source_records import SOURCE_PREFIX, SourceRecords
from pipeline.sources.mtgjson import mtgjson_encoded_units, mtgjson_units, normalize_unit
from pipeline.sources.records import Flagged
from pipeline.sources.scryfall import read_scryfall_cards, read_scryfall_rulings
from pipeline.sources.version import source_files, source_version

Progress = Callable[[int], None]


def collect(paths: Iterable[str | Path], progress: Progress | None = None, *,
            version: str | None = None) -> tuple[CardCollection, SourceInfo]:
    """Read every path (kind detected by :func:`detect.detect_source`) into one collection.

    Accepts Scryfall card bulk files, Scryfall rulings bulk files, MTGJSON files and directories
    of MTGJSON set files, in any mix. ``progress(n)`` is called with the number of records read
    since its last call. Returns the finished collection and a :class:`SourceInfo` whose
    ``version`` is ``version`` if given, else :func:`pipeline.sources.version.source_version`.
    A record whose fields fail validation is quarantined, not read (``collection.flags``, see
    :mod:`pipeline.sources.records`). Raises SourceError (one line, naming file, record and field)
    on any other bad input.
    """
    read = collect_sources(paths, progress, version=version)
    return read.collection, read.info


@dataclass
class SourceRead:
    """What a refresh read: ``collection``, ``info`` (as :func:`collect` returns them) and, when every
    source is MTGJSON, ``records`` (:class:`pipeline.normalize.source_records.SourceRecords`, else None).

    ``carried`` is None when ``collection`` holds every card; for an incremental read it holds the
    previous build's ``card_digests`` of the groups *not* normalized (unchanged source records), and
    ``collection`` only the groups in ``normalized``: :meth:`expand` and :meth:`full` normalize more.
    """

    collection: CardCollection
    info: SourceInfo
    records: SourceRecords | None = None
    carried: dict[str, str] | None = None
    normalized: set[str] | None = None

    @property
    def partial(self) -> bool:
        """True when ``collection`` holds only the changed groups (an incremental read)."""
        return self.carried is not None

    def expand(self, groups: set[str]) -> CardCollection:
        """The finished collection of the groups normalized so far and ``groups`` (normalized from the
        kept records, in reading order); becomes ``collection``."""
        self.normalized = set(self.normalized or ()) | set(groups)
        self.collection = _collection_of(self.records, self.normalized)
        return self.collection

    def release(self) -> None:
        """Free the kept source records once the build has normalized what it needs (digests stay)."""
        if self.records is not None:
            self.records.release()

    def full(self) -> CardCollection:
        """Normalize every kept record (the build turned out cold); becomes ``collection``, ``carried`` None."""
        if self.partial:
            self.collection = _collection_of(self.records, None)
            self.carried, self.normalized = None, None
        return self.collection


def _collection_of(records: SourceRecords, groups: set[str] | None) -> CardCollection:
    collection = CardCollection()
    records.collection(groups, normalize_unit, lambda path, items: _add_items(collection, items, path))
    collection.finish()
    return collection


def collect_sources(paths: Iterable[str | Path], progress: Progress | None = None, *, version: str | None = None,
                    previous: dict[str, str] | None = None,
                    faces_read: Callable[[list], None] | None = None) -> SourceRead:
    """Like :func:`collect`, also digesting the source records when every source is MTGJSON
    (:mod:`pipeline.normalize.source_records`).

    ``previous``: the previous build's ``card_digests`` (with its ``#source:`` keys), when an
    incremental build over it is possible (:func:`pipeline.store.incremental.previous_digests`);
    then every file is decoded and digested but only the changed groups are normalized
    (:attr:`SourceRead.partial`). ``faces_read(faces)``: called after each file of a read that normalizes
    every record with the :class:`pipeline.normalize.model.Face` objects first seen in it (a cold
    refresh's parse workers start on them during the read; a face's name, type line and Oracle text
    do not change after it is first seen, :class:`CardCollection`). Raises what :func:`collect` raises.
    """
    files = source_files(paths)
    kinds: set[str] = set()
    records = SourceRecords(keep=previous is not None) if files and all(k == detect.MTGJSON for _, k in files) else None
    collection = CardCollection()
    if faces_read is not None and previous is None:
        collection.new_faces = []
    for path, kind in files:
        if kind == detect.MTGJSON:
            kinds.add("mtgjson")
            _read_mtgjson_file(path, collection, progress, records)
        elif kind == detect.SCRYFALL_CARDS:
            kinds.add("scryfall")
            for n, obj in enumerate(read_scryfall_cards(path), start=1):
                if isinstance(obj, Flagged):
                    collection.add_flag(obj)
                elif isinstance(obj, OtherObject):
                    collection.add_other(obj)
                else:
                    collection.add_card(obj)
                if progress and n % 1000 == 0:
                    progress(1000)
        else:
            kinds.add("scryfall")
            for ruling in read_scryfall_rulings(path):
                if isinstance(ruling, Flagged):
                    collection.add_flag(ruling)
                else:
                    collection.add_ruling(ruling)
        if collection.new_faces:
            faces_read(collection.new_faces)
            collection.new_faces = []
    collection.new_faces = None
    info = SourceInfo(kind="+".join(sorted(kinds)) or "none", version=version or source_version([p for p, _ in files]),
                      files=[str(p) for p, _ in files])
    if records is not None and records.keep:
        groups = records.changed({k[len(SOURCE_PREFIX):]: v for k, v in previous.items()
                                  if k.startswith(SOURCE_PREFIX)})
        carried = {g: previous.get(g) for g in records.groups if g not in groups}
        if records.shortcut and carried and all(d is not None for d in carried.values()):  # else nothing to skip
            read = SourceRead(collection, info, records, carried, set())
            read.expand(groups)
            return read
        collection = _collection_of(records, None)
        return SourceRead(collection, info, records)
    collection.finish()
    return SourceRead(collection, info, records)


def _read_mtgjson_file(path: Path, collection: CardCollection, progress: Progress | None,
                       records: SourceRecords | None = None) -> None:
    if records is not None and records.keep:  # normalized later, only where the group changed (SourceRead)
        encoded = mtgjson_encoded_units(path)  # the records' JSON without decoding the file, when it can
        n = records.add_encoded_file(path, encoded) if encoded is not None else records.add_file(path, mtgjson_units(path))
    else:
        n = 0
        for n, unit in enumerate(mtgjson_units(path), start=1):
            if records is not None:
                records.add(path, unit)
            _add_items(collection, normalize_unit(unit, path), path)
    if progress:
        progress(n)


def _add_items(collection: CardCollection, items, path: Path) -> None:
    for item in items:
        if isinstance(item, Flagged):
            collection.add_flag(item)
        elif isinstance(item, OtherObject):
            collection.add_other(item)
            for ruling in item.rulings:
                collection.add_ruling(ruling)
        elif item.card.oracle_id is None:
            collection.add_unresolved(item.card, item.rulings, str(path))
        else:
            collection.add_card(item.card)
            for ruling in item.rulings:
                collection.add_ruling(ruling)
