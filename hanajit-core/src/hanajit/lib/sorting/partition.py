"""``np.partition`` / ``np.argpartition`` and the methods ``a.partition(kth)``
(in place) and ``a.argpartition(kth)`` of real arrays, ``kind='introselect'``:
NumPy's element order exactly.

Each lane along ``axis`` (a constant int; ``None``: the flattened array) is
copied contiguous (``sort.Lanes``) and run through NumPy's own
``introselect_`` (``quantile_algorithms.select``, a step-for-step port of
``numpy/_core/src/npysort/selection.cpp``) once per kth, in increasing order
with one pivot stack per lane, as ``_new_sortlike`` does; ``argpartition``
moves the positions ``0 .. n - 1`` along with a scratch copy of the values,
which is what NumPy's ``introselect_<arg=true>`` does through ``tosort``.
kth is an int, a tuple (or list display) of ints or a 0-d/1-D integer array;
negative kth's count from the end, and one out of ``[-n, n)`` raises NumPy's
ValueError (not for an empty array); lanes of 0 or 1 items are left alone.

NumPy hands a *single* kth of some types to a SIMD quickselect instead
(``quickselect_dispatch``: 16-, 32- and 64-bit types on AVX-512/AVX2, and the
32/64-bit ``argquickselect_dispatch``), whose order is its own: which types
is measured once per process (:func:`simd_single_kth`).  There the compiled
code has NumPy select on its contiguous lanes (``numpy_partition``: NumPy's
selection function called directly, else a Python callback; a kth array
does when its run-time length is 1), on targets whose code runs in this process;
elsewhere a single kth falls back (a kth array of run-time length 1 re-runs the
call in the interpreter).  Complex arrays, other kinds, ``order=`` and 0-d arrays
(NumPy: AxisError) fall back too.
"""
from __future__ import annotations

import functools

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..python import operators as ops
from ..statistics import quantile_algorithms as hq
from . import numpy_partition
from ..arrays.creation import allocate
from ..python.operators import C
from ..registry import CallTemplate, bind_arguments, bound_const, register

I = T.INT64
_PARAMS = ("a", "kth", "axis", "kind", "order")
_UNSET = object()


@functools.cache
def simd_single_kth(dtype: str, arg: bool) -> bool:
    """Does NumPy (here, on this CPU) partition a single kth of ``dtype`` other
    than by ``introselect_`` -- is its order not the port's?  Measured on 997
    values, which no two different algorithms leave in the same order."""
    import numpy as np
    rng = np.random.default_rng(997)
    dt = np.dtype(dtype)
    if dt.kind == "f":
        a = rng.standard_normal(997).astype(dt)
    else:
        a = rng.integers(0, 2 if dt.kind == "b" else 100, 997).astype(dt)
    kth = np.array([400], np.int64)
    inexact = dt.kind == "f"
    v = a.copy()
    if arg:
        p = np.empty(len(a), np.int64)
        hq.argpartition_rows(v, p, len(a), kth, inexact)
        return p.tobytes() != np.argpartition(a, 400).tobytes()
    hq.partition_rows(v, len(a), kth, inexact)
    return v.tobytes() != np.partition(a, 400).tobytes()


def _kth_type(t):
    """How many kth's ``t`` holds: an int, or None for a run-time count;
    Incompatible for what NumPy refuses (booleans, non-integers) or reads
    otherwise (uint64)."""
    def ok(s):
        return isinstance(s, T.Scalar) and s.is_int and s != T.UINT64
    if isinstance(t, T.Scalar) and ok(t):
        return 1
    if isinstance(t, T.TupleType) and t.items and all(ok(s) for s in t.items):
        return len(t.items)
    if isinstance(t, T.ArrayType) and t.ndim <= 1 and ok(t.dtype):
        return 1 if t.ndim == 0 else None
    raise Incompatible(f"kth of type {t} (an int, a tuple of ints or a 0-d/1-D "
                       "integer array only)")


class Partition(CallTemplate):
    """``np.partition(a, kth, axis=-1, kind='introselect', order=None)`` and
    ``np.argpartition`` (see the module docstring)."""

    accepts_lazy = True
    copies_elements = True

    def __init__(self, name, method=False):
        self.name = name
        self.arg = name == "argpartition"
        self.method = method
        self.paths = () if method else (f"numpy.{name}",)

    def plan(self, ctx, call, args, kwargs):
        what = f"a.{self.name}" if self.method else f"np.{self.name}"
        if len(args) < 2 and "kth" not in kwargs:
            raise Incompatible(f"{what}(kth, axis=-1, kind='introselect')")
        nodes = bind_arguments(what, _PARAMS, call.args, call.kwargs)
        types = bind_arguments(what, _PARAMS, args, kwargs)
        if bound_const(call, nodes, "kind", "introselect") != "introselect" \
                or bound_const(call, nodes, "order", None) is not None:
            raise Incompatible(f"{what}() with kind= other than 'introselect' or "
                               "order=")
        a = types["a"]
        if not isinstance(a, T.ArrayType) or not isinstance(a.dtype, T.Scalar) \
                or a.dtype.is_complex:
            raise Incompatible(f"{what}() of {a} (real arrays only)")
        axis = bound_const(call, nodes, "axis", -1)
        if axis is None:
            if self.method and not self.arg:             # (NumPy: TypeError)
                raise Incompatible("a.partition(axis=None)")
        elif type(axis) is not int or not -a.ndim <= axis < a.ndim:
            raise Incompatible(f"{what}() axis={axis!r} for a {a.ndim}-D array (a "
                               "constant int in range or None only)")
        else:
            axis %= a.ndim
        if self.method and not self.arg and a.readonly:
            raise Incompatible("a.partition() of a read-only array")
        count = _kth_type(types["kth"])
        if count == 1 and simd_single_kth(a.dtype.name, self.arg) \
                and not numpy_partition.usable(ctx, a.dtype):
            raise Incompatible(f"{what}() of a {a.dtype} array at a single kth (NumPy "
                               "takes its SIMD quickselect here, which only code "
                               "running in this process and calling back into Python "
                               "reaches)")
        return a, axis, count

    def typer(self, inf, call, args, kwargs):
        a, axis, _ = call.partition_plan = self.plan(inf.ctx, call, args, kwargs)
        if self.method and not self.arg:
            return T.NONE
        nd = 1 if axis is None else a.ndim
        return T.ArrayType(I if self.arg else a.dtype, nd, "C")

    def lower(self, L, call, args, kwargs):
        at, axis, count = call.partition_plan
        from .sort import Lanes  # (sort imports this module)
        b = bind_arguments(self.name, _PARAMS, args, kwargs)
        a = L.let(b["a"]) if self.method and not self.arg else b["a"]
        host = simd_single_kth(at.dtype.name, self.arg) \
            and numpy_partition.usable(L.ctx, at.dtype)
        # (NumPy's argpartition reads a contiguous lane where it lies)
        lanes = self.arg and host and count == 1 and Lanes.view(L, a, axis) \
            or Lanes(L, a, axis)
        kth = self.kth_values(L, b["kth"], lanes, at)
        if count is None and not host and simd_single_kth(at.dtype.name, self.arg):
            single = ops.band(N.Cmp("eq", N.ArrayAttr(kth, "shape", 0, I), C(1, I),
                                    T.BOOL), N.Cmp("gt", lanes.n, C(1, I), T.BOOL))
            L.emit(N.If(cond=single, then=[N.Raise(
                exc=ValueError, deopt=True, line=L.line,
                message=f"np.{self.name}() of a {at.dtype} array at a single kth: "
                        "NumPy takes its SIMD quickselect here")]))
        inexact = C(at.dtype.is_float, T.BOOL)
        pflat = out = None
        if self.arg:
            out, pflat = lanes.like(L, I)

        def port():
            if self.arg:
                L.call_helper(hq.argpartition_rows, [lanes.flat, pflat, lanes.n, kth,
                                                     inexact])
            else:
                L.call_helper(hq.partition_rows, [lanes.flat, lanes.n, kth, inexact])

        def numpy():        # NumPy's SIMD quickselect, called back
            numpy_partition.partition_lanes(L, lanes.flat, lanes.n,
                                            N.Load(kth, [C(0, I)], I), pflat)
        if not host:
            port()
        elif count == 1:
            numpy()
        else:               # a kth array: its run-time length decides
            L.emit(N.If(cond=N.Cmp("eq", N.ArrayAttr(kth, "shape", 0, I), C(1, I),
                                   T.BOOL),
                        then=L.sub_block(numpy)[0], orelse=L.sub_block(port)[0]))
        if self.arg:
            return ew.materialize(L, lanes.back(out, pflat))
        result = lanes.back(lanes.moved, lanes.flat)
        if not self.method:
            return ew.materialize(L, result)
        from ..indexing.elements import assign_to_view
        assign_to_view(L, a, result)
        return C(None, T.NONE)

    @staticmethod
    def kth_values(L, kth, lanes, at):
        """The kth's as NumPy's ``partition_prep_kth_array`` leaves them: negative
        ones counted from the end, checked against the lane length (unless the
        array is empty), sorted."""
        t = kth.type
        if isinstance(t, T.TupleType):
            tup = L.let(kth)
            raw = allocate(L, T.ArrayType(I, 1, "C"), [C(len(t.items), I)])
            for i, s in enumerate(t.items):
                L.emit(N.Store(array=raw, indices=[C(i, I)],
                               value=ops.convert(L, N.TupleGet(tup, i, s), I)))
        elif isinstance(t, T.ArrayType) or isinstance(kth, ew.Lazy):
            z = ew.to_lazy(L, kth)
            dims = z.dims or [C(1, I)]
            raw = L.let(ew.materialize(L, ew.Lazy(
                T.ArrayType(I, 1, "C"), dims,
                lambda idx: ops.convert(L, z.elem(idx[:len(z.dims)]), I))))
        else:
            raw = allocate(L, T.ArrayType(I, 1, "C"), [C(1, I)])
            L.emit(N.Store(array=raw, indices=[C(0, I)], value=ops.convert(L, kth, I)))
        n = L.let(lanes.n)
        size = N.ArrayAttr(lanes.flat, "shape", 0, I)
        bad = L.let(L.call_helper(hq.kth_out_of_bounds, [raw, n]))
        L.emit(N.If(cond=ops.band(N.Cmp("ge", bad, C(0, I), T.BOOL),
                                  N.Cmp("ne", size, C(0, I), T.BOOL)),
                    then=[N.Raise(exc=ValueError, args=[N.Load(raw, [bad], I), n],
                                  line=L.line, message="kth(={}) out of bounds ({})")]))
        return L.let(L.call_helper(hq.sorted_kth, [raw, n]))


register(Partition("partition"))
register(Partition("argpartition"))
METHODS = {"partition": Partition("partition", method=True),
           "argpartition": Partition("argpartition", method=True)}
