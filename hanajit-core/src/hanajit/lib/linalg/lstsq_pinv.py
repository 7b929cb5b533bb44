"""``np.linalg.lstsq(a, b, rcond=None)`` and ``np.linalg.pinv(a, rcond=None,
hermitian=False, *, rtol)`` of 2-D arrays, as NumPy computes them
(``lstsq_pinv_algorithms``): NumPy's results bit for bit.

``lstsq`` calls ``?gelsd`` of NumPy's own LAPACK on the copies NumPy's
``_umath_linalg.lstsq`` makes and returns NumPy's plain 4-tuple ``(x, residuals,
rank, s)`` -- ``rank`` an ``np.int32`` -- in NumPy's dtypes (float32/complex64
results when every input is float32/complex64).  NaN or infinity in ``a`` reach
the same LAPACK call as in NumPy (whose ``?gelsd`` then reports an illegal
argument and may not return, as NumPy does).  ``pinv`` follows NumPy's Python source:
``svd(conjugate(a), full_matrices=False)``, the cutoff in NumPy's dtype,
reciprocals of the large singular values, and ``matmul`` of the transposed views
(hanajit's matmul calls BLAS on them as NumPy's does); ``hermitian=True`` is
NumPy's eigh-based svd (``_hermitian_svd``).  Stacks of matrices and array
``rcond``s fall back; ``lstsq`` of arrays that are not 2-D (a 1-D ``b`` aside)
raises NumPy's LinAlgError.
"""
from __future__ import annotations

import numpy as np

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..arrays import elementwise as ew
from ..arrays.creation import allocate, fill
from ..python.operators import C
from ..registry import CallTemplate, register
from . import lstsq_pinv_algorithms as la
from .solve_inv_det import Lapack, matrix_arg, need, option, real_of, result_dtype

I = T.INT64
F8 = T.FLOAT64


def _node(call, pos, name):
    """The argument node of ``name`` (keyword, or positional at ``pos``), or None."""
    if name in call.kwargs:
        return call.kwargs[name]
    return call.args[pos] if pos is not None and len(call.args) > pos else None


def _is_none(node) -> bool:
    return isinstance(node, N.Const) and node.value is None


def _arg_type(args, kwargs, pos, name):
    return kwargs[name] if name in kwargs else args[pos]


def _number(t, what) -> T.Scalar:
    """The dtype of a scalar ``rcond``/``rtol``: int64, float64 or float32 only."""
    if not isinstance(t, T.Scalar) or t not in (I, F8, T.FLOAT32):
        raise Incompatible(f"np.linalg.{what} of {t} (an int or float scalar only)")
    return t


@register
class Lstsq(CallTemplate):
    """``np.linalg.lstsq(a, b, rcond=None)``: ``(x, residuals, rank, s)``."""

    paths = ("numpy.linalg.lstsq",)

    def typer(self, inf, call, args, kwargs):
        if len(args) not in (2, 3) or set(kwargs) - {"rcond"} or (len(args) == 3 and kwargs):
            raise Incompatible("np.linalg.lstsq(a, b, rcond=None)")
        a, b = args[:2]
        for x in (a, b):
            if not (isinstance(x, T.ArrayType) and isinstance(x.dtype, T.Scalar)):
                raise Incompatible(f"np.linalg.lstsq() of {x} (arrays only)")
        if not _is_none(_node(call, 2, "rcond")) and _node(call, 2, "rcond") is not None:
            rt = _arg_type(args, kwargs, 2, "rcond")     # any real scalar: a double
            if not isinstance(rt, T.Scalar) or rt.is_complex:
                raise Incompatible(f"np.linalg.lstsq(rcond=...) of {rt} (a real scalar only)")
        t = result_dtype(a, b)
        need("zgelsd" if t.is_complex else "dgelsd", "lstsq")
        r = T.ArrayType(real_of(t), 1, "C")
        return T.TupleType((T.ArrayType(t, 1 if b.ndim == 1 else 2, "C"), r, T.INT32, r))

    def lower(self, L, call, args, kwargs):
        from ..python import operators as ops
        a, b = (L.let(ew.materialize(L, x)) for x in args[:2])
        xt, rt, _, st = call.type.items
        bad = next((x.type.ndim for x in (a, b) if x.type.ndim != 2 and (
            x is a or x.type.ndim != 1)), None)
        if bad is not None:                    # NumPy's _assert_2d
            L.raise_if(C(True, T.BOOL), np.linalg.LinAlgError,
                       f"{bad}-dimensional array given. Array must be two-dimensional")
            zero = [C(0, I)] * xt.ndim
            return N.MakeTuple([allocate(L, xt, zero), allocate(L, rt, [C(0, I)]),
                                C(0, T.INT32), allocate(L, st, [C(0, I)])], call.type)
        m = L.let(N.ArrayAttr(a, "shape", 0, I))
        n = L.let(N.ArrayAttr(a, "shape", 1, I))
        L.raise_if(N.Cmp("ne", m, N.ArrayAttr(b, "shape", 0, I), T.BOOL),
                   np.linalg.LinAlgError, "Incompatible dimensions")
        one = b.type.ndim == 1
        nrhs = C(1, I) if one else L.let(N.ArrayAttr(b, "shape", 1, I))
        node = args[2] if len(args) == 3 else kwargs.get("rcond")
        big = L.let(N.Select(N.Cmp("gt", m, n, T.BOOL), m, n, I))
        if node is None or node.type == T.NONE:      # finfo(double).eps * max(n, m)
            rcond = L.let(N.BinOp("mul", C(float(np.finfo(np.float64).eps), F8),
                                  ops.convert(L, big, F8), F8))
        else:
            rcond = L.let(ops.convert(L, node, F8))
        k = L.let(N.Select(N.Cmp("lt", m, n, T.BOOL), m, n, I))
        x = allocate(L, xt, [n] if one else [n, nrhs])
        s = allocate(L, st, [k])
        rw = allocate(L, T.ArrayType(F8, 1, "C"), [nrhs])
        z = xt.dtype.is_complex
        helper = (la.lstsq1_z if z else la.lstsq1_d) if one else (
            la.lstsq_z if z else la.lstsq_d)
        rank = L.let(ops.convert(L, L.call_helper(helper, [a, b, x, s, rw, rcond]), I))
        # the residuals only when the rank is n and m > n, else an empty array
        full = N.Select(N.Cmp("gt", m, n, T.BOOL), nrhs, C(0, I), I)
        count = L.let(N.Select(N.Cmp("eq", rank, n, T.BOOL), full, C(0, I), I))
        res = allocate(L, rt, [count])
        fill(L, res, [count],
             lambda idx: ops.convert(L, N.Load(rw, [idx[0]], F8), rt.dtype))
        return N.MakeTuple([x, res, L.let(ops.convert(L, rank, T.INT32)), s], call.type)


@register
class Pinv(CallTemplate):
    """``np.linalg.pinv(a, rcond=None, hermitian=False, *, rtol=<no value>)``."""

    paths = ("numpy.linalg.pinv",)

    def typer(self, inf, call, args, kwargs):
        if not 1 <= len(args) <= 3 or set(kwargs) - {"rcond", "hermitian", "rtol"}:
            raise Incompatible("np.linalg.pinv(a, rcond=None, hermitian=False, *, rtol)")
        hermitian = option(call, 2, "hermitian", False, (False, True))
        matrix_arg(args[0], "pinv", "matrix")
        t = result_dtype(args[0])
        if hermitian:
            need("zheevd" if t.is_complex else "dsyevd", "pinv")
        else:
            need("zgesdd" if t.is_complex else "dgesdd", "pinv")
        self.cutoff(call, args, kwargs, args[0])
        return T.ArrayType(t, 2, "C")

    @staticmethod
    def cutoff(call, args, kwargs, a):
        """``(kind, dtype)`` of NumPy's ``rcond``: kind 'default' (1e-15), 'eps'
        (``max(m, n) * finfo(a.dtype).eps``), 'value' or 'both' (ValueError);
        dtype that of ``rcond * amax(s)``."""
        real = real_of(result_dtype(a))
        rcond, rtol = _node(call, 1, "rcond"), _node(call, None, "rtol")
        if rcond is not None and not _is_none(rcond):
            vt = _number(_arg_type(args, kwargs, 1, "rcond"), "pinv(rcond=...)")
            kind = "value" if rtol is None else "both"
        elif rtol is None:
            return "default", F8
        elif _is_none(rtol):
            if not (a.dtype.is_float or a.dtype.is_complex):
                raise Incompatible("np.linalg.pinv(rtol=None) of an integer array "
                                   "(NumPy's finfo raises)")
            return "eps", real
        else:
            vt = _number(kwargs["rtol"], "pinv(rtol=...)")
            kind = "value"
        return kind, (real if vt == T.FLOAT32 else F8)

    def lower(self, L, call, args, kwargs):
        from ..python import operators as ops
        a = L.let(ew.materialize(L, args[0]))
        kind, ct = self.cutoff(call, [x.type for x in args],
                               {k: v.type for k, v in kwargs.items()}, a.type)
        m = L.let(N.ArrayAttr(a, "shape", 0, I))
        n = L.let(N.ArrayAttr(a, "shape", 1, I))
        if kind == "both":
            L.raise_if(C(True, T.BOOL), ValueError, "`rtol` and `rcond` can't be both set.")
        if kind == "default":
            value = C(1e-15, F8)
        elif kind == "eps":
            big = N.Select(N.Cmp("gt", m, n, T.BOOL), m, n, I)
            eps = np.finfo(np.float32 if ct == T.FLOAT32 else np.float64).eps
            value = N.BinOp("mul", ops.convert(L, big, ct), C(float(eps), ct), ct)
        else:
            node = args[1] if len(args) > 1 else kwargs.get("rcond")
            if node is None or node.type == T.NONE:
                node = kwargs["rtol"]
            value = node
        rc = allocate(L, T.ArrayType(ct, 1, "C"), [C(1, I)])
        L.emit(N.Store(array=rc, indices=[C(0, I)], value=L.let(ops.convert(L, value, ct))))
        at = a.type.dtype
        if not (at.is_float or at.is_complex):
            # NumPy returns an empty array of a's own dtype: re-run there
            L.emit(N.If(cond=N.Cmp("eq", N.BinOp("mul", m, n, I), C(0, I), T.BOOL),
                        then=[N.Raise(exc=ValueError, deopt=True, line=L.line,
                                      message="np.linalg.pinv() of an empty integer "
                                              "array (an integer result)")]))
        proto = allocate(L, call.type, [C(0, I), C(0, I)])
        hermitian = option(call, 2, "hermitian", False, (False, True))
        if hermitian:
            helper = la.pinv_hermitian_complex if at.is_complex else la.pinv_hermitian_real
        else:
            helper = la.pinv_complex if at.is_complex else la.pinv_real
        r = L.call_helper(helper, [a, rc, proto])
        return ops.convert(L, r, call.type)


for _routine in ("dgelsd", "zgelsd"):
    register(Lapack(_routine))
