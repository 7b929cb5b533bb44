"""Sorting and searching: ``np.sort``, ``np.argsort``, ``a.sort()``, ``a.argsort()``,
``np.unique`` and ``np.searchsorted``.

The templates copy the data into a fresh C-contiguous array and sort it lane by
lane (:class:`Lanes`: along any one axis, each lane contiguous as NumPy copies it
to a buffer; the flattened array for ``axis=None``) with NumPy's own sort
function for the dtype and kind where the target's code runs in this process
(:mod:`numpy_sorts`: NumPy's order of equal values on every host), else with the
algorithms of :mod:`sort_algorithms` (Python source compiled by hanajit):
introsort for values, a stable merge sort for ``kind='stable'`` and for argsort.  A lane along
another axis is sorted exactly as a row along the last axis.  Complex arrays
sort lexicographically (real part, then imaginary part), NaNs last as NumPy
orders them.  ``a.partition()``/``a.argpartition()`` are in :mod:`partition`.
"""
from __future__ import annotations

from ...typing_rules import Incompatible, promote
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from . import numpy_sorts, partition
from . import sort_algorithms as hs
from ..arrays.creation import allocate
from ..python.operators import C
from ..registry import CallTemplate, register

I = T.INT64
_UNSET = object()


def _const_arg(call, pos, name, default=_UNSET):
    """The compile-time value of argument ``name`` (position ``pos``)."""
    node = call.kwargs.get(name, call.args[pos] if len(call.args) > pos else None)
    if node is None:
        return default
    value = getattr(node, "value", getattr(node, "obj", _UNSET))
    if value is _UNSET:
        raise Incompatible(f"{name}= must be a constant")
    return value


def _sort_axis(call, at: T.ArrayType, name: str):
    """None (flatten) or a constant axis in range, made non-negative."""
    axis = _const_arg(call, 1, "axis", -1)
    if axis is None:
        return None
    if type(axis) is not int or not -at.ndim <= axis < at.ndim:
        raise Incompatible(f"np.{name}() axis must be a constant in range or None")
    return axis % at.ndim


def _check_sortable(at, name):
    if not isinstance(at, T.ArrayType):
        raise Incompatible(f"np.{name}() of {at}")


def fresh_copy(L, a, dtype=None):
    """A new C-contiguous array with ``a``'s elements (cast to ``dtype`` as
    NumPy's ``astype`` casts, when given); and its 1-D view."""
    from ..arrays.methods import copy_array
    from ..arrays.shape import reshape_view
    from ..indexing.elements import element_value
    z = ew.to_lazy(L, a)
    t = T.ArrayType(dtype or z.type.dtype, len(z.dims), "C")
    if t.dtype != z.type.dtype:
        src = z
        z = ew.Lazy(t, src.dims, lambda idx: element_value(L, src.elem(idx), t.dtype))
    out = L.let(copy_array(L, z, t))
    flat = reshape_view(L, out, [C(-1, I)], t.copy(ndim=1))
    return out, L.let(flat)


class Lanes:
    """``a``'s lanes along ``axis`` (an int in range, or None: the flattened
    array as one lane), each copied contiguous as NumPy copies a lane to a
    buffer before sorting or partitioning it: ``moved`` is a new C-contiguous
    array with ``axis`` moved last (``a``'s copy itself for the last axis; 1-D
    for None), ``flat`` its 1-D view, ``n`` the lane length."""

    def __init__(self, L, a, axis, dtype=None):
        from ..arrays.shape import reshape_view
        z = ew.to_lazy(L, a)
        nd = len(z.dims)
        self.axis, self.dims = axis, z.dims
        if axis is None or axis == nd - 1:
            out, self.flat = fresh_copy(L, z, dtype)
            self.moved = self.flat if axis is None else out
            self.n = _row_length(L, out, axis)
            return
        perm = self.perm = [k for k in range(nd) if k != axis] + [axis]
        t = T.ArrayType(dtype or z.type.dtype, nd, "C")

        def elem(idx):
            src = [None] * nd
            for k, i in zip(perm, idx):
                src[k] = i
            return z.elem(src)
        self.moved = L.let(ew.materialize(L, ew.Lazy(t, [z.dims[k] for k in perm],
                                                     elem)))
        self.flat = L.let(reshape_view(L, self.moved, [C(-1, I)], t.copy(ndim=1)))
        self.n = z.dims[axis]

    @classmethod
    def view(cls, L, a, axis):
        """The lanes of ``a`` without a copy when it is a C-contiguous array and
        ``axis`` its last axis or None (``flat`` its 1-D view), for readers that
        leave the values alone; else None."""
        from ..arrays.shape import reshape_view
        t = getattr(a, "type", None)
        if isinstance(a, ew.Lazy) or not isinstance(t, T.ArrayType) \
                or t.layout != "C" or t.ndim == 0 or axis not in (None, t.ndim - 1):
            return None
        self = cls.__new__(cls)
        a = L.let(a)
        self.axis, self.dims = axis, [N.ArrayAttr(a, "shape", k, I) for k in range(t.ndim)]
        self.flat = L.let(reshape_view(L, a, [C(-1, I)], t.copy(ndim=1)))
        self.moved = self.flat if axis is None else a
        self.n = _row_length(L, a, axis)
        return self

    def like(self, L, dtype):
        """A new array shaped as ``moved`` (of ``dtype``), and its 1-D view."""
        from ..arrays.shape import reshape_view
        t = self.moved.type
        dims = [L.let(N.ArrayAttr(self.moved, "shape", k, I)) for k in range(t.ndim)]
        out = L.let(allocate(L, t.copy(dtype=dtype), dims))
        if t.ndim == 1:
            return out, out
        return out, L.let(reshape_view(L, out, [C(-1, I)], t.copy(dtype=dtype, ndim=1)))

    def back(self, moved, flat):
        """``moved`` (the lanes, laid out as :attr:`moved`; ``flat`` its 1-D
        view) with the axis put back where it was: an array, or a lazy one."""
        nd = len(self.dims)
        if self.axis is None or self.axis == nd - 1:
            return moved
        dtype, dims, axis, n = flat.type.dtype, self.dims, self.axis, self.n

        def elem(idx):
            lane = C(0, I)
            for k, (i, d) in enumerate(zip(idx, dims)):
                if k != axis:
                    lane = N.BinOp("add", N.BinOp("mul", lane, d, I), i, I)
            pos = N.BinOp("add", N.BinOp("mul", lane, n, I), idx[axis], I)
            return N.Load(flat, [pos], dtype)
        return ew.Lazy(T.ArrayType(dtype, nd, "C"), dims, elem)


def _numpy_kind(call) -> str:
    """NumPy's sort function for ``kind=`` (``numpy_sorts.KINDS``), read as NumPy
    reads it: by its first letter; another kind falls back (NumPy raises)."""
    kind = _const_arg(call, 2, "kind", None)
    if kind is None:
        return "quick"
    found = {"q": "quick", "h": "heap", "m": "stable", "s": "stable"}.get(
        kind[:1].lower() if isinstance(kind, str) else None)
    if found is None:
        raise Incompatible(f"sort kind must be one of 'quick', 'heap', or 'stable' "
                           f"(got {kind!r})")
    return found


def sort_values(L, flat, n, kind: str, positions=None) -> None:
    """Sort the lanes of ``n`` items of the C-contiguous 1-D ``flat`` in place, or
    with ``positions`` write their argsort there: with NumPy's own function of
    ``kind`` where the target's code can call it (``numpy_sorts``: NumPy's order
    of equal values on every host, its SIMD speed), else with hanajit's
    (``sort_algorithms``: introsort, or a stable merge sort for ``"stable"`` and
    for every argsort; NumPy's default kinds do not keep equal values in order
    either)."""
    if numpy_sorts.usable(L, flat.type.dtype):
        numpy_sorts.sort_lanes(L, flat, n, kind, positions)
    elif positions is not None:
        L.call_helper(hs.argsort_rows, [flat, positions, n])
    else:
        L.call_helper(hs.sort_rows if kind == "stable" else hs.sort_rows_unstable,
                      [flat, n])


def _row_length(L, out, axis):
    t = out.type
    if axis is None:
        size = C(1, I)
        for k in range(t.ndim):
            size = N.BinOp("mul", size, N.ArrayAttr(out, "shape", k, I), I)
        return L.let(size)
    return L.let(N.ArrayAttr(out, "shape", t.ndim - 1, I))


class Sort(CallTemplate):
    """``np.sort(a, axis=-1, kind=None)``: NaNs last; ``kind='stable'`` keeps equal
    values (-0.0 and 0.0) in order, other kinds give the same values."""

    paths = ("numpy.sort",)
    accepts_lazy = True
    copies_elements = True
    name = "sort"

    def typer(self, inf, call, args, kwargs):
        if not args or len(args) > 3 or set(kwargs) - {"axis", "kind"}:
            raise Incompatible(f"np.{self.name}(a, axis=-1, kind=None)")
        at = args[0]
        _check_sortable(at, self.name)
        axis = _sort_axis(call, at, self.name)
        _numpy_kind(call)
        return self.result(at, axis)

    def result(self, at, axis):
        return T.ArrayType(at.dtype, 1 if axis is None else at.ndim, "C")

    def lower(self, L, call, args, kwargs):
        lanes = Lanes(L, args[0], _sort_axis(call, args[0].type, self.name))
        sort_values(L, lanes.flat, lanes.n, _numpy_kind(call))
        return ew.materialize(L, lanes.back(lanes.moved, lanes.flat))


class ArgSort(Sort):
    """``np.argsort(a, axis=-1, kind=None)``: NumPy's function of that kind; without
    it a stable sort whatever ``kind`` is (NumPy's default may order ties
    differently)."""

    paths = ("numpy.argsort",)
    name = "argsort"

    def result(self, at, axis):
        return T.ArrayType(I, 1 if axis is None else at.ndim, "C")

    def lower(self, L, call, args, kwargs):
        lanes = Lanes(L, args[0], _sort_axis(call, args[0].type, self.name))
        out, pflat = lanes.like(L, I)
        sort_values(L, lanes.flat, lanes.n, _numpy_kind(call), pflat)
        return ew.materialize(L, lanes.back(out, pflat))


class SortMethod(CallTemplate):
    """``a.sort(axis=-1, kind=None)`` in place, along any one axis."""

    def typer(self, inf, call, args, kwargs):
        if not 1 <= len(args) <= 3 or set(kwargs) - {"axis", "kind"}:
            raise Incompatible("a.sort(axis=-1, kind=None) without order=")
        _check_sortable(args[0], "sort")
        if args[0].ndim == 0:             # (NumPy: AxisError)
            raise Incompatible("a.sort() of a 0-d array")
        if args[0].readonly:
            raise Incompatible("a.sort() of a read-only array")
        if _sort_axis(call, args[0], "sort") is None:       # (NumPy: TypeError)
            raise Incompatible("a.sort(axis=None)")
        _numpy_kind(call)
        return T.NONE

    def lower(self, L, call, args, kwargs):
        from ..indexing.elements import assign_to_view
        a = L.let(args[0])
        lanes = Lanes(L, a, _sort_axis(call, a.type, "sort"))
        sort_values(L, lanes.flat, lanes.n, _numpy_kind(call))
        assign_to_view(L, a, lanes.back(lanes.moved, lanes.flat))
        return C(None, T.NONE)


def unique_values(L, a):
    """``np.unique(a)`` of the array (or lazy array) ``a``: a new 1-D array of
    its sorted distinct values, as NumPy finds them (also ``set_operations``)."""
    if a.type.dtype.is_complex:
        # NumPy finds complex values by hashing: of equal values (0j, -0j; all
        # NaNs) the first in the input stays -- a stable sort keeps it first
        a = L.let(ew.materialize(L, a))
        _, given = fresh_copy(L, a)
        out, flat = fresh_copy(L, a)
        L.call_helper(hs.sort_rows, [flat, _row_length(L, out, None)])
        u = L.call_helper(hs.unique_sorted, [flat])
        return L.call_helper(hs.first_nan_last, [u, given])
    out, flat = fresh_copy(L, a)
    t = a.type.dtype
    if t.kind == "i" or (t.kind == "u" and t.bits < 64):
        # NumPy 2 hashes integers (not uint64's, past int64) and sorts the
        # distinct values: far faster than sorting them all when they are few
        return L.call_helper(hs.unique_ints, [flat])
    # NumPy's sort decides which of equal values (0.0, -0.0) comes first, and
    # the first of each run stays
    sort_values(L, flat, _row_length(L, out, None), "quick")
    return L.call_helper(hs.unique_sorted, [flat])


@register
class Unique(CallTemplate):
    """``np.unique(a)``: the sorted distinct values (NaNs collapse into one; of
    complex values equal to each other, the first in the input)."""

    paths = ("numpy.unique",)
    accepts_lazy = True
    copies_elements = True

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or kwargs:       # (return_index= ...: unique_returns)
            from .unique_returns import unique_typer
            return unique_typer(call, args, kwargs)
        _check_sortable(args[0], "unique")
        return T.ArrayType(args[0].dtype, 1, "C")

    def lower(self, L, call, args, kwargs):
        if len(args) != 1 or kwargs:
            from .unique_returns import unique_lower
            return unique_lower(L, call, args, kwargs)
        return unique_values(L, args[0])


@register
class SearchSorted(CallTemplate):
    """``np.searchsorted(a, v, side='left')`` on a sorted 1-D ``a``; ``v`` a number
    or an array (the result then has ``v``'s shape)."""

    paths = ("numpy.searchsorted",)
    accepts_lazy = True

    def typer(self, inf, call, args, kwargs):
        if len(args) not in (2, 3) or set(kwargs) - {"side"}:
            raise Incompatible("np.searchsorted(a, v, side='left') without sorter")
        a, v = args[:2]
        if not isinstance(a, T.ArrayType) or a.ndim != 1:
            raise Incompatible("np.searchsorted() needs a 1-D array")
        vd = ew.elem_type(v)
        if not isinstance(vd, T.Scalar) or a.dtype.is_complex or vd.is_complex:
            raise Incompatible(f"np.searchsorted() of {a} and {v}")
        self._side(call)
        return T.ArrayType(I, v.ndim, "C") if isinstance(v, T.ArrayType) else I

    @staticmethod
    def _side(call):
        side = _const_arg(call, 2, "side", "left")
        if side not in ("left", "right"):
            raise Incompatible(f"side must be 'left' or 'right', got {side!r}")
        return side

    def lower(self, L, call, args, kwargs):
        from ..indexing.elements import element_value
        a, v = args[0], args[1]
        vd = v.type.dtype if isinstance(v.type, T.ArrayType) or isinstance(v, ew.Lazy) \
            else v.type
        common = promote(a.type.dtype, vd)
        if common != a.type.dtype:        # NumPy compares in the common type
            z = ew.to_lazy(L, a)
            a = ew.materialize(L, ew.Lazy(T.ArrayType(common, 1, "C"), z.dims,
                                          lambda idx: element_value(L, z.elem(idx), common)))
        a = L.let(ew.materialize(L, a))
        helper = hs.search_left if self._side(call) == "left" else hs.search_right
        if not isinstance(call.type, T.ArrayType):
            return L.call_helper(helper, [a, L.let(element_value(L, v, common))])
        # the keys in order, each search from where the last one left off, as
        # NumPy's binsearch (the same positions for an ``a`` that is not sorted)
        from ..arrays.shape import reshape_view
        from .digitize import flat_values
        keys, flat = flat_values(L, v, common)
        out = L.let(allocate(L, call.type, [N.ArrayAttr(keys, "shape", k, I)
                                            for k in range(call.type.ndim)]))
        dest = L.let(reshape_view(L, out, [C(-1, I)], call.type.copy(ndim=1)))
        L.call_helper(hs.searchsorted_into, [a, flat, dest,
                                             C(self._side(call) == "right", T.BOOL)])
        return out


@register
class LexSort(CallTemplate):
    """``np.lexsort(keys)``: ``keys`` a tuple of 1-D real arrays of one length, or
    a 2-D real array whose rows are the keys; the last key is the primary one.
    A stable argsort per key from the first to the last
    (``sort_algorithms.lexsort_step``) gives NumPy's permutation, ties in their
    original order; NumPy's ValueError for keys of different lengths."""

    paths = ("numpy.lexsort",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or kwargs:
            raise Incompatible("np.lexsort(keys) without axis")
        k = args[0]
        keys = list(k.items) if isinstance(k, T.TupleType) else [k]
        if not keys or not all(isinstance(t, T.ArrayType) and not t.dtype.is_complex
                               for t in keys):
            raise Incompatible("np.lexsort(keys): a tuple of real arrays or a 2-D array")
        if isinstance(k, T.TupleType) and any(t.ndim != 1 for t in keys) or \
                not isinstance(k, T.TupleType) and k.ndim != 2:
            raise Incompatible("np.lexsort(keys): 1-D keys in a tuple, or the rows of a "
                               "2-D array")
        return T.ArrayType(I, 1, "C")

    def lower(self, L, call, args, kwargs):
        from ..arrays.creation import fill
        k = L.let(args[0])
        if isinstance(k.type, T.TupleType):
            keys = [L.let(N.TupleGet(k, j, t)) for j, t in enumerate(k.type.items)]
            n = L.let(N.ArrayAttr(keys[0], "shape", 0, I))
            for key in keys[1:]:
                L.raise_if(N.Cmp("ne", N.ArrayAttr(key, "shape", 0, I), n, T.BOOL),
                           ValueError, "all keys need to be the same shape")
        else:
            n = L.let(N.ArrayAttr(k, "shape", 1, I))
        idx = L.temp(call.type, "order")
        first = L.let(allocate(L, call.type, [n]))
        fill(L, first, [n], lambda i: i[0])
        L.emit(N.Assign(target=idx, value=first))
        if isinstance(k.type, T.TupleType):
            for key in keys:
                L.emit(N.Assign(target=idx, value=L.call_helper(
                    hs.lexsort_step, [N.Var(idx, call.type), key])))
            return N.Var(idx, call.type)
        row_t = k.type.copy(ndim=1, layout="A")
        r = L.temp(I, "row")

        def step():
            row = L.let(N.ArrayView(k, L.let(N.BinOp("mul", N.Var(r, I),
                                                     N.ArrayAttr(k, "stride", 0, I), I)),
                                    [n], [N.ArrayAttr(k, "stride", 1, I)], row_t))
            L.emit(N.Assign(target=idx, value=L.call_helper(
                hs.lexsort_step, [N.Var(idx, call.type), row])))
        body, _ = L.sub_block(step)
        L.emit(N.ForCount(counter=r, count=N.ArrayAttr(k, "shape", 0, I), body=body,
                          short=True))
        return N.Var(idx, call.type)


register(Sort())
register(ArgSort())
METHODS = {"sort": SortMethod(), "argsort": ArgSort()}
METHODS.update(partition.METHODS)        # a.partition(), a.argpartition()

