"""``np.pad(array, pad_width, mode='constant', constant_values=0)`` and the modes
``'edge'``, ``'wrap'``, ``'reflect'`` and ``'symmetric'``, as NumPy's
``numpy/lib/_arraypad_impl.py`` pads.

``pad_width`` is read as NumPy reads it (``_as_pairs``): a number for every side,
``(before, after)`` for every axis, ``((before, after),)`` or one pair (or one
number, ``((w,),)``) per axis -- integers, constant or not; a negative one is
NumPy's ``ValueError``.  The result is a new C-ordered array of the input's dtype.

* ``'constant'``: the constant is ``np.array(constant_values)[0]``, a NumPy scalar
  stored into the padded areas as NumPy's setitem stores it (``300`` into int8:
  its ``OverflowError``; a float into an integer array truncates), converted even
  when no side is padded, as NumPy converts it for every axis; then the array
  is copied into the middle.
* the other modes read the input at an index mapped per axis (NumPy pads axis by
  axis, each from the axes padded before, which is the same): ``'edge'`` clamps,
  ``'wrap'`` is periodic in the axis length ``n``, ``'symmetric'`` mirrors with
  the edge repeated (period ``2n``), ``'reflect'`` without it (period
  ``2n - 2``; an axis of one element is extended as by ``'edge'``, as NumPy's
  legacy rule does).  An empty axis with a non-zero width is NumPy's
  ``ValueError``.  The result is lazy: ``np.pad(a, 1, mode='edge')`` inside an
  expression is read where it is used.

Tuples of constants (one per side or axis), ``stat_length``, ``reflect_type``,
``end_values``, the statistic modes, ``'linear_ramp'``, ``'empty'``, a callable
mode and 0-d arrays fall back."""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from . import elementwise as ew
from ..python import operators as ops
from ..python.operators import C
from ..registry import PlannedCall, register

I = T.INT64
_PARAMS = ("array", "pad_width", "mode", "constant_values")
MODES = ("constant", "edge", "wrap", "reflect", "symmetric")
NEGATIVE = "index can't contain negative values"


def _int(t) -> bool:
    """A width NumPy takes: ``np.asarray(pad_width)`` of a signed integer kind
    (unsigned and bool widths are its TypeError; compiled, they fall back)."""
    return isinstance(t, T.Scalar) and t.is_int and t.is_signed


def width_shape(t) -> tuple:
    """The shape of ``np.array(pad_width)`` for a pad_width of type ``t``:
    ``()``, ``(k,)`` or ``(k, l)``; Incompatible for anything else."""
    if _int(t):
        return ()
    if isinstance(t, T.TupleType) and t.items and all(_int(i) for i in t.items):
        return (len(t.items),)
    if isinstance(t, T.TupleType) and t.items and all(
            isinstance(i, T.TupleType) and all(_int(j) for j in i.items) for i in t.items):
        lengths = {len(i.items) for i in t.items}
        if len(lengths) == 1 and 0 not in lengths:
            return (len(t.items), lengths.pop())
    raise Incompatible(f"np.pad() pad_width of {t} (signed integers, pairs of them, "
                       "or a pair per axis)")


def pairs_of(shape: tuple, ndim: int) -> list:
    """For each axis, the positions ``(before, after)`` take in the flattened
    ``pad_width`` (NumPy's ``_as_pairs`` and its ``broadcast_to(x, (ndim, 2))``)."""
    size = 1
    for s in shape:
        size *= s
    if size == 1:
        return [(0, 0)] * ndim
    if size == 2 and shape != (2, 1):
        return [(0, 1)] * ndim
    if len(shape) == 1 or shape[0] not in (1, ndim) or shape[1] not in (1, 2):
        raise Incompatible(f"np.pad() pad_width of shape {shape} for a {ndim}-D array "
                           "(NumPy cannot broadcast it to (ndim, 2))")
    return [((k if shape[0] > 1 else 0) * shape[1],
             (k if shape[0] > 1 else 0) * shape[1] + (shape[1] - 1)) for k in range(ndim)]


def _flat_widths(L, e, t) -> list:
    """The widths of ``pad_width`` (an expression of type ``t``) in C order."""
    if _int(t):
        return [L.let(ops.convert_wrap(e, I))]
    tup = L.let(e)
    out = []
    for k, it in enumerate(t.items):
        item = N.TupleGet(tup, k, it)
        out += _flat_widths(L, item, it)
    return out


class Plan:
    def __init__(self, call, types, nodes):
        from ..registry import bound_const
        a = types.get("array")
        if not (isinstance(a, T.ArrayType) and a.ndim >= 1):
            raise Incompatible(f"np.pad() of {a} (an array of at least one dimension)")
        if "pad_width" not in types:
            raise Incompatible("np.pad() needs pad_width")
        self.pairs = pairs_of(width_shape(types["pad_width"]), a.ndim)
        self.mode = bound_const(call, nodes, "mode", "constant")
        if self.mode not in MODES:
            raise Incompatible(f"np.pad() mode {self.mode!r} (compiled: "
                               f"{', '.join(MODES)})")
        value = types.get("constant_values")
        if value is not None and self.mode != "constant":
            raise Incompatible(f"np.pad() constant_values with mode {self.mode!r}")
        if value is not None and not (isinstance(value, T.Scalar) and
                                      (value.is_complex <= a.dtype.is_complex)):
            raise Incompatible(f"np.pad() constant_values of {value} (one real number, "
                               "or a complex one for a complex array)")
        self.type = T.ArrayType(a.dtype, a.ndim, "C")


def source_index(mode, j, n):
    """The index of the input along an axis of length ``n`` that the padded
    array's index ``j`` (counted from the input's first element) reads."""
    last = N.BinOp("sub", n, C(1, I), I)
    if mode == "edge":
        low = N.Select(N.Cmp("lt", j, C(0, I), T.BOOL), C(0, I), j, I)
        return N.Select(N.Cmp("gt", low, last, T.BOOL), last, low, I)
    if mode == "wrap":
        return ops.mod_positive(j, n)
    if mode == "symmetric":
        period = N.BinOp("add", n, n, I)
        m = ops.mod_positive(j, period)
        return N.Select(N.Cmp("lt", m, n, T.BOOL), m,
                        N.BinOp("sub", N.BinOp("sub", period, C(1, I), I), m, I), I)
    # reflect: period 2n - 2; one element is extended as its edge
    period = N.BinOp("add", last, last, I)
    safe = N.Select(N.Cmp("lt", period, C(1, I), T.BOOL), C(1, I), period, I)
    m = ops.mod_positive(j, safe)
    mirrored = N.Select(N.Cmp("lt", m, n, T.BOOL), m, N.BinOp("sub", period, m, I), I)
    return N.Select(N.Cmp("eq", n, C(1, I), T.BOOL), C(0, I), mirrored, I)


@register
class Pad(PlannedCall):
    paths = ("numpy.pad",)
    name, params = "np.pad", _PARAMS

    def make_plan(self, call, nodes, types):
        return Plan(call, types, nodes)

    def lower(self, L, call, args, kwargs):
        from ..indexing.elements import setitem_value
        from .creation import allocate, fill
        from .reductions import loops
        p = call.call_plan
        b = self.bound(args, kwargs)
        a = L.let(ew.materialize(L, b["array"]))
        flat = _flat_widths(L, b["pad_width"], b["pad_width"].type)
        negative = None
        for w in flat:
            below = N.Cmp("lt", w, C(0, I), T.BOOL)
            negative = below if negative is None else ops.bor(negative, below)
        L.raise_if(negative, ValueError, NEGATIVE)
        widths = [(flat[i], flat[j]) for i, j in p.pairs]
        ns = [L.let(N.ArrayAttr(a, "shape", k, I)) for k in range(a.type.ndim)]
        dims = [L.let(N.BinOp("add", N.BinOp("add", n, w0, I), w1, I))
                for n, (w0, w1) in zip(ns, widths)]
        dtype = p.type.dtype
        if p.mode == "constant":
            value = b.get("constant_values")
            value = C(0, I) if value is None or value.type == T.NONE else value
            v = L.let(setitem_value(L, value, dtype, python=False))
            out = allocate(L, p.type, dims)
            fill(L, out, dims, lambda idx: v)
            loops(L, ns, lambda idx: L.emit(N.Store(
                array=out, indices=[N.BinOp("add", i, w0, I) for i, (w0, _) in
                                    zip(idx, widths)],
                value=N.Load(a, idx, dtype))))
            return out
        for k, (n, (w0, w1)) in enumerate(zip(ns, widths)):
            padded = ops.bor(N.Cmp("gt", w0, C(0, I), T.BOOL),
                             N.Cmp("gt", w1, C(0, I), T.BOOL))
            L.raise_if(ops.band(N.Cmp("eq", n, C(0, I), T.BOOL), padded), ValueError,
                       f"can't extend empty axis {k} using modes other than 'constant' "
                       "or 'empty'")

        def elem(idx):
            src = [L.let(source_index(p.mode, N.BinOp("sub", i, w0, I), n))
                   for i, n, (w0, _) in zip(idx, ns, widths)]
            return N.Load(a, src, dtype)
        return ew.Lazy(p.type, dims, elem)
