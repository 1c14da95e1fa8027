"""Transformer rules for ``grammar/tokens.lark``: creating tokens (CR 111).

:class:`TokenRules` is a mixin of :class:`pipeline.parse.transform.ToAst` (methods take
``(meta, children)``; the matched alternative's literal words are in ``self._lits``). It builds
``CreateToken{count, token_name, pt, words, abilities, tapped, attacking}``: ``pt`` "1/1";
``words`` the descriptor words in order (colors, "and", types, CR 111.4); ``abilities`` the
keywords (Keyword) and quoted abilities (ability bodies) after "with" (CR 111.1, 113.1a);
``token_name`` one of the predefined tokens (CR 111.10) when the words are only its name;
``tapped`` "a tapped Powerstone token", ``attacking`` "that's tapped and attacking" (CR 508.4).
``attached_to`` the object an Aura token enters attached to (CR 303.4f); Role tokens (CR
111.10j–r) have ``token_name`` "Monster Role" etc. Wordings the renderer cannot give back stay in
``words`` as markers: ``named:<text>`` (a token name is free text), ``tapped_and_attacking`` (the
older "tokens tapped and attacking" without "that are").
"""

from __future__ import annotations

from lark import Token, Transformer, v_args

from pipeline.parse import ast as A
from pipeline.parse.transform_zones import _first

#: predefined tokens (CR 111.10) by name
PREDEFINED = ("Treasure", "Food", "Clue", "Gold", "Powerstone", "Blood", "Map", "Incubator", "Junk", "Shard",
              "Walker", "Lander", "Mutagen")
#: the Role tokens (CR 111.10j–r), by the name before "Role"
ROLES = ("Cursed", "Monster", "Royal", "Sorcerer", "Virtuous", "Wicked", "Young Hero")


@v_args(meta=True)
class TokenRules(Transformer):
    """Mixin of ToAst for tokens.lark (see the module docstring)."""

    def _token(self, meta, ch, amount=None):
        tapped = "tapped" in self._lits  # "create a tapped Powerstone token"
        self._form_used = True
        cnt = amount or _first(ch, A.Amount) or A.Amount("fixed", value=1)
        words = [c for c in ch if isinstance(c, str)]
        pt = next((w for w in words if "/" in w), None)
        desc = [w for w in words if "/" not in w]
        abilities: list[A.Node] = []
        flags = []
        attacking = False
        whom = None
        for c in ch:
            if isinstance(c, _TokenWith):
                abilities.extend(c.abilities)
                if c.flag == "attacking":
                    tapped = attacking = True
                    whom = c.attached
                elif c.flag:
                    flags.append(c.flag)
        low = [w.lower() for w in desc]
        name = next((cand for cand in PREDEFINED if low == [cand.lower()]), None)
        role = next((c for c in ch if isinstance(c, _Role)), None)
        if role is not None:  # CR 111.10j–r
            name, desc = role.name + " Role", ["Role"]
        attached = next((c.attached for c in ch if isinstance(c, _TokenWith) and c.attached is not None
                         and c.flag != "attacking"), None)
        return A.CreateToken(cnt, name, pt, desc + flags, abilities, self._t(meta), tapped=tapped, attacking=attacking,
                             attached_to=attached, attacking_whom=whom)

    def token_those(self, meta, ch):
        """"create two of those tokens" (the token an earlier instruction described, CR 608.2c)."""
        self._form_used = True
        return A.CreateToken(_first(ch, A.Amount) or A.Amount("fixed", value=1), text=self._t(meta), those=True)

    def tw_tapped_attacking_whom(self, meta, ch):
        """"that's tapped and attacking that opponent" (CR 508.4: the player it attacks)."""
        return _TokenWith([], "attacking", attached=_first(ch, A.Obj))

    def role_name(self, meta, ch):
        words = " ".join(w.lower() for w in self._raw_lits[:-1])
        return _Role(next(r for r in ROLES if r.lower() == words))

    def token_body(self, meta, ch):
        """count, "tapped", descriptor words, "token(s)", what follows: a CreateToken (CR 111.4)."""
        return self._token(meta, ch)

    def token_spec(self, meta, ch):
        return ch[0]

    def _with_count(self, meta, ch, amount) -> A.CreateToken:
        tok = _first(ch, A.CreateToken)
        tok.count, tok.text = amount, self._t(meta)
        return tok

    def token_spec_equal(self, meta, ch):
        a = _first(ch, A.Amount)
        return self._token(meta, [c for c in ch if c is not a],
                           A.Amount("equal_to", ref=a.ref if a else None, text=a.text if a else ""))

    def token_spec_for_each(self, meta, ch):
        t = self._t(meta)
        return self._with_count(meta, ch, A.Amount("for_each", ref=_first(ch, A.Obj), text=t[t.lower().rfind(" for each ") + 1:]))

    def token_spec_for_each_counter(self, meta, ch):
        """"create a 1/1 green Saproling creature token for each +1/+1 counter on ~": the count
        is the counters of one kind on an object (CR 122.1), as ``at_for_each_counter`` reads it."""
        t = self._t(meta)
        each = t.lower().rfind(" for each ")
        amt = self.at_for_each_counter(meta, [c for c in ch if not isinstance(c, A.CreateToken)])
        amt.text = t[each + 1:]
        amt.ref.text = t[each + len(" for each "):]
        return self._with_count(meta, ch, amt)

    def s_where_after_list(self, meta, ch):
        """"… tokens with flying, where X is …": ``s_where`` without the comma terminal."""
        return self.s_where(meta, [c for c in ch if not (isinstance(c, Token) and c.type == "COMMAWHERE")])

    def tw_keywords(self, meta, ch):
        return _TokenWith([k for c in ch for k in (c if isinstance(c, list) else [])])

    def tw_tapped_attacking(self, meta, ch):
        return _TokenWith([], "attacking")

    def tw_tapped_attacking_bare(self, meta, ch):
        return _TokenWith([], "tapped_and_attacking")

    def tw_named(self, meta, ch):
        return _TokenWith([], "named:" + self._rest_text(ch))

    def tw_attached(self, meta, ch):
        """"attached to target creature you control": the object the Aura token enchants (CR 303.4f)."""
        return _TokenWith([], attached=_first(ch, A.Obj))

    def a_create(self, meta, ch):
        return ch[0]


class _TokenWith:
    """Internal: what follows "token(s)": abilities after "with", or a flag."""

    def __init__(self, abilities, flag=None, attached=None):
        self.abilities, self.flag, self.attached = abilities, flag, attached


class _Role:
    """Internal: a Role token's name (CR 111.10j–r)."""

    def __init__(self, name):
        self.name = name
