"""Shape and linear-algebra operations: ``.T``/``np.transpose``, ``reshape``,
``ravel``, ``cumsum``/``cumprod``, ``np.dot`` and ``@`` (1-D and 2-D)."""
from __future__ import annotations

import functools

from ...typing_rules import Incompatible, promote
from ...ir import nodes as N
from ...ir import types as T
from . import elementwise as ew
from ..python import operators as ops
from .sizes import check_dims, product_overflows, size_add
from ..complex.product_forms import cmul
from .creation import allocate, dtype_of, fill
from ..python.operators import C
from .reductions import loops, sum_dtype, total_size
from ..registry import CallTemplate, register

I = T.INT64


def transpose(L, arr: N.Expr) -> N.Expr:
    arr = L.let(arr)
    t = arr.type
    n = t.ndim
    layout = {"C": "F", "F": "C"}.get(t.layout, "A")
    return N.ArrayView(arr, C(0, I), [N.ArrayAttr(arr, "shape", k, I) for k in reversed(range(n))],
                       [N.ArrayAttr(arr, "stride", k, I) for k in reversed(range(n))],
                       t.copy(layout=layout))


@register
class Transpose(CallTemplate):
    paths = ("numpy.transpose",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or kwargs or not isinstance(args[0], T.ArrayType):
            raise Incompatible("np.transpose(a) without axes")
        t = args[0]
        return t.copy(layout={"C": "F", "F": "C"}.get(t.layout, "A"))

    def lower(self, L, call, args, kwargs):
        return transpose(L, args[0])


def _shape_arg_types(args):
    if len(args) == 1 and isinstance(args[0], T.TupleType):
        items = args[0].items
    else:
        items = args
    if not items or not all(isinstance(t, T.Scalar) and t.is_int for t in items):
        raise Incompatible("reshape() takes integers or a tuple of integers")
    return len(items)


class Reshape(CallTemplate):
    accepts_lazy = True

    def typer(self, inf, call, args, kwargs):
        if kwargs:
            raise Incompatible("reshape() keyword arguments")
        if self.paths and len(args) != 2:
            # np.reshape(a, newshape): a third positional is ``order`` (a.reshape(2, 3)
            # takes the dimensions as separate arguments)
            raise Incompatible("np.reshape(a, newshape) with the shape as one argument")
        if not isinstance(args[0], T.ArrayType):
            raise Incompatible(f"reshape() of {args[0]}")
        return args[0].copy(ndim=_shape_arg_types(args[1:]), layout="C", readonly=args[0].readonly)

    def lower(self, L, call, args, kwargs):
        src = contiguous(L, args[0])
        rest = args[1:]
        if len(rest) == 1 and isinstance(rest[0].type, T.TupleType):
            tup = L.let(rest[0])
            dims = [N.TupleGet(tup, k, t) if not isinstance(tup, N.Const) else C(tup.value[k], t)
                    for k, t in enumerate(tup.type.items)]
        else:
            dims = list(rest)
        dims = [L.let(ops.convert_wrap(d, I)) for d in dims]
        return reshape_view(L, src, dims, call.type)


def contiguous(L, a: N.Expr) -> N.Expr:
    """A C-contiguous array with ``a``'s elements: ``a`` itself when it is already
    (checked at run time for arrays of unknown layout), else a copy."""
    if isinstance(a, ew.Lazy):
        return ew.materialize(L, a)
    a = L.let(a)
    t = a.type
    if t.layout == "C":
        return a
    ct = t.copy(layout="C", readonly=False)
    out = L.temp(ct, "c")
    if t.layout == "A":
        # C-contiguous at run time?  strides[k] == itemsize * prod(shape[k+1:])
        ok = C(True, T.BOOL)
        expect = C(max(1, t.dtype.bits // 8), I)
        for k in range(t.ndim - 1, -1, -1):
            dim = N.ArrayAttr(a, "shape", k, I)
            good = ops.bor(N.Cmp("eq", N.ArrayAttr(a, "stride", k, I), expect, T.BOOL),
                           N.Cmp("le", dim, C(1, I), T.BOOL))
            ok = ops.band(ok, good)
            expect = N.BinOp("mul", expect, dim, I)
        ok = L.let(ok)
        stmts, copy = L.sub_block(lambda: _copy(L, a, ct))
        L.emit(N.If(cond=ok, then=[N.Assign(target=out, value=N.ArrayView(
            a, C(0, I), [N.ArrayAttr(a, "shape", k, I) for k in range(t.ndim)],
            [N.ArrayAttr(a, "stride", k, I) for k in range(t.ndim)], ct))],
            orelse=stmts + [N.Assign(target=out, value=copy)]))
        return N.Var(out, ct)
    return _copy(L, a, ct)


def _copy(L, a, ct):
    from .methods import copy_array
    return copy_array(L, a, ct)


def reshape_view(L, src, dims, rt):
    """View C-contiguous ``src`` with shape ``dims`` (one may be negative: unknown,
    as NumPy reads any negative dimension, not only -1)."""
    size = L.let(total_size([N.ArrayAttr(src, "shape", k, I) for k in range(src.type.ndim)]))

    def unknown(d):
        return N.Cmp("lt", d, C(0, I), T.BOOL)
    known = C(1, I)
    for d in dims:
        known = N.BinOp("mul", known, N.Select(unknown(d), C(1, I), d, I), I)
    known = L.let(known)
    nneg = C(0, I)
    for d in dims:
        nneg = N.BinOp("add", nneg, N.Select(unknown(d), C(1, I), C(0, I), I), I)
    nneg = L.let(nneg)
    L.raise_if(N.Cmp("gt", nneg, C(1, I), T.BOOL), ValueError,
               "can only specify one unknown dimension")
    # an unknown dimension next to a zero one cannot be inferred (NumPy raises
    # even for an empty array: reshape(0, -1))
    L.emit(N.If(cond=ops.band(N.Cmp("eq", nneg, C(1, I), T.BOOL),
                              N.Cmp("eq", known, C(0, I), T.BOOL)), then=[N.Raise(
        exc=ValueError, args=[size], message="cannot reshape array of size {} into the "
        "requested shape")]))
    safe_known = N.Select(N.Cmp("eq", known, C(0, I), T.BOOL), C(1, I), known, I)
    inferred = L.let(N.BinOp("sdiv", size, safe_known, I))
    dims = [L.let(N.Select(unknown(d), inferred, d, I)) for d in dims]
    # (a product that leaves int64 never matches, even where it wraps to the size)
    mismatch = N.BinOp("or", product_overflows(L, dims),
                       N.Cmp("ne", total_size(dims), size, T.BOOL), T.BOOL)
    L.emit(N.If(cond=mismatch, then=[N.Raise(
        exc=ValueError, args=[size], message="cannot reshape array of size {} into the "
        "requested shape")]))
    check_dims(L, dims, max(1, rt.dtype.bits // 8))     # NumPy's view: "too big"
    itemsize = max(1, rt.dtype.bits // 8)
    strides = [None] * len(dims)
    st = C(itemsize, I)
    for k in range(len(dims) - 1, -1, -1):
        strides[k] = L.let(st)
        st = N.BinOp("mul", st, dims[k], I)
    return N.ArrayView(src, C(0, I), dims, strides, rt)


class Ravel(CallTemplate):
    accepts_lazy = True

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or kwargs:
            raise Incompatible("ravel() takes no arguments")
        if not isinstance(args[0], T.ArrayType):
            raise Incompatible(f"ravel() of {args[0]}")
        return args[0].copy(ndim=1, layout="C")

    def lower(self, L, call, args, kwargs):
        src = contiguous(L, args[0])
        return reshape_view(L, src, [C(-1, I)], call.type)


class Flatten(Ravel):
    def lower(self, L, call, args, kwargs):
        a = args[0]
        src = ew.materialize(L, a) if isinstance(a, ew.Lazy) else _copy(
            L, L.let(a), a.type.copy(layout="C", readonly=False))
        return reshape_view(L, src, [C(-1, I)], call.type.copy(readonly=False))


class Cumulative(CallTemplate):
    """``np.cumsum`` / ``np.cumprod`` (and the methods) of the flattened array or
    along a constant ``axis``, with an optional constant ``dtype``: NumPy's
    ``add.accumulate`` / ``multiply.accumulate``, sequential along the axis, in
    ``np.sum``'s accumulator type (bool and narrow ints widen to int64 / uint64)."""

    accepts_lazy = True

    def __init__(self, name):
        self.name = name
        self.paths = (f"numpy.{name}",)

    def plan(self, call, t: T.ArrayType):
        """(axis or None for the flattened array, accumulator dtype)."""
        axis = _cum_const(call, 1, "axis")
        if axis is not None:
            if type(axis) is not int:
                raise Incompatible(f"np.{self.name}(): axis must be a constant integer")
            nd = max(t.ndim, 1)
            if not -nd <= axis < nd:
                raise Incompatible(f"np.{self.name}(): axis {axis} is out of bounds for "
                                   f"array of dimension {nd}")
            axis = None if t.ndim <= 1 else axis % t.ndim
        dt = _cum_const(call, 2, "dtype")
        if dt is None:
            return axis, sum_dtype(t.dtype)
        acc = dtype_of(dt)
        if (t.dtype.is_float and acc.is_int) \
                or (t.dtype.is_complex and not acc.is_complex) \
                or (acc.bits == 16 and acc.is_float and acc != t.dtype):
            # float -> int (NaN and overflow), complex -> real (ComplexWarning),
            # to float16 (NumPy may round twice): not cast as NumPy casts
            raise Incompatible(f"np.{self.name}(): dtype={acc} from {t.dtype}")
        if self.name == "cumprod" and acc.is_complex and acc != t.dtype:
            # NumPy multiplies cast input in buffered chunks, each chunk's products
            # in one inner-loop call: where its rounding changes is not modelled
            raise Incompatible(f"np.cumprod(): dtype={acc} from {t.dtype}")
        return axis, acc

    def typer(self, inf, call, args, kwargs):
        if len(args) > 3 or set(kwargs) - {"axis", "dtype"} or not args \
                or not isinstance(args[0], (T.ArrayType, T.Scalar)):
            raise Incompatible(f"np.{self.name}(a, axis=None, dtype=None) without out")
        t = _as_array_type(args[0])
        axis, acc = self.plan(call, t)
        return T.ArrayType(acc, 1 if axis is None else t.ndim, "C")

    def lower(self, L, call, args, kwargs):
        a = args[0]
        if isinstance(a.type, T.Scalar):        # a number: NumPy's 0-d array
            x = L.let(a)
            a = ew.Lazy(_as_array_type(x.type), [], lambda idx: x)
        a = a if isinstance(a, ew.Lazy) else L.let(a)
        z = ew.to_lazy(L, a)
        axis, t = self.plan(call, z.type)
        # the stride NumPy's inner loop reads the input with: its own along the
        # axis (a 1-D array's even without one); raveled copies and new arrays
        # (an expression) are contiguous
        sk = axis if axis is not None else 0 if a.type.ndim == 1 else None
        stride = (L.let(N.ArrayAttr(a, "stride", sk, I))
                  if sk is not None and not isinstance(a, ew.Lazy) else C(8, I))
        if axis is None:
            n = L.let(total_size(z.dims))
            out = allocate(L, call.type, [n])
            k = L.temp(I, "k")
            L.emit(N.Assign(target=k, value=C(0, I)))
            acc = L.temp(t, "acc")
            L.emit(N.Assign(target=acc, value=ops.zero(t)))     # (the first element's)

            def body(idx):
                self.step(L, acc, z.elem(idx), t, N.Var(k, I), n, stride)
                L.emit(N.Store(array=out, indices=[N.Var(k, I)], value=N.Var(acc, t)))
                L.emit(N.Assign(target=k, value=N.BinOp("add", N.Var(k, I), C(1, I), I)))
            loops(L, z.dims, body)
            return out
        dims = [L.let(d) for d in z.dims]
        out = allocate(L, call.type, dims)
        outer = [d for k, d in enumerate(dims) if k != axis]

        def line(fixed):
            acc = L.temp(t, "acc")
            L.emit(N.Assign(target=acc, value=ops.zero(t)))     # (the first element's)

            def body(idx):
                full = list(fixed)
                full.insert(axis, idx[0])
                self.step(L, acc, z.elem(full), t, idx[0], dims[axis], stride)
                L.emit(N.Store(array=out, indices=full, value=N.Var(acc, t)))
            loops(L, [dims[axis]], body)
        loops(L, outer, line)
        return out

    def step(self, L, acc, elem, t, i, n, stride):
        """``acc`` after element ``i`` of a line of ``n`` read with ``stride``:
        NumPy copies the first element (so ``-0.0`` and ``inf + 0j`` survive)
        and combines the others."""
        x = L.let(ops.convert(L, elem, t))
        cur = N.Var(acc, t)
        if t.is_bool:                   # NumPy's boolean add / multiply: or / and
            v = ops.bor(cur, x) if self.name == "cumsum" else ops.band(cur, x)
        elif self.name == "cumsum" or not t.is_complex:
            op = "add" if self.name == "cumsum" else "mul"
            v = ops.complex_arith(L, op, cur, x, t) if t.is_complex else N.BinOp(op, cur, x, t)
        else:
            # NumPy's inner loop multiplies a line's elements 1.. in one call; with
            # a single product (a line of 2) it does not overlap its output and
            # takes the SIMD loop, which may round with fused multiply-adds
            v = cmul(L, cur, x, t)
            fused = C(False, T.BOOL)
            for cmp, sign in (("lt", -1), ("eq", 0), ("gt", 1)):
                if cumprod_pair_form(t.bits, sign) == "fma":
                    fused = ops.bor(fused, N.Cmp(cmp, stride, C(0, I), T.BOOL))
            if not (isinstance(fused, N.Const) and not fused.value):
                pair = ops.band(N.Cmp("eq", n, C(2, I), T.BOOL), fused)
                v = N.Select(pair, cmul(L, cur, x, t, "fma"), v, t)
        L.emit(N.Assign(target=acc, value=N.Select(N.Cmp("eq", i, C(0, I), T.BOOL), x,
                                                   v, t)))


@functools.cache
def cumprod_pair_form(bits: int, sign: int) -> str:
    """``"plain"`` or ``"fma"``: how ``np.cumprod`` rounds the one product of a
    line of two ``bits``-bit complex numbers read with a stride of ``sign``
    (NumPy's SIMD loop may fuse it -- on AVX-512 for complex64 only with a
    non-negative stride); measured once, exactly.  Longer lines overlap their
    output, which keeps NumPy's loop scalar: plain, also checked here."""
    import fractions

    import numpy as np
    ft, ct = (np.float32, np.complex64) if bits == 64 else (np.float64, np.complex128)
    rng = np.random.default_rng(1234)
    parts = rng.standard_normal((4, 64)) * np.exp(rng.uniform(-6, 6, (4, 64)))
    a = np.stack([parts[0] + 1j * parts[1], parts[2] + 1j * parts[3]]).astype(ct)
    if sign < 0:
        a = a[::-1]
    elif sign == 0:
        a = np.broadcast_to(a[:1], a.shape)
    triple = np.concatenate([a, a[:1]]) if sign > 0 else None

    def fma(x, y, w):
        exact = fractions.Fraction(float(x)) * fractions.Fraction(float(y)) + \
            fractions.Fraction(float(w))
        return ft(float(exact))

    forms = {"plain": lambda x, y: (x.real * y.real - x.imag * y.imag,
                                    x.real * y.imag + x.imag * y.real),
             "fma": lambda x, y: (fma(x.real, y.real, -(x.imag * y.imag)),
                                  fma(x.real, y.imag, x.imag * y.real))}

    def matches(got, first, second, form):
        return all((g.real, g.imag) == forms[form](x, y)
                   for g, x, y in zip(got, first, second))
    with np.errstate(all="ignore"):
        got = np.cumprod(a, axis=0)[1]
        if triple is not None:
            t2 = np.cumprod(triple, axis=0)
            if not (matches(t2[1], triple[0], triple[1], "plain")
                    and matches(t2[2], t2[1], triple[2], "plain")):
                raise Incompatible("np.cumprod() of complex numbers: NumPy rounds it "
                                   "in an unknown way here")
        for name in forms:
            if matches(got, a[0], a[1], name):
                return name
    raise Incompatible("np.cumprod() of complex numbers: NumPy rounds it in an unknown "
                       "way here")


def _as_array_type(t):
    return t if isinstance(t, T.ArrayType) else T.ArrayType(t, 0, "C")


def _cum_const(call, pos, name):
    # imported here: var_std_norm imports this module's helpers
    from ..statistics.var_std_norm import const_arg
    return const_arg(call, pos, name)


def dot_type(a, b):
    if not (isinstance(a, T.ArrayType) and isinstance(b, T.ArrayType)):
        raise Incompatible("np.dot / @ of arrays only")
    if a.ndim not in (1, 2) or b.ndim not in (1, 2):
        raise Incompatible("np.dot / @ of 1-D and 2-D arrays only")
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
    from ..linalg import blas
    return (ta.dtype == tb.dtype and blas.blas_dtype(ta.dtype)
            and L.ctx.capabilities.host_calls and blas.available())


def dot(L, a, b, rt, kind="dot"):
    """Matrix/vector products: ``kind`` "dot" (``np.dot``, ``.dot``) or "matmul"
    (``@``, ``np.matmul``).  Operands of one BLAS dtype go through NumPy's own
    BLAS as NumPy's code does (``dot_algorithms``), with NumPy's own loops where it
    runs them; other products are those loops: sequential sums in k order."""
    a, b = L.let(ew.materialize(L, a)), L.let(ew.materialize(L, b))
    ta, tb = a.type, b.type
    t = rt.dtype if isinstance(rt, T.ArrayType) else rt
    ka = N.ArrayAttr(a, "shape", ta.ndim - 1, I)
    kb = N.ArrayAttr(b, "shape", 0, I)
    L.emit(N.If(cond=N.Cmp("ne", ka, kb, T.BOOL), then=[N.Raise(
        exc=ValueError, args=[ka, kb],
        message="shapes not aligned: {} (dim of a) != {} (dim 0 of b)")]))
    if ta.ndim == 1 and tb.ndim == 1 and uses_numpys_blas(L, ta, tb):
        return _blas_vv(L, a, b, t, kind)
    kdim = L.let(ka)

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
        out = allocate(L, rt, dims)
        loops_ = L.sub_block(lambda: fill(L, out, dims, element))[0]
        if not blas:
            L.out.extend(loops_)
            return out
        from ..linalg import dot_algorithms as hb
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
    from ..linalg import dot_algorithms as hb
    size = C(t.bits // 8, I)
    n = L.let(N.ArrayAttr(a, "shape", 0, I))
    at = [L.let(N.ArrayAttr(x, "data", 0, I)) for x in (a, b)]
    st = [L.let(N.ArrayAttr(x, "strides", 0, I)) for x in (a, b)]
    ok = N.Cmp("ge", n, C(2 if kind == "dot" else 1, I), T.BOOL)
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
        return dot_type(*args)

    def lower(self, L, call, args, kwargs):
        import numpy
        kind = "matmul" if call.callee is numpy.matmul else "dot"
        return dot(L, args[0], args[1], call.type, kind)


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
        from ..linalg import dot_algorithms as hb
        if t.is_int:
            helper = hb.vdot_int
        elif uses_numpys_blas(L, a.type, b.type):
            helper = hb.vdot_complex if t.is_complex else hb.vdot_real
        else:           # (other targets: the loop NumPy runs without BLAS)
            helper = hb.vdot_loop_complex if t.is_complex else hb.vdot_loop_real
        return ops.convert(L, L.call_helper(helper, [a, b]), t)


METHODS = {"reshape": Reshape(), "ravel": Ravel(), "flatten": Flatten(),
           "cumsum": Cumulative("cumsum"), "cumprod": Cumulative("cumprod"), "dot": Dot(),
           "transpose": Transpose()}
register(Cumulative("cumsum"))
register(Cumulative("cumprod"))
_reshape, _ravel = Reshape(), Ravel()
_reshape.paths, _ravel.paths = ("numpy.reshape",), ("numpy.ravel",)
register(_reshape)
register(_ravel)


def _stats_methods():
    from ..statistics.var_std_norm import METHODS as STATS      # var / std (with axis= and ddof=)
    METHODS.update(STATS)


_stats_methods()


def _nested_shape(t):
    """(shape, element types) of a nested tuple type of numbers, or None."""
    if isinstance(t, T.Scalar):
        return (), [t]
    if isinstance(t, T.TupleType) and t.items:
        subs = [_nested_shape(i) for i in t.items]
        if any(s is None for s in subs) or len({s[0] for s in subs}) != 1:
            return None
        return (len(t.items),) + subs[0][0], [e for s in subs for e in s[1]]
    return None


class NpArray(CallTemplate):
    """np.array / np.asarray of an array or of (nested) tuples and lists of numbers."""

    accepts_lazy = True

    def __init__(self, name):
        self.name = name
        self.paths = (f"numpy.{name}",)

    def typer(self, inf, call, args, kwargs):
        from .creation import dtype_of
        if len(args) != 1 or set(kwargs) - {"dtype"}:
            raise Incompatible(f"np.{self.name}(object, dtype=None)")
        src = args[0]
        dt = kwargs.get("dtype")
        want = dtype_of(dt.value) if isinstance(dt, T.ConstType) else None
        if dt is not None and dt != T.NONE and want is None:
            raise Incompatible("dtype must be a constant")
        if isinstance(src, T.ArrayType):
            return src.copy(dtype=want or src.dtype, layout="C", readonly=False)
        shape = _nested_shape(src)
        if shape is None or not shape[0]:
            raise Incompatible(f"np.{self.name}() of {src}")
        dims, elems = shape
        t = want
        if t is None:
            t = elems[0]
            for e in elems[1:]:
                t = promote(t, e) if t != e else t
            if t.is_bool and any(not e.is_bool for e in elems):
                t = T.INT64
        return T.ArrayType(t, len(dims), "C")

    def lower(self, L, call, args, kwargs):
        from ..indexing.elements import element_value
        rt = call.type
        src = args[0]
        if isinstance(src.type, T.ArrayType) or isinstance(src, ew.Lazy):
            if self.name == "asarray" and not isinstance(src, ew.Lazy) and src.type == rt:
                return src
            from ..indexing.elements import array_cast
            z = ew.to_lazy(L, src)
            return ew.materialize(L, ew.Lazy(rt, z.dims, lambda idx: array_cast(
                L, z.elem(idx), rt.dtype)))
        dims, _ = _nested_shape(src.type)
        tup = L.let(src)
        out = allocate(L, rt, [C(d, I) for d in dims])

        def leaves(e, t, prefix):
            if isinstance(t, T.TupleType):
                for k, it in enumerate(t.items):
                    yield from leaves(N.TupleGet(e, k, it) if not isinstance(e, N.Const)
                                      else C(e.value[k], it), it, prefix + [k])
            else:
                yield prefix, e
        for idx, e in leaves(tup, tup.type, []):
            L.emit(N.Store(array=out, indices=[C(k, I) for k in idx],
                           value=element_value(L, e, rt.dtype)))
        return out


def _axis(call, default=0):
    node = call.kwargs.get("axis", call.args[1] if len(call.args) > 1 else None)
    if node is None:
        return default
    if not (isinstance(node, N.Const) and type(node.value) is int):
        raise Incompatible("axis must be a constant integer")
    return node.value


def _array_items(t):
    if not (isinstance(t, T.TupleType) and t.items and all(
            isinstance(i, T.ArrayType) for i in t.items)):
        raise Incompatible("a tuple of arrays is needed")
    if len({(i.ndim) for i in t.items}) != 1:
        raise Incompatible("all the input arrays must have the same number of dimensions")
    dt = t.items[0].dtype
    for i in t.items[1:]:
        dt = promote(dt, i.dtype) if dt != i.dtype else dt
    return t.items[0].ndim, dt


class Concatenate(CallTemplate):
    paths = ("numpy.concatenate",)

    def typer(self, inf, call, args, kwargs):
        if not args or set(kwargs) - {"axis"}:
            raise Incompatible("np.concatenate(arrays, axis=0)")
        ndim, dt = _array_items(args[0])
        ax = _axis(call)
        if not -ndim <= ax < ndim:
            raise Incompatible(f"axis {ax} is out of bounds for array of dimension {ndim}")
        return T.ArrayType(dt, ndim, "C")

    def lower(self, L, call, args, kwargs):
        tup = L.let(args[0])
        arrs = [L.let(N.TupleGet(tup, k, it)) for k, it in enumerate(tup.type.items)]
        return concatenate(L, arrs, _axis(call) % call.type.ndim, call.type)


def concatenate(L, arrs: list, ax: int, rt: T.ArrayType) -> N.Expr:
    """A new array of ``rt`` joining the arrays ``arrs`` (bound values of equal
    ndim) along axis ``ax``; NumPy's ValueError when the other axes differ."""
    from ..indexing.elements import element_value
    first = arrs[0]
    total = L.let(N.ArrayAttr(first, "shape", ax, I))
    for a in arrs[1:]:
        for k in range(rt.ndim):
            if k == ax:
                continue
            da, d0 = N.ArrayAttr(a, "shape", k, I), N.ArrayAttr(first, "shape", k, I)
            L.emit(N.If(cond=N.Cmp("ne", da, d0, T.BOOL), then=[N.Raise(
                exc=ValueError, args=[d0, da],
                message=f"all the input array dimensions except for the concatenation "
                        f"axis must match exactly, but along dimension {k} the sizes "
                        "are {} and {}")]))
        total = size_add(L, total, N.ArrayAttr(a, "shape", ax, I))
    dims = [total if k == ax else L.let(N.ArrayAttr(first, "shape", k, I))
            for k in range(rt.ndim)]
    out = allocate(L, rt, dims)
    offset = C(0, I)
    for a in arrs:
        adims = [L.let(N.ArrayAttr(a, "shape", k, I)) for k in range(rt.ndim)]
        off = L.let(offset)

        def body(idx, a=a, off=off):
            dst = [N.BinOp("add", i, off, I) if k == ax else i for k, i in enumerate(idx)]
            L.emit(N.Store(array=out, indices=dst, value=element_value(
                L, N.Load(a, list(idx), a.type.dtype), rt.dtype)))
        loops(L, adims, body)
        offset = N.BinOp("add", off, adims[ax], I)
    return out


class Stack(CallTemplate):
    paths = ("numpy.stack",)

    def typer(self, inf, call, args, kwargs):
        if not args or set(kwargs) - {"axis"}:
            raise Incompatible("np.stack(arrays, axis=0)")
        ndim, dt = _array_items(args[0])
        ax = _axis(call)
        if not -(ndim + 1) <= ax <= ndim:
            raise Incompatible(f"axis {ax} is out of bounds")
        return T.ArrayType(dt, ndim + 1, "C")

    def lower(self, L, call, args, kwargs):
        from ..indexing.elements import element_value
        rt = call.type
        ax = _axis(call) % rt.ndim
        tup = L.let(args[0])
        arrs = [L.let(N.TupleGet(tup, k, it)) for k, it in enumerate(tup.type.items)]
        first = arrs[0]
        base = [L.let(N.ArrayAttr(first, "shape", k, I)) for k in range(rt.ndim - 1)]
        for a in arrs[1:]:
            for k in range(rt.ndim - 1):
                da = N.ArrayAttr(a, "shape", k, I)
                L.emit(N.If(cond=N.Cmp("ne", da, base[k], T.BOOL), then=[N.Raise(
                    exc=ValueError, message="all input arrays must have the same shape")]))
        dims = base[:ax] + [C(len(arrs), I)] + base[ax:]
        out = allocate(L, rt, dims)
        for j, a in enumerate(arrs):
            def body(idx, a=a, j=j):
                dst = list(idx[:ax]) + [C(j, I)] + list(idx[ax:])
                L.emit(N.Store(array=out, indices=dst, value=element_value(
                    L, N.Load(a, list(idx), a.type.dtype), rt.dtype)))
            loops(L, base, body)
        return out


register(NpArray("array"))
register(NpArray("asarray"))
register(Concatenate())
register(Stack())
