"""Types checked at the boundary: every source field the normalizer reads, validated before it reads it.

Each source record shape has a pydantic model below listing the fields the normalizer reads,
with their JSON types (strict: no coercion — ``3`` is not a string, ``"3"`` not a number,
``true`` not a number; NaN and infinities are not numbers). Unknown fields are ignored; absent
fields are None. :func:`check_record` validates one record against its model *before* the
normalizer touches it, so the normalizer may then rely on the types.

**What a bad field does** (docs/reliability.md § Validated fields lists every field):

* the default — **quarantine the record**: the record is left out of the build and one
  ``data_quality`` row names file, record, field and value (:class:`RecordInvalid`; the refresh
  keeps the card's previous version if it had one, and ``refresh --strict`` fails instead);
* fields in a model's ``IGNORE`` set — **ignore the value**: the record is loaded without that
  field (as if absent) and a ``data_quality`` row with action ``ignored`` says so;
* the file is rejected (not here: :mod:`pipeline.sources.json_stream`, the readers) when it is not
  JSON, is truncated, holds no records or holds records of another kind (``object`` not ``card``).

**Adding a field** the normalizer reads: add it to the model with its type (``str | None = None``
for an optional string, ``StrList`` for a list of strings, ``Number`` for a JSON number,
``Colors`` for WUBRG letters, a nested model for an object), add its row to docs/reliability.md
§ Validated fields (a test checks every model field is listed there), and read it in the
normalizer as usual. Validation cost is measured on the MTGJSON corpus (``benchmarks/validation.py``).
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from pipeline.normalize.languages import MTGJSON_LANGUAGES
from pipeline.sources.errors import SourceError
from pipeline.store.data_quality import DataQualityIssue

Color = Literal["W", "U", "B", "R", "G"]
Colors = list[Color] | None
StrList = list[str] | None
def _iso_date(value: str) -> str:
    date.fromisoformat(value)  # ValueError → a validation error naming the field
    return value


#: A date as Scryfall and MTGJSON write it: 'YYYY-MM-DD' (checked: '2019-02-30' is refused).
IsoDate = Annotated[str, AfterValidator(_iso_date)]
#: An MTGJSON numeric identifier: a string of digits (read as an int).
DigitString = Annotated[str, Field(pattern=r"^[0-9]{1,18}$")]
#: A JSON number (int or float; not bool, not NaN/±inf).
Number = Annotated[float, Field(allow_inf_nan=False)] | None

_STRICT = ConfigDict(strict=True, extra="ignore", frozen=True, allow_inf_nan=False)


class Record(BaseModel):
    """Base of every source record model: strict types, unknown fields ignored.

    ``IGNORE``: names of top-level fields whose bad value is dropped (record kept) instead of
    quarantining the record.
    """

    model_config = _STRICT
    IGNORE: ClassVar[frozenset[str]] = frozenset()


# -- Scryfall (https://scryfall.com/docs/api/cards) -------------------------------------------------

#: Printing metadata (set, ids, images, prices, legalities…): a bad value is dropped, the card kept.
_SCRYFALL_PRINTING = frozenset({
    "id", "set_name", "set_type", "released_at", "rarity", "artist", "printed_name", "games", "digital", "promo",
    "frame", "border_color", "full_art", "multiverse_ids", "mtgo_id", "arena_id", "tcgplayer_id", "cardmarket_id",
    "image_uris", "prices", "legalities", "reserved", "edhrec_rank", "all_parts"})


class ScryfallImageUris(Record):
    """Scryfall ``image_uris`` (card or face): one URI per image size."""

    small: str | None = None
    normal: str | None = None
    large: str | None = None
    png: str | None = None
    art_crop: str | None = None
    border_crop: str | None = None


class ScryfallPrices(Record):
    """Scryfall ``prices``: decimal strings or null."""

    usd: str | None = None
    usd_foil: str | None = None
    eur: str | None = None
    tix: str | None = None


ScryfallLegality = Literal["legal", "not_legal", "banned", "restricted"]


class ScryfallRelated(Record):
    """Scryfall ``all_parts[i]`` (a related card object; the fields read)."""

    component: str | None = None
    name: str | None = None


class ScryfallFace(Record):
    """A Scryfall card face object (``card_faces[i]``)."""

    oracle_id: str | None = None
    name: str | None = None
    mana_cost: str | None = None
    type_line: str | None = None
    oracle_text: str | None = None
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    defense: str | None = None
    colors: Colors = None
    printed_name: str | None = None
    artist: str | None = None
    image_uris: ScryfallImageUris | None = None


class ScryfallCard(Record):
    """A Scryfall card object, as read by :func:`pipeline.sources.scryfall.card_from_scryfall`."""

    IGNORE: ClassVar[frozenset[str]] = frozenset({"produced_mana"}) | _SCRYFALL_PRINTING

    object: str | None = None
    oracle_id: str | None = None
    name: str | None = None
    layout: str | None = None
    mana_cost: str | None = None
    cmc: Number = None
    type_line: str | None = None
    oracle_text: str | None = None
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    defense: str | None = None
    colors: Colors = None
    color_identity: Colors = None
    keywords: StrList = None
    produced_mana: StrList = None
    card_faces: list[ScryfallFace] | None = None
    set: str | None = None
    collector_number: str | None = None
    lang: str | None = None
    id: str | None = None
    set_name: str | None = None
    set_type: str | None = None
    released_at: IsoDate | None = None
    rarity: str | None = None
    artist: str | None = None
    printed_name: str | None = None
    games: StrList = None
    digital: bool | None = None
    promo: bool | None = None
    frame: str | None = None
    border_color: str | None = None
    full_art: bool | None = None
    multiverse_ids: list[int] | None = None
    mtgo_id: int | None = None
    arena_id: int | None = None
    tcgplayer_id: int | None = None
    cardmarket_id: int | None = None
    image_uris: ScryfallImageUris | None = None
    prices: ScryfallPrices | None = None
    legalities: dict[str, ScryfallLegality] | None = None
    reserved: bool | None = None
    edhrec_rank: int | None = None
    all_parts: list[ScryfallRelated] | None = None


class ScryfallRuling(Record):
    """A Scryfall ruling object (rulings bulk file)."""

    object: str | None = None
    oracle_id: str
    source: str | None = None
    published_at: IsoDate
    comment: str


# -- MTGJSON v5 (https://mtgjson.com/data-models/card/) ---------------------------------------------

class MtgjsonIdentifiers(Record):
    """MTGJSON ``identifiers`` (only the fields read)."""

    scryfallOracleId: str | None = None
    scryfallId: str | None = None
    multiverseId: DigitString | None = None
    mtgoId: DigitString | None = None
    mtgArenaId: DigitString | None = None
    tcgplayerProductId: DigitString | None = None
    mcmId: DigitString | None = None


class MtgjsonRuling(Record):
    """MTGJSON ``rulings[i]``: ``{date: 'YYYY-MM-DD', text}``."""

    date: IsoDate
    text: str


class MtgjsonForeign(Record):
    """MTGJSON ``foreignData[i]`` (the fields read): a language MTGJSON names, and the printed name."""

    language: Literal[tuple(MTGJSON_LANGUAGES)]  # type: ignore[valid-type]
    name: str


class MtgjsonLeadership(Record):
    """MTGJSON ``leadershipSkills``: which commander-like roles the card may take."""

    brawl: bool | None = None
    commander: bool | None = None
    oathbreaker: bool | None = None


MtgjsonLegality = Literal["Legal", "Not Legal", "Banned", "Restricted"]


class MtgjsonCard(Record):
    """An MTGJSON card, atomic card or token record, as read by :mod:`pipeline.sources.mtgjson`."""

    #: Printing metadata: a bad value is dropped, the card kept.
    IGNORE: ClassVar[frozenset[str]] = frozenset({
        "rarity", "artist", "availability", "isOnlineOnly", "isPromo", "frameVersion", "borderColor", "isFullArt",
        "uuid", "legalities", "foreignData", "isFunny", "isReserved", "edhrecRank", "leadershipSkills",
        "originalReleaseDate"})

    name: str | None = None
    faceName: str | None = None
    layout: str | None = None
    side: str | None = None
    text: str | None = None
    manaCost: str | None = None
    manaValue: Number = None
    convertedManaCost: Number = None
    type: str | None = None
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    defense: str | None = None
    colors: Colors = None
    colorIdentity: Colors = None
    keywords: StrList = None
    identifiers: MtgjsonIdentifiers | None = None
    rulings: list[MtgjsonRuling] | None = None
    setCode: str | None = None
    number: str | None = None
    rarity: str | None = None
    artist: str | None = None
    availability: StrList = None
    isOnlineOnly: bool | None = None
    isPromo: bool | None = None
    frameVersion: str | None = None
    borderColor: str | None = None
    isFullArt: bool | None = None
    uuid: str | None = None
    legalities: dict[str, MtgjsonLegality] | None = None
    foreignData: list[MtgjsonForeign] | None = None
    isFunny: bool | None = None
    isReserved: bool | None = None
    edhrecRank: Number = None
    leadershipSkills: MtgjsonLeadership | None = None
    originalReleaseDate: IsoDate | None = None


class RecordInvalid(SourceError):
    """One record failed validation and is quarantined; ``issue`` is its ``data_quality`` row (action 'quarantined')."""

    def __init__(self, path, reason: str, *, record: str, field: str, issue: DataQualityIssue):
        super().__init__(path, reason, record=record, field=field)
        self.issue = issue


def field_path(loc: tuple) -> str:
    """A pydantic error location as a source field path: ``('card_faces', 1, 'mana_cost')`` → ``card_faces[1].mana_cost``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(record)"


def _value_at(obj: Any, loc: tuple) -> Any:
    for part in loc:
        try:
            obj = obj[part]
        except (KeyError, IndexError, TypeError):
            return None
    return obj


_EXPECT = {
    "string_type": "expected a string", "float_type": "expected a number", "finite_number": "expected a finite number",
    "list_type": "expected a list", "model_type": "expected an object", "dict_type": "expected an object",
    "literal_error": "expected one of W, U, B, R, G", "missing": "missing", "value_error": "not a date (YYYY-MM-DD)",
    "string_pattern_mismatch": "expected a string of digits",
}


def _reason(error: dict) -> str:
    value = error.get("input")
    shown = repr(value)
    if len(shown) > 60:
        shown = shown[:59] + "…"
    what = _EXPECT.get(error["type"], error["msg"])
    return f"{what}, got {type(value).__name__} {shown}" if error["type"] != "missing" else what


def check_record(model: type[Record], obj: dict, path, label: str) -> tuple[dict, list[DataQualityIssue]]:
    """Validate one source record (a dict) against ``model``; return (record to normalize, ignored-value issues).

    The returned record is ``obj`` itself when valid, or a shallow copy without the fields of
    ``model.IGNORE`` that failed (one ``ignored`` issue each). Raises :class:`RecordInvalid`
    (one line: file, record, field, what was expected and what came) for any other failure,
    naming the first bad field.
    """
    try:
        model.model_validate(obj)
        return obj, []
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
    oracle_id = _oracle_id(obj)
    ignored = [e for e in errors if e["loc"] and e["loc"][0] in model.IGNORE]
    if len(ignored) == len(errors):
        keys = {e["loc"][0] for e in ignored}
        kept = {k: v for k, v in obj.items() if k not in keys}
        issues = [DataQualityIssue(str(path), label, oracle_id, k, obj.get(k), "ignored") for k in sorted(keys)]
        return kept, issues
    first = next(e for e in errors if not (e["loc"] and e["loc"][0] in model.IGNORE))
    name = field_path(first["loc"])
    issue = DataQualityIssue(str(path), label, oracle_id, name, _value_at(obj, first["loc"]), "quarantined")
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    raise RecordInvalid(path, _reason(first) + more, record=label, field=name, issue=issue)


def _oracle_id(obj: dict) -> str | None:
    """The record's oracle_id where it is a string (Scryfall top level or first face; MTGJSON identifiers)."""
    value = obj.get("oracle_id")
    if isinstance(value, str):
        return value
    identifiers = obj.get("identifiers")
    if isinstance(identifiers, dict) and isinstance(identifiers.get("scryfallOracleId"), str):
        return identifiers["scryfallOracleId"]
    faces = obj.get("card_faces")
    if isinstance(faces, list) and faces and isinstance(faces[0], dict) and isinstance(faces[0].get("oracle_id"), str):
        return faces[0]["oracle_id"]
    return None


def model_fields(model: type[Record], prefix: str = "") -> list[str]:
    """Every field path a model validates, nested models included (``card_faces[].name``), for the docs test."""
    out = []
    for name, info in model.model_fields.items():
        out.append(prefix + name)
        for nested in (ScryfallFace, ScryfallRelated, ScryfallImageUris, ScryfallPrices, MtgjsonIdentifiers, MtgjsonRuling,
                       MtgjsonForeign, MtgjsonLeadership):
            if nested.__name__ in repr(info.annotation):
                sep = "[]." if "list[" in repr(info.annotation) else "."
                out.extend(model_fields(nested, prefix + name + sep))
    return out


class Flagged:
    """What a reader yields for a record it did not take as given: ``issue`` (its ``data_quality`` row)
    and, for a quarantine, ``reason`` (what was wrong; :meth:`error` makes the one-line error)."""

    __slots__ = ("issue", "reason")

    def __init__(self, issue: DataQualityIssue, reason: str | None = None):
        self.issue, self.reason = issue, reason

    def error(self) -> SourceError:
        """The one-line SourceError naming file, record and field (what ``refresh --strict`` raises)."""
        i = self.issue
        return SourceError(i.source_file or "(source)", self.reason or f"value {i.action}", record=i.record,
                           field=i.field)

    def __repr__(self) -> str:
        return f"Flagged({self.issue!r})"


def gate(model: type[Record], obj: object, path, label: str) -> tuple[object | None, list[Flagged]]:
    """:func:`check_record` for a reader loop: (record to normalize, or None when quarantined; flags to yield).

    A non-dict ``obj`` is passed through unchecked (the normalizer refuses it with its own
    file-level error).
    """
    if not isinstance(obj, dict):
        return obj, []
    try:
        record, ignored = check_record(model, obj, path, label)
    except RecordInvalid as exc:
        return None, [Flagged(exc.issue, exc.reason)]
    return record, [Flagged(issue) for issue in ignored]
