"""Renderers of objects and quantities (``grammar/objects.lark``): :class:`Obj`, :class:`Amount`.

An object is written ``[quantifier] [count] descriptor-words [post-modifiers]``; descriptor
words must come from the closed lexicons (:mod:`pipeline.parse.lexicon`), post-modifiers are
the rule names the grammar stored (``you_control``, ``zone:your_graveyard`` …). A qualifier that
carries wording (``other_than:<text>``) is free text and is not rendered.
"""

from __future__ import annotations

from pipeline.parse import ast as A
from pipeline.parse.lexicon import is_object_word
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
    raise NotRendered(f"Amount:{amount.kind}")


def article(word: str) -> str:
    """"a" or "an" before ``word`` (English sound rule on the spelling)."""
    w = word.lstrip("{").lower()
    return "an" if w[:1] in "aeiou" or w.startswith(("8", "11", "18")) else "a"


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
    "this_ability": "this", "both": "both",  # "This ability costs {1} less to activate" (statics.lark c_this_ability)
}

ZONES = {
    "your_graveyard": "your graveyard", "a_graveyard": "a graveyard", "graveyards": "graveyards",
    "opp_graveyard": "an opponent's graveyard", "your_hand": "your hand", "your_library": "your library",
    "exile": "exile", "tp_graveyard": "target player's graveyard", "their_graveyard": "their graveyard",
    "their_hand": "their hand", "that_player_graveyard": "that player's graveyard",
    "owner_graveyard": "its owner's graveyard", "battlefield": "the battlefield",
    "it": "it", "among_them": "among them",  # "a card from it", "a creature card from among them"
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
    "exiled_with": "exiled with ~", "of_that_type": "of that type", "not_cast": "that wasn't cast",
    "crewed_it": "that crewed it this turn", "chosen_name": "with the chosen name",
    "you_cast": "you cast", "opps_cast": "your opponents cast",
    "you_cast_this_turn": "you cast this turn", "you_drew_this_turn": "you've drawn this turn",
}

#: "the exiled card", "the sacrificed creature" (objects.lark q_the_exiled: the participle is its form)
THE_PARTICIPLES = ("exiled", "enchanted", "milled", "sacrificed", "revealed", "discarded", "chosen")

#: quantities that count no object (Action("quantity:<name>") as an Amount's ref) → their wording
QUANTITY_WORDS = {
    "opponents_you_have": "the number of opponents you have",  # CR 102.2
    "life_gained_this_turn": "the amount of life you gained this turn",  # CR 119.3
    "life_total": "your life total",  # CR 119.1
    "life_lost_this_way": "the life lost this way",
    "damage_dealt_this_way": "the damage dealt this way",  # CR 120
    "damage_prevented_this_way": "the damage prevented this way",  # CR 615.5
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
    extra_keys(a, set())
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
         "that_spell": "that spell", "the_rest": "the rest"}


_OWNER_WORDS = ("controller", "owner")
_STATS = {"stat:power": "power", "stat:toughness": "toughness", "stat:mana value": "mana value",
          "stat:loyalty": "loyalty"}


def _stat(q: str) -> str:
    if q not in _STATS:
        raise NotRendered("Obj:stat")
    return _STATS[q]


def quantity(amount: A.Amount) -> str:
    """An ``equal_to`` amount's quantity: "its power" (a stat object) or "the number of
    creatures you control" (a counted object), CR 107.1."""
    if amount is not None and amount.kind == "equal_to" and isinstance(amount.value, int) and amount.ref is not None:
        # "2 plus the number of cards named ~ in all graveyards", "1 plus the exiled creature's mana value"
        return f"{amount.value} plus " + quantity(A.Amount("equal_to", ref=amount.ref))
    if amount is not None and amount.kind == "equal_to" and amount.value is None and isinstance(amount.ref, A.Action) \
            and amount.ref.verb.startswith("quantity:"):
        return render(amount.ref)
    if amount is None or amount.kind != "equal_to" or amount.value is not None or not isinstance(amount.ref, A.Obj):
        raise NotRendered(f"Amount:{getattr(amount, 'kind', None)}")
    ref = amount.ref
    if "stat" in ref.qualifiers:
        return render_obj(ref)
    return "the number of " + render(ref, prep="in")  # (dispatch: an Obj subclass has its own renderer)


#: qualifiers whose alternatives differ by a literal word kept as their form (``form:<w>+<w>``
#: right after them): (rule name, form) → words
POST_FORMS = {
    ("dealt_damage", "that+is"): "that was dealt damage this turn",  # CR 120
    ("chosen", "type"): "of the chosen type", ("chosen", "color"): "of the chosen color",
    ("zone:a_graveyard", "single"): "from a single graveyard",
    ("zone:graveyards", "all"): "all graveyards",
    ("named:~", "not"): "not named ~",
}

#: "<player>'s hand" zones (coverage.lark z_named_hand) by their form
HAND_OF_FORMS = {"that+player": "that player's hand", "target+player": "target player's hand",
                 "target+opponent": "target opponent's hand", "each+player": "each player's hand",
                 "it+owner": "its owner's hand"}

#: zones read only after "from" ("a card from it", "from among them", CR 400.11 outside the game)
FROM_ZONES = {"it": "it", "among_them": "among them", "outside_game": "outside the game"}


def posts(quals: list[str], words: list[str], prep: str | None = None) -> list[str]:
    """Post-modifiers in order; a ``form:`` qualifier is read with the one before it
    (:data:`POST_FORMS`), any other form fails the round trip (``Obj:post=form``)."""
    out = []
    i = 0
    while i < len(quals):
        q = quals[i]
        form = quals[i + 1][5:] if i + 1 < len(quals) and quals[i + 1].startswith("form:") else None
        i += 2 if form is not None else 1
        out.append(_post(q, words, prep, form))
    return out


def _post(q: str, words: list[str], prep: str | None = None, form: str | None = None) -> str:
    """One post-modifier. ``prep``: "in" or "from" before a zone when the context decides it
    (a counted quantity is "in" a zone); else "in" after "each", "from" otherwise. ``form``: the
    form kept with it (:func:`posts`)."""
    if form is not None:
        if q.startswith("power:") and form == "toughness":  # "with power or toughness 4 or greater"
            return _post(q, words, prep).replace("with power ", "with power or toughness ", 1)
        phrase = POST_FORMS.get((q, form))
        if q.startswith("zone:hand_of:"):  # "cards in that player's hand" (the form names the player)
            phrase = HAND_OF_FORMS.get(form)
        if phrase is None:
            raise NotRendered("Obj:post=form")
        if q.startswith("zone:") and not phrase.startswith("from "):
            return f"{prep or ('in' if words and words[0] == 'each' else 'from')} {phrase}"
        return phrase
    if q in POSTS:
        return POSTS[q]
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
    if name == "with_counter":  # "with a +1/+1 counter on it", "with a counter on it" (CR 122)
        from pipeline.parse.render_counters import counters

        n, _, rest = arg.partition(":")
        kind, _, pronoun = rest.partition(":")
        if pronoun not in ("it", "them"):
            raise NotRendered("Obj:post=with_counter")
        if not kind:
            if n != "1":
                raise NotRendered("Obj:post=with_counter")
            return f"with a counter on {pronoun}"
        amount = A.Amount("fixed", value=int(n)) if n.isdigit() else A.Amount("x", variable=n) if n == "X" else None
        if amount is None:
            raise NotRendered("Obj:post=with_counter")
        return f"with {counters(amount, kind)} on {pronoun}"
    if name in ("of_a", "of") and arg:
        # "abilities of an artifact source" / "abilities of artifacts" (CR 113.8: an ability's source)
        words = arg.split(",")
        if not all(is_object_word(w) for w in words):
            raise NotRendered(f"Obj:post={name}")
        text = " ".join(words)
        return f"of {article(text)} {text}" if name == "of_a" else f"of {text}"
    if name == "this_way" and arg in ("countered", "revealed", "exiled", "discarded", "milled",
                                      "sacrificed", "destroyed", "returned", "tapped", "chosen", "drawn"):
        return f"{arg} this way"
    raise NotRendered(f"Obj:post={name}")


def descriptor(words: list[str]) -> str:
    """Descriptor words of an object, lists written the Oracle way ("artifact, creature, or
    enchantment"). Every word must be in a closed lexicon."""
    items: list[list[str]] = [[]]
    seps: list[str] = []
    for w in words:
        if w in ("or", "and", "and/or"):
            items.append([])
            seps.append(w)
        elif (is_object_word(w) or (w in QUANTIFIERS and not items[-1]) or w in ("a", "an")
              or (" " in w and all(is_object_word(p) or p in ("and", "or") for p in w.split()))):
            # (a type word of several words: "instant and sorcery", statics.lark)
            items[-1].append(w)
        else:
            raise NotRendered("Obj:word")
    texts = []
    for it in items:
        if it and it[0] in ("a", "an") and len(it) > 1:
            it = [article(it[1])] + it[1:]
        texts.append(" ".join(it))
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
    if obj.quantifier in ("them", "all", "all_other", "those", "other"):  # singular: "another"
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
        if forms or kind == "its":
            raise NotRendered("Obj:post=form")
        owner = A.Obj(obj.quantifier, obj.count, list(obj.words), "", inner)
        who = render_obj(owner)
        who += "'" if is_plural(owner) and who.endswith("s") else "'s"
    else:
        if len(forms) != 1 or forms[0] not in _PRONOUN_FORMS:
            raise NotRendered("Obj:post=form")
        who = _PRONOUN_FORMS[forms[0]]
    return " ".join([who, head] + posts(tail, [head]))


def _one_to_n_targets(obj: A.Obj, quals: list[str], prep) -> str:
    """"one or two targets", "one, two, or three target creatures you control" (CR 601.2d: the
    number of targets is chosen, from one up to ``count.value``)."""
    n = obj.count.value
    if not isinstance(n, int) or not 2 <= n < len(NUMBER_WORDS):
        raise NotRendered("Obj:one_to")
    nums = NUMBER_WORDS[1:n + 1]
    head = " or ".join(nums) if n == 2 else ", ".join(nums[:-1]) + ", or " + nums[-1]
    if quals[:1] == ["any_target"] and obj.words == ["targets"]:  # "among one or two targets"
        return " ".join([head, "targets"] + posts(quals[1:], [head], prep))
    if quals[:1] == ["form:target"]:
        quals = quals[1:]
        head += " target"
    return " ".join([head, descriptor(obj.words)] + posts(quals, [head], prep))


@renders(A.Obj)
def render_obj(obj: A.Obj, role: str = "object", prep: str | None = None, **_) -> str:
    """``role``: "subject" (they/it) or "object" (them/it) for the personal pronouns."""
    form = OBJ_FORMS.get(obj.qualifiers[0].partition(":")[0]) if obj.qualifiers else None
    if form is not None:
        return form(obj, role=role, prep=prep)
    q = obj.quantifier
    if obj.qualifiers and obj.qualifiers[0] in ("its", "stat", "poss"):  # "~'s power", "its controller"
        return _possessive(obj)
    pronoun = {"self": "~", "you": "you", "it": "it", "them": "they" if role == "subject" else "them"}.get(q)
    if pronoun is not None:  # "~ from your hand", "it"
        return " ".join([pronoun] + posts(obj.qualifiers, [pronoun]))
    quals = list(obj.qualifiers)
    if quals and quals[0] in ("its", "stat", "poss"):
        return _possessive(obj)
    if quals and quals[0] == "self_or_other" and obj.words[:1] == ["~"] and q in QUANTIFIERS:
        rest = A.Obj(q, obj.count, obj.words[1:], "", quals[1:])
        return "~ or " + render_obj(rest)  # "~ or another creature"
    head = ""
    if quals and quals[0] in BASES:
        if obj.words or q is not None:
            raise NotRendered("Obj:base")
        head = BASES[quals.pop(0)]
        return " ".join([head] + posts(quals, []))
    if quals and quals[0] == "any_number" and q is None and obj.words:  # CR 601.2c "any number of"
        quals.pop(0)
        head = "any number of"
        if quals[:1] == ["form:target"]:
            quals.pop(0)
            head += " target"
        return " ".join([head, descriptor(obj.words)] + posts(quals, [head], prep))
    if quals and quals[0] == "chosen" and q is None and obj.words and quals[1:2] != ["form:type"] \
            and quals[1:2] != ["form:color"]:  # "the chosen creature" (o_chosen)
        return " ".join(["the chosen", descriptor(obj.words)] + posts(quals[1:], ["the"], prep))
    if q == "target" and obj.count is not None and obj.count.kind == "one_to" and obj.words:
        return _one_to_n_targets(obj, quals, prep)
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
    parts += posts(quals, parts, prep)
    return " ".join(parts)


@renders(A.Amount)
def render_amount(amount: A.Amount, **_) -> str:
    """A bare amount: number word or X (contexts needing digits call :func:`amount_number`)."""
    return amount_number(amount)


renders_verb("quantity:devotion", "quantity:times_kicked", *("quantity:" + n for n in QUANTITY_WORDS))(_render_quantity)
