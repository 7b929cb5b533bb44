"""``np.einsum(subscripts, *operands)`` with constant subscripts, as NumPy
computes it (``optimize=False``, its default): any number of operands of one
float32 or float64 dtype, or of integer operands (of several dtypes: each is
cast to NumPy's promoted dtype first), labels in explicit (``'ij,jk->ik'``) or
implicit (``'ij,jk'``) mode, repeated labels (``'ii->i'``, ``'ii'``), labels of
length 1 that broadcast and ellipses (``'...ij,...jk->...ik'``).

One operand and nothing summed is NumPy's view of it (``'ij->ji'``,
``'ii->i'``); otherwise NumPy's iterator order and loops over the operands'
memory (``einsum_iterator``, ``einsum_algorithms``, ``einsum_many``), so float
results are NumPy's bit for bit, into an output with NumPy's strides.  A
result with no label is a NumPy scalar.
Three float operands or more follow NumPy's buffered iterator: where its
inner loops start and end decides which products are summed together
(``einsum_iterator.buffer_setup``).  Operands of several integer and
float dtypes are cast to NumPy's promoted dtype (a copy of each, the values
NumPy's cast gives), and the iterator's buffering of them followed.  Complex
operands take NumPy's complex loops (``einsum_complex``), others cast to
complex with them.  Boolean operands take NumPy's logical sum of products
(``or`` of ``and``s) as a float32 sum of products, true where not zero;
with operands of other dtypes they are cast as NumPy casts them.
Float16 operands (hanajit has no float16), an ellipsis summed away (NumPy
raises) and keywords (``out=``, ``optimize=True``, ...) fall back."""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..arrays.creation import allocate, fill
from ..arrays.sum_order import memory_view
from ..python.operators import C
from ..registry import CallTemplate, register

I = T.INT64


def parse(spec, ndims):
    """``(terms, output, labels)``: the operands' label strings, the output's,
    and every label in the iterator's order (the output's, then the summed ones
    alphabetically); Incompatible where NumPy would raise or is not followed.
    An ellipsis becomes fresh labels, one per broadcast axis (aligned on the
    right, as broadcasting aligns), in the output where its ``...`` is, first
    in implicit mode."""
    if not isinstance(spec, str):
        raise Incompatible("np.einsum() with subscripts that are not a constant string")
    spec = spec.replace(" ", "")
    lhs, arrow, out = spec.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(ndims):
        raise Incompatible("np.einsum(): as many subscript terms as operands")
    letters = [t.replace("...", "") for t in terms] + [out.replace("...", "")]
    if not all(c.isalpha() and c.isascii() for t in letters for c in t) or any(
            t.count("...") > 1 for t in terms + [out]):
        raise Incompatible("np.einsum(): letters and at most one ellipsis per term")
    spare = [c for c in "ZYXWVUTSRQPONMLKJIHGFEDCBA" if c not in spec]
    width = max([nd - len(t.replace("...", "")) for t, nd in zip(terms, ndims)
                 if "..." in t] or [0])
    if len(spare) < width:
        raise Incompatible("np.einsum(): too many labels")
    fresh = "".join(reversed(spare[:width]))
    expanded = []
    for t, nd in zip(terms, ndims):
        if "..." in t:
            k = nd - len(t) + 3
            if k < 0:
                raise Incompatible("np.einsum(): one letter per axis of each operand")
            t = t.replace("...", fresh[width - k:])
        if len(t) != nd:
            raise Incompatible("np.einsum(): one letter per axis of each operand")
        expanded.append(t)
    used = "".join(expanded)
    if not arrow:
        singles = sorted(c for c in set(used) if used.count(c) == 1 and c not in fresh)
        out = fresh + "".join(singles)
    else:
        if width and "..." not in out and any("..." in t for t in terms):
            raise Incompatible("np.einsum(): an ellipsis summed away")
        out = out.replace("...", fresh)
        if not all(c in used for c in out) or len(set(out)) != len(out):
            raise Incompatible("np.einsum(): each output label once, and in an operand")
    return expanded, out, list(out) + sorted(set(used) - set(out))


def _dtype(args):
    """The dtype NumPy computes in: the operands' one dtype, or NumPy's
    promotion of theirs (each operand is cast to it first, through its
    buffered iterator, ``einsum_iterator.buffer_setup``)."""
    dts = {a.dtype for a in args}
    if len(dts) != 1:
        if not all(d.is_int or d.is_bool or d.is_float and d.bits in (32, 64)
                   or d.is_complex for d in dts):
            raise Incompatible("np.einsum() of operands of several dtypes other than "
                               "booleans, integers, float32, float64 and complex")
        import numpy as np
        from ..arrays.creation import dtype_of
        return dtype_of(np.result_type(*[str(d) for d in dts]))
    dt = dts.pop()
    if not (dt.is_int or dt.is_bool or dt.is_float and dt.bits in (32, 64)
            or dt.is_complex):
        raise Incompatible(f"np.einsum() of {dt}")
    return dt


@register
class Einsum(CallTemplate):
    paths = ("numpy.einsum",)

    def plan(self, call, args, kwargs):
        if kwargs and not (set(kwargs) == {"optimize"} and isinstance(
                call.kwargs["optimize"], N.Const) and call.kwargs["optimize"].value is False):
            raise Incompatible("np.einsum() with keywords (optimize=False only)")
        ops = args[1:]
        if not ops or not all(isinstance(a, T.ArrayType) for a in ops):
            raise Incompatible("np.einsum(subscripts, *operands) of arrays")
        from ..statistics.var_std_norm import const_arg
        try:
            spec = const_arg(call, 0, "subscripts")
        except Incompatible:
            spec = None
        terms, out, labels = parse(spec, [a.ndim for a in ops])
        dt = _dtype(ops)
        return terms, out, labels, dt

    def typer(self, inf, call, args, kwargs):
        terms, out, labels, dt = call.plan = self.plan(call, args, kwargs)
        if not out:
            return dt
        return T.ArrayType(dt, len(out), "A")

    def lower(self, L, call, args, kwargs):
        terms, out, labels, dt = call.plan
        ops = [L.let(a) for a in args[1:]]
        sizes = _sizes(L, ops, terms, labels)
        if len(ops) == 1 and len(labels) == len(out):
            return _view(L, ops[0], terms[0], out, sizes, call.type)
        nout = len(out)
        if not dt.is_bool:
            res, ostr = _products(L, ops, terms, labels, nout, sizes, dt)
            return _result(L, res, ostr, sizes[:nout], call.type)
        # NumPy's ``or`` of ``and``s: true where any product is.  The operands
        # cast to float32: each product 0 or 1, a sum of them never comes back
        # to zero (past 2**24 it stops growing, where an integer count could
        # wrap), and the copies are half of int64's
        F = T.FLOAT32
        res, ostr = _products(L, ops, terms, labels, nout, sizes, F)
        flags = L.let(allocate(L, T.ArrayType(T.BOOL, 1, "C"), [N.ArrayAttr(res, "shape", 0, I)]))
        fill(L, flags, [N.ArrayAttr(res, "shape", 0, I)],
             lambda idx: N.Cmp("ne", N.Load(res, idx, F), C(0.0, F), T.BOOL))
        return _result(L, flags, ostr, sizes[:nout], call.type)


def _result(L, res, ostr, sizes, rt):
    """The result: a NumPy scalar where no label is left, else a view of
    ``res`` (the values in NumPy's output order) with NumPy's strides."""
    dt = res.type.dtype
    if not sizes:
        return N.Load(res, [C(0, I)], dt)
    steps = [N.BinOp("mul", N.Load(ostr, [C(k, I)], I), C(max(1, dt.bits // 8), I), I)
             for k in range(len(sizes))]
    return N.ArrayView(res, C(0, I), sizes, steps, rt)


def _products(L, ops, terms, labels, nout, sizes, dt):
    """``(res, ostr)``: the sums of products in ``dt`` over NumPy's iterator
    with its loops, in NumPy's output order, and the output's strides in
    items (``einsum_iterator``)."""
    from . import einsum_algorithms as he
    from . import einsum_many as hm
    nl, nop = len(labels), len(ops)
    st = L.let(allocate(L, T.ArrayType(I, 2, "C"), [C(nop, I), C(nl, I)]))
    fill(L, st, [C(nop, I), C(nl, I)], lambda idx: C(0, I))
    mems, base = [], L.let(allocate(L, T.ArrayType(I, 1, "C"), [C(nop, I)]))
    for k, (arr, term) in enumerate(zip(ops, terms)):
        own = max(1, arr.type.dtype.bits // 8)
        mem, start = memory_view(L, arr, "np.einsum()")
        if arr.type.dtype != dt:
            mem = _cast(L, arr, mem, dt)
        mems.append(mem)
        L.emit(N.Store(array=base, indices=[C(k, I)], value=start))
        for ax, c in enumerate(term):
            at = [C(k, I), C(labels.index(c), I)]
            # (an axis of length 1 broadcasts: stride 0)
            step = N.Select(N.Cmp("eq", N.ArrayAttr(arr, "shape", ax, I), C(1, I), T.BOOL),
                            C(0, I), N.BinOp("sdiv", N.ArrayAttr(arr, "stride", ax, I),
                                             C(own, I), I), I)
            L.emit(N.Store(array=st, indices=at, value=N.BinOp(
                "add", N.Load(st, at, I), step, I)))
    size_arr = L.let(allocate(L, T.ArrayType(I, 1, "C"), [C(nl, I)]))
    for k, n in enumerate(sizes):
        L.emit(N.Store(array=size_arr, indices=[C(k, I)], value=n))
    count = C(1, I)
    for n in sizes[:nout]:
        count = N.BinOp("mul", count, n, I)
    res = L.let(allocate(L, T.ArrayType(dt, 1, "C"), [count]))
    fill(L, res, [N.ArrayAttr(res, "shape", 0, I)], lambda idx: C(0, dt))
    ostr = L.let(allocate(L, T.ArrayType(I, 1, "C"), [C(max(nout, 1), I)]))
    # the operands NumPy casts to ``dt`` (its iterator buffers them)
    cast = L.let(allocate(L, T.ArrayType(I, 1, "C"), [C(nop, I)]))
    for k, arr in enumerate(ops):
        L.emit(N.Store(array=cast, indices=[C(k, I)],
                       value=C(int(arr.type.dtype != dt), I)))
    if dt.is_complex:
        _complex_loops(L, mems, base, cast, st, size_arr, nout, res, ostr, dt)
        return res, ostr
    lanes = C(2 if dt.bits == 64 else 4, I)
    head = [base, cast]
    if nop >= 3 and dt.is_float:
        if nop > 3:
            mems = [_joined(L, mems, base, dt)] * 3
        helper = hm.einsum_floats
    elif nop > 3:
        mems = [_joined(L, mems, base, dt)]
        helper = hm.einsum_many
        head = [base]
    elif nop == 3:
        helper = hm.einsum_three
        head = [base]
    else:
        helper = {1: he.einsum_one, 2: he.einsum_two}[nop]
    head = mems + head
    L.emit(N.ExprStmt(value=L.call_helper(helper, head + [
        st, size_arr, C(nout, I), res, ostr, lanes, C(0, dt)])))
    return res, ostr


def _complex_loops(L, mems, base, cast, st, size_arr, nout, res, ostr, dt):
    """NumPy's complex loops (``einsum_complex``) over the operands' memories
    and the result, each seen as real and imaginary parts."""
    from .einsum_complex import einsum_complex
    part = T.FLOAT64 if dt.bits == 128 else T.FLOAT32
    half = C(dt.bits // 16, I)

    def parts(m):
        n = N.BinOp("mul", N.ArrayAttr(m, "shape", 0, I), C(2, I), I)
        return L.let(N.ArrayView(m, C(0, I), [n], [half], T.ArrayType(part, 1, "C")))
    if len(mems) > 3:
        mems = [_joined(L, mems, base, dt)]
    real = [parts(m) for m in mems]
    real += [real[-1]] * (3 - len(real))
    L.emit(N.ExprStmt(value=L.call_helper(einsum_complex, real + [
        base, cast, st, size_arr, C(nout, I), parts(res), ostr, C(0.0, part)])))


def _sizes(L, ops, terms, labels):
    """Each label's length: NumPy's ValueErrors where an operand's repeated label
    has two lengths, or two operands' lengths differ and neither is 1."""
    sizes = {}
    for k, (arr, term) in enumerate(zip(ops, terms)):
        seen = {}
        for ax, c in enumerate(term):
            n = L.let(N.ArrayAttr(arr, "shape", ax, I))
            if c in seen:
                L.emit(N.If(cond=N.Cmp("ne", n, seen[c], T.BOOL), then=[N.Raise(
                    exc=ValueError, args=[seen[c], n], message=(
                        f"dimensions in operand {k} for collapsing index '{c}' don't "
                        "match ({} != {})"))]))
                continue
            seen[c] = n
            if c in sizes:
                old = sizes[c]
                bad = N.Cmp("ne", n, old, T.BOOL)
                for x in (n, old):
                    bad = N.BinOp("and", bad, N.Cmp("ne", x, C(1, I), T.BOOL), T.BOOL)
                L.raise_if(bad, ValueError, "operands could not be broadcast together "
                           "with remapped shapes")
                sizes[c] = L.let(N.Select(N.Cmp("eq", old, C(1, I), T.BOOL), n, old, I))
            else:
                sizes[c] = n
    return [sizes[c] for c in labels]


def _cast(L, arr, mem, dt):
    """A copy of ``mem``, the memory ``arr`` spans, in ``dt`` (NumPy casts each
    operand to the dtype it computes in; every item of the span is cast, so
    strides in items stay the operand's).  A view spanning far more memory
    than it holds (``big[::1000]``) runs in the interpreter rather than copy
    all of it."""
    from ..indexing.elements import array_cast
    from ..python.helpers import Deopt
    n = L.let(N.ArrayAttr(mem, "shape", 0, I))
    size = C(1, I)
    for ax in range(arr.type.ndim):
        size = N.BinOp("mul", size, N.ArrayAttr(arr, "shape", ax, I), I)
    L.raise_if(N.Cmp("gt", n, N.BinOp("add", N.BinOp("mul", size, C(4, I), I),
                                      C(4096, I), I), T.BOOL), Deopt,
               "np.einsum() of operands of several dtypes, one a view spanning far "
               "more memory than it holds")
    copy = L.let(allocate(L, T.ArrayType(dt, 1, "C"), [n]))
    fill(L, copy, [n], lambda idx: array_cast(L, N.Load(mem, idx, mem.type.dtype), dt))
    return copy


def _joined(L, mems, base, dt):
    """The operands' memories one after another in one array (four operands
    or more: ``einsum_many`` takes them as one), ``base`` moved to match."""
    lengths = [L.let(N.ArrayAttr(m, "shape", 0, I)) for m in mems]
    total = C(0, I)
    for n in lengths:
        total = N.BinOp("add", total, n, I)
    joined = L.let(allocate(L, T.ArrayType(dt, 1, "C"), [L.let(total)]))
    at = C(0, I)
    for k, (m, n) in enumerate(zip(mems, lengths)):
        start = L.let(at)
        i = L.temp(I, "i")
        L.emit(N.ForCount(counter=i, count=n, body=[N.Store(
            array=joined, indices=[N.BinOp("add", start, N.Var(i, I), I)],
            value=N.Load(m, [N.Var(i, I)], dt))]))
        L.emit(N.Store(array=base, indices=[C(k, I)], value=N.BinOp(
            "add", N.Load(base, [C(k, I)], I), start, I)))
        at = N.BinOp("add", start, n, I)
    return joined


def _view(L, arr, term, out, sizes, rt):
    """NumPy's view for one operand with nothing summed: each output label's
    stride the sum of its axes' strides (``'ii->i'``: the diagonal)."""
    steps = []
    for c in out:
        s = C(0, I)
        for ax, d in enumerate(term):
            if d == c:
                s = N.BinOp("add", s, N.ArrayAttr(arr, "stride", ax, I), I)
        steps.append(s)
    return N.ArrayView(arr, C(0, I), sizes[:len(out)], steps, rt)
