"""Read Scryfall bulk files: card objects (oracle_cards / default_cards / all_cards) and rulings.

Field names follow Scryfall's API documentation (card objects, card face objects, ruling
objects). Unknown fields are ignored; ``produced_mana`` and ``keywords`` (added after 2019)
are optional.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Iterator

from pipeline.normalize.model import (GAME_LAYOUTS, Face, OracleCard, OtherObject, Printing, Ruling,
                                      sort_colors)
from pipeline.sources.errors import SourceError, record_label
from pipeline.sources.json_stream import iter_json_records
from pipeline.sources.records import Flagged, RecordInvalid, ScryfallCard, ScryfallRuling, gate
from pipeline.store.data_quality import DataQualityIssue


def read_scryfall_cards(path: str | Path) -> Iterator[OracleCard | OtherObject | Flagged]:
    """Yield one normalized object per Scryfall card object in ``path`` (any bulk shape, plain or gzip).

    Game cards (layout in GAME_LAYOUTS) → :class:`OracleCard`; other layouts → :class:`OtherObject`.
    A card object with a field of the wrong type (:class:`pipeline.sources.records.ScryfallCard`)
    yields a :class:`Flagged` quarantine instead; an ignored field value yields a ``Flagged``
    before the card. Raises SourceError naming file, record and field for a record that is not a
    card object or a game card without oracle_id.
    """
    for index, obj in iter_json_records(path):
        yield from checked_card(obj, path, index)


def checked_card(obj: object, path, index: int) -> Iterator[OracleCard | OtherObject | Flagged]:
    """Validate one Scryfall card object (:class:`ScryfallCard`), then normalize it — or yield its quarantine."""
    if isinstance(obj, dict) and obj.get("object") == "card":
        obj, flags = gate(ScryfallCard, obj, path, record_label(index, obj))
        yield from flags
        if obj is None:
            return
    yield card_from_scryfall(obj, path, index)


def card_from_scryfall(obj: object, path, index: int) -> OracleCard | OtherObject:
    """Normalize one Scryfall card object (a dict); see :func:`read_scryfall_cards`."""
    label = record_label(index, obj if isinstance(obj, dict) else None)
    if not isinstance(obj, dict) or obj.get("object") != "card":
        kind = obj.get("object") if isinstance(obj, dict) else type(obj).__name__
        raise SourceError(path, f"expected a Scryfall card object, got {kind!r}", record=label, field="object")
    layout = _str(obj, "layout", path, label) or "normal"
    raw_faces = obj.get("card_faces")
    if raw_faces is not None and not isinstance(raw_faces, list):
        raise SourceError(path, "expected a list", record=label, field="card_faces")
    # reversible_card objects carry oracle_id only inside card_faces.
    oracle_id = obj.get("oracle_id") or next(
        (f.get("oracle_id") for f in raw_faces or [] if isinstance(f, dict) and f.get("oracle_id")), None
    )
    name = _str(obj, "name", path, label) or ""
    if layout not in GAME_LAYOUTS:
        text = obj.get("oracle_text")
        if text is None and raw_faces:
            text = "\n//\n".join(f.get("oracle_text") or "" for f in raw_faces if isinstance(f, dict))
        return OtherObject(oracle_id, name, layout, obj.get("type_line"), text or "")
    if not oracle_id:
        raise SourceError(path, "game card without an oracle id", record=label, field="oracle_id")
    if raw_faces:
        faces = [_face(i, f, path, label) for i, f in enumerate(raw_faces)]
    else:
        faces = [_face(0, obj, path, label)]
    colors = obj.get("colors")
    if colors is None:
        colors = sort_colors(c for f in faces for c in (f.colors or []))
    card = OracleCard(
        oracle_id=oracle_id,
        name=name,
        layout=layout,
        mana_cost=_join_costs(faces),
        mana_value=_float(obj, "cmc", path, label),
        type_line=obj.get("type_line") or " // ".join(f.type_line or "" for f in faces),
        colors=sort_colors(colors),
        color_identity=sort_colors(obj.get("color_identity") or []),
        keywords=list(obj.get("keywords") or []),
        faces=faces,
        source_produced_mana=list(obj["produced_mana"]) if isinstance(obj.get("produced_mana"), list) else None,
        source_produced_mana_at=(str(path), label) if isinstance(obj.get("produced_mana"), list) else None,
    )
    card.is_meld_result = layout == "meld" and any(
        isinstance(part, dict) and part.get("component") == "meld_result" and part.get("name") == name
        for part in obj.get("all_parts") or [])
    printing = printing_from_scryfall(obj, raw_faces or [], path, label)
    card.printings[printing.key] = printing
    return card


#: Scryfall image sizes kept per face (``image_uris`` keys), in this order.
IMAGE_SIZES = ("small", "normal", "large", "png", "art_crop", "border_crop")
#: Scryfall ``prices`` keys kept (decimal strings or null).
PRICE_KEYS = ("usd", "usd_foil", "eur", "tix")


def printing_from_scryfall(obj: dict, raw_faces: list, path, label: str) -> Printing:
    """The :class:`Printing` of one Scryfall card object: its set, ids, images, prices and legalities.

    Fields the object lacks (the 2019 file has no ``cardmarket_id``, ``set_type`` on few objects,
    ``prices`` on ~1k) are None. ``is_funny``: set type ``funny`` or a silver border (Un-cards).
    Raises SourceError naming file, record and field for a value of the wrong type or a malformed date
    (legalities are checked beforehand by pipeline/sources/records.py).
    """
    faces = [f for f in raw_faces if isinstance(f, dict)]
    lang = _str(obj, "lang", path, label) or "en"
    printed = _str(obj, "printed_name", path, label)
    if printed is None and any(f.get("printed_name") for f in faces):
        printed = " // ".join(f.get("printed_name") or f.get("name") or "" for f in faces)
    artist = _str(obj, "artist", path, label)
    if artist is None:
        artists = [f["artist"] for f in faces if isinstance(f.get("artist"), str)]
        artist = " & ".join(dict.fromkeys(artists)) or None
    if isinstance(obj.get("image_uris"), dict):
        images = [_images(0, obj["image_uris"])]
    else:
        images = [_images(i, f["image_uris"]) for i, f in enumerate(raw_faces or [])
                  if isinstance(f, dict) and isinstance(f.get("image_uris"), dict)] or None
    prices = obj.get("prices")
    if prices is not None and not isinstance(prices, dict):
        raise SourceError(path, "expected an object", record=label, field="prices")
    legalities = obj.get("legalities")  # format → status, checked by pipeline/sources/records.py
    set_type = _str(obj, "set_type", path, label)
    border = _str(obj, "border_color", path, label)
    multiverse = obj.get("multiverse_ids")
    if multiverse is not None and not (isinstance(multiverse, list) and all(_is_int(i) for i in multiverse)):
        raise SourceError(path, "expected a list of integers", record=label, field="multiverse_ids")
    return Printing(
        set_code=str(obj.get("set", "")), collector_number=str(obj.get("collector_number", "")), lang=lang,
        set_name=_str(obj, "set_name", path, label), set_type=set_type,
        released_at=_date(obj, "released_at", path, label),
        rarity=_str(obj, "rarity", path, label), artist=artist,
        printed_name=printed,
        games=_str_list(obj, "games", path, label),
        digital=_bool(obj, "digital", path, label), promo=_bool(obj, "promo", path, label),
        frame=_str(obj, "frame", path, label), border_color=border, full_art=_bool(obj, "full_art", path, label),
        scryfall_id=_str(obj, "id", path, label), multiverse_ids=multiverse,
        mtgo_id=_int(obj, "mtgo_id", path, label), arena_id=_int(obj, "arena_id", path, label),
        tcgplayer_id=_int(obj, "tcgplayer_id", path, label), cardmarket_id=_int(obj, "cardmarket_id", path, label),
        image_uris=images,
        prices={k: prices.get(k) for k in PRICE_KEYS} if prices is not None else None,
        legalities=dict(legalities) if legalities is not None else None,
        is_funny=set_type == "funny" or border == "silver",
        reserved=_bool(obj, "reserved", path, label),
        edhrec_rank=_int(obj, "edhrec_rank", path, label),
    )


def _images(face_index: int, uris: dict) -> dict:
    return {"face_index": face_index, **{size: uris.get(size) for size in IMAGE_SIZES}}


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(obj: dict, key: str, path, label: str) -> int | None:
    value = obj.get(key)
    if value is not None and not _is_int(value):
        raise SourceError(path, f"expected an integer, got {value!r}", record=label, field=key)
    return value


def _bool(obj: dict, key: str, path, label: str) -> bool | None:
    value = obj.get(key)
    if value is not None and not isinstance(value, bool):
        raise SourceError(path, f"expected true or false, got {value!r}", record=label, field=key)
    return value


def _str_list(obj: dict, key: str, path, label: str) -> list[str] | None:
    value = obj.get(key)
    if value is not None and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        raise SourceError(path, "expected a list of strings", record=label, field=key)
    return value


def _date(obj: dict, key: str, path, label: str) -> date | None:
    value = _str(obj, key, path, label)
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise SourceError(path, f"not a date: {value!r}", record=label, field=key) from None


def _face(index: int, f: object, path, label: str) -> Face:
    if not isinstance(f, dict):
        raise SourceError(path, "card face is not an object", record=label, field=f"card_faces[{index}]")
    text = f.get("oracle_text")
    if text is not None and not isinstance(text, str):
        raise SourceError(path, "expected a string", record=label, field=f"card_faces[{index}].oracle_text")
    return Face(
        face_index=index,
        name=f.get("name") or "",
        mana_cost=f.get("mana_cost") or None,
        type_line=f.get("type_line"),
        oracle_text=text or "",
        power=f.get("power"),
        toughness=f.get("toughness"),
        loyalty=f.get("loyalty"),
        defense=f.get("defense"),
        colors=f.get("colors"),
    )


def _join_costs(faces: list[Face]) -> str | None:
    costs = [f.mana_cost for f in faces if f.mana_cost]
    return " // ".join(costs) if costs else None


def _str(obj: dict, key: str, path, label: str) -> str | None:
    value = obj.get(key)
    if value is not None and not isinstance(value, str):
        raise SourceError(path, f"expected a string, got {type(value).__name__}", record=label, field=key)
    return value


def _float(obj: dict, key: str, path, label: str) -> float | None:
    value = obj.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SourceError(path, f"expected a number, got {value!r}", record=label, field=key)
    return float(value)


def read_scryfall_rulings(path: str | Path) -> Iterator[Ruling | Flagged]:
    """Yield the rulings of a Scryfall rulings bulk file (array or JSON Lines of ruling objects).

    Each object: ``{object: "ruling", oracle_id, source: "wotc"|"scryfall", published_at: "YYYY-MM-DD", comment}``.
    A ruling with a missing or malformed field is quarantined (a :class:`Flagged` is yielded);
    SourceError (file rejected) when a record is not a ruling object.
    """
    for index, obj in iter_json_records(path):
        label = f"#{index}"
        if not isinstance(obj, dict) or obj.get("object") != "ruling":
            raise SourceError(path, "expected a Scryfall ruling object", record=label, field="object")
        obj, flags = gate(ScryfallRuling, obj, path, label)
        yield from flags
        if obj is None:
            continue
        try:
            published = date.fromisoformat(obj["published_at"])
        except ValueError:
            exc = RecordInvalid(path, f"not a date: {obj['published_at']!r}", record=label, field="published_at",
                                issue=DataQualityIssue(str(path), label, obj["oracle_id"], "published_at",
                                                       obj["published_at"], "quarantined"))
            yield Flagged(exc.issue, exc.reason)
            continue
        yield Ruling(obj["oracle_id"], obj.get("source") or "scryfall", published, obj["comment"])
