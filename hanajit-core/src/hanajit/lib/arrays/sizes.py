"""The one checked size computation behind every array compiled code allocates.

Every ``AllocArray`` is built by :func:`creation.allocate`, which first emits
:func:`check_dims`: NumPy's own check (``PyArray_NewFromDescr``), in NumPy's
order, so the same shapes raise the same ``ValueError`` before any memory is
touched::

    nbytes = itemsize
    for d in dims:            # left to right
        d == 0:  skipped      # (np.empty((0, 2**62, 4)) is still "too big")
        d < 0:   ValueError("negative dimensions are not allowed")
        nbytes * d > 2**63 - 1:  ValueError("array is too big; ...")
        nbytes *= d

Dimensions a library function computes from others (``np.repeat``'s
``n * repeats``, ``np.tile``'s ``n * reps``, ``np.concatenate``'s sum of
lengths) would wrap before reaching that check, so they are computed with
:func:`size_mul` / :func:`size_add`, which raise the same "too big" error
instead of wrapping.  A size that passes and that ``malloc`` still refuses
raises ``MemoryError`` (``lowering/llvm.py``: ``alloc``).

Example (``np.empty((n, m))``, float64)::

    if n < 0: raise ValueError("negative dimensions are not allowed")
    if n > 0 and n > 1152921504606846975: raise ValueError("array is too big; ...")
    $nb = select(n == 0, 8, 8 * n)
    if m < 0: raise ValueError(...)
    if m > 0 and m > sdiv(9223372036854775807, $nb): raise ValueError(...)
    $arr = AllocArray([n, m])
"""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T

TOO_BIG = ("array is too big; `arr.size * arr.dtype.itemsize` is larger than the "
           "maximum possible size.")
NEGATIVE = "negative dimensions are not allowed"
MAX_BYTES = 2**63 - 1          # PY_SSIZE_T_MAX on 64-bit hosts
I = T.INT64


def _c(v):
    return N.Const(v, I)


def _const(e):
    return e.value if isinstance(e, N.Const) else None


def _and(a, b):
    return N.BinOp("and", a, b, T.BOOL)


def _gt(a, b):
    return N.Cmp("gt", a, b, T.BOOL)


def _lt(a, b):
    return N.Cmp("lt", a, b, T.BOOL)


def itemsize(t: T.ArrayType) -> int:
    """Bytes per element of an array type (as ``AllocArray`` lowers it)."""
    return max(1, t.dtype.bits // 8)


def check_dims(L, dims: list, size: int) -> None:
    """Raise NumPy's ``ValueError`` when ``dims`` (int64 Consts/Vars) with
    ``size``-byte elements is not a valid array shape."""
    nbytes = _c(size)
    for d in dims:
        dv, nv = _const(d), _const(nbytes)
        if dv is not None and nv is not None:       # both known: decide now
            if dv < 0:
                L.raise_if(N.Const(True, T.BOOL), ValueError, NEGATIVE)
                return
            if dv > 0 and dv > MAX_BYTES // nv:
                L.raise_if(N.Const(True, T.BOOL), ValueError, TOO_BIG)
                return
            nbytes = _c(nv * dv if dv else nv)
            continue
        L.raise_if(_lt(d, _c(0)), ValueError, NEGATIVE)
        limit = _c(MAX_BYTES // nv) if nv is not None else \
            L.let(N.BinOp("sdiv", _c(MAX_BYTES), nbytes, I), "maxdim")
        L.raise_if(_gt(d, limit), ValueError, TOO_BIG)     # (d == 0 never is)
        nbytes = L.let(N.Select(N.Cmp("eq", d, _c(0), T.BOOL), nbytes,
                                N.BinOp("mul", nbytes, d, I), I), "nbytes")


def size_mul(L, a: N.Expr, b: N.Expr) -> N.Expr:
    """``a * b`` for a dimension ``a >= 0`` and a count ``b`` (of repeats), as
    NumPy sizes ``np.repeat``/``np.tile`` results: 0 when ``a`` is 0 (whatever
    ``b``), else "negative dimensions" for ``b < 0`` and "too big" where the
    product leaves int64 (NumPy's own product wraps there)."""
    a, b = L.let(a), L.let(b)
    av, bv = _const(a), _const(b)
    if av == 0:
        return _c(0)
    if av is not None and bv is not None and bv >= 0 and av * bv <= MAX_BYTES:
        return _c(av * bv)
    if av is not None:
        L.raise_if(_lt(b, _c(0)), ValueError, NEGATIVE)
        L.raise_if(_gt(b, _c(MAX_BYTES // av)), ValueError, TOO_BIG)
    else:
        nonzero = L.let(_gt(a, _c(0)), "nonzero")
        L.raise_if(_and(nonzero, _lt(b, _c(0))), ValueError, NEGATIVE)
        safe = L.let(N.Select(nonzero, a, _c(1), I), "div")
        L.raise_if(_and(nonzero, _gt(b, N.BinOp("sdiv", _c(MAX_BYTES), safe, I))),
                   ValueError, TOO_BIG)
    return L.let(N.Select(N.Cmp("eq", a, _c(0), T.BOOL), _c(0),
                          N.BinOp("mul", a, b, I), I), "dim")


def product_overflows(L, dims: list) -> N.Expr:
    """True when the product of ``dims`` (each ``>= 0``), taken left to right as
    NumPy's reshape does (a zero ends the growth), leaves int64."""
    acc, over = _c(1), N.Const(False, T.BOOL)
    for d in dims:
        if _const(d) is not None and _const(acc) is not None:
            dv, av = _const(d), _const(acc)
            if dv > 0 and av > MAX_BYTES // dv:
                return N.Const(True, T.BOOL)
            acc = _c(av * dv)
            continue
        safe = N.Select(_gt(d, _c(0)), d, _c(1), I)
        step = _and(_gt(d, _c(0)), _gt(acc, N.BinOp("sdiv", _c(MAX_BYTES), safe, I)))
        over = L.let(N.BinOp("or", over, step, T.BOOL), "over")
        acc = L.let(N.BinOp("mul", acc, d, I), "prod")
    return over


def size_add(L, a: N.Expr, b: N.Expr) -> N.Expr:
    """``a + b`` for two dimensions ``>= 0``: "too big" where the sum leaves
    int64."""
    a, b = L.let(a), L.let(b)
    av, bv = _const(a), _const(b)
    if av is not None and bv is not None and av + bv <= MAX_BYTES:
        return _c(av + bv)
    L.raise_if(_gt(a, N.BinOp("sub", _c(MAX_BYTES), b, I)), ValueError, TOO_BIG)
    return L.let(N.BinOp("add", a, b, I), "dim")
