"""``np.unique(a, return_index=False, return_inverse=False, return_counts=False,
equal_nan=True)`` with constant flags, and the array-API ``np.unique_counts``,
``np.unique_inverse``, ``np.unique_all`` (named tuples, ``equal_nan=False``) and
``np.unique_values`` of float arrays (NumPy sorts those; of integers it returns
its hash table's order: they fall back).  Integer, unsigned, float and bool
arrays of any shape, flattened (``unique_returns_algorithms`` follows NumPy's
``_unique1d``); the inverse has the input's shape, as NumPy 2.4 gives it.
``axis=``, ``sorted=False``, complex arrays and numbers fall back."""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..python.operators import C
from ..registry import CallTemplate, bind_arguments, bound_const, register
from . import unique_returns_algorithms as hu

I = T.INT64
PARAMS = ("ar", "return_index", "return_inverse", "return_counts", "axis", "equal_nan",
          "sorted")
FLAGS = ("return_index", "return_inverse", "return_counts")


def flags(call):
    """The constant flags of an ``np.unique`` call: ``(index, inverse, counts,
    equal_nan)``; Incompatible for what falls back."""
    nodes = bind_arguments("np.unique", PARAMS, call.args, call.kwargs)
    got = [bound_const(call, nodes, k, False) for k in FLAGS]
    equal_nan = bound_const(call, nodes, "equal_nan", True)
    if bound_const(call, nodes, "axis", None) is not None:
        raise Incompatible("np.unique() with axis=")
    if bound_const(call, nodes, "sorted", True) is not True:
        raise Incompatible("np.unique(sorted=False) (NumPy's hash table order)")
    return [bool(x) for x in got] + [bool(equal_nan)]


def _check(at, what):
    if not isinstance(at, T.ArrayType):
        raise Incompatible(f"{what} of {at} (arrays only)")
    if at.dtype.is_complex:
        raise Incompatible(f"{what} of a complex array")


def _array(dtype):
    return T.ArrayType(dtype, 1, "C")


def result_types(at, index, inverse, counts):
    items = [_array(at.dtype)]
    if index:
        items.append(_array(I))
    if inverse:
        items.append(T.ArrayType(I, at.ndim, "C"))
    if counts:
        items.append(_array(I))
    return items


def lower_unique(L, a, index, inverse, counts, equal_nan, rt):
    """The tuple ``rt`` (or its one array) of ``np.unique`` of ``a``."""
    from ..arrays.insert_delete import raveled
    from ..arrays.shape import reshape_view
    a = L.let(ew.materialize(L, a))
    flat = raveled(L, a)
    if a.type.dtype.is_float and not index:
        L.call_helper(hu.mixed_signs, [flat])
    t = L.let(L.call_helper(hu.unique_all, [flat, C(equal_nan, T.BOOL)]))
    parts = t.type.items
    items = [L.let(N.TupleGet(t, 0, parts[0]))]
    if index:
        items.append(L.let(N.TupleGet(t, 1, parts[1])))
    if inverse:
        inv = L.let(N.TupleGet(t, 2, parts[2]))
        nd = a.type.ndim
        if nd != 1:
            inv = L.let(reshape_view(L, inv, [N.ArrayAttr(a, "shape", k, I)
                                              for k in range(nd)],
                                     T.ArrayType(I, nd, "C")))
        items.append(inv)
    if counts:
        items.append(L.let(N.TupleGet(t, 3, parts[3])))
    if not isinstance(rt, T.TupleType):
        return items[0]
    return N.MakeTuple(items, rt)


def unique_typer(call, args, kwargs):
    """``np.unique`` with keywords (``sort.Unique``'s hook)."""
    if not args:
        raise Incompatible("np.unique() needs an array")
    index, inverse, counts, _ = flags(call)
    _check(args[0], "np.unique()")
    items = result_types(args[0], index, inverse, counts)
    return items[0] if len(items) == 1 else T.TupleType(tuple(items))


def unique_lower(L, call, args, kwargs):
    index, inverse, counts, equal_nan = flags(call)
    return lower_unique(L, args[0], index, inverse, counts, equal_nan, call.type)


class ArrayApiUnique(CallTemplate):
    accepts_lazy = True
    SPEC = {"unique_values": ((False, False, False), ()),
            "unique_counts": ((False, False, True), ("values", "counts")),
            "unique_inverse": ((False, True, False), ("values", "inverse_indices")),
            "unique_all": ((True, True, True),
                           ("values", "indices", "inverse_indices", "counts"))}

    def __init__(self, name):
        self.name = name
        self.paths = (f"numpy.{name}",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or kwargs:
            raise Incompatible(f"np.{self.name}(x)")
        at = args[0]
        _check(at, f"np.{self.name}()")
        (index, inverse, counts), fields = self.SPEC[self.name]
        if not fields:
            if not at.dtype.is_float:
                raise Incompatible("np.unique_values() of a non-float array (NumPy "
                                   "returns its hash table's order)")
            return _array(at.dtype)
        items = result_types(at, index, inverse, counts)
        result = "".join(w.capitalize() for w in self.name.split("_")) + "Result"
        return T.NamedTupleType(tuple(items), name=result, fields=fields,
                                module="numpy.lib._arraysetops_impl")

    def lower(self, L, call, args, kwargs):
        (index, inverse, counts), _ = self.SPEC[self.name]
        return lower_unique(L, args[0], index, inverse, counts, False, call.type)


for _name in ArrayApiUnique.SPEC:
    register(ArrayApiUnique(_name))
