"""Read one or more source paths into a :class:`CardCollection` (the extract → normalize hand-off)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Callable, Iterable

from pipeline.normalize.collect import CardCollection
from pipeline.normalize.model import OtherObject, SourceInfo
from pipeline.sources import detect
from pipeline.sources.mtgjson import MtgjsonFace, read_mtgjson, set_files
from pipeline.sources.scryfall import read_scryfall_cards, read_scryfall_rulings

Progress = Callable[[int], None]


def collect(paths: Iterable[str | Path], progress: Progress | None = None) -> tuple[CardCollection, SourceInfo]:
    """Read every path (kind detected by :func:`detect.detect_source`) into one collection.

    Accepts Scryfall card bulk files, Scryfall rulings bulk files, MTGJSON files and directories
    of MTGJSON set files, in any mix. ``progress(n)`` is called with the number of records read
    since its last call. Returns the finished collection and a :class:`SourceInfo` whose
    ``version`` is the MTGJSON ``meta.version`` or, for Scryfall files, a content hash.
    Raises SourceError (one line, naming file, record and field) on any bad input.
    """
    collection = CardCollection()
    kinds: list[str] = []
    versions: list[str] = []
    files: list[str] = []
    for path in paths:
        path = Path(path)
        kind = detect.detect_source(path)
        kinds.append("mtgjson" if kind in (detect.MTGJSON, detect.MTGJSON_DIR) else "scryfall")
        if kind == detect.MTGJSON_DIR:
            for file in set_files(path):
                versions.append(_read_mtgjson_file(file, collection, progress))
                files.append(str(file))
            continue
        files.append(str(path))
        if kind == detect.MTGJSON:
            versions.append(_read_mtgjson_file(path, collection, progress))
        elif kind == detect.SCRYFALL_CARDS:
            for n, obj in enumerate(read_scryfall_cards(path), start=1):
                if isinstance(obj, OtherObject):
                    collection.add_other(obj)
                else:
                    collection.add_card(obj)
                if progress and n % 1000 == 0:
                    progress(1000)
            versions.append("sha256:" + file_sha256(path)[:16])
        else:
            for ruling in read_scryfall_rulings(path):
                collection.add_ruling(ruling)
            versions.append("sha256:" + file_sha256(path)[:16])
    collection.finish()
    kind = "+".join(sorted(set(kinds))) or "none"
    version = max(versions) if len(set(versions)) == 1 or kind == "mtgjson" else ",".join(versions)
    return collection, SourceInfo(kind=kind, version=version or "unknown", files=files)


def _read_mtgjson_file(path: Path, collection: CardCollection, progress: Progress | None) -> str:
    meta: dict = {}
    n = 0
    for n, item in enumerate(read_mtgjson(path, meta), start=1):
        if isinstance(item, OtherObject):
            collection.add_other(item)
        elif item.card.oracle_id is None:
            collection.add_unresolved(item.card, item.rulings, str(path))
        else:
            collection.add_card(item.card)
            for ruling in item.rulings:
                collection.add_ruling(ruling)
    if progress:
        progress(n)
    return str(meta.get("version", "unknown"))


def file_sha256(path: str | Path) -> str:
    """Return the hex SHA-256 of a file's bytes, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
