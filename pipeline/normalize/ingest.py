"""Read one or more source paths into a :class:`CardCollection` (the extract → normalize hand-off)."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable

from pipeline.normalize.collect import CardCollection
from pipeline.normalize.model import OtherObject, SourceInfo
from pipeline.sources import detect
from pipeline.sources.mtgjson import read_mtgjson
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
    collection = CardCollection()
    kinds: set[str] = set()
    files = source_files(paths)
    for path, kind in files:
        if kind == detect.MTGJSON:
            kinds.add("mtgjson")
            _read_mtgjson_file(path, collection, progress)
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
    collection.finish()
    return collection, SourceInfo(kind="+".join(sorted(kinds)) or "none",
                                  version=version or source_version([p for p, _ in files]),
                                  files=[str(p) for p, _ in files])


def _read_mtgjson_file(path: Path, collection: CardCollection, progress: Progress | None) -> None:
    n = 0
    for n, item in enumerate(read_mtgjson(path), start=1):
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
    if progress:
        progress(n)
