"""Statistics and norms: ``np.var`` / ``np.std`` (``axis``, ``ddof``, ``keepdims``)
and ``np.linalg.norm`` (``np.histogram`` is in ``histogram``; the singular
values behind matrix ``ord`` 2, -2 and ``'nuc'`` are NumPy's LAPACK's on the CPU
target, ``norm_steps.svd_lower``, and elsewhere ``svd_algorithms``' Jacobi SVD).

``var``/``std`` of a float array over a lane NumPy's loop gets whole are NumPy's
operations exactly (pairwise sums, ``reductions.Reduction.pairwise_lane``), and
so are those along an axis of any 2-D real array (``var_axis``) and the norms
along axes (``norm_steps``); other sums
accumulate sequentially (``norm`` uses BLAS ``dot`` in NumPy), so those float
results can differ from NumPy's in the last bits.
"""
from __future__ import annotations

import copy
import functools

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..python import operators as ops
from ..python.operators import C
from ..arrays.complex_sums import numpys_order_kept
from ..arrays.reductions import Reduction, loops, total_size
from . import norm_steps
from ..registry import CallTemplate, register

I = T.INT64
F = T.FLOAT64


def divided(L, total, count, st):
    """``total / count`` as NumPy divides by its ``intp`` count: in float64,
    rounded to ``st``."""
    q = N.BinOp("fdiv", ops.convert(L, total, F), ops.convert(L, count, F), F)
    return q if st == F else N.Cast(q, st)


def float_type(t: T.Scalar) -> T.Scalar:
    """The real float type NumPy computes var/std/norm of ``t`` in."""
    if t.is_complex:
        return t.component
    return t if t.is_float else F


class VarStd(Reduction):
    """``np.var`` / ``np.std`` (and the methods): two passes, the mean first, as
    NumPy computes them; ``max(n - ddof, 0)`` divides; complex input gives the
    variance of ``|x - mean|``."""

    buffered = False    # integers cast to float64: NumPy's mean is summed per buffer

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
        # read twice; a float array of NumPy's own kind takes the pairwise path
        # (Reduction.lower -> pairwise_lane -> self.pairwise)
        a = L.let(ew.materialize(L, args[0]))
        t = a.type
        from ..arrays.reductions import axis_arg
        axis, _ = axis_arg(call)
        if isinstance(t, T.ArrayType) and (t.dtype.is_int or t.dtype.is_bool) and (
                t.ndim == 1 and axis in (None, 0, -1) or t.layout == "C" and axis is None):
            # NumPy sums integers as float64 through its iterator's buffer: the
            # values cast (a float64 copy), the mean buffer by buffer
            z = ew.to_lazy(L, a)
            a = L.let(ew.materialize(L, ew.Lazy(T.ArrayType(F, t.ndim, "C"), z.dims,
                                                lambda idx: ops.convert_wrap(z.elem(idx), F))))
            tpl.buffered = True
        return Reduction.lower(tpl, L, call, [a] + list(args[1:]), kwargs)

    def lower_axis(self, L, args, rt, st, axis, keep):
        from . import var_axis
        if var_axis.applies(self, L, args[0], st, axis):
            return var_axis.two_passes(self, L, args[0], rt, st, axis, keep)
        if var_axis.complex_whole_applies(L, args[0], st, axis):
            from ..arrays.reductions import kept_array
            v = var_axis.complex_whole(self, L, args[0], st)
            return kept_array(L, v, rt, args[0].type.ndim) if keep else v
        return Reduction.lower_axis(self, L, args, rt, st, axis, keep)

    def pairwise(self, L, lane, st, scratch=True):
        """NumPy's ``_var`` on one lane, operation by operation: the pairwise sum
        divided by the ``intp`` count (in float64, rounded to float32 data's
        type), the squared deviations in a temporary, their pairwise sum divided
        by ``max(n - ddof, 0)``; ``std`` is its square root.  (``scratch`` is
        unused: each lane allocates its deviations anyway.)"""
        from . import pairwise_sum as hs
        from ..arrays.creation import allocate, fill
        n = L.let(N.ArrayAttr(lane, "shape", 0, I))
        summed = hs.buffered_sum if self.buffered else hs.pairwise
        mean = L.let(divided(L, L.call_helper(summed, [lane, C(0.0, st)]), n, st))
        dev = allocate(L, T.ArrayType(st, 1, "C"), [n])

        def square(idx):
            d = L.let(N.BinOp("sub", N.Load(lane, [idx[0]], st), mean, st))
            return N.BinOp("mul", d, d, st)
        fill(L, dev, [n], square)
        total = L.call_helper(hs.pairwise, [dev, C(0.0, st)])
        return self.var_of(L, total, self.dof(L, n), st)

    def dof(self, L, n):
        """NumPy's divisor ``max(n - ddof, 0)`` for ``n`` values (int64, or
        float64 for a float ``ddof``)."""
        ct = F if self.ddof is not None and not self.ddof.type.is_int else I
        ddof = ops.convert(L, self.ddof, ct) if self.ddof is not None else C(0, I)
        count = L.let(N.BinOp("sub", ops.convert(L, n, ct), ddof, ct))
        zero = ops.zero(ct)                    # (NumPy's maximum(rcount - ddof, 0))
        return N.Select(N.Cmp("lt", count, zero, T.BOOL), zero, count, ct)

    def var_of(self, L, total, count, st):
        """The variance from the sum of squared deviations ``total`` and the
        divisor ``count`` (:meth:`dof`); ``std`` its square root."""
        var = divided(L, total, count, st)
        if self.name == "std":
            return N.Intrinsic("sqrt", [L.let(var)], st)
        return var

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


def flat_array(L, a):
    """``a``'s elements as a 1-D C-contiguous array (a view when possible)."""
    from ..arrays.shape import contiguous, reshape_view
    src = contiguous(L, a)
    return L.let(reshape_view(L, src, [C(-1, I)], src.type.copy(ndim=1, layout="C")))


def const_arg(call, pos, name, default=None):
    """The compile-time value of argument ``name`` of a call (a keyword, or the
    argument at ``pos``); ``default`` when it is absent."""
    node = call.kwargs.get(name, call.args[pos] if len(call.args) > pos else None)
    if node is None:
        return default
    if isinstance(node, N.MakeTuple):
        return tuple(_const_node(i, name) for i in node.items)
    return _const_node(node, name)


def _const_node(node, name):
    value = node.value if isinstance(node, N.Const) else getattr(node, "obj", node)
    if isinstance(value, N.Expr):
        raise Incompatible(f"{name} must be a constant")
    return value


def _ord(call):
    return const_arg(call, 1, "ord")


_MATRIX_ORDS = ("fro", "f", 1, -1, float("inf"), float("-inf"), 2, -2, "nuc")
# ord -> what ``svd_algorithms.svd_norm`` takes of the singular values
_SVD_KIND = {2: 0, -2: 1, "nuc": 2}


def _is_svd(o) -> bool:
    return isinstance(o, (int, float, str)) and not isinstance(o, bool) and o in _SVD_KIND


def norm_plan(call, ndim: int):
    """(axes, keepdims, matrix) of an ``np.linalg.norm`` call: the reduced axes
    (normalised, in the order given), and whether it is a matrix norm."""
    o = _ord(call)
    axis = const_arg(call, 2, "axis")
    keep = const_arg(call, 3, "keepdims", False)
    if not isinstance(keep, bool):
        raise Incompatible("keepdims must be a constant True or False")
    if axis is None:
        if o is None:
            return tuple(range(ndim)), keep, False
        if ndim > 2:
            raise Incompatible("Improper number of dimensions to norm.")
        axis = tuple(range(ndim))
    axes = axis if isinstance(axis, tuple) else (axis,)
    if not all(type(k) is int and -ndim <= k < ndim for k in axes):
        raise Incompatible(f"np.linalg.norm() axis {axis!r} for a {ndim}-D array")
    axes = tuple(k % ndim for k in axes)
    if len(axes) == 1:
        if isinstance(o, (str, bool)) or not (o is None or isinstance(o, (int, float))):
            raise Incompatible(f"Invalid norm order {o!r} for vectors")
        return axes, keep, False
    if len(axes) != 2 or axes[0] == axes[1]:
        raise Incompatible(f"np.linalg.norm() axis {axis!r}")
    if o is not None and o not in _MATRIX_ORDS:
        raise Incompatible(f"Invalid norm order {o!r} for matrices")
    return axes, keep, True


@register
class Norm(CallTemplate):
    """``np.linalg.norm(x, ord=None, axis=None, keepdims=False)``: vector norms
    (any real ``ord``, ``inf``, ``-inf``, 0) over one axis, matrix norms
    (Frobenius, ``ord`` 1, -1, inf, -inf, and 2, -2, ``'nuc'`` from singular
    values) over two, the 2-norm of everything for ``axis=None``; an array of the
    other axes' norms (kept as 1 with ``keepdims``)."""

    paths = ("numpy.linalg.norm",)
    accepts_lazy = True

    def typer(self, inf, call, args, kwargs):
        if not 1 <= len(args) <= 4 or set(kwargs) - {"ord", "axis", "keepdims"}:
            raise Incompatible("np.linalg.norm(x, ord=None, axis=None, keepdims=False)")
        at = args[0]
        if not isinstance(at, T.ArrayType):
            raise Incompatible(f"np.linalg.norm() of {at}")
        axes, keep, matrix = norm_plan(call, at.ndim)
        if matrix and _is_svd(_ord(call)) and not (
                at.dtype.is_int or at.dtype.is_bool or at.dtype.is_float and at.dtype.bits >= 32
                or at.dtype.is_complex and at.dtype.bits >= 64):
            raise Incompatible(f"np.linalg.norm() ord={_ord(call)!r} of a {at.dtype} matrix "
                               "(NumPy's linalg takes 32- and 64-bit floats)")
        rt = float_type(at.dtype)
        if keep:
            return T.ArrayType(rt, at.ndim, "C")
        if at.ndim == len(axes):
            return rt
        return T.ArrayType(rt, at.ndim - len(axes), "C")

    def lower(self, L, call, args, kwargs):
        from ..arrays.creation import allocate, fill
        at = args[0].type
        rt = float_type(at.dtype)
        a = L.let(ew.materialize(L, args[0]))
        if _dot_path(call, at) and _numpys_blas(L):
            return _dot_norm(L, call, a)
        z = ew.to_lazy(L, a)
        axes, keep, matrix = norm_plan(call, at.ndim)
        o = _ord(call)
        kept = [k for k in range(at.ndim) if k not in axes]
        _empty_min_check(L, z, o, axes, matrix)
        if (numpys_order_kept(L) and not _dot_path(call, at)
                and norm_steps.wanted(o, matrix)):
            return norm_steps.lower(L, a, rt, o, axes, keep, call.type)
        if matrix and _is_svd(o) and norm_steps.svd_available(L, at.dtype):
            return norm_steps.svd_lower(L, a, rt, o, axes, keep, call.type)
        if at.dtype.is_complex:              # (abs of a complex line read backwards)
            from ..complex.absolute_forms import backwards_flag
            backwards = backwards_flag(L, a)
            if backwards is not None:
                L.emit(N.If(cond=backwards, then=[N.Raise(
                    exc=ValueError, deopt=True, line=L.line,
                    message="np.linalg.norm() of a complex array read backwards")]))
        value = functools.partial(_norm_value, L, z, o, rt, axes, matrix)
        if matrix and _is_svd(o):
            value = functools.partial(_svd_value, L, z, o, rt, axes, _svd_work(L, z, axes))
        if not isinstance(call.type, T.ArrayType):
            return value({})
        if keep:
            dims = [z.dims[k] if k in kept else C(1, I) for k in range(at.ndim)]
            pos = {k: k for k in kept}
        else:
            dims = [z.dims[k] for k in kept]
            pos = {k: j for j, k in enumerate(kept)}
        out = allocate(L, call.type, dims)
        fill(L, out, dims, lambda idx: value({k: idx[j] for k, j in pos.items()}))
        return out


def _dot_path(call, at) -> bool:
    """Does NumPy take its fast path, ``sqrt(x.dot(x))`` of ``x.ravel('K')``?
    For ``axis=None`` with ``ord`` None, ``'fro'`` of a matrix or 2 of a vector."""
    o = _ord(call)
    if const_arg(call, 2, "axis") is not None:
        return False
    return (o is None or (isinstance(o, str) and o in ("fro", "f") and at.ndim == 2)
            or (not isinstance(o, (str, bool)) and o == 2 and at.ndim == 1))


def _numpys_blas(L) -> bool:
    """Can this target call NumPy's BLAS (``linalg.dot.uses_numpys_blas``)?  Other
    targets sum the squares in order."""
    from ..linalg import blas
    return L.ctx is not None and L.ctx.capabilities.host_calls and blas.available()


def _dot_norm(L, call, a):
    """``np.linalg.norm``'s fast path as NumPy's (``dot_algorithms.norm_dot_*``):
    the same BLAS dot, so the same sum, bit for bit, over the elements in
    ``x.ravel(order='K')``'s order -- the axes by stride, largest first (C order
    on a tie): memory order for C- and F-contiguous arrays, else a copy.  An
    array of more than two dimensions that is neither falls back."""
    from ..arrays.reductions import kept_array
    from ..arrays.shape import reshape_view, transpose
    from ..linalg import dot_algorithms as hd
    from ..sorting.sort import fresh_copy
    t = a.type
    flat1 = t.copy(ndim=1, layout="C")

    def ravel(x):                    # x C-contiguous: a 1-D view of it
        return L.let(reshape_view(L, x, [C(-1, I)], flat1))
    if t.layout == "C":
        f = ravel(a) if t.ndim > 1 else a
    elif t.layout == "F" and t.ndim > 1:
        f = ravel(L.let(transpose(L, a)))
    elif t.ndim == 1:
        f = fresh_copy(L, a)[1]
    elif t.ndim == 2:
        f = L.temp(flat1, "flat")
        s0, s1 = (L.let(N.Intrinsic("smax", [d, N.BinOp("sub", C(0, I), d, I)], I))
                  for d in (N.ArrayAttr(a, "stride", k, I) for k in (0, 1)))
        by_rows, c_flat = L.sub_block(lambda: fresh_copy(L, a)[1])
        by_cols, f_flat = L.sub_block(lambda: fresh_copy(L, transpose(L, a))[1])
        L.emit(N.If(cond=N.Cmp("ge", s0, s1, T.BOOL),
                    then=by_rows + [N.Assign(target=f, value=c_flat)],
                    orelse=by_cols + [N.Assign(target=f, value=f_flat)]))
        f = N.Var(f, flat1)
    else:
        raise Incompatible("np.linalg.norm() of an array of more than two dimensions "
                           "that is neither C- nor F-contiguous")
    helper = (hd.norm_dot_complex if t.dtype.is_complex else
              hd.norm_dot_real if t.dtype.is_float else hd.norm_dot_int)
    v = L.call_helper(helper, [f])
    if isinstance(call.type, T.ArrayType):
        return kept_array(L, L.let(v), call.type, t.ndim)
    return v


def _svd_work(L, z, axes):
    """The float64 ``q x p`` work array (``q <= p``) ``svd_algorithms`` takes: one
    for every matrix of a stack (twice as high and wide for a complex one)."""
    from ..arrays.creation import allocate
    r, c = (L.let(z.dims[k]) for k in axes)
    if z.type.dtype.is_complex:
        r, c = (L.let(N.BinOp("mul", d, C(2, I), I)) for d in (r, c))
    tall = L.let(N.Cmp("ge", r, c, T.BOOL))
    dims = [L.let(N.Select(tall, c, r, I)), L.let(N.Select(tall, r, c, I))]
    return allocate(L, T.ArrayType(F, 2, "C"), dims), tall


def _svd_value(L, z, o, rt, axes, work, fixed):
    """The largest or smallest singular value, or their sum, of the matrix of ``z``
    over ``axes`` at the ``fixed`` indices of the other axes: copied (as float64,
    its columns as rows, or its rows when it is wide) into the work array, then
    ``svd_algorithms.svd_norm``.

    A complex ``m x n`` matrix ``X + iY`` has the singular values of the real
    ``2m x 2n`` matrix ``[[X, -Y], [Y, X]]``, each twice; that is what is copied.
    An element with an infinite part is copied as infinite in both, so that
    ``(inf, nan)`` gives NaN rather than LinAlgError: LAPACK looks at ``|z|``."""
    from ..linalg import svd_algorithms as hv
    w, tall = work
    r, c = axes
    m, n = z.dims[r], z.dims[c]
    cplx = z.type.dtype.is_complex

    def parts(x):
        """[(row offset, column offset, value)] of element ``x`` in the real matrix."""
        if not cplx:
            return [(None, None, ops.convert(L, x, F))]
        x = L.let(x)
        re, im = (L.let(ops.convert(L, N.ComplexPart(x, p, rt), F)) for p in ("real", "imag"))
        inf = C(float("inf"), F)
        infinite = L.let(ops.bor(N.Cmp("eq", N.Intrinsic("fabs", [re], F), inf, T.BOOL),
                                 N.Cmp("eq", N.Intrinsic("fabs", [im], F), inf, T.BOOL)))
        re, im = (L.let(N.Select(infinite, inf, v, F)) for v in (re, im))
        return [(None, None, re), (None, n, L.let(N.UnOp("neg", im, F))), (m, None, im),
                (m, n, re)]

    def copy_in(transpose):
        def body(idx):
            full = dict(fixed)
            full.update({r: idx[0], c: idx[1]})
            for dr, dc, v in parts(z.elem([full[k] for k in range(len(z.dims))])):
                at = [i if d is None else N.BinOp("add", i, d, I)
                      for i, d in zip(idx, (dr, dc))]
                L.emit(N.Store(array=w, indices=at[::-1] if transpose else at, value=v))
        return L.sub_block(lambda: loops(L, [m, n], body))[0]
    L.emit(N.If(cond=tall, then=copy_in(True), orelse=copy_in(False)))
    res = L.call_helper(hv.svd_norm, [w, C(_SVD_KIND[o], I)])
    if cplx and o == "nuc":                      # every singular value counted twice
        res = N.BinOp("mul", res, C(0.5, F), F)
    return ops.convert(L, res, rt)


def _empty_min_check(L, z, o, axes, matrix):
    """NumPy's min reductions (ord -inf, and -1 and -2 for matrices) raise
    ValueError for an empty reduced axis, even when no norm is computed."""
    inf = float("inf")
    axis = None
    if not matrix and o == -inf:
        axis = axes[0]
    elif matrix and o == -1:
        axis = axes[1]
    elif matrix and o == -inf:
        axis = axes[0]
    elif matrix and o == -2:            # the smallest of min(rows, cols) values
        for axis in axes:
            L.raise_if(N.Cmp("eq", z.dims[axis], C(0, I), T.BOOL), ValueError,
                       "zero-size array to reduction operation minimum which has no "
                       "identity")
        return
    if axis is not None:
        L.raise_if(N.Cmp("eq", z.dims[axis], C(0, I), T.BOOL), ValueError,
                   "zero-size array to reduction operation minimum which has no "
                   "identity")


def _norm_value(L, z, o, rt, axes, matrix, fixed):
    """The norm over ``axes`` of ``z`` at the ``fixed`` indices of the other axes."""

    def at(loop_idx, which):
        full = dict(fixed)
        full.update(zip(which, loop_idx))
        return [full[k] for k in range(len(z.dims))]

    def absval(idx, which=axes):
        x = L.let(z.elem(at(idx, which)))
        if x.type.is_complex:                 # NumPy's abs(x) loop
            from ..complex.absolute_forms import loop_abs
            return loop_abs(L, x, x.type)
        return N.Intrinsic("fabs", [ops.convert(L, x, rt)], rt)

    def square(idx):
        x = L.let(z.elem(at(idx, axes)))
        if x.type.is_complex:
            re = L.let(N.ComplexPart(x, "real", rt))
            im = L.let(N.ComplexPart(x, "imag", rt))
            return N.BinOp("add", N.BinOp("mul", re, re, rt), N.BinOp("mul", im, im, rt),
                           rt)
        x = L.let(ops.convert(L, x, rt))
        return N.BinOp("mul", x, x, rt)

    inf = float("inf")
    dims = [z.dims[k] for k in axes]
    if o is None or o in ("fro", "f") or (o == 2 and not matrix):
        return N.Intrinsic("sqrt", [_sum(L, dims, square, rt)], rt)
    if matrix:
        r, c = axes
        outer, inner = (c, r) if o in (1, -1) else (r, c)
        return _extreme(L, [z.dims[outer]], lambda j: _sum(
            L, [z.dims[inner]], lambda i: absval([i[0], j[0]], (inner, outer)), rt),
            rt, o > 0, checked=True)
    if o == inf or o == -inf:
        return _extreme(L, dims, absval, rt, o > 0, checked=True)
    if o == 0:
        return _sum(L, dims, lambda idx: N.Select(
            ops.truth(L, z.elem(at(idx, axes))), C(1.0, rt), C(0.0, rt), rt), rt)
    if o == 1:
        return _sum(L, dims, absval, rt)
    p = C(float(o), rt)
    s = _sum(L, dims, lambda idx: N.Intrinsic("pow", [absval(idx), p], rt), rt)
    return N.Intrinsic("pow", [s, C(1.0 / float(o), rt)], rt)


def _sum(L, dims, value, rt):
    acc = L.temp(rt, "acc")
    L.emit(N.Assign(target=acc, value=ops.zero(rt)))
    loops(L, dims, lambda idx: L.emit(N.Assign(target=acc, value=N.BinOp(
        "add", N.Var(acc, rt), value(idx), rt))))
    return L.let(N.Var(acc, rt))


def _extreme(L, dims, value, rt, is_max, checked=False):
    """max (NumPy's ``initial=0``) or min of ``value`` over ``dims``; NaN wins, and
    an empty min raises ValueError as NumPy does (``checked``: already tested)."""
    if not is_max and not checked:
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
