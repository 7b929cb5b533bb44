"""``choice``, ``shuffle`` and ``permutation``: ``Generator`` methods and the
legacy ``np.random`` functions on NumPy's global ``RandomState``.

``choice(a, size=None, replace=True, p=None)`` of an int or a 1-D array, with
``replace`` any bool, ``p`` a 1-D float64 or float32 array, and (``Generator``)
``shuffle=`` a bool, ``a`` also an n-D array (2-D, or C-contiguous beyond)
whose rows are chosen (``axis=0``, literal, the only ``axis=``);
``shuffle(x)`` of a writeable array and ``permutation(x)`` of an int or an array, n-D arrays along
axis 0 (rows swapped; C-contiguous
beyond 2-D).  The algorithms, their checks and draws are NumPy's
(``choice_algorithms.py``); a compiled call leaves the bit generator, or
the global state, as the interpreter does.  Another ``axis=``, other ``p`` and ``a``
and read-only arrays fall back to the interpreter naming the call.

The indices are drawn first into a 1-D array; NumPy's errors for a ``size``
with negative dimensions come where NumPy raises them (before any draw, or
after the draws of ``replace=False`` without ``p``, where NumPy reshapes).
"""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from . import distributions as hr
from . import choice_algorithms as hc
from .generator import call_void, is_absent, is_absent_expr, is_integer_type, sized
from .legacy import state_address
from ..registry import CallTemplate, bind_arguments, register

I, B = T.INT64, T.BOOL


def _bool_or_absent(t) -> bool:
    return t is None or t == B


def _p_ok(t) -> bool:
    return is_absent(t) or (isinstance(t, T.ArrayType) and t.ndim == 1
                            and t.dtype in (T.FLOAT64, T.FLOAT32))


def itemsize(t: T.ArrayType) -> int:
    return max(1, t.dtype.bits // 8)


def array_of(L, t: T.ArrayType, dims):
    """A new C-contiguous array of ``t`` with ``dims`` and a 1-D view of its
    items in order."""
    from ..arrays.creation import allocate
    out = allocate(L, t, dims)
    n = dims[0] if dims else ops.C(1, I)
    for d in dims[1:]:
        n = N.BinOp("mul", n, d, I)
    flat_t = T.ArrayType(t.dtype, 1, "C")
    flat = L.let(N.ArrayView(out, ops.C(0, I), [L.let(n)], [ops.C(itemsize(t), I)], flat_t))
    return out, flat


def rows_view(L, x):
    """``x`` as a 2-D array (rows by the rest): itself for 2-D, a view of a
    C-contiguous n-D array otherwise."""
    t = x.type
    if t.ndim == 2:
        return x
    x = L.let(x)
    rest = N.ArrayAttr(x, "shape", 1, I)
    for k in range(2, t.ndim):
        rest = N.BinOp("mul", rest, N.ArrayAttr(x, "shape", k, I), I)
    rest = L.let(rest)
    view_t = T.ArrayType(t.dtype, 2, "C", t.readonly)
    return L.let(N.ArrayView(x, ops.C(0, I), [N.ArrayAttr(x, "shape", 0, I), rest],
                             [N.BinOp("mul", rest, ops.C(itemsize(t), I), I),
                              ops.C(itemsize(t), I)], view_t))


def _rows_ok(t) -> bool:
    return isinstance(t, T.ArrayType) and (t.ndim == 2 or (t.ndim > 2 and t.layout == "C"))


# ---------------------------------------------------------------------- choice
class Legacy:
    """``legacy``: the ``RandomState`` form, of the global state or, with
    ``method``, a ``RandomState`` receiver's (``Generator`` methods take the
    generator first too)."""

    def setup(self, what, legacy, method):
        self.legacy, self.method = legacy, method
        self.name = ("RandomState." if method else "np.random.") + what if legacy \
            else "Generator." + what
        self.paths = (f"numpy.random.{what}",) if legacy and not method else ()

    def rest(self, args):
        return args[1:] if self.method or not self.legacy else args

    def receiver_ok(self, inf, args):
        if self.method:
            from .random_state import check_receiver
            check_receiver(inf, args[0])

    def state(self, L, args):
        """The legacy helpers' first argument: the state address."""
        return [state_address(L, args[0] if self.method else None)]

    def bind(self, args, kwargs):
        return bind_arguments(self.name, self.params, self.rest(args), kwargs)


class Choice(Legacy, CallTemplate):
    """``Generator.choice`` (``legacy=False``) or ``np.random.choice`` (or
    ``RandomState.choice``)."""

    def __init__(self, legacy, method=False):
        self.setup("choice", legacy, method)
        self.params = ("a", "size", "replace", "p") if legacy else \
            ("a", "size", "replace", "p", "axis", "shuffle")

    def typer(self, inf, call, args, kwargs):
        self.receiver_ok(inf, args)
        bound = self.bind(args, kwargs)
        a = bound.get("a")
        if "axis" in bound and not (isinstance(a, T.ArrayType)
                                    and _axis(call, a.ndim) is not None):
            raise Incompatible(f"{self.name}() with axis= other than a literal 0 "
                               "(or -ndim) of an array")
        if not (_bool_or_absent(bound.get("replace")) and _bool_or_absent(bound.get("shuffle"))):
            raise Incompatible(f"{self.name}() with a replace= or shuffle= that is not a bool")
        if not _p_ok(bound.get("p")):
            raise Incompatible(f"{self.name}() with p of type {bound.get('p')} "
                               "(a 1-D float64 or float32 array compiles)")
        size = bound.get("size")
        if isinstance(size, T.TupleType) and len(size.items) > 4 and "replace" in bound \
                and is_absent(bound.get("p")):
            # NumPy's reshape error after the draws names up to 3 other dimensions
            raise Incompatible(f"{self.name}(replace=...) with a size of more than 4 dimensions")
        if is_integer_type(a):
            return sized(bound, I)
        if isinstance(a, T.ArrayType) and a.ndim == 1:
            return sized(bound, a.dtype)
        if not self.legacy and _rows_ok(a):
            # rows of a along axis 0: the result's shape is size + a.shape[1:]
            t = sized(bound, a.dtype)
            ndim = t.ndim if isinstance(t, T.ArrayType) else 0
            return T.ArrayType(a.dtype, ndim + a.ndim - 1, "C")
        raise Incompatible(f"{self.name}() of {a}")

    def lower(self, L, call, args, kwargs):
        bound = self.bind(args, kwargs)
        a = bound["a"]
        is_int = not isinstance(a.type, T.ArrayType)
        a = L.let(ops.convert(L, a, I) if is_int else a)
        pop = a if is_int else L.let(N.ArrayAttr(a, "shape", 0, I))
        replace = bound.get("replace", ops.C(True, B))
        shuffle = bound.get("shuffle", ops.C(True, B))
        p = bound.get("p")
        size = bound.get("size")
        scalar = is_absent_expr(size)
        if scalar:
            dims, m, neg = [], ops.C(1, I), ops.C(False, B)
        else:
            from ..arrays.creation import shape_values
            dims = shape_values(L, size, check=False)
            m, neg = ops.C(1, I), ops.C(False, B)       # size=(): one item, 0-d
            for d in dims:
                m = N.BinOp("mul", m, d, I)
                neg = N.BinOp("or", neg, N.Cmp("lt", d, ops.C(0, I), B), B)
            m, neg = L.let(m), L.let(neg)
        head = [pop, ops.C(is_int, B), m, neg, replace]
        if is_absent_expr(p):
            if self.legacy:
                idx = L.call_helper(hc.legacy_choice_indices_no_p, self.state(L, args) + head)
            else:
                idx = L.call_helper(hc.choice_indices_no_p,
                                    [args[0]] + head + [shuffle, ops.C(False, B)])
        else:
            atol = ops.C(hc.ATOL64 if p.type.dtype == T.FLOAT64 else hc.ATOL32, T.FLOAT64)
            if self.legacy:
                idx = L.call_helper(hc.legacy_choice_indices,
                                    self.state(L, args) + head + [p, atol])
            else:
                idx = L.call_helper(hc.choice_indices, [args[0]] + head
                                    + [ops.C(True, B), p, atol, shuffle, ops.C(False, B)])
        idx = L.let(idx)
        if not is_int and a.type.ndim > 1:
            return _choose_rows(L, call, a, idx, dims, m, len(dims) > 1 and "replace"
                                in bound and is_absent_expr(p))
        if scalar:
            return L.call_helper(hc.first_index, [idx]) if is_int else \
                L.call_helper(hc.first_item, [a, idx])
        if len(dims) > 1 and "replace" in bound and is_absent_expr(p):
            reshape_errors(L, dims)
        out, flat = array_of(L, call.type, dims)
        if is_int:
            call_void(L, hc.copy_indices, [flat, idx])
        else:
            call_void(L, hc.take, [flat, a, idx])
        return out


def _axis(call, ndim):
    """0 when the call's ``axis=`` is a literal naming axis 0 (0 or ``-ndim``),
    passed by keyword; else None."""
    node = (getattr(call, "kwargs", None) or {}).get("axis")
    literal = isinstance(node, N.Const) and type(node.value) is int
    return 0 if literal and node.value in (0, -ndim) else None


def _choose_rows(L, call, a, idx, dims, m, reshape):
    """``a.take(idx, axis=0)`` for an n-D ``a``: rows of its 2-D view copied into
    a new array of shape ``size + a.shape[1:]`` (``size`` None: ``a.shape[1:]``)."""
    from ..arrays.creation import allocate
    if reshape:
        reshape_errors(L, dims)
    t = call.type
    rest_dims = [L.let(N.ArrayAttr(a, "shape", k, I)) for k in range(1, a.type.ndim)]
    out = L.let(allocate(L, t, list(dims) + rest_dims))
    rest = rest_dims[0]
    for d in rest_dims[1:]:
        rest = N.BinOp("mul", rest, d, I)
    rest = L.let(rest)
    size = ops.C(itemsize(t), I)
    view_t = T.ArrayType(t.dtype, 2, "C")
    out2 = L.let(N.ArrayView(out, ops.C(0, I), [m, rest],
                             [N.BinOp("mul", rest, size, I), size], view_t))
    call_void(L, hc.take_rows, [out2, rows_view(L, a), idx])
    return out


def reshape_errors(L, dims):
    """NumPy's ``idx.shape = size`` errors, reached only after ``replace=False``
    without ``p`` drew with negative dimensions (their product not negative)."""
    zero = ops.C(0, I)
    count = ops.C(0, I)
    for d in dims:
        count = N.BinOp("add", count, N.Select(N.Cmp("lt", d, zero, B), ops.C(1, I), zero, I), I)
    count = L.let(count)
    L.emit(N.If(cond=N.Cmp("gt", count, ops.C(1, I), B),
                then=[N.Raise(exc=ValueError, message="can only specify one unknown dimension")]))
    for q, dq in enumerate(dims):
        others = [d for k, d in enumerate(dims) if k != q]
        # NumPy prints no leading unknown dimension and "newaxis" for a later one
        parts = ["{}" if k != q else "newaxis" for k in range(len(dims)) if k != q or q > 0]
        message = f"cannot reshape array of size 0 into shape ({','.join(parts)})"
        L.emit(N.If(cond=N.Cmp("lt", dq, zero, B),
                    then=[N.Raise(exc=ValueError, message=message, args=others)]))


# ----------------------------------------------------------- shuffle, permutation
class Shuffle(Legacy, CallTemplate):
    """``Generator.shuffle(x)`` / ``np.random.shuffle(x)`` of a writeable array,
    in place, along axis 0."""

    def __init__(self, legacy, method=False):
        self.setup("shuffle", legacy, method)
        self.params = ("x",) if legacy else ("x", "axis")

    def typer(self, inf, call, args, kwargs):
        self.receiver_ok(inf, args)
        bound = self.bind(args, kwargs)
        x = bound.get("x")
        if "axis" in bound or not isinstance(x, T.ArrayType) or x.readonly \
                or not (x.ndim == 1 or _rows_ok(x)):
            raise Incompatible(f"{self.name}() of {x}")
        return T.NONE

    def lower(self, L, call, args, kwargs):
        x = self.bind(args, kwargs)["x"]
        if x.type.ndim == 1:
            if self.legacy:
                call_void(L, hc.legacy_shuffle, self.state(L, args) + [x])
            else:
                call_void(L, hr.shuffle, [args[0], x])
        elif self.legacy:
            call_void(L, hc.legacy_shuffle_rows, self.state(L, args) + [rows_view(L, x)])
        else:
            call_void(L, hc.shuffle_rows, [args[0], rows_view(L, x)])
        return ops.C(None, T.NONE)


class Permutation(Legacy, CallTemplate):
    """``permutation(x)``: of an int, a shuffled ``np.arange(x)``; of a 1-D
    array, a shuffled copy; of an n-D array, its rows in the order of a
    shuffled ``np.arange(len(x))``."""

    def __init__(self, legacy, method=False):
        self.setup("permutation", legacy, method)
        self.params = ("x",) if legacy else ("x", "axis")

    def typer(self, inf, call, args, kwargs):
        self.receiver_ok(inf, args)
        bound = self.bind(args, kwargs)
        x = bound.get("x")
        if "axis" in bound:
            raise Incompatible(f"{self.name}() with axis=")
        if is_integer_type(x):
            return T.ArrayType(I, 1, "C")
        if isinstance(x, T.ArrayType) and (x.ndim == 1 or _rows_ok(x)):
            return T.ArrayType(x.dtype, x.ndim, "C")
        raise Incompatible(f"{self.name}() of {x}")

    def lower(self, L, call, args, kwargs):
        x = self.bind(args, kwargs)["x"]
        rng = self.state(L, args) if self.legacy else [args[0]]
        if not isinstance(x.type, T.ArrayType):
            x = ops.convert(L, x, I)
            return L.call_helper(hc.legacy_permutation_int if self.legacy
                                 else hr.permutation_int, rng + [x])
        if x.type.ndim == 1:
            return L.call_helper(hc.legacy_permutation_array if self.legacy
                                 else hr.permutation_array, rng + [x])
        x = L.let(x)
        dims = [L.let(N.ArrayAttr(x, "shape", k, I)) for k in range(x.type.ndim)]
        out, _ = array_of(L, call.type, dims)
        helper = hc.legacy_permutation_rows if self.legacy else hc.permutation_rows
        call_void(L, helper, rng + [rows_view(L, out), rows_view(L, x)])
        return out


GENERATOR_METHODS = {
    "choice": Choice(legacy=False),
    "shuffle": Shuffle(legacy=False),
    "permutation": Permutation(legacy=False),
}

register(Choice(legacy=True))
register(Shuffle(legacy=True))
register(Permutation(legacy=True))
RANDOMSTATE_METHODS = {
    "choice": Choice(legacy=True, method=True),
    "shuffle": Shuffle(legacy=True, method=True),
    "permutation": Permutation(legacy=True, method=True),
}
