"""NumPy functions applied elementwise to arrays (``np.sqrt(a)``, ``np.where``,
``np.clip``, ``np.minimum`` ...): a scalar template lifted over broadcast arrays.

A template marked ``ufunc = True`` types and lowers on scalars; when any argument
is an array, :func:`lift_typer` types it on the element types and
:func:`lift_lower` builds a lazy whose element is the scalar lowering.
"""
from __future__ import annotations

from ..infer.rules import Incompatible
from ..ir import nodes as N
from ..ir import types as T
from . import elementwise as ew
from . import operators as ops
from .registry import CallTemplate, register


class _ElemCall:
    """The call as the scalar template sees it: element types, same arguments."""

    def __init__(self, call, t):
        self.args = call.args
        self.kwargs = call.kwargs
        self.name = call.name
        self.type = t


def has_array(types) -> bool:
    return any(isinstance(t, T.ArrayType) for t in types)


def lift_typer(tpl, inf, call, args, kwargs):
    elems = [ew.elem_type(a) for a in args]
    kw = {k: ew.elem_type(v) for k, v in kwargs.items()}
    t = tpl.typer(inf, _ElemCall(call, None), elems, kw)
    if not isinstance(t, T.Scalar):
        raise Incompatible(f"{call.name}() on arrays")
    return T.ArrayType(t, ew.broadcast_ndim(*args, *kwargs.values()), "C")


def lift_lower(tpl, L, call, args, kwargs):
    rt = call.type
    keys = list(kwargs)
    allargs = list(args) + [kwargs[k] for k in keys]
    n = len(args)
    ecall = _ElemCall(call, rt.dtype)

    def fn(*vals):
        return tpl.lower(L, ecall, list(vals[:n]), dict(zip(keys, vals[n:])))
    return ew.lift(L, allargs, rt, fn)


@register
class Where(CallTemplate):
    paths = ("numpy.where",)
    ufunc = True

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) != 3:
            raise Incompatible("np.where(condition, x, y) with three arguments")
        c, x, y = args
        if not all(isinstance(t, T.Scalar) for t in (c, x, y)):
            raise Incompatible("np.where() of non-numbers")
        if x == y:
            return x
        # NumPy's promotion of the two value operands: an array operand (here seen
        # through its element type) is never "weak" like a Python scalar
        whole = [a.type if isinstance(getattr(a, "type", None), T.ArrayType) else e
                 for a, e in zip(call.args[1:], (x, y))]
        return ew.result_dtype("add", *whole)

    def lower(self, L, call, args, kwargs):
        c, x, y = args
        t = call.type
        return N.Select(ops.truth(L, c), ops.convert(L, x, t), ops.convert(L, y, t), t)


def _nan(e):
    return N.Cmp("uno", e, e, T.BOOL)


@register
class Clip(CallTemplate):
    paths = ("numpy.clip",)
    ufunc = True

    def typer(self, inf, call, args, kwargs):
        vals = list(args) + [kwargs[k] for k in ("a_min", "a_max", "min", "max") if k in kwargs]
        if len(vals) != 3 or not all(isinstance(t, T.Scalar) for t in vals):
            raise Incompatible("np.clip(a, a_min, a_max)")
        t = vals[0]
        for o in vals[1:]:
            if o != T.NONE:
                t = ew.result_dtype("add", t, o) if not o.is_bool else t
        return t

    def lower(self, L, call, args, kwargs):
        vals = list(args) + [kwargs[k] for k in ("a_min", "a_max", "min", "max") if k in kwargs]
        t = call.type
        a, lo, hi = (L.let(ops.convert(L, v, t)) for v in vals)
        # NumPy: minimum(maximum(a, lo), hi), NaN-propagating
        m = N.Select(N.Cmp("lt", a, lo, T.BOOL), lo, a, t)
        if t.is_float:
            m = N.Select(ops.bor(_nan(a), _nan(lo)), N.BinOp("add", a, lo, t), m, t)
        m = L.let(m)
        r = N.Select(N.Cmp("gt", m, hi, T.BOOL), hi, m, t)
        if t.is_float:
            r = N.Select(ops.bor(_nan(m), _nan(hi)), N.BinOp("add", m, hi, t), r, t)
        return r
