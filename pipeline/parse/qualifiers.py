"""Results of the post-modifier rules (``obj_post``, ``zone``: grammar/objects.lark) before an
:class:`~pipeline.parse.ast.Obj` takes them: qualifier strings (rule names, docs/ast.md § Objects)
that may carry the form of their alternative (:class:`FormStr`) or the object they name
(:class:`RefStr`, :data:`~pipeline.parse.ast.REF_QUALIFIERS`).

Shared by the transformer modules (``transform.py``, ``transform_objects.py``,
``transform_statics.py``, ``transform_conditions.py``) without an import circle between them.
"""

from __future__ import annotations

from pipeline.parse import ast as A


class FormStr(str):
    """A qualifier string with the form of its alternative (``form``: literal words,
    pipeline/parse/forms.py); the Obj that takes it keeps the form as a qualifier
    ``form:<w>+<w>`` right after it (:func:`quals`)."""
    form: list


class RefStr(str):
    """A qualifier string that names an object or a quantity ("that targets ~", "other than ~",
    "with mana value equal to …"): ``ref`` the :class:`~pipeline.parse.ast.Obj` or
    :class:`~pipeline.parse.ast.Amount`, ``form`` the literal words of its alternative or None,
    ``after`` qualifiers the Obj takes right after it (:func:`hoist`). The Obj that takes it keeps
    ``ref`` in its ``refs`` (:func:`take_posts`)."""
    ref: A.Node
    form: list | None
    after: list


def ref_post(name: str, ref: A.Node | None, form: list | None = None) -> RefStr:
    """The qualifier ``name`` of a post-modifier naming ``ref`` ("that targets only …": ``form``
    ["only"]); ``ref`` gives up the post-modifiers that belong to the outer object (:func:`hoist`).
    Raises ValueError when ``name`` is not one of :data:`ast.REF_QUALIFIERS` or ``ref`` is neither
    an Obj nor an Amount (the segment then stays Unparsed: parser.parse_segment)."""
    if name not in A.REF_QUALIFIERS:
        raise ValueError(f"not a qualifier that names an object: {name}")
    if not isinstance(ref, (A.Obj, A.Amount)):
        raise ValueError(f"{name}: no object")
    out = RefStr(name)
    out.ref, out.form = ref, form
    out.after = hoist(ref)
    return out


#: qualifiers that place an object: control (CR 109.4: on the stack or the battlefield) and zones (CR 400.1)
_PLACING = ("you_control", "you_dont_control", "you_own", "opp_controls", "opps_control", "they_control",
            "target_player_controls", "target_opp_controls", "that_player_controls", "its_controller_controls")


def hoist(ref: A.Obj | A.Amount) -> list[str]:
    """The post-modifiers that LALR(1) attached to the object a post-modifier names (``ref``, or
    the object an Amount ``ref`` counts) although they belong to the object that holds it: a zone
    after an object that is placed already ("a permanent card with mana value less than or equal to
    the number of lands you control **from your hand**": only objects on the stack or the
    battlefield have a controller, CR 109.4) and "without paying its mana cost" (CR 118.9: a cost
    of the spell cast, not of the object counted). They are removed from the counted object and returned
    (forms included) for the outer one; none when one of them names an object of its own. ``~`` and
    "it" are placed already ("the number of charge counters on ~ from your hand")."""
    if isinstance(ref, A.Amount):
        ref = ref.ref
    obj = ref if isinstance(ref, A.Obj) else getattr(ref, "obj", None)
    if not isinstance(obj, A.Obj):
        return []
    quals = obj.qualifiers
    placed = obj.quantifier in ("self", "it")  # "the number of charge counters on ~ [from your hand]"
    for i, q in enumerate(quals):
        if q == "without_paying" or (placed and q.startswith("zone:")):
            cut = quals[i:]
            if any(c in A.REF_QUALIFIERS for c in cut):
                return []
            del quals[i:]
            return cut
        placed = placed or q in _PLACING or q.startswith("zone:")
    return []


def quals(items) -> list[str]:
    """Qualifier strings as kept on an Obj: each, then ``form:<w>+<w>`` when it has a form."""
    out = []
    for q in items:
        out.append(str(q))
        if getattr(q, "form", None):
            out.append("form:" + "+".join(q.form))
    return out


def take_posts(obj: A.Obj, items) -> None:
    """Add post-modifier results (qualifier strings, in order) to ``obj`` in place: each qualifier
    with its form (:func:`quals`) and, for one naming an object (:class:`RefStr`), that object to
    ``obj.refs``."""
    for q in items:
        obj.qualifiers.extend(quals([q]))
        if isinstance(q, RefStr):
            obj.refs.append(q.ref)
            obj.qualifiers.extend(q.after)
