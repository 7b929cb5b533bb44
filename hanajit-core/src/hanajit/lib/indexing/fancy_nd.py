"""Advanced (NumPy "fancy") indexing of arrays of any number of dimensions.

``m[idx]``, ``m[idx, j]``, ``m[i, idx]``, ``m[:, idx]``, ``m[idx1, idx2]``,
``m[rowmask]``, ``a[idx, ..., 0]`` -- any mix of integer arrays, boolean arrays,
integers, slices and ``...`` -- with NumPy's rules, decided here once:

* a boolean array covering ``k`` axes is replaced by its ``k`` nonzero index arrays
  (IndexError when its shape differs from those axes);
* the integer arrays (and, when any array is present, the integers) broadcast
  together (IndexError when they cannot) to the shape ``B``;
* the result has the sliced axes in order, with ``B`` in place of the advanced
  indices when these are next to each other, and first otherwise;
* negative indices wrap once; out-of-range indices raise IndexError -- checked
  before anything is read or written, whenever ``B`` is not empty (NumPy does not
  look at the index values of an empty broadcast);
* a scatter ``m[...] = v`` broadcasts ``v`` to the result shape and stores in C
  order of the result, so with repeated indices the last value wins; the value is
  read completely before the first store (``m[idx] += v`` and ``m[i] = m[j]`` give
  NumPy's buffered result): a computed value is materialised, an array value or
  index array is copied first when its memory meets the target's (a run-time
  test; otherwise it is read in place).

A gather lowers to a :class:`FancyLazy`, read where it is consumed: with no
sliced axes each index is checked where it is read, otherwise all are checked
first (NumPy checks them even when the result is empty).  ``assign_to_view``
turns a lazy used as an assignment target into the scatter, which checks every
index before the first store.
``np.newaxis`` is a sliced axis of length 1 that indexes no axis of the array.
"""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...errors import RERUN
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..python import operators as ops
from .elements import array_cast, setitem_value
from ..arrays.creation import allocate, fill
from ..python.operators import C
from ..arrays.reductions import loops, total_size

I = T.INT64


# ---------------------------------------------------------------- static plan
def _entry_kind(t) -> str:
    if isinstance(t, T.ArrayType):
        if t.ndim == 0:
            raise Incompatible("a 0-d array used as an index")
        if t.dtype.is_bool:
            return "bool"
        if t.dtype.is_int:
            return "arr"
        raise Incompatible(f"arrays used as indices must be of integer or boolean type, "
                           f"not {t.dtype}")
    if isinstance(t, T.Scalar) and t.is_int:
        return "int"
    if isinstance(t, T.Scalar) and t.is_bool:
        raise Incompatible("a boolean scalar as an array index")
    if isinstance(t, T.SliceType):
        return "slice"
    if isinstance(t, T.ConstType) and t.value is Ellipsis:
        return "ellipsis"
    if t == T.NONE:
        return "newaxis"
    raise Incompatible(f"index of type {t}")


def plan(arr: T.ArrayType, index_type):
    """The expanded index entries ``[(kind, type, first_axis)]`` of an advanced
    index (kinds: int, arr, bool, slice, full, newaxis), or None for basic
    indexing."""
    items = list(index_type.items) if isinstance(index_type, T.TupleType) else [index_type]
    if not any(isinstance(t, T.ArrayType) for t in items):
        return None
    kinds = [_entry_kind(t) for t in items]
    if kinds.count("ellipsis") > 1:
        raise Incompatible("an index can only have a single ellipsis")
    width = [t.ndim if k == "bool" else 0 if k == "newaxis" else 1
             for k, t in zip(kinds, items)]
    used = sum(w for k, w in zip(kinds, width) if k != "ellipsis")
    if used > arr.ndim:
        raise Incompatible(f"too many indices for a {arr.ndim}-D array")
    entries, axis = [], 0
    for k, t, w in zip(kinds, items, width):
        if k == "ellipsis":
            for _ in range(arr.ndim - used):
                entries.append(("full", None, axis))
                axis += 1
            continue
        entries.append((k, t, axis))
        axis += w
    while axis < arr.ndim:
        entries.append(("full", None, axis))
        axis += 1
    return entries


def _bcast_ndim(entries) -> int:
    return max((1 if k == "bool" else t.ndim) for k, t, _ in entries
               if k in ("arr", "bool"))


def _adjacent(index_type) -> bool:
    """Are the advanced indices next to each other in the index as written?  (An
    ``...`` between them separates them even where it stands for no axis, as in
    NumPy: ``a[:, 2, ..., idx]`` of a 3-D ``a`` puts the broadcast axes first.)"""
    items = list(index_type.items) if isinstance(index_type, T.TupleType) else [index_type]
    pos = [p for p, t in enumerate(items) if _entry_kind(t) in ("int", "arr", "bool")]
    return pos[-1] - pos[0] + 1 == len(pos)


_BASIC = ("slice", "full", "newaxis")


def result_type(arr: T.ArrayType, entries) -> T.ArrayType:
    nbasic = sum(1 for k, _, _ in entries if k in _BASIC)
    return T.ArrayType(arr.dtype, _bcast_ndim(entries) + nbasic, "C")


# ------------------------------------------------------------------ lowering
class FancyLazy(ew.Lazy):
    """A gather ``arr[index]`` not yet read; ``store(L, value)`` scatters instead."""

    def __init__(self, type_, dims, elem, positions, array):
        super().__init__(type_, dims, elem)
        self.positions = positions       # result indices -> indices into the array
        self.array = array               # the indexed array (a Var)

    check = None                         # the If checking the index arrays
    precheck = None                      # the same for a read (nothing copied)
    raw = ()                             # the integer index arrays as given
    bdims = ()
    lead = 0                             # result axes up to the last advanced one

    def fill_into(self, L, out):
        """Store the gather into the fresh array ``out``, reading (and wrapping)
        each index once per advanced position rather than once per element: the
        positions are computed in the loops over the leading axes (through the
        advanced ones), the trailing basic axes loop inside.  LLVM cannot move
        those reads out itself, since it cannot tell that ``out`` is not the
        index array.  (``m[rows]`` copies whole rows this way.)"""
        counters = [L.temp(I, "i") for _ in self.dims]
        idx = [N.Var(c, I) for c in counters]
        lead = self.lead

        def outer():
            pos = self.positions(idx)           # emits the index reads here
            inner = [N.Store(array=out, indices=list(idx),
                             value=N.Load(self.array, pos, self.array.type.dtype))]
            for c, d in reversed(list(zip(counters[lead:], self.dims[lead:]))):
                inner = [N.ForCount(counter=c, count=d, body=inner)]
            for st in inner:
                L.emit(st)
        body, _ = L.sub_block(outer)
        for c, d in reversed(list(zip(counters[:lead], self.dims[:lead]))):
            body = [N.ForCount(counter=c, count=d, body=body)]
        for st in body:
            L.emit(st)

    def store(self, L, value, python=True):
        _scatter(L, self, value, python)

    def normalise(self, L):
        """Check (and wrap) every index before anything is read or written -- only
        when the broadcast is not empty, as NumPy.  An index array that may share
        memory with the target (or is computed) is copied as checked int64, so the
        stores cannot change it; the others are read again, wrapped, where used."""
        if self.check is not None or not self.raw:
            return
        from ..parallel.regions import ranges_meet
        plans = []
        for entry, z, dim, axis, plain in self.raw:
            if plain is None:
                shared = C(True, T.BOOL)
            else:
                shared = L.let(ranges_meet(L, plain, self.array))
            d0 = L.let(N.Select(shared, z.dims[0], C(0, I), I)) \
                if not isinstance(shared, N.Const) else z.dims[0]
            tmp = allocate(L, T.ArrayType(I, len(z.dims), "C"), [d0] + list(z.dims[1:]))
            plans.append((entry, z, dim, axis, plain, shared, tmp))
        size = L.let(total_size(self.bdims))

        def check_all():
            for entry, z, dim, axis, plain, shared, tmp in plans:
                def body(idx, z=z, dim=dim, axis=axis, shared=shared, tmp=tmp):
                    j = _wrap_checked(L, z.elem(idx), dim, axis)
                    L.emit(N.If(cond=shared, then=[N.Store(array=tmp, indices=list(idx),
                                                           value=j)]))
                loops(L, z.dims, body)
        stmts, _ = L.sub_block(check_all)
        self.check = N.If(cond=N.Cmp("ne", size, C(0, I), T.BOOL), then=stmts)
        L.emit(self.check)
        for entry, z, dim, axis, plain, shared, tmp in plans:
            if plain is None:
                entry[:] = ["arr", ew.Lazy(z.type, z.dims, lambda idx, tmp=tmp: N.Load(
                    tmp, list(idx), I))]
            else:
                entry[:] = ["maybe", z, dim, shared, tmp]

    def checks_after(self, L):
        """Check the indices after what was emitted since (NumPy checks the
        value's shape first), for a store: the reading checks give way to
        :meth:`normalise`."""
        if self.precheck is not None:
            L.out[:] = [s for s in L.out if s is not self.precheck]
            self.precheck = None
        self.normalise(L)


def _index_items(L, index, index_type):
    if not isinstance(index_type, T.TupleType):
        return [index]
    if isinstance(index, N.MakeTuple):
        return list(index.items)
    if isinstance(index, N.Const):
        return [C(v, t) for v, t in zip(index.value, index_type.items)]
    tup = L.let(index)
    return [N.TupleGet(tup, k, t) for k, t in enumerate(index_type.items)]


def _raise_index(L, i, dim, axis):
    L.emit(N.Raise(exc=IndexError, args=[i, dim],
                   message=f"index {{}} is out of bounds for axis {axis} with size {{}}"))


def _wrap_checked(L, v, dim, axis):
    """``v`` (any integer type, converted as NumPy converts to intp) wrapped once
    and checked against ``dim``."""
    i = L.let(ops.convert_wrap(v, I) if v.type != I else v)
    j = L.let(N.Select(N.Cmp("lt", i, C(0, I), T.BOOL), N.BinOp("add", i, dim, I), i, I))
    bad = N.Cmp("ge", N.Cast(j, T.UINT64), N.Cast(dim, T.UINT64), T.BOOL)
    stmts, _ = L.sub_block(lambda: _raise_index(L, i, dim, axis))
    L.emit(N.If(cond=bad, then=stmts))
    return j


def mask_shape_check(L, arr, z, first_axis=0):
    """IndexError unless the boolean lazy ``z`` matches the axes it covers."""
    for k, d in enumerate(z.dims):
        ad = N.ArrayAttr(arr, "shape", first_axis + k, I)
        L.emit(N.If(cond=N.Cmp("ne", ad, d, T.BOOL), then=[N.Raise(
            exc=IndexError, args=[ad, d],
            message=f"boolean index did not match indexed array along axis "
                    f"{first_axis + k}; size of axis is {{}} but size of corresponding "
                    "boolean axis is {}")]))


def _nonzero(L, mask):
    """The int64 index arrays (one per axis, C order) of the True entries of the
    boolean array ``mask``."""
    mz = ew.to_lazy(L, mask)
    count = L.temp(I, "n")
    L.emit(N.Assign(target=count, value=C(0, I)))
    loops(L, mz.dims, lambda idx: L.emit(N.Assign(target=count, value=N.BinOp(
        "add", N.Var(count, I), N.Cast(mz.elem(idx), I), I))))
    n = N.Var(count, I)
    outs = [allocate(L, T.ArrayType(I, 1, "C"), [n]) for _ in mz.dims]
    k = L.temp(I, "k")
    L.emit(N.Assign(target=k, value=C(0, I)))

    def body(idx):
        stores = [N.Store(array=o, indices=[N.Var(k, I)], value=i)
                  for o, i in zip(outs, idx)]
        L.emit(N.If(cond=mz.elem(idx), then=stores + [
            N.Assign(target=k, value=N.BinOp("add", N.Var(k, I), C(1, I), I))]))
    loops(L, mz.dims, body)
    return outs


def _broadcast_indices(L, lazies):
    """The broadcast shape of the index arrays (IndexError as NumPy when they do
    not broadcast together)."""
    ndim = max(len(z.dims) for z in lazies)
    out = []
    for axis in range(ndim):
        dims = [z.dims[axis - (ndim - len(z.dims))] for z in lazies
                if axis - (ndim - len(z.dims)) >= 0]
        d = dims[0]
        for other in dims[1:]:
            if ew.same_value(d, other):
                continue
            bad = ops.band(ops.band(N.Cmp("ne", d, other, T.BOOL),
                                    N.Cmp("ne", d, C(1, I), T.BOOL)),
                           N.Cmp("ne", other, C(1, I), T.BOOL))
            L.emit(N.If(cond=bad, then=[N.Raise(
                exc=IndexError, args=[d, other], deopt=RERUN,
                message=f"shape mismatch: indexing arrays could not be broadcast "
                        f"together (axis {axis}: sizes {{}} and {{}})")]))
            d = L.let(N.Select(N.Cmp("eq", d, C(1, I), T.BOOL), other, d, I))
        out.append(d)
    return out


def gather(L, arr, index, index_type, entries) -> FancyLazy:
    """``arr[index]`` for an advanced index (``entries`` from :func:`plan`)."""
    from .views import slice_bounds
    arr = L.let(arr)
    at = arr.type
    exprs = iter(_index_items(L, index, index_type))
    srcs = []          # per array axis: ("int", j) | ("basic", start, step) | ("arr", lz)
    basic_dims = []
    raw = []           # (lazy, axis) of integer index arrays still to be checked
    checked = []       # lazies of already valid index arrays (from boolean masks)
    for kind, t, axis in entries:
        e = None
        if kind != "full":
            e = next(exprs)
            while isinstance(getattr(e, "type", None), T.ConstType):    # the ellipsis
                e = next(exprs)
        if kind == "newaxis":
            srcs.append(("new",))
            basic_dims.append(C(1, I))
            continue
        dim = L.let(N.ArrayAttr(arr, "shape", axis, I))
        if kind == "int":
            srcs.append(("int", _wrap_checked(L, e, dim, axis)))
        elif kind == "full":
            srcs.append(("basic", C(0, I), C(1, I)))
            basic_dims.append(dim)
        elif kind == "slice":
            start, step, count = slice_bounds(L, e, dim)
            srcs.append(("basic", start, step))
            basic_dims.append(count)
        elif kind == "arr":
            plain = None if isinstance(e, ew.Lazy) else L.let(e)
            z = ew.to_lazy(L, e if plain is None else plain)
            entry = ["arr", z]
            srcs.append(entry)
            raw.append((entry, z, dim, axis, plain))
        else:                                            # a boolean mask
            m = L.let(ew.materialize(L, e)) if isinstance(e, ew.Lazy) else L.let(e)
            mask_shape_check(L, arr, ew.to_lazy(L, m), axis)
            for ix in _nonzero(L, m):
                z = ew.to_lazy(L, ix)
                srcs.append(["arr", z])
                checked.append(z)
    bdims = _broadcast_indices(L, [r[1] for r in raw] + checked)
    nb = len(bdims)
    adv = [p for p, (k, _, _) in enumerate(entries) if k in ("int", "arr", "bool")]
    first = sum(1 for k, _, _ in entries[:adv[0]] if k in _BASIC) \
        if _adjacent(index_type) else 0
    dims = basic_dims[:first] + bdims + basic_dims[first:]

    def positions(ridx):
        bidx = ridx[first:first + nb]
        rest = iter(list(ridx[:first]) + list(ridx[first + nb:]))
        out = []
        for s in srcs:
            if s[0] == "int":
                out.append(s[1])
            elif s[0] == "new":
                next(rest)
            elif s[0] == "basic":
                i = next(rest)
                out.append(N.BinOp("add", s[1], N.BinOp("mul", i, s[2], I), I)
                           if not (isinstance(s[1], N.Const) and s[1].value == 0
                                   and isinstance(s[2], N.Const) and s[2].value == 1)
                           else i)
            elif s[0] == "raw":             # checked where it is read
                out.append(_wrap_checked(L, ew.reindex(s[1], bdims)(bidx), s[2], s[3]))
            elif s[0] == "maybe":           # checked; copied only if it overlaps
                out.append(_copied_or_wrapped(L, s, bdims, bidx))
            elif s[0] == "wrapped":         # checked before
                out.append(_wrapped(L, s[1], s[2], bdims, bidx))
            else:
                out.append(ew.reindex(s[1], bdims)(bidx))
        return out

    rt = at.copy(ndim=len(dims), layout="C", readonly=False)
    lz = FancyLazy(rt, dims, lambda ridx: N.Load(arr, positions(ridx), at.dtype),
                   positions, arr)
    lz.raw, lz.bdims, lz.lead = raw, bdims, first + nb
    if raw and any(k in ("slice", "full") for k, _, _ in entries):
        # NumPy checks the indices even when the result is empty: check them all
        # first, then read them again (a read cannot change them)
        size = L.let(total_size(bdims))

        def check_all():
            for entry, z, dim, axis, _ in raw:
                loops(L, z.dims, lambda idx, z=z, dim=dim, axis=axis: _wrap_checked(
                    L, z.elem(idx), dim, axis))
        stmts, _ = L.sub_block(check_all)
        lz.precheck = N.If(cond=N.Cmp("ne", size, C(0, I), T.BOOL), then=stmts)
        L.emit(lz.precheck)
        for entry, z, dim, axis, _ in raw:
            entry[:] = ["wrapped", z, dim]
    else:
        for entry, z, dim, axis, _ in raw:     # a read checks each index it reads
            entry[:] = ["raw", z, dim, axis]
    return lz


def _wrapped(L, z, dim, bdims, bidx):
    """A checked index read again from its array, negative values wrapped."""
    i = L.let(ops.convert_wrap(ew.reindex(z, bdims)(bidx), I))
    return N.Select(N.Cmp("lt", i, C(0, I), T.BOOL), N.BinOp("add", i, dim, I), i, I)


def _copied_or_wrapped(L, s, bdims, bidx):
    """The checked index of a "maybe" entry: from its copy when the index array
    shares memory with the target, else read again and wrapped."""
    _, z, dim, shared, tmp = s
    name = L.temp(I, "j")
    copy = ew.Lazy(z.type, z.dims, lambda idx: N.Load(tmp, list(idx), I))
    then, v = L.sub_block(lambda: ew.reindex(copy, bdims)(bidx))
    then.append(N.Assign(target=name, value=v))

    orelse, w = L.sub_block(lambda: _wrapped(L, z, dim, bdims, bidx))
    orelse.append(N.Assign(target=name, value=w))
    L.emit(N.If(cond=shared, then=then, orelse=orelse))
    return N.Var(name, I)


def _scatter(L, target: FancyLazy, value, python=True):
    """``arr[index] = value`` through the gather ``target`` (see the module doc)."""
    arr_t = target.type
    dims = target.dims
    if isinstance(value.type, T.Scalar) and not isinstance(value, ew.Lazy):
        v = L.let(setitem_value(L, value, arr_t.dtype, python))
        target.checks_after(L)
        loops(L, dims, lambda idx: L.emit(N.Store(
            array=target.array, indices=target.positions(idx), value=v)))
        return
    # read the whole value before storing (it may alias the target)
    if isinstance(value, ew.Lazy):
        z = value
        src = ew.materialize(L, value)
        shared = C(True, T.BOOL)
    else:
        from ..parallel.regions import ranges_meet
        plain = L.let(value)
        z = ew.to_lazy(L, plain)
        shared = L.let(ranges_meet(L, plain, target.array))
        d0 = [L.let(N.Select(shared, z.dims[0], C(0, I), I))] if z.dims else []
        src = allocate(L, z.type.copy(layout="C", readonly=False), d0 + list(z.dims[1:]))
        stmts, _ = L.sub_block(lambda: fill(L, src, z.dims, z.elem))
        L.emit(N.If(cond=shared, then=stmts))
    sdims = z.dims
    extra = len(sdims) - len(dims)
    for k in range(max(extra, 0)):                     # leading size-1 axes only
        L.emit(N.If(cond=N.Cmp("ne", sdims[k], C(1, I), T.BOOL), then=[N.Raise(
            exc=ValueError, args=[sdims[k]],
            message="shape mismatch: value array with {} on a leading axis could not "
                    "be broadcast to the indexing result")]))
    own = sdims[max(extra, 0):]
    off = len(dims) - len(own)
    for k, d in enumerate(own):
        ok = ops.bor(N.Cmp("eq", d, dims[off + k], T.BOOL), N.Cmp("eq", d, C(1, I), T.BOOL))
        L.emit(N.If(cond=ops.logical_not(ok), then=[N.Raise(
            exc=ValueError, args=[d, dims[off + k]],
            message=f"shape mismatch: value array with size {{}} on axis {k} could not "
                    f"be broadcast to the indexing result with size {{}}")]))

    target.checks_after(L)

    def body(idx):
        # no select even innermost: the stores go through index arrays, there is
        # nothing to vectorise
        sidx = [C(0, I)] * max(extra, 0) + [
            ew.broadcast_index(idx[off + k], d) for k, d in enumerate(own)]
        val = array_cast(L, _value_at(L, shared, src, z, sidx), arr_t.dtype)
        L.emit(N.Store(array=target.array, indices=target.positions(idx), value=val))
    loops(L, dims, body)


def _value_at(L, shared, src, z, sidx):
    """The value's element: from its copy when it shares memory with the target."""
    if isinstance(shared, N.Const):
        return N.Load(src, sidx, src.type.dtype)
    name = L.temp(src.type.dtype, "v")
    L.emit(N.If(cond=shared, then=[N.Assign(target=name, value=N.Load(
        src, sidx, src.type.dtype))], orelse=[N.Assign(target=name, value=z.elem(sidx))]))
    return N.Var(name, src.type.dtype)
