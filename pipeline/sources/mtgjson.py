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

from pipeline.normalize.languages import scryfall_code
from pipeline.normalize.model import (GAME_LAYOUTS, Face, OracleCard, OtherObject, Printing, Ruling,
                                      sort_colors)
from pipeline.sources.errors import SourceError, record_label
from pipeline.sources.files import gunzip_whole, open_binary, require_regular_file, set_files  # noqa: F401  (set_files: re-exported)
from pipeline.sources.json_stream import object_items
from pipeline.sources.records import Flagged, MtgjsonCard, gate

_STREAM_ERRORS = (OSError, EOFError, zlib.error, ijson.JSONError, json.JSONDecodeError, UnicodeDecodeError,
                  RecursionError, ValueError)

try:
    import orjson
except ImportError:  # pragma: no cover - orjson is a dependency
    orjson = None

try:
    import simdjson  # pysimdjson: a set file's records as compact JSON without building Python objects
except ImportError:  # pragma: no cover - pysimdjson is a dependency; without it every file is decoded whole
    simdjson = None


def _loads(data: bytes):
    """Decode a whole JSON document: orjson (faster than json on set files, benchmarks/README.md), and
    json when orjson refuses it, so that what json accepts (a lone surrogate escape, which
    :func:`pipeline.refresh.check_collection` then names by record and field) reads the same."""
    if orjson is not None:
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass
    return json.loads(data)


@dataclass
class MtgjsonFace:
    """One MTGJSON card record normalized to a one-face :class:`OracleCard` plus its rulings.

    ``card.oracle_id`` is None only for ``reversible_card`` records, which MTGJSON 5.2 ships
    without ``scryfallOracleId``; the collector resolves those by face name.
    """

    card: OracleCard
    rulings: list[Ruling]


#: Files up to this size on disk (one MTGJSON set file is ≤ 1.1 MB gzipped) are parsed with
#: ``json.load`` (faster); larger ones (AllPrintings, AtomicCards) are streamed one entry of
#: ``data`` at a time with ijson.
WHOLE_FILE_MAX_BYTES = 4 << 20
#: ... and only while they decompress to at most this (a small gzip holding more is streamed).
WHOLE_DECOMPRESSED_MAX_BYTES = 48 << 20


def read_mtgjson_streaming(path: str | Path) -> Iterator[MtgjsonFace | OtherObject]:
    """:func:`read_mtgjson` streaming ``data`` one entry at a time whatever the file's size."""
    for unit in mtgjson_units_streaming(path):
        yield from normalize_unit(unit, path)


def mtgjson_units_streaming(path: str | Path) -> Iterator[Unit]:
    """:func:`mtgjson_units` streaming ``data`` one entry at a time whatever the file's size."""
    with open_binary(path) as stream:
        try:
            yield from _units(object_items(stream, under="data"), path)
        except _STREAM_ERRORS as exc:
            raise SourceError(path, f"invalid or truncated MTGJSON file: {exc}") from exc


def read_mtgjson(path: str | Path) -> Iterator[MtgjsonFace | OtherObject]:
    """Yield every card record of one MTGJSON file (AllPrintings, AtomicCards or a set file), normalized.

    The shape is told from the first entry of ``data``: a set object holding ``cards``
    (AllPrintings: ``{SET: set}``), a list of face records (AtomicCards: ``{name: [...]}``),
    or anything else (a set file, whose ``data`` is one set). Raises SourceError naming the file,
    record and field on a truncated/corrupt file, invalid JSON, or a malformed record.
    """
    for unit in mtgjson_units(path):
        yield from normalize_unit(unit, path)


#: One record of an MTGJSON file as read, before validation: ``(kind, where, index, record, info)`` —
#: ``kind`` 'card' (a set's ``cards``), 'token' (a set's ``tokens``) or 'atomic' (AtomicCards);
#: ``where`` the set code (or the atomic card's name); ``index`` its position in its list; ``record``
#: the decoded JSON value; ``info`` the set's :func:`set_info` (None for 'atomic').
Unit = tuple[str, str, int, object, "dict | None"]


def mtgjson_units(path: str | Path) -> Iterator[Unit]:
    """Yield every record of one MTGJSON file as a :data:`Unit`, in file order, without validating or
    normalizing it (:func:`normalize_unit` does that). Raises SourceError as :func:`read_mtgjson`."""
    with open_binary(path) as stream:
        try:
            data = None
            if Path(path).stat().st_size <= WHOLE_FILE_MAX_BYTES:  # a set file: one zlib call, else the stream
                data = gunzip_whole(path, WHOLE_DECOMPRESSED_MAX_BYTES + 1) or stream.read(WHOLE_DECOMPRESSED_MAX_BYTES + 1)
            if data is not None and len(data) <= WHOLE_DECOMPRESSED_MAX_BYTES:
                document = _loads(data)
                del data
                if not isinstance(document, dict) or not isinstance(document.get("data"), dict):
                    raise SourceError(path, "not an MTGJSON file: no 'data' object", field="data")
                entries = iter(document["data"].items())
            else:  # large, or a small gzip that decompresses to more (a bomb): stream, bounded
                if data is not None:
                    stream.close()
                    yield from mtgjson_units_streaming(path)
                    return
                entries = object_items(stream, under="data")  # bounded, prefix-free (json_stream)
            yield from _units(entries, path)
        except _STREAM_ERRORS as exc:
            raise SourceError(path, f"invalid or truncated MTGJSON file: {exc}") from exc


#: One record of an MTGJSON file as compact JSON (:func:`mtgjson_encoded_units`):
#: ``(kind, where, index, payload, info, fields)`` — as :data:`Unit` but ``payload`` is the record's
#: compact JSON bytes (byte for byte ``orjson.dumps`` of the decoded record: checked on the 63,142
#: records of the MTGJSON 2022 set files, tests/test_refresh_incremental.py), and ``fields`` is
#: ``(group, face name, layout, foreign shape, card record)``: the record's ``identifiers.scryfallOracleId``
#: ('' when absent), ``faceName`` or ``name`` and ``layout`` (card records only), whether it has a top-level
#: ``oracle_id`` or ``card_faces``, and whether it is an object under ``cards`` (or an atomic card).
EncodedUnit = tuple[str, str, int, bytes, "dict | None", tuple]


def mtgjson_encoded_units(path: str | Path) -> list[EncodedUnit] | None:
    """Every record of one small MTGJSON file (AllPrintings, AtomicCards or a set file) as an
    :data:`EncodedUnit`, in the order :func:`mtgjson_units` yields them; or None, and then the caller
    reads the file with :func:`mtgjson_units` (which also reports what is wrong with it).

    For a refresh that normalizes only changed records (pipeline/normalize/source_records.py): the
    file is parsed by simdjson (pysimdjson), which builds no Python object per value, and each record
    is serialized back to compact JSON in C — ≈ 0.6 s CPU for the 579 MTGJSON 2022 set files against
    ≈ 1.9 s for ``orjson.loads`` of the files plus ``orjson.dumps`` of each record. A record's JSON
    decodes (``orjson.loads``) to the value the whole file's decode holds: strings and integers are
    exact and a double is written as its shortest round-trip digits. None for anything unusual, so
    that the usual path decides: pysimdjson missing, a file over :data:`WHOLE_FILE_MAX_BYTES` or not a
    single gzip member decompressing to at most :data:`WHOLE_DECOMPRESSED_MAX_BYTES`, JSON simdjson
    refuses (invalid, an integer past 64 bits, a lone surrogate escape), duplicate keys in ``data``, a
    set field or a record field read here of an unexpected type. Raises SourceError only when the file
    cannot be read.
    """
    if simdjson is None or Path(path).stat().st_size > WHOLE_FILE_MAX_BYTES:
        return None
    data = gunzip_whole(path, WHOLE_DECOMPRESSED_MAX_BYTES + 1)
    if data is None or len(data) > WHOLE_DECOMPRESSED_MAX_BYTES:
        return None
    try:
        document = simdjson.Parser().parse(data)
    except (ValueError, RuntimeError, UnicodeDecodeError):  # invalid JSON or beyond simdjson: the usual path
        return None
    try:
        return _encoded_units(document, path)
    except _NotEncodable:
        return None


class _NotEncodable(Exception):
    """A file :func:`mtgjson_encoded_units` leaves to :func:`mtgjson_units`."""


def _encoded_units(document, path) -> list[EncodedUnit]:
    Object, Array = simdjson.Object, simdjson.Array
    if not isinstance(document, Object):
        raise _NotEncodable
    data = document.get("data")
    if not isinstance(data, Object) or len(set(data.keys())) != len(data):
        raise _NotEncodable
    units: list[EncodedUnit] = []
    shape = None
    one_set: dict[str, object] = {}
    for key in data.keys():
        value = data[key]  # (Object.items() would build Python objects of every value)
        if shape is None:  # as _units tells the shape from the first entry
            shape = _data_shape(key, value, Object, Array)
        if shape == "all_printings":
            if not (isinstance(value, Object) and isinstance(value.get("cards"), Array)):
                raise _NotEncodable
            tokens = value.get("tokens")
            if tokens is not None and not isinstance(tokens, Array):
                raise _NotEncodable
            code = value.get("code", key)
            _encoded_set(units, code, value["cards"], tokens or (), _encoded_set_info(value, path, f"data.{key}"))
        elif shape == "atomic":
            if not isinstance(value, Array):
                raise _NotEncodable
            for index, record in enumerate(value):
                units.append(("atomic", key, index, *_encoded(record, True), None))
        elif key in ("cards", "tokens"):
            if not isinstance(value, Array):
                raise _NotEncodable
            one_set[key] = value
        elif key in SET_FIELDS:
            one_set[key] = value
    if shape == "set":
        cards, tokens = one_set.get("cards") or (), one_set.get("tokens") or ()
        first = cards[0] if len(cards) else tokens[0] if len(tokens) else None
        code = one_set.get("code") or (first.get("setCode") if isinstance(first, Object) else None) or "?"
        _encoded_set(units, code, cards, tokens, _encoded_set_info(one_set, path, "data"))
    # (kind, where, index, payload, fields, info) → the EncodedUnit order
    return [(u[0], u[1], u[2], u[3], u[5], u[4]) for u in units]


def _encoded_set_info(set_object, path, where: str) -> dict:
    values = {key: set_object.get(key) for key in SET_FIELDS}
    if any(v is not None and not isinstance(v, str) for v in values.values()):
        raise _NotEncodable  # set_info names the field (the usual path)
    return set_info(values, path, where)


def _encoded_set(units: list, code, cards, tokens, info: dict) -> None:
    if not isinstance(code, str):
        raise _NotEncodable
    for index, record in enumerate(cards):
        units.append(("card", code, index, *_encoded(record, True), info))
    for index, record in enumerate(tokens):
        units.append(("token", code, index, *_encoded(record, False), info))


def _encoded(record, named: bool) -> tuple[bytes, tuple]:
    """(compact JSON, fields) of one record (:data:`EncodedUnit`); ``named``: read its face name (not a token)."""
    if not isinstance(record, simdjson.Object):
        if isinstance(record, simdjson.Array):
            return record.mini, ("", None, None, False, False)
        return orjson.dumps(record), ("", None, None, False, False)  # a scalar: str, number, bool or null
    ids = record.get("identifiers")
    group = ids.get("scryfallOracleId") if isinstance(ids, simdjson.Object) else None
    group = group if isinstance(group, str) else ""
    name = layout = None
    if named:
        name, layout = record.get("faceName") or record.get("name"), record.get("layout")
        if not isinstance(name, (str, type(None))) or not isinstance(layout, (str, type(None))):
            raise _NotEncodable
    return record.mini, (group, name, layout, "oracle_id" in record or "card_faces" in record, named)


def normalize_unit(unit: Unit, path) -> Iterator[MtgjsonFace | OtherObject | Flagged]:
    """Validate and normalize one :data:`Unit` of ``path``: its :class:`MtgjsonFace` or
    :class:`OtherObject`, or the :class:`Flagged` quarantine / ignored values (pipeline/sources/records.py).
    Raises SourceError naming file, record and field for a malformed record."""
    kind, where, index, record, info = unit
    try:
        if kind == "card":
            yield from _checked(face_from_mtgjson, record, path, f"{where} cards{record_label(index, record)}", info)
        elif kind == "token":
            yield from _checked(_other_from_mtgjson, record, path, f"{where} tokens{record_label(index, record)}")
        else:
            yield from _checked(face_from_mtgjson, record, path, f"{where!r}[{index}]")
    except _STREAM_ERRORS as exc:  # as when records were normalized while the file was read
        raise SourceError(path, f"invalid or truncated MTGJSON file: {exc}") from exc


def _data_shape(key: str, value, object_type: type, array_type: type) -> str:
    """The shape of an MTGJSON ``data`` object, told from its first entry ``(key, value)``:
    ``"all_printings"`` (set code → set object with ``cards``), ``"atomic"`` (card name → list of
    records) or ``"set"`` (one set file's fields). ``object_type``/``array_type`` are ``dict``/``list``
    for decoded JSON, ``simdjson.Object``/``simdjson.Array`` for the incremental read."""
    if isinstance(value, object_type) and isinstance(value.get("cards"), array_type):
        return "all_printings"
    if isinstance(value, array_type) and key not in ("cards", "tokens", "sealedProduct"):
        return "atomic"
    return "set"


def _units(entries: Iterator[tuple[str, object]], path) -> Iterator[Unit]:
    shape = None
    one_set: dict[str, object] = {}  # a set file's entries: its cards come before its name and dates
    for key, value in entries:
        if shape is None:
            shape = _data_shape(key, value, dict, list)
        if shape == "all_printings":
            if not (isinstance(value, dict) and isinstance(value.get("cards"), list)):
                raise SourceError(path, "expected a set object with 'cards'", field=f"data.{key}")
            yield from _set_units(value.get("code", key), value["cards"], value.get("tokens") or [],
                                  set_info(value, path, f"data.{key}"))
        elif shape == "atomic":
            if not isinstance(value, list):
                raise SourceError(path, "expected a list of atomic card records", field=f"data.{key}")
            for index, record in enumerate(value):
                yield ("atomic", key, index, record, None)
        elif key in ("cards", "tokens"):  # one set file: only these entries hold card records
            if not isinstance(value, list):
                raise SourceError(path, "expected a list", field=f"data.{key}")
            one_set[key] = value
        elif key in SET_FIELDS:
            one_set[key] = value
    if shape == "set":
        cards, tokens = one_set.get("cards") or [], one_set.get("tokens") or []
        first = (cards or tokens or [None])[0]
        code = one_set.get("code") or (first.get("setCode") if isinstance(first, dict) else None) or "?"
        yield from _set_units(code, cards, tokens, set_info(one_set, path, "data"))


def _set_units(code: str, cards: list, tokens: list, info: dict) -> Iterator[Unit]:
    for index, record in enumerate(cards):
        yield ("card", code, index, record, info)
    for index, record in enumerate(tokens):
        yield ("token", code, index, record, info)


#: The set fields a printing takes from its set (MTGJSON set object): name, type, release date.
SET_FIELDS = ("code", "name", "type", "releaseDate")


def set_info(set_object: dict, path, where: str) -> dict:
    """``{"name", "type", "releaseDate"}`` of an MTGJSON set object (None where absent).

    Raises SourceError naming the field when one is not a string or the date is not ISO.
    """
    info = {}
    for key in SET_FIELDS[1:]:
        value = set_object.get(key)
        if value is not None and not isinstance(value, str):
            raise SourceError(path, "expected a string", field=f"{where}.{key}")
        info[key] = value
    if info["releaseDate"] is not None:
        try:
            info["releaseDate"] = date.fromisoformat(info["releaseDate"])
        except ValueError:
            raise SourceError(path, f"not a date: {info['releaseDate']!r}", field=f"{where}.releaseDate") from None
    return info


def _checked(normalize, record: object, path, label: str, *extra) -> Iterator[MtgjsonFace | OtherObject | Flagged]:
    """Validate ``record`` (:class:`pipeline.sources.records.MtgjsonCard`), then normalize it — or yield its quarantine.

    ``extra``: further arguments of ``normalize`` (the set's :func:`set_info` for card records).
    """
    record, flags = gate(MtgjsonCard, record, path, label)
    yield from flags
    if record is not None:
        yield normalize(record, path, label, *extra)


def _side_index(side: object) -> int:
    return ord(side) - ord("a") if isinstance(side, str) and len(side) == 1 and side.isalpha() else 0


def face_from_mtgjson(record: object, path, label: str, info: dict | None = None) -> MtgjsonFace | OtherObject:
    """Normalize one MTGJSON card (or atomic card) record; ``label`` locates it in error messages.

    ``info``: its set's :func:`set_info` (None for AtomicCards records, which have no printing).
    """
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
    if isinstance(record.get("leadershipSkills"), dict):
        card.leadership = {k: bool(v) for k, v in record["leadershipSkills"].items()}
    elif record.get("setCode"):
        card.leadership = {}  # MTGJSON omits leadershipSkills when every skill is false
    if record.get("setCode"):
        printing = printing_from_mtgjson(record, info or {}, path, label)
        card.printings[printing.key] = printing
    return MtgjsonFace(card, _rulings(record, oracle_id, path, label))


def printing_from_mtgjson(record: dict, info: dict, path, label: str) -> Printing:
    """The :class:`Printing` of one MTGJSON card record (one face of one printing, language 'en').

    Set name, type and date come from the set object (``info``, :func:`set_info`); the record's
    ``originalReleaseDate`` (promos) overrides the date. Ids come from ``identifiers`` (MTGJSON
    spells them as strings; ``mcmId`` is Cardmarket's). Translations (``foreignData``) become
    ``foreign_names`` with Scryfall language codes. MTGJSON has no image URIs or prices.
    Raises SourceError naming file, record and field for a malformed value.
    """
    ids = record.get("identifiers") or {}
    if not isinstance(ids, dict):
        raise SourceError(path, "expected an object", record=label, field="identifiers")
    released = info.get("releaseDate")
    if record.get("originalReleaseDate"):
        try:
            released = date.fromisoformat(str(record["originalReleaseDate"]))
        except ValueError:
            raise SourceError(path, f"not a date: {record['originalReleaseDate']!r}", record=label,
                              field="originalReleaseDate") from None
    legalities = record.get("legalities")  # format → status, checked by pipeline/sources/records.py
    foreign = []
    for j, entry in enumerate(record.get("foreignData") or []):
        if not (isinstance(entry, dict) and isinstance(entry.get("name"), str) and isinstance(entry.get("language"), str)):
            raise SourceError(path, "expected {language, name} strings", record=label, field=f"foreignData[{j}]")
        try:
            foreign.append((scryfall_code(entry["language"]), entry["name"]))
        except KeyError as exc:
            raise SourceError(path, str(exc.args[0]), record=label, field=f"foreignData[{j}].language") from None
    availability = record.get("availability")
    if availability is not None and not (isinstance(availability, list) and all(isinstance(a, str) for a in availability)):
        raise SourceError(path, "expected a list of strings", record=label, field="availability")
    multiverse = _id(ids, "multiverseId", path, label)
    edhrec = record.get("edhrecRank")
    if edhrec is not None and (isinstance(edhrec, bool) or not isinstance(edhrec, (int, float))):
        raise SourceError(path, f"expected a number, got {edhrec!r}", record=label, field="edhrecRank")
    return Printing(
        set_code=str(record["setCode"]), collector_number=str(record.get("number", "")), lang="en",
        set_name=info.get("name"), set_type=info.get("type"), released_at=released,
        rarity=_opt_str(record, "rarity", path, label), artist=_opt_str(record, "artist", path, label),
        games=availability, digital=bool(record.get("isOnlineOnly", False)),
        promo=bool(record.get("isPromo", False)),
        frame=_opt_str(record, "frameVersion", path, label), border_color=_opt_str(record, "borderColor", path, label),
        full_art=bool(record.get("isFullArt", False)),
        scryfall_id=ids.get("scryfallId"), multiverse_ids=[multiverse] if multiverse is not None else None,
        mtgo_id=_id(ids, "mtgoId", path, label), arena_id=_id(ids, "mtgArenaId", path, label),
        tcgplayer_id=_id(ids, "tcgplayerProductId", path, label), cardmarket_id=_id(ids, "mcmId", path, label),
        mtgjson_uuid=_opt_str(record, "uuid", path, label),
        legalities=dict(legalities) if legalities is not None else None,
        foreign_names=foreign,
        is_funny=bool(record.get("isFunny", False)),
        reserved=bool(record.get("isReserved", False)),
        edhrec_rank=int(edhrec) if edhrec is not None else None,
    )


def _id(ids: dict, key: str, path, label: str) -> int | None:
    """An MTGJSON identifier (a string of digits) as an int; None when absent."""
    value = ids.get(key)
    if value is None:
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise SourceError(path, f"expected an integer id, got {value!r}", record=label,
                          field=f"identifiers.{key}") from None


def _opt_str(record: dict, key: str, path, label: str) -> str | None:
    value = record.get(key)
    if value is not None and not isinstance(value, str):
        raise SourceError(path, f"expected a string, got {type(value).__name__}", record=label, field=key)
    return value


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
