"""Rearranging arrays: ``np.flip``/``fliplr``/``flipud``, ``np.expand_dims``,
``np.atleast_1d``/``2d``/``3d`` (views, as NumPy returns them), ``np.vstack``,
``np.hstack``, ``np.column_stack`` (``np.concatenate`` of those views), and the
diagonal: ``np.diag``, ``np.trace``; ``np.count_nonzero``.

Views share the argument's memory and writeability, as NumPy's do; ``np.diag``
of a matrix is NumPy's read-only view of the diagonal.
"""
from __future__ import annotations

from ...typing_rules import Incompatible, promote
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from .joining import concatenate
from .creation import allocate, fill
from ..python.operators import C
from . import elementwise as ew
from .reductions import REDUCTIONS, loops, total_size
from ..registry import CallTemplate, register

I = T.INT64


def _const(call, name, position, default):
    """A keyword or positional argument that must be a constant (an int or a
    tuple of ints, or None)."""
    node = call.kwargs.get(name)
    if node is None and len(call.args) > position:
        node = call.args[position]
    if node is None:
        return default
    if not isinstance(node, N.Const):
        raise Incompatible(f"{call.name}(): {name} must be a constant")
    return node.value


def constant_axes(value, ndim, what):
    """The constant axis or tuple of axes ``value`` normalised (each in range, none
    repeated), or Incompatible with NumPy's reason, prefixed ``what``."""
    axes = value if isinstance(value, tuple) else (value,)
    if not all(isinstance(a, int) and not isinstance(a, bool) for a in axes):
        raise Incompatible(f"{what}: axis must be an integer or a tuple of integers")
    out = []
    for a in axes:
        if not -ndim <= a < ndim:
            raise Incompatible(f"{what}: axis {a} is out of bounds for array of "
                               f"dimension {ndim}")
        out.append(a % ndim)
    if len(set(out)) != len(out):
        raise Incompatible(f"{what}: repeated axis")
    return out


def _dims(arr, t):
    return ([N.ArrayAttr(arr, "shape", k, I) for k in range(t.ndim)],
            [N.ArrayAttr(arr, "stride", k, I) for k in range(t.ndim)])


class _View(CallTemplate):
    """A view of the first argument with a new shape and strides."""

    def __init__(self, name):
        self.name = name
        self.paths = (f"numpy.{name}",)

    def check_array(self, args):
        if not args or not isinstance(args[0], T.ArrayType):
            raise Incompatible(f"np.{self.name}() of {args[0] if args else 'nothing'}")
        return args[0]


class Flip(_View):
    def typer(self, inf, call, args, kwargs):
        t = self.check_array(args)
        if self.name != "flip" and (kwargs or len(args) != 1):
            raise Incompatible(f"np.{self.name}(m) takes one array")
        if set(kwargs) - {"axis"} or len(args) > 2:
            raise Incompatible(f"np.{self.name}(m, axis=None)")
        self.axes_of(call, t)
        return t.copy(layout="A" if t.ndim else t.layout)

    def axes_of(self, call, t):
        if self.name == "fliplr":
            if t.ndim < 2:
                raise Incompatible("np.fliplr() needs an array of at least 2 dimensions")
            return [1]
        if self.name == "flipud":
            if t.ndim < 1:
                raise Incompatible("np.flipud() needs an array of at least 1 dimension")
            return [0]
        axis = _const(call, "axis", 1, None)
        return list(range(t.ndim)) if axis is None else constant_axes(axis, t.ndim, "np.flip")

    def lower(self, L, call, args, kwargs):
        arr = L.let(args[0])
        t = arr.type
        shape, strides = _dims(arr, t)
        offset = C(0, I)
        for k in self.axes_of(call, t):
            # the last element first: (n - 1) * stride, none for an empty axis
            last = N.Select(N.Cmp("gt", shape[k], C(0, I), T.BOOL),
                            N.BinOp("sub", shape[k], C(1, I), I), C(0, I), I)
            offset = N.BinOp("add", offset, N.BinOp("mul", last, strides[k], I), I)
            strides[k] = N.BinOp("sub", C(0, I), strides[k], I)
        return N.ArrayView(arr, L.let(offset), shape, strides, call.type)


class SwapAxes(_View):
    """``np.swapaxes(a, axis1, axis2)`` / ``a.swapaxes(...)`` and
    ``np.moveaxis(a, source, destination)`` (constant ints): a view with its
    axes reordered, as NumPy's."""

    def order(self, call, t):
        what = f"np.{self.name}"
        first, second = ("axis1", "axis2") if self.name == "swapaxes" else (
            "source", "destination")
        a, b = _const(call, first, 1, None), _const(call, second, 2, None)
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in (a, b)):
            raise Incompatible(f"{what}(): {first} and {second} must be constant integers")
        a, b = (constant_axes(x, t.ndim, what)[0] for x in (a, b))
        order = list(range(t.ndim))
        if self.name == "swapaxes":
            order[a], order[b] = order[b], order[a]
        else:
            order.remove(a)
            order.insert(b, a)
        return order

    def typer(self, inf, call, args, kwargs):
        t = self.check_array(args)
        if len(args) + len(kwargs) != 3:
            raise Incompatible(f"np.{self.name}(a, two constant axes)")
        order = self.order(call, t)
        if order == list(range(t.ndim)):
            return t
        if order == list(range(t.ndim))[::-1] and t.layout in ("C", "F"):
            return t.copy(layout="F" if t.layout == "C" else "C")
        return t.copy(layout="A")

    def lower(self, L, call, args, kwargs):
        arr = L.let(args[0])
        shape, strides = _dims(arr, arr.type)
        order = self.order(call, arr.type)
        return N.ArrayView(arr, C(0, I), [shape[k] for k in order],
                           [strides[k] for k in order], call.type)


class Rot90(_View):
    """``np.rot90(m, k=1, axes=(0, 1))`` (constant ``k`` and ``axes``): NumPy's
    composition of ``flip`` and ``transpose``, a view."""

    def steps(self, call, t):
        """``(flipped axes before, axis order, flipped axes after)``."""
        k = _const(call, "k", 1, 1)
        axes = _const(call, "axes", 2, (0, 1))
        if type(k) is not int or not (isinstance(axes, tuple) and len(axes) == 2):
            raise Incompatible("np.rot90(m, k, axes) with a constant int k and two axes")
        if t.ndim < 2:
            raise Incompatible("np.rot90() needs an array of at least 2 dimensions")
        a, b = constant_axes(axes, t.ndim, "np.rot90")
        k %= 4
        order = list(range(t.ndim))
        order[a], order[b] = order[b], order[a]
        if k == 0:
            return [], list(range(t.ndim)), []
        if k == 2:
            return [a, b], list(range(t.ndim)), []
        if k == 1:                          # transpose(flip(m, axes[1]))
            return [b], order, []
        return [], order, [b]               # flip(transpose(m), axes[1])

    def typer(self, inf, call, args, kwargs):
        t = self.check_array(args)
        if set(kwargs) - {"k", "axes"} or len(args) > 3:
            raise Incompatible("np.rot90(m, k=1, axes=(0, 1))")
        before, order, after = self.steps(call, t)
        if not before and not after and order == list(range(t.ndim)):
            return t
        return t.copy(layout="A")

    def lower(self, L, call, args, kwargs):
        arr = L.let(args[0])
        shape, strides = _dims(arr, arr.type)
        before, order, after = self.steps(call, arr.type)
        offset = C(0, I)

        def flip(axes):
            nonlocal offset
            for k in axes:
                last = N.Select(N.Cmp("gt", shape[k], C(0, I), T.BOOL),
                                N.BinOp("sub", shape[k], C(1, I), I), C(0, I), I)
                offset = N.BinOp("add", offset, N.BinOp("mul", last, strides[k], I), I)
                strides[k] = N.BinOp("sub", C(0, I), strides[k], I)
        flip(before)
        shape, strides = [shape[k] for k in order], [strides[k] for k in order]
        flip(after)
        return N.ArrayView(arr, L.let(offset), shape, strides, call.type)


class Diagonal(CallTemplate):
    """``np.diagonal(a, offset=0)`` / ``a.diagonal(offset)`` of a matrix: NumPy's
    read-only view of that diagonal (``np.diag``'s); other ``axis1``/``axis2``
    and more dimensions fall back."""

    paths = ("numpy.diagonal",)

    def typer(self, inf, call, args, kwargs):
        if not args or not isinstance(args[0], T.ArrayType) or args[0].ndim != 2 \
                or set(kwargs) - {"offset"} or len(args) > 2:
            raise Incompatible("np.diagonal(a, offset=0) of a 2-D array")
        if not isinstance(_const(call, "offset", 1, 0), int):
            raise Incompatible("np.diagonal(): offset must be an integer constant")
        return args[0].copy(ndim=1, layout="A", readonly=True)

    def lower(self, L, call, args, kwargs):
        return DIAG.view(L, L.let(args[0]), _const(call, "offset", 1, 0), call.type)


class ExpandDims(_View):
    def typer(self, inf, call, args, kwargs):
        t = self.check_array(args)
        if set(kwargs) - {"axis"} or len(args) > 2 or (len(args) < 2 and not kwargs):
            raise Incompatible("np.expand_dims(a, axis)")
        axis = _const(call, "axis", 1, None)
        n = t.ndim + (len(axis) if isinstance(axis, tuple) else 1)
        constant_axes(axis, n, "np.expand_dims")
        return t.copy(ndim=n, layout=t.layout if t.layout in "CF" and t.ndim <= 1 else "A")

    def lower(self, L, call, args, kwargs):
        arr = L.let(args[0])
        t, rt = arr.type, call.type
        new = set(constant_axes(_const(call, "axis", 1, None), rt.ndim, "np.expand_dims"))
        shape, strides = _dims(arr, t)
        it = iter(zip(shape, strides))
        out = [(C(1, I), C(0, I)) if k in new else next(it) for k in range(rt.ndim)]
        return N.ArrayView(arr, C(0, I), [s for s, _ in out], [d for _, d in out], rt)


def at_least(L, arr, n):
    """NumPy's ``atleast_<n>d`` view: 0-d -> (1,), (1, 1) or (1, 1, 1); 1-D
    ``(k,)`` -> ``(1, k)`` or ``(1, k, 1)``; 2-D ``(j, k)`` -> ``(j, k, 1)``."""
    arr = L.let(arr)
    t = arr.type
    if t.ndim >= n:
        return arr
    shape, strides = _dims(arr, t)
    one, zero = C(1, I), C(0, I)
    if t.ndim == 0:
        pairs = [(one, zero)] * n
    elif t.ndim == 1:
        pairs = [(one, zero), (shape[0], strides[0])] + ([(one, zero)] if n == 3 else [])
    else:
        pairs = list(zip(shape, strides)) + [(one, zero)]
    layout = t.layout if t.layout in "CF" and t.ndim <= 1 else "A"
    return N.ArrayView(arr, zero, [s for s, _ in pairs], [d for _, d in pairs],
                       t.copy(ndim=n, layout=layout))


class AtLeast(_View):
    def __init__(self, n):
        super().__init__(f"atleast_{n}d")
        self.n = n

    def typer(self, inf, call, args, kwargs):
        t = self.check_array(args)
        if kwargs or len(args) != 1:
            raise Incompatible(f"np.{self.name}() of one array")
        if t.ndim >= self.n:
            return t
        return t.copy(ndim=self.n, layout=t.layout if t.layout in "CF" and t.ndim <= 1
                      else "A")

    def lower(self, L, call, args, kwargs):
        return at_least(L, args[0], self.n)


class Stacking(CallTemplate):
    """``np.vstack``, ``np.hstack``, ``np.column_stack``, ``np.dstack``: NumPy's
    definitions -- ``concatenate`` of ``atleast_3d`` views along axis 2 (dstack);
    of ``atleast_2d`` views along axis 0; of ``atleast_1d`` views
    along axis 0 for 1-D inputs, else 1; of 1-D inputs as columns along axis 1."""

    def __init__(self, name):
        self.name = name
        self.paths = (f"numpy.{name}",)

    def parts(self, t: T.TupleType):
        if not (isinstance(t, T.TupleType) and t.items
                and all(isinstance(i, T.ArrayType) for i in t.items)):
            raise Incompatible(f"np.{self.name}() of a tuple of arrays")
        if self.name == "vstack":
            ndims = [max(i.ndim, 2) for i in t.items]
            axis = 0
        elif self.name == "dstack":
            ndims = [max(i.ndim, 3) for i in t.items]
            axis = 2
        elif self.name == "hstack":
            ndims = [max(i.ndim, 1) for i in t.items]
            axis = 0 if ndims[0] == 1 else 1
        else:
            ndims = [2 if i.ndim < 2 else i.ndim for i in t.items]
            axis = 1
        if len(set(ndims)) != 1:
            raise Incompatible("all the input arrays must have the same number of dimensions")
        return ndims[0], axis

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) != 1:            # (dtype=, casting= not compiled)
            raise Incompatible(f"np.{self.name}(tup)")
        ndim, _ = self.parts(args[0])
        dt = args[0].items[0].dtype
        for i in args[0].items[1:]:
            dt = promote(dt, i.dtype) if dt != i.dtype else dt
        return T.ArrayType(dt, ndim, "C")

    def lower(self, L, call, args, kwargs):
        tup = L.let(args[0])
        ndim, axis = self.parts(tup.type)
        arrs = []
        for k, it in enumerate(tup.type.items):
            a = L.let(N.TupleGet(tup, k, it))
            if self.name == "column_stack" and it.ndim < 2:
                a = _column(L, at_least(L, a, 1))
            else:
                a = at_least(L, a, ndim)
            arrs.append(L.let(a))
        return concatenate(L, arrs, axis, call.type)


def _column(L, arr):
    """A 1-D array as an (n, 1) view."""
    arr = L.let(arr)
    return N.ArrayView(arr, C(0, I), [N.ArrayAttr(arr, "shape", 0, I), C(1, I)],
                       [N.ArrayAttr(arr, "stride", 0, I), C(0, I)],
                       arr.type.copy(ndim=2, layout="A"))


class Diag(CallTemplate):
    """``np.diag(v, k=0)``: a 1-D ``v`` on the k-th diagonal of a new square
    matrix; the k-th diagonal of a matrix as NumPy's read-only view."""

    paths = ("numpy.diag",)

    def typer(self, inf, call, args, kwargs):
        if not args or not isinstance(args[0], T.ArrayType) or set(kwargs) - {"k"} \
                or len(args) > 2 or args[0].ndim not in (1, 2):
            raise Incompatible("np.diag(v, k=0) of a 1-D or 2-D array")
        if not isinstance(_const(call, "k", 1, 0), int):
            raise Incompatible("np.diag(): k must be an integer constant")
        t = args[0]
        if t.ndim == 1:
            return T.ArrayType(t.dtype, 2, "C")
        return t.copy(ndim=1, layout="A", readonly=True)

    def lower(self, L, call, args, kwargs):
        k = _const(call, "k", 1, 0)
        arr = L.let(args[0])
        (n0, *rest), (s0, *srest) = _dims(arr, arr.type)
        if arr.type.ndim == 1:
            from .sizes import size_add
            size = size_add(L, n0, C(abs(k), I))
            out = allocate(L, call.type, [size, size])
            row, col = (C(0, I), C(k, I)) if k >= 0 else (C(-k, I), C(0, I))

            def value(idx):
                i, j = idx
                on = ops.band(N.Cmp("eq", N.BinOp("sub", i, row, I),
                                    N.BinOp("sub", j, col, I), T.BOOL),
                              N.Cmp("ge", N.BinOp("sub", i, row, I), C(0, I), T.BOOL))
                pos = N.Select(on, N.BinOp("sub", i, row, I), C(0, I), I)
                load = N.Load(arr, [N.Select(N.Cmp("lt", pos, n0, T.BOOL), pos, C(0, I), I)],
                              arr.type.dtype)
                return N.Select(on, load, ops.zero(arr.type.dtype), arr.type.dtype)
            fill(L, out, [size, size], value)
            return out
        return self.view(L, arr, k, call.type)

    @staticmethod
    def view(L, arr, k, rt):
        """The k-th diagonal of the matrix ``arr``, a view."""
        (n0, n1), (s0, s1) = _dims(arr, arr.type)
        # k >= 0: rows 0.., columns k..; k < 0: rows -k.., columns 0..
        rows = N.BinOp("sub", n0, C(max(-k, 0), I), I)
        cols = N.BinOp("sub", n1, C(max(k, 0), I), I)
        length = N.Select(N.Cmp("lt", rows, cols, T.BOOL), rows, cols, I)
        length = L.let(N.Select(N.Cmp("lt", length, C(0, I), T.BOOL), C(0, I), length, I))
        start = N.BinOp("add", N.BinOp("mul", C(max(-k, 0), I), s0, I),
                        N.BinOp("mul", C(max(k, 0), I), s1, I), I)
        offset = N.Select(N.Cmp("gt", length, C(0, I), T.BOOL), start, C(0, I), I)
        return N.ArrayView(arr, L.let(offset), [length], [N.BinOp("add", s0, s1, I)], rt)


_TRACED = "the diagonal np.trace sums"     # (the plan of Trace's rewritten call)


class Trace(CallTemplate):
    """``np.trace(a, offset=0)`` / ``a.trace(offset)`` of a matrix: NumPy's
    ``PyArray_Trace``, ``np.add.reduce`` of the diagonal view -- the call is
    rewritten while typing into ``np.sum(np.diagonal(a, offset))``, so the sum
    is ``np.sum``'s own (pairwise for floats, as NumPy's loop over the strided
    view; ``np.sum``'s dtype).  ``axis1``/``axis2``, ``dtype`` and ``out`` fall
    back."""

    paths = ("numpy.trace",)

    def typer(self, inf, call, args, kwargs):
        if call.args and getattr(call.args[0], "plan", None) == _TRACED:   # (typed again)
            return REDUCTIONS["sum"].typer(inf, call, args, kwargs)
        if not args or len(args) > 2 or set(kwargs) - {"offset"} or \
                not isinstance(args[0], T.ArrayType) or args[0].ndim != 2:
            raise Incompatible("np.trace(a, offset=0) of a 2-D array")
        offset = _const(call, "offset", 1, 0)
        if not isinstance(offset, int):
            raise Incompatible("np.trace(): offset must be an integer constant")
        import numpy as np
        diagonal = N.PyCall(np.diagonal, [call.args[0], C(offset, I)], name="np.diagonal",
                            plan=_TRACED)
        t = inf.expr(diagonal, 0)
        call.args, call.kwargs = [diagonal], {}
        return REDUCTIONS["sum"].typer(inf, call, [t], {})

    def lower(self, L, call, args, kwargs):
        return REDUCTIONS["sum"].lower(L, call, args, kwargs)


class CountNonzero(CallTemplate):
    """``np.count_nonzero(a, axis=None, keepdims=False)``: the number of true
    elements, an int; along a constant axis NumPy's ``a.astype(bool).sum(axis,
    dtype=np.intp)``, an int64 array."""

    paths = ("numpy.count_nonzero",)

    def typer(self, inf, call, args, kwargs):
        if len(args) > 2 or set(kwargs) - {"axis", "keepdims"} \
                or not args or not isinstance(args[0], T.ArrayType):
            raise Incompatible("np.count_nonzero(a, axis=None, keepdims=False) of an array")
        if len(args) == 1 and not kwargs:
            return I
        return REDUCTIONS["sum"].typer(inf, call, [args[0].copy(dtype=T.BOOL)] + args[1:],
                                          kwargs)

    def lower(self, L, call, args, kwargs):
        arr = L.let(args[0])
        t = arr.type
        if isinstance(call.type, T.ArrayType) or kwargs or len(args) > 1:
            z = ew.to_lazy(L, arr)
            truth = ew.Lazy(t.copy(dtype=T.BOOL, layout="C"), z.dims,
                            lambda idx: ops.truth(L, z.elem(idx)))
            return REDUCTIONS["sum"].lower(L, call, [truth] + list(args[1:]), kwargs)
        if t.dtype.is_bool and (t.layout == "C" or t.ndim == 1 and t.layout != "F"):
            return self.count_bytes(L, arr)
        acc = L.temp(I, "count")
        L.emit(N.Assign(target=acc, value=C(0, I)))

        def body(idx):
            nz = ops.truth(L, N.Load(arr, list(idx), t.dtype))
            L.emit(N.Assign(target=acc, value=N.BinOp("add", N.Var(acc, I),
                                                      ops.convert(L, nz, I), I)))
        loops(L, [N.ArrayAttr(arr, "shape", k, I) for k in range(t.ndim)], body)
        return N.Var(acc, I)

    def count_bytes(self, L, arr):
        """The trues of a C-contiguous boolean array (or of a 1-D one whose
        stride is one byte) counted a byte block at a time
        (``count_algorithms``); other 1-D strides one by one."""
        from . import count_algorithms as hc
        t = arr.type
        n = L.let(total_size([N.ArrayAttr(arr, "shape", k, I) for k in range(t.ndim)]))
        res = L.temp(I, "count")

        def blocks():
            v = L.let(N.ArrayView(arr, C(0, I), [n], [C(1, I)], T.ArrayType(T.UINT8, 1, "C")))
            L.emit(N.Assign(target=res, value=L.call_helper(hc.count_ones, [v])))
        s1, _ = L.sub_block(blocks)
        if t.layout == "C":
            for s_ in s1:
                L.emit(s_)
            return N.Var(res, I)

        def strided():
            L.emit(N.Assign(target=res, value=C(0, I)))

            def body(idx):
                x = ops.convert(L, N.Load(arr, list(idx), t.dtype), I)
                L.emit(N.Assign(target=res, value=N.BinOp("add", N.Var(res, I), x, I)))
            loops(L, [n], body)
        s2, _ = L.sub_block(strided)
        unit = N.Cmp("eq", N.ArrayAttr(arr, "stride", 0, I), C(1, I), T.BOOL)
        L.emit(N.If(cond=unit, then=s1, orelse=s2))
        return N.Var(res, I)


@register
class Ptp(CallTemplate):
    """``np.ptp(a, axis=None, keepdims=False)``: NumPy's ``maximum.reduce(a,
    axis) - minimum.reduce(a, axis)`` -- the two reductions, then their
    difference in the data's type (integers wrap as in NumPy)."""

    paths = ("numpy.ptp",)
    accepts_lazy = True

    def typer(self, inf, call, args, kwargs):
        if not args or not isinstance(args[0], T.ArrayType) or args[0].dtype.is_bool:
            raise Incompatible("np.ptp(a, axis=None, keepdims=False) of a numeric array")
        return REDUCTIONS["max"].typer(inf, call, args, kwargs)

    def lower(self, L, call, args, kwargs):
        a = L.let(ew.materialize(L, args[0]))
        rest = list(args[1:])
        hi = L.let(REDUCTIONS["max"].lower(L, call, [a] + rest, kwargs))
        lo = L.let(REDUCTIONS["min"].lower(L, call, [a] + rest, kwargs))
        t = a.type.dtype
        if not isinstance(call.type, T.ArrayType):
            return ew.np_binop(L, "sub", hi, lo, t)
        dims = [N.ArrayAttr(hi, "shape", k, I) for k in range(call.type.ndim)]
        fill(L, hi, dims, lambda idx: ew.np_binop(L, "sub", N.Load(hi, list(idx), t),
                                                  N.Load(lo, list(idx), t), t))
        return hi


for _name in ("flip", "fliplr", "flipud"):
    register(Flip(_name))
register(ExpandDims("expand_dims"))
for _n in (1, 2, 3):
    register(AtLeast(_n))
for _name in ("vstack", "hstack", "column_stack", "dstack"):
    register(Stacking(_name))
DIAG = register(Diag())
register(Diagonal())
register(SwapAxes("swapaxes"))
register(SwapAxes("moveaxis"))
register(Rot90("rot90"))
register(Trace())
register(CountNonzero())
