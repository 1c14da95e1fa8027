"""A Lark ``Transformer`` that finds each rule's callback once per class instead of once per node.

Lark's :meth:`lark.Transformer._call_userfunc` looks the callback up with ``getattr(self, rule)``
for every tree node. On a class decorated with ``@v_args(meta=True)`` that attribute is a
descriptor whose ``__get__`` builds a new wrapper (``functools.update_wrapper``) on every access,
and for every token it looks up ``getattr(self, token.type)``, which for a token without a
callback goes through the transformer's ``__getattr__`` and an ``AttributeError``. Over the
≈ 40,000 ability lines of a refresh that lookup was ≈ 10 % of the parse time
(benchmarks/README.md § Refresh speed, fourth pass).

:class:`CachedTransformer` resolves each rule or token name once per transformer class and calls
the callback the way Lark does (the same ``visit_wrapper``, the same :class:`lark.exceptions.VisitError`
around a callback's exception, ``GrammarError`` passed through), so every result is the same.
A name the class does not define — a callback an instance makes on demand in ``__getattr__``, an
instance attribute — still goes through Lark's own lookup.
"""

from __future__ import annotations

from types import FunctionType, MethodType

from lark import Transformer
from lark.exceptions import GrammarError, VisitError

#: The class has no attribute of that name (Lark would call ``__default__``/``__default_token__``,
#: unless an instance attribute or ``__getattr__`` gives one).
_ABSENT = None
#: The class has an attribute that is not a plain function (static method, callable object …): Lark's lookup.
_LARK = object()
#: (transformer class, rule or token name) → (function, visit_wrapper or None), _ABSENT or _LARK.
_CALLBACKS: dict[tuple[type, str], object] = {}


def _resolve(cls: type, name: str) -> object:
    if not hasattr(cls, name):
        entry = _ABSENT
    else:
        attr = getattr(cls, name)
        # a v_args-wrapped method (lark.visitors._VArgsWrapper) read from the class: its plain function,
        # bound per call below
        func = getattr(attr, "base_func", attr)
        entry = (func, getattr(attr, "visit_wrapper", None)) if isinstance(func, FunctionType) else _LARK
    _CALLBACKS[(cls, name)] = entry
    return entry


def _dynamic(transformer, cls: type, name: str) -> bool:
    """True when Lark's own lookup may find ``name`` where the class has none: an instance attribute,
    or a name the class's ``__getattr__`` serves (the prefixes in ``dynamic_prefixes``)."""
    return name in transformer.__dict__ or name.startswith(cls.dynamic_prefixes)


class CachedTransformer(Transformer):
    """:class:`lark.Transformer` with the callback lookup cached per class (module docstring).

    Subclasses use it exactly like a Lark Transformer; ``transform(tree)`` returns what Lark's
    would. Raises what Lark's raises (``VisitError`` wrapping a callback's exception). A subclass
    whose ``__getattr__`` makes callbacks on demand names their prefixes in ``dynamic_prefixes``."""

    #: Name prefixes of the callbacks ``__getattr__`` makes (looked up by Lark each time).
    dynamic_prefixes: tuple[str, ...] = ()

    def _call_userfunc(self, tree, new_children=None):
        children = new_children if new_children is not None else tree.children
        data = tree.data
        cls = type(self)
        try:
            entry = _CALLBACKS[(cls, data)]
        except KeyError:
            entry = _resolve(cls, data)
        if entry is _ABSENT and not _dynamic(self, cls, data):
            return self.__default__(data, children, tree.meta)
        if entry is _ABSENT or entry is _LARK or data in self.__dict__:
            return super()._call_userfunc(tree, children)
        func, wrapper = entry
        f = MethodType(func, self)
        try:
            if wrapper is not None:
                return wrapper(f, data, children, tree.meta)
            return f(children)
        except GrammarError:
            raise
        except Exception as e:
            raise VisitError(data, tree, e)

    def _call_userfunc_token(self, token):
        ttype = token.type
        cls = type(self)
        try:
            entry = _CALLBACKS[(cls, ttype)]
        except KeyError:
            entry = _resolve(cls, ttype)
        if entry is _ABSENT and not _dynamic(self, cls, ttype):
            return self.__default_token__(token)
        return super()._call_userfunc_token(token)
