"""The matmul loop over a stack of matrices as NumPy runs it when every matrix
goes to BLAS without copies: one decision for the whole stack (the strides are
the same for each matrix), then one ``gemm`` per matrix.  Compiled as hanajit
helpers (``lib/linalg/batched.py``); where NumPy's loop does anything else for
these matrices (vectors, empty or single-row ones, copies, ``syrk``) they return
0 and each matrix goes through the 2-D product instead."""
from __future__ import annotations

from .. import prims
from .dot_algorithms import ROW_MAJOR, blas_operand


def matmul_stack(a, b, out, count, sa, sb, so):
    """``count`` products ``a @ b`` into ``out`` -- ``a``, ``b``, ``out`` the first
    matrices, the next ones ``sa``, ``sb``, ``so`` bytes on (0: the same matrix,
    broadcast) -- or 0 (nothing done) where NumPy's loop would not call ``gemm``
    on the operands as they are."""
    m = a.shape[0]
    n = a.shape[1]
    p = b.shape[1]
    size = a.itemsize
    if m <= 1 or n <= 1 or p <= 1:
        return 0
    s1_m = a.strides[0]
    s1_n = a.strides[1]
    s2_n = b.strides[0]
    s2_p = b.strides[1]
    trans1, lda = blas_operand(s1_m, s1_n, m, n, size)
    trans2, ldb = blas_operand(s2_n, s2_p, n, p, size)
    if trans1 == 0 or trans2 == 0:
        return 0
    if m == p and s1_m == s2_p and s1_n == s2_n and trans1 != trans2:
        return 0            # a matrix times its own transpose (syrk) may be among them
    p1 = prims.address(a)
    p2 = prims.address(b)
    po = prims.address(out)
    for i in range(count):
        prims.blas_gemm(a, ROW_MAJOR, trans1, trans2, m, p, n, 1.0, p1 + i * sa, lda,
                        p2 + i * sb, ldb, 0.0, po + i * so, p)
    return 1
