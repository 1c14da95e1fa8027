"""Fuzzing the oracle parser: oracle-like text rebuilt from real fragments never crashes it and
never loses text (issue 9, docs/reliability.md § Fuzzing).

The strategies below cut the real Oracle lines of the bundled snapshot (MTGJSON 2022 subset,
4,372 cards) into whole lines, clauses, words and symbols, then recombine, mutate and
truncate them, and mix in hostile characters (NUL, lone surrogates' neighbours, CR, NBSP,
unbalanced brackets/quotes, stray bullets and level lines). The same strategies drive the
long run: ``python tools/fuzz_long.py --n 100000`` (outside CI).

Properties checked for every input (``check_face``):

* ``parse_face`` returns a list of :class:`Ability` and raises nothing; so does ``parse_line``
  for each ability block (its docstring says "Never raises"; ``parse_face``'s own catch-all
  would otherwise hide a crash);
* the abilities' ``text`` joined with newlines is exactly the input's non-blank lines;
* each ability's ``pieces`` tile its ``normalized`` line exactly (offsets and text);
* ``normalized`` is the documented normalisation of ``text``;
* every ``Unparsed`` node's text occurs in the line's body pieces (modulo whitespace, case and
  quote style: reminder text is cut out into ``reminders``), ``no_unparsed``
  is true exactly when the AST has no ``Unparsed`` node, and ``fully_parsed`` exactly when
  moreover the rendering gives back the text (no ``render_mismatch``); an ability whose body
  is empty is only reminder text;
* the AST serialises to JSON (the store writes ``to_json()``).
"""

from __future__ import annotations

import gzip
import json
import random
import re
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.parse.render import canon, expected_text
from pipeline.parse import ABILITY_KINDS, Ability, parse_face
from pipeline.parse import ast as A
from pipeline.parse.normalize import normalize_chars, normalize_wording, self_names
from pipeline.parse import parser as P
from pipeline.parse.segment import ability_blocks
from pipeline.paths import BUNDLED_CARDS

# --------------------------------------------------------------------------- real fragments


@lru_cache(maxsize=1)
def real_faces() -> tuple[tuple[str, str, str], ...]:
    """(oracle text, face name, type line) of every distinct face of the bundled snapshot."""
    with gzip.open(BUNDLED_CARDS, "rt", encoding="utf-8") as fh:
        data = json.load(fh)["data"]
    seen: dict[str, tuple[str, str, str]] = {}
    for s in data.values():
        for card in s.get("cards", []):
            text = card.get("text")
            if text and text not in seen:
                seen[text] = (text, card.get("faceName") or card["name"], card.get("type", ""))
    return tuple(sorted(seen.values()))


_SYMBOL_RE = re.compile(r"\{[^{}]*\}")
_CLAUSE_RE = re.compile(r"[^,.:;—•()\"]+[,.:;—•()\"]?")


@lru_cache(maxsize=1)
def fragments() -> dict[str, tuple[str, ...]]:
    """Real pieces of Oracle text: lines, clauses, words, symbols, names and type lines."""
    lines, clauses, words, symbols, names, types = set(), set(), set(), set(), set(), set()
    for text, name, type_line in real_faces():
        names.add(name)
        types.add(type_line)
        for line in text.split("\n"):
            lines.add(line)
            clauses.update(c.strip() for c in _CLAUSE_RE.findall(line) if c.strip())
            words.update(line.split())
            symbols.update(_SYMBOL_RE.findall(line))
    return {k: tuple(sorted(v)) for k, v in dict(lines=lines, clauses=clauses, words=words, symbols=symbols,
                                                  names=names, types=types).items()}


#: Characters and marks that carry structure in Oracle text, plus hostile ones.
SPECIALS = ("\n", "\n\n", "\r\n", "\r", "•", "• ", " — ", "—", "−", "–", "(", ")", "((", '"', "'", "“", "”",
            "{", "}", "{}", "[", "]", "[−2]:", "[+1]:", ": ", ":", ".", ". ", ", ", "\u00a0", "\t", "\x00",
            "\ufeff", "\u200b", "\U0001f600", "\ufffd", "LEVEL 1-3", "LEVEL 4+", "1/1", "I, II — ", "IV — ",
            "+1: ", "−X: ", "0: ", "~", "CARDNAME", "\\", "$", "%s", "{{", "}}", "{T}{", "{2/W", "Level 2")

SEPARATORS = (" ", " ", " ", "", ", ", ". ", ": ", " — ", "\n", " (", ") ")


class Draw:
    """The choices a generator makes, so one recipe serves hypothesis (shrinkable, CI) and a
    seeded ``random.Random`` (fast, the long run): ``pick(seq)``, ``integer(lo, hi)``,
    ``coin()``, ``text(max_size)``."""

    def __init__(self, data=None, rng: random.Random | None = None):
        self.data, self.rng = data, rng

    def pick(self, seq):
        return self.data.draw(st.sampled_from(seq)) if self.data else self.rng.choice(seq)

    def integer(self, lo: int, hi: int) -> int:
        return self.data.draw(st.integers(lo, hi)) if self.data else self.rng.randint(lo, hi)

    def coin(self) -> bool:
        return self.integer(0, 1) == 1

    def text(self, max_size: int) -> str:
        if self.data:
            return self.data.draw(st.text(max_size=max_size))
        n = self.rng.randint(0, max_size)
        pool = self.rng.choice((_ASCII, _ANY))
        return "".join(chr(pool(self.rng)) for _ in range(n))


_ASCII = lambda rng: rng.randint(32, 126)  # noqa: E731
_ANY = lambda rng: rng.choice((rng.randint(0, 0x7f), rng.randint(0x80, 0x2fff), rng.randint(0xe000, 0x10ffff)))  # noqa: E731


def fragment(d: Draw) -> str:
    """One piece: a real line, clause, word or symbol, a hostile special, or arbitrary text."""
    kind = d.pick(("lines", "clauses", "words", "words", "symbols", "specials", "text"))
    if kind == "specials":
        return d.pick(SPECIALS)
    if kind == "text":
        return d.text(8)
    return d.pick(fragments()[kind])


def recombined_line(d: Draw) -> str:
    """Real fragments joined with real separators."""
    out = fragment(d)
    for _ in range(d.integer(0, 9)):
        out += d.pick(SEPARATORS) + fragment(d)
    return out


def mutated_line(d: Draw) -> str:
    """A real Oracle line with words swapped, dropped, duplicated or replaced, then maybe cut short."""
    words = d.pick(fragments()["lines"]).split(" ")
    for _ in range(d.integer(0, 4)):
        i = d.integer(0, len(words) - 1)
        op = d.pick(("drop", "dup", "swap", "replace", "insert"))
        if op == "drop" and len(words) > 1:
            words.pop(i)
        elif op == "dup":
            words.insert(i, words[i])
        elif op == "swap":
            j = d.integer(0, len(words) - 1)
            words[i], words[j] = words[j], words[i]
        elif op == "replace":
            words[i] = fragment(d)
        elif op == "insert":
            words.insert(i, fragment(d))
    line = " ".join(words)
    if d.coin():
        line = line[:d.integer(0, len(line))]
    return line


def oracle_line(d: Draw) -> str:
    """One line of oracle-like text: a real line, a mutated one (twice as often) or a recombined one."""
    how = d.pick(("real", "mutated", "mutated", "recombined"))
    if how == "real":
        return d.pick(fragments()["lines"])
    return mutated_line(d) if how == "mutated" else recombined_line(d)


def make_face(d: Draw) -> tuple[str, str, str]:
    """(oracle text, face name, type line): 1–4 lines, sometimes blank- or CRLF-joined; names and
    type lines are real ones, or fragments, or arbitrary text."""
    lines = [oracle_line(d) for _ in range(d.integer(1, 4))]
    text = d.pick(("\n", "\n", "\n", "\n\n", "\r\n")).join(lines)
    name = d.pick(fragments()["names"]) if d.integer(0, 3) else (d.pick(fragments()["words"]) if d.coin()
                                                               else d.text(20))
    type_line = d.pick(fragments()["types"]) if d.integer(0, 3) else d.text(20)
    return text, name, type_line


def face_from_seed(seed: int) -> tuple[str, str, str]:
    """The same recipe driven by ``random.Random(seed)``: fast and reproducible (tools/fuzz_long.py)."""
    return make_face(Draw(rng=random.Random(seed)))


# --------------------------------------------------------------------------- the properties

_WS = re.compile(r"\s+")


def _squash(s: str) -> str:
    return _WS.sub(" ", s).strip()


class ParseLineRaised(AssertionError):
    """``parse_line`` raised inside ``parse_face`` (whose catch-all would have hidden it)."""


class _Escape(BaseException):
    """Carries a ``parse_line`` exception past ``parse_face``'s ``except Exception``."""


def _parse_face_watched(text: str, name: str, type_line: str) -> list[Ability]:
    """``parse_face``, with ``parse_line`` watched: an exception it raises fails the check as
    :class:`ParseLineRaised` instead of being turned into an Unparsed line by the catch-all."""
    original = P.parse_line

    def watched(*args, **kwargs):
        try:
            return original(*args, **kwargs)
        except Exception as exc:
            raise _Escape(exc) from exc

    P.parse_line = watched
    try:
        return parse_face(text, name=name, type_line=type_line)
    except _Escape as escaped:
        exc = escaped.args[0]
        raise ParseLineRaised(f"parse_line raised {type(exc).__name__}: {exc}") from exc
    finally:
        P.parse_line = original


def check_face(text: str, name: str, type_line: str) -> list[Ability]:
    """Assert every property in the module docstring for one input; return the abilities."""
    abilities = _parse_face_watched(text, name, type_line)
    assert isinstance(abilities, list) and all(isinstance(a, Ability) for a in abilities)
    blocks = ability_blocks(text)
    assert "\n".join(a.text for a in abilities) == "\n".join(l for l in text.split("\n") if l.strip())
    assert [a.text for a in abilities] == blocks
    names = self_names(name, type_line)
    for i, (a, block) in enumerate(zip(abilities, blocks)):
        assert a.index == i and a.kind in ABILITY_KINDS
        assert a.normalized == normalize_wording(normalize_chars(a.text), names)
        pos = 0
        for p in a.pieces:
            assert p.start == pos and p.end >= p.start and p.text == a.normalized[p.start:p.end]
            pos = p.end
        assert pos == len(a.normalized)
        nodes = list(a.body.walk())
        unparsed = [n for n in nodes if isinstance(n, A.Unparsed)]
        assert a.no_unparsed == (not unparsed)
        # fully parsed = the round trip (docs/ast.md § Rendering): never with an Unparsed node,
        # and exactly when no mismatch is recorded
        assert a.fully_parsed == (a.no_unparsed and a.render_mismatch is None)
        if a.fully_parsed and a.kind != "reminder":
            assert canon(a.rendered) == expected_text(a)
        body = " ".join(p.text for p in a.pieces if p.role == "body")  # reminders and ability word cut out
        flat = _squash(body).lower().replace("'", '"')
        for u in unparsed:
            assert _squash(u.text).lower().replace("'", '"') in flat, (u.text, a.normalized)
        for r in a.reminders:
            assert r in a.normalized
        json.dumps(a.to_json())
    return abilities


# --------------------------------------------------------------------------- the CI run


def test_fragments_come_from_real_cards():
    f = fragments()
    assert "{T}: Add {G}." in f["lines"]  # Llanowar Elves
    assert "{T}" in f["symbols"] and "Flying" in f["words"]
    assert len(f["lines"]) > 3000 and len(f["words"]) > 3000


def test_real_lines_keep_their_text():
    """Every face of the bundled snapshot satisfies the properties (the fuzzer's starting point)."""
    for text, name, type_line in real_faces():
        check_face(text, name, type_line)


@settings(max_examples=300, deadline=None, derandomize=False,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_fuzz_parse_face_never_raises_and_keeps_text(data):
    """Hypothesis drives the recipe (and shrinks a failing face to a small one)."""
    check_face(*make_face(Draw(data=data)))


def test_seeded_faces_are_reproducible_and_varied():
    """The long run's generator: the same seed gives the same face; faces differ and mix kinds."""
    assert face_from_seed(7) == face_from_seed(7)
    faces = [face_from_seed(s) for s in range(300)]
    assert len({f[0] for f in faces}) > 290
    assert any("\x00" in f[0] for f in faces) or any("\r" in f[0] for f in faces)
    for face in faces:
        check_face(*face)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=200), st.text(max_size=30))
def test_fuzz_arbitrary_unicode(text, name):
    check_face(text, name, "")


def test_check_face_sees_a_crash_that_parse_face_would_hide(monkeypatch):
    """The watch on parse_line is what makes "no exception escapes" checkable at all."""
    def crashing_parse_line(*args, **kwargs):
        raise KeyError("boom")

    monkeypatch.setattr(P, "parse_line", crashing_parse_line)
    (hidden,) = parse_face("Flying", name="Birds of Paradise")  # the catch-all turns the crash into Unparsed
    assert hidden.kind == "other" and isinstance(hidden.body, A.Unparsed)
    with pytest.raises(ParseLineRaised, match="KeyError"):
        check_face("Flying", "Birds of Paradise", "Creature — Bird")
