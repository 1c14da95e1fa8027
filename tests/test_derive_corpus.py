"""Invariants of produced mana over every card of the bundled snapshot (4,372 real cards)."""

from __future__ import annotations

import re

import pytest

from pipeline.derive.mana import COLOR_ORDER, face_mana, mana_ability_rows
from pipeline.normalize.ingest import collect
from pipeline.parse import parse_face
from pipeline.paths import BUNDLED_CARDS

pytestmark = [pytest.mark.slow, pytest.mark.corpus]

_REMINDER = re.compile(r" ?\([^()]*\)")


@pytest.fixture(scope="module")
def cards():
    collection, _ = collect([BUNDLED_CARDS])
    return sorted(collection.cards.values(), key=lambda c: c.name)


def _face(face, text):
    return face_mana([a.to_json() for a in parse_face(text, name=face.name, type_line=face.type_line or "")],
                     face.type_line)


def test_produced_mana_is_the_union_of_rows_in_wubrgc_order(cards):
    for card in cards:
        for face in card.faces:
            fm = _face(face, face.oracle_text)
            assert fm.produced == [c for c in COLOR_ORDER if c in fm.produced], card.name
            rows = mana_ability_rows(fm)
            assert fm.produced == [c for c in COLOR_ORDER if any(c in r["produces"] for r in rows)], card.name
            assert all(r["production_kind"] for r in rows), card.name


def test_reminder_text_never_changes_produced_mana_cr_207_2a(cards):
    changed = []
    for card in cards:
        for face in card.faces:
            stripped = _REMINDER.sub("", face.oracle_text)
            if stripped == face.oracle_text:
                continue
            a, b = _face(face, face.oracle_text), _face(face, stripped)
            if (a.produced, a.token, a.granted) != (b.produced, b.token, b.granted):
                changed.append((card.name, a.produced, b.produced))
    assert changed == []
