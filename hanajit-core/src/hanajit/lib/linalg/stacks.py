"""Stacks of matrices (arrays of more than two dimensions) for ``np.linalg``'s
gufuncs (``solve``, ``inv``, ``det``, ``slogdet``, ``cholesky``, ``eigvalsh``,
``svd(compute_uv=False)``/``svdvals``, ``matrix_rank`` and ``cond``): NumPy's
``_umath_linalg`` loops over the broadcast stack dimensions in C order and treats
each matrix as a 2-D call would, with the same LAPACK call on the same
Fortran-ordered copy.  Here the loop is the
same: for every stack index, views of the operands' matrices (and of the
C-ordered result's) go to the 2-D helpers of ``solve_inv_det_algorithms``, so
each matrix's result is the 2-D one, bit for bit.

As in NumPy, a singular matrix anywhere in the stack makes ``solve``/``inv``
raise ``LinAlgError`` (NumPy finishes its loop first, then raises: no result is
returned either way), ``det`` gives 0 for it.  Stack dimensions that do not
broadcast re-run in the interpreter for NumPy's ValueError.
"""
from __future__ import annotations

from ...errors import RERUN
from ...ir import nodes as N
from ...ir import types as T
from ..arrays.reductions import loops
from ..python.operators import C

I = T.INT64


def broadcast_stack(L, operands):
    """The broadcast stack dimensions of ``operands`` (``[(array, ncore)]``: the
    last ``ncore`` dimensions of each are its matrix or vector), and for each
    operand its stack axes aligned right to them (None where it has none)."""
    nd = max(x.type.ndim - core for x, core in operands)
    axes = [[None] * (nd - (x.type.ndim - core)) + list(range(x.type.ndim - core))
            for x, core in operands]
    stack = []
    for j in range(nd):
        dims = [L.let(N.ArrayAttr(x, "shape", ax[j], I))
                for (x, _), ax in zip(operands, axes) if ax[j] is not None]
        d = dims[0]
        for e in dims[1:]:
            bad = N.BinOp("and", N.Cmp("ne", d, e, T.BOOL), N.BinOp(
                "and", N.Cmp("ne", d, C(1, I), T.BOOL), N.Cmp("ne", e, C(1, I), T.BOOL),
                T.BOOL), T.BOOL)
            L.emit(N.If(cond=bad, then=[N.Raise(
                exc=ValueError, deopt=RERUN, line=L.line,
                message="np.linalg: the stack dimensions do not broadcast")]))
            d = L.let(N.Select(N.Cmp("eq", d, C(1, I), T.BOOL), e, d, I))
        stack.append(d)
    return stack, axes


def matrix_at(L, x, axes, idx, ncore, layout="A"):
    """The view of ``x``'s last ``ncore`` dimensions at the stack index ``idx``
    (a dimension of length 1 broadcast); ``x`` itself when it has no stack."""
    if all(k is None for k in axes):
        return x
    t = x.type
    offset = C(0, I)
    for k, i in zip(axes, idx):
        if k is None:
            continue
        n = N.ArrayAttr(x, "shape", k, I)
        i = N.Select(N.Cmp("eq", n, C(1, I), T.BOOL), C(0, I), i, I)
        offset = N.BinOp("add", offset, N.BinOp("mul", i, N.ArrayAttr(x, "stride", k, I),
                                                I), I)
    inner = list(range(t.ndim - ncore, t.ndim))
    return L.let(N.ArrayView(x, L.let(offset),
                             [N.ArrayAttr(x, "shape", k, I) for k in inner],
                             [N.ArrayAttr(x, "stride", k, I) for k in inner],
                             t.copy(ndim=ncore, layout=layout)))


def out_axes(stack):
    return list(range(len(stack)))


def over_stack(L, stack, body):
    """``body(idx)`` for every stack index, in C order (once without a stack)."""
    if not stack:
        body([])
    else:
        loops(L, stack, body)
