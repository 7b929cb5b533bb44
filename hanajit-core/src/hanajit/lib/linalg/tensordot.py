"""``np.tensordot(a, b, axes=2)`` as NumPy's Python code computes it: both
operands transposed (the summed axes last in ``a``, first in ``b``) and reshaped
to matrices, ``np.dot`` of those (``dot.py``: NumPy's BLAS calls), the product
reshaped to the axes left.  The reshapes follow NumPy's ``PyArray_Newshape``,
since the strides BLAS sees decide its calls: a view with the same strides of a
transposition that is already 2-D, C strides of a C-contiguous one, else the
strides of NumPy's ``_attempt_nocopy_reshape`` where the axes merged are
contiguous, else a C-ordered copy.

Compiled: arrays of numbers (not both bool: ``np.dot``), ``axes`` a constant
int, or a pair of ints or of tuples or lists of ints.  Axes out of range,
repeated or of different counts (NumPy's IndexError and ValueError) fall back;
summed lengths that differ raise NumPy's ValueError by re-running the call in
the interpreter."""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...errors import RERUN
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..python import operators as ops
from ..python.operators import C
from ..arrays.reductions import total_size
from ..registry import PlannedCall, bound_const, register
from .dot import dot, dot_type

I = T.INT64


def _axis_list(v, what):
    if type(v) is int:
        return [v]
    if isinstance(v, (tuple, list)) and all(type(k) is int for k in v):
        return list(v)
    raise Incompatible(f"np.tensordot() axes {what} of {v!r} (constant ints)")


class Plan:
    def __init__(self, call, nodes, types):
        a, b = types.get("a"), types.get("b")
        if not (isinstance(a, T.ArrayType) and isinstance(b, T.ArrayType)):
            raise Incompatible("np.tensordot(a, b) of arrays")
        axes = bound_const(call, nodes, "axes", 2)
        if type(axes) is int:
            axes_a, axes_b = list(range(-axes, 0)), list(range(axes))
        elif isinstance(axes, (tuple, list)) and len(axes) == 2:
            axes_a, axes_b = _axis_list(axes[0], "of a"), _axis_list(axes[1], "of b")
        else:
            raise Incompatible(f"np.tensordot() axes={axes!r} (an int or a pair)")
        if len(set(axes_a)) != len(axes_a) or len(set(axes_b)) != len(axes_b):
            raise Incompatible("np.tensordot(): duplicate axes are not allowed in "
                               "tensordot (NumPy's ValueError)")
        if len(axes_a) != len(axes_b):
            raise Incompatible("np.tensordot(): shape-mismatch for sum (NumPy's ValueError)")
        for ax, nd in [(k, a.ndim) for k in axes_a] + [(k, b.ndim) for k in axes_b]:
            if not -nd <= ax < nd:
                raise Incompatible(f"np.tensordot(): axis {ax} of an array of {nd} "
                                   "dimensions (NumPy's IndexError)")
        self.pairs = list(zip(axes_a, axes_b))
        axes_a = [k % a.ndim for k in axes_a]
        axes_b = [k % b.ndim for k in axes_b]
        if len(set(axes_a)) != len(axes_a) or len(set(axes_b)) != len(axes_b):
            raise Incompatible("np.tensordot(): an axis named twice (NumPy's ValueError "
                               "of transpose)")
        notin_a = [k for k in range(a.ndim) if k not in axes_a]
        notin_b = [k for k in range(b.ndim) if k not in axes_b]
        self.order_a, self.split_a = notin_a + axes_a, len(notin_a)
        self.order_b, self.split_b = axes_b + notin_b, len(axes_b)
        self.keep = ([("a", k) for k in notin_a], [("b", k) for k in notin_b])
        two = dot_type(a.copy(ndim=2, layout="A"), b.copy(ndim=2, layout="A"))
        self.dot_type = two
        self.type = T.ArrayType(two.dtype, len(notin_a) + len(notin_b), "C")


def _shape(x, k):
    return N.ArrayAttr(x, "shape", k, I)


def _last_nonone_stride(dims, strides):
    """The stride of the last axis longer than 1 (None if none), and whether the
    axes longer than 1 are C-contiguous one to the next (NumPy's check)."""
    ok = C(True, T.BOOL)
    seen = C(False, T.BOOL)
    last = C(0, I)
    expect = C(0, I)
    for d, s in zip(reversed(dims), reversed(strides)):
        big = N.Cmp("ne", d, C(1, I), T.BOOL)
        ok = ops.band(ok, ops.bor(ops.logical_not(ops.band(big, seen)),
                                  N.Cmp("eq", s, expect, T.BOOL)))
        last = N.Select(ops.band(big, ops.logical_not(seen)), s, last, I)
        expect = N.Select(big, N.BinOp("mul", d, s, I), expect, I)
        seen = ops.bor(seen, big)
    return last, ok


def numpy_reshape_2d(L, x, order, split):
    """``x.transpose(order).reshape(M, K)`` as NumPy makes it, ``M`` the product
    of the first ``split`` axes of the transposition: a view where NumPy's is
    one (with its strides), else a C-ordered copy."""
    from ..arrays.methods import copy_array
    from ..arrays.shape import c_contiguous
    t = x.type
    dims = [L.let(_shape(x, k)) for k in order]
    strides = [L.let(N.ArrayAttr(x, "stride", k, I)) for k in order]
    vt = t.copy(ndim=len(order), layout="A")
    view = L.let(N.ArrayView(x, C(0, I), dims, strides, vt))
    rt = t.copy(ndim=2, layout="A")
    if len(order) == 2 and split == 1:     # (the same shape: NumPy's view as it is)
        return L.let(N.ArrayView(view, C(0, I), dims, strides, rt))
    m = L.let(total_size(dims[:split]))
    k = L.let(total_size(dims[split:]))
    isz = C(max(1, t.dtype.bits // 8), I)
    size = N.BinOp("mul", m, k, I)
    out = L.temp(rt, "reshaped")
    as_c = [N.Assign(target=out, value=N.ArrayView(view, C(0, I), [m, k], [
        N.BinOp("mul", k, isz, I), isz], rt))]
    s0, ok0 = _last_nonone_stride(dims[:split], strides[:split])
    s1, ok1 = _last_nonone_stride(dims[split:], strides[split:])
    one_m, one_k = N.Cmp("eq", m, C(1, I), T.BOOL), N.Cmp("eq", k, C(1, I), T.BOOL)
    s1 = L.let(N.Select(one_k, s0, s1, I))
    s0 = L.let(N.Select(one_m, N.BinOp("mul", s1, k, I), s0, I))
    nocopy = [N.Assign(target=out, value=N.ArrayView(view, C(0, I), [m, k], [s0, s1], rt))]
    stmts, copy = L.sub_block(lambda: copy_array(L, view, vt.copy(layout="C",
                                                                   readonly=False)))
    copy_stmts = stmts + [N.Assign(target=out, value=N.ArrayView(copy, C(0, I), [m, k], [
        N.BinOp("mul", k, isz, I), isz], rt))]
    nonempty = N.Cmp("ne", size, C(0, I), T.BOOL)
    stmts = [N.If(cond=ops.band(nonempty, c_contiguous(view)), then=as_c, orelse=[
        N.If(cond=ops.band(nonempty, ops.band(ok0, ok1)), then=nocopy,
             orelse=copy_stmts)])]
    if len(order) == 2:     # (M, K) is the view's shape where the other length is 1
        same = N.Cmp("eq", dims[split // 2], C(1, I), T.BOOL)
        stmts = [N.If(cond=same, then=[N.Assign(target=out, value=N.ArrayView(
            view, C(0, I), dims, strides, rt))], orelse=stmts)]
    L.out.extend(stmts)
    return N.Var(out, rt)


@register
class Tensordot(PlannedCall):
    paths = ("numpy.tensordot",)
    name, params = "np.tensordot", ("a", "b", "axes")

    def make_plan(self, call, nodes, types):
        return Plan(call, nodes, types)

    def lower(self, L, call, args, kwargs):
        p = call.call_plan
        bound = self.bound(args, kwargs)
        a, b = (L.let(ew.materialize(L, bound[k])) for k in ("a", "b"))
        for ka, kb in p.pairs:
            da, db = _shape(a, ka % a.type.ndim), _shape(b, kb % b.type.ndim)
            L.emit(N.If(cond=N.Cmp("ne", da, db, T.BOOL), then=[N.Raise(
                exc=ValueError, deopt=RERUN, message="shape-mismatch for sum")]))
        at = numpy_reshape_2d(L, a, p.order_a, p.split_a)
        bt = numpy_reshape_2d(L, b, p.order_b, p.split_b)
        res = L.let(dot(L, at, bt, p.dot_type, "dot"))
        dims = [L.let(_shape(a if w == "a" else b, k)) for w, k in p.keep[0] + p.keep[1]]
        rt = call.type
        strides, st = [None] * len(dims), C(max(1, rt.dtype.bits // 8), I)
        for j in reversed(range(len(dims))):
            strides[j] = L.let(st)
            st = N.BinOp("mul", st, dims[j], I)
        return N.ArrayView(res, C(0, I), dims, strides, rt)
