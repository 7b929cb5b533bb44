"""Statistics and norms: ``np.var`` / ``np.std`` (``axis``, ``ddof``, ``keepdims``)
and ``np.linalg.norm`` (``np.histogram`` is in ``np_histogram``).

Sums accumulate sequentially (NumPy sums pairwise and ``norm`` uses BLAS ``dot``),
so float results can differ from NumPy's in the last bits.
"""
from __future__ import annotations

import copy

from ..infer.rules import Incompatible
from ..ir import nodes as N
from ..ir import types as T
from . import elementwise as ew
from . import operators as ops
from .operators import C
from .reductions import Reduction, loops, total_size
from .registry import CallTemplate, register

I = T.INT64
F = T.FLOAT64


def float_type(t: T.Scalar) -> T.Scalar:
    """The real float type NumPy computes var/std/norm of ``t`` in."""
    if t.is_complex:
        return t.component
    return t if t.is_float else F


class VarStd(Reduction):
    """``np.var`` / ``np.std`` (and the methods): two passes, the mean first, as
    NumPy computes them; ``max(n - ddof, 0)`` divides; complex input gives the
    variance of ``|x - mean|``."""

    def scalar_type(self, t):
        return float_type(t)

    def typer(self, inf, call, args, kwargs):
        ddof = kwargs.get("ddof")
        if ddof is not None and not (isinstance(ddof, T.Scalar) and not ddof.is_complex):
            raise Incompatible("ddof must be a number")
        rest = {k: v for k, v in kwargs.items() if k != "ddof"}
        return super().typer(inf, call, args, rest)

    def lower(self, L, call, args, kwargs):
        tpl = copy.copy(self)
        tpl.ddof = kwargs.get("ddof")
        a = ew.materialize(L, args[0])          # read twice
        return Reduction.lower(tpl, L, call, [a] + list(args[1:]), kwargs)

    def reduce(self, L, z, rt, fixed, axes):
        red_dims = [z.dims[a] for a in axes]
        et = z.type.dtype
        at = et if et.is_complex else rt        # the mean's type

        def full(loop_idx):
            it = iter(loop_idx)
            return [fixed[a] if a in fixed else next(it) for a in range(len(z.dims))]

        n = L.let(total_size(red_dims))
        acc = L.temp(at, "acc")
        L.emit(N.Assign(target=acc, value=ops.zero(at)))

        def add_up(idx):
            x = ops.convert(L, z.elem(full(idx)), at)
            cur = N.Var(acc, at)
            L.emit(N.Assign(target=acc, value=ops.complex_arith(L, "add", cur, x, at)
                            if at.is_complex else N.BinOp("add", cur, x, at)))
        loops(L, red_dims, add_up)
        nf = L.let(N.Cast(n, rt))
        if at.is_complex:
            s = L.let(N.Var(acc, at))
            mr = L.let(N.BinOp("fdiv", N.ComplexPart(s, "real", rt), nf, rt))
            mi = L.let(N.BinOp("fdiv", N.ComplexPart(s, "imag", rt), nf, rt))
        else:
            mr = L.let(N.BinOp("fdiv", N.Var(acc, at), nf, rt))
        sq = L.temp(rt, "acc")
        L.emit(N.Assign(target=sq, value=ops.zero(rt)))

        def squares(idx):
            x = L.let(ops.convert(L, z.elem(full(idx)), at))
            if at.is_complex:
                dr = L.let(N.BinOp("sub", N.ComplexPart(x, "real", rt), mr, rt))
                di = L.let(N.BinOp("sub", N.ComplexPart(x, "imag", rt), mi, rt))
                d2 = N.BinOp("add", N.BinOp("mul", dr, dr, rt), N.BinOp("mul", di, di, rt), rt)
            else:
                d = L.let(N.BinOp("sub", x, mr, rt))
                d2 = N.BinOp("mul", d, d, rt)
            L.emit(N.Assign(target=sq, value=N.BinOp("add", N.Var(sq, rt), d2, rt)))
        loops(L, red_dims, squares)
        dd = ops.convert(L, self.ddof, rt) if self.ddof is not None else ops.zero(rt)
        denom = L.let(N.BinOp("sub", nf, dd, rt))
        denom = N.Select(N.Cmp("lt", denom, ops.zero(rt), T.BOOL), ops.zero(rt), denom, rt)
        var = N.BinOp("fdiv", N.Var(sq, rt), denom, rt)
        if self.name == "std":
            return N.Intrinsic("sqrt", [var], rt)
        return var


VAR, STD = VarStd("var", ("var",)), VarStd("std", ("std",))
register(VAR)
register(STD)
METHODS = {"var": VAR, "std": STD}


def _flat_array(L, a):
    """``a``'s elements as a 1-D C-contiguous array (a view when possible)."""
    from .array_ops import contiguous, reshape_view
    src = contiguous(L, a)
    return L.let(reshape_view(L, src, [C(-1, I)], src.type.copy(ndim=1, layout="C")))


def _ord(call):
    node = call.kwargs.get("ord", call.args[1] if len(call.args) > 1 else None)
    if node is None:
        return None
    value = node.value if isinstance(node, N.Const) else getattr(node, "obj", node)
    if isinstance(value, N.Expr):
        raise Incompatible("ord must be a constant")
    return value


@register
class Norm(CallTemplate):
    """``np.linalg.norm(x, ord=None)``: vectors (any real ``ord``, ``inf``,
    ``-inf``, 0) and matrices (Frobenius, ``ord`` 1, -1, inf, -inf)."""

    paths = ("numpy.linalg.norm",)
    accepts_lazy = True

    def typer(self, inf, call, args, kwargs):
        if not 1 <= len(args) <= 2 or set(kwargs) - {"ord"}:
            raise Incompatible("np.linalg.norm(x, ord=None) without axis/keepdims")
        at = args[0]
        if not isinstance(at, T.ArrayType):
            raise Incompatible(f"np.linalg.norm() of {at}")
        o = _ord(call)
        if o is not None:
            if at.ndim == 1 and (isinstance(o, (str, bool)) or not
                                 isinstance(o, (int, float))):
                raise Incompatible(f"Invalid norm order {o!r} for vectors")
            if at.ndim == 2 and o not in ("fro", 1, -1, float("inf"), float("-inf")):
                raise Incompatible(f"matrix norm ord={o!r} (needs an SVD)")
            if at.ndim > 2:
                raise Incompatible("Improper number of dimensions to norm.")
        return float_type(at.dtype)

    def lower(self, L, call, args, kwargs):
        rt = call.type
        a = L.let(ew.materialize(L, args[0]))
        z = ew.to_lazy(L, a)
        o = _ord(call)

        def absval(idx):
            x = L.let(z.elem(idx))
            if x.type.is_complex:
                return N.Intrinsic("hypot", [N.ComplexPart(x, "real", rt),
                                             N.ComplexPart(x, "imag", rt)], rt)
            return N.Intrinsic("fabs", [ops.convert(L, x, rt)], rt)

        def square(idx):
            x = L.let(z.elem(idx))
            if x.type.is_complex:
                re = L.let(N.ComplexPart(x, "real", rt))
                im = L.let(N.ComplexPart(x, "imag", rt))
                return N.BinOp("add", N.BinOp("mul", re, re, rt), N.BinOp("mul", im, im, rt),
                               rt)
            x = L.let(ops.convert(L, x, rt))
            return N.BinOp("mul", x, x, rt)

        inf = float("inf")
        if o is None or o == "fro" or (o == 2 and len(z.dims) == 1):
            return N.Intrinsic("sqrt", [_sum(L, z.dims, square, rt)], rt)
        if len(z.dims) == 2:
            rows, cols = z.dims
            if o in (1, -1):        # max/min over columns of the column sums
                return _extreme(L, [cols], lambda j: _sum(
                    L, [rows], lambda i: absval([i[0], j[0]]), rt), rt, o > 0)
            return _extreme(L, [rows], lambda i: _sum(
                L, [cols], lambda j: absval([i[0], j[0]]), rt), rt, o > 0)
        if o == inf or o == -inf:
            return _extreme(L, z.dims, absval, rt, o > 0)
        if o == 0:
            return _sum(L, z.dims, lambda idx: N.Select(
                ops.truth(L, z.elem(idx)), C(1.0, rt), C(0.0, rt), rt), rt)
        if o == 1:
            return _sum(L, z.dims, absval, rt)
        p = C(float(o), rt)
        s = _sum(L, z.dims, lambda idx: N.Intrinsic("pow", [absval(idx), p], rt), rt)
        return N.Intrinsic("pow", [s, C(1.0 / float(o), rt)], rt)


def _sum(L, dims, value, rt):
    acc = L.temp(rt, "acc")
    L.emit(N.Assign(target=acc, value=ops.zero(rt)))
    loops(L, dims, lambda idx: L.emit(N.Assign(target=acc, value=N.BinOp(
        "add", N.Var(acc, rt), value(idx), rt))))
    return L.let(N.Var(acc, rt))


def _extreme(L, dims, value, rt, is_max):
    """max (NumPy's ``initial=0``) or min of ``value`` over ``dims``; NaN wins, and
    an empty min raises ValueError as NumPy does."""
    if not is_max:
        size = L.let(total_size(dims))
        L.raise_if(N.Cmp("eq", size, C(0, I), T.BOOL), ValueError,
                   "zero-size array to reduction operation minimum which has no identity")
    best = L.temp(rt, "best")
    L.emit(N.Assign(target=best, value=C(0.0 if is_max else float("inf"), rt)))

    def body(idx):
        x = L.let(value(idx))
        b = N.Var(best, rt)
        better = N.Cmp("gt" if is_max else "lt", x, b, T.BOOL)
        better = ops.bor(better, N.Cmp("uno", x, x, T.BOOL))
        better = ops.band(ops.logical_not(N.Cmp("uno", b, b, T.BOOL)), better)
        L.emit(N.Assign(target=best, value=N.Select(better, x, b, rt)))
    loops(L, dims, body)
    return L.let(N.Var(best, rt))
