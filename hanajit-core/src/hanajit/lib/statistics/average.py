"""``np.average(a, axis=None, weights=None, returned=False, keepdims=...)`` of an
array, as NumPy's ``average`` computes it, step by step:

* no weights: ``a.mean(axis)`` (``reductions``), and for ``returned=True`` the
  count ``a.size / avg.size`` in the mean's type (an array of the mean's shape
  when the mean is one);
* weights: their dtype ``r`` is ``np.result_type(a, weights)`` (with ``'f8'``
  for integer or bool ``a``); ``scl = weights.sum(axis)`` in ``r``, a
  ``ZeroDivisionError`` when any of it is zero, and ``avg =
  np.multiply(a, weights, dtype=r).sum(axis) / scl``.  The product and the
  weights cast to ``r`` are arrays, so their sums are NumPy's pairwise ones
  (``reductions.Reduction.pairwise_lane``);
* weights of another shape than ``a``: ``TypeError`` without ``axis``;
  with one, 1-D weights as long as that axis are broadcast along it, other
  shapes are NumPy's ``ValueError``.

``axis`` is ``None`` or a constant int (a tuple falls back); ``returned`` and
``keepdims`` constants; scalar ``a`` or ``weights`` fall back.  Integer weights
are cast to ``r`` and summed as one array, where NumPy casts them in buffers of
8192 elements: past that size a float sum may differ in the last bits.
"""
from __future__ import annotations

from types import SimpleNamespace

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..python import operators as ops
from ..python.operators import C
from ..arrays.reductions import Reduction
from ..registry import PlannedCall, bound_const, register

I = T.INT64
_PARAMS = ("a", "axis", "weights", "returned", "keepdims")
_SUM = Reduction("sum", ())
_MEAN = Reduction("mean", ())
SHAPES_DIFFER = "Axis must be specified when shapes of a and weights differ."
SHAPE_ALONG = ("Shape of weights must be consistent with shape of a along "
               "specified axis.")
ZERO_SUM = "Weights sum to zero, can't be normalized"


class Plan:
    """What a call computes, from the types and constant arguments alone."""

    def __init__(self, a, w, axis, returned, keepdims):
        if not isinstance(a, T.ArrayType):
            raise Incompatible(f"np.average() of {a} (an array only)")
        if axis is not None:
            if type(axis) is not int or not -a.ndim <= axis < a.ndim:
                raise Incompatible(f"np.average() axis={axis!r} for a {a.ndim}-D array "
                                   "(None or a constant int in range only)")
            axis %= a.ndim
        if type(returned) is not bool or keepdims is not None and type(keepdims) is not bool:
            raise Incompatible("np.average(): returned= and keepdims= must be constant bools")
        self.axis, self.returned, self.keep = axis, returned, bool(keepdims)
        self.nd = a.ndim
        self.weighted = w is not None and w != T.NONE
        if self.weighted:
            if not isinstance(w, T.ArrayType):
                raise Incompatible(f"np.average() weights of {w} (an array only)")
            A, W = a.dtype, w.dtype
            extra = [T.ArrayType(T.FLOAT64, 1, "C")] if A.is_int or A.is_bool else []
            r = ew.result_dtype("add", T.ArrayType(A, 1, "C"), T.ArrayType(W, 1, "C"),
                                False, False)
            if extra:
                r = ew.result_dtype("add", T.ArrayType(r, 1, "C"), extra[0], False, False)
            self.r = r
            self.wnd = w.ndim
        else:
            self.r = a.dtype if (a.dtype.is_float or a.dtype.is_complex) else T.FLOAT64
        ndim = self.nd if self.keep else (0 if axis is None else self.nd - 1)
        self.ndim = ndim
        self.avg = T.ArrayType(self.r, ndim, "C") if (ndim or self.keep) else self.r

    @property
    def type(self):
        """The result type."""
        return T.TupleType((self.avg, self.avg)) if self.returned else self.avg


def _reduce(L, tpl, arr, p, rt):
    """``tpl`` (sum or mean) of the array ``arr`` over the plan's axis."""
    kwargs = {"keepdims": C(p.keep, T.BOOL)}
    if p.axis is not None:
        kwargs["axis"] = C(p.axis, I)
    call = SimpleNamespace(args=[arr], kwargs=kwargs, type=rt)
    return L.let(tpl.lower(L, call, [arr], {}))


def _dims(L, arr):
    return [L.let(N.ArrayAttr(arr, "shape", k, I)) for k in range(arr.type.ndim)]


def _array(L, t, dims, elem):
    return L.let(ew.materialize(L, ew.Lazy(t, dims, elem)))


def _elementwise(L, p, v, fn):
    """``fn`` of each element of ``v`` (an array or a scalar of the result type)."""
    if not isinstance(v.type, T.ArrayType):
        return L.let(fn(v))
    return _array(L, v.type, _dims(L, v), lambda idx: fn(N.Load(v, idx, v.type.dtype)))


@register
class Average(PlannedCall):
    paths = ("numpy.average",)
    name, params = "np.average", _PARAMS

    def make_plan(self, call, nodes, types):
        if "a" not in types:
            raise Incompatible("np.average(a, axis=None, weights=None, returned=False)")
        return Plan(types["a"], types.get("weights"), bound_const(call, nodes, "axis", None),
                    bound_const(call, nodes, "returned", False),
                    bound_const(call, nodes, "keepdims", None))

    def lower(self, L, call, args, kwargs):
        p = call.call_plan
        bound = self.bound(args, kwargs)
        a = L.let(ew.materialize(L, bound["a"]))
        if p.weighted:
            avg, scl = self.weighted(L, p, a, L.let(ew.materialize(L, bound["weights"])))
        else:
            avg = _reduce(L, _MEAN, a, p, p.avg)
            if isinstance(avg.type, T.ArrayType):
                # NumPy computes ``a.size / avg.size`` whether or not it is
                # returned: an empty mean raises Python's ZeroDivisionError
                per = C(1, I)
                for d in _dims(L, avg):
                    per = N.BinOp("mul", per, d, I)
                L.raise_if(N.Cmp("eq", L.let(per), C(0, I), T.BOOL), ZeroDivisionError,
                           "division by zero")
            scl = None
            if p.returned:
                scl = self.count(L, p, a, avg)
        if not p.returned:
            return avg
        return N.MakeTuple([avg, scl], call.type)

    def count(self, L, p, a, avg):
        """``avg.dtype.type(a.size / avg.size)``, broadcast to ``avg``'s shape."""
        size = C(1, I)
        for d in _dims(L, a):
            size = N.BinOp("mul", size, d, I)
        n = N.Cast(L.let(size), T.FLOAT64)
        if isinstance(avg.type, T.ArrayType):
            per = C(1, I)
            for d in _dims(L, avg):
                per = N.BinOp("mul", per, d, I)
            per = L.let(per)
            q = L.let(ops.convert(L, N.Select(
                N.Cmp("eq", per, C(0, I), T.BOOL), C(0.0, T.FLOAT64),
                N.BinOp("fdiv", n, N.Cast(per, T.FLOAT64), T.FLOAT64), T.FLOAT64), p.r))
            return _array(L, avg.type, _dims(L, avg), lambda idx: q)
        return L.let(ops.convert(L, n, p.r))

    def weighted(self, L, p, a, w):
        r = p.r
        adims, wdims = _dims(L, a), _dims(L, w)
        # the weights as an array of a's shape (NumPy's _weights_are_valid)
        if p.wnd == p.nd:
            differ = C(False, T.BOOL)
            for x, y in zip(adims, wdims):
                differ = ops.bor(differ, N.Cmp("ne", x, y, T.BOOL))
            differ = L.let(differ)
            # (with an axis, weights of a's ndim only fit when they are a's shape)
            L.raise_if(differ, TypeError if p.axis is None else ValueError,
                       SHAPES_DIFFER if p.axis is None else SHAPE_ALONG)
            along = False
        elif p.axis is None:
            L.raise_if(C(True, T.BOOL), TypeError, SHAPES_DIFFER)
            along = None
        elif p.wnd != 1:
            L.raise_if(C(True, T.BOOL), ValueError, SHAPE_ALONG)
            along = None
        else:
            L.raise_if(N.Cmp("ne", wdims[0], adims[p.axis], T.BOOL), ValueError, SHAPE_ALONG)
            along = True
        if along is None:           # (raised above; the types still need a value)
            wr = _array(L, T.ArrayType(r, p.nd, "C"), adims, lambda idx: ops.zero(r))
        elif along:
            wt = w.type.dtype
            # the weights reshaped to 1s but along the axis: their sum is one number
            w1 = _array(L, T.ArrayType(r, 1, "C"), wdims,
                        lambda idx: ops.convert(L, N.Load(w, idx, wt), r))
            total = L.call_helper(_pairwise(), [w1, ops.zero(r)])
            total = L.let(total)
            wr = None
        else:
            wt = w.type.dtype
            wr = _array(L, T.ArrayType(r, p.nd, "C"), adims,
                        lambda idx: ops.convert(L, N.Load(w, idx, wt), r))
        at = a.type.dtype

        def weight(idx):
            if wr is None:
                return ops.convert(L, N.Load(w, [idx[p.axis]], w.type.dtype), r)
            return N.Load(wr, idx, r)
        prod = _array(L, T.ArrayType(r, p.nd, "C"), adims, lambda idx: ew.np_binop(
            L, "mul", ops.convert(L, N.Load(a, idx, at), r), weight(idx), r))
        sums = _reduce(L, _SUM, prod, p, p.avg)
        if wr is None:
            scl = _elementwise(L, p, sums, lambda x: total)
        else:
            scl = _reduce(L, _SUM, wr, p, p.avg)
        zero = L.temp(T.BOOL, "zero")
        L.emit(N.Assign(target=zero, value=C(False, T.BOOL)))

        def check(x):
            L.emit(N.Assign(target=zero, value=ops.bor(
                N.Var(zero, T.BOOL), ew.np_binop(L, "eq", x, ops.zero(r), T.BOOL))))
            return x
        _elementwise(L, p, scl, check) if isinstance(scl.type, T.ArrayType) else check(scl)
        L.raise_if(N.Var(zero, T.BOOL), ZeroDivisionError, ZERO_SUM)
        if isinstance(sums.type, T.ArrayType):
            avg = _array(L, sums.type, _dims(L, sums), lambda idx: ew.np_binop(
                L, "truediv", N.Load(sums, idx, r), N.Load(scl, idx, r), r))
        else:
            avg = L.let(ew.np_binop(L, "truediv", sums, scl, r))
        return avg, scl


def _pairwise():
    from . import pairwise_sum as hs
    return hs.pairwise
