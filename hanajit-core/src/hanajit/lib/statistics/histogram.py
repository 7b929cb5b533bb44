"""``np.histogram(a, bins=10, range=None, density=None, weights=None)``: typing and
lowering; the counting runs in ``histogram_algorithms`` (NumPy's algorithms).

``bins`` is an integer (uniform bins over ``range`` or the data's min and max) or
a 1-D array of monotonically increasing edges (ValueError otherwise; ``range`` is
then ignored, as NumPy ignores it).  ``weights`` are float64 of ``a``'s shape
(ValueError otherwise) and make float64 sums; ``density=True`` divides by the bin
widths and the total (NumPy's pairwise sum).  Data are integers, float64 or
float32 (binned in NumPy's types: ``histogram_algorithms.histogram32``; a
``range`` of NumPy scalars, which would change those types, is refused).
"""
from __future__ import annotations

from ...typing_rules import Incompatible, promote
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..python import operators as ops
from ..python.operators import C
from ..registry import CallTemplate, register

I = T.INT64
F = T.FLOAT64
NAMES = ("a", "bins", "range", "density", "weights")


def _density_flag(call):
    node = call.kwargs.get("density", call.args[3] if len(call.args) > 3 else None)
    if node is None:
        return False
    value = getattr(node, "value", getattr(node, "obj", node))
    if value is None or isinstance(value, bool):
        return bool(value)
    raise Incompatible("density must be a constant True, False or None")


@register
class Histogram(CallTemplate):
    """``np.histogram`` -> ``(counts, edges)``."""

    paths = ("numpy.histogram",)
    accepts_lazy = True

    def typer(self, inf, call, args, kwargs):
        if len(args) > 5 or set(kwargs) - set(NAMES[1:]):
            raise Incompatible("np.histogram(a, bins=10, range=None, density=None, "
                               "weights=None)")
        got = dict(zip(NAMES, args), **kwargs)
        at = got.get("a")
        if not isinstance(at, T.ArrayType):
            raise Incompatible(f"np.histogram() of {at}")
        if not (at.dtype.is_int or at.dtype in (F, T.FLOAT32)):
            raise Incompatible(f"np.histogram() of {at.dtype} data (integers, float64 "
                               "and float32 only)")
        bt = got.get("bins", I)
        if at.dtype == T.UINT64 and not isinstance(bt, T.ArrayType):
            raise Incompatible("np.histogram() of uint64 data with a number of bins")
        if isinstance(bt, T.ArrayType):
            if bt.ndim != 1 or not (bt.dtype.is_int or bt.dtype.is_float):
                raise Incompatible("np.histogram() bins must be a 1-D array of numbers")
            edges = T.ArrayType(bt.dtype, 1, "C")
        elif isinstance(bt, T.Scalar) and bt.is_int:
            edges = T.ArrayType(T.FLOAT32 if at.dtype == T.FLOAT32 else F, 1, "C")
        else:
            raise Incompatible("np.histogram() with bins other than an integer or an "
                               "array of edges")
        rt = got.get("range", T.NONE)
        if rt != T.NONE and not (isinstance(rt, T.TupleType) and len(rt.items) == 2 and all(
                isinstance(x, T.Scalar) and not x.is_complex and not x.is_bool
                for x in rt.items)):
            raise Incompatible("range must be None or a (min, max) pair of numbers")
        if rt != T.NONE and at.dtype == T.FLOAT32 and inf.is_strong(
                dict(zip(NAMES, call.args), **call.kwargs)["range"]):
            raise Incompatible("np.histogram() of float32 data with a range of NumPy "
                               "scalars")
        wt = got.get("weights", T.NONE)
        if wt != T.NONE and not (isinstance(wt, T.ArrayType) and wt.dtype == F):
            raise Incompatible("np.histogram() weights other than a float64 array")
        counts = I if wt == T.NONE else F
        if _density_flag(call):
            counts = F
        return T.TupleType((T.ArrayType(counts, 1, "C"), edges))

    def lower(self, L, call, args, kwargs):
        from . import histogram_algorithms as hh
        from .var_std_norm import flat_array
        got = dict(zip(NAMES, args), **kwargs)
        a = L.let(ew.materialize(L, got["a"]))
        flat = flat_array(L, a)
        w = got.get("weights")
        if w is None or w.type == T.NONE:
            w = []
        else:
            w = L.let(ew.materialize(L, w))
            _same_shape(L, a, w)
            w = [flat_array(L, w)]
        bins = got.get("bins", C(10, I))
        if isinstance(bins.type, T.ArrayType) or isinstance(bins, ew.Lazy):
            edges = flat_array(L, L.let(ew.materialize(L, bins)))
            common = promote(flat.type.dtype, edges.type.dtype)
            keys = edges
            if common != edges.type.dtype:
                z = ew.to_lazy(L, edges)
                keys = L.let(ew.materialize(L, ew.Lazy(
                    T.ArrayType(common, 1, "C"), z.dims,
                    lambda idx: ops.convert(L, z.elem(idx), common))))
            helper = hh.histogram_edges_weighted if w else hh.histogram_edges
            res = L.call_helper(helper, [flat, edges, keys, *w])
        elif flat.type.dtype == T.FLOAT32:
            nb = L.let(ops.convert_wrap(bins, I))
            rng = got.get("range")
            if rng is None or rng.type == T.NONE:
                helper = hh.histogram32_weighted if w else hh.histogram32
                res = L.call_helper(helper, [flat, nb, *w])
            else:
                lo, hi, _ = _range(L, rng, flat, nb)
                helper = hh.histogram32_range_weighted if w else hh.histogram32_range
                res = L.call_helper(helper, [flat, nb, lo, hi, _span(L, lo, hi), *w])
        else:
            helper = hh.histogram_weighted if w else hh.histogram
            if flat.type.dtype.is_int and flat.type.dtype != I:
                # narrower integers binned as int64: the same values, and every
                # step NumPy takes on them (min, max, the exact differences
                # ``_unsigned_subtract`` gives) is exact in int64 too
                z = ew.to_lazy(L, flat)
                flat = L.let(ew.materialize(L, ew.Lazy(
                    T.ArrayType(I, 1, "C"), z.dims,
                    lambda idx: ops.convert_wrap(z.elem(idx), I))))
            nb = L.let(ops.convert_wrap(bins, I))
            res = L.call_helper(helper, [flat, nb, *_range(L, got.get("range"), flat, nb),
                                         *w])
        if not _density_flag(call):
            return res
        return _density(L, res, call.type)


def _range(L, rng, flat, bins):
    if rng is None or rng.type == T.NONE:
        lo = ops.zero(flat.type.dtype)
        return [lo, lo, C(False, T.BOOL)]
    rng = L.let(rng)
    lo, hi = (C(rng.value[k], t) if isinstance(rng, N.Const) else N.TupleGet(rng, k, t)
              for k, t in enumerate(rng.type.items))
    if lo.type != hi.type:
        lo, hi = L.let(lo), L.let(hi)
        _check_mixed_range(L, lo, hi, bins)
        lo, hi = ops.convert(L, lo, F), ops.convert(L, hi, F)
    return [L.let(lo), L.let(hi), C(True, T.BOOL)]


def _check_mixed_range(L, lo, hi, bins):
    """NumPy's error for a range of an int and a non-finite float, raised here
    where the int is still one (the helpers see both as float64): "supplied
    range of [0, inf] is not finite" -- after the bin count's check and the
    order's (``lo > hi``), as NumPy checks."""
    if not (lo.type.is_float or hi.type.is_float) or lo.type.is_float == hi.type.is_float:
        return
    f = hi if hi.type.is_float else lo
    inf = C(float("inf"), f.type)
    finite = N.Cmp("lt", N.Intrinsic("fabs", [f], f.type), inf, T.BOOL)
    # the float side at the other end's infinity fails the order check first
    ordered = N.Cmp("ne", f, N.UnOp("neg", inf, f.type) if f is hi else inf, T.BOOL)
    wrong = ops.band(ops.band(N.Cmp("ge", bins, C(1, I), T.BOOL),
                              N.UnOp("not", finite, T.BOOL)), ordered)
    message, args = ops.raise_fields("supplied range of [{}, {}] is not finite", [lo, hi])
    L.emit(N.If(cond=wrong, then=[N.Raise(exc=ValueError, message=message, args=args,
                                          line=L.line)], line=L.line))


def _span(L, lo, hi):
    """NumPy's ``hi - lo`` of a range of Python numbers, as a float64: for two
    ints the exact difference (``_unsigned_subtract``: uint64), else float64."""
    if lo.type.is_int and hi.type.is_int:
        diff = N.Cast(N.BinOp("sub", ops.convert_wrap(hi, I), ops.convert_wrap(lo, I), I),
                      T.UINT64)
        return L.let(ops.convert(L, diff, F))
    return L.let(N.BinOp("sub", ops.convert(L, hi, F), ops.convert(L, lo, F), F))


def _same_shape(L, a, w):
    """ValueError unless the weights have the data's shape (NumPy's message)."""
    msg = "weights should have the same shape as a."
    if a.type.ndim != w.type.ndim:
        L.emit(N.Raise(exc=ValueError, message=msg))
        return
    for k in range(a.type.ndim):
        L.raise_if(N.Cmp("ne", N.ArrayAttr(a, "shape", k, I), N.ArrayAttr(w, "shape", k, I),
                         T.BOOL), ValueError, msg)


def _density(L, res, rtype):
    """``n / np.diff(edges) / n.sum()`` (the widths in the edges' type, then as
    float64; the sum as NumPy adds: ``pairwise_sum``)."""
    from . import pairwise_sum
    res = L.let(res)
    nt, et = res.type.items
    n = L.let(N.TupleGet(res, 0, nt))
    edges = L.let(N.TupleGet(res, 1, et))
    if nt.dtype == F:
        total = L.let(L.call_helper(pairwise_sum.pairwise, [n, C(0.0, F)]))
    else:
        from ..arrays.reductions import loops
        acc = L.temp(I, "total")
        L.emit(N.Assign(target=acc, value=C(0, I)))
        loops(L, [N.ArrayAttr(n, "shape", 0, I)], lambda idx: L.emit(N.Assign(
            target=acc, value=N.BinOp("add", N.Var(acc, I), N.Load(n, idx, I), I))))
        total = L.let(N.Cast(N.Var(acc, I), F))
    dims = [L.let(N.ArrayAttr(n, "shape", 0, I))]

    def elem(idx):
        (i,) = idx
        hi = N.Load(edges, [N.BinOp("add", i, C(1, I), I)], et.dtype)
        width = ops.convert(L, N.BinOp("sub", hi, N.Load(edges, [i], et.dtype), et.dtype), F)
        x = ops.convert(L, N.Load(n, [i], nt.dtype), F)
        return N.BinOp("fdiv", N.BinOp("fdiv", x, width, F), total, F)
    dens = ew.materialize(L, ew.Lazy(rtype.items[0], dims, elem))
    return N.MakeTuple([dens, edges], rtype)
