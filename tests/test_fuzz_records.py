"""Fuzz the normalizers with real-shaped records carrying wrong types (issue 16 § 6).

Each example takes a real record — a Core Set 2020 Scryfall card object of the 2019 corpus or an
Antiquities MTGJSON card record — and puts a value of any JSON type into one of the fields the
normalizer reads (pipeline/sources/records.py), nested card-face and identifier fields included.
Properties: the reader never raises anything but SourceError (and only the file-level kinds);
a record either comes out normalized with every field of the right type, or is quarantined with
one data-quality row naming that field (or a field inside it).

CI runs a few hundred examples; a longer run:
``MTG_FUZZ_EXAMPLES=20000 pytest tests/test_fuzz_records.py -q`` (about 1 ms an example).
"""

from __future__ import annotations

import copy
import os

from hypothesis import HealthCheck, given, settings, strategies as st

from pipeline.normalize.model import OracleCard, OtherObject
from pipeline.sources.errors import SourceError
from pipeline.sources.mtgjson import MtgjsonFace, _checked, face_from_mtgjson
from pipeline.sources.records import Flagged, MtgjsonCard, ScryfallCard, model_fields
from pipeline.sources.scryfall import checked_card
from tests.conftest import mtgjson_set
from tests.test_download_http import m20_cards

EXAMPLES = int(os.environ.get("MTG_FUZZ_EXAMPLES", "300"))

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**63) | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8)

SCRYFALL_FIELDS = [f for f in model_fields(ScryfallCard) if f != "object"]
MTGJSON_FIELDS = model_fields(MtgjsonCard)

# File-level refusals the readers are documented to raise (docs/reliability.md § Quarantine).
FILE_LEVEL = ("game card without an oracle id", "card face is not an object", "no oracle id", "missing card name",
              "expected a list", "not an object")


def put(record: dict, path: str, value) -> dict:
    """``record`` with ``value`` at the field ``path`` ('card_faces[].name': every face's name)."""
    out = copy.deepcopy(record)
    head, _, rest = path.partition(".")
    if not rest:
        out[head.removesuffix("[]")] = value
    elif head.endswith("[]"):
        items = out.get(head[:-2])
        if isinstance(items, list) and items and all(isinstance(i, dict) for i in items):
            out[head[:-2]] = [put(i, rest, value) for i in items]
        else:
            out[head[:-2]] = [put({}, rest, value)]
    else:
        inner = out.get(head) if isinstance(out.get(head), dict) else {}
        out[head] = put(inner, rest, value)
    return out


def check_card_types(card: OracleCard) -> None:
    assert isinstance(card.oracle_id, str) and isinstance(card.name, str) and isinstance(card.layout, str)
    assert card.mana_cost is None or isinstance(card.mana_cost, str)
    assert card.mana_value is None or (isinstance(card.mana_value, float) and card.mana_value == card.mana_value)
    for letters in (card.colors, card.color_identity):
        assert isinstance(letters, list) and all(c in "WUBRG" for c in letters)
    assert all(isinstance(k, str) for k in card.keywords)
    assert card.source_produced_mana is None or all(isinstance(m, str) for m in card.source_produced_mana)
    for face in card.faces:
        assert isinstance(face.name, str) and isinstance(face.oracle_text, str)
        for v in (face.mana_cost, face.type_line, face.power, face.toughness, face.loyalty, face.defense):
            assert v is None or isinstance(v, str)


def run(items, field: str) -> None:
    try:
        out = list(items)
    except SourceError as exc:
        assert any(k in exc.reason for k in FILE_LEVEL), exc
        return
    flags = [o for o in out if isinstance(o, Flagged)]
    for flag in flags:
        assert flag.issue.field.split(".")[0].split("[")[0] == field.split(".")[0].removesuffix("[]"), (field, flag)
    for o in out:
        if isinstance(o, OracleCard):
            check_card_types(o)
        elif isinstance(o, MtgjsonFace):
            assert o.card.oracle_id is None or isinstance(o.card.oracle_id, str)
            check_card_types(o.card) if o.card.oracle_id else None
        elif isinstance(o, OtherObject):
            assert isinstance(o.name, str) and isinstance(o.oracle_text, str)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 40), field=st.sampled_from(SCRYFALL_FIELDS), value=json_values)
def test_scryfall_records_with_any_value_in_any_field(index, field, value):
    record = put(dict(m20_cards()[index]), field, value)
    run(checked_card(record, "cards.jsonl", index), field)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 40), field=st.sampled_from(MTGJSON_FIELDS), value=json_values)
def test_mtgjson_records_with_any_value_in_any_field(index, field, value):
    record = put(dict(mtgjson_set("ATQ")["data"]["cards"][index]), field, value)
    run(_checked(face_from_mtgjson, record, "ATQ.json", f"ATQ cards#{index}"), field)
