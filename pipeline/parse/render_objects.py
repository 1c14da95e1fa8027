"""Renderers of objects and quantities (``grammar/objects.lark``): :class:`Obj`, :class:`Amount`.

An object is written ``[quantifier] [count] descriptor-words [post-modifiers]``; descriptor
words must come from the closed lexicons (:mod:`pipeline.parse.lexicon`), post-modifiers are
the rule names the grammar stored (``you_control``, ``zone:your_graveyard`` …). A qualifier that
carries wording (``other_than:<text>``) is free text and is not rendered.
"""

from __future__ import annotations

import re

from pipeline.parse import ast as A
from pipeline.parse.lexicon import is_keyword, is_object_word
from pipeline.parse.render import NotRendered, render, renders, renders_verb

NUMBER_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
                "fifteen sixteen seventeen eighteen nineteen twenty").split()


def number_word(n: int) -> str:
    """Oracle writes counts of objects as words up to twenty ("two cards"), larger as digits."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def amount_number(amount: A.Amount, words: bool = True) -> str:
    """A fixed or X amount as Oracle writes it: number words (``words``) or digits (damage,
    life, P/T). Raises NotRendered for other kinds."""
    if amount is None:
        raise NotRendered("Amount:None")
    if amount.kind == "fixed" and amount.value is not None and amount.ref is None:
        return number_word(amount.value) if words else str(amount.value)
    if amount.kind == "x" and amount.variable and amount.ref is None:
        return amount.variable
    if amount.kind == "that_many" and amount.ref is None:
        return "that many"
    if amount.kind == "that_much" and amount.ref is None:  # "you gain that much life"
        return "that much"
    raise NotRendered(f"Amount:{amount.kind}")


def article(word: str) -> str:
    """"a" or "an" before ``word`` (English sound rule on the spelling)."""
    w = word.lstrip("{").lower()
    return "an" if w[:1] in "aeiou" or w.startswith(("8", "11", "18", "x/")) else "a"  # "an X/X creature"


def counted(amount: A.Amount, singular: str, plural: str) -> str:
    """"a card" / "two cards" / "X cards" (CR 107.1: numbers in words for object counts)."""
    if amount is not None and amount.kind == "fixed" and amount.value == 1 and amount.ref is None:
        return f"{article(singular)} {singular}"
    if amount is not None and amount.kind == "equal_to":  # "cards equal to the number of …" (CR 107.1)
        return f"{plural} equal to {quantity(amount)}"
    return f"{amount_number(amount)} {plural}"


# quantifier (rule name) → words. Rules that merge several wordings (q_each for "each exiled")
# render the first; a text using another fails the round trip, as it should.
QUANTIFIERS = {
    "target": "target", "another_target": "another target", "another": "another", "each": "each",
    "each_other": "each other", "all": "all", "all_other": "all other", "that": "that", "the": "the",
    "other": "other", "those": "those", "enchanted": "enchanted", "equipped": "equipped",
    "your": "your", "exiled": "exiled", "defending": "defending", "any": "any",
    "each_exiled": "each exiled", "each_enchanted": "each enchanted",
    "this_ability": "this", "both": "both",  # "This ability costs {1} less to activate" (statics.lark c_this_ability), "both creatures" (o_both)
}

ZONES = {
    "your_graveyard": "your graveyard", "a_graveyard": "a graveyard", "graveyards": "graveyards",
    "opp_graveyard": "an opponent's graveyard", "your_hand": "your hand", "your_library": "your library",
    "exile": "exile", "tp_graveyard": "target player's graveyard", "their_graveyard": "their graveyard",
    "their_hand": "their hand", "that_player_graveyard": "that player's graveyard",
    "owner_graveyard": "its owner's graveyard", "battlefield": "the battlefield",
    "it": "it",  # "a card from it" ("from among them": the post-modifier from_among)
    "opening_hand": "your opening hand",  # CR 103.6 (statics.lark z_opening_hand)
}

# post-modifier rule → words (CR 109.4 control, 108.3 ownership, 110.5 status).
POSTS = {
    "you_control": "you control", "you_dont_control": "you don't control", "you_own": "you own",
    "you_control_not_own": "you control but don't own", "opp_controls": "an opponent controls",
    "opps_control": "your opponents control", "target_player_controls": "target player controls",
    "target_opp_controls": "target opponent controls", "that_player_controls": "that player controls",
    "defending_controls": "defending player controls", "they_control": "they control",
    "its_controller_controls": "its controller controls", "battlefield": "on the battlefield",
    "your_choice": "of your choice", "their_choice": "of their choice", "in_party": "in your party", "attacking_you": "attacking you",
    "attacked": "that attacked this turn", "dealt_damage": "dealt damage this turn",
    "exiled_with": "exiled with ~", "exiled_with:~": "exiled with ~", "exiled_with:it": "exiled with it",  # CR 607.2a
    "of_that_type": "of that type", "not_cast": "that wasn't cast",
    "crewed_it": "that crewed it this turn", "chosen_name": "with the chosen name",
    "you_cast": "you cast", "opps_cast": "your opponents cast", "you_activate": "you activate",
    "you_cast_this_turn": "you cast this turn", "you_drew_this_turn": "you've drawn this turn",
    "you_dont_own": "you don't own", "dealt_damage_this_way": "dealt damage this way",
    "cast_this_way": "cast this way",  # CR 608.2c
    "died_this_turn": "that died this turn",  # CR 700.4
    "that_player_or_pw_controls": "that player or that planeswalker's controller controls",  # CR 115.1
    "dealt_damage_to_you": "that dealt damage to you this turn",  # CR 120.1
    "enchanted_player_controls": "enchanted player controls",  # CR 303.4b "enchanted player"
    "youve_cast": "you've cast this turn",
    "with_different:powers": "with different powers", "with_different:names": "with different names",
    "attached_to_it": "it's attached to",  # "the creature it's attached to" (CR 301.5, 303.4)
    "haunted": "it haunts", "haunted:~": "~ haunts",  # CR 702.55 haunt
    **{f"that_are:{w}": f"that are {w}" for w in ("enchanted", "equipped", "tapped", "untapped", "attacking", "blocking")},
}

#: "the exiled card", "the sacrificed creature" (objects.lark q_the_exiled: the participle is its form)
THE_PARTICIPLES = ("exiled", "enchanted", "milled", "sacrificed", "revealed", "discarded", "chosen")

#: status words of "that isn't …" (objects.lark p_isnt reads a WORD: only these render, CR 110.5, 303.4b)
_ISNT_WORDS = ("enchanted", "equipped", "tapped", "untapped", "attacking", "blocking", "blocked")

#: objects counted "among" others (quantifier → the noun): "card types among …", "colors among …"
_AMONG = {"types_among": "type", "colors_among": "color"}

#: card types whose subtypes a choice names ("the creature type of your choice", CR 205.3)
CARD_TYPE_WORDS = ("creature", "land", "artifact", "enchantment", "planeswalker", "spell", "battle")

#: characteristics that are numbers (CR 208.1 power/toughness, 202.3 mana value, 306.5b loyalty)
NUMERIC_STATS = ("power", "toughness", "mana value", "loyalty")

#: quantities that count no object (Action("quantity:<name>") as an Amount's ref) → their wording
QUANTITY_WORDS = {
    "opponents_you_have": "the number of opponents you have",  # CR 102.2
    "life_gained_this_turn": "the amount of life you gained this turn",  # CR 119.3
    "life_total": "your life total",  # CR 119.1
    "life_lost_this_way": "the life lost this way",
    "damage_dealt_this_way": "the damage dealt this way",  # CR 120
    "excess_damage_this_way": "the amount of excess damage dealt this way",  # CR 120.4a, 120.10
    "damage_prevented_this_way": "the damage prevented this way",  # CR 615.5
    "result": "the result",  # of a die roll (CR 706.2)
    "total_of_results": "the total of those results",  # CR 706.2
    "starting_life_total": "your starting life total",  # CR 103.4
    "energy_you_have": "the amount of {E} you have",  # CR 107.14
}


def _render_quantity(a: A.Action, **_) -> str:
    """A quantity named by its verb (``quantity:<name>``, :data:`QUANTITY_WORDS`); "the number of
    times ~ was kicked" (CR 702.33); "your devotion to black [and red]" (CR 700.5)."""
    from pipeline.parse.lexicon import COLORS
    from pipeline.parse.render import extra_keys

    name = a.verb.partition(":")[2]
    if a.subject is not None or a.amount is not None:
        raise NotRendered(f"Action:{a.verb}")
    if name == "devotion":
        extra_keys(a, {"colors"})
        colors = a.extra.get("colors") or []
        if a.obj is not None or not 1 <= len(colors) <= 2 or any(c not in COLORS and c != "that color" for c in colors):
            raise NotRendered("Action:quantity:devotion")
        return "your devotion to " + " and ".join(colors)
    if name in ("total", "greatest"):  # "the total power of …", "the greatest mana value among …"
        extra_keys(a, {"stat", "word"} if name == "greatest" else {"stat"})
        stat, word = a.extra.get("stat"), a.extra.get("word", "total")
        if a.obj is None or stat not in NUMERIC_STATS or word not in ("total", "greatest", "highest"):
            raise NotRendered(f"Action:quantity:{name}")
        return f"the {word} {stat} {'of' if name == 'total' else 'among'} {render_obj(a.obj, prep='in')}"
    if name == "mana_spent" and a.obj is not None:  # "the amount of mana spent to cast ~" (CR 601.2h)
        extra_keys(a, {"symbols"})
        from pipeline.parse.render_mana import symbols

        what = symbols(a.extra["symbols"]) if a.extra.get("symbols") else "mana"
        return f"the amount of {what} spent to cast {render_obj(a.obj)}"
    extra_keys(a, set())
    if name == "colors_spent" and a.obj is not None:  # "the number of colors of mana spent to cast ~" (CR 601.2h)
        return f"the number of colors of mana spent to cast {render_obj(a.obj)}"
    if name in ("total_number", "greatest_number"):  # "the total number of cards in all players' hands"
        if a.obj is None:
            raise NotRendered(f"Action:quantity:{name}")
        return f"the {name.partition('_')[0]} number of {render_obj(a.obj, prep='in')}"
    if name == "times_kicked":
        if a.obj is None:
            raise NotRendered("Action:quantity:times_kicked")
        return f"the number of times {render_obj(a.obj, role='subject')} was kicked"
    if name not in QUANTITY_WORDS or a.obj is not None:
        raise NotRendered(f"Action:{a.verb}")
    return QUANTITY_WORDS[name]


#: renderers of objects that name part of a zone, by their first qualifier's rule name
#: ("top_cards", "poss_zone"), registered by render_zones (zones.lark)
OBJ_FORMS: dict = {}

# object bases that are fixed wordings (o_* rule name → words)
BASES = {"any_target": "any target", "that_card": "that card", "that_player": "that player",
         "that_spell": "that spell", "the_rest": "the rest",
         "any_other_target": "any other target"}  # CR 115.4

#: BASES keys that name several objects (is_plural), registered by their renderers
PLURAL_BASES: set = set()

_OWNER_WORDS = ("controller", "owner")
_STATS = {"stat:power": "power", "stat:toughness": "toughness", "stat:mana value": "mana value",
          "stat:loyalty": "loyalty"}


def _stat(q: str) -> str:
    if q not in _STATS:
        raise NotRendered("Obj:stat")
    return _STATS[q]


@renders(A.Scaled)
def _scaled(sc: A.Scaled, **_) -> str:
    """"twice the number of creatures you control", "half your life, rounded up" (CR 107.1a)."""
    if sc.factor not in A.SCALE_FACTORS or sc.rounding not in A.ROUNDINGS + (None,) \
            or (sc.rounding is not None and sc.factor != "half"):
        raise NotRendered("Scaled")
    out = f"{sc.factor} {quantity(sc.amount)}"
    return out + (f", rounded {sc.rounding}" if sc.rounding else "")


def quantity(amount: A.Amount) -> str:
    """An ``equal_to`` amount's quantity: "its power" (a stat object) or "the number of
    creatures you control" (a counted object), CR 107.1."""
    if amount is not None and amount.kind == "equal_to" and isinstance(amount.value, int) and amount.ref is not None:
        # "2 plus the number of cards named ~ in all graveyards", "1 plus the exiled creature's mana value"
        return f"{amount.value} plus " + quantity(A.Amount("equal_to", ref=amount.ref))
    if amount is not None and amount.kind == "equal_to" and amount.value is None and isinstance(amount.ref, A.Action) \
            and amount.ref.verb.startswith("quantity:"):
        return render(amount.ref)
    if amount is not None and amount.kind == "equal_to" and amount.value is None and isinstance(amount.ref, A.Scaled):
        return _scaled(amount.ref)
    if amount is None or amount.kind != "equal_to" or amount.value is not None or not isinstance(amount.ref, A.Obj):
        raise NotRendered(f"Amount:{getattr(amount, 'kind', None)}")
    ref = amount.ref
    if "stat" in ref.qualifiers:
        return render_obj(ref)
    if ref.qualifiers[-1:] and ref.qualifiers[-1].startswith("stat:"):
        # "the power of target creature you control", "the mana value of the exiled card" (copy.lark
        # qt_stat_of: the characteristic is the last qualifier; CR 208.1, 202.3)
        of = A.Obj(ref.quantifier, ref.count, list(ref.words), "", ref.qualifiers[:-1], list(ref.refs))
        return f"the {_stat(ref.qualifiers[-1])} of {render(of)}"
    return "the number of " + render(ref, prep="in")  # (dispatch: an Obj subclass has its own renderer)


#: qualifiers whose alternatives differ by a literal word kept as their form (``form:<w>+<w>``
#: right after them): (rule name, form) → words
POST_FORMS = {
    ("dealt_damage", "that+is"): "that was dealt damage this turn",  # CR 120
    ("chosen", "type"): "of the chosen type", ("chosen", "color"): "of the chosen color",
    ("zone:a_graveyard", "single"): "from a single graveyard",
    ("zone:graveyards", "all"): "all graveyards",
    ("zone:graveyards", "your+opponent"): "your opponents' graveyards",
    ("zone:gy_hand", "graveyard+and/or"): "your graveyard and/or hand",  # (objects.lark z_gy_hand: order and separator)
    ("zone:gy_hand", "graveyard+or"): "your graveyard or hand",
    ("zone:gy_hand", "hand+or"): "your hand or graveyard",
    ("thats", "attacking"): "that's attacking", ("thats", "blocking"): "that's blocking",  # CR 506.4
    ("thats", "attacking+or+blocking"): "that's attacking or blocking",
    ("without_paying", "it"): "without paying its mana cost",  # CR 118.9
    ("without_paying", "their"): "without paying their mana costs",
    ("named:~", "not"): "not named ~",
    ("youve_cast", "before+it"): "you've cast before it this turn",
    ("from_anywhere_but_hand", "your"): "from anywhere other than your hand",  # CR 601.2a
    ("from_anywhere_but_hand", "their"): "from anywhere other than their hand",
    ("share_type", "creature"): "that share a creature type", ("share_type", "card"): "that share a card type",
    ("zone:top_of_library", "your"): "from the top of your library",  # CR 401
    ("zone:top_of_library", "their"): "from the top of their library",
    ("zone:top_of_library", "that+player"): "from the top of that player's library",
    ("zone:top_of_library", "target+player"): "from the top of target player's library",
    ("zone:top_of_library", "target+opponent"): "from the top of target opponent's library",
    ("zone:top_of_library", "each+player"): "from the top of each player's library",
    ("zone:top_of_library", "its+owner"): "from the top of its owner's library",
}

#: "<player>'s hand" zones (coverage.lark z_named_hand) by their form
HAND_OF_FORMS = {"that+player": "that player's hand", "target+player": "target player's hand",
                 "target+opponent": "target opponent's hand", "each+player": "each player's hand",
                 "it+owner": "its owner's hand"}

#: zones read only after "from" ("a card from it", "from among them", CR 400.11 outside the game)
FROM_ZONES = {"it": "it", "outside_game": "outside the game"}


def posts(quals: list[str], words: list[str], prep: str | None = None, refs: list | None = None,
          plural: bool | None = None) -> list[str]:
    """Post-modifiers in order; a ``form:`` qualifier is read with the one before it
    (:data:`POST_FORMS`), any other form fails the round trip (``Obj:post=form``). ``refs``: the
    objects the qualifiers of :data:`ast.REF_QUALIFIERS` name, one each in order (``Obj.refs``);
    a missing or an unused one fails the round trip (``Obj:refs``). ``plural``: the number of the
    object that holds them, for a post-modifier whose verb agrees with it (:data:`SHARES`; None:
    not known, such a post-modifier is not rendered)."""
    out = []
    pending = list(refs or [])
    i = 0
    while i < len(quals):
        q = quals[i]
        form = quals[i + 1][5:] if i + 1 < len(quals) and quals[i + 1].startswith("form:") else None
        i += 2 if form is not None else 1
        if q in A.REF_QUALIFIERS:
            if not pending:
                raise NotRendered("Obj:refs")
            ref = pending.pop(0)
            if q in SHARES and form is None and isinstance(ref, A.Obj) and plural is not None:
                out.append(f"that {'share' if plural else 'shares'} {SHARES[q]} with {render_obj(ref)}")
                continue
            if q == "that_targets" and form in (None, "only") and isinstance(ref, A.Obj) and plural:
                # "Spells your opponents cast that target ~" (CR 115.1): the verb agrees with its object
                out.append(f"that target {'only ' if form else ''}{render_obj(ref)}")
                continue
            out.append(_ref_post(q, ref, form))
        else:
            out.append(_post(q, words, prep, form))
    if pending:
        raise NotRendered("Obj:refs")
    return out


#: post-modifiers naming an object (ast.REF_QUALIFIERS) → their words before it; (rule, form) for
#: the alternatives a form tells apart
REF_POSTS = {
    "that_targets": "that targets", ("that_targets", "only"): "that targets only",  # CR 115.1
    "other_than": "other than",
    "same_name_as": "with the same name as",  # CR 201.2
    "and": "and",  # an object list (CR 608.2c)
    "blocking": "blocking", ("blocking", "or+blocked+by"): "blocking or blocked by",  # CR 509.1
    "blocking_or_blocked_by": "blocking or blocked by",
    "attached": "attached to",  # CR 301.5, 303.4
    "greatest": "with the greatest power among",
    "power_less_than": "with power less than",  # "with power less than ~'s power" (CR 208.1)
    "from_among": "from among",  # "a creature card from among them" (CR 608.2c)
}

#: "that shares a creature type with it" (CR 205.3, 105.2): qualifier → what is shared; the verb
#: agrees with the object that holds the qualifier ("creatures that share …")
SHARES = {"shares_creature_type": "a creature type", "shares_card_type": "a card type", "shares_color": "a color"}


#: post-modifiers comparing with a quantity (an Amount ref) → their words before it (CR 202.3, 208.1)
REF_COMPARISONS = {"mv_leq": "with mana value less than or equal to", "mv_equal_to": "with mana value equal to",
                   "power_leq": "with power less than or equal to"}


def _ref_post(q: str, ref: A.Node, form: str | None) -> str:
    """One post-modifier naming ``ref`` ("that targets ~", "other than ~", "and each player",
    "dealt damage by ~ this turn" — CR 120; "with mana value equal to <quantity>")."""
    if q in REF_COMPARISONS and form is None and isinstance(ref, A.Amount):
        return f"{REF_COMPARISONS[q]} {quantity(ref)}"
    if not isinstance(ref, A.Obj):
        raise NotRendered("Obj:refs")
    if q == "dealt_damage_by" and form is None:
        return f"dealt damage by {render_obj(ref)} this turn"
    head = REF_POSTS.get(q if form is None else (q, form))
    if head is None:
        raise NotRendered("Obj:post=form" if form is not None else f"Obj:post={q}")
    return f"{head} {render_obj(ref)}"


def _post(q: str, words: list[str], prep: str | None = None, form: str | None = None) -> str:
    """One post-modifier. ``prep``: "in" or "from" before a zone when the context decides it
    (a counted quantity is "in" a zone); else "in" after "each", "from" otherwise. ``form``: the
    form kept with it (:func:`posts`); a zone's form that starts with "in" is the preposition
    written (transform.p_zone: "cards in your graveyard"), which then wins over ``prep``."""
    if q.startswith("zone:") and form is not None and form.split("+")[0] == "in":
        rest = form.split("+")[1:]
        return _post(q, words, "in", "+".join(rest) if rest else None)
    if form is not None:
        if q.startswith("power:") and form == "toughness":  # "with power or toughness 4 or greater"
            return _post(q, words, prep).replace("with power ", "with power or toughness ", 1)
        phrase = POST_FORMS.get((q, form))
        whose, _, zone = form.partition("+")
        if q in ("zone:controller_hand", "zone:controller_graveyard") and zone == q[len("zone:controller_"):] \
                and whose in _PRONOUN_FORMS:  # "in its controller's graveyard" (zones.lark z_controller_zone, CR 109.4)
            phrase = f"{_PRONOUN_FORMS[whose]} controller's {zone}"
        if q.startswith("zone:hand_of:"):  # "cards in that player's hand" (the form names the player)
            phrase = HAND_OF_FORMS.get(form)
        if phrase is None:
            raise NotRendered("Obj:post=form")
        if q.startswith("zone:") and not phrase.startswith("from "):
            return f"{prep or ('in' if words and words[0] == 'each' else 'from')} {phrase}"
        return phrase
    if q in POSTS:
        return POSTS[q]
    if q in A.REF_QUALIFIERS:  # (read by posts() with its object)
        raise NotRendered("Obj:refs")
    name, _, arg = q.partition(":")
    if q == "named:~":  # "a card named ~" (cards with this card's name)
        return "named ~"
    if name == "zone" and arg in FROM_ZONES:
        return "from " + FROM_ZONES[arg]
    if name == "zone" and arg in ZONES:
        # "from"/"in" are one rule: a target/chosen card comes "from", a counted/each one is "in"
        prep = prep or ("in" if words and words[0] == "each" else "from")
        return f"{prep} {ZONES[arg]}"
    if name in ("power", "toughness", "mv") and arg:
        value, _, cmp = arg.rpartition(":")
        stat = {"power": "power", "toughness": "toughness", "mv": "mana value"}[name]
        if not (value.isdigit() or value == "X"):
            raise NotRendered(f"Obj:post={name}")
        tail = {"<=": " or less", ">=": " or greater", "=": ""}[cmp]
        return f"with {stat} {value}{tail}"
    if name in ("with_keyword", "without_keyword") and arg:
        from pipeline.parse.lexicon import is_keyword

        if not all(is_keyword(k) for k in arg.split(",")):
            raise NotRendered(f"Obj:post={name}")
        return ("with " if name == "with_keyword" else "without ") + " and ".join(arg.split(","))
    if name in ("with_counter", "without_counter"):  # "with a +1/+1 counter on it" (CR 122): render_counters
        from pipeline.parse.render_counters import with_counter_phrase

        return with_counter_phrase(name, arg)
    if name in ("of_a", "of") and arg:
        # "abilities of an artifact source" / "abilities of artifacts" (CR 113.8: an ability's source)
        words = arg.split(",")
        if not all(is_object_word(w) for w in words):
            raise NotRendered(f"Obj:post={name}")
        text = " ".join(words)
        return f"of {article(text)} {text}" if name == "of_a" else f"of {text}"
    if name == "extreme" and arg.partition(":")[0] in ("greatest", "least") and arg.partition(":")[2] in NUMERIC_STATS:
        # "the creature with the greatest mana value", "the creature with the least power" (CR 208.1, 202.3)
        word, _, stat = arg.partition(":")
        return f"with the {word} {stat}"
    if name in ("total", "total_power"):
        # "with total mana value 6 or less" (transform_objects.p_total_stat), "with total power 8 or
        # greater" (conditions.lark p_total_power): the sum over the objects (CR 202.3, 208.1)
        parts = arg.rsplit(":", 2) if name == "total" else ["power"] + arg.rsplit(":", 1)
        if len(parts) != 3 or parts[0] not in NUMERIC_STATS or parts[2] not in ("<=", ">=") \
                or not (parts[1].isdigit() or parts[1] == "X"):
            raise NotRendered(f"Obj:post={name}")
        return f"with total {parts[0]} {parts[1]} or {'less' if parts[2] == '<=' else 'greater'}"
    if name == "isnt" and arg in _ISNT_WORDS:  # "target permanent that isn't enchanted"
        return f"that isn't {arg}"
    if name == "from_source" and arg:  # "activated ability from an artifact source" (CR 113.7: its source)
        words = arg.split(",")
        if not all(is_object_word(w) for w in words):
            raise NotRendered("Obj:post=from_source")
        return f"from {article(words[0])} {descriptor(words)}"
    if name == "thats_a" and arg:  # "creature you control that's a Wolf or a Werewolf" (CR 205.3)
        words = arg.split(",")
        return f"that's {article(words[0])} {descriptor(words)}"
    if name == "your_choice" and arg in CARD_TYPE_WORDS:  # "of the creature type of your choice" (CR 205.3m)
        return f"of the {arg} type of your choice"
    if name == "this_way" and arg in ("countered", "revealed", "exiled", "discarded", "milled",
                                      "sacrificed", "destroyed", "returned", "tapped", "chosen", "drawn"):
        return f"{arg} this way"
    raise NotRendered(f"Obj:post={name}")


_NON = re.compile(r"non-?[a-z][a-z'-]*$")


def descriptor(words: list[str]) -> str:
    """Descriptor words of an object, lists written the Oracle way ("artifact, creature, or
    enchantment"). Every word must be in a closed lexicon."""
    items: list[list[str]] = [[]]
    seps: list[str] = []
    for w in words:
        if w in ("or", "and", "and/or"):
            items.append([])
            seps.append(w)
        elif w in QUANTIFIERS and not items[-1]:  # "… and all other permanents" (dlist: a later item's quantifier)
            items[-1].append(QUANTIFIERS[w])
        elif (is_object_word(w) or w in ("a", "an")
              or (" " in w and all(is_object_word(p) or p in ("and", "or") for p in w.split()))):
            # (a type word of several words: "instant and sorcery", statics.lark)
            items[-1].append(w)
        else:
            raise NotRendered("Obj:word")
    texts = []
    for it in items:
        if it and it[0] in ("a", "an") and len(it) > 1:
            it = [article(it[1])] + it[1:]
        # two "non-" words are joined by a comma: "noncreature, nonland permanent" (objects.lark NONCOMMA)
        texts.append("".join(w + (", " if _NON.match(w) and k + 1 < len(it) and _NON.match(it[k + 1]) else " ")
                             for k, w in enumerate(it)).rstrip())
    if any(not t for t in texts):
        raise NotRendered("Obj:word")
    if len(texts) == 1:
        return texts[0]
    sep = seps[-1]
    if len(texts) == 2:
        return f"{texts[0]} {sep} {texts[1]}"
    return ", ".join(texts[:-1]) + f", {sep} {texts[-1]}"


def is_plural(obj) -> bool:
    """True when an object description names several objects ("creatures you control",
    "all artifacts", "them"): the verb agrees in the plural."""
    if not isinstance(obj, A.Obj):
        return False
    if obj.qualifiers[:1] and obj.qualifiers[0] in PLURAL_BASES:  # "the copies"
        return True
    if obj.qualifiers[:1] == ["each_of"]:  # "each of them" is singular
        return False
    if obj.qualifiers[:1] == ["list_and"]:  # "target creature and target land" (two objects)
        return True
    if "and" in obj.qualifiers and obj.qualifiers[:1] != ["each_of"]:
        return True  # "~ and other Vampire creatures you control" (an object list, CR 608.2c: two subjects)
    if obj.qualifiers[:1] == ["n_of"]:  # "one of them" / "two of them"
        return not (obj.count is not None and obj.count.kind == "fixed" and obj.count.value == 1)
    if obj.quantifier in ("them", "all", "all_other", "those", "other", "both"):  # singular: "another"
        return True
    if obj.quantifier in ("self", "it", "you", "a", "target", "another", "another_target", "each",
                          "each_other", "that", "each_exiled", "each_enchanted"):
        return False
    if obj.qualifiers[:1] == ["its"] and len(obj.qualifiers) > 1:  # "their controllers"
        return obj.qualifiers[1] in ("controllers", "owners")
    words = [w for w in obj.words if w not in ("or", "and", "and/or")]
    return bool(words) and words[-1].endswith("s") and is_object_word(words[-1])


#: the possessive pronoun of an ``o_its`` / ``o_stat`` object by its form (the alternative matched)
_PRONOUN_FORMS = {"it": "its", "their": "their"}
_OWNER_PLURALS = {"controller": "controllers", "owner": "owners"}


def _possessive(obj: A.Obj) -> str:
    """Objects that name what belongs to another object or player (CR 108.3 owner, 109.4
    controller; characteristics CR 208 power/toughness, 202.3 mana value): "its controller",
    "their owners", "its power", "that creature's toughness", "enchanted creature's controller",
    "its owner's controller". The object's first qualifier is the rule (``its``: a pronoun and an
    owner word; ``stat``: the last qualifier is the characteristic; ``poss``: the last qualifier is
    the owner word); a ``form:it`` / ``form:their`` qualifier says which pronoun was written."""
    kind, rest = obj.qualifiers[0], list(obj.qualifiers[1:])
    forms = [x.partition(":")[2] for x in rest if x.startswith("form:")]
    rest = [x for x in rest if not x.startswith("form:")]
    if kind == "its":
        if not rest or rest[0] not in _OWNER_WORDS + tuple(_OWNER_PLURALS.values()):
            raise NotRendered("Obj:its")
        head, inner, tail = rest[0], [], rest[1:]
    else:
        if not rest:
            raise NotRendered(f"Obj:{kind}")
        head, inner, tail = rest[-1], rest[:-1], []
        if kind == "stat":
            head = _stat(head)
        elif head not in _OWNER_WORDS:
            raise NotRendered("Obj:poss")
    if obj.words or obj.quantifier is not None or inner:
        if kind != "its" and forms and obj.qualifiers[-1:] == [rest[-1]]:
            inner = list(obj.qualifiers[1:-1])  # the owner's own forms ("that spell or ability's controller")
        elif forms or kind == "its":
            raise NotRendered("Obj:post=form")
        owner = A.Obj(obj.quantifier, obj.count, list(obj.words), "", inner, list(obj.refs))
        who = render_obj(owner)
        who += "'" if is_plural(owner) and who.endswith("s") else "'s"
    else:
        if len(forms) != 1 or forms[0] not in _PRONOUN_FORMS:
            raise NotRendered("Obj:post=form")
        who = _PRONOUN_FORMS[forms[0]]
    return " ".join([who, head] + posts(tail, [head], refs=[] if obj.words or obj.quantifier is not None or inner else obj.refs))


def _one_to_n_targets(obj: A.Obj, quals: list[str], prep) -> str:
    """"one or two targets", "one, two, or three target creatures you control" (CR 601.2d: the
    number of targets is chosen, from one up to ``count.value``)."""
    n = obj.count.value
    if not isinstance(n, int) or not 2 <= n < len(NUMBER_WORDS):
        raise NotRendered("Obj:one_to")
    nums = NUMBER_WORDS[1:n + 1]
    head = " or ".join(nums) if n == 2 else ", ".join(nums[:-1]) + ", or " + nums[-1]
    if quals[:1] == ["any_target"] and obj.words == ["targets"]:  # "among one or two targets"
        return " ".join([head, "targets"] + posts(quals[1:], [head], prep, obj.refs))
    if quals[:1] == ["form:target"]:
        quals = quals[1:]
        head += " target"
    return " ".join([head, descriptor(obj.words)] + posts(quals, [head], prep, obj.refs))


#: whose cost a cost object names (transform_conditions.o_cost): "~'s" (qualifier ``of:~``, the
#: self-reference), "its" / "their" (the pronoun the grammar matched, ``form:it`` / ``form:their``)
_COST_OWNERS = {"of:~": "~'s", "form:it": "its", "form:their": "their"}


def _cost_of(obj: A.Obj) -> str:
    """"~'s prowl cost", "its madness cost", "~'s additional cost" (CR 118.8, 702: a keyword's cost;
    the word must be a keyword ability of CR 702 or "additional")."""
    if len(obj.qualifiers) != 1 or obj.qualifiers[0] not in _COST_OWNERS or obj.count is not None or obj.refs \
            or len(obj.words) != 2 or obj.words[1] != "cost" or not (obj.words[0] == "additional" or is_keyword(obj.words[0])):
        raise NotRendered("Obj:quantifier=cost")
    return f"{_COST_OWNERS[obj.qualifiers[0]]} {obj.words[0]} cost"


@renders(A.Obj)
def render_obj(obj: A.Obj, role: str = "object", prep: str | None = None, **_) -> str:
    """``role``: "subject" (they/it) or "object" (them/it) for the personal pronouns."""
    form = OBJ_FORMS.get(obj.qualifiers[0].partition(":")[0]) if obj.qualifiers else None
    if form is not None:
        return form(obj, role=role, prep=prep)
    q = obj.quantifier
    if obj.qualifiers[:1] == ["each_of"]:  # "each of them", "each of up to two target creatures" (CR 608.2c)
        return "each of " + render_obj(A.Obj(q, obj.count, list(obj.words), "", obj.qualifiers[1:], list(obj.refs)), prep=prep)
    if obj.qualifiers[:1] == ["n_of"]:  # "one of them", "up to two of those cards"
        head = amount_number(obj.count)
        rest = obj.qualifiers[1:]
        if rest[:1] == ["form:up+to"]:
            head, rest = "up to " + head, rest[1:]
        return f"{head} of " + render_obj(A.Obj(q, None, list(obj.words), "", rest, list(obj.refs)), prep=prep)
    if obj.qualifiers and obj.qualifiers[0] in ("its", "stat", "poss"):  # "~'s power", "its controller"
        return _possessive(obj)
    if q == "cost":
        return _cost_of(obj)
    pronoun = {"self": "~", "you": "you", "it": "it", "them": "they" if role == "subject" else "them"}.get(q)
    if pronoun is not None:  # "~ from your hand", "it"
        return " ".join([pronoun] + posts(obj.qualifiers, [pronoun], refs=obj.refs))
    quals = list(obj.qualifiers)
    if quals and quals[0] in ("its", "stat", "poss"):
        return _possessive(obj)
    if quals and quals[0] == "self_or_other" and obj.words[:1] == ["~"] and (q in QUANTIFIERS or q == "a"):
        rest = A.Obj(q, obj.count, obj.words[1:], "", quals[1:], list(obj.refs))
        return "~ or " + render_obj(rest)  # "~ or another creature"
    head = ""
    if q == "target" and obj.count is not None and obj.count.kind == "one_to" and obj.words:
        return _one_to_n_targets(obj, quals, prep)  # "one or two targets" (before the bases: any_target)
    if q == "any_number" and obj.count is None and obj.words == ["targets"] and quals[:1] == ["any_target"]:
        # "divided as you choose among any number of targets" (CR 601.2d)
        return " ".join(["any number of targets"] + posts(quals[1:], ["any"], prep, obj.refs))
    if quals and quals[0] in BASES:
        if obj.words or q is not None:
            raise NotRendered("Obj:base")
        head = BASES[quals.pop(0)]
        if head == "that spell" and quals[:1] == ["form:or+ability"]:  # "that spell or ability" (CR 113.1)
            head += " or ability"
            quals.pop(0)
        return " ".join([head] + posts(quals, [], refs=obj.refs))
    if quals and quals[0] == "any_number" and q is None and obj.words:  # CR 601.2c "any number of"
        quals.pop(0)
        head = "any number of"
        if quals[:1] == ["form:target"]:
            quals.pop(0)
            head += " target"
        return " ".join([head, descriptor(obj.words)] + posts(quals, [head], prep, obj.refs))
    if quals[:1] == ["chosen"] and q is None and not obj.words and quals[1:2] in (["form:player"], ["form:permanent"]):
        # "the chosen player" (objects.lark o_chosen)
        return " ".join(["the chosen", quals[1][5:]] + posts(quals[2:], ["the"], prep, obj.refs))
    if quals and quals[0] == "chosen" and q is None and obj.words and quals[1:2] != ["form:type"] \
            and quals[1:2] != ["form:color"]:  # "the chosen creature" (o_chosen)
        return " ".join(["the chosen", descriptor(obj.words)] + posts(quals[1:], ["the"], prep, obj.refs))
    if quals[:1] == ["the_other"] and q is None and obj.count is None:  # "the other creature" (copy.lark)
        return " ".join(["the other"] + ([descriptor(obj.words)] if obj.words else [])
                        + posts(quals[1:], ["the"], prep, obj.refs))
    if q in _AMONG and obj.count is None and obj.words[-1:] == [_AMONG[q]] and quals[:1] == ["among"] \
            and quals[1:] in ([], [f"form:{_AMONG[q]}s"]) and len(obj.refs) == 1:
        # "the number of basic land types among lands you control", "for each card type among …"
        # (CR 205.2a), "the number of colors among permanents you control" (CR 105.2)
        noun = _AMONG[q] + ("s" if quals[1:] else "")
        return " ".join(([descriptor(obj.words[:-1])] if obj.words[:-1] else [])
                        + [noun, "among", render_obj(obj.refs[0], prep="in")])
    if q == "first_each_turn" and obj.count is None and obj.words and quals[:1] == ["you_cast"] \
            and quals[1:2] in (["form:cast"], ["form:draw"]):
        # "the first creature spell you cast each turn", "the first card you draw each turn" (statics.lark)
        return " ".join(["the first", descriptor(obj.words), "you", quals[1][5:], "each turn"]
                        + posts(quals[2:], ["the"], prep, obj.refs))
    if quals[:1] == ["next"] and q is None and obj.count is None and obj.words:
        # "the next creature spell you cast this turn", "your next instant or sorcery spell" (copy.lark o_next)
        owner = quals[1][5:] if len(quals) > 1 and quals[1].startswith("form:") else None
        if owner not in ("the", "your"):
            raise NotRendered("Obj:post=form")
        return " ".join([owner, "next", descriptor(obj.words)] + posts(quals[2:], [owner], prep, obj.refs))
    if quals and quals[0] == "that_creature":
        quals.pop(0)
        parts = ["that"]
        q = None
    else:
        parts = []
    if q is not None:
        if q in QUANTIFIERS:
            parts.append(QUANTIFIERS[q])
        elif q == "a":
            parts.append(article(obj.words[0]) if obj.words else "a")
        elif q == "n_target":
            parts += [amount_number(obj.count), "target"]
        elif q == "up_to":
            parts += ["up to", amount_number(obj.count)]
        elif q == "up_to_target":
            parts += ["up to", amount_number(obj.count), "target"]
        elif q == "up_to_other_target":  # "up to one other target creature" (CR 115.3)
            parts += ["up to", amount_number(obj.count), "other target"]
        elif q in ("n_other", "n_other_target"):
            parts += [amount_number(obj.count), "other"] + (["target"] if q == "n_other_target" else [])
        elif q == "num":
            parts.append(amount_number(obj.count))
        elif q in ("n_or_more", "n_or_more_other", "n_or_fewer", "n_or_fewer_other"):
            # "two or more basic lands", "two or fewer other lands" (fast lands, CR 614.1c)
            parts += [amount_number(obj.count), "or more" if "more" in q else "or fewer"] + (["other"] if q.endswith("_other") else [])
        elif q.startswith("the_exiled:") and q[len("the_exiled:"):] in THE_PARTICIPLES:
            parts.append("the " + q[len("the_exiled:"):])  # "the sacrificed creature"
        else:
            raise NotRendered(f"Obj:quantifier={q}")
    elif obj.count is not None:
        parts.append(amount_number(obj.count))
    if not obj.words:
        raise NotRendered("Obj:empty")
    if quals and quals[0] in ("desc",):
        quals.pop(0)
    parts.append(descriptor(obj.words))
    refs = list(obj.refs)
    n_items = next((i for i, x in enumerate(quals) if x not in LIST_SEPARATORS), len(quals))
    if n_items:  # "target creature and target land", "a white card, a blue card, …, and a green card"
        seps = set(quals[:n_items])
        if len(seps) != 1 or len(refs) < n_items or not all(isinstance(r, A.Obj) for r in refs[:n_items]):
            raise NotRendered("Obj:list")
        items = [" ".join(parts)] + [render_obj(r, role=role, prep=prep) for r in refs[:n_items]]
        sep = LIST_SEPARATORS[quals[0]]
        parts = [f"{items[0]} {sep} {items[1]}" if len(items) == 2
                 else ", ".join(items[:-1]) + f", {sep} {items[-1]}"]
        quals, refs = quals[n_items:], refs[n_items:]
    parts += posts(quals, parts, prep, refs, plural=is_plural(obj))
    return " ".join(parts)


#: the later items of an object list (transform._mk_obj: qualifier per item, the item in refs) → the
#: separator written before the last item (CR 115.3: "target creature and target land" = two targets)
LIST_SEPARATORS = {"list_and": "and", "list_or": "or", "list_and_or": "and/or"}


@renders(A.Amount)
def render_amount(amount: A.Amount, **_) -> str:
    """A bare amount: number word or X (contexts needing digits call :func:`amount_number`)."""
    return amount_number(amount)


#: words of each Chosen kind (ast.CHOSEN_KINDS)
CHOSEN_WORDS = {"type": "the chosen type", "creature_type": "the chosen creature type", "color": "the chosen color",
                "name": "the chosen name", "player": "the chosen player", "number": "the chosen number"}


@renders(A.Chosen)
def render_chosen(c: A.Chosen, **_) -> str:
    """"the chosen type", "the chosen color" (a value a choice made earlier picked, CR 607.2d)."""
    if c.kind not in CHOSEN_WORDS:
        raise NotRendered("Chosen")
    return CHOSEN_WORDS[c.kind]


def for_each_phrase(ref: A.Node) -> str:
    """What "for each …" counts (CR 107.1: one per object or per event): an object ("for each creature you
    control"), or a counted event — "for each time it was kicked" (``quantity:times_kicked``, CR 702.33),
    "for each color of mana spent to cast it" (``quantity:colors_spent``, CR 601.2h)."""
    if isinstance(ref, A.Obj):
        return render(ref, prep="in")
    if isinstance(ref, A.Action) and ref.verb in ("quantity:times_kicked", "quantity:colors_spent") \
            and isinstance(ref.obj, A.Obj) and not ref.extra and ref.subject is None and ref.amount is None:
        if ref.verb == "quantity:times_kicked":
            return f"time {render_obj(ref.obj, role='subject')} was kicked"
        return f"color of mana spent to cast {render_obj(ref.obj)}"
    if isinstance(ref, A.Action) and ref.verb == "quantity:counters" and isinstance(ref.obj, A.Obj) \
            and set(ref.extra) == {"counter"} and ref.subject is None and ref.amount is None:
        from pipeline.parse.render_counters import counter_word  # (render_counters imports this module)

        kind = ref.extra["counter"]
        return (f"{counter_word(kind)} counter" if kind else "counter") + f" on {render(ref.obj)}"  # CR 122.1
    raise NotRendered("Amount:for_each")


renders_verb("quantity:devotion", "quantity:times_kicked", "quantity:total", "quantity:greatest", "quantity:mana_spent",
             "quantity:total_number", "quantity:greatest_number", "quantity:colors_spent",
             *("quantity:" + n for n in QUANTITY_WORDS))(_render_quantity)


@renders(A.WhereX)
def render_where_x(w: A.WhereX, **_) -> str:
    """"where X is the number of tapped creatures you control" (CR 107.3a: X defined by the
    ability's text) as one part of a sentence, joined by the comma the sentence keeps ("Search
    your library for up to X basic land cards, where X is …, put those cards onto the battlefield
    …"); a trailing one is written by render_effects.render_sentence."""
    if w.variable != "X":
        raise NotRendered("WhereX")
    d = w.definition
    return "where X is " + (quantity(d) if isinstance(d, A.Amount) else render(d))
