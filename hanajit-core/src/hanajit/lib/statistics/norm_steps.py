"""``np.linalg.norm`` along axes, step by step as NumPy's ``norm`` computes it.

NumPy's ``norm`` is a few array operations: ``sqrt(add.reduce((x.conj() *
x).real, axis))`` for the 2-norm and Frobenius norm, ``add.reduce(abs(x),
axis)`` for ord 1, ``add.reduce(abs(x) ** ord, axis) ** (1 / ord)`` for other
orders, and for the matrix orders 1, -1, inf and -inf a sum along one axis then
the max or min along the other.  Here each temporary is a lazy expression of the
input (so NumPy's reduction order follows from the input's layout, as for
``np.sum(x * x, axis=k)``), each element computed as NumPy's loop computes it
(the complex product's rounding, ``product_forms``; a complex ``abs``,
``absolute_forms``), and each reduction is ``np.sum``/``np.max``/``np.min``'s own
(``arrays.reductions``), which follow NumPy's order: the results are NumPy's,
bit for bit.  Orders whose result does not depend on the order of the sum
(inf, -inf, 0 of vectors) stay in ``var_std_norm``.

The matrix norms of the singular values (``ord`` 2, -2, ``'nuc'``) are
``_multi_svd_norm``'s steps (:func:`svd_lower`): the singular values of every
matrix by NumPy's own LAPACK (``?gesdd``, ``solve_inv_det_algorithms.svdvals_*``),
C-ordered with the stack first and in the result's dtype as ``svd`` returns them,
then ``amax(initial=0)``, ``amin`` or ``sum(initial=0)`` along the last axis.
"""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..python import operators as ops
from ..python.operators import C

I = T.INT64


def wanted(o, matrix: bool) -> bool:
    """Does ``ord`` ``o`` sum in NumPy's order here?"""
    inf = float("inf")
    if matrix:
        return o is None or o in ("fro", "f", 1, -1, inf, -inf)
    return isinstance(o, (int, float)) and not isinstance(o, bool) and o not in (
        0, inf, -inf) or o is None


def lower(L, a, rt: T.Scalar, o, axes: tuple, keep: bool, result_type):
    """The norm of the array ``a`` over ``axes`` (``wanted``), of type
    ``result_type``."""
    from ..arrays.reductions import REDUCTIONS
    at = a.type
    nd = at.ndim
    total = REDUCTIONS["sum"]
    inf = float("inf")
    if o is None or o in ("fro", "f", 2):
        s = _squares(L, a, rt)
        v = _reduce(L, total, s, rt, axes, keep, nd)
        return _map(L, v, lambda x: N.Intrinsic("sqrt", [x], rt), rt)
    absx = _absolute(L, a, rt)
    if len(axes) == 2:
        row, col = axes
        pick = REDUCTIONS["max" if o in (1, inf) else "min"]
        along, then = (row, col) if o in (1, -1) else (col, row)
        sums = L.let(_reduce(L, total, absx, rt, (along,), False, nd))
        then -= then > along
        if o in (1, inf):                             # NumPy's max(initial=0)
            v = _or_zeros(L, sums, then, lambda: _reduce(
                L, pick, sums, rt, (then,), False, nd - 1), rt)
        else:
            v = _reduce(L, pick, sums, rt, (then,), False, nd - 1)
        if not keep:
            return v
        from ..arrays.reductions import kept_array
        from ..arrays.shape import reshape_view
        v = L.let(v)
        if not isinstance(v.type, T.ArrayType):
            return kept_array(L, v, result_type, nd)
        dims = [C(1, I) if k in axes else N.ArrayAttr(a, "shape", k, I) for k in range(nd)]
        return reshape_view(L, v, dims, result_type)
    if o == 1:
        return _reduce(L, total, absx, rt, axes, keep, nd)
    powered = ew.lift(L, [absx], absx.type, lambda x: _power_loop(L, x, float(o), rt))
    if (L.ctx is not None and L.ctx.capabilities.numpy_simd_calls
            and float(o) not in (2.0, 0.5, -1.0) and (nd == 1 or at.layout == "C")):
        # NumPy's temporary, its powers computed whole in a vectorised loop: the
        # sum's leaves would call NumPy's vector pow once per value (0.32x ->
        # 0.20x NumPy's time) where NumPy's own SIMD functions are called.  (In
        # C order: NumPy's own temporary takes the input's memory order, which
        # decides its sum's order; other layouts keep the lazy temporary)
        powered = L.let(ew.materialize(L, powered))
    v = _reduce(L, total, powered, rt, axes, keep, nd)
    q = 1.0 / float(o)                            # ``reciprocal(ord, dtype=ret.dtype)``
    if isinstance(v.type, T.ArrayType):
        return _map(L, v, lambda x: _power_loop(L, x, q, rt), rt)
    return _pow(L.let(v), C(q, rt), rt)          # (a NumPy scalar's power: C's pow)


def svd_available(L, t: T.Scalar) -> bool:
    """Can this target call NumPy's ``?gesdd`` for a matrix of dtype ``t``?"""
    from ..linalg import lapack
    return (L.ctx is not None and L.ctx.capabilities.host_calls
            and lapack.available("zgesdd" if t.is_complex else "dgesdd"))


def svd_lower(L, a, rt: T.Scalar, o, axes: tuple, keep: bool, result_type):
    """``np.linalg.norm(a, o, axes, keep)`` for ``o`` 2, -2 or ``'nuc'`` as
    NumPy's ``_multi_svd_norm`` computes it: ``svd(moveaxis(a, axes, (-2, -1)),
    compute_uv=False)`` (each matrix's float64 singular values, rounded to ``rt``),
    then ``amax``/``amin``/``sum`` along the last axis.  (An empty ``amin`` has
    raised already: ``var_std_norm._empty_min_check``.)"""
    from ..arrays.creation import allocate
    from ..arrays.reductions import REDUCTIONS, loops
    from ..linalg import solve_inv_det_algorithms as hl
    nd = a.type.ndim
    r, c = axes
    kept = [k for k in range(nd) if k not in axes]
    shape = [L.let(N.ArrayAttr(a, "shape", k, I)) for k in range(nd)]
    m, n = shape[r], shape[c]
    k = L.let(N.Select(N.Cmp("lt", m, n, T.BOOL), m, n, I))
    stack = [shape[j] for j in kept]
    s = L.let(allocate(L, T.ArrayType(rt, len(kept) + 1, "C"), stack + [k]))
    z = a.type.dtype.is_complex
    w = allocate(L, T.ArrayType(T.COMPLEX128 if z else T.FLOAT64, 1, "C"),
                 [L.let(N.BinOp("mul", m, n, I))])

    def offset(x, dims, idx):
        at = C(0, I)
        for d, i in zip(dims, idx):
            at = N.BinOp("add", at, N.BinOp("mul", i, N.ArrayAttr(x, "stride", d, I), I), I)
        return L.let(at)

    def body(idx):
        matrix = L.let(N.ArrayView(a, offset(a, kept, idx), [m, n],
                                   [N.ArrayAttr(a, "stride", d, I) for d in (r, c)],
                                   a.type.copy(ndim=2, layout="A")))
        if kept:
            row = L.let(N.ArrayView(s, offset(s, range(len(kept)), idx), [k],
                                    [N.ArrayAttr(s, "stride", len(kept), I)],
                                    s.type.copy(ndim=1, layout="C")))
        else:
            row = s
        L.call_helper(hl.svdvals_z if z else hl.svdvals_d, [matrix, row, w])
    work, _ = L.sub_block(lambda: loops(L, stack, body))
    L.emit(N.If(cond=N.Cmp("gt", k, C(0, I), T.BOOL), then=work))
    last = len(kept)
    total = REDUCTIONS["sum" if o == "nuc" else "max" if o == 2 else "min"]
    if o == -2:
        v = _reduce(L, total, s, rt, (last,), False, last + 1)
    else:                                      # amax/sum with ``initial=0``
        v = _or_zeros(L, s, last, lambda: _reduce(L, total, s, rt, (last,), False,
                                                   last + 1), rt)
    v = L.let(v)
    _nan_rerun(L, v, rt, [shape[j] for j in kept])
    if not keep:
        return v
    from ..arrays.reductions import kept_array
    from ..arrays.shape import reshape_view
    if not isinstance(v.type, T.ArrayType):
        return kept_array(L, v, result_type, nd)
    dims = [C(1, I) if j in axes else shape[j] for j in range(nd)]
    return reshape_view(L, v, dims, result_type)


def _nan_rerun(L, v, rt, dims):
    """Re-run the call in the interpreter when a norm ``v`` (a number, or an
    array of ``dims``) is NaN: which NaN NumPy's ``amin``/``amax`` keep of
    several (LAPACK's singular values of a matrix with infinities, NaNs of either
    sign) is its SIMD loops' choice, not the first one."""
    from ..arrays.reductions import loops
    bad = L.temp(T.BOOL, "nan")
    L.emit(N.Assign(target=bad, value=C(False, T.BOOL)))

    def check(x):
        L.emit(N.Assign(target=bad, value=ops.bor(N.Var(bad, T.BOOL),
                                                   N.Cmp("uno", x, x, T.BOOL))))
    if isinstance(v.type, T.ArrayType):
        loops(L, dims, lambda idx: check(L.let(N.Load(v, idx, rt))))
    else:
        check(v)
    L.emit(N.If(cond=N.Var(bad, T.BOOL), then=[N.Raise(
        exc=ValueError, deopt=True, line=L.line,
        message="np.linalg.norm(): NaN singular values (NumPy picks which NaN)")]))


def _power_loop(L, x, p: float, rt):
    """``x ** p`` as NumPy's power loop computes it for a number ``p``: its fast
    paths for 2, 0.5 and -1, else its ``pow``: NumPy's SIMD function where the
    target calls it (AVX-512 hosts), else C's ``pow`` (not the vector math of a
    vectorised loop)."""
    if p == 2.0:
        x = L.let(x)
        return N.BinOp("mul", x, x, rt)
    if p == 0.5:
        return N.Intrinsic("sqrt", [x], rt)
    if p == -1.0:
        return N.BinOp("fdiv", C(1.0, rt), x, rt)
    e = ew.numpy_pow(x, C(p, rt), rt)
    e.scalar_only = True
    return e


def _pow(x, p, rt):
    """C's ``pow``, as NumPy's scalars compute it: not the vector math of a
    vectorised loop."""
    e = N.Intrinsic("pow", [x, p], rt)
    e.scalar_only = True
    return e


def _or_zeros(L, sums, axis, built, rt):
    """``built`` (a max of ``sums`` over ``axis``, lowered as it is written) where
    that axis is not empty, else zeros of its type: NumPy's ``max(axis,
    initial=0)``, which does not raise for an empty axis."""
    from ..arrays.creation import allocate, fill
    result_t = T.ArrayType(rt, sums.type.ndim - 1, "C") if sums.type.ndim > 1 else rt
    out = L.temp(result_t, "norm")
    dims = [N.ArrayAttr(sums, "shape", k, I) for k in range(sums.type.ndim)]
    nonempty, v = L.sub_block(built)

    def zeros():
        if not isinstance(result_t, T.ArrayType):
            return C(0.0, rt)
        kept = [d for k, d in enumerate(dims) if k != axis]
        arr = allocate(L, result_t, kept)
        fill(L, arr, kept, lambda idx: C(0.0, rt))
        return arr
    empty, z = L.sub_block(zeros)
    L.emit(N.If(cond=N.Cmp("eq", dims[axis], C(0, I), T.BOOL),
                then=empty + [N.Assign(target=out, value=z)],
                orelse=nonempty + [N.Assign(target=out, value=v)]))
    return N.Var(out, result_t)


def _reduce(L, red, arg, rt, axes, keep, nd):
    """``red`` (a ``Reduction``) of ``arg`` over ``axes``, as ``np.sum(arg,
    axis=axes, keepdims=keep)`` is lowered."""
    from ..arrays.axis_reduce import over_axes
    left = nd if keep else nd - len(axes)
    out = T.ArrayType(rt, left, "C") if left > 0 else rt
    if len(axes) > 1:
        return over_axes(red, L, arg, out, rt, tuple(axes), keep)
    return red.lower_axis(L, [arg], out, rt, axes[0], keep)


def _map(L, v, fn, rt):
    """``fn`` of each element of ``v`` (an array or a number)."""
    if isinstance(v.type, T.ArrayType):
        return ew.materialize(L, ew.lift(L, [L.let(v)], v.type, fn))
    return fn(L.let(v))


def _squares(L, a, rt):
    """``(x.conj() * x).real`` as NumPy's multiply loop rounds it (its complex
    product may be fused), of ``x`` made float64 first when it is not a float."""
    t = a.type.dtype
    lazy_t = T.ArrayType(rt, a.type.ndim, "C")
    if not t.is_complex:
        def square(x):
            x = L.let(ops.convert(L, x, rt))
            return N.BinOp("mul", x, x, rt)
        return ew.lift(L, [a], lazy_t, square)
    from ..complex.product_forms import cmul_form, cmul_plain_if, plain_flag
    form = cmul_form("array", t.bits)
    plain_if = plain_flag(L, [ew.to_lazy(L, a), a], t)

    def square(x):
        x = L.let(x)
        conj = N.MakeComplex(N.ComplexPart(x, "real", rt),
                             N.UnOp("neg", N.ComplexPart(x, "imag", rt), rt), t)
        return N.ComplexPart(cmul_plain_if(L, conj, x, t, form, plain_if), "real", rt)
    return ew.lift(L, [a], lazy_t, square)


def _absolute(L, a, rt):
    """``abs(x)`` as NumPy's absolute loop computes it, of ``x`` made float64
    first when it is not a float."""
    t = a.type.dtype
    lazy_t = T.ArrayType(rt, a.type.ndim, "C")
    if not t.is_complex:
        return ew.lift(L, [a], lazy_t,
                       lambda x: N.Intrinsic("fabs", [ops.convert(L, x, rt)], rt))
    from ..complex.absolute_forms import backwards_flag, loop_abs
    backwards = backwards_flag(L, a)
    return ew.lift(L, [a], lazy_t, lambda x: loop_abs(L, x, t, backwards))
