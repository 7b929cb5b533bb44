"""``np.gradient(f, dx=1.0, axis=None, edge_order=1)`` with uniform spacing (no
spacing, or one number for every axis): NumPy's second-order central
differences ``(f[i + 1] - f[i - 1]) / (2. * dx)`` inside and first-order ones
``(f[1] - f[0]) / dx`` at the ends, each in NumPy's types (integer data as
float64; a Python-number spacing keeps float32 data float32, a NumPy scalar
promotes), stored into an array of the data's float type.  One array for 1-D
data or an integer ``axis``, else a tuple of one per axis.  NumPy's ValueError
for an axis of fewer than two values.  Spacing arrays, several spacings and
``edge_order=2`` fall back."""
from __future__ import annotations

from ...typing_rules import Incompatible, promote
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..arrays.creation import allocate, fill
from ..python import operators as ops
from ..python.operators import C
from ..registry import CallTemplate, register

I = T.INT64
TOO_SMALL = ("Shape of array too small to calculate a numerical gradient, at least "
             "(edge_order + 1) elements are required.")


def _const(call, name, default):
    node = call.kwargs.get(name)
    if node is None:
        return default
    if not isinstance(node, N.Const):
        raise Incompatible(f"np.gradient(): {name}= must be a constant")
    return node.value


@register
class Gradient(CallTemplate):
    paths = ("numpy.gradient",)

    def plan(self, inf, call, args, kwargs):
        if not args or not isinstance(args[0], T.ArrayType) or args[0].ndim == 0:
            raise Incompatible("np.gradient(f, ...) of an array")
        if set(kwargs) - {"axis", "edge_order"} or len(args) > 2:
            raise Incompatible("np.gradient(f, dx, axis=None) with one uniform spacing")
        if _const(call, "edge_order", 1) != 1:
            raise Incompatible("np.gradient() with edge_order=2")
        f = args[0]
        nd = f.ndim
        axis = _const(call, "axis", None)
        if axis is None:
            axes, many = list(range(nd)), nd > 1
        elif type(axis) is int and -nd <= axis < nd:
            axes, many = [axis % nd], False
        else:
            raise Incompatible("np.gradient(): axis must be None or a constant int in range")
        out = f.dtype if f.dtype.is_float else (T.FLOAT64 if f.dtype.is_int else None)
        if out is None:             # (booleans: NumPy's subtraction raises)
            raise Incompatible(f"np.gradient() of {f.dtype} data")
        work = out
        if len(args) == 2:
            dx = args[1]
            if not isinstance(dx, T.Scalar) or dx.is_complex:
                raise Incompatible("np.gradient(): the spacing must be one real number")
            if inf.is_strong(call.args[1]):
                work = promote(out, dx if not dx.is_bool else T.INT64)
                if not work.is_float:
                    work = T.FLOAT64
        return axes, many, out, work

    def typer(self, inf, call, args, kwargs):
        axes, many, out, work = self.plan(inf, call, args, kwargs)
        call.plan = (axes, many, out, work)
        t = T.ArrayType(out, args[0].ndim, "C")
        return T.TupleType(tuple([t] * len(axes))) if many else t

    def lower(self, L, call, args, kwargs):
        axes, many, out, work = call.plan
        f = L.let(args[0])
        nd = f.type.ndim
        dims = [L.let(N.ArrayAttr(f, "shape", k, I)) for k in range(nd)]
        dx = L.let(ops.convert(L, args[1], T.FLOAT64) if len(args) == 2 else C(1.0, T.FLOAT64))
        one = L.let(ops.convert(L, dx, work))
        # NumPy's ``2. * ax_dx``: a Python float times the spacing
        two = L.let(ops.convert(L, N.BinOp("mul", C(2.0, T.FLOAT64), dx, T.FLOAT64), work))
        results = []
        for axis in axes:
            n = dims[axis]
            L.raise_if(N.Cmp("lt", n, C(2, I), T.BOOL), ValueError, TOO_SMALL)
            arr = L.let(allocate(L, T.ArrayType(out, nd, "C"), dims))
            last = L.let(N.BinOp("sub", n, C(1, I), I))

            def value(idx, axis=axis, last=last):
                i = idx[axis]
                hi = N.Select(N.Cmp("lt", i, last, T.BOOL), N.BinOp("add", i, C(1, I), I),
                              last, I)
                lo = N.Select(N.Cmp("gt", i, C(0, I), T.BOOL), N.BinOp("sub", i, C(1, I), I),
                              C(0, I), I)
                end = ops.bor(N.Cmp("eq", i, C(0, I), T.BOOL), N.Cmp("eq", i, last, T.BOOL))
                at = list(idx)

                def read(k):        # (integer data as float64 first)
                    at[axis] = k
                    return ops.convert(L, N.Load(f, list(at), f.type.dtype), out)
                # the difference in the data's type, the quotient in its type
                # with the spacing's (a NumPy scalar spacing promotes)
                d = ew.np_binop(L, "sub", L.let(read(hi)), L.let(read(lo)), out)
                d = L.let(ops.convert(L, d, work))
                q = ew.np_binop(L, "truediv", d, L.let(N.Select(end, one, two, work)), work)
                return ops.convert(L, q, out)
            fill(L, arr, dims, value)
            results.append(arr)
        if many:
            return N.MakeTuple(results, call.type)
        return results[0]
