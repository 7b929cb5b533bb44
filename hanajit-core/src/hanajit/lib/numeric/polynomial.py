"""``np.polyval(p, x)``: NumPy's Horner loop, ``y = zeros_like(x)`` then ``y =
y * x + pv`` for each coefficient, a multiply and an add each (no fused
multiply-add), in the result's type -- bit for bit NumPy's, ``0 * inf`` NaN on
the first step included.  ``p`` a 1-D real array, ``x`` a real number or array.
Where the result's type is not ``x``'s own (int ``x`` and float ``p``, float32
``x`` and float64 ``p``) NumPy's type depends on whether ``p`` is empty: those
fall back; so does, at run time, a number ``x`` with an empty ``p`` (a 0-d array
in NumPy)."""
from __future__ import annotations

from ...typing_rules import Incompatible, promote
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..python import operators as ops
from ..python.operators import C
from ..registry import CallTemplate, register

I = T.INT64


@register
class PolyVal(CallTemplate):
    paths = ("numpy.polyval",)
    array_like = (0, 1, "p", "x")
    accepts_lazy = True

    def typer(self, inf, call, args, kwargs):
        if len(args) != 2 or kwargs:
            raise Incompatible("np.polyval(p, x)")
        p, x = args
        xd = ew.elem_type(x)
        if not (isinstance(p, T.ArrayType) and p.ndim == 1 and not p.dtype.is_complex
                and not p.dtype.is_bool):
            raise Incompatible("np.polyval(): p must be a 1-D array of real numbers")
        if not isinstance(xd, T.Scalar) or xd.is_complex or xd.is_bool:
            raise Incompatible(f"np.polyval() of {x}")
        if promote(xd, p.dtype) != xd and getattr(call.args[0], "known_length", 0):
            # p a list display: never empty, so NumPy's steps promote
            t = promote(xd, p.dtype)
            return T.ArrayType(t, x.ndim, "C") if isinstance(x, T.ArrayType) else t
        if promote(xd, p.dtype) != xd:
            raise Incompatible(f"np.polyval() of {xd} values with {p.dtype} coefficients "
                               "(NumPy's result type then depends on whether p is empty)")
        return T.ArrayType(xd, x.ndim, "C") if isinstance(x, T.ArrayType) else xd

    def lower(self, L, call, args, kwargs):
        p = L.let(ew.materialize(L, args[0]))
        r = ew.elem_type(call.type)
        n = L.let(N.ArrayAttr(p, "shape", 0, I))

        def horner(x):
            x = L.let(ops.convert(L, x, r))
            y = L.temp(r, "y")
            L.emit(N.Assign(target=y, value=ops.zero(r)))
            k = L.temp(I, "k")

            def step():
                pv = L.let(ops.convert(L, N.Load(p, [N.Var(k, I)], p.type.dtype), r))
                yx = L.let(ew.np_binop(L, "mul", N.Var(y, r), x, r))
                L.emit(N.Assign(target=y, value=ew.np_binop(L, "add", yx, pv, r)))
            body, _ = L.sub_block(step)
            L.emit(N.ForCount(counter=k, count=n, body=body, short=True))
            return N.Var(y, r)
        x = args[1]
        if not isinstance(call.type, T.ArrayType):
            # NumPy's result is a 0-d array when p is empty (no arithmetic made
            # it a scalar): the interpreter answers that call
            from ..python.helpers import Deopt
            L.raise_if(N.Cmp("eq", n, C(0, I), T.BOOL), Deopt,
                       "np.polyval() of a number with no coefficients")
            return horner(x)
        z = ew.to_lazy(L, x)
        return ew.Lazy(call.type, z.dims, lambda idx: horner(z.elem(idx)))
