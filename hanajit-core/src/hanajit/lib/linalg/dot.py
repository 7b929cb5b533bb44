"""``np.dot``, ``@`` and ``np.vdot`` of 1-D and 2-D arrays: NumPy's own BLAS calls
with NumPy's copies and special cases where NumPy makes them (``blas.py``,
``dot_algorithms.py``), NumPy's loops elsewhere."""
from __future__ import annotations


from ...typing_rules import Incompatible, promote
from ...errors import RERUN
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..python import operators as ops
from ..arrays.creation import allocate, fill
from ..python.operators import C
from ..arrays.reductions import loops, total_size
from ..registry import CallTemplate, register

I = T.INT64


def dot_type(a, b, matmul=False):
    """The type of ``np.dot(a, b)``, or with ``matmul`` of ``a @ b``, whose
    operands may be stacks of matrices (``batched``)."""
    if not (isinstance(a, T.ArrayType) and isinstance(b, T.ArrayType)):
        raise Incompatible("np.dot / @ of arrays only")
    if matmul and (a.ndim > 2 or b.ndim > 2) and min(a.ndim, b.ndim) >= 1:
        from .batched import batched_type
        return batched_type(a, b)
    if a.ndim not in (1, 2) or b.ndim not in (1, 2):
        raise Incompatible("np.dot of 1-D and 2-D arrays only (@ of stacks too)")
    t = promote(a.dtype, b.dtype)
    if t.is_bool:
        raise Incompatible("np.dot of boolean arrays")
    nd = a.ndim + b.ndim - 2
    return t if nd == 0 else T.ArrayType(t, nd, "C")


def uses_numpys_blas(L, ta, tb) -> bool:
    """Do products of these arrays call NumPy's own BLAS as NumPy does
    (``dot_algorithms``)?  For two arrays of one float or complex dtype, when
    NumPy's BLAS is its wheels' OpenBLAS and the target's code calls into this
    process (``Capabilities.host_calls``)."""
    from . import blas
    return (ta.dtype == tb.dtype and blas.blas_dtype(ta.dtype)
            and L.ctx.capabilities.host_calls and blas.available())


def _cast_copy(L, x, t, keep_order):
    """``x`` cast to ``t`` as NumPy casts an operand of a product: a new array,
    for ``np.dot`` (``keep_order``) in ``x``'s memory order (a 2-D view: Fortran
    order where its first axis has the smaller stride), for ``matmul`` (a ufunc,
    whose iterator copies) in C order -- which decides how BLAS reads it."""
    from ..arrays.methods import copy_array
    xt = x.type

    def copy(layout):
        cast = ew.lift(L, [x], xt.copy(dtype=t, layout="C", readonly=False),
                       lambda v: ops.convert(L, v, t))
        return copy_array(L, cast, xt.copy(dtype=t, layout=layout, readonly=False))
    if xt.ndim != 2 or xt.layout == "C" or not keep_order:
        return L.let(copy("C"))
    if xt.layout == "F":
        return L.let(copy("F"))
    out_t = xt.copy(dtype=t, layout="A", readonly=False)
    out = L.temp(out_t, "cast")
    s0, s1 = (N.Intrinsic("smax", [s, N.BinOp("sub", C(0, I), s, I)], I)
              for s in (N.ArrayAttr(x, "stride", k, I) for k in (0, 1)))

    def as_any(layout):             # (the copy seen as of any layout)
        v = L.let(copy(layout))
        return N.ArrayView(v, C(0, I), [N.ArrayAttr(v, "shape", k, I) for k in (0, 1)],
                           [N.ArrayAttr(v, "stride", k, I) for k in (0, 1)], out_t)
    f_stmts, f_copy = L.sub_block(lambda: as_any("F"))
    c_stmts, c_copy = L.sub_block(lambda: as_any("C"))
    L.emit(N.If(cond=N.Cmp("lt", s0, s1, T.BOOL),
                then=f_stmts + [N.Assign(target=out, value=f_copy)],
                orelse=c_stmts + [N.Assign(target=out, value=c_copy)]))
    return N.Var(out, out_t)


def dot(L, a, b, rt, kind="dot"):
    """Matrix/vector products: ``kind`` "dot" (``np.dot``, ``.dot``) or "matmul"
    (``@``, ``np.matmul``).  Operands of one BLAS dtype go through NumPy's own
    BLAS as NumPy's code does (``dot_algorithms``), with NumPy's own loops where it
    runs them; other products are those loops: sequential sums in k order."""
    a, b = L.let(ew.materialize(L, a)), L.let(ew.materialize(L, b))
    t = rt.dtype if isinstance(rt, T.ArrayType) else rt
    if a.type.dtype != b.type.dtype and uses_numpys_blas(
            L, T.ArrayType(t, 1, "C"), T.ArrayType(t, 1, "C")):
        # operands of two dtypes: NumPy casts each to the result's, then its BLAS
        a, b = (x if x.type.dtype == t else _cast_copy(L, x, t, kind == "dot")
                for x in (a, b))
    ta, tb = a.type, b.type
    ka = N.ArrayAttr(a, "shape", ta.ndim - 1, I)
    kb = N.ArrayAttr(b, "shape", max(tb.ndim - 2, 0), I)
    L.emit(N.If(cond=N.Cmp("ne", ka, kb, T.BOOL), then=[N.Raise(
        exc=ValueError, args=[ka, kb], deopt=RERUN,
        message="shapes not aligned: {} (dim of a) != {} (dim 0 of b)")]))
    if ta.ndim > 2 or tb.ndim > 2:
        from .batched import batched
        return batched(L, a, b, rt, lambda a2, b2, out2: product_into(L, a2, b2, out2, kind))
    if ta.ndim == 1 and tb.ndim == 1 and uses_numpys_blas(L, ta, tb):
        return _blas_vv(L, a, b, t, kind)
    return product_into(L, a, b, rt, kind)


def product_into(L, a, b, rt, kind):
    """The product of the 1-D or 2-D arrays ``a`` and ``b`` (their inner
    dimensions checked) into ``rt``: a new array of that type, or when ``rt`` is
    an array value, into it (one matrix of a stack)."""
    out_given = None if isinstance(rt, T.Type) else rt
    if out_given is not None:
        rt = out_given.type
    t = rt.dtype if isinstance(rt, T.ArrayType) else rt
    ta, tb = a.type, b.type
    kdim = L.let(N.ArrayAttr(a, "shape", ta.ndim - 1, I))

    def acc_over(fixed_a, fixed_b):
        acc = L.temp(t, "acc")
        L.emit(N.Assign(target=acc, value=ops.zero(t)))

        def body(idx):
            k = idx[0]
            x = ops.convert(L, N.Load(a, fixed_a(k), ta.dtype), t)
            y = ops.convert(L, N.Load(b, fixed_b(k), tb.dtype), t)
            prod = ops.complex_arith(L, "mul", x, y, t) if t.is_complex else N.BinOp("mul", x, y, t)
            cur = N.Var(acc, t)
            L.emit(N.Assign(target=acc, value=ops.complex_arith(L, "add", cur, prod, t)
                            if t.is_complex else N.BinOp("add", cur, prod, t)))
        loops(L, [kdim], body)
        return N.Var(acc, t)

    if ta.ndim == 1 and tb.ndim == 1:
        return acc_over(lambda k: [k], lambda k: [k])
    blas = uses_numpys_blas(L, ta, tb)

    def product(dims, element, helper):
        """``out`` of ``dims`` filled by NumPy's BLAS calls (``helper``, which
        returns 0 where NumPy runs its own loops) or by those loops."""
        out = allocate(L, rt, dims) if out_given is None else out_given
        loops_ = L.sub_block(lambda: fill(L, out, dims, element))[0]
        if not blas:
            L.out.extend(loops_)
            return out
        from . import dot_algorithms as hb
        done = L.let(L.call_helper(getattr(hb, f"{kind if kind == 'matmul' else 'np_dot'}_"
                                           f"{helper}"), [a, b, out, ops.zero(t)]))
        L.emit(N.If(cond=N.Cmp("eq", done, C(0, I), T.BOOL), then=loops_))
        return out

    if ta.ndim == 2 and tb.ndim == 1:
        dims = [L.let(N.ArrayAttr(a, "shape", 0, I))]
        return product(dims, lambda idx: acc_over(lambda k: [idx[0], k], lambda k: [k]),
                       "mv")
    if ta.ndim == 1 and tb.ndim == 2:
        dims = [L.let(N.ArrayAttr(b, "shape", 1, I))]
        return product(dims, lambda idx: acc_over(lambda k: [k], lambda k: [k, idx[0]]),
                       "vm")
    dims = [L.let(N.ArrayAttr(a, "shape", 0, I)), L.let(N.ArrayAttr(b, "shape", 1, I))]
    return product(dims, lambda idx: acc_over(lambda k: [idx[0], k], lambda k: [k, idx[1]]),
                   "mm")


def _blas_vv(L, a, b, t, kind):
    """The product of two vectors of one BLAS dtype as NumPy computes it.  The
    usual case -- two or more elements, positive strides BLAS takes -- is tested
    here and calls ``cblas_?dot`` with numbers only (``dot_algorithms.dot_at``),
    so the arrays are not handed to a helper (no reference counting); the rest
    (one element, copies of bad strides, NumPy's own loops) is
    ``dot_algorithms.np_dot_vv_*``/``matmul_vv_*``."""
    from . import dot_algorithms as hb
    size = C(t.bits // 8, I)
    n = L.let(N.ArrayAttr(a, "shape", 0, I))
    at = [L.let(N.ArrayAttr(x, "data", 0, I)) for x in (a, b)]
    st = [L.let(N.ArrayAttr(x, "strides", 0, I)) for x in (a, b)]
    # one element: np.dot multiplies it directly; complex ``@`` runs NumPy's loop
    # without BLAS (cblas_zdotu_sub of one element gives NaN where the product is
    # infinite); real ``@`` calls BLAS, which gives the product
    ok = N.Cmp("ge", n, C(2 if kind == "dot" or t.is_complex else 1, I), T.BOOL)
    for s in st:            # blas_stride: a positive multiple of the item size
        ok = ops.band(ok, ops.band(N.Cmp("gt", s, C(0, I), T.BOOL), N.Cmp(
            "eq", N.BinOp("and", s, C(t.bits // 8 - 1, I), I), C(0, I), T.BOOL)))
    if kind == "dot":       # _bad_strides also copies misaligned arrays
        for p in at:
            ok = ops.band(ok, N.Cmp("eq", N.BinOp("and", p, C(t.bits // 8 - 1, I), I),
                                    C(0, I), T.BOOL))
    res = L.temp(t, "dot")
    fast = L.sub_block(lambda: L.emit(N.Assign(target=res, value=L.call_helper(
        hb.dot_at_complex if t.is_complex else hb.dot_at,
        [ops.zero(t), n, at[0], N.BinOp("sdiv", st[0], size, I), at[1],
         N.BinOp("sdiv", st[1], size, I)]))))
    part = "complex" if t.is_complex else "real"
    helper = getattr(hb, f"{'np_dot' if kind == 'dot' else 'matmul'}_vv_{part}")
    slow = L.sub_block(lambda: L.emit(N.Assign(target=res, value=ops.convert(
        L, L.call_helper(helper, [a, b]), t))))
    L.emit(N.If(cond=ok, then=fast[0], orelse=slow[0]))
    return N.Var(res, t)


@register
class Dot(CallTemplate):
    paths = ("numpy.dot", "numpy.matmul")
    accepts_lazy = True

    def typer(self, inf, call, args, kwargs):
        if len(args) != 2 or kwargs:
            raise Incompatible("np.dot(a, b)")
        import numpy
        return dot_type(*args, matmul=call.callee is numpy.matmul)

    def lower(self, L, call, args, kwargs):
        import numpy
        kind = "matmul" if call.callee is numpy.matmul else "dot"
        return dot(L, args[0], args[1], call.type, kind)


@register
class Inner(CallTemplate):
    """``np.inner(a, b)`` of arrays of one or two dimensions: NumPy's
    ``dot(a, b)`` for a 1-D ``b``, ``dot(a, b.T)`` for a 2-D one (its inner product
    is that matrix product, the same BLAS call)."""

    paths = ("numpy.inner",)
    accepts_lazy = True

    def typer(self, inf, call, args, kwargs):
        if len(args) != 2 or kwargs or not all(
                isinstance(a, T.ArrayType) and 1 <= a.ndim <= 2 for a in args):
            raise Incompatible("np.inner(a, b) of arrays of one or two dimensions")
        b = args[1]
        if b.ndim == 2:
            b = b.copy(layout={"C": "F", "F": "C"}.get(b.layout, "A"))
        return dot_type(args[0], b)

    def lower(self, L, call, args, kwargs):
        from ..arrays.shape import transpose
        a, b = args
        if b.type.ndim == 2:
            b = transpose(L, L.let(ew.materialize(L, b)))
        return dot(L, a, b, call.type, "dot")


@register
class Vdot(CallTemplate):
    """``np.vdot(a, b)``: both flattened, the first conjugated.  Arrays of one float
    or complex dtype go through NumPy's BLAS as NumPy's ``vdot`` does
    (``dot_algorithms``); integer arrays add their products in order, as NumPy."""

    paths = ("numpy.vdot",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 2 or kwargs or not all(isinstance(a, T.ArrayType) for a in args):
            raise Incompatible("np.vdot(a, b) of arrays")
        ta, tb = (a.dtype for a in args)
        if ta == tb and (ta.is_float or ta.is_complex):
            if any(a.ndim > 2 and a.layout != "C" for a in args):
                raise Incompatible("np.vdot() of a float array of 3 or more dimensions "
                                   "that is not C-contiguous")
            return ta
        if ta.is_int and tb.is_int and not ta.is_bool and not tb.is_bool \
                and promote(ta, tb).is_int:
            return promote(ta, tb)
        raise Incompatible("np.vdot(a, b) of arrays of one float or complex dtype, or "
                           "of integers")

    def lower(self, L, call, args, kwargs):
        a, b = (L.let(ew.materialize(L, x)) for x in args)
        t = call.type
        na = L.let(total_size([N.ArrayAttr(a, "shape", k, I) for k in range(a.type.ndim)]))
        nb = L.let(total_size([N.ArrayAttr(b, "shape", k, I) for k in range(b.type.ndim)]))
        L.raise_if(N.Cmp("ne", na, nb, T.BOOL), ValueError,
                   "vectors have different lengths")
        from . import dot_algorithms as hb
        if t.is_int:
            helper = hb.vdot_int
        elif uses_numpys_blas(L, a.type, b.type):
            helper = hb.vdot_complex if t.is_complex else hb.vdot_real
        else:           # (other targets: the loop NumPy runs without BLAS)
            helper = hb.vdot_loop_complex if t.is_complex else hb.vdot_loop_real
        return ops.convert(L, L.call_helper(helper, [a, b]), t)


METHODS = {"dot": Dot()}
