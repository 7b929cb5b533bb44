"""``a @ b`` / ``np.matmul`` of stacks of matrices (an operand of three or more
dimensions): NumPy's matmul loop runs over the broadcast stack dimensions and
computes each matrix (or vector) product as a 2-D ``@`` does -- its BLAS call
where the matrices' strides allow it, its own loops elsewhere -- so each is the
2-D product of ``dot.product_into`` on views of the operands, into the C-ordered
result.  A stack every matrix of which NumPy hands to ``gemm`` as it is takes one
helper call for all (``stack_algorithms``: NumPy's one decision, then a ``gemm``
per matrix), not a call per matrix.  Stack dimensions that do not broadcast, like inner dimensions that do
not match, re-run in the interpreter for NumPy's ValueError."""
from __future__ import annotations

from ...typing_rules import Incompatible, promote
from ...errors import RERUN
from ...ir import nodes as N
from ...ir import types as T
from ..arrays.creation import allocate
from ..arrays.reductions import loops
from ..python.operators import C

I = T.INT64


def batched_type(a: T.ArrayType, b: T.ArrayType) -> T.ArrayType:
    t = promote(a.dtype, b.dtype)
    if t.is_bool:
        raise Incompatible("@ of boolean arrays")
    stack = max(a.ndim - 2, b.ndim - 2, 0)
    return T.ArrayType(t, stack + (a.ndim >= 2) + (b.ndim >= 2), "C")


def _stack_dims(x, nd):
    """``x``'s stack dimensions aligned right to ``nd`` (None where it has none)."""
    own = max(x.type.ndim - 2, 0)
    return [None] * (nd - own) + [k for k in range(own)]


def batched(L, a, b, rt: T.ArrayType, product):
    """``a @ b`` into a new array of type ``rt``; ``product(a2, b2, out2)`` makes
    one product of 2-D/1-D views into the view ``out2``."""
    ta, tb = a.type, b.type
    nd = rt.ndim - (ta.ndim >= 2) - (tb.ndim >= 2)
    axes_a, axes_b = _stack_dims(a, nd), _stack_dims(b, nd)

    def dim(x, k):
        return C(1, I) if k is None else L.let(N.ArrayAttr(x, "shape", k, I))
    stack = []
    for ka, kb in zip(axes_a, axes_b):
        da, db = dim(a, ka), dim(b, kb)
        bad = N.BinOp("and", N.Cmp("ne", da, db, T.BOOL), N.BinOp(
            "and", N.Cmp("ne", da, C(1, I), T.BOOL), N.Cmp("ne", db, C(1, I), T.BOOL),
            T.BOOL), T.BOOL)
        L.emit(N.If(cond=bad, then=[N.Raise(
            exc=ValueError, deopt=RERUN, line=L.line,
            message="matmul: the stack dimensions do not broadcast")]))
        stack.append(L.let(N.Select(N.Cmp("eq", da, C(1, I), T.BOOL), db, da, I)))
    core = []
    if ta.ndim >= 2:
        core.append(L.let(N.ArrayAttr(a, "shape", ta.ndim - 2, I)))
    if tb.ndim >= 2:
        core.append(L.let(N.ArrayAttr(b, "shape", tb.ndim - 1, I)))
    out = L.let(allocate(L, rt, stack + core))

    def matrix(x, axes, idx, layout, ncore):
        """The matrix (or vector: ``ncore`` dimensions) of ``x`` at the stack
        index ``idx``."""
        t = x.type
        offset = C(0, I)
        for k, i in zip(axes, idx):
            if k is None:
                continue
            n = N.ArrayAttr(x, "shape", k, I)
            i = N.Select(N.Cmp("eq", n, C(1, I), T.BOOL), C(0, I), i, I)   # broadcast
            offset = N.BinOp("add", offset, N.BinOp(
                "mul", i, N.ArrayAttr(x, "stride", k, I), I), I)
        inner = list(range(t.ndim - ncore, t.ndim))
        return L.let(N.ArrayView(x, L.let(offset),
                                 [N.ArrayAttr(x, "shape", k, I) for k in inner],
                                 [N.ArrayAttr(x, "stride", k, I) for k in inner],
                                 t.copy(ndim=len(inner), layout=layout)))

    def body(idx):
        out2 = matrix(out, list(range(nd)), idx, "C", len(core))
        product(matrix(a, axes_a, idx, "A", min(ta.ndim, 2)),
                matrix(b, axes_b, idx, "A", min(tb.ndim, 2)), out2)
    whole = None
    if nd == 1 and ta.ndim >= 2 and tb.ndim >= 2 and _one_blas_dtype(L, ta, tb):
        whole = _stack_at_once(L, a, b, out, axes_a, axes_b, stack[0], matrix)
    per_matrix = L.sub_block(lambda: loops(L, stack, body))[0]
    if whole is None:
        L.out.extend(per_matrix)
    else:
        L.emit(N.If(cond=N.Cmp("eq", whole, C(0, I), T.BOOL), then=per_matrix))
    return out


def _one_blas_dtype(L, ta, tb):
    from .dot import uses_numpys_blas
    return ta.dtype == tb.dtype and uses_numpys_blas(L, ta, tb)


def _stack_at_once(L, a, b, out, axes_a, axes_b, count, matrix):
    """One helper call for a stack of matrices every one of which NumPy hands to
    ``gemm`` as it is (``stack_algorithms.matmul_stack``): 1 when done, else 0."""
    from . import stack_algorithms as hb
    zero = [C(0, I)]

    def step(x, k):
        if k is None:
            return C(0, I)
        n = N.ArrayAttr(x, "shape", k, I)
        return L.let(N.Select(N.Cmp("eq", n, C(1, I), T.BOOL), C(0, I),
                              N.ArrayAttr(x, "stride", k, I), I))
    first_a = matrix(a, axes_a, zero, "A", 2)
    first_b = matrix(b, axes_b, zero, "A", 2)
    first_out = matrix(out, [0], zero, "C", 2)
    done = L.temp(I, "stack")
    L.emit(N.Assign(target=done, value=C(1, I)))
    call, v = L.sub_block(lambda: L.call_helper(hb.matmul_stack, [
        first_a, first_b, first_out, count, step(a, axes_a[0]), step(b, axes_b[0]),
        N.ArrayAttr(out, "stride", 0, I)]))
    L.emit(N.If(cond=N.Cmp("gt", count, C(0, I), T.BOOL),
                then=call + [N.Assign(target=done, value=v)]))
    return N.Var(done, I)
