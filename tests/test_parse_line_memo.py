"""The line memo (pipeline/parse/line_memo.py) gives exactly the abilities a parse without it gives."""

from __future__ import annotations

import pytest

from pipeline.normalize.ingest import collect
from pipeline.parse import parse_face
from pipeline.parse.line_memo import LineMemo
from pipeline.paths import BUNDLED_CARDS


@pytest.fixture(scope="module")
def bundled_faces():
    collection, _ = collect([BUNDLED_CARDS])
    cards = sorted(collection.cards.values(), key=lambda c: (c.name, c.oracle_id))
    return {f.name: f for c in cards for f in c.faces}


def _json(face, memo=None):
    return [a.to_json() for a in parse_face(face.oracle_text, name=face.name, type_line=face.type_line or "",
                                            memo=memo)]


def test_memo_gives_the_same_abilities_on_real_faces(bundled_faces):
    faces = list(bundled_faces.values())[:700]
    memo = LineMemo()
    with_memo = [_json(f, memo) for f in faces]
    assert with_memo == [_json(f) for f in faces]
    # lines repeated across these faces ("~ enters tapped.", "{T}: Add {C}.", "Flying") come from the memo
    assert memo.hits > 50


def test_a_line_of_a_spell_and_of_a_permanent_keeps_each_kind(bundled_faces):
    # CR 608.2: an instant's or sorcery's text is its spell ability; the same line on an Aura is static
    names = ("Grafted Identity", "Bone Splinters", "Burnt Offering")
    line = "As an additional cost to cast ~, sacrifice a creature."
    memo = LineMemo()
    kinds = {}
    for _ in range(3):  # the third round is answered from the memo for every face
        for name in names:
            face = bundled_faces[name]
            got = _json(face, memo)
            assert got == _json(face)
            kinds[name] = next(a["kind"] for a in got if a["normalized"] == line)
            assert next(a["text"] for a in got if a["normalized"] == line) in face.oracle_text.split("\n")
    assert kinds == {"Grafted Identity": "static", "Bone Splinters": "spell", "Burnt Offering": "spell"}
    assert memo.hits >= len(names)
