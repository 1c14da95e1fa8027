"""Transformer rules for ``grammar/zones.lark``: one-shot actions that move objects between zones
or reveal information (CR 400–406 zones, CR 701 keyword actions).

:class:`ZoneRules` is a mixin of :class:`pipeline.parse.transform.ToAst`; every method takes
``(meta, children)`` like ``ToAst``'s (the literal words of the matched alternative are in
``self._lits``, normalised, see :mod:`pipeline.parse.forms`) and returns nodes of
:mod:`pipeline.parse.ast`. The words whose alternatives change the meaning become closed-list
``extra`` values (and ``self._form_used`` is set, so no generic form is added):

* ``Action{verb: "put_into", obj, extra: {zone: hand|graveyard, owner: your|their|owner}}``
  ("put it into your hand" / "… into its owner's graveyard", CR 400.1);
* ``Action{verb: "reveal_hand" | "discard_hand", extra: {whose: your|their}}`` ("reveals their
  hand", CR 701.20; "discard your hand", CR 701.9), ``discard_hand`` also ``all_cards: True``
  for "discard all the cards in your hand";
* ``Action{verb: "shuffle_into", obj, extra: {zones: [hand|graveyard…], whose, library:
  your|their|owner}}`` (CR 701.24);
* ``Action{verb: "investigate", amount}`` (CR 701.16: "N times"), ``Action{verb: "emblem",
  extra: {abilities}}`` (CR 114.2);
* ``Action{verb: "choose", obj, extra: {choice: object|type|name}}`` ("choose target creature",
  "choose a creature type", "choose a card name"; CR 608.2d);
* objects that are a part of a zone: "the top N cards of your library" →
  ``Obj{count, qualifiers: ["top_cards", "of:<owner>_<library|graveyard>"]}`` (CR 401.1),
  "target player's hand" → ``Obj{quantifier, words, qualifiers: ["poss_zone:hand", …]}``.
* library positions: ``Action{verb: "put_library", obj, extra: {position: top|bottom|top_or_bottom|nth,
  library: your|owner|<text>, order: any|random|None, nth: "third"}}`` (CR 401.4, 401.7);
  "put the rest into your graveyard" / "… into your hand and the other …" → ``put_into`` with
  ``extra: {zone, owner, other?}``;
* ``Action{verb: "search", obj, extra.zone}`` (CR 701.23); ``Action{verb: "reveal_until" |
  "exile_until", obj, extra.until: Action}`` (CR 701.20); ``Action{verb: "cast" | "cast_free", obj}``
  (CR 118.9); "exile … until ~ leaves the battlefield" → ``exile`` with ``extra.duration``;
* zone qualifiers ``hand_of:<player>``, ``outside_game``, ``controller_graveyard``.
"""

from __future__ import annotations

from lark import Token, Transformer, v_args

from pipeline.parse import ast as A
from pipeline.parse.children import first_of as _first
from pipeline.parse.transform_conditions import with_duration
from pipeline.parse.transform_counters import _Counter

#: owner of a library/graveyard by the words before it ("the top card of target player's library")
_TOP_OWNERS = {("your",): "your", ("their",): "their", ("that", "player"): "that_player",
               ("target", "player"): "target_player", ("each", "player"): "each_player",
               ("target", "opponent"): "target_opponent", ("each", "opponent"): "each_opponent",
               ("a", "opponent"): "an_opponent"}
#: whose zones a search names ("Search target opponent's library …", CR 701.23)
_SEARCH_OWNERS = {("target", "opponent"): "target_opponent", ("target", "player"): "target_player",
                  ("that", "player"): "that_player", ("its", "controller"): "its_controller",
                  ("its", "owner"): "its_owner", ("your",): "your", ("their",): "their"}
#: whose hand/library/graveyard the literal words name
_WHOSE = {"your": "your", "their": "their", "its": "owner", "owner": "owner"}


class _LibPos:
    """Internal: a position in a library (CR 401) — ``position``, ``library`` owner, ``order``."""

    def __init__(self, position, library=None, order=None, nth=None):
        self.position, self.library, self.order, self.nth = position, library, order, nth

    def extra(self) -> dict:
        out = {"position": self.position, "library": self.library}
        if self.order:
            out["order"] = self.order
        if self.nth:
            out["nth"] = self.nth
        return out


class _Lib(str):
    """Internal: whose library ("your", "owner", or the wording)."""


class _Order(str):
    """Internal: "any" or "random" order of cards put into a library together (CR 401.4)."""


class _Nth(str):
    """Internal: "third" of "third from the top" (CR 401.7)."""


class _SearchZone(str):
    """Internal: the wording of the zones searched ("target opponent's library", CR 701.23)."""


class _Choice:
    """Internal: what "choose" picks — ``kind`` object|type|name and the object words."""

    def __init__(self, kind, obj, extra=None):
        self.kind, self.obj, self.extra = kind, obj, extra or {}


@v_args(meta=True)
class ZoneRules(Transformer):
    """Mixin of ToAst for zones.lark (see the module docstring for the shapes)."""

    # ------------------------------------------------------------------ zone objects
    def p_you_drew_this_turn(self, meta, ch):
        """"cards you've drawn this turn" (CR 121.1): qualifier ``you_drew_this_turn``."""
        return "you_drew_this_turn"

    def o_top_cards(self, meta, ch):
        """"the top card of your library", "the top three cards of target player's library"."""
        lits = list(self._lits)
        self._form_used = True
        i = lits.index("of") if "of" in lits else -1
        owner = _TOP_OWNERS.get(tuple(lits[i + 1:-1]))
        zone = lits[-1] if lits else ""
        count = _first(ch, A.Amount)
        quals = ["top_cards", f"of:{owner}_{zone}" if owner and zone in ("library", "graveyard") else "of:?"]
        return A.Obj(None, count, [], self._t(meta), quals)

    def o_owner_of(self, meta, ch):
        """"the owner of target nonland permanent" (CR 108.3) → ``Obj{qualifiers: [owner_of], refs: [obj]}``."""
        return A.Obj(None, None, [], self._t(meta), ["owner_of"], [_first(ch, A.Obj)])

    def o_poss_zone(self, meta, ch):
        """"target player's hand", "that player's graveyard": the zone of the object before "'s"."""
        base = _first(ch, A.Obj)
        zone = next((w for w in self._lits if w in ("hand", "graveyard", "library")), "?")
        self._form_used = True
        quals = [f"poss_zone:{zone}"] + (list(base.qualifiers) if base else [])
        return A.Obj(base.quantifier if base else None, base.count if base else None,
                     list(base.words) if base else [], self._t(meta), quals)

    # ------------------------------------------------------------------ actions
    def _whose(self, default: str = "your") -> str:
        return next((_WHOSE[w] for w in self._lits if w in _WHOSE), default)

    def a_put_into(self, meta, ch):
        """"put it into your hand" / "into their graveyard" / "into its owner's hand" (CR 400.1)."""
        self._form_used = True
        raw = [w.lower() for w in self._raw_lits]
        zone = "hand" if "hand" in raw or "hands" in raw else "graveyard"
        if "player" in raw:  # "into that player's graveyard"
            owner = "that_player"
        elif "owner" in raw or "owners" in raw:  # its_owner / their_owner / their_owners (CR 108.3)
            owner = A.owner_wording(raw).value
            owner = "owner" if owner == "its_owner" else owner
        else:
            owner = self._whose()
        return A.Action("put_into", obj=_first(ch, A.Obj), extra={"zone": zone, "owner": owner}, text=self._t(meta))

    def a_reveal_hand(self, meta, ch):
        """"reveal your hand" / "target player reveals their hand" (CR 701.20)."""
        self._form_used = True
        return A.Action("reveal_hand", extra={"whose": self._whose()}, text=self._t(meta))

    def a_discard_hand(self, meta, ch):
        """"discard your hand", "each player discards their hand", "discard all the cards in your
        hand" (CR 701.9)."""
        self._form_used = True
        extra = {"whose": self._whose()}
        if "all" in self._lits:
            extra["all_cards"] = True
        return A.Action("discard_hand", extra=extra, text=self._t(meta))

    def a_shuffle_into(self, meta, ch):
        """"shuffle ~ into its owner's library", "shuffle your graveyard into your library",
        "each player shuffles their hand and graveyard into their library" (CR 701.24)."""
        self._form_used = True
        lits = list(self._lits)
        i = lits.index("into") if "into" in lits else len(lits)
        before, after = lits[:i], lits[i + 1:]
        zones = [w for w in before if w in ("hand", "graveyard")]
        extra = {}
        if zones:
            extra["zones"] = zones
            extra["whose"] = next((_WHOSE[w] for w in before if w in _WHOSE), "your")
        extra["library"] = next((_WHOSE[w] for w in after if w in _WHOSE), "your")
        return A.Action("shuffle_into", obj=_first(ch, A.Obj), extra=extra, text=self._t(meta))

    def a_shuffle_rest_into(self, meta, ch):
        """"shuffle the rest into your library" → ``shuffle_into`` with obj ``the_rest`` (CR 701.24)."""
        self._form_used = True
        whose = "their" if "their" in (w.lower() for w in self._raw_lits) else "your"
        return A.Action("shuffle_into", obj=A.Obj(None, None, [], "the rest", ["the_rest"]),
                        extra={"library": whose}, text=self._t(meta))

    def a_investigate(self, meta, ch):
        """"investigate" / "investigate twice"-style "investigate N times" (CR 701.16)."""
        return A.Action("investigate", amount=_first(ch, A.Amount), text=self._t(meta))

    def p_their_choice(self, meta, ch):
        return "their_choice"  # "a creature of their choice" (CR 608.2d: the player chooses)

    def a_exile_face_down(self, meta, ch):
        """"exile the top card of your library face down" (CR 406.3)."""
        return A.Action("exile", obj=_first(ch, A.Obj), extra={"face_down": True}, text=self._t(meta))

    def a_choose(self, meta, ch):
        """"choose target creature you control", "choose a creature type", "choose a card name"
        (CR 608.2d); ``extra.choice`` says which of the three."""
        c = _first(ch, _Choice)
        if c is None:
            return A.Action("choose", obj=_first(ch, A.Obj), text=self._t(meta))
        return A.Action("choose", obj=c.obj, extra={"choice": c.kind, **c.extra}, text=self._t(meta))

    def cw_obj(self, meta, ch):
        return _Choice("object", _first(ch, A.Obj))

    def cw_type(self, meta, ch):
        return _Choice("type", _first(ch, A.Obj))

    def cw_name(self, meta, ch):
        return _Choice("name", _first(ch, A.Obj))

    # ------------------------------------------------------------ library positions (CR 401)
    def lw_own(self, meta, ch):
        return _Lib(self._low(meta).split()[0])

    def lw_owner(self, meta, ch):
        """"its owner's library" → ``owner``; "their owner's library" / "their owners' libraries"
        → the :class:`~pipeline.parse.ast.OwnerWording` value (CR 108.3)."""
        self._form_used = True
        w = A.owner_wording(w.lower() for w in self._raw_lits)
        return _Lib("owner" if w in (None, A.OwnerWording.ITS_OWNER) else w.value)

    def lw_other(self, meta, ch):
        """"that player's library" → ``that_player`` (also ``target_player``, ``each_player``,
        ``that`` for "that library"): another player's library (CR 401.1)."""
        self._form_used = True
        words = [w for w in self._lits if w not in ("'s", "library")]
        return _Lib({("that", "player"): "that_player", ("target", "player"): "target_player",
                     ("each", "player"): "each_player", ("that",): "that"}.get(tuple(words), "?"))

    def lo_any(self, meta, ch):
        return _Order("any")

    def lo_random(self, meta, ch):
        return _Order("random")

    def lib_nth(self, meta, ch):
        return _Nth(self._low(meta))

    def _libpos(position):  # noqa: N805
        def f(self, meta, ch):
            return _LibPos(position, _first(ch, _Lib), _first(ch, _Order), _first(ch, _Nth))
        return f

    lp_bottom = _libpos("bottom")
    lp_top = _libpos("top")
    def lp_top_or_bottom(self, meta, ch):
        """"on the top or bottom of …" / "on top or bottom of …": ``the`` says which was written."""
        pos = _LibPos("top_or_bottom", _first(ch, _Lib))
        pos.the = [w.lower() for w in self._raw_lits][1:2] == ["the"]
        self._form_used = True
        return pos

    def lp_choice_top_or_bottom(self, meta, ch):
        """"on their choice of the top or bottom of their library" (CR 401.1): position top_or_bottom,
        ``chooser`` their|your (the player who chooses, written)."""
        self._form_used = True
        pos = _LibPos("top_or_bottom", _first(ch, _Lib))
        pos.chooser = "your" if [w.lower() for w in self._raw_lits][1:2] == ["your"] else "their"
        return pos
    lp_nth = _libpos("nth")

    def _rest_obj(self, meta, ch) -> A.Obj:
        obj = _first(ch, A.Obj)
        if obj is None:  # "Put the rest …": the cards not chosen among those looked at
            obj = A.Obj(None, None, [], "the rest", ["the_rest"])
        return obj

    def a_put_library_pos(self, meta, ch):
        pos = _first(ch, _LibPos)
        if pos is not None and pos.position == "top_or_bottom":
            return self._put_library_choice(meta, ch, pos)
        obj = self._rest_obj(meta, ch)
        zone = next((c for c in ch if isinstance(c, str) and not isinstance(c, (_Lib, _Order, _Nth))), None)
        if zone is not None:  # "two cards from your hand on top of your library"
            obj.qualifiers.append("zone:" + zone)
            obj.text = self._t(meta).split(" ", 1)[1].rsplit(" on ", 1)[0]
        return A.Action("put_library", obj=obj, extra=pos.extra(), text=self._t(meta))

    def _put_library_choice(self, meta, ch, pos):
        """"put it on the top or bottom of its owner's library" / "… on their choice of the top or bottom
        of their library" (CR 401.1: the player chooses; one meaning, two wordings) →
        ``Action{verb: "put_library_choice", obj, extra: {library, chooser: their | your | None, the}}``
        (``the``: "on the top or bottom" rather than "on top or bottom")."""
        extra = {"library": pos.library}
        chooser = getattr(pos, "chooser", None)
        if chooser is not None:
            extra["chooser"] = chooser
        elif getattr(pos, "the", False):
            extra["the"] = True
        obj = self._rest_obj(meta, ch)
        zone = next((c for c in ch if isinstance(c, str) and not isinstance(c, (_Lib, _Order, _Nth))), None)
        if zone is not None:  # "target card from a graveyard on the top or bottom of …"
            obj.qualifiers.append("zone:" + zone)
        return A.Action("put_library_choice", obj=obj, extra=extra, text=self._t(meta))

    def a_put_library_nth(self, meta, ch):
        pos = _LibPos("nth", _first(ch, _Lib), None, _first(ch, _Nth))
        return A.Action("put_library", obj=self._rest_obj(meta, ch), extra=pos.extra(), text=self._t(meta))

    def a_put_rest_graveyard(self, meta, ch):
        owner = "their" if " their " in f" {self._low(meta)} " else "your"
        return A.Action("put_into", obj=self._rest_obj(meta, ch), extra={"zone": "graveyard", "owner": owner},
                        text=self._t(meta))

    def a_put_into_other(self, meta, ch):  # "Put one of them into your hand and the other …"
        pos = _first(ch, _LibPos)
        low = self._low(meta)
        self._form_used = True
        lits = list(self._lits)
        after = lits[lits.index("other") + 1:] if "other" in lits else []
        other = pos.extra() if pos is not None else {"zone": "graveyard",
                                                     "owner": "their" if "their" in after else "your"}
        owner = "their" if low.split(" into ", 1)[1].startswith("their") else "your"
        return A.Action("put_into", obj=_first(ch, A.Obj), extra={"zone": "hand", "owner": owner, "other": other},
                        text=self._t(meta))


    # ------------------------------------------------------------ exile for a duration (CR 610.3)
    a_exile_for = with_duration("exile")


    # ------------------------------------------------------------ search (CR 701.23)
    def search_zone(self, meta, ch):
        """The zones searched (CR 701.23): whose (``_SEARCH_OWNERS`` key) and the zone names in order
        ("target opponent's library" → ``target_opponent``, [library]; "your library, hand, and/or
        graveyard" → ``your``, [library, hand, graveyard])."""
        self._form_used = True
        lits = [w.lower() for w in self._raw_lits]  # (as written: the normalised "its" is "it")
        zones = [w for w in lits if w in ("library", "graveyard", "hand")]
        owner = _SEARCH_OWNERS.get(tuple(w for w in lits[:lits.index(zones[0])] if w != "'s"), "?")
        zone = _SearchZone(self._low(meta))
        zone.owner, zone.zones = owner, zones
        zone.join = "and" if "and" in lits else "and/or"  # "graveyard, hand, and library": every zone
        return zone

    def a_search_zone(self, meta, ch):
        """``search`` with ``extra.zone = {owner, zones}`` (see :meth:`search_zone`)."""
        z = _first(ch, _SearchZone)
        zone = {"owner": z.owner, "zones": list(z.zones)}
        if z.join == "and":
            zone["join"] = "and"
        return A.Action("search", obj=_first(ch, A.Obj), extra={"zone": zone}, text=self._t(meta))


    # ------------------------------------------------------------ reveal until (CR 701.20), named zones
    def a_until_reveal(self, meta, ch):  # CR 701.20 reveal / 406 exile "until" a card of a kind
        objs = [c for c in ch if isinstance(c, A.Obj)]
        words = self._low(meta).split()
        verb = "reveal" if words[0].startswith("reveal") else "exile"
        i = words.index("until")
        verb2 = "reveal" if any(w.startswith("reveal") for w in words[i:]) else "exile"
        self._form_used = True  # the verbs are the two Actions' verbs
        until = A.Action(verb2, subject=objs[1], obj=objs[2], text=" ".join(self._t(meta).split()[i + 1:]))
        return A.Action(verb + "_until", obj=objs[0], extra={"until": until}, text=self._t(meta))

    def z_top_of_named_library(self, meta, ch):
        """"from the top of their library" / "… of target player's library" (CR 401.1) → the zone
        qualifier ``top_of:<owner>`` (owners of :data:`_TOP_OWNERS`, or ``owner`` for "its owner's")."""
        lits = list(self._lits)
        self._form_used = True
        words = tuple(lits[lits.index("of") + 1:-1]) if "of" in lits else ()
        owner = "owner" if words == ("its", "owner") else _TOP_OWNERS.get(words, "?")
        return f"top_of:{owner}"

    def z_named_hand(self, meta, ch):
        return "hand_of:" + self._low(meta).rsplit(" hand", 1)[0].replace(" 's", "'s")

    def z_outside_game(self, meta, ch):  # CR 400.11
        return "outside_game"

    def z_each_graveyard(self, meta, ch):  # CR 404.1
        return "each_graveyard"

    def z_controller_zone(self, meta, ch):
        return "controller_" + self._low(meta).rsplit(" ", 1)[-1]


    # ------------------------------------------------------------ cast without paying (CR 118.9)
    def p_without_paying(self, meta, ch):
        return "without_paying"

    def a_may_cast(self, meta, ch):
        """"cast X" / "cast X without paying its mana cost" (the latter → verb cast_free, the
        qualifier lifted off X and X's text cut before "without")."""
        obj = _first(ch, A.Obj)
        if obj is not None and "without_paying" in obj.qualifiers:
            i = obj.qualifiers.index("without_paying")
            end = i + 1
            if end < len(obj.qualifiers) and obj.qualifiers[end].startswith("form:"):
                end += 1  # "its mana cost" / "their mana costs": agreement the renderer writes from the object
            del obj.qualifiers[i:end]
            i = obj.text.lower().rfind(" without paying ")
            if i >= 0:
                obj.text = obj.text[:i]
            return A.Action("cast_free", obj=obj, text=self._t(meta))
        return A.Action("cast", obj=obj, text=self._t(meta))

    # ------------------------------------------------------------------ destinations
    def _zone(kind):  # noqa: N805
        def f(self, meta, ch):
            rest = any(isinstance(c, Token) for c in ch)  # "its owner's library second from the top"
            self._form_used = True
            return A.Zone(self._t(meta), None if rest else kind, A.owner_wording(w.lower() for w in self._raw_lits))
        return f

    d_owner_hand = _zone(A.Destination.OWNER_HAND)
    d_your_hand = _zone(A.Destination.YOUR_HAND)
    d_library_top = _zone(A.Destination.OWNER_LIBRARY_TOP)
    d_library = _zone(None)
    d_their_hand = _zone(A.Destination.THEIR_HAND)  # "each player returns … to their hand"

    def d_battlefield(self, meta, ch):
        """"the battlefield [tapped] [under its owner's control]": a Zone whose modifiers
        (:class:`_BfMod`) the action takes over (``_mods``); read by another rule, a Zone with
        modifiers has no kind (its renderer cannot tell them)."""
        mods: dict = {}
        for c in ch:
            if isinstance(c, _BfMod):
                mods.update(c.extra)
        z = A.Zone(self._t(meta), None if mods else A.Destination.BATTLEFIELD)
        z.__dict__["_mods"] = mods
        return z

    def d_to_battlefield(self, meta, ch):
        return _first(ch, A.Zone)

    def d_battlefield_control_first(self, meta, ch):
        z = self.d_battlefield(meta, ch)
        z.__dict__["_mods"]["control_first"] = True  # "under your control tapped" (the rarer order)
        return z

    def _bm(key):  # noqa: N805
        def f(self, meta, ch):
            o = _first(ch, A.Obj)
            if key == "attached_to":
                return _BfMod({"attached_to": o})
            if key == "tapped_attacking":
                return _BfMod({"tapped": True, "attacking": True})
            return _BfMod({key: True})
        return f

    def bm_with_counters(self, meta, ch):
        """"… to the battlefield with a +1/+1 counter on it" (CR 122.6)."""
        return _BfMod({"counters": A.CounterSpec(_counter_kind(ch), _first(ch, A.Amount) or A.Amount("fixed", value=1))})

    def bm_with_additional(self, meta, ch):
        """"… with an additional +1/+1 counter on it" / "… with two additional +1/+1 counters on it" (CR 122.6)."""
        n = _first(ch, A.Amount) or A.Amount("fixed", value=1)
        return _BfMod({"counters": A.CounterSpec(_counter_kind(ch), n, additional=True)})

    bm_tapped = _bm("tapped")
    bm_tapped_attacking = _bm("tapped_attacking")
    bm_attacking = _bm("attacking")
    bm_attached = _bm("attached_to")
    bm_transformed = _bm("transformed")
    bm_face_down = _bm("face_down")

    def _bc(who):  # noqa: N805
        def f(self, meta, ch):
            self._form_used = True
            return _BfMod({"control": who})
        return f

    bc_your = _bc("your")

    def bc_owner(self, meta, ch):
        """"under its owner's control" → ``control: owner``; "under their owner's control" /
        "under their owners' control" → ``their_owner`` / ``their_owners`` (CR 108.3, 110.2)."""
        self._form_used = True
        w = A.owner_wording(w.lower() for w in self._raw_lits)
        return _BfMod({"control": "owner" if w in (None, A.OwnerWording.ITS_OWNER) else w.value})

    bc_their = _bc("their")
    bc_that_player = _bc("that_player")

    def a_return(self, meta, ch):
        """"return target creature to its owner's hand", "return it from your graveyard to the
        battlefield tapped under your control" (CR 400.7): ``extra.zone`` the destination Zone,
        ``extra.from_zone`` the zone rule named after "from", battlefield modifiers as
        :func:`battlefield_extra`."""
        zone = _first(ch, A.Zone)
        extra: dict = {"zone": zone}
        src = next((c for c in ch if isinstance(c, str)), None)
        if src is not None:
            extra["from_zone"] = str(src)
        extra.update(_take_mods(zone))
        return A.Action("return", obj=_first(ch, A.Obj), extra=extra, text=self._t(meta))

    def a_return_dest_first(self, meta, ch):
        """"Return to your hand all creature cards in your graveyard …" (the destination first) →
        ``return`` with ``extra.dest_first``."""
        self._form_used = True
        zone = A.Zone("your hand", A.Destination.YOUR_HAND)
        return A.Action("return", obj=_first(ch, A.Obj), extra={"zone": zone, "dest_first": True}, text=self._t(meta))

    def a_may_play(self, meta, ch):
        """"you may play lands from your graveyard", "you may cast that card this turn" (CR 305.1,
        601.2a): ``extra.play`` play|cast, ``extra.duration``."""
        self._form_used = True
        extra = {"play": "cast" if "cast" in self._lits else "play"}
        dur = next((c for c in ch if isinstance(c, (A.Text, A.Action))), None)
        if dur is not None:
            extra["duration"] = dur
        return A.Action("may_play", obj=_first(ch, A.Obj), extra=extra, text=self._t(meta))

    def a_put_one_other(self, meta, ch):
        """"put one onto the battlefield tapped and the other into your hand" → ``put_onto_battlefield``
        with amount the number put ("one"), the battlefield modifiers, and ``extra.other: {zone,
        owner}`` (where the other card goes)."""
        self._form_used = True
        lits = list(self._lits)
        after = lits[lits.index("other") + 1:]
        extra = _take_mods(_first(ch, A.Zone))
        if "tapped" in lits:  # (the written-out alternative)
            extra["tapped"] = True
        extra["other"] = {"zone": "hand" if "hand" in after else "graveyard", "owner": "their" if "their" in after else "your"}
        return A.Action("put_onto_battlefield", amount=_first(ch, A.Amount), extra=extra, text=self._t(meta))

    def a_put_onto_battlefield(self, meta, ch):
        """"put a land card from your hand onto the battlefield tapped", "… under your control"
        (CR 110.2, 305.1): the battlefield modifiers in ``extra``."""
        zone = _first(ch, A.Zone)
        return A.Action("put_onto_battlefield", obj=_first(ch, A.Obj), extra=_take_mods(zone), text=self._t(meta))


def _counter_kind(children) -> str:
    """The kind read by counters.lark's ``counter_kind`` (its ``_Counter`` marker)."""
    return next((c.kind for c in children if isinstance(c, _Counter)), "")


def _take_mods(zone) -> dict:
    """The battlefield modifiers a Zone carries (``tapped``, ``attacking``, ``attached_to``, ``transformed``,
    ``face_down``: True / Obj; ``counters``: CounterSpec ("with a +1/+1 counter on it"); ``control``: your|owner|their|that_player; ``control_first``), and the
    Zone's kind set to the battlefield (the action's renderer writes them)."""
    mods = dict(getattr(zone, "__dict__", {}).get("_mods") or {})
    if zone is not None and "_mods" in zone.__dict__:
        zone.kind = A.Destination.BATTLEFIELD
    return mods


class _BfMod:
    """Internal: one modifier of "the battlefield" (bf_mod / bf_control) as extra keys."""

    def __init__(self, extra):
        self.extra = extra


