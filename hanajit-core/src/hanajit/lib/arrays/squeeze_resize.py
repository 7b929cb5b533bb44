"""``np.squeeze(a, axis)`` / ``a.squeeze(axis)``, ``np.resize(a, new_shape)``,
``np.trim_zeros(filt, trim='fb')`` and ``np.ediff1d(ary, to_end=None,
to_begin=None)`` (``squeeze_resize_algorithms``).

* ``squeeze`` with a constant axis or tuple of axes: a view without them,
  NumPy's ValueError at run time when one has a length other than 1.  Without
  ``axis`` the result's number of dimensions depends on the sizes: it falls
  back (0-d arrays excepted).
* ``resize``: a new C-ordered array of ``new_shape`` (an int or a tuple of ints)
  repeating the raveled data, zeros for an empty array; NumPy's ValueError for a
  negative dimension.
* ``trim_zeros`` of a 1-D array: NumPy's view without the leading/trailing zeros
  (``trim`` a constant, any case); other ``axis=`` and N-D arrays fall back.
* ``ediff1d``: the raveled differences in the array's dtype, ``to_begin`` and
  ``to_end`` numbers or arrays (raveled, cast as NumPy casts them; a dtype not
  castable under ``same_kind`` falls back, NumPy's TypeError).  Boolean arrays
  fall back (NumPy's subtract refuses them)."""
from __future__ import annotations

import numpy as np

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from ..python.operators import C
from ..registry import PlannedCall, bound_const, register
from . import squeeze_resize_algorithms as hs
from .creation import allocate
from .insert_delete import raveled

I = T.INT64


class _Plan:
    pass


def _axes(axis, ndim):
    from .rearrange import constant_axes
    return sorted(constant_axes(axis, ndim, "squeeze()"))


class Squeeze(PlannedCall):
    name, params = "np.squeeze", ("a", "axis")

    def make_plan(self, call, nodes, types):
        t = types.get("a")
        if not isinstance(t, T.ArrayType):
            raise Incompatible(f"np.squeeze() of {t} (an array)")
        axis = bound_const(call, nodes, "axis", None)
        plan = _Plan()
        if axis is None:
            if t.ndim:
                raise Incompatible("squeeze() without axis: the number of dimensions "
                                   "it returns depends on the lengths (every length-1 "
                                   "axis dropped); give axis=")
            plan.axes, plan.type = [], t
            return plan
        plan.axes = _axes(axis, t.ndim)
        layout = t.layout if t.layout in "CF" else "A"
        plan.type = t.copy(ndim=t.ndim - len(plan.axes), layout=layout)
        return plan

    def lower(self, L, call, args, kwargs):
        plan = call.call_plan
        a = L.let(self.bound(args, kwargs)["a"])
        if not plan.axes:
            return a
        for k in plan.axes:
            L.raise_if(N.Cmp("ne", N.ArrayAttr(a, "shape", k, I), C(1, I), T.BOOL),
                       ValueError, "cannot select an axis to squeeze out which has size "
                       "not equal to one")
        keep = [k for k in range(a.type.ndim) if k not in plan.axes]
        return N.ArrayView(a, C(0, I), [N.ArrayAttr(a, "shape", k, I) for k in keep],
                           [N.ArrayAttr(a, "stride", k, I) for k in keep], call.type)


def _shape_items(t):
    if isinstance(t, T.Scalar) and t.is_int:
        return 1
    if isinstance(t, T.TupleType) and all(isinstance(i, T.Scalar) and i.is_int
                                          for i in t.items):
        return len(t.items)
    raise Incompatible("np.resize(): new_shape must be an int or a tuple of ints")


@register
class Resize(PlannedCall):
    name, params = "np.resize", ("a", "new_shape")
    paths = ("numpy.resize",)

    def make_plan(self, call, nodes, types):
        a = types.get("a")
        if not isinstance(a, T.ArrayType) or "new_shape" not in types:
            raise Incompatible("np.resize(a, new_shape) of an array")
        plan = _Plan()
        plan.type = T.ArrayType(a.dtype, _shape_items(types["new_shape"]), "C")
        return plan

    def lower(self, L, call, args, kwargs):
        from .shape import reshape_view
        b = self.bound(args, kwargs)
        src = raveled(L, b["a"])
        shape = b["new_shape"]
        if isinstance(shape.type, T.TupleType):
            tup = L.let(shape)
            dims = [C(tup.value[k], it) if isinstance(tup, N.Const) else N.TupleGet(tup, k, it)
                    for k, it in enumerate(tup.type.items)]
        else:
            dims = [shape]
        dims = [L.let(ops.convert(L, d, I)) for d in dims]
        for d in dims:
            L.raise_if(N.Cmp("lt", d, C(0, I), T.BOOL), ValueError,
                       "all elements of `new_shape` must be non-negative")
        out = allocate(L, call.type, dims)
        flat = L.let(reshape_view(L, out, [C(-1, I)], call.type.copy(ndim=1)))
        L.call_helper(hs.resize_fill, [flat, src])
        return out


@register
class TrimZeros(PlannedCall):
    name, params = "np.trim_zeros", ("filt", "trim", "axis")
    paths = ("numpy.trim_zeros",)

    def make_plan(self, call, nodes, types):
        t = types.get("filt")
        if not (isinstance(t, T.ArrayType) and t.ndim == 1):
            raise Incompatible("np.trim_zeros() of a 1-D array")
        trim = bound_const(call, nodes, "trim", "fb")
        axis = bound_const(call, nodes, "axis", None)
        if not isinstance(trim, str) or trim.lower() not in ("fb", "bf", "f", "b"):
            raise Incompatible("np.trim_zeros(): trim must be a constant 'f', 'b' or 'fb'")
        if axis not in (None, 0, -1, (0,), (-1,)):
            raise Incompatible("np.trim_zeros(): axis of a 1-D array")
        plan = _Plan()
        plan.front, plan.back = "f" in trim.lower(), "b" in trim.lower()
        plan.type = t
        return plan

    def lower(self, L, call, args, kwargs):
        plan = call.call_plan
        a = L.let(self.bound(args, kwargs)["filt"])
        bounds = L.let(L.call_helper(hs.trim_bounds, [a, C(plan.front, T.BOOL),
                                                      C(plan.back, T.BOOL)]))
        start = L.let(N.Load(bounds, [C(0, I)], I))
        stop = N.Load(bounds, [C(1, I)], I)
        stride = L.let(N.ArrayAttr(a, "stride", 0, I))
        return N.ArrayView(a, L.let(N.BinOp("mul", start, stride, I)),
                           [L.let(N.BinOp("sub", stop, start, I))], [stride], call.type)


def _numpy(t):
    return np.dtype(T.numpy_name(t))


@register
class Ediff1d(PlannedCall):
    name, params = "np.ediff1d", ("ary", "to_end", "to_begin")
    paths = ("numpy.ediff1d",)

    def make_plan(self, call, nodes, types):
        a = types.get("ary")
        if not isinstance(a, T.ArrayType) or a.dtype.is_bool:
            raise Incompatible("np.ediff1d() of a numeric array")
        for p in ("to_end", "to_begin"):
            x = types.get(p)
            if x is None or x == T.NONE:
                continue
            xt = x.dtype if isinstance(x, T.ArrayType) else x
            if not isinstance(xt, T.Scalar) or xt == T.NONE:
                raise Incompatible(f"np.ediff1d(): {p} of {x}")
            if not np.can_cast(_numpy(xt), _numpy(a.dtype), casting="same_kind"):
                raise Incompatible(f"np.ediff1d(): {p} of {xt} does not cast to "
                                   f"{a.dtype} (NumPy's TypeError)")
        plan = _Plan()
        plan.type = T.ArrayType(a.dtype, 1, "C")
        return plan

    def lower(self, L, call, args, kwargs):
        from ..indexing.elements import array_cast
        from . import elementwise as ew
        b = self.bound(args, kwargs)
        dt = call.type.dtype
        ary = raveled(L, b["ary"])
        ends = []
        for p in ("to_begin", "to_end"):
            x = b.get(p)
            if x is None or x.type == T.NONE:
                ends.append(allocate(L, T.ArrayType(dt, 1, "C"), [C(0, I)]))
                continue
            flat = raveled(L, x)
            if flat.type.dtype != dt:
                z = ew.to_lazy(L, flat)
                flat = L.let(ew.materialize(L, ew.Lazy(
                    flat.type.copy(dtype=dt), z.dims,
                    lambda i, z=z: array_cast(L, z.elem(i), dt))))
            ends.append(flat)
        n = L.let(N.ArrayAttr(ary, "shape", 0, I))
        diff = N.Select(N.Cmp("gt", n, C(0, I), T.BOOL), N.BinOp("sub", n, C(1, I), I),
                        C(0, I), I)
        total = N.BinOp("add", N.BinOp("add", diff, N.ArrayAttr(ends[0], "shape", 0, I), I),
                        N.ArrayAttr(ends[1], "shape", 0, I), I)
        out = allocate(L, call.type, [total])
        L.call_helper(hs.ediff_fill, [out, ary, ends[0], ends[1]])
        return out


_squeeze = Squeeze()
_squeeze.paths = ("numpy.squeeze",)
register(_squeeze)
METHODS = {"squeeze": Squeeze()}
