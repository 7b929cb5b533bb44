"""``np.kron(a, b)`` of arrays and ``np.trapezoid(y, x=None, dx=1.0)`` of a 1-D
``y``, as NumPy computes them.

``kron``: every product ``a[i] * b[k]`` at ``i * b.shape + k`` (shapes padded with
leading 1s to the same length), NumPy's multiply and its result dtype.
``trapezoid``: the temporary ``d * (y[1:] + y[:-1]) / 2.0`` in NumPy's types (``d``
is ``dx``, a weak Python number, or ``np.diff(x)``), summed pairwise as NumPy's
``sum`` adds it (``pairwise_sum``).  Numbers as ``kron`` operands, ``axis=`` and
``y`` of other than one dimension fall back."""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...errors import RERUN
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..arrays.creation import bind_kw
from ..python.operators import C
from ..registry import CallTemplate, register

I = T.INT64


@register
class Kron(CallTemplate):
    paths = ("numpy.kron",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 2 or kwargs:
            raise Incompatible("np.kron(a, b)")
        a, b = args
        if not (isinstance(a, T.ArrayType) and isinstance(b, T.ArrayType)
                and a.ndim >= 1 and b.ndim >= 1):
            raise Incompatible("np.kron() of arrays of at least one dimension")
        if a.dtype.is_bool and b.dtype.is_bool:
            t = T.BOOL
        else:
            t = ew.result_dtype("mul", a, b, False, False)
        return T.ArrayType(t, max(a.ndim, b.ndim), "C")

    def lower(self, L, call, args, kwargs):
        za, zb = (ew.to_lazy(L, L.let(ew.materialize(L, x))) for x in args)
        rt = call.type
        nd = rt.ndim
        one = C(1, I)
        da = [one] * (nd - len(za.dims)) + [L.let(d) for d in za.dims]
        db = [one] * (nd - len(zb.dims)) + [L.let(d) for d in zb.dims]
        from ..arrays.sizes import size_mul
        dims = [size_mul(L, x, y) for x, y in zip(da, db)]

        def elem(idx):
            ia, ib = [], []
            for k in range(nd):
                # (an empty axis has no elements: the divisions never run)
                ia.append(L.let(N.BinOp("sdiv", idx[k], db[k], I)))
                ib.append(L.let(N.BinOp("srem", idx[k], db[k], I)))
            x = za.elem(ia[nd - len(za.dims):])
            y = zb.elem(ib[nd - len(zb.dims):])
            return ew.np_binop(L, "mul", x, y, rt.dtype)
        return ew.materialize(L, ew.Lazy(rt, dims, elem))


@register
class Trapezoid(CallTemplate):
    paths = ("numpy.trapezoid",)

    def typer(self, inf, call, args, kwargs):
        if len(args) > 3:
            raise Incompatible("np.trapezoid(y, x=None, dx=1.0)")
        a = bind_kw(call, args, kwargs, ("y", "x", "dx"))
        y, x, dx = a.get("y"), a.get("x"), a.get("dx")
        if not (isinstance(y, T.ArrayType) and y.ndim == 1 and y.dtype.is_float):
            raise Incompatible("np.trapezoid() of a 1-D float array y only")
        if x is not None and x != T.NONE:
            if not (isinstance(x, T.ArrayType) and x.ndim == 1 and x.dtype.is_float):
                raise Incompatible("np.trapezoid(): x must be a 1-D float array")
            d, weak = x.dtype, False
        else:
            d = dx if dx is not None else T.FLOAT64
            if not (isinstance(d, T.Scalar) and (d.is_float or d.is_int)
                    and not d.is_bool):
                raise Incompatible(f"np.trapezoid(): dx of {d}")
            weak = dx is None or inf.weak(call.kwargs.get("dx", call.args[2]
                                                          if len(call.args) > 2 else None))
        s = y.dtype                                     # y[1:] + y[:-1]
        p = ew.result_dtype("mul", d, T.ArrayType(s, 1, "C"), weak, False)
        call.trapezoid = p                              # d * (y[1:] + y[:-1])
        return ew.result_dtype("truediv", T.ArrayType(p, 1, "C"), T.FLOAT64, False, True)

    def lower(self, L, call, args, kwargs):
        from ..statistics import pairwise_sum as hs
        from ..arrays.creation import allocate, fill
        a = bind_kw(call, args, kwargs, ("y", "x", "dx"))
        p = call.trapezoid
        rt = call.type
        y = L.let(ew.materialize(L, a["y"]))
        n = L.let(N.ArrayAttr(y, "shape", 0, I))
        m = L.let(N.Select(N.Cmp("gt", n, C(0, I), T.BOOL), N.BinOp("sub", n, C(1, I), I),
                           C(0, I), I))
        x = a.get("x")
        if x is not None and x.type != T.NONE:
            x = L.let(ew.materialize(L, x))
            # (NumPy broadcasts a length-2 x or y: the interpreter's answer)
            L.emit(N.If(cond=N.Cmp("ne", N.ArrayAttr(x, "shape", 0, I), n, T.BOOL),
                        then=[N.Raise(exc=ValueError, deopt=RERUN,
                                      message="operands could not be broadcast together")]))
        else:
            x = None
            dx = a.get("dx")
            dval = L.let(dx if dx is not None else C(1.0, T.FLOAT64))
        s = y.type.dtype
        two = C(2.0, T.FLOAT64)
        terms = allocate(L, T.ArrayType(rt, 1, "C"), [m])

        def term(idx):
            i = idx[0]
            j = L.let(N.BinOp("add", i, C(1, I), I))
            pair = ew.np_binop(L, "add", N.Load(y, [j], s), N.Load(y, [i], s), s)
            if x is not None:
                xt = x.type.dtype
                d = ew.np_binop(L, "sub", N.Load(x, [j], xt), N.Load(x, [i], xt), xt)
            else:
                d = dval
            prod = ew.np_binop(L, "mul", d, pair, p)
            return ew.np_binop(L, "truediv", prod, two, rt)
        fill(L, terms, [m], term)
        return L.call_helper(hs.pairwise, [terms, C(0.0, rt)])
