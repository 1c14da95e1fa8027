"""Token creation lines that round-trip (CR 111): a creature token written without a P/T because a
characteristic-defining ability of its own sets them (CR 604.3, 111.4). Real card text, verbatim
(oracle-2026)."""

from __future__ import annotations

from pipeline.parse import ast as A
from pipeline.parse import parse_face


def _token(text: str, name: str, type_line: str) -> A.CreateToken:
    (ab,) = parse_face(text, name=name, type_line=type_line)
    assert ab.fully_parsed, ab.to_json()["render_mismatch"]
    (t,) = [n for n in ab.body.walk() if isinstance(n, A.CreateToken)]
    return t


def test_token_whose_pt_its_ability_defines():  # Wrenn and Seven (CR 604.3)
    t = _token('[−3]: Create a green Treefolk creature token with reach and "This token\'s power and toughness are '
               'each equal to the number of lands you control."', "Wrenn and Seven", "Legendary Planeswalker — Wrenn")
    assert t.pt is None and t.words == ["green", "Treefolk", "creature"]
    reach, cda = t.abilities
    assert reach.name == "reach"
    (act,) = [n for n in cda.walk() if isinstance(n, A.Action)]
    assert act.verb == "characteristic" and act.extra == {"what": "power_toughness"}
    assert act.amount.ref.words == ["lands"] and act.amount.ref.qualifiers == ["you_control"]


def test_two_color_token_whose_pt_its_ability_defines():  # Voice of Resurgence
    t = _token("Whenever an opponent casts a spell during your turn and when this creature dies, create a green and "
               "white Elemental creature token with \"This token's power and toughness are each equal to the number of "
               "creatures you control.\"", "Voice of Resurgence", "Creature — Elemental")
    assert t.pt is None and t.words == ["green", "and", "white", "Elemental", "creature"]

