"""``np.linalg.eigh``, ``np.linalg.svd`` with ``U`` and ``Vh`` and ``np.linalg.qr``
of 2-D arrays by the LAPACK functions NumPy itself calls
(``decomposition_algorithms``): NumPy's results bit for bit.

The results are NumPy's named tuples (``EighResult``, ``SVDResult``,
``QRResult``): typed ``T.NamedTupleType``, so compiled code unpacks them, indexes
them with constants and reads their fields by name.  A function that returns one
falls back (compiled code hands back plain tuples); ``qr(a, mode='r')`` is a plain
array.  As in NumPy the work is done in float64/complex128 and cast to
float32/complex64 for float32/complex64 input; stacks of matrices fall back
(but ``slogdet``'s and ``cond``'s, which loop over the stack as ``lib/linalg/stacks.py`` says).
"""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..arrays import elementwise as ew
from ..arrays.creation import allocate
from ..python.operators import C
from ..registry import CallTemplate, register
from . import decomposition_algorithms as da
from .solve_inv_det import (Lapack, matrix_arg, need, option, real_of, result_dtype,
                            singular_values, square, work)

I = T.INT64
UPLOS = ("L", "U", "l", "u")
QR_MODES = ("reduced", "complete", "r")


def _named(name, fields, items):
    return T.NamedTupleType(tuple(items), name=name, fields=fields)


def _shape(L, a, k):
    return L.let(N.ArrayAttr(a, "shape", k, I))


@register
class Eigh(CallTemplate):
    """``np.linalg.eigh(a, UPLO='L')``: ``EighResult(eigenvalues, eigenvectors)``."""

    paths = ("numpy.linalg.eigh",)

    def typer(self, inf, call, args, kwargs):
        if len(args) not in (1, 2) or set(kwargs) - {"UPLO"} or (len(args) == 2 and kwargs):
            raise Incompatible("np.linalg.eigh(a, UPLO='L')")
        option(call, 1, "UPLO", "L", UPLOS)
        matrix_arg(args[0], "eigh", "matrix")
        t = result_dtype(args[0])
        need("zheevd" if t.is_complex else "dsyevd", "eigh")
        return _named("EighResult", ("eigenvalues", "eigenvectors"),
                      (T.ArrayType(real_of(t), 1, "C"), T.ArrayType(t, 2, "C")))

    def lower(self, L, call, args, kwargs):
        uplo = option(call, 1, "UPLO", "L", UPLOS).upper()
        a = L.let(ew.materialize(L, args[0]))
        n = square(L, a)
        wt, vt = call.type.items
        ev, v = allocate(L, wt, [n]), allocate(L, vt, [n, n])
        z = vt.dtype.is_complex
        w = work(L, z, N.BinOp("mul", n, n, I))
        L.call_helper(da.eigh_z if z else da.eigh_d, [a, ev, v, w, C(ord(uplo), I)])
        return N.MakeTuple([ev, v], call.type)


def svd_type(call, args):
    """``SVDResult(U, S, Vh)`` of ``np.linalg.svd(a, full_matrices, compute_uv=True)``
    (the singular values alone are ``solve_inv_det.SingularValues``)."""
    option(call, 1, "full_matrices", True, (False, True))
    if option(call, 3, "hermitian", False, (False, True)):
        raise Incompatible("np.linalg.svd(hermitian=True) (NumPy's eigh-based path)")
    a = args[0]
    matrix_arg(a, "svd", "matrix")
    t = result_dtype(a)
    need("zgesdd" if t.is_complex else "dgesdd", "svd")
    m = T.ArrayType(t, 2, "C")
    return _named("SVDResult", ("U", "S", "Vh"), (m, T.ArrayType(real_of(t), 1, "C"), m))


def svd_lower(L, call, args):
    full = option(call, 1, "full_matrices", True, (False, True))
    a = L.let(ew.materialize(L, args[0]))
    m, n = _shape(L, a, 0), _shape(L, a, 1)
    k = L.let(N.Select(N.Cmp("lt", m, n, T.BOOL), m, n, I))
    ut, st, vt = call.type.items
    u = allocate(L, ut, [m, m if full else k])
    s = allocate(L, st, [k])
    vh = allocate(L, vt, [n if full else k, n])
    z = ut.dtype.is_complex
    w = work(L, z, N.BinOp("mul", m, n, I))
    L.call_helper(da.svd_z if z else da.svd_d, [a, u, s, vh, w, C(ord("A" if full else "S"), I)])
    return N.MakeTuple([u, s, vh], call.type)


@register
class Qr(CallTemplate):
    """``np.linalg.qr(a, mode='reduced')``: ``QRResult(Q, R)``; ``mode='r'`` gives R
    alone ('raw' falls back)."""

    paths = ("numpy.linalg.qr",)

    def typer(self, inf, call, args, kwargs):
        if len(args) not in (1, 2) or set(kwargs) - {"mode"} or (len(args) == 2 and kwargs):
            raise Incompatible("np.linalg.qr(a, mode='reduced')")
        mode = option(call, 1, "mode", "reduced", QR_MODES)
        matrix_arg(args[0], "qr", "matrix")
        t = result_dtype(args[0])
        need("zungqr" if t.is_complex else "dorgqr", "qr")
        need("zgeqrf" if t.is_complex else "dgeqrf", "qr")
        m = T.ArrayType(t, 2, "C")
        return m if mode == "r" else _named("QRResult", ("Q", "R"), (m, m))

    def lower(self, L, call, args, kwargs):
        mode = option(call, 1, "mode", "reduced", QR_MODES)
        a = L.let(ew.materialize(L, args[0]))
        m, n = _shape(L, a, 0), _shape(L, a, 1)
        k = L.let(N.Select(N.Cmp("lt", m, n, T.BOOL), m, n, I))
        rt = call.type if mode == "r" else call.type.items[1]
        # q has mc columns: m for 'complete' of a tall matrix, else min(m, n); mode
        # 'r' passes an empty q
        mc = m if mode == "complete" else k
        if mode == "complete":
            mc = L.let(N.Select(N.Cmp("gt", m, n, T.BOOL), m, k, I))
        zero = C(0, I)
        q = allocate(L, rt, [zero, zero] if mode == "r" else [m, mc])
        r = allocate(L, rt, [k if mode == "r" else mc, n])
        z = rt.dtype.is_complex
        w = work(L, z, N.BinOp("mul", m, n, I))
        L.call_helper(da.qr_z if z else da.qr_d, [a, q, r, w])
        return r if mode == "r" else N.MakeTuple([q, r], call.type)


@register
class Slogdet(CallTemplate):
    """``np.linalg.slogdet(a)``: ``SlogdetResult(sign, logabsdet)``, NumPy scalars
    (``?getrf``, as ``det``); two arrays of the stack's shape for a stack."""

    paths = ("numpy.linalg.slogdet",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or kwargs:
            raise Incompatible("np.linalg.slogdet(a)")
        matrix_arg(args[0], "slogdet", "matrix", stacked=True)
        t = result_dtype(args[0])
        need("zgetrf" if t.is_complex else "dgetrf", "slogdet")
        items = (t, real_of(t))
        if args[0].ndim > 2:
            items = tuple(T.ArrayType(i, args[0].ndim - 2, "C") for i in items)
        return _named("SlogdetResult", ("sign", "logabsdet"), items)

    def lower(self, L, call, args, kwargs):
        from ..python import operators as ops
        from . import solve_inv_det_algorithms as hl
        a = L.let(ew.materialize(L, args[0]))
        n = square(L, a)
        st, lt = call.type.items
        stacked = isinstance(st, T.ArrayType)
        if stacked:
            st, lt = st.dtype, lt.dtype
        w = work(L, st.is_complex, N.BinOp("mul", n, n, I))
        out = allocate(L, T.ArrayType(T.FLOAT64, 1, "C"), [C(3, I)])

        def one(m):
            L.call_helper(hl.slogdet_z if st.is_complex else hl.slogdet_d, [m, w, out])
            part = [L.let(N.Load(out, [C(k, I)], T.FLOAT64)) for k in range(3)]
            sign = N.MakeComplex(part[0], part[1], T.COMPLEX128) if st.is_complex \
                else part[0]
            return L.let(ops.convert(L, sign, st)), L.let(ops.convert(L, part[2], lt))
        if not stacked:
            return N.MakeTuple(list(one(a)), call.type)
        from .stacks import broadcast_stack, matrix_at, over_stack
        stack, (sa,) = broadcast_stack(L, [(a, 2)])
        signs, logs = (L.let(allocate(L, t, stack)) for t in call.type.items)

        def each(idx):
            sign, log = one(matrix_at(L, a, sa, idx, 2))
            L.emit(N.Store(array=signs, indices=idx, value=sign))
            L.emit(N.Store(array=logs, indices=idx, value=log))
        over_stack(L, stack, each)
        return N.MakeTuple([signs, logs], call.type)


@register
class Cond(CallTemplate):
    """``np.linalg.cond(x, p=None)`` with ``p`` None, 2 or -2: the ratio of the
    largest and smallest singular values (``?gesdd``) in their dtype, NaN made
    ``inf`` unless ``x`` holds a NaN; other norms fall back."""

    paths = ("numpy.linalg.cond",)

    def typer(self, inf, call, args, kwargs):
        if len(args) not in (1, 2) or set(kwargs) - {"p"} or (len(args) == 2 and kwargs):
            raise Incompatible("np.linalg.cond(x, p=None)")
        option(call, 1, "p", None, (None, 2, -2))
        matrix_arg(args[0], "cond", "matrix", stacked=True)
        t = result_dtype(args[0])
        need("zgesdd" if t.is_complex else "dgesdd", "cond")
        if args[0].ndim > 2:
            return T.ArrayType(real_of(t), args[0].ndim - 2, "C")
        return real_of(t)

    def lower(self, L, call, args, kwargs):
        import numpy as np
        from ..python import operators as ops
        p = option(call, 1, "p", None, (None, 2, -2))
        a = L.let(ew.materialize(L, args[0]))
        nd = a.type.ndim
        m, n = _shape(L, a, nd - 2), _shape(L, a, nd - 1)
        L.raise_if(N.Cmp("eq", N.BinOp("mul", m, n, I), C(0, I), T.BOOL),
                   np.linalg.LinAlgError, "cond is not defined on empty arrays")
        if nd > 2:
            return _stacked_cond(L, a, p, call.type)
        s, _, _ = singular_values(L, a)
        rt = call.type
        k = L.let(N.ArrayAttr(s, "shape", 0, I))
        first = L.let(ops.convert(L, N.Load(s, [C(0, I)], T.FLOAT64), rt))
        last = L.let(ops.convert(L, N.Load(s, [N.BinOp("sub", k, C(1, I), I)], T.FLOAT64),
                                 rt))
        r = L.let(N.BinOp("fdiv", last, first, rt) if p == -2
                  else N.BinOp("fdiv", first, last, rt))
        return L.let(ops.convert(L, L.call_helper(da.nan_unless_input_nan, [r, a]), rt))


def _stacked_cond(L, a, p, rt):
    """``cond`` of every matrix of the stack ``a``: ``s[..., 0] / s[..., -1]``
    (``p=-2``: the other way) of ``svd``'s singular values in their dtype, NaN
    made ``inf`` where the matrix holds no NaN."""
    from ..python import operators as ops
    from .solve_inv_det import stacked_singular_values
    from .stacks import broadcast_stack, matrix_at, over_stack
    st = rt.dtype
    s = stacked_singular_values(L, a, T.ArrayType(st, a.type.ndim - 1, "C"))
    stack, (sa,) = broadcast_stack(L, [(a, 2)])
    k = L.let(N.ArrayAttr(s, "shape", a.type.ndim - 2, I))
    out = L.let(allocate(L, rt, stack))

    def one(idx):
        first = L.let(N.Load(s, idx + [C(0, I)], st))
        last = L.let(N.Load(s, idx + [N.BinOp("sub", k, C(1, I), I)], st))
        r = L.let(N.BinOp("fdiv", last, first, st) if p == -2
                  else N.BinOp("fdiv", first, last, st))
        v = L.call_helper(da.nan_unless_input_nan, [r, matrix_at(L, a, sa, idx, 2)])
        L.emit(N.Store(array=out, indices=idx, value=ops.convert(L, v, st)))
    over_stack(L, stack, one)
    return out


for _routine in ("dgeqrf", "zgeqrf", "dorgqr", "zungqr"):
    register(Lapack(_routine))
