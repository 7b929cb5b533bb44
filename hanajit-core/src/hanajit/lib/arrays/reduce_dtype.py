"""``dtype=`` of ``np.sum``, ``np.prod`` and ``np.mean`` (and the methods).

NumPy reduces in the given dtype, casting the input to it unsafely (as
``astype``: ``np.sum([1.5, 2.7], dtype=np.int8)`` is 3).  When the input has
another dtype the cast goes through its iterator's buffer of 8192 items, which
decides the order of a float sum:

* a whole array (1-D of any stride, or C- or F-contiguous as a whole, in
  memory order) and each lane along the innermost axis of a C or F array (the
  last of C, the first of F -- or an axis outside which every axis has length
  1) is summed buffer by buffer, each buffer pairwise
  (``pairwise_sum.cast_sum``, ``buffered_sum``);
* along another axis each result adds its values in index order from 0.

A product multiplies in index order along an axis of any layout, and over a
whole array in memory order (an F-ordered array's transpose in C order: a
float or complex ``np.prod`` of one without ``dtype=`` comes here too).  Of an
N-D expression NumPy casts its temporary, whose memory order the operands
decide: its values are read in C order when some operand is C-contiguous of
the result's shape, and the call re-runs in the interpreter otherwise.

Integer sums and products are exact modulo ``2**bits`` in any order: they, and
float products, take the ordinary reduction of the cast values.  ``np.mean``
divides the sum by the ``intp`` count in float64 and converts the quotient to
the dtype (an integer dtype truncates); NumPy's mean of an integer or bool
array without ``dtype=`` is its mean with ``dtype=float64``.

What is not exact falls back in the typer with its reason (a float sum or mean
with a cast along an axis of an array neither C- nor F-contiguous or over a
tuple of some axes -- a tuple of all is the whole array --, of a whole array
that is neither C-contiguous nor an F-ordered variable, of a 0-d array;
complex, bool and float16 dtypes; complex input).
"""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from . import elementwise as ew
from ..python import operators as ops
from ..python.operators import C

I = T.INT64
NAMES = ("sum", "prod", "mean")


def given_dtype(name, args, kwargs):
    """The scalar type of ``dtype=`` (keyword or third argument) of a sum,
    product or mean being typed; None when absent or None."""
    if "dtype" in kwargs:
        if len(args) > 2:
            raise Incompatible(f"np.{name}() given dtype by position and by keyword")
        t = kwargs["dtype"]
    elif len(args) > 2:
        t = args[2]
    else:
        return None
    if t == T.NONE or (isinstance(t, T.ConstType) and t.value is None):
        return None
    if not isinstance(t, T.ConstType):
        raise Incompatible(f"np.{name}() dtype must be a compile-time constant such as "
                           "np.float64")
    import numpy as np
    from .creation import dtype_of
    try:
        dt = np.dtype(t.value)
    except TypeError:
        raise Incompatible(f"dtype {t.value!r} is not understood") from None
    if not dt.isnative:
        raise Incompatible(f"np.{name}() dtype {dt.str!r} of a non-native byte order")
    if dt.kind in "cb" or dt.itemsize == 2 and dt.kind == "f":
        raise Incompatible(f"np.{name}() with dtype={dt.name}: complex, bool and float16 "
                           "reductions are not compiled")
    return dtype_of(t.value)


def check(name, at, dt, axis, plain=False):
    """``dt``, after refusing (Incompatible) the ``dtype=dt`` reductions of the
    array type ``at`` over ``axis`` (None, an int or a tuple) whose order is not
    known.  ``plain``: the argument is an array, not an expression (whose
    temporary's memory order NumPy chooses)."""
    if at.dtype.is_complex:
        raise Incompatible(f"np.{name}() of a complex array with dtype={dt}: NumPy drops "
                           "the imaginary parts with a ComplexWarning")
    if not dt.is_float or at.dtype == dt:
        return dt
    where = f"np.{name}() of a {at.dtype} array with dtype={dt}"
    if at.ndim == 0:
        raise Incompatible(f"{where} of a 0-d array")
    axis = whole(axis, at.ndim)
    if isinstance(axis, tuple):
        raise Incompatible(f"{where} over a tuple of axes (not all): NumPy's buffered "
                           "order is not reproduced")
    if name == "prod" and axis is not None:
        return dt           # (a product along an axis: in index order, any layout)
    if axis is None or at.ndim == 1:
        if at.ndim > 1 and at.layout != "C" and not (
                at.layout == "F" and plain):
            raise Incompatible(f"{where} as a whole of an array that is not C-contiguous "
                               "nor an F-ordered variable: NumPy reduces it in memory order")
        return dt
    if at.layout not in ("C", "F"):
        raise Incompatible(f"{where} along an axis of a {at.ndim}-D array that is not "
                           "C- or F-contiguous: NumPy's buffered order is not reproduced")
    return dt


def whole(axis, ndim):
    """None for a tuple of every axis (``axis=(0, 1)`` of a 2-D array: NumPy
    reduces it as a whole), else ``axis``."""
    if (isinstance(axis, tuple) and all(-ndim <= a < ndim for a in axis)
            and sorted(a % ndim for a in axis) == list(range(ndim))):
        return None
    return axis


def lower(tpl, L, call, args, rt, axis, keep):
    """The value of ``tpl`` (sum, prod or mean) of ``args[0]`` with the typer's
    dtype (``call.plan``), or None where the ordinary reduction is NumPy's
    (no dtype, or the dtype the reduction takes anyway)."""
    src = args[0]
    et = src.type.dtype
    axis = whole(axis, src.type.ndim)
    plan = getattr(call, "plan", None)        # (np.average's own call has none)
    dt = plan if tpl.name in NAMES and isinstance(plan, T.Scalar) else None
    # a target that cannot allocate (GPU kernels, HLS) has no room for the cast
    # values: its float sums are in index order anyway (docs/semantics.md)
    room = L.ctx is None or L.ctx.capabilities.allocation
    # a float or complex product of an F-ordered array as a whole multiplies in
    # memory order, with a dtype or without (the ordinary loop is in C order)
    f_product = (tpl.name == "prod" and axis is None and src.type.ndim > 1
                 and src.type.layout == "F" and not isinstance(src, ew.Lazy)
                 and (tpl.scalar_type(et) if dt is None else dt).kind in "fc")
    if dt is None and f_product:
        dt = tpl.scalar_type(et)
    elif dt is None:
        # NumPy's mean of integers is its mean with dtype=float64 (``_mean``)
        if not (tpl.name == "mean" and (et.is_int or et.is_bool)) or not room:
            return None
        if isinstance(src, ew.Lazy) and src.type.ndim > 1:
            return None     # (NumPy's temporary decides: the ordinary reduction)
        try:
            check(tpl.name, src.type, T.FLOAT64, axis, True)
        except Incompatible:
            return None     # (the ordinary reduction, in index order: documented)
        dt = T.FLOAT64
    elif f_product:
        pass
    elif dt == et and (dt.is_float or tpl.name != "mean"):
        return None
    elif dt == tpl.scalar_type(et) and not dt.is_float:
        return None         # (an integer sum or product in its own dtype)
    from ..indexing.elements import array_cast
    z = ew.to_lazy(L, src)
    nd = len(z.dims)
    if axis is None and nd > 1 and src.type.layout == "F" and not isinstance(src, ew.Lazy):
        # NumPy reduces an F-ordered array as a whole in memory order: the
        # values of its transpose in C order
        cast = ew.Lazy(T.ArrayType(dt, nd, "C"), z.dims[::-1],
                       lambda idx: array_cast(L, z.elem(idx[::-1]), dt))
    else:
        cast = ew.Lazy(T.ArrayType(dt, nd, "C"), z.dims,
                       lambda idx: array_cast(L, z.elem(idx), dt))
    buffered = dt.is_float and tpl.name != "prod" and et != dt and room
    if isinstance(src, ew.Lazy) and nd > 1 and (buffered or f_product or (
            tpl.name == "prod" and axis is None and dt.kind in "fc")):
        _c_temporary(L, z, tpl.name)
    if buffered:
        return _buffered(tpl, L, src, cast, rt, dt, axis, keep)
    if tpl.name != "mean":
        return _ordinary(tpl, L, cast, rt, dt, axis, keep)
    # an integer mean (or a float mean of the dtype's own data): the sum in the
    # dtype, divided in float64, converted back (an integer truncated)
    from .reductions import REDUCTIONS
    total = _ordinary(REDUCTIONS["sum"], L, cast, rt, dt, axis, keep)
    axes = (range(nd) if axis is None else axis if isinstance(axis, tuple) else (axis,))
    count = L.let(_product([z.dims[a % nd] for a in axes]))
    if dt.is_int:
        from ..python.helpers import Deopt
        L.raise_if(N.Cmp("eq", count, C(0, I), T.BOOL), Deopt,
                   f"np.mean() of an empty array with dtype={dt}")

    def divide(s):
        q = N.BinOp("fdiv", N.Cast(s, T.FLOAT64), N.Cast(count, T.FLOAT64), T.FLOAT64)
        if dt.is_int:
            return ops.np_float_to_int(L, L.let(q), dt)
        return q if dt == T.FLOAT64 else N.Cast(q, dt)
    if not isinstance(rt, T.ArrayType):
        return divide(total)
    from .creation import fill
    out = L.let(total)
    dims = [L.let(N.ArrayAttr(out, "shape", k, I)) for k in range(rt.ndim)]
    fill(L, out, dims, lambda idx: divide(N.Load(out, idx, dt)))
    return out


def _c_temporary(L, z, name):
    """Re-run in the interpreter unless NumPy's temporary of the N-D expression
    ``z`` is C-ordered, as the cast values are read here: some operand is a
    C-contiguous array of the result's shape (C order wins the conflicts of
    NumPy's iterator, ``sum_order._any_c_contiguous``).  (An expression of
    F-ordered operands has an F-ordered temporary, which NumPy reduces in
    memory order; hanajit's own result of it is C-ordered.)"""
    from ..python.helpers import Deopt
    from .sum_order import contiguous, unique_arrays
    nd = len(z.dims)
    some = C(False, T.BOOL)
    for a in unique_arrays(z.leaves or []):
        if a.type.ndim != nd:
            continue
        c = contiguous(L, a, "C")
        c = C(True, T.BOOL) if c is True else c
        for k in range(nd):
            c = ops.band(c, N.Cmp("eq", N.ArrayAttr(a, "shape", k, I), z.dims[k], T.BOOL))
        some = ops.bor(some, c)
    L.raise_if(ops.logical_not(some), Deopt,
               f"np.{name}() with dtype= of an expression whose NumPy temporary is "
               "not C-ordered")


def _ordinary(tpl, L, cast, rt, dt, axis, keep):
    """The reduction of the cast values as any reduction of their dtype
    (integers, whose result does not depend on the order, and products, which
    NumPy multiplies in index order)."""
    if isinstance(axis, tuple):
        from .axis_reduce import over_axes
        return over_axes(tpl, L, cast, rt, dt, axis, keep)
    return tpl.lower_axis(L, [cast], rt, dt, axis, keep)


def _buffered(tpl, L, src, cast, rt, dt, axis, keep):
    """A float sum or mean of the values of ``src`` cast to ``dt`` as NumPy's
    buffered iterator adds them (see the module's docstring): an array's lanes
    read where they are, cast a buffer at a time (``pairwise_sum.cast_sum``);
    an expression's cast values in a C-ordered copy (``cast`` materialised, as
    NumPy's temporary), summed by ``pairwise_sum.buffered_sum``."""
    from ..statistics import pairwise_sum as hs
    from .creation import allocate, fill
    from .reductions import REDUCTIONS, kept_array
    at = src.type
    zero = C(0.0, dt)
    nd = at.ndim
    lazy = isinstance(src, ew.Lazy)
    base = L.let(ew.materialize(L, cast) if lazy else src)
    layout = "C" if lazy else at.layout
    bt = base.type

    def room(n):                    # the buffer, of min(n, BUFFER) items
        if lazy:
            return None
        n = L.let(n)
        size = N.Select(N.Cmp("lt", n, C(hs.BUFFER, I), T.BOOL), n, C(hs.BUFFER, I), I)
        return L.let(allocate(L, T.ArrayType(dt, 1, "C"), [size]))

    def lane_total(lane, n, buf):
        total = (L.call_helper(hs.buffered_sum, [lane, zero]) if lazy
                 else L.call_helper(hs.cast_sum, [lane, buf, zero]))
        return tpl.mean_of(L, total, n, dt)
    dims = [L.let(N.ArrayAttr(base, "shape", k, I)) for k in range(nd)]
    if axis is None or nd == 1:
        # a C- or F-ordered array (or the copy) in memory order, one lane
        n = L.let(_product(dims))
        item = C(max(1, bt.dtype.bits // 8), I)
        lane = base if nd == 1 else L.let(N.ArrayView(base, C(0, I), [n], [item],
                                                      bt.copy(ndim=1, layout="C")))
        v = lane_total(lane, n, room(n))
        return kept_array(L, v, rt, nd) if isinstance(rt, T.ArrayType) else v
    ax = axis % nd
    rest = [k for k in range(nd) if k != ax]
    out_dims = [C(1, I) if k == ax else dims[k] for k in range(nd)] if keep else [
        dims[k] for k in rest]
    out = allocate(L, rt, out_dims)

    def fixed(idx):                 # the other axes' indices of a result element
        return {k: idx[k] for k in rest} if keep else dict(zip(rest, idx))

    def lanes():
        buf = room(dims[ax])

        def lane_value(idx):
            offset = C(0, I)
            for k, i in fixed(idx).items():
                offset = N.BinOp("add", offset, N.BinOp(
                    "mul", i, N.ArrayAttr(base, "stride", k, I), I), I)
            lane = L.let(N.ArrayView(base, L.let(offset), [dims[ax]],
                                     [N.ArrayAttr(base, "stride", ax, I)],
                                     bt.copy(ndim=1, layout="A")))
            return lane_total(lane, dims[ax], buf)
        fill(L, out, out_dims, lane_value)
    # the axes NumPy's iterator puts inside the reduced one (the later ones of a
    # C array, the earlier of an F one): when all have length 1 the reduced axis
    # is the innermost, each lane summed buffer by buffer; else each result adds
    # its values in index order
    inner = [k for k in rest if (k > ax if layout == "C" else k < ax)]
    if not inner:
        lanes()
        return out
    sums = REDUCTIONS["sum"]
    zc = ew.to_lazy(L, base) if lazy else cast

    def in_order(idx):
        return tpl.mean_of(L, sums.reduce(L, zc, dt, fixed(idx), [ax]), dims[ax], dt)
    one, _ = L.sub_block(lanes)
    many, _ = L.sub_block(lambda: fill(L, out, out_dims, in_order))
    L.emit(N.If(cond=N.Cmp("eq", L.let(_product([dims[k] for k in inner])), C(1, I), T.BOOL),
                then=one, orelse=many))
    return out


def _product(dims):
    size = C(1, I)
    for d in dims:
        size = N.BinOp("mul", size, d, I)
    return size
