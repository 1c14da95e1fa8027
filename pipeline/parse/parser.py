"""parse_face: oracle text of one card face → list of :class:`~pipeline.parse.ast.Ability`.

Per ability line: normalise (normalize.py), cut reminder text and the ability word
(segment.py), recognise the line's layout (modal, leveler, chapter, class level, loyalty,
keyword list, triggered, activated, static/spell) and parse each piece with the LALR
grammar's start symbol for it (grammar.py). A piece the grammar cannot read becomes an
:class:`Unparsed` node with its text; the rest of the line keeps its structure.
"""

from __future__ import annotations

import re
from dataclasses import replace

from lark.exceptions import LarkError

from pipeline.parse import ast as A
from pipeline.parse.grammar import get_parser, parse_version
from pipeline.parse.line_memo import LineMemo
from pipeline.parse.render import round_trip
from pipeline.parse.normalize import lower_same_length, normalize_chars, normalize_wording, self_names
from pipeline.parse.segment import (ability_blocks, chapter_prefix, mode_name_pieces, prefix_role, split_ability_word,
                                    split_reminders, split_sentences, top_level_all, top_level_index)
from pipeline.parse.transform import ToAst

_LOYALTY_RE = re.compile(r"^([+-]?(?:\d+|X)): ")
#: A row of a die-roll results table, "1—9 | Copy that card." (CR 706.2).
_DIE_ROW_RE = re.compile(r"^(\d+)(?:[—-](\d+))? \| ")
_CLASS_LEVEL_RE = re.compile(r"^(.+): Level (\d+)$")
#: A station symbol and its striation, "7+ | Flying" (CR 721.2).
_STATION_RE = re.compile(r"^(\d+)\+ \| (?=\S)")
#: An Unfinity sticker with its ticket cost, "{TK}{TK} — Deathtouch" (CR 123.1, 123.3c).
_STICKER_RE = re.compile(r"^((?:\{TK\})+) — (?=\S)")
#: A mode of a spree spell with its additional cost, "+ {1} — Counter target spell." (CR 702.172).
_SPREE_RE = re.compile(r"^\+ ((?:\{[^}]+\})+) — (?=\S)")
_LEVEL_RE = re.compile(r"^LEVEL (\d+)(?:-(\d+)|(\+))$")
_PT_RE = re.compile(r"^[\d*X+-]+/[\d*X+-]+$")
_TRIGGER_RE = re.compile(r"^(when|whenever|at)\b", re.I)
_TARGET_RE = re.compile(r"\btargets?\b", re.I)
_QUOTE_RE = re.compile(r'"[^"]*"')
#: A face whose abilities are instructions of a spell (kind "spell", CR 608.2), not static abilities.
_SPELL_RE = re.compile(r"\b(Instant|Sorcery)\b")
_INNER_QUOTE_RE = re.compile(r"(^|(?<=[\s]))'([^']*(?:'s[^']*)*)'(?=[\s.,]|$)")

_VERSION: str | None = None


def _version() -> str:
    global _VERSION
    if _VERSION is None:
        _VERSION = parse_version()
    return _VERSION


def parse_segment(start: str, text: str):
    """Parse ``text`` (normalised, original case) with grammar start symbol ``start``.
    Return the AST node, or None when the grammar cannot read it. Never raises."""
    if not text.strip():
        return None
    low = lower_same_length(text)
    parser = get_parser()  # a grammar that does not build raises here, loudly, never per segment
    try:
        tree = parser.parse(low, start=start)
        return ToAst(low, text, _parse_quoted).transform(tree)
    except (LarkError, RecursionError, ValueError, TypeError, AttributeError, IndexError, KeyError, StopIteration):
        return None


def _parse_quoted(inner: str) -> A.Node:
    """A quoted ability ("{T}: Add {G}.") granted to something: parse it as an ability body."""
    inner = _INNER_QUOTE_RE.sub(lambda m: m.group(1) + '"' + m.group(2) + '"', inner)
    body, _kind = parse_body(inner, type_line="")
    return body


def parse_effect(text: str) -> list[A.Node]:
    """Parse effect text (one or more sentences) → list of Sentence/Unparsed nodes."""
    out: list[A.Node] = []
    for s, e in split_sentences(text):
        sent = text[s:e]
        core = sent[:-1] if sent.endswith(".") else sent
        node = parse_segment("start_sentence", core)
        if node is None and "rather than" in core:
            node = parse_segment("start_altcost", core)
            node = A.Sentence([node]) if node is not None else None
        if node is None:
            node = _partial_sentence(core, sent)
        if node is None:
            out.append(A.Unparsed(sent))
        else:
            out.append(node)
    return _merge_riders(out)


_LEADS = re.compile(r"^(if|until|as long as|as ~ enters|for each|otherwise|then|at the beginning of|during|when|whenever|instead)\b", re.I)


def _partial_sentence(core: str, sent: str) -> A.Node | None:
    """Keep structure in a sentence the grammar cannot read whole: a leading clause
    ("If …,", "Until …,", "For each …,") is cut at a top-level comma; the rest is parsed as a
    sentence and the lead kept as an Unparsed condition (or parsed when possible)."""
    if not _LEADS.match(core):
        return None
    for i in top_level_all(core, ","):
        rest = core[i + 1:].strip()
        node = parse_segment("start_sentence", rest)
        if node is not None:
            lead = core[:i]
            cond = parse_segment("start_lead", lead)
            cond = cond if cond is not None else A.Unparsed(lead)
            if isinstance(node, A.Sentence) and node.condition is not None:
                # the rest has a condition of its own ("If you do, return it … at the beginning of the
                # next end step": a delayed time, CR 603.7): the lead governs that whole sentence
                return A.Sentence([node], condition=cond)
            node.condition = cond
            return node
    return None


def _merge_riders(nodes: list[A.Node]) -> list[A.Node]:
    """Attach spend restrictions to the preceding AddMana (CR 106.6) and "you may choose
    new targets for the copy" to the preceding CopyEffect (CR 707.10c)."""
    last_add = None
    last_copy = None
    out = []
    for n in nodes:
        effects = n.effects if isinstance(n, A.Sentence) else []
        if effects and all(isinstance(e, A.ManaRestriction) for e in effects) and last_add is not None:
            last_add.restrictions.extend(effects)
            continue
        if (effects and len(effects) == 1 and isinstance(effects[0], A.Action)
                and effects[0].verb == "new_targets" and last_copy is not None):
            last_copy.new_targets = True
            last_copy.new_targets_join = "sentence"  # CR 707.10c, a sentence of its own
            last_copy.new_targets_single = bool(effects[0].extra.get("single"))  # "a new target"
            last_copy.new_targets_that = bool(effects[0].extra.get("that"))  # "for that copy"
            continue
        for e in effects:
            for sub in e.walk():
                if isinstance(sub, A.AddMana) and not sub.other_color:  # not the second of "… and … of any other color"
                    last_add = sub
                elif isinstance(sub, A.CopyEffect):
                    last_copy = sub
        if effects and len(effects) >= 2 and isinstance(effects[0], A.CopyEffect):
            # "copy that spell, and you may choose new targets for the copy" in one sentence
            rest = [e for e in effects[1:] if not (isinstance(e, A.Action) and e.verb == "new_targets")]
            if len(rest) < len(effects) - 1:
                effects[0].new_targets = True
                n.effects = [effects[0]] + rest
        out.append(n)
    return out


def _split_restrictions(effect: list[A.Node]) -> tuple[list[A.Node], list[A.Node]]:
    keep, restr = [], []
    for n in effect:
        if (isinstance(n, A.Sentence) and n.effects and all(
                isinstance(e, A.Action) and e.verb == "activate_only" for e in n.effects)):
            restr.extend(n.effects)
        else:
            keep.append(n)
    return keep, restr


def _intervening_if(head: A.Triggered) -> A.Triggered:
    """CR 603.4: read the intervening "if" clause of a trigger head (kept as Unparsed by the
    head's grammar) with the condition grammar of leads (``start_lead``: "if" cond)."""
    cond = head.intervening_if
    if isinstance(cond, A.Unparsed):
        node = parse_segment("start_lead", "if " + cond.text)
        if isinstance(node, A.Node) and not isinstance(node, (A.Text, A.Unparsed)):
            head.intervening_if = node
    return head


def _hoist_intervening_if(head: A.Triggered, effect: list[A.Node], text: str) -> list[A.Node]:
    """CR 603.4: "When/Whenever/At [event], if [condition], [effect]" — a condition right after
    the trigger head is the intervening "if" clause: move it from the first effect sentence to
    ``head.intervening_if``."""
    first = effect[0] if effect else None
    if (head.intervening_if is None and isinstance(first, A.Sentence) and first.condition is not None
            and text[:3].lower() == "if " and not isinstance(first.condition, (A.Text, A.Unparsed))):
        head.intervening_if, first.condition = first.condition, None
    return effect


def _unparsed_length(node: A.Node) -> int:
    """Characters of text held in Unparsed nodes under ``node``."""
    return sum(len(n.text) for n in node.walk() if isinstance(n, A.Unparsed))


def _trigger(body: str) -> A.Node:
    """A triggered ability (CR 603.1): the head is tried at each top-level comma; the first head
    whose intervening "if" (CR 603.4) and effect both parse wins, else the reading with the least
    unparsed text (a head whose "if" clause runs over a sentence break is no reading of it)."""
    commas = top_level_all(body, ",")
    best, best_left = None, None
    for i in commas:
        head = parse_segment("start_trigger", body[:i])
        if head is not None:
            head = _intervening_if(head)
            head.effect = _hoist_intervening_if(head, parse_effect(body[i + 1:].strip()), body[i + 1:].lstrip())
            left = _unparsed_length(head)
            if left == 0:
                return head
            # a comma inside the head ("Whenever you cast an artifact, instant, or sorcery spell,"):
            # a later comma may give a head and an effect that both parse
            if best_left is None or left < best_left:
                best, best_left = head, left
    if best is not None:
        return best
    word = body.split(" ", 1)[0].lower()
    if commas:
        i = commas[0]
        return A.Triggered(word, A.Unparsed(body[:i]), None, parse_effect(body[i + 1:].strip()))
    return A.Triggered(word, A.Unparsed(body), None, [])


_COUNT_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


def _choose_count(phrase: str) -> A.Node:
    """CR 700.2: the number of modes of "Choose … —" as a ChooseCount; any other wording
    ("one that hasn't been chosen", "one. You may choose both …") stays Text."""
    low = phrase.lower()
    if low in _COUNT_WORDS:
        return A.ChooseCount(_COUNT_WORDS[low], _COUNT_WORDS[low])
    fixed = {"one or both": (1, 2), "one or more": (1, None), "any number": (0, None)}
    if low in fixed:
        return A.ChooseCount(*fixed[low])
    if low.startswith("up to ") and low[6:] in _COUNT_WORDS:
        return A.ChooseCount(0, _COUNT_WORDS[low[6:]])
    return A.Text(phrase)


#: The "Choose …" line of a modal ability (CR 700.2): who chooses (CR 700.2e), how many, and
#: "You may choose the same mode more than once." (CR 700.2d).
_MODAL_HEAD_RE = re.compile(r"(?:^|(?<=[ ,:]))(?:(an opponent) chooses|choose) (.*?)"
                            r"(?:\. (you may choose the same mode more than once)\.)?(?: —)?$", re.I)


#: "one that hasn't been chosen [this turn]"; "one. If …, [you may] choose both instead." (CR 700.2)
_UNCHOSEN_RE = re.compile(r"^(.+?) that hasn't been chosen( this turn)?$", re.I)
_UPGRADE_RE = re.compile(r"^(.+?)\. (if .+), (you may )?choose (.+?) instead\.?$", re.I)


def _choose_phrase(phrase: str) -> A.Node:
    """The modal count of a "Choose …" phrase with its variants (:func:`_choose_count`)."""
    m = _UNCHOSEN_RE.match(phrase)
    if m:
        c = _choose_count(m.group(1))
        if isinstance(c, A.ChooseCount):
            c.unchosen = "turn" if m.group(2) else "game"
            return c
    m = _UPGRADE_RE.match(phrase)
    if m:
        c, up = _choose_count(m.group(1)), _choose_count("two" if m.group(4).lower() == "both" else m.group(4))
        if isinstance(c, A.ChooseCount) and isinstance(up, A.ChooseCount):
            c.upgrade, c.upgrade_optional = up, m.group(3) is not None
            c.upgrade_condition = parse_segment("start_lead", m.group(2)) or A.Unparsed(m.group(2))
            return c
    return _choose_count(phrase)


def _modal(body: str) -> tuple[A.Node, str]:
    lines = body.split("\n")
    head = lines[0].strip()
    modes = [parse_effect(l.strip().lstrip("•").strip()) for l in lines[1:]]
    m = _MODAL_HEAD_RE.search(head)
    idx = m.start() if m else -1
    phrase = m.group(2).rstrip(" —").strip() if m else head
    choose = _choose_phrase(phrase)
    if m and isinstance(choose, A.ChooseCount):
        choose.same_mode = m.group(3) is not None
        choose.chooser = "opponent" if m.group(1) else None
    elif m and (m.group(1) or m.group(3)):
        choose = A.Text(head[idx:])
    modal = A.Modal(choose, modes)
    prefix = head[:idx].strip() if idx > 0 else ""
    if not prefix:
        if idx < 0:
            modal.head = A.Unparsed(head)
        return modal, "modal"
    if prefix.endswith(":"):
        cost = parse_segment("start_cost", prefix[:-1]) or A.Unparsed(prefix[:-1])
        return A.Activated(cost, [modal]), "activated"
    if _TRIGGER_RE.match(prefix):
        head_node = parse_segment("start_trigger", prefix.rstrip(","))
        if head_node is None:
            head_node = A.Triggered(prefix.split(" ", 1)[0].lower(), A.Unparsed(prefix.rstrip(",")), None, [])
        head_node.effect = [modal]
        return head_node, "triggered"
    modal.head = A.Unparsed(prefix)
    return modal, "modal"


def _level_block(body: str, type_line: str) -> A.Node:
    lines = body.split("\n")
    m = _LEVEL_RE.match(lines[0].strip())
    low = int(m.group(1))
    high = None if m.group(3) else int(m.group(2))
    rest = lines[1:]
    pt = None
    if rest and _PT_RE.match(rest[0].strip()):
        pt = rest[0].strip()
        rest = rest[1:]
    abilities = [parse_line(l, i, type_line=type_line, names=()) for i, l in enumerate(rest)]
    return A.LevelBlock(low, high, pt, abilities)


def parse_body(body: str, type_line: str = "") -> tuple[A.Node, str]:
    """Parse the body of one ability (normalised, reminder text and ability word removed).
    Returns ``(node, kind)``; never raises."""
    body = body.strip()
    if not body:
        return A.Static([]), "reminder"
    try:
        return _parse_body(body, type_line)
    except RecursionError:
        return A.Unparsed(body), "other"


def _parse_body(body: str, type_line: str) -> tuple[A.Node, str]:
    if "\n•" in body or body.startswith("•"):
        return _modal(body)
    if _LEVEL_RE.match(body.split("\n", 1)[0].strip()):
        return _level_block(body, type_line), "level"
    body = " ".join(body.split("\n"))
    chap = chapter_prefix(body)
    if chap is not None:
        nums, off = chap
        return A.Chapter(nums, parse_effect(body[off:])), "chapter"
    m = _DIE_ROW_RE.match(body)
    if m:  # CR 706.2: the row's effect happens if the die result is in the range
        effect = parse_effect(body[m.end():])
        low, high = int(m.group(1)), int(m.group(2) or m.group(1))
        rng = A.DieResult(f"die_result:{m.group(1)}-{m.group(2) or m.group(1)}", low, high)
        return A.Static([A.Sentence(effect, condition=rng)]), "other"
    m = _STATION_RE.match(body)
    if m:  # CR 721.2: the striation's ability is an ability line of its own
        inner, kind = _parse_body(body[m.end():], type_line)
        return A.StationLevel(int(m.group(1)), inner), kind
    m = _STICKER_RE.match(body)
    if m:  # CR 123.1: a power and toughness sticker or an ability sticker, with its ticket cost
        tickets, rest = m.group(1).count("{"), body[m.end():]
        if _PT_RE.match(rest):
            return A.Sticker(tickets, pt=rest), "static"
        inner, kind = _parse_body(rest, type_line)
        return A.Sticker(tickets, body=inner), kind
    m = _SPREE_RE.match(body)
    if m:  # CR 702.172a: a spree mode, its additional cost and its effect
        cost = parse_segment("start_cost", m.group(1)) or A.Unparsed(m.group(1))
        kind = "spell" if _SPELL_RE.search(type_line or "") else "static"
        return A.SpreeMode(cost, parse_effect(body[m.end():])), kind
    m = _CLASS_LEVEL_RE.match(body)
    if m:
        cost = parse_segment("start_cost", m.group(1))
        if cost is not None:
            return A.ClassLevel(cost, int(m.group(2))), "class_level"
    m = _LOYALTY_RE.match(body)
    if m:
        lc = parse_segment("start_loyalty", m.group(1))
        cost = A.Cost([lc], m.group(1)) if lc is not None else A.Unparsed(m.group(1))
        effect, restr = _split_restrictions(parse_effect(body[m.end():]))
        return A.Activated(cost, effect, restr), "loyalty"
    kw = parse_segment("start_keywords", body)
    if kw is not None:
        return kw, "keyword"
    if _TRIGGER_RE.match(body):
        return _trigger(body), "triggered"
    colon = top_level_index(body, ":")
    if colon > 0 and colon + 1 < len(body) and body[colon + 1] == " ":
        prefix = body[:colon]
        cost = parse_segment("start_cost", prefix)
        if cost is not None or "{" in prefix or len(prefix.split()) <= 6:
            effect, restr = _split_restrictions(parse_effect(body[colon + 1:].strip()))
            return A.Activated(cost if cost is not None else A.Unparsed(prefix), effect, restr), "activated"
    kind = "spell" if _SPELL_RE.search(type_line or "") else "static"
    return A.Static(parse_effect(body)), kind


def _adds_mana(node: A.Node) -> bool:
    """True if ``node`` could add mana itself (AddMana outside granted/quoted abilities)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, A.AddMana):
            return True
        if isinstance(n, (A.GrantAbility, A.CreateToken)):
            continue
        for v in vars(n).values():
            if isinstance(v, A.Node):
                stack.append(v)
            elif isinstance(v, list):
                stack.extend(x for x in v if isinstance(x, A.Node))
                for x in v:
                    if isinstance(x, list):
                        stack.extend(y for y in x if isinstance(y, A.Node))
            elif isinstance(v, dict):
                stack.extend(x for x in v.values() if isinstance(x, A.Node))
    return False


def is_mana_ability(body: A.Node, kind: str, text: str) -> bool:
    """CR 605.1a: an activated ability (not a loyalty ability) without a target that could
    add mana; CR 605.1b: a triggered ability without a target that triggers from a mana
    ability and could add mana. ``text`` is the normalised body (quotes ignored)."""
    untargeted = not _TARGET_RE.search(_QUOTE_RE.sub("", text))
    if isinstance(body, (A.StationLevel, A.Sticker)):  # CR 721.2a: the striation's ability; CR 123.1: an
        body = body.body                                  # ability sticker's ability, once on an object
    if kind == "activated" and isinstance(body, A.Activated):
        return untargeted and any(_adds_mana(e) for e in body.effect)
    if kind == "triggered" and isinstance(body, A.Triggered):
        ev = body.event
        from_mana = isinstance(ev, A.Action) and ev.verb in ("event:tapped_for_mana", "event:tap_for_mana")
        return untargeted and from_mana and any(_adds_mana(e) for e in body.effect)
    return False


def parse_line(line: str, index: int, *, type_line: str = "", names: tuple[str, ...] = (),
               memo: LineMemo | None = None) -> A.Ability:
    """Parse one ability block (original text) → Ability. Never raises.

    ``memo``: a :class:`~pipeline.parse.line_memo.LineMemo`; a line whose normalised text was
    parsed before (on a face of the same spell-ness) is then a copy of that Ability with this
    ``index`` and ``text``, its AST nodes shared (read-only)."""
    norm = normalize_wording(normalize_chars(line), names)
    if memo is None:
        return _parse_normalized(line, index, norm, type_line)
    key = (norm, _SPELL_RE.search(type_line or "") is not None)
    known = memo.get(key)
    if known is not None:
        return replace(known, index=index, text=line)
    ability = _parse_normalized(line, index, norm, type_line)
    memo.put(key, ability)
    return ability


def _parse_normalized(line: str, index: int, norm: str, type_line: str) -> A.Ability:
    pieces: list[A.Piece] = []
    reminders: list[str] = []
    body_parts: list[str] = []
    ability_word = None
    newline = False  # a line break inside reminder text or between pieces: mode lines (CR 700.2) stay lines
    for s, e, role in split_reminders(norm):
        if role == "body" and not body_parts and ability_word is None:
            aw, off = split_ability_word(norm[s:e])
            if aw:
                ability_word = aw
                pieces.append(A.Piece(s, s + len(aw), prefix_role(aw), norm[s:s + len(aw)]))
                pieces.append(A.Piece(s + len(aw), s + off, "sep", norm[s + len(aw):s + off]))
                s = s + off
        if role == "body" and "\n•" in norm:  # names of modes (CR 700.2) are flavor words (CR 207.2d)
            subs = mode_name_pieces(norm[s:e], s)
        else:
            subs = [(s, e, role)]
        for ss, se, srole in subs:
            pieces.append(A.Piece(ss, se, srole, norm[ss:se]))
            if srole == "body":
                body_parts.append(("\n" if newline and body_parts else " ") + norm[ss:se])
                newline = False
        if role == "reminder":
            reminders.append(norm[s + 1:e - 1] if norm[e - 1:e] == ")" else norm[s + 1:e])
        if role != "body" and "\n" in norm[s:e]:
            newline = True
    body_text = "".join(body_parts).lstrip()
    body, kind = parse_body(body_text, type_line)
    if kind == "reminder" and not reminders:
        kind = "other"
    no_unparsed = not any(isinstance(n, A.Unparsed) for n in body.walk())
    ability = A.Ability(index=index, text=line, kind=kind, normalized=norm, body=body,
                        ability_word=ability_word, reminders=reminders, pieces=pieces,
                        is_mana_ability=is_mana_ability(body, kind, body_text),
                        grammar_version=_version(), no_unparsed=no_unparsed)
    return check_round_trip(ability)


def check_round_trip(ability: A.Ability) -> A.Ability:
    """Set ``rendered``, ``render_mismatch`` and ``fully_parsed`` (no Unparsed node and the
    rendering gives back the text, docs/ast.md § Rendering) on ``ability``; return it. A line
    that is only reminder text renders as nothing and round-trips when it has no body."""
    if ability.kind == "reminder" and isinstance(ability.body, A.Static) and not ability.body.effect:
        ability.rendered, ability.render_mismatch = "", None
    else:
        ability.rendered, ability.render_mismatch = round_trip(ability)
    ability.fully_parsed = ability.no_unparsed and ability.render_mismatch is None
    return ability


def parse_face(oracle_text: str, *, name: str, type_line: str = "", memo: LineMemo | None = None) -> list[A.Ability]:
    """Parse the oracle text of one card face.

    Returns one :class:`Ability` per ability block, in order (see segment.ability_blocks).
    ``name`` is the face name (self references to it and its short name normalise to ``~``).
    ``memo``: lines parsed before in this process (:func:`parse_line`; the same result, ASTs shared).
    Never raises on any input string; unreadable text is kept as ``Unparsed`` nodes."""
    try:
        names = self_names(name or "", type_line or "")
        blocks = ability_blocks(oracle_text or "")
    except Exception:  # noqa: BLE001 - the contract is "never raise"
        return [A.Ability(0, oracle_text or "", "other", oracle_text or "", A.Unparsed(oracle_text or ""),
                          grammar_version=_version())]
    out = []
    for i, block in enumerate(blocks):
        try:
            out.append(parse_line(block, i, type_line=type_line or "", names=names, memo=memo))
        except Exception:  # noqa: BLE001 - keep the line as Unparsed, never raise
            out.append(A.Ability(i, block, "other", block, A.Unparsed(block), grammar_version=_version(),
                                 pieces=[A.Piece(0, len(block), "body", block)]))
    return out
