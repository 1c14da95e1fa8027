"""Hypothesis properties of parse_face: never raises on any string; the pieces each Ability
keeps tile its normalised line, so the normalised input is rebuilt from the kept spans."""

from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from pipeline.parse import parse_face
from pipeline.parse.normalize import normalize_text

FRAGMENTS = ["{T}", ": ", "Add ", "{G}", " or ", "{R}", ".", " (reminder)", "\n", "• ", "Choose one —", "When ",
             "~", " enters the battlefield", ", ", "draw a card", "Flying", "−2: ", "[+1]: ", "\"", "'", "I, II — ",
             "LEVEL 1-3", "3/3", "target creature", "copy of", "(", ")", "Equip {2}", "—", "X"]

texts = st.one_of(st.text(max_size=200), st.lists(st.sampled_from(FRAGMENTS), max_size=25).map("".join))


@settings(max_examples=300, deadline=None)
@given(texts, st.sampled_from(["Llanowar Elves", "Adeline, Resplendent Cathar", "Fire // Ice", "", "~"]))
def test_never_raises_and_pieces_rebuild(text, name):
    abilities = parse_face(text, name=name, type_line="Creature")
    blocks = [l for l in text.split("\n") if l.strip()]
    assert "\n".join(a.text for a in abilities).split("\n") == "\n".join(blocks).split("\n")
    for a in abilities:
        assert "".join(p.text for p in a.pieces) == a.normalized
        assert all(a.normalized[p.start:p.end] == p.text for p in a.pieces)
        assert a.normalized == normalize_text(a.text, name, "Creature")
        json.dumps(a.to_json())
