"""``np.unravel_index(indices, shape, order='C')``,
``np.ravel_multi_index(multi_index, dims, mode='raise', order='C')``,
``np.tril_indices(n, k=0, m=None)`` and ``np.triu_indices(n, k=0, m=None)``
(``index_tricks_algorithms``).

``indices`` an integer or an integer array (the coordinates then arrays of its
shape; an integer: a tuple of int64 scalars), ``shape``/``dims`` an int or a
tuple of ints, ``order`` 'C' or 'F' and ``mode`` 'raise', 'wrap' or 'clip'
(constants); ``multi_index`` a tuple of integers or of integer arrays of one
shape (NumPy broadcasts them: other shapes fall back).  NumPy's ValueError for
an index out of bounds.  uint64 indices and a mode per axis fall back."""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from ..python.operators import C
from ..registry import PlannedCall, bound_const, register
from ..arrays.creation import allocate
from ..arrays.reductions import loops
from . import index_tricks_algorithms as hi

I = T.INT64


def _int(t) -> bool:
    return isinstance(t, T.Scalar) and t.is_int and t != T.UINT64


def _int_array(t) -> bool:
    return isinstance(t, T.ArrayType) and _int(t.dtype)


def _shape_len(t, what) -> int:
    if _int(t):
        return 1
    if isinstance(t, T.TupleType) and all(_int(i) for i in t.items):
        return len(t.items)
    raise Incompatible(f"{what}(): the shape must be an int or a tuple of ints")


def _ints(L, e) -> N.Expr:
    """An int or a tuple of ints as a 1-D int64 array."""
    t = e.type
    if not isinstance(t, T.TupleType):
        items = [ops.convert(L, e, I)]
    else:
        tup = L.let(e)
        items = [ops.convert(L, C(tup.value[k], it) if isinstance(tup, N.Const)
                             else N.TupleGet(tup, k, it), I) for k, it in enumerate(t.items)]
    out = allocate(L, T.ArrayType(I, 1, "C"), [C(len(items), I)])
    for k, v in enumerate(items):
        L.emit(N.Store(array=out, indices=[C(k, I)], value=v))
    return out


def _order(call, nodes, what) -> bool:
    order = bound_const(call, nodes, "order", "C")
    if order not in ("C", "F"):
        raise Incompatible(f"{what}(): order must be a constant 'C' or 'F'")
    return order == "F"


def _row(L, out, k, n, dims, rt):
    """Row ``k`` of the C-ordered ``(rows, n)`` int64 array ``out`` as an array of
    ``dims`` (C order)."""
    from ..arrays.shape import reshape_view
    row = L.let(N.ArrayView(out, L.let(N.BinOp("mul", C(8 * k, I), n, I)), [n], [C(8, I)],
                            T.ArrayType(I, 1, "C")))
    return reshape_view(L, row, dims, rt) if rt.ndim != 1 else row


class _Plan:
    pass


@register
class UnravelIndex(PlannedCall):
    name, params = "np.unravel_index", ("indices", "shape", "order")
    paths = ("numpy.unravel_index",)

    def make_plan(self, call, nodes, types):
        x = types.get("indices")
        if not (_int(x) or _int_array(x)) or "shape" not in types:
            raise Incompatible("np.unravel_index(indices, shape) of integers")
        plan = _Plan()
        plan.nd = _shape_len(types["shape"], self.name)
        plan.fortran = _order(call, nodes, self.name)
        item = T.ArrayType(I, x.ndim, "C") if isinstance(x, T.ArrayType) else I
        plan.type = T.TupleType((item,) * plan.nd)
        return plan

    def lower(self, L, call, args, kwargs):
        from ..sorting.digitize import flat_values
        b = self.bound(args, kwargs)
        plan = call.call_plan
        x = b["indices"]
        if isinstance(x.type, T.ArrayType):
            x = L.let(x)
            dims = [L.let(N.ArrayAttr(x, "shape", k, I)) for k in range(x.type.ndim)]
        else:
            dims = []
        flat = flat_values(L, x, I)[1]
        n = L.let(N.ArrayAttr(flat, "shape", 0, I))
        out = allocate(L, T.ArrayType(I, 2, "C"), [C(plan.nd, I), n])
        L.call_helper(hi.unravel_into, [out, flat, _ints(L, b["shape"]),
                                        C(plan.fortran, T.BOOL)])
        if not isinstance(x.type, T.ArrayType):
            items = [N.Load(out, [C(k, I), C(0, I)], I) for k in range(plan.nd)]
        else:
            items = [_row(L, out, k, n, dims, plan.type.items[0]) for k in range(plan.nd)]
        return N.MakeTuple([L.let(i) for i in items], plan.type)


_MODES = {"raise": 0, "wrap": 1, "clip": 2}


@register
class RavelMultiIndex(PlannedCall):
    name, params = "np.ravel_multi_index", ("multi_index", "dims", "mode", "order")
    paths = ("numpy.ravel_multi_index",)

    def make_plan(self, call, nodes, types):
        mi = types.get("multi_index")
        if not isinstance(mi, T.TupleType) or "dims" not in types or not (
                all(_int(i) for i in mi.items) or all(_int_array(i) for i in mi.items)):
            raise Incompatible("np.ravel_multi_index(multi_index, dims) of a tuple of "
                               "integers or of integer arrays")
        plan = _Plan()
        nd = _shape_len(types["dims"], self.name)
        if nd != len(mi.items):
            raise Incompatible(f"parameter multi_index must be a sequence of length {nd}")
        if len({getattr(i, "ndim", 0) for i in mi.items}) > 1:
            raise Incompatible("np.ravel_multi_index() of arrays of different dimensions")
        plan.nd = nd
        plan.fortran = _order(call, nodes, self.name)
        mode = bound_const(call, nodes, "mode", "raise")
        if mode not in _MODES:
            raise Incompatible("np.ravel_multi_index(): mode must be a constant 'raise', "
                               "'wrap' or 'clip'")
        plan.mode = _MODES[mode]
        first = mi.items[0] if mi.items else I
        plan.type = T.ArrayType(I, first.ndim, "C") if isinstance(first, T.ArrayType) else I
        return plan

    def lower(self, L, call, args, kwargs):
        from ..arrays.shape import reshape_view
        b = self.bound(args, kwargs)
        plan = call.call_plan
        tup = L.let(b["multi_index"])
        items = [L.let(C(tup.value[k], it) if isinstance(tup, N.Const)
                       else N.TupleGet(tup, k, it)) for k, it in enumerate(tup.type.items)]
        arrays = isinstance(plan.type, T.ArrayType)
        rank = plan.type.ndim if arrays else 0
        dims = [L.let(N.ArrayAttr(items[0], "shape", k, I)) for k in range(rank)] \
            if arrays and items else []
        for a in items[1:] if arrays else []:
            for k in range(rank):
                L.emit(N.If(cond=N.Cmp("ne", N.ArrayAttr(a, "shape", k, I), dims[k], T.BOOL),
                            then=[N.Raise(exc=ValueError, deopt=True, message=(
                                "np.ravel_multi_index() of arrays of different shapes"))]))
        n = C(1, I)
        for d in dims:
            n = N.BinOp("mul", n, d, I)
        n = L.let(n)
        coords = allocate(L, T.ArrayType(I, 2, "C"), [C(plan.nd, I), n])
        for k, a in enumerate(items):
            if not arrays:
                L.emit(N.Store(array=coords, indices=[C(k, I), C(0, I)],
                               value=ops.convert(L, a, I)))
                continue

            def body(idx, a=a, k=k):
                flat = C(0, I)
                for j, i in enumerate(idx):
                    flat = N.BinOp("add", N.BinOp("mul", flat, dims[j], I), i, I)
                L.emit(N.Store(array=coords, indices=[C(k, I), flat], value=ops.convert(
                    L, N.Load(a, list(idx), a.type.dtype), I)))
            loops(L, dims, body)
        out = allocate(L, T.ArrayType(I, 1, "C"), [n])
        L.call_helper(hi.ravel_into, [out, coords, _ints(L, b["dims"]),
                                      C(plan.mode, I), C(plan.fortran, T.BOOL)])
        if not arrays:
            return N.Load(out, [C(0, I)], I)
        return reshape_view(L, out, dims, plan.type) if rank != 1 else out


class TriIndices(PlannedCall):
    params = ("n", "k", "m")

    def __init__(self, upper):
        self.upper = upper
        self.name = "np.triu_indices" if upper else "np.tril_indices"
        self.paths = ("numpy." + self.name[3:],)

    def make_plan(self, call, nodes, types):
        for p in self.params:
            t = types.get(p)
            if t is not None and not _int(t) and not (p == "m" and t == T.NONE):
                raise Incompatible(f"{self.name}(n, k=0, m=None) of integers")
        if "n" not in types:
            raise Incompatible(f"{self.name}() needs n")
        plan = _Plan()
        item = T.ArrayType(I, 1, "C")
        plan.type = T.TupleType((item, item))
        return plan

    def lower(self, L, call, args, kwargs):
        b = self.bound(args, kwargs)
        n = L.let(ops.convert(L, b["n"], I))
        m = b.get("m")
        m = n if m is None or m.type == T.NONE else L.let(ops.convert(L, m, I))
        k = L.let(ops.convert(L, b["k"], I)) if "k" in b else C(0, I)
        out = L.let(L.call_helper(hi.tri_indices, [n, m, k, C(self.upper, T.BOOL)]))
        count = L.let(N.ArrayAttr(out, "shape", 1, I))
        item = call.type.items[0]
        return N.MakeTuple([_row(L, out, r, count, [count], item) for r in (0, 1)],
                           call.type)


register(TriIndices(True))
register(TriIndices(False))
