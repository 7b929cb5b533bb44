"""Shape changes of arrays: ``.T``/``np.transpose``, ``reshape`` (a view where the
layout allows, else a copy), ``ravel``/``flatten``, and ``contiguous``/``reshape_view``,
which other families build on."""
from __future__ import annotations


from ...typing_rules import Incompatible
from ...errors import RERUN
from ...ir import nodes as N
from ...ir import types as T
from . import elementwise as ew
from ..python import operators as ops
from .sizes import check_dims, product_overflows
from ..python.operators import C
from .reductions import total_size
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
    """``np.transpose(a, axes=None)``, ``a.transpose()``, ``a.transpose(axes)`` and
    ``a.transpose(*axes)`` (constant axes): a view with its axes in that order,
    reversed without them."""

    paths = ("numpy.transpose",)

    def order(self, call, ndim):
        nodes = list(call.args[1:])
        if "axes" in call.kwargs:
            nodes.append(call.kwargs["axes"])
        if len(set(call.kwargs) - {"axes"}) or not all(isinstance(n, N.Const) for n in nodes):
            raise Incompatible("transpose() with axes that are not constant integers")
        values = [n.value for n in nodes]
        if len(values) == 1 and isinstance(values[0], (tuple, type(None))):
            values = values[0]
        if values is None or values == []:
            return list(reversed(range(ndim)))
        if len(values) != ndim or not all(type(k) is int for k in values):
            raise Incompatible("transpose(): axes don't match array")
        order = [k % ndim if -ndim <= k < ndim else None for k in values]
        if None in order or len(set(order)) != ndim:
            raise Incompatible("transpose(): axes out of bounds or repeated")
        return order

    def typer(self, inf, call, args, kwargs):
        if not args or not isinstance(args[0], T.ArrayType):
            raise Incompatible("np.transpose() of an array")
        t = args[0]
        order = self.order(call, t.ndim)
        if order == list(range(t.ndim)):
            return t
        if order == list(reversed(range(t.ndim))) and t.layout in ("C", "F"):
            return t.copy(layout={"C": "F", "F": "C"}[t.layout])
        return t.copy(layout="A")

    def lower(self, L, call, args, kwargs):
        arr = L.let(args[0])
        order = self.order(call, arr.type.ndim)
        return N.ArrayView(arr, C(0, I), [N.ArrayAttr(arr, "shape", k, I) for k in order],
                           [N.ArrayAttr(arr, "stride", k, I) for k in order], call.type)


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
        ok = L.let(c_contiguous(a))
        stmts, copy = L.sub_block(lambda: _copy(L, a, ct))
        L.emit(N.If(cond=ok, then=[N.Assign(target=out, value=N.ArrayView(
            a, C(0, I), [N.ArrayAttr(a, "shape", k, I) for k in range(t.ndim)],
            [N.ArrayAttr(a, "stride", k, I) for k in range(t.ndim)], ct))],
            orelse=stmts + [N.Assign(target=out, value=copy)]))
        return N.Var(out, ct)
    return _copy(L, a, ct)


class AsContiguous(CallTemplate):
    """``np.ascontiguousarray(a)`` / ``np.asfortranarray(a)`` of an array of one
    dimension or more: ``a`` itself (a view of its memory: writes reach it)
    when it is contiguous in that order, checked at run time where its type
    does not say, else a copy in that order."""

    accepts_lazy = True

    def __init__(self, order):
        self.order = order
        self.paths = ("numpy.ascontiguousarray",) if order == "C" else (
            "numpy.asfortranarray",)

    def typer(self, inf, call, args, kwargs):
        what = self.paths[0].replace("numpy.", "np.")
        if len(args) != 1 or kwargs or not isinstance(args[0], T.ArrayType):
            raise Incompatible(f"{what}(a) of an array, without dtype")
        t = args[0]
        if t.ndim == 0 or t.readonly:
            raise Incompatible(f"{what}() of a {'0-d' if t.ndim == 0 else 'read-only'} array")
        return t.copy(layout=self.order if t.ndim > 1 else "C")

    def lower(self, L, call, args, kwargs):
        rt = call.type
        a = L.let(ew.materialize(L, args[0]))     # (an expression: C-ordered)
        t = a.type
        nd = t.ndim
        if t.layout == rt.layout:
            return a
        dims = [N.ArrayAttr(a, "shape", k, I) for k in range(nd)]
        strides = [N.ArrayAttr(a, "stride", k, I) for k in range(nd)]
        order = list(range(nd)) if rt.layout == "C" else list(reversed(range(nd)))
        ok = L.let(c_contiguous(a, order))
        out = L.temp(rt, "contiguous")
        stmts, v = L.sub_block(lambda: _copy(L, a, rt))
        L.emit(N.If(cond=ok, then=[N.Assign(target=out, value=N.ArrayView(
            a, C(0, I), dims, strides, rt))], orelse=stmts + [N.Assign(target=out, value=v)]))
        return N.Var(out, rt)


register(AsContiguous("C"))
register(AsContiguous("F"))


def c_contiguous(a, axes=None):
    """Is the array ``a`` C-contiguous at run time (over ``axes`` in that
    order, all of them by default; reversed: Fortran-contiguous)?  Each
    stride the item size times the lengths after it, axes of length 1 apart."""
    t = a.type
    axes = list(range(t.ndim)) if axes is None else axes
    ok = C(True, T.BOOL)
    expect = C(max(1, t.dtype.bits // 8), I)
    for k in reversed(axes):
        dim = N.ArrayAttr(a, "shape", k, I)
        good = ops.bor(N.Cmp("eq", N.ArrayAttr(a, "stride", k, I), expect, T.BOOL),
                       N.Cmp("le", dim, C(1, I), T.BOOL))
        ok = ops.band(ok, good)
        expect = N.BinOp("mul", expect, dim, I)
    return ok


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
        exc=ValueError, args=[size], deopt=RERUN,
        message="cannot reshape array of size {} into the requested shape")]))
    safe_known = N.Select(N.Cmp("eq", known, C(0, I), T.BOOL), C(1, I), known, I)
    inferred = L.let(N.BinOp("sdiv", size, safe_known, I))
    dims = [L.let(N.Select(unknown(d), inferred, d, I)) for d in dims]
    # (a product that leaves int64 never matches, even where it wraps to the size)
    mismatch = N.BinOp("or", product_overflows(L, dims),
                       N.Cmp("ne", total_size(dims), size, T.BOOL), T.BOOL)
    L.emit(N.If(cond=mismatch, then=[N.Raise(
        exc=ValueError, args=[size], deopt=RERUN,
        message="cannot reshape array of size {} into the requested shape")]))
    check_dims(L, dims, max(1, rt.dtype.bits // 8))     # NumPy's view: "too big"
    itemsize = max(1, rt.dtype.bits // 8)
    strides = [None] * len(dims)
    st = C(itemsize, I)
    for k in range(len(dims) - 1, -1, -1):
        strides[k] = L.let(st)
        st = N.BinOp("mul", st, dims[k], I)
    return N.ArrayView(src, C(0, I), dims, strides, rt)


def _order(call, at: T.ArrayType) -> str:
    """The constant ``order`` of ``ravel``/``flatten`` (second positional or
    keyword), as ``'C'`` or ``'F'``: ``'A'`` and ``'K'`` are ``'C'`` for an
    array known to be C-contiguous and ``'F'`` for a Fortran one; otherwise the
    order is a run-time question (``Ravel.lower``)."""
    node = call.kwargs.get("order", call.args[1] if len(call.args) > 1 else None)
    if node is None:
        return "C"
    order = getattr(node, "value", getattr(node, "obj", None))
    if order not in ("C", "F", "A", "K"):
        raise Incompatible("order= must be a constant 'C', 'F', 'A' or 'K'")
    if order in ("A", "K"):
        if at.ndim <= 1 or at.layout == "C":
            return "C"
        if at.layout == "F":
            return "F"
        return order                # decided at run time (``Ravel.lower``)
    return order


def _fortran_first(L, a, order):
    """For an array whose layout only the run time knows: does ``ravel`` read
    it in Fortran order?  ``'A'``: when it is Fortran-contiguous and not
    C-contiguous (NumPy's ``PyArray_ISFORTRAN``).  ``'K'`` (2-D): when NumPy's
    iterator puts the first axis innermost (``sum_lanes.iteration_order``: the
    smaller stride innermost; ties, a stride of 0 and axes of length 1 keep C
    order), each axis read in index order, backwards or not."""
    nd = a.type.ndim
    if order == "A":
        c = L.let(c_contiguous(a))
        f = L.let(c_contiguous(a, list(reversed(range(nd)))))
        return ops.band(f, ops.logical_not(c))
    from ..statistics import sum_lanes
    from .sum_order import int_array
    shape = int_array(L, [N.ArrayAttr(a, "shape", k, I) for k in range(nd)])
    strides = int_array(L, [N.ArrayAttr(a, "stride", k, I) for k in range(nd)])
    inner = L.let(L.call_helper(sum_lanes.iteration_order, [shape, strides]))
    return N.Cmp("eq", N.Load(inner, [C(0, I)], I), C(0, I), T.BOOL)


def _memory_order(L, a):
    """``a``'s axes put in NumPy's order ``'K'`` for 3 or more dimensions: the
    view whose C order is the order in which NumPy's iterator reads ``a``
    (``sum_lanes.iteration_order``, innermost first: the smaller stride
    inner, ties, strides of 0 and axes of length 1 keeping C order), each axis
    read in index order, backwards or not."""
    from ..statistics import sum_lanes
    from .sum_order import int_array
    nd = a.type.ndim
    shape = L.let(int_array(L, [N.ArrayAttr(a, "shape", k, I) for k in range(nd)]))
    strides = L.let(int_array(L, [N.ArrayAttr(a, "stride", k, I) for k in range(nd)]))
    inner = L.let(L.call_helper(sum_lanes.iteration_order, [shape, strides]))
    dims, steps = [], []
    for k in range(nd):
        ax = L.let(N.Load(inner, [C(nd - 1 - k, I)], I))
        dims.append(L.let(N.Load(shape, [ax], I)))
        steps.append(L.let(N.Load(strides, [ax], I)))
    return N.ArrayView(a, C(0, I), dims, steps, a.type.copy(layout="A"))


class Ravel(CallTemplate):
    """``a.ravel(order='C')``, ``np.ravel(a, order)``: a view where the
    elements are contiguous in that order, else a copy; ``'F'`` reads the
    transpose in C order."""

    accepts_lazy = True

    def typer(self, inf, call, args, kwargs):
        if len(args) > 2 or set(kwargs) - {"order"} or len(args) + len(kwargs) > 2:
            raise Incompatible("ravel(order='C') takes one argument")
        if not isinstance(args[0], T.ArrayType):
            raise Incompatible(f"ravel() of {args[0]}")
        _order(call, args[0])
        return args[0].copy(ndim=1, layout="C")

    @staticmethod
    def source(L, a, order):
        """``a``, or its transpose view for order ``'F'``."""
        if order == "F":
            a = ew.materialize(L, a) if isinstance(a, ew.Lazy) else a
            return transpose(L, L.let(a))
        return a

    def lower(self, L, call, args, kwargs):
        order = _order(call, args[0].type)
        if order == "K" and args[0].type.ndim >= 3:
            a = L.let(args[0])
            view = L.let(_memory_order(L, a))
            return self.lower_order(L, view, "C", self.result_type(call))
        if order in ("A", "K"):
            # the order only the run time knows: both readings, one taken
            a = L.let(args[0])
            rt = self.result_type(call)
            out = L.temp(rt, "flat")
            branches = []
            for o in ("F", "C"):
                stmts, v = L.sub_block(lambda o=o: self.lower_order(L, a, o, rt))
                branches.append(stmts + [N.Assign(target=out, value=v)])
            L.emit(N.If(cond=L.let(_fortran_first(L, a, order)), then=branches[0],
                        orelse=branches[1]))
            return N.Var(out, rt)
        return self.lower_order(L, args[0], order, self.result_type(call))

    @staticmethod
    def result_type(call):
        return call.type

    def lower_order(self, L, a, order, rt):
        src = contiguous(L, self.source(L, a, order))
        return reshape_view(L, src, [C(-1, I)], rt)


class Flatten(Ravel):
    @staticmethod
    def result_type(call):
        return call.type.copy(readonly=False)

    def lower_order(self, L, a, order, rt):
        a = self.source(L, a, order)
        src = ew.materialize(L, a) if isinstance(a, ew.Lazy) else _copy(
            L, L.let(a), a.type.copy(layout="C", readonly=False))
        return reshape_view(L, src, [C(-1, I)], rt)


_reshape, _ravel = Reshape(), Ravel()
_reshape.paths, _ravel.paths = ("numpy.reshape",), ("numpy.ravel",)
register(_reshape)
register(_ravel)

METHODS = {"reshape": Reshape(), "ravel": Ravel(), "flatten": Flatten(),
           "transpose": Transpose()}
