"""Whole-array expressions: broadcasting, NumPy's element semantics, and the lazy
element trees that fuse a whole expression into one loop.

An array-valued operation lowers to a :class:`Lazy` -- its broadcast shape plus a
function from loop indices to the element expression -- instead of a new array.
Operations on lazies compose their element functions, so ``np.exp(-a*a) * b``
is one loop with no temporaries; a lazy is *materialised* (allocated and filled
once) only where a real array is needed (assigned, returned, passed on), and a
reduction consumes it directly.

Element semantics are NumPy's, not Python's: integer division by zero gives 0,
float division by zero gives inf/nan, ``int ** negative`` raises ValueError.
"""
from __future__ import annotations

import copy

from ...typing_rules import Incompatible, promote
from ...errors import RERUN
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from ..python.operators import C

I = T.INT64


class Lazy(N.Expr):
    """An array value not yet in memory: ``dims`` (stable int64 expressions) and
    ``elem(indices) -> element expression`` (may emit statements into the loop
    body it is called in).  ``sources``: when known, the arrays it reads, each
    only at the element it computes (after broadcasting) -- what lets an
    assignment write it straight into an array it does not otherwise overlap;
    None when it reads anything else (another element, a reduction ...).
    ``leaves``: when known, the arrays an elementwise expression is built of
    (``to_lazy``, composed by ``lift``), each read at the element's own index
    after broadcasting and nothing else -- what lets a sum read the expression
    in its memory order (``sum_order``); None otherwise.

    ``split``: when set, ``(axis, count, rep)``: the element at index ``i`` of
    that axis (``count * rep`` long) is computed from ``i // rep`` alone
    (``np.repeat``), so :func:`materialize` loops ``count`` times over the
    source and ``rep`` times inside, handing the element function an index
    :func:`repeated_source` resolves without dividing; an axis of ``count``
    copies of a source of ``rep`` elements (``np.tile``) is looped the same way,
    :func:`tiled_source` giving the inner counter."""

    split = None
    # an element calls a function that costs far more than a load (``np.tan``,
    # ``a ** b``: :func:`mark_costly`): a consumer reading each element more than
    # once (``np.diff``, ``np.tile``) computes the array whole first, as NumPy
    costly = False
    # when known, the tree of ufuncs NumPy evaluates it by: an array (a leaf)
    # or a tuple of the trees of one ufunc's operands (``sum_order``)
    tree = None

    def __init__(self, type_, dims, elem, sources=None, leaves=None):
        self.type = type_
        self.dims = dims
        self.elem = elem
        self.sources = sources
        self.leaves = leaves


# ----------------------------------------------------------------------- typing
WEAK_TYPES = (T.BOOL, T.INT64, T.FLOAT64, T.COMPLEX128)


def elem_type(t):
    return t.dtype if isinstance(t, T.ArrayType) else t


def result_dtype(op: str, a: T.Type, b: T.Type, weak_a=True, weak_b=True) -> T.Scalar:
    """NumPy's result dtype of ``a <op> b`` where at least one is an array.  Python
    scalars (bool, int, float, complex) are "weak" as in NumPy 2; ``weak_a`` /
    ``weak_b`` False mark a NumPy scalar (``Inferrer.is_strong``), which is not."""
    da, db = elem_type(a), elem_type(b)
    if not (isinstance(da, T.Scalar) and isinstance(db, T.Scalar)):
        raise Incompatible(f"operator {op} on {a} and {b}")
    common = _common(a, b, weak_a, weak_b)
    if op in ("lt", "le", "gt", "ge", "eq", "ne"):
        return T.BOOL
    if common.is_bool:
        if op in ("bitand", "bitor", "bitxor", "add", "mul"):
            return T.BOOL
        if op == "truediv":
            return T.FLOAT64
        raise Incompatible(f"numpy operator {op} on boolean arrays")
    if op == "truediv":
        return common if (common.is_float or common.is_complex) else T.FLOAT64
    if op in ("bitand", "bitor", "bitxor", "lshift", "rshift") and not common.is_int:
        raise Incompatible(f"bitwise operator on {common} arrays")
    if op in ("floordiv", "mod") and common.is_complex:
        raise Incompatible(f"operator {op} on complex arrays")
    return common


def _common(a, b, weak_a, weak_b) -> T.Scalar:
    """NEP 50: the dtype two operands meet in (a weak Python scalar adapts)."""
    da, db = elem_type(a), elem_type(b)
    if not isinstance(a, T.ArrayType) and a in WEAK_TYPES and weak_a:
        return adapt_weak(db, da)
    if not isinstance(b, T.ArrayType) and b in WEAK_TYPES and weak_b:
        return adapt_weak(da, db)
    return promote(da, db)


def comparison_type(a, b, weak_a=True, weak_b=True):
    """The type NumPy compares ``a`` and ``b`` in when a float or complex is
    involved: their NEP 50 common type, so a Python float or int meeting float32
    is cast to float32 first (``f32 == 0.1`` holds for ``np.float32(0.1)``) and
    an int64 meeting float64 is rounded to it.  None: compare the exact values
    (integers and bools, whatever their widths, as NumPy does)."""
    da, db = elem_type(a), elem_type(b)
    if not any(t.is_float or t.is_complex for t in (da, db)):
        return None
    common = _common(a, b, weak_a, weak_b)
    return common if (common.is_float or common.is_complex) else None


def adapt_weak(strong: T.Scalar, weak: T.Scalar) -> T.Scalar:
    """NEP 50: a Python scalar adapts to the array's dtype within its kind."""
    order = "biufc"
    ks, kw = order.index(strong.kind if strong.kind != "u" else "i"), order.index(
        weak.kind if weak.kind != "u" else "i")
    if kw <= ks:
        return strong
    if weak.kind == "f" and strong.kind in "biu":
        return T.FLOAT64
    if weak.kind == "c":
        return T.COMPLEX64 if strong == T.FLOAT32 else T.COMPLEX128
    if weak.kind in "iu" and strong.kind == "b":
        return T.INT64
    return promote(strong, weak)


def broadcast_ndim(*ts) -> int:
    return max((t.ndim for t in ts if isinstance(t, T.ArrayType)), default=0)


# --------------------------------------------------------------------- lowering
def to_lazy(L, e: N.Expr) -> Lazy:
    """View an array expression (or a lazy) as a lazy."""
    if isinstance(e, Lazy):
        return e
    # ``z.real`` / ``z.imag`` (``attributes.lower_attr``): each element is the
    # part of ``z``'s, loaded through ``z``'s own layout -- a C array's constant
    # innermost stride lets LLVM read whole vectors and pick the parts apart,
    # where the view's run-time stride left it one load per value
    component = getattr(e, "component", None)
    arr = L.let(e)
    t = arr.type
    # a view's constant lengths (``x[None, :]``'s 1) stay constants: an axis
    # known to broadcast is indexed with 0, without a run-time test
    known = e.shape if isinstance(e, N.ArrayView) else [None] * t.ndim
    dims = [d if isinstance(d, N.Const) else L.let(N.ArrayAttr(arr, "shape", k, I))
            for k, d in enumerate(known)]
    if isinstance(arr, N.Var):
        # each lazy of the same array reads its lengths again (``a * a``): the
        # same values, which ``same_value`` must know, or every such expression
        # gets a broadcasting test and a second, general copy of its loops
        for k, d in enumerate(dims):
            if isinstance(d, N.Var):
                d.length_of = (arr.name, k)

    reversed_view = (isinstance(e, N.ArrayView) and component is None and t.ndim >= 1
                     and _negated(e.strides[-1]))

    def elem(idx):
        if flat_reads and leaf_key(arr) in flat_reads[-1]:
            view, k = flat_reads[-1][leaf_key(arr)]
            return N.Load(view, [k[0]], t.dtype)
        if component is not None:
            base, part = component
            return N.ComplexPart(N.Load(base, list(idx), base.type.dtype), part, t.dtype)
        if reversed_view and assume_full and assume_full[-1] is not None:
            return N.Load(_stepping_back(arr, assume_full[-1]), list(idx), t.dtype)
        return N.Load(arr, list(idx), t.dtype)
    out = Lazy(t.copy(layout="C", readonly=False), dims, elem, sources=[arr],
               leaves=[arr])
    out.tree = arr
    return out


def _negated(step) -> bool:
    """Is the view's stride written as a negated one (``a[::-1]``, ``np.flip``)?"""
    return isinstance(step, N.BinOp) and (
        step.op == "sub" and isinstance(step.left, N.Const) and step.left.value == 0
        or step.op == "mul" and isinstance(step.right, N.Const) and step.right.value == -1)


def _stepping_back(arr, conds):
    """``arr`` read in the fast copy of a loop nest (``creation.fill``) as a view
    whose innermost stride is the constant minus one item, with that equality
    added to the copy's conditions: a reversed operand then loads whole vectors
    and reverses them, where its run-time stride left one load per value (LLVM
    versions a run-time stride on its being one item, not minus one).  Made only
    for views whose stride is written negated, so that the common forward views
    keep the fast copy."""
    from .sizes import itemsize
    t = arr.type
    last = N.ArrayAttr(arr, "stride", t.ndim - 1, I)
    back = C(-itemsize(t), I)
    conds.append((last, back))
    shape = [N.ArrayAttr(arr, "shape", k, I) for k in range(t.ndim)]
    strides = [N.ArrayAttr(arr, "stride", k, I) for k in range(t.ndim - 1)] + [back]
    return N.ArrayView(arr, C(0, I), shape, strides, t)


# While ``sum_order`` sums an expression in its operands' memory order, the top
# dict maps each leaf array (``leaf_key``) to ``(1-D view of its memory, [index])``:
# the leaf reads its flat view there instead of its own element.
flat_reads: list = []


def leaf_key(a):
    """What identifies a leaf array: a local by its name (``a * a`` reads one
    array through two ``Var`` nodes), anything else by identity."""
    return ("var", a.name) if isinstance(a, N.Var) else id(a)


# While ``creation.fill`` loops over a split axis (``Lazy.split``), the top dict
# maps ``id`` of the index expression it passes for that axis (``o * rep + j``)
# to ``(o, rep, j)``: the source index, known without a division.
split_indices: list = []


def repeated_source(i: N.Expr, rep: N.Expr) -> N.Expr:
    """``i // rep`` for an index ``i >= 0`` of an axis repeated ``rep > 0``
    times: the outer counter when ``i`` is the index of a split loop over
    ``rep``, else a division (the element is computed in some other loop)."""
    return _split_source(i, rep, 0, "sdiv")


def tiled_source(i: N.Expr, n: N.Expr) -> N.Expr:
    """``i % n`` for an index ``i >= 0`` of an axis that repeats a source of
    ``n > 0`` elements whole (``np.tile``): the inner counter when ``i`` is the
    index of a split loop over ``n``, else a remainder."""
    return _split_source(i, n, 2, "srem")


def _split_source(i, rep, which, op):
    """The counter ``which`` (0 outer, 2 inner) of the split loop whose index is
    ``i``, else ``i`` divided by ``rep`` (``op``, a zero taken as one)."""
    if split_indices:
        hit = split_indices[-1].get(id(i))
        if hit is not None and hit[1] is rep:
            return hit[which]
    safe = N.Select(N.Cmp("eq", rep, C(0, I), T.BOOL), C(1, I), rep, I)
    return N.BinOp(op, i, safe, I)


def _composed_split(lazies: list, dims: list):
    """The split a lazy built of ``lazies`` over the broadcast ``dims`` keeps:
    an operand's, where its axis is the result's own (not broadcast)."""
    for z in lazies:
        if z.split is not None:
            axis, count, rep = z.split
            off = len(dims) - len(z.dims)
            if same_value(z.dims[axis], dims[axis + off]):
                return (axis + off, count, rep)
    return None


def broadcast(L, lazies: list) -> list:
    """The broadcast shape of several lazies (ValueError as NumPy when they do not
    broadcast); also returns per-lazy index mappers."""
    ndim = max(len(z.dims) for z in lazies)
    out = []
    for axis in range(ndim):
        dims = []
        for z in lazies:
            k = axis - (ndim - len(z.dims))
            if k >= 0:
                dims.append(z.dims[k])
        d = dims[0]
        for other in dims[1:]:
            if same_value(d, other) or _is_one(other):
                continue
            if _is_one(d):
                d = other
                continue
            bad = ops.band(ops.band(N.Cmp("ne", d, other, T.BOOL),
                                    N.Cmp("ne", d, C(1, I), T.BOOL)),
                           N.Cmp("ne", other, C(1, I), T.BOOL))
            L.emit(N.If(cond=bad, then=[N.Raise(
                exc=ValueError, args=[d, other], deopt=RERUN,
                message=f"operands could not be broadcast together (axis {axis}: "
                        "sizes {} and {})")]))
            d = L.let(N.Select(N.Cmp("eq", d, C(1, I), T.BOOL), other, d, I))
        out.append(d)
    return out


def _is_one(d) -> bool:
    return isinstance(d, N.Const) and d.value == 1


def same_value(a, b) -> bool:
    """Are two dimension expressions known to be equal at compile time?  Two
    variables holding the length of one axis of one array variable are (a lazy
    reads no other array through that name while it lives: ``passes/fuse_temps``
    keeps none across an assignment to its operands)."""
    if isinstance(a, N.Const) and isinstance(b, N.Const):
        return a.value == b.value
    if not (isinstance(a, N.Var) and isinstance(b, N.Var)):
        return False
    if a.name == b.name:
        return True
    of = getattr(a, "length_of", None)
    return of is not None and of == getattr(b, "length_of", None)


# While ``creation.fill`` generates the fast copy of a loop nest, the top list
# collects the conditions under which no operand broadcasts (each operand's axis
# equals the loop's), and ``reindex`` indexes with the loop counters directly;
# ``None`` on top: the general copy, with broadcasting selects.
assume_full: list = []


def reindex(z: Lazy, dims: list):
    """Element function of ``z`` on the broadcast index space ``dims``."""
    off = len(dims) - len(z.dims)

    def elem(idx):
        own = []
        for k, d in enumerate(z.dims):
            i = idx[off + k]
            if same_value(d, dims[off + k]):
                own.append(i)
            elif _is_one(d):
                own.append(C(0, I))
            elif assume_full and assume_full[-1] is not None:
                assume_full[-1].append((d, dims[off + k]))
                own.append(i)
            else:
                own.append(broadcast_index(i, d, innermost=off + k == len(dims) - 1))
        return z.elem(own)
    return elem


def broadcast_index(i, d, innermost=False):
    """The index along an operand's axis of length ``d`` at loop counter ``i``,
    where ``d`` is the loop's length or 1 (broadcast): ``i``, or 0.

    A select only on the ``innermost`` axis, which LLVM unswitches into a copy of
    the loop per case -- the copy that decides what vectorises.  Elsewhere
    ``min(i, d - 1)`` (``d`` is 0 only when the loop runs no iteration): a select
    there would be unswitched too, one copy of the whole nest per combination of
    axes, for cases that gain nothing from it."""
    if innermost:
        return N.Select(N.Cmp("eq", d, C(1, I), T.BOOL), C(0, I), i, I)
    return N.Intrinsic("smin", [i, N.BinOp("sub", d, C(1, I), I)], I)


def python_int_fits(L, args: list, t: T.Scalar) -> list:
    """NumPy 2 converts a Python int operand to the integer array's dtype ``t``
    and raises OverflowError when it does not fit (``uint8_array + 300``,
    ``np.maximum(u64, -1)``); int64 scalars meeting a narrower or unsigned
    integer result here are such Python ints (a NumPy scalar would have widened
    the result).  Returns ``args`` with those scalars bound once."""
    if not (t.is_int and (t.bits < 64 or not t.is_signed)):
        return args
    lo = 0 if not t.is_signed else -(1 << (t.bits - 1))
    hi = (1 << t.bits) - 1 if not t.is_signed else (1 << (t.bits - 1)) - 1
    out = []
    for a in args:
        if not isinstance(a, Lazy) and a.type == T.INT64:
            a = L.let(a)
            bad = N.Cmp("lt", a, C(lo, T.INT64), T.BOOL)
            if hi < (1 << 63) - 1:
                bad = ops.bor(bad, N.Cmp("gt", a, C(hi, T.INT64), T.BOOL))
            L.emit(N.If(cond=bad, then=[N.Raise(
                exc=OverflowError, args=[a],
                message=f"Python integer {{}} out of bounds for {_dtype_name(t)}")]))
        out.append(a)
    return out


def _dtype_name(t: T.Scalar) -> str:
    return f"{'int' if t.is_signed else 'uint'}{t.bits}"


def lift(L, args: list, rtype: T.ArrayType, fn) -> Lazy:
    """A lazy applying ``fn(*element_exprs)`` over broadcast array/scalar ``args``."""
    lazies, pos = [], []
    scalars = {}
    for k, a in enumerate(args):
        if isinstance(a.type, T.ArrayType) or isinstance(a, Lazy):
            lazies.append(to_lazy(L, a))
            pos.append(k)
        else:
            scalars[k] = L.let(a)
    dims = broadcast(L, lazies)
    elems = {k: reindex(z, dims) for k, z in zip(pos, lazies)}

    def elem(idx):
        vals = [elems[k](idx) if k in elems else scalars[k] for k in range(len(args))]
        return fn(*vals)
    known = all(z.sources is not None for z in lazies)
    leaves = all(z.leaves is not None for z in lazies)
    out = Lazy(rtype, dims, elem,
               sources=[a for z in lazies for a in z.sources] if known else None,
               leaves=[a for z in lazies for a in z.leaves] if leaves else None)
    out.split = _composed_split(lazies, dims)
    out.costly = any(z.costly for z in lazies)
    if leaves and all(z.tree is not None for z in lazies):
        out.tree = tuple(z.tree for z in lazies)
    return out


def mark_costly(z: Lazy, costly: bool = True) -> Lazy:
    """``z``, marked as computing an expensive function per element (when
    ``costly``): see ``Lazy.costly``."""
    if costly and isinstance(z, Lazy):
        z.costly = True
    return z


def once(L, e: N.Expr) -> Lazy:
    """``e`` as a lazy whose elements a consumer may read several times: a
    costly expression computed whole first (NumPy's temporary), any other kept
    unevaluated (cheaper recomputed than stored and read back)."""
    if isinstance(e, Lazy) and e.costly:
        e = materialize(L, e)
    return to_lazy(L, e)


def whole_first(L, e: N.Expr) -> N.Expr:
    """``e`` for a library function that reads an expression's elements where it
    needs them (a sum, ``argmax``, ``np.dot`` ...): a costly one (``Lazy.costly``)
    computed whole first into NumPy's temporary -- a loop LLVM vectorises, calling
    NumPy's own SIMD functions, so NumPy's bits, and each element once (computed
    inside the reader's loop, ``np.argmax(np.tan(a))`` made a scalar call per
    value: 0.15x NumPy's speed) -- where that temporary's layout is NumPy's (1-D,
    or every array it reads C-ordered); anything else as :func:`fused_elements`."""
    if isinstance(e, Lazy) and e.costly and c_ordered_temporary(e):
        return materialize(L, e)
    return fused_elements(L, e)


def c_ordered_temporary(e: Lazy) -> bool:
    """Is NumPy's temporary of ``e`` C-ordered, as :func:`materialize` makes it
    (1-D, or every array it reads C-ordered: NumPy's takes its inputs' memory
    order, which decides the order a sum of it adds in)?"""
    return len(e.dims) <= 1 or bool(e.leaves) and all(
        getattr(x.type, "layout", None) == "C" for x in e.leaves)


def materialize(L, e: N.Expr) -> N.Expr:
    """A real array for ``e`` (allocating and filling a lazy once)."""
    if not isinstance(e, Lazy):
        return e
    from .creation import allocate, fill
    arr = allocate(L, e.type, e.dims)
    if hasattr(e, "fill_into"):         # fancy_nd.FancyLazy: index reads hoisted
        e.fill_into(L, arr)
    else:
        fill(L, arr, e.dims, e.elem, e.split)
    return arr


def fused_elements(L, z):
    """``z`` as a consumer that computes its elements on the fly takes it -- a
    sum's pairwise leaves, a running max, a cumulative sum (the array
    templates that accept expressions, ``passes/lower_semantics.e_PyCall``):
    where the target calls NumPy's own SIMD functions for NumPy's loops
    (``Capabilities.numpy_simd_calls``, ``Intrinsic.numpy_loop``), their
    elements here are the C library's / vector math's functions as before.
    NumPy's functions batch only in loops LLVM's loop vectoriser takes, and
    these consumers' unrolled accumulators are vectorised by its SLP vectoriser
    instead, which takes no call of theirs: each value would make a vector
    call (``np.sum(np.exp(a))`` 6x slower).  (Computing NumPy's temporary whole
    first gives NumPy's bits at NumPy's speed, but allocates where the fused
    sum allocates nothing.)  Templates that copy the values in a plain loop
    first (``CallTemplate.copies_elements``: ``np.sort``, ``np.median``,
    ``np.roll`` ...) are not given this: NumPy's functions vectorise there."""
    ctx = getattr(L, "ctx", None)
    if (not isinstance(z, Lazy) or ctx is None
            or not getattr(ctx.capabilities, "numpy_simd_calls", False)):
        return z
    out = copy.copy(z)
    elem = z.elem

    def plain(idx):
        mark = len(L.out)
        e = elem(idx)
        roots = [e] + [x for st in N.walk_stmts(L.out[mark:]) for x in N.stmt_exprs(st)
                       if x is not None]
        for root in roots:
            for x in N.walk_expr(root):
                if isinstance(x, N.Intrinsic) and getattr(x, "numpy_loop", False):
                    x.numpy_loop = False
        return e
    out.elem = plain
    return out


# ------------------------------------------------------------ element semantics
def np_scalar_binop(L, op: str, x: N.Expr, y: N.Expr, t: T.Scalar) -> N.Expr:
    """``x op y`` with a NumPy scalar operand (operators, ``divmod``, ``pow``):
    :func:`np_binop`, except that a float ``**`` is C's ``pow`` as NumPy's scalar
    power computes it.  The operands already fit ``t`` (:func:`python_int_fits`)."""
    if op == "pow" and t.is_float:
        return ops.np_scalar_pow(L, x, y, t)
    return np_binop(L, op, x, y, t, path="operator")


def one_exponent(exponent_type, t: T.Scalar) -> bool:
    """Does a float ``**`` take NumPy's one-exponent fast paths (a scalar or 0-d
    exponent: :func:`np_power_one_exponent`)?"""
    return t.is_float and (not isinstance(exponent_type, T.ArrayType)
                           or exponent_type.ndim == 0)


def numpy_pow(x: N.Expr, y: N.Expr, t: T.Scalar) -> N.Expr:
    """An element of NumPy's float power loop past its fast paths: C's ``pow``
    where NumPy calls it, else NumPy's own SIMD function (``np.power`` on
    AVX-512 hosts: SVML's ``pow``), which a target may call
    (``Intrinsic.numpy_loop``: ``lowering/numpy_loops.py``)."""
    r = N.Intrinsic("pow", [x, y], t)
    r.numpy_loop = True
    return r


def np_power_one_exponent(L, x: N.Expr, y: N.Expr, t: T.Scalar) -> N.Expr:
    """``x ** y`` in NumPy's float power loop when one exponent serves the whole
    loop (a scalar or 0-d exponent: its stride is 0).  NumPy then tests the
    exponent's value: -1 is ``1/x``, 0.5 ``sqrt(x)`` (so ``-0.0 ** 0.5`` is
    -0.0 and ``-inf ** 0.5`` NaN, where ``pow`` gives 0.0 and inf), 2 ``x*x``,
    0 is 1 and 1 is ``x`` (where SVML's float32 ``pow`` is an ulp off for a few
    values); any other value its ``pow`` (:func:`numpy_pow`)."""
    x, y = cast_to(L, x, t), cast_to(L, y, t)
    k = y.operand if isinstance(y, N.Cast) else y
    x = L.let(x)
    fast = {-1.0: lambda: N.BinOp("fdiv", C(1.0, t), x, t),
            0.0: lambda: C(1.0, t),
            0.5: lambda: N.Intrinsic("sqrt", [x], t),
            1.0: lambda: x,
            2.0: lambda: N.BinOp("mul", x, x, t)}
    if isinstance(k, N.Const) and not isinstance(k.value, complex):
        return fast.get(float(k.value), lambda: numpy_pow(x, y, t))()
    y = L.let(y)
    r = numpy_pow(x, y, t)
    for v, make in fast.items():
        r = N.Select(N.Cmp("eq", y, C(v, t), T.BOOL), make(), r, t)
    return r


def np_binop(L, op: str, x: N.Expr, y: N.Expr, t: T.Scalar, path="array",
             compare_in=None, plain_if=None) -> N.Expr:
    """``x op y`` on elements with NumPy's semantics; ``t`` is the result dtype
    (bool for comparisons).  ``path`` says which NumPy code computes it, for the
    rounding of complex products (``product_forms``): ``"array"`` (an array
    operation), ``"operator"`` (two NumPy scalars), ``"scalar_ufunc"``.
    ``compare_in``: a comparison's :func:`comparison_type` (None: promote the
    element types); ``plain_if``: ``product_forms.plain_flag``'s flag."""
    if op in ("lt", "le", "gt", "ge", "eq", "ne"):
        ct = compare_in or (promote(x.type, y.type) if x.type != y.type else x.type)
        if ct.is_complex:
            x, y = cast_to(L, x, ct), cast_to(L, y, ct)
            if op not in ("eq", "ne"):
                return np_complex_order(L, op, x, y)
            return ops.compare(L, op, x, y)
        return N.Cmp(op, ops.convert_wrap(x, ct), ops.convert_wrap(y, ct), T.BOOL)
    if t.is_bool:
        bop = {"bitand": "and", "mul": "and", "bitor": "or", "add": "or", "bitxor": "xor"}[op]
        return N.BinOp(bop, ops.convert_wrap(x, t) if x.type != t else x,
                       ops.convert_wrap(y, t) if y.type != t else y, t)
    if op == "truediv":
        x, y = cast_to(L, x, t), cast_to(L, y, t)
        if t.is_complex:
            return np_complex_div(L, x, y, t)
        return N.BinOp("fdiv", x, y, t)
    x, y = cast_to(L, x, t), cast_to(L, y, t)
    if op in ("add", "sub", "mul"):
        if t.is_complex and op == "mul":
            from ..complex.product_forms import cmul_form, cmul_plain_if
            return cmul_plain_if(L, x, y, t, cmul_form(path, t.bits), plain_if)
        if t.is_complex:
            return ops.complex_arith(L, op, x, y, t)
        return N.BinOp(op, x, y, t)
    if op in ("bitand", "bitor", "bitxor"):
        return N.BinOp({"bitand": "and", "bitor": "or", "bitxor": "xor"}[op], x, y, t)
    if op in ("floordiv", "mod"):
        if t.is_float:
            from ..python import float_divmod as nph
            helper = nph.np_floordiv if op == "floordiv" else nph.np_mod
            r = L.call_helper(helper, [ops.convert(L, x, T.FLOAT64),
                                       ops.convert(L, y, T.FLOAT64)])
            return ops.convert_wrap(r, t)
        return _np_int_divmod(L, op, x, y, t)
    if op == "pow":
        if t.is_float:
            k = y.operand if isinstance(y, N.Cast) else y     # the exponent as written
            if isinstance(k, N.Const) and k.value == 2:
                return N.BinOp("mul", x, x, t)     # NumPy's square fast path, exact
            return numpy_pow(x, y, t)
        if t.is_int:
            if t.is_signed:
                y = L.let(y)
                L.raise_if(N.Cmp("lt", y, C(0, t), T.BOOL), ValueError,
                           "Integers to negative integer powers are not allowed.")
            from ..python import helpers
            if t.is_signed:
                r = L.call_helper(helpers.int_pow, [ops.convert_wrap(x, I),
                                                      ops.convert_wrap(y, I)])
            else:
                u = T.UINT64
                r = L.call_helper(helpers.uint_pow, [ops.convert_wrap(x, u),
                                                       ops.convert_wrap(y, u)])
            return ops.convert_wrap(r, t)
        from ..complex.power import np_cpow
        return np_cpow(L, x, y, t)
    if op in ("lshift", "rshift"):
        return _np_shift(L, op, x, y, t)
    raise Incompatible(f"numpy operator {op}")


def np_complex_order(L, op, x, y):
    """NumPy's lexicographic order of complex numbers (its ``CLT`` ... macros):
    ``x < y`` is ``x.real < y.real`` with neither imaginary part NaN, or equal
    real parts and ``x.imag < y.imag``."""
    c = x.type.component
    x, y = L.let(x), L.let(y)
    xr, xi = L.let(N.ComplexPart(x, "real", c)), L.let(N.ComplexPart(x, "imag", c))
    yr, yi = L.let(N.ComplexPart(y, "real", c)), L.let(N.ComplexPart(y, "imag", c))
    strict = {"lt": "lt", "le": "lt", "gt": "gt", "ge": "gt"}[op]
    no_nan = ops.band(N.Cmp("eq", xi, xi, T.BOOL), N.Cmp("eq", yi, yi, T.BOOL))
    by_real = ops.band(N.Cmp(strict, xr, yr, T.BOOL), no_nan)
    by_imag = ops.band(N.Cmp("eq", xr, yr, T.BOOL), N.Cmp(op, xi, yi, T.BOOL))
    return ops.bor(by_real, by_imag)


def np_complex_extreme(L, impl, x, y):
    """NumPy's ``minimum``/``maximum``/``fmin``/``fmax`` loops of complex
    numbers: ``x`` unless it loses the lexicographic comparison (``CLE``/``CGE``
    above); ``minimum``/``maximum`` keep a NaN ``x`` (either part), ``fmin``/
    ``fmax`` keep ``x`` against a NaN ``y``."""
    op = "le" if impl in ("minimum", "fmin") else "ge"
    x, y = L.let(x), L.let(y)
    keeps = np_complex_order(L, op, x, y)
    nan = _complex_nan(L, x if impl in ("minimum", "maximum") else y)
    return N.Select(ops.bor(nan, keeps), x, y, x.type)


def np_complex_clip(L, x, lo, hi):
    """NumPy's clip of complex numbers: ``_NPY_MIN(_NPY_MAX(x, lo), hi)`` with
    the array order macros (``PyArray_CGT``: strict, so a tie gives the bound,
    and no NaN test on the imaginary parts), a NaN first operand kept at each
    step."""
    c = x.type.component

    def step(a, b, op):
        a, b = L.let(a), L.let(b)
        ar, ai = N.ComplexPart(a, "real", c), N.ComplexPart(a, "imag", c)
        br, bi = N.ComplexPart(b, "real", c), N.ComplexPart(b, "imag", c)
        keeps = ops.bor(N.Cmp(op, ar, br, T.BOOL),
                        ops.band(N.Cmp("eq", ar, br, T.BOOL), N.Cmp(op, ai, bi, T.BOOL)))
        return N.Select(ops.bor(_complex_nan(L, a), keeps), a, b, a.type)

    return step(step(x, lo, "gt"), hi, "lt")


def _complex_nan(L, z):
    c = z.type.component
    return N.Cmp("uno", N.ComplexPart(z, "real", c), N.ComplexPart(z, "imag", c), T.BOOL)


def np_complex_div(L, x, y, t):
    """NumPy's complex division loop (Smith's method, scaled by the reciprocal),
    operation for operation, so results are NumPy's bit for bit: with
    ``|y.real| >= |y.imag|``, ``rat = y.imag / y.real``, ``scl = 1 / (y.real +
    y.imag * rat)``; the other way round when ``|y.imag|`` is larger (or a part
    is NaN); a zero divisor divides each part by ``|y.real|`` (inf or NaN).  The
    three cases are computed branch-free and selected."""
    c = t.component
    x, y = L.let(x), L.let(y)
    xr, xi = L.let(N.ComplexPart(x, "real", c)), L.let(N.ComplexPart(x, "imag", c))
    yr, yi = L.let(N.ComplexPart(y, "real", c)), L.let(N.ComplexPart(y, "imag", c))
    ar = L.let(N.Intrinsic("fabs", [yr], c))
    ai = L.let(N.Intrinsic("fabs", [yi], c))

    def op(o, a, b):
        return N.BinOp(o, a, b, c)

    one = C(1.0, c)
    rat1 = L.let(op("fdiv", yi, yr))
    scl1 = L.let(op("fdiv", one, op("add", yr, op("mul", yi, rat1))))
    re1 = op("mul", op("add", xr, op("mul", xi, rat1)), scl1)
    im1 = op("mul", op("sub", xi, op("mul", xr, rat1)), scl1)
    rat2 = L.let(op("fdiv", yr, yi))
    scl2 = L.let(op("fdiv", one, op("add", yi, op("mul", yr, rat2))))
    re2 = op("mul", op("add", op("mul", xr, rat2), xi), scl2)
    im2 = op("mul", op("sub", op("mul", xi, rat2), xr), scl2)
    re0, im0 = op("fdiv", xr, ar), op("fdiv", xi, ar)
    first = L.let(N.Cmp("ge", ar, ai, T.BOOL))
    zero = L.let(ops.band(N.Cmp("eq", ar, C(0.0, c), T.BOOL),
                          N.Cmp("eq", ai, C(0.0, c), T.BOOL)))

    def pick(v0, v1, v2):
        return N.Select(first, N.Select(zero, v0, v1, c), v2, c)
    return N.MakeComplex(pick(re0, re1, re2), pick(im0, im1, im2), t)


def cast_to(L, e, t):
    """``e`` converted to scalar type ``t`` as NumPy casts (``e`` itself when it
    is already ``t``)."""
    if e.type == t:
        return e
    if e.type.is_complex or t.is_complex:
        return ops.convert(L, e, t)
    if e.type.is_float and t.is_int:
        return N.Cast(e, t)
    return N.Cast(e, t)


def _np_int_divmod(L, op, x, y, t):
    x, y = L.let(x), L.let(y)
    zero = C(0, t)
    yzero = N.Cmp("eq", y, zero, T.BOOL)
    if not t.is_signed:
        safe = N.Select(yzero, C(1, t), y, t)
        r = N.BinOp("udiv" if op == "floordiv" else "urem", x, safe, t)
        return N.Select(yzero, zero, r, t)
    lo, _ = T.int_range(t)
    overflow = ops.band(N.Cmp("eq", x, C(lo, t), T.BOOL), N.Cmp("eq", y, C(-1, t), T.BOOL))
    safe = L.let(N.Select(ops.bor(yzero, overflow), C(1, t), y, t))
    r = L.let(N.BinOp("srem", x, safe, t))
    adjust = ops.band(N.Cmp("ne", r, zero, T.BOOL),
                      N.Cmp("lt", N.BinOp("xor", r, y, t), zero, T.BOOL))
    if op == "mod":
        res = N.Select(adjust, N.BinOp("add", r, y, t), r, t)
    else:
        q = N.BinOp("sdiv", x, safe, t)
        res = N.Select(adjust, N.BinOp("sub", q, C(1, t), t), q, t)
    return N.Select(yzero, zero, res, t)


def _np_shift(L, op, x, y, t):
    x, y = L.let(x), L.let(y)
    U = T.Scalar("u", t.bits)
    big = N.Cmp("ge", N.Cast(y, U) if t.is_signed else y, C(t.bits, U), T.BOOL)
    amount = N.Select(big, C(0, t), y, t)
    if op == "lshift":
        return N.Select(big, C(0, t), N.BinOp("shl", x, amount, t), t)
    if t.is_signed:
        fill_ = N.Select(N.Cmp("lt", x, C(0, t), T.BOOL), C(-1, t), C(0, t), t)
        return N.Select(big, fill_, N.BinOp("ashr", x, amount, t), t)
    return N.Select(big, C(0, t), N.BinOp("lshr", x, amount, t), t)


def np_unop(L, op, x, t):
    if op == "neg":
        if t.is_bool:
            raise Incompatible("negative of a boolean array (use ~ or logical_not)")
        return ops.unop(L, "neg", x, t)
    if op == "pos":
        return x
    if op == "invert":
        if t.is_bool:
            return N.UnOp("not", x, T.BOOL)
        if not t.is_int:
            raise Incompatible(f"~ on {t} arrays")
        return N.UnOp("invert", x, t)
    raise Incompatible(f"operator {op} on arrays (the truth value of an array is ambiguous)")
