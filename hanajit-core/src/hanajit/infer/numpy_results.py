"""Which results the interpreter gives as NumPy scalars.

CPython running a function returns a NumPy scalar where the returned value is one:
an array element, a NumPy function's result, arithmetic involving a NumPy scalar
(``x + 1`` of a ``np.float32`` ``x``), a comparison of one (``np.bool_``), a
parameter passed one -- what :meth:`Inferrer.is_strong` decides for NEP 50's
promotion -- and any value of a type no Python number has (int8, float32 ...).
``math.sqrt(x)``, ``float(x)``, ``int(x)``, ``not x`` and Python number
arithmetic give Python numbers.  Arithmetic, comparisons and ufuncs on 0-d arrays
give NumPy scalars too (``np.array(3.5) + 1`` is ``np.float64(4.5)``): hanajit
computes them as 0-d arrays, and a returned one -- the expression itself or a
local only ever assigned such results -- is marked to be boxed as the scalar.

:func:`numpy_result` marks each scalar leaf of the return type with
:class:`~hanajit.ir.types.NumpyScalarArg` when every ``return`` gives a NumPy
scalar there (a tuple's items one by one when it is written ``return a, b``);
targets box such leaves as NumPy scalars of the leaf's dtype.  A leaf some
returns give as a Python number and others as a NumPy scalar (``return 0.0`` on
one path, ``return x`` of a ``np.float64`` on another) stays a Python number:
one compiled type cannot follow both.
"""
from __future__ import annotations

from ..ir import nodes as N
from ..ir.frontend_nodes import Method
from ..ir import types as T


def complex_equality(e, is_strong) -> bool:
    """Is comparison ``e`` a Python complex ``==``/``!=`` an ``np.float64``?  The
    complex's method takes the float subclass first: a Python bool."""
    return (len(e.ops) == 1 and e.ops[0] in ("eq", "ne") and not is_strong(e.operands[0])
            and [getattr(o, "type", None) for o in e.operands] == [T.COMPLEX128, T.FLOAT64])


def _arithmetic(value, assigned) -> bool:
    """Is ``value`` (a 0-d array) the result of arithmetic, a comparison or a
    ufunc (which NumPy gives as a scalar), or a local only ever assigned one?"""
    if isinstance(value, (N.PyBinOp, N.PyUnOp, N.PyCompare)):
        return True
    if isinstance(value, N.PyCall):          # (``out=`` gives the array back)
        f = value.callee
        if f is abs:                        # abs(a): the array's __abs__, a ufunc
            return True
        return type(f).__name__ == "ufunc" and "out" not in value.kwargs \
            and len(value.args) <= f.nin
    if isinstance(value, N.Var):
        values = assigned.get(value.name)
        return bool(values) and all(_arithmetic(v, {}) for v in values)
    return False


def python_number(value, assigned) -> bool:
    """Is ``value`` a call of Python's ``random`` module (a function of it, or a
    method of a ``random.Random``), of ``np.allclose``/``np.array_equal``, or a
    local only ever assigned one?  Those give Python numbers whatever type holds
    them (``getrandbits(64)`` is uint64)."""
    if isinstance(value, N.PyCall):
        f = value.callee
        if isinstance(f, Method):
            return isinstance(getattr(value.args[0], "type", None), T.PyRandomType)
        import random
        if f in _PYTHON_BOOLS():
            return True
        return getattr(f, "__module__", None) == "random" or \
            isinstance(getattr(f, "__self__", None), random.Random)
    if isinstance(value, N.Var):
        values = assigned.get(value.name)
        return bool(values) and all(v is not None and python_number(v, {})
                                    for v in values)
    return False


def _PYTHON_BOOLS():
    """NumPy functions that return Python numbers (``bool(...)`` of their answer,
    an array's ``ndim``/``size``/``shape``), not NumPy scalars."""
    import numpy as np
    return (np.allclose, np.array_equal, np.array_equiv, np.isscalar, np.ndim, np.size,
            np.shape, np.may_share_memory, np.shares_memory)


def _mark(value, t, is_strong, assigned, known):
    if isinstance(t, T.ArrayType):      # arithmetic on 0-d arrays: a NumPy scalar
        if t.ndim == 0 and value is not None and _arithmetic(value, assigned):
            return T.NumpyScalarArg(t.dtype)
        return t
    if isinstance(t, T.Scalar):
        if value is not None and python_number(value, assigned):
            return t
        strong = t not in T.PYTHON_KINDS or (value is not None and is_strong(value))
        return T.NumpyScalarArg(t) if strong else t
    if isinstance(t, T.TupleType):
        items = value.items if isinstance(value, N.MakeTuple) and \
            len(value.items) == len(t.items) else [None] * len(t.items)
        if isinstance(value, N.Var) and known.get(value.name) is not None:
            # a tuple local whose items' kinds are known (``best = p`` of
            # ``for p in enumerate(a)``): item by item
            items = [N.TupleGet(value, k, it) for k, it in enumerate(t.items)]
        if isinstance(value, N.PyCall) and is_strong(value):
            # a call giving a tuple of NumPy scalars (divmod of one, np.frexp ...)
            items = [value] * len(t.items)
        return T.TupleType(tuple(_mark(v, it, is_strong, assigned, known)
                                 for v, it in zip(items, t.items)))
    return t


def _both(a, b):
    """Marked only where both are."""
    if isinstance(a, T.TupleType) and isinstance(b, T.TupleType):
        return T.TupleType(tuple(_both(x, y) for x, y in zip(a.items, b.items)))
    if isinstance(a, T.NumpyScalarArg):
        return b            # marked in both, or b unmarked (a scalar or an array)
    return a


def _marked(t) -> bool:
    if isinstance(t, T.TupleType):
        return any(_marked(i) for i in t.items)
    return isinstance(t, T.NumpyScalarArg)


def assignments(fn) -> dict:
    """Local -> the values assigned to it (None: a loop target or a parameter)."""
    out: dict = {}
    for s in N.walk_stmts(fn.body):
        if isinstance(s, N.Assign):
            out.setdefault(s.target, []).append(s.value)
        elif s.__class__.__name__.startswith("PyFor"):
            out.setdefault(getattr(s, "target", None), []).append(None)
    for p in fn.params:
        out.setdefault(p, []).append(None)
    return out


def numpy_result(fn: N.Function, is_strong, known=None):
    """``fn.return_type`` with ``NumpyScalarArg`` on the leaves the interpreter
    returns as NumPy scalars, or None when it returns none (call before the
    coercions are inserted: ``is_strong`` looks at the returned expressions).
    ``known``: tuple local -> which of its items are NumPy scalars, where known
    (the Inferrer's ``strong_items``)."""
    rt = fn.return_type
    if not isinstance(rt, (T.Scalar, T.TupleType, T.ArrayType)):
        return None
    assigned = assignments(fn)
    out = None
    for s in N.walk_stmts(fn.body):
        if isinstance(s, N.Return) and s.value is not None:
            m = _mark(s.value, rt, is_strong, assigned, known or {})
            out = m if out is None else _both(out, m)
    return out if out is not None and _marked(out) else None


def mark_lists(fn: N.Function, strong_local) -> None:
    """Whether the items of the lists ``fn`` returns are NumPy scalars: each list
    whose item locals (``Function.list_items``, ``tuple_lists``) are all
    ``strong_local`` (``Function.numpy_list``, ``numpy_lists``)."""
    fn.numpy_list = fn.returns_list and all(strong_local(v) for v in fn.list_items)
    fn.numpy_lists = tuple((k, all(strong_local(v) for v in locals_))
                           for k, locals_ in fn.tuple_lists)


def random_draw_is_numpy(name: str, args, kwargs=None) -> bool:
    """Is one draw of NumPy's random functions (``np.random.<name>`` or a
    ``Generator``'s method) a NumPy scalar?  They return Python floats and ints
    (``np.random.random()``, ``randint(5)``, ``rng.normal()``), except
    ``Generator.integers`` (an ``np.int64``, or its ``dtype``'s scalar -- but a
    Python bool for ``dtype=bool``), ``randint`` given a dtype other than ``int``
    and ``bool``, ``random_integers`` (``randint(..., dtype='l')``) and ``choice``
    of an array (its item)."""
    if name == "random_integers":
        return True
    if name in ("integers", "randint"):
        dtype = (kwargs or {}).get("dtype", args[3] if len(args) > 3 else None)
        if dtype is None:
            return name == "integers"
        value = getattr(getattr(dtype, "type", None), "value", None)
        return value is not bool and (name == "integers" or value is not int)
    return name == "choice" and bool(args) and isinstance(getattr(args[0], "type", None),
                                                           T.ArrayType)
