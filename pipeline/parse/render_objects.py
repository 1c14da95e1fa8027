"""Renderers of objects and quantities (``grammar/objects.lark``): :class:`Obj`, :class:`Amount`.

An object is written ``[quantifier] [count] descriptor-words [post-modifiers]``; descriptor
words must come from the closed lexicons (:mod:`pipeline.parse.lexicon`), post-modifiers are
the rule names the grammar stored (``you_control``, ``zone:your_graveyard`` …). A qualifier that
carries wording (``other_than:<text>``) is free text and is not rendered.
"""

from __future__ import annotations

from pipeline.parse import ast as A
from pipeline.parse.lexicon import is_object_word
from pipeline.parse.render import NotRendered, render, renders

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
    return f"{amount_number(amount)} {plural}"


# quantifier (rule name) → words. Rules that merge several wordings (q_each for "each exiled")
# render the first; a text using another fails the round trip, as it should.
QUANTIFIERS = {
    "target": "target", "another_target": "another target", "another": "another", "each": "each",
    "each_other": "each other", "all": "all", "all_other": "all other", "that": "that", "the": "the",
    "other": "other", "those": "those", "enchanted": "enchanted", "equipped": "equipped",
    "your": "your", "exiled": "exiled", "defending": "defending", "any": "any",
    "each_exiled": "each exiled", "each_enchanted": "each enchanted",
}

ZONES = {
    "your_graveyard": "your graveyard", "a_graveyard": "a graveyard", "graveyards": "graveyards",
    "opp_graveyard": "an opponent's graveyard", "your_hand": "your hand", "your_library": "your library",
    "exile": "exile", "tp_graveyard": "target player's graveyard", "their_graveyard": "their graveyard",
    "their_hand": "their hand", "that_player_graveyard": "that player's graveyard",
    "owner_graveyard": "its owner's graveyard", "battlefield": "the battlefield",
}

# post-modifier rule → words (CR 109.4 control, 108.3 ownership, 110.5 status).
POSTS = {
    "you_control": "you control", "you_dont_control": "you don't control", "you_own": "you own",
    "you_control_not_own": "you control but don't own", "opp_controls": "an opponent controls",
    "opps_control": "your opponents control", "target_player_controls": "target player controls",
    "target_opp_controls": "target opponent controls", "that_player_controls": "that player controls",
    "defending_controls": "defending player controls", "they_control": "they control",
    "its_controller_controls": "its controller controls", "battlefield": "on the battlefield",
    "your_choice": "of your choice", "in_party": "in your party", "attacking_you": "attacking you",
    "attacked": "that attacked this turn", "dealt_damage": "dealt damage this turn",
    "exiled_with": "exiled with ~", "of_that_type": "of that type", "not_cast": "that wasn't cast",
    "crewed_it": "that crewed it this turn", "chosen_name": "with the chosen name",
    "you_cast": "you cast",
}

#: renderers of objects that name part of a zone, by their first qualifier's rule name
#: ("top_cards", "poss_zone"), registered by render_zones (zones.lark)
OBJ_FORMS: dict = {}

# object bases that are fixed wordings (o_* rule name → words)
BASES = {"any_target": "any target", "that_card": "that card", "that_player": "that player",
         "that_spell": "that spell"}


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
    if amount is None or amount.kind != "equal_to" or amount.value is not None or not isinstance(amount.ref, A.Obj):
        raise NotRendered(f"Amount:{getattr(amount, 'kind', None)}")
    ref = amount.ref
    if "stat" in ref.qualifiers:
        return render_obj(ref)
    return "the number of " + render_obj(ref, prep="in")


def _post(q: str, words: list[str], prep: str | None = None) -> str:
    """One post-modifier. ``prep``: "in" or "from" before a zone when the context decides it
    (a counted quantity is "in" a zone); else "in" after "each", "from" otherwise."""
    if q in POSTS:
        return POSTS[q]
    name, _, arg = q.partition(":")
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
        elif is_object_word(w) or (w in QUANTIFIERS and not items[-1]) or w in ("a", "an"):
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
    words = [w for w in obj.words if w not in ("or", "and", "and/or")]
    return bool(words) and words[-1].endswith("s") and is_object_word(words[-1])


@renders(A.Obj)
def render_obj(obj: A.Obj, role: str = "object", prep: str | None = None, **_) -> str:
    """``role``: "subject" (they/it) or "object" (them/it) for the personal pronouns."""
    form = OBJ_FORMS.get(obj.qualifiers[0].partition(":")[0]) if obj.qualifiers else None
    if form is not None:
        return form(obj, role=role, prep=prep)
    q = obj.quantifier
    pronoun = {"self": "~", "you": "you", "it": "it", "them": "they" if role == "subject" else "them"}.get(q)
    if pronoun is not None:  # "~ from your hand", "it"
        return " ".join([pronoun] + [_post(p, [pronoun]) for p in obj.qualifiers])
    quals = list(obj.qualifiers)
    if not obj.words and q is None and len(quals) >= 2 and quals[0] == "its" and quals[1] in _OWNER_WORDS:
        return " ".join(["its", quals[1]] + [_post(p, ["its"]) for p in quals[2:]])  # "its controller"
    if not obj.words and q is None and len(quals) == 2 and quals[0] == "stat" and quals[1].startswith("stat:"):
        return "its " + _stat(quals[1])  # "its power"
    if quals and quals[0] == "self_or_other" and obj.words[:1] == ["~"] and q in QUANTIFIERS:
        rest = A.Obj(q, obj.count, obj.words[1:], "", quals[1:])
        return "~ or " + render_obj(rest)  # "~ or another creature"
    head = ""
    if quals and quals[0] in BASES:
        if obj.words or q is not None:
            raise NotRendered("Obj:base")
        head = BASES[quals.pop(0)]
        return " ".join([head] + [_post(p, []) for p in quals])
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
        elif q == "n_or_more":
            parts += [amount_number(obj.count), "or more"]
        else:
            raise NotRendered(f"Obj:quantifier={q}")
    elif obj.count is not None:
        parts.append(amount_number(obj.count))
    if not obj.words:
        raise NotRendered("Obj:empty")
    if quals and quals[0] in ("desc",):
        quals.pop(0)
    parts.append(descriptor(obj.words))
    for p in quals:
        parts.append(_post(p, parts, prep))
    return " ".join(parts)


@renders(A.Amount)
def render_amount(amount: A.Amount, **_) -> str:
    """A bare amount: number word or X (contexts needing digits call :func:`amount_number`)."""
    return amount_number(amount)
