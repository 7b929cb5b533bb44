"""``np.append``, ``np.delete`` and ``np.insert``, as NumPy's
``numpy/lib/_function_base_impl.py`` defines them.

* ``np.append(arr, values, axis=None)``: both raveled (a number is a
  one-element array of its own type, as ``np.ravel`` makes it) and joined; with
  a constant axis ``np.concatenate((arr, values), axis)`` (``joining``).
* ``np.delete(arr, obj, axis=None)`` / ``np.insert(arr, obj, values, axis=None)``
  with ``obj`` an int (NumPy's IndexError out of range), an integer array or a
  tuple/list display of ints (one element: NumPy's single-index path; ``insert``
  of an int moves the values' first axis to ``axis``, of a one-element array
  not), a 1-D boolean array (``delete``: the rows deleted; ``insert``:
  ``np.flatnonzero`` of it).  ``axis`` None (the array raveled) or a constant
  int.  The work happens on views with the axis moved first
  (``insert_delete_algorithms``); the result is a new C-ordered array (NumPy
  makes a Fortran-ordered one for a Fortran-contiguous input: same values).
  ``insert``'s values are cast to the array's dtype as NumPy casts them (a
  Python number must fit); complex values into a real array, slices, boolean
  scalars, uint64 indices and values of more dimensions than the result fall
  back.
"""
from __future__ import annotations

from ...errors import RERUN
from ...typing_rules import Incompatible, promote
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from ..python.operators import C
from ..registry import PlannedCall, bind_arguments, bound_const, register
from . import insert_delete_algorithms as hd
from .creation import allocate

I = T.INT64


def _shape(arr, t=None):
    t = t or arr.type
    return [N.ArrayAttr(arr, "shape", k, I) for k in range(t.ndim)], \
        [N.ArrayAttr(arr, "stride", k, I) for k in range(t.ndim)]


def moved(L, arr, axis):
    """A view of ``arr`` with ``axis`` first."""
    arr = L.let(arr)
    if axis == 0:
        return arr
    shape, strides = _shape(arr)
    order = [axis] + [k for k in range(arr.type.ndim) if k != axis]
    return L.let(N.ArrayView(arr, C(0, I), [shape[k] for k in order],
                             [strides[k] for k in order], arr.type.copy(layout="A")))


def padded(L, arr, ndim):
    """``arr`` viewed with leading axes of length 1 up to ``ndim`` dimensions
    (``np.array(v, ndmin=ndim)``, and broadcasting's alignment)."""
    arr = L.let(arr)
    extra = ndim - arr.type.ndim
    if extra == 0:
        return arr
    shape, strides = _shape(arr)
    return L.let(N.ArrayView(arr, C(0, I), [C(1, I)] * extra + shape,
                             [C(0, I)] * extra + strides,
                             arr.type.copy(ndim=ndim, layout="A")))


def raveled(L, x):
    """``np.ravel(x)``: a 1-D C-contiguous array (a number: one element of its type)."""
    from .shape import Ravel
    if isinstance(x.type, T.ArrayType):
        if x.type.ndim == 1 and x.type.layout == "C":
            return L.let(x)
        return L.let(Ravel().lower_order(L, x, "C", x.type.copy(ndim=1, layout="C")))
    from ..indexing.elements import element_value
    one = allocate(L, T.ArrayType(x.type, 1, "C"), [C(1, I)])
    L.emit(N.Store(array=one, indices=[C(0, I)], value=element_value(L, x, x.type)))
    return one


def _number(t) -> bool:
    return isinstance(t, T.Scalar) and t != T.NONE


def _dtype(t):
    return t.dtype if isinstance(t, T.ArrayType) else t


def _axis(call, nodes, ndim, what):
    """The constant axis, normalised, or None."""
    axis = bound_const(call, nodes, "axis", None)
    if axis is None:
        return None
    if type(axis) is not int:
        raise Incompatible(f"{what}(): axis must be None or a constant int")
    if not -ndim <= axis < ndim:
        raise Incompatible(f"{what}(): axis {axis} is out of bounds for array of "
                           f"dimension {ndim}")
    return axis % ndim


class _Plan:
    pass


@register
class Append(PlannedCall):
    name, params = "np.append", ("arr", "values", "axis")
    paths = ("numpy.append",)

    def make_plan(self, call, nodes, types):
        if "values" not in types:
            raise Incompatible("np.append(arr, values, axis=None)")
        a, v = types["arr"], types["values"]
        for x in (a, v):
            if not (isinstance(x, T.ArrayType) or _number(x)):
                raise Incompatible(f"np.append() of {x} (arrays and numbers)")
        plan = _Plan()
        da, dv = _dtype(a), _dtype(v)
        dt = promote(da, dv) if da != dv else da
        axis = bound_const(call, nodes, "axis", None)
        if axis is None:
            plan.axis, plan.type = None, T.ArrayType(dt, 1, "C")
            return plan
        if not (isinstance(a, T.ArrayType) and isinstance(v, T.ArrayType)
                and a.ndim == v.ndim and a.ndim > 0):
            raise Incompatible("np.append() along an axis needs two arrays of the same "
                               "number of dimensions")
        plan.axis = _axis(call, nodes, a.ndim, "np.append")
        plan.type = T.ArrayType(dt, a.ndim, "C")
        return plan

    def lower(self, L, call, args, kwargs):
        from .joining import concatenate
        b = self.bound(args, kwargs)
        plan = call.call_plan
        if plan.axis is None:
            arrs = [raveled(L, b["arr"]), raveled(L, b["values"])]
            return concatenate(L, arrs, 0, plan.type)
        return concatenate(L, [L.let(b["arr"]), L.let(b["values"])], plan.axis, plan.type)


def _obj_kind(t, what):
    """How ``obj`` reads: ``"int"``, ``"array"`` (integers, flattened), ``"tuple"``
    (a display of ints) or ``"mask"`` (a 1-D boolean array)."""
    if isinstance(t, T.Scalar) and t.is_int and t != T.UINT64:
        return "int"
    if isinstance(t, T.ArrayType) and t.dtype.is_bool and t.ndim == 1:
        return "mask"
    if isinstance(t, T.ArrayType) and t.dtype.is_int and t.dtype != T.UINT64:
        if t.ndim == 0:
            return "int"
        if t.ndim > 1 and what == "np.insert":
            raise Incompatible("np.insert(): obj of more than one dimension (NumPy's "
                               "ValueError)")
        return "array"
    if isinstance(t, T.TupleType) and t.items and all(
            isinstance(i, T.Scalar) and i.is_int and i != T.UINT64 for i in t.items):
        return "tuple"
    raise Incompatible(f"{what}(): obj of type {t} (compiled: an int, an integer "
                       "array or list of ints, a 1-D boolean array)")


def _array_plan(call, nodes, types, what):
    a = types.get("arr")
    if not isinstance(a, T.ArrayType):
        raise Incompatible(f"{what}() of {a} (an array)")
    if "obj" not in types:
        raise Incompatible(f"{what}() needs obj")
    plan = _Plan()
    plan.kind = _obj_kind(types["obj"], what)
    axis = _axis(call, nodes, a.ndim, what)
    plan.axis = 0 if axis is None else axis
    plan.ravel = axis is None
    plan.type = T.ArrayType(a.dtype, 1 if axis is None else a.ndim, "C")
    return plan


def _source(L, plan, arr):
    """The array worked on (raveled for axis None) and its view with the axis first."""
    src = raveled(L, arr) if plan.ravel else L.let(arr)
    return src, moved(L, src, plan.axis)


def _indices(L, obj):
    """``obj`` (an integer array or a display of ints) as a flat int64 array."""
    from ..sorting.digitize import flat_values
    if isinstance(obj.type, T.TupleType):
        tup = L.let(obj)
        items = tup.type.items
        out = allocate(L, T.ArrayType(I, 1, "C"), [C(len(items), I)])
        for k, it in enumerate(items):
            v = C(tup.value[k], it) if isinstance(tup, N.Const) else N.TupleGet(tup, k, it)
            L.emit(N.Store(array=out, indices=[C(k, I)], value=ops.convert(L, v, I)))
        return out
    return flat_values(L, obj, I)[1]


def _result(L, src, plan, rows, rt):
    """A new array of ``src``'s shape with ``rows`` along the axis, and its view
    with the axis first."""
    shape, _ = _shape(src)
    dims = [rows if k == plan.axis else d for k, d in enumerate(shape)]
    out = allocate(L, rt, dims)
    return out, moved(L, out, plan.axis)


def _int_value(L, obj):
    if isinstance(obj.type, T.ArrayType):
        obj = N.Load(L.let(obj), [], obj.type.dtype)
    return L.let(ops.convert(L, obj, I))


@register
class Delete(PlannedCall):
    name, params = "np.delete", ("arr", "obj", "axis")
    paths = ("numpy.delete",)

    def make_plan(self, call, nodes, types):
        return _array_plan(call, nodes, types, "np.delete")

    def lower(self, L, call, args, kwargs):
        b = self.bound(args, kwargs)
        plan = call.call_plan
        src, view = _source(L, plan, b["arr"])
        n = L.let(N.ArrayAttr(view, "shape", 0, I))
        obj, axis = b["obj"], C(plan.axis, I)
        if plan.kind == "int":
            keep = L.call_helper(hd.keep_one, [n, _int_value(L, obj), axis])
        elif plan.kind == "mask":
            keep = L.call_helper(hd.keep_mask, [n, L.let(obj)])
        else:
            keep = L.call_helper(hd.keep_indices, [n, _indices(L, obj), axis])
        keep = L.let(keep)
        rows = L.let(L.call_helper(hd.count_true, [keep]))
        out, out_view = _result(L, src, plan, rows, call.type)
        L.call_helper(hd.delete_fill, [out_view, view, keep])
        return out


@register
class Insert(PlannedCall):
    name, params = "np.insert", ("arr", "obj", "values", "axis")
    paths = ("numpy.insert",)

    def make_plan(self, call, nodes, types):
        plan = _array_plan(call, nodes, types, "np.insert")
        if "values" not in types:
            raise Incompatible("np.insert(arr, obj, values, axis=None)")
        v = types["values"]
        if not (isinstance(v, T.ArrayType) or _number(v)):
            raise Incompatible(f"np.insert() of values of type {v} (an array or a number)")
        vt = _dtype(v)
        if vt.is_complex and not plan.type.dtype.is_complex:
            raise Incompatible("np.insert() of complex values into a real array")
        if isinstance(v, T.ArrayType) and v.ndim > plan.type.ndim:
            raise Incompatible("np.insert() of values with more dimensions than the result")
        return plan

    def typer(self, inf, call, args, kwargs):
        t = super().typer(inf, call, args, kwargs)
        node = bind_arguments(self.name, self.params, call.args, call.kwargs)["values"]
        call.call_plan.python = _number(self.bound(args, kwargs)["values"]) \
            and not inf.is_strong(node)
        return t

    def lower(self, L, call, args, kwargs):
        from ..indexing.elements import flat_store_value
        b = self.bound(args, kwargs)
        plan = call.call_plan
        rt = call.type
        nd = rt.ndim
        src, view = _source(L, plan, b["arr"])
        n = L.let(N.ArrayAttr(view, "shape", 0, I))
        values, obj, axis = b["values"], b["obj"], C(plan.axis, I)
        # the values' shape (``ndmin``-padded), moved as NumPy moves them
        if isinstance(values.type, T.ArrayType):
            values = padded(L, values, nd)
            vdims = [L.let(d) for d in _shape(values)[0]]
        else:
            vdims = [C(1, I)] * nd
        if plan.kind != "int":          # (an int index moves axis 0 to ``axis``: no move)
            vdims = [vdims[plan.axis]] + [d for k, d in enumerate(vdims) if k != plan.axis]
        if plan.kind == "int":
            idx = L.call_helper(hd.single_positions,
                                [n, _int_value(L, obj), vdims[0], axis, C(False, T.BOOL)])
        else:
            ind = L.call_helper(hd.flat_true, [L.let(obj)]) if plan.kind == "mask" \
                else _indices(L, obj)
            idx = L.call_helper(hd.array_positions, [n, L.let(ind), vdims[0], axis])
        idx = L.let(idx)
        numnew = L.let(N.ArrayAttr(idx, "shape", 0, I))
        rows = L.let(N.BinOp("add", n, numnew, I))
        old = L.let(L.call_helper(hd.old_mask, [rows, idx]))
        dt = rt.dtype
        if isinstance(values.type, T.ArrayType):
            if plan.kind != "int":
                values = moved(L, values, plan.axis)
            if values.type.dtype != dt:       # NumPy's unsafe cast (astype)
                from ..indexing.elements import array_cast
                from . import elementwise as ew
                z = ew.to_lazy(L, values)
                values = ew.materialize(L, ew.Lazy(values.type.copy(dtype=dt, layout="C"),
                                                   z.dims, lambda i: array_cast(L, z.elem(i), dt)))
        else:
            one = allocate(L, T.ArrayType(dt, nd, "C"), [C(1, I)] * nd)
            L.emit(N.Store(array=one, indices=[C(0, I)] * nd,
                           value=flat_store_value(L, values, dt, python=plan.python)))
            values = one
        # ``new[..., indices, ...] = values``: the values broadcast to the rows
        src_dims = _shape(view)[0]
        want = [numnew] + src_dims[1:]
        bad = None
        for d, w in zip(vdims, want):
            c = ops.logical_not(ops.bor(N.Cmp("eq", d, w, T.BOOL),
                                        N.Cmp("eq", d, C(1, I), T.BOOL)))
            bad = c if bad is None else ops.bor(bad, c)
        L.emit(N.If(cond=bad, then=[N.Raise(
            exc=ValueError, deopt=RERUN,
            message="could not broadcast the values of np.insert() to the inserted rows")]))
        out, out_view = _result(L, src, plan, rows, rt)
        L.call_helper(hd.insert_fill, [out_view, view, L.let(values), idx, old])
        return out

