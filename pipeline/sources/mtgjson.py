"""Read MTGJSON v5 files: ``AllPrintings.json``, ``AtomicCards.json``, one set file, or a directory of set files.

MTGJSON holds one record per printing and, for multi-face cards, one record per face
(``side`` a, b, c…, ``faceName``); rulings sit inside each record (``rulings: [{date, text}]``);
the Scryfall oracle id is ``identifiers.scryfallOracleId``. Each file is streamed with ijson
one set (or one atomic card) at a time. Records under ``tokens`` become :class:`OtherObject`.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Iterator

import ijson

from pipeline.normalize.model import GAME_LAYOUTS, Face, OracleCard, OtherObject, Ruling, sort_colors
from pipeline.sources.errors import SourceError, record_label
from pipeline.sources.files import open_binary
from pipeline.sources.records import Flagged, MtgjsonCard, gate

_STREAM_ERRORS = (OSError, EOFError, zlib.error, ijson.JSONError, json.JSONDecodeError, UnicodeDecodeError)


@dataclass
class MtgjsonFace:
    """One MTGJSON card record normalized to a one-face :class:`OracleCard` plus its rulings.

    ``card.oracle_id`` is None only for ``reversible_card`` records, which MTGJSON 5.2 ships
    without ``scryfallOracleId``; the collector resolves those by face name.
    """

    card: OracleCard
    rulings: list[Ruling]


def set_files(directory: str | Path) -> list[Path]:
    """Return the MTGJSON set files (``*.json``, ``*.json.gz``) of ``directory``, sorted by name.

    Raises SourceError if there are none.
    """
    directory = Path(directory)
    files = sorted(p for p in directory.iterdir() if p.name.endswith((".json", ".json.gz")))
    if not files:
        raise SourceError(directory, "no MTGJSON set files (*.json, *.json.gz) in this directory")
    return files


#: Files up to this size on disk (one MTGJSON set file is ≤ 1.1 MB gzipped) are parsed with
#: ``json.load`` (faster); larger ones (AllPrintings, AtomicCards) are streamed one entry of
#: ``data`` at a time with ijson.
WHOLE_FILE_MAX_BYTES = 4 << 20


def read_mtgjson(path: str | Path) -> Iterator[MtgjsonFace | OtherObject]:
    """Yield every card record of one MTGJSON file (AllPrintings, AtomicCards or a set file).

    The shape is told from the first entry of ``data``: a set object holding ``cards``
    (AllPrintings: ``{SET: set}``), a list of face records (AtomicCards: ``{name: [...]}``),
    or anything else (a set file, whose ``data`` is one set). Raises SourceError naming the file,
    record and field on a truncated/corrupt file, invalid JSON, or a malformed record.
    """
    with open_binary(path) as stream:
        try:
            if Path(path).stat().st_size <= WHOLE_FILE_MAX_BYTES:
                document = json.load(stream)
                if not isinstance(document, dict) or not isinstance(document.get("data"), dict):
                    raise SourceError(path, "not an MTGJSON file: no 'data' object", field="data")
                entries = iter(document["data"].items())
            else:
                entries = ijson.kvitems(stream, "data", use_float=True)
            yield from _read_entries(entries, path)
        except _STREAM_ERRORS as exc:
            raise SourceError(path, f"invalid or truncated MTGJSON file: {exc}") from exc


def _read_entries(entries: Iterator[tuple[str, object]], path) -> Iterator[MtgjsonFace | OtherObject]:
    shape = None
    for key, value in entries:
        if shape is None:
            if isinstance(value, dict) and isinstance(value.get("cards"), list):
                shape = "all_printings"
            elif isinstance(value, list) and key not in ("cards", "tokens", "sealedProduct"):
                shape = "atomic"
            else:
                shape = "set"
        if shape == "all_printings":
            if not (isinstance(value, dict) and isinstance(value.get("cards"), list)):
                raise SourceError(path, "expected a set object with 'cards'", field=f"data.{key}")
            yield from _read_set(value.get("code", key), value["cards"], value.get("tokens") or [], path)
        elif shape == "atomic":
            if not isinstance(value, list):
                raise SourceError(path, "expected a list of atomic card records", field=f"data.{key}")
            for index, record in enumerate(value):
                yield from _checked(face_from_mtgjson, record, path, f"{key!r}[{index}]")
        elif key in ("cards", "tokens"):  # one set file: only these entries hold card records
            if not isinstance(value, list):
                raise SourceError(path, "expected a list", field=f"data.{key}")
            code = value[0].get("setCode", "?") if value and isinstance(value[0], dict) else "?"
            yield from _read_set(code, value if key == "cards" else [], value if key == "tokens" else [], path)


def _read_set(code: str, cards: list, tokens: list, path) -> Iterator[MtgjsonFace | OtherObject | Flagged]:
    for index, record in enumerate(cards):
        yield from _checked(face_from_mtgjson, record, path, f"{code} cards{record_label(index, record)}")
    for index, record in enumerate(tokens):
        yield from _checked(_other_from_mtgjson, record, path, f"{code} tokens{record_label(index, record)}")


def _checked(normalize, record: object, path, label: str) -> Iterator[MtgjsonFace | OtherObject | Flagged]:
    """Validate ``record`` (:class:`pipeline.sources.records.MtgjsonCard`), then normalize it — or yield its quarantine."""
    record, flags = gate(MtgjsonCard, record, path, label)
    yield from flags
    if record is not None:
        yield normalize(record, path, label)


def _side_index(side: object) -> int:
    return ord(side) - ord("a") if isinstance(side, str) and len(side) == 1 and side.isalpha() else 0


def face_from_mtgjson(record: object, path, label: str) -> MtgjsonFace | OtherObject:
    """Normalize one MTGJSON card (or atomic card) record; ``label`` locates it in error messages."""
    if not isinstance(record, dict):
        raise SourceError(path, "card record is not an object", record=label)
    layout = record.get("layout") or "normal"
    if layout not in GAME_LAYOUTS:
        return _other_from_mtgjson(record, path, label)
    identifiers = record.get("identifiers") or {}
    oracle_id = identifiers.get("scryfallOracleId")
    if not oracle_id and layout != "reversible_card":
        raise SourceError(path, "game card without an oracle id", record=label, field="identifiers.scryfallOracleId")
    name = record.get("faceName") or record.get("name")
    if not isinstance(name, str):
        raise SourceError(path, "missing card name", record=label, field="name")
    text = record.get("text") or ""
    if not isinstance(text, str):
        raise SourceError(path, "expected a string", record=label, field="text")
    face = Face(
        face_index=_side_index(record.get("side")),
        name=name,
        mana_cost=record.get("manaCost") or None,
        type_line=record.get("type"),
        oracle_text=text,
        power=record.get("power"),
        toughness=record.get("toughness"),
        loyalty=record.get("loyalty"),
        defense=record.get("defense"),
        colors=record.get("colors"),
    )
    mana_value = record.get("manaValue", record.get("convertedManaCost"))
    card = OracleCard(
        oracle_id=oracle_id,
        name=record.get("name") or name,
        layout=layout,
        mana_cost=None,
        mana_value=float(mana_value) if isinstance(mana_value, (int, float)) else None,
        type_line=None,
        colors=sort_colors(record.get("colors") or []),
        color_identity=sort_colors(record.get("colorIdentity") or []),
        keywords=list(record.get("keywords") or []),
        faces=[face],
    )
    if record.get("setCode"):
        card.printings.add((record["setCode"], str(record.get("number", "")), "en"))
    return MtgjsonFace(card, _rulings(record, oracle_id, path, label))


def _rulings(record: dict, oracle_id: str | None, path, label: str) -> list[Ruling]:
    rulings = []
    for j, ruling in enumerate(record.get("rulings") or []):
        try:
            rulings.append(Ruling(oracle_id, None, date.fromisoformat(ruling["date"]), ruling["text"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise SourceError(path, f"malformed ruling: {exc}", record=label, field=f"rulings[{j}]") from exc
    return rulings


def _other_from_mtgjson(record: object, path, label: str) -> OtherObject:
    if not isinstance(record, dict):
        raise SourceError(path, "token record is not an object", record=label)
    oracle_id = (record.get("identifiers") or {}).get("scryfallOracleId")
    # Planes, schemes and vanguards carry rulings too: they are kept (under their own oracle id).
    rulings = _rulings(record, oracle_id, path, label) if oracle_id else []
    return OtherObject(oracle_id, record.get("name") or "", record.get("layout") or "token",
                       record.get("type"), record.get("text") or "", rulings)
