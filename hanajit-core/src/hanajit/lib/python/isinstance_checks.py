"""``isinstance(x, T)``, decided while compiling from ``x``'s static type.

The class a value has at run time follows from its type and whether it is a
Python number or a NumPy scalar (``infer/scalar_kinds.py``: ``is_strong``): a
Python float is a ``float``, an array element of a float64 array an
``np.float64`` -- which CPython also counts as a ``float`` (a subclass), where
``np.int64`` is no ``int`` and ``np.bool_`` no ``bool``.  The answer is then
CPython's own ``issubclass`` of that class, so ``numbers.Number``,
``np.integer``, ``np.floating``, ``np.number``, ``np.generic`` and tuples of
classes answer as the interpreter does.  An ``if`` on it is decided then
(``StaticQuestion``): the branch not taken is neither typed nor compiled.

Where the class depends on more than the type -- a local that is a Python int on
one path and a NumPy scalar on another, an ``np.ndarray`` subclass asked of an
array (a ``np.memmap`` argument has an ndarray's type) -- the call is refused
and the function runs in the interpreter.
"""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..registry import StaticQuestion, register

_PYTHON = {"b": bool, "i": int, "f": float, "c": complex}


def _numpy_class(t: T.Scalar):
    import numpy as np
    return np.dtype(t.name).type


def _scalar_classes(inf, node, t: T.Scalar) -> set:
    """The classes scalar ``node`` of type ``t`` may have at run time."""
    if isinstance(node, N.Var) and node.name in inf.assigned:
        kinds = inf.assigned[node.name]
        if len({strong for _, strong in kinds}) > 1 or node.name in inf.mixed:
            return {None}            # a Python number on one path, NumPy's on another
        if len({k for k, _ in kinds}) > 1:
            return {None}            # an int on one path, a float on another
    if inf.is_strong(node) or t not in T.PYTHON_KINDS:
        return {_numpy_class(t)}
    return {_PYTHON[t.kind]}


def _classes(inf, node, t) -> set:
    if isinstance(t, T.Scalar):
        return _scalar_classes(inf, node, t)
    if isinstance(t, T.ArrayType):
        import numpy as np
        return {np.ndarray}
    if isinstance(t, T.TupleType) and not isinstance(t, T.NamedTupleType):
        return {tuple}
    if isinstance(t, T.ConstType) and type(t.value) is str:
        return {str}
    if isinstance(t, T.StrArg):
        return {str}
    if t == T.NONE:
        return {type(None)}
    return {None}


def _class_tuple(t):
    """The class (or flat tuple of classes) isinstance's second argument names."""
    v = t.value if isinstance(t, T.ConstType) else None
    items = v if type(v) is tuple else (v,)
    if not items or not all(isinstance(c, type) for c in items):
        raise Incompatible("isinstance(): the second argument must be a class or a "
                           "tuple of classes named in the code")
    return items


@register
class IsInstance(StaticQuestion):
    """``isinstance(x, cls)`` from ``x``'s type (see the module)."""

    paths = ("builtins.isinstance",)
    arity = 2

    def answer(self, inf, call, args):
        classes = _class_tuple(args[1])
        found = _classes(inf, call.args[0], args[0])
        if None in found:
            raise Incompatible(f"isinstance() of a {args[0]}: its class depends on more "
                               "than its type here")
        import numpy as np
        if args[0] == T.NONE or isinstance(args[0], T.ArrayType):
            # an array argument may be a np.memmap (an ndarray subclass)
            if any(c is not np.ndarray and issubclass(c, np.ndarray) for c in classes):
                raise Incompatible("isinstance() of an array with an ndarray subclass: "
                                   "the answer depends on the argument's class")
        answers = {issubclass(c, classes) for c in found}
        return answers.pop()

