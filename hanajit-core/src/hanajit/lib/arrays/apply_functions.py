"""``np.apply_along_axis(func1d, axis, arr)`` and ``np.fromfunction(function,
shape, dtype=float)``: NumPy's Python source step by step as helpers compiled
from Python source, the function a free variable of each (a jitted or plain
Python function, a lambda, or a NumPy function hanajit compiles such as
``np.sum``), so its calls compile as any call of it does.

* ``apply_along_axis``: ``arr`` 2-D with a constant ``axis`` (0, 1, -1, -2), or
  1-D; ``func1d`` returning a number (a 2-D ``arr`` only: NumPy returns a 0-d
  array for a 1-D one) or a 1-D array.  As NumPy: the first lane's result
  decides the dtype (``asanyarray``: Python numbers as int64/float64/bool), the
  lanes in C order of the other axis, later results cast into it (and
  broadcast, as NumPy's ``buff[ind] = ...``), NumPy's ValueError when the other
  axis is empty; the result's axes as NumPy's ``transpose`` of its buffer (a C
  copy rather than NumPy's transposed view: the same values and shape).
  Extra ``*args``/``**kwargs``, N-D arrays and results of two or more dimensions
  fall back.
* ``fromfunction``: ``shape`` a tuple of 1 to 3 ints, ``dtype`` a constant
  (float by default): ``function(*np.indices(shape, dtype))`` -- the index
  arrays built in that dtype -- returning an array or a tuple (a function
  returning a number falls back: compiled code would give a NumPy scalar for
  Python's number).  An int ``shape`` (NumPy's TypeError), complex dtypes and
  keyword arguments for the function fall back."""
from __future__ import annotations

import numpy as np

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..registry import CallTemplate, bind_arguments, register, typed_helper

_helpers: dict = {}


def _function(t, what):
    """The Python function object of a function argument's type ``t``."""
    if isinstance(t, T.FunctionArg):
        return t.fn
    if isinstance(t, T.ConstType) and callable(t.value):
        return t.value
    raise Incompatible(f"{what} of {t} (a function)")


def _lane_probe(F, axis):
    if axis is None:
        def h(a):
            return F(a)
    elif axis == 0:
        def h(a):
            return F(a[:, 0])
    else:
        def h(a):
            return F(a[0, :])
    return h


def _scalar_lanes(F, axis):
    if axis == 0:
        def h(a):
            n = a.shape[1]
            if n == 0:
                raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
            out = np.full(n, F(a[:, 0]))
            for j in range(1, n):
                out[j] = F(a[:, j])
            return out
    else:
        def h(a):
            n = a.shape[0]
            if n == 0:
                raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
            out = np.full(n, F(a[0, :]))
            for i in range(1, n):
                out[i] = F(a[i, :])
            return out
    return h


def _array_lanes(F, axis):
    if axis is None:
        def h(a):
            r0 = F(a)
            out = np.empty(r0.shape[0], r0.dtype)
            out[:] = r0
            return out
    elif axis == 0:
        def h(a):
            n = a.shape[1]
            if n == 0:
                raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
            r0 = F(a[:, 0])
            out = np.empty((r0.shape[0], n), r0.dtype)
            out[:, 0] = r0
            for j in range(1, n):
                out[:, j] = F(a[:, j])
            return out
    else:
        def h(a):
            n = a.shape[0]
            if n == 0:
                raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
            r0 = F(a[0, :])
            out = np.empty((n, r0.shape[0]), r0.dtype)
            out[0, :] = r0
            for i in range(1, n):
                out[i, :] = F(a[i, :])
            return out
    return h


def _cached(key, make):
    """The helper ``make()`` for ``key`` (the function, the variant, the axis),
    made once.  Its name says which: the target keeps library pieces for later
    processes by module and name, so a helper of a NumPy function is named for
    it, and one of a user's function is not library code at all (its module is
    not ``hanajit.lib``), never kept nor taken from there."""
    h = _helpers.get(key)
    if h is None:
        if len(_helpers) > 512:
            _helpers.clear()
        h = _helpers[key] = make()
        F, variant, axis = key
        owner = getattr(F, "__module__", None) or ""
        if owner.split(".")[0] == "numpy" and getattr(F, "__qualname__", None):
            h.__name__ = h.__qualname__ = (
                f"apply_{variant}_{axis}_{owner}_{F.__qualname__}".replace(".", "_"))
        else:
            h.__module__ = "hanajit.user_functions"
            h.__name__ = h.__qualname__ = f"apply_{variant}_{axis}"
    return h


def _const_int(call, node, what):
    value = node.value if isinstance(node, N.Const) else getattr(node, "obj", None)
    if type(value) is not int:
        raise Incompatible(f"{call.name or 'the call'}(): {what} must be a constant int")
    return value


@register
class ApplyAlongAxis(CallTemplate):
    paths = ("numpy.apply_along_axis",)
    accepts_lazy = False
    PARAMS = ("func1d", "axis", "arr")

    def typer(self, inf, call, args, kwargs):
        if len(args) + len(kwargs) != 3:
            raise Incompatible("np.apply_along_axis(func1d, axis, arr) (extra arguments "
                               "for func1d fall back)")
        b = bind_arguments("np.apply_along_axis", self.PARAMS, args, kwargs)
        nodes = bind_arguments("np.apply_along_axis", self.PARAMS, call.args, call.kwargs)
        F = _function(b["func1d"], "np.apply_along_axis() func1d")
        arr = b["arr"]
        if not isinstance(arr, T.ArrayType) or arr.ndim not in (1, 2):
            raise Incompatible(f"np.apply_along_axis() of {arr} (1-D and 2-D arrays only)")
        axis = _const_int(call, nodes["axis"], "axis")
        if not -arr.ndim <= axis < arr.ndim:
            raise Incompatible("np.apply_along_axis(): axis out of range (NumPy's AxisError)")
        axis = None if arr.ndim == 1 else axis % 2
        probe = typed_helper(inf, _cached((F, "probe", axis),
                                          lambda: _lane_probe(F, axis)), [arr])
        r = probe.return_type
        if isinstance(r, T.Scalar) and axis is not None:
            key, make = (F, "scalar", axis), lambda: _scalar_lanes(F, axis)
        elif isinstance(r, T.ArrayType) and r.ndim == 1:
            key, make = (F, "array", axis), lambda: _array_lanes(F, axis)
        else:
            raise Incompatible(f"np.apply_along_axis() with func1d returning {r} "
                               "(a number along a 2-D array's axis, or a 1-D array)")
        call.call_plan = typed_helper(inf, _cached(key, make), [arr])
        return call.call_plan.return_type

    def lower(self, L, call, args, kwargs):
        b = bind_arguments("np.apply_along_axis", self.PARAMS, args, kwargs)
        a = L.let(b["arr"])
        spec = L.ctx.specialize(call.call_plan.pyfunc, (a.type,))
        return L.call_symbol(spec.symbol, [a], spec.return_type)


def _indices_call(F, d, DT):
    """``F(*np.indices(shape, DT))`` for a shape of ``d`` dimensions."""
    if d == 1:
        def h(n0):
            a = np.empty(n0, DT)
            for i in range(n0):
                a[i] = i
            return F(a)
    elif d == 2:
        def h(n0, n1):
            a = np.empty((n0, n1), DT)
            b = np.empty((n0, n1), DT)
            for i in range(n0):
                for j in range(n1):
                    a[i, j] = i
                    b[i, j] = j
            return F(a, b)
    else:
        def h(n0, n1, n2):
            a = np.empty((n0, n1, n2), DT)
            b = np.empty((n0, n1, n2), DT)
            c = np.empty((n0, n1, n2), DT)
            for i in range(n0):
                for j in range(n1):
                    for k in range(n2):
                        a[i, j, k] = i
                        b[i, j, k] = j
                        c[i, j, k] = k
            return F(a, b, c)
    return h


@register
class FromFunction(CallTemplate):
    paths = ("numpy.fromfunction",)
    PARAMS = ("function", "shape", "dtype", "like")

    def typer(self, inf, call, args, kwargs):
        from .creation import dtype_of
        b = bind_arguments("np.fromfunction", self.PARAMS, args, kwargs)
        if "like" in b or "function" not in b or "shape" not in b:
            raise Incompatible("np.fromfunction(function, shape, dtype=float) (like= and "
                               "keywords for the function fall back)")
        F = _function(b["function"], "np.fromfunction() function")
        shape = b["shape"]
        if isinstance(shape, T.TupleType) and all(
                isinstance(i, T.Scalar) and i.is_int for i in shape.items):
            d = len(shape.items)
        else:
            raise Incompatible(f"np.fromfunction() with shape of {shape} (ints)")
        if not 1 <= d <= 3:
            raise Incompatible("np.fromfunction() of a shape of 1 to 3 dimensions only")
        dt = b.get("dtype", T.ConstType(float))
        if not isinstance(dt, T.ConstType):
            raise Incompatible("np.fromfunction() needs a constant dtype")
        dtype = dtype_of(dt.value)
        if dtype.is_complex or dtype.kind == "f" and dtype.bits == 16:
            raise Incompatible(f"np.fromfunction() with dtype {dtype}")
        DT = getattr(np, "bool_" if dtype.is_bool else dtype.name)
        call.call_plan = typed_helper(inf, _cached(
            (F, f"indices{d}", dtype.name), lambda: _indices_call(F, d, DT)),
            [T.INT64] * d)
        if not isinstance(call.call_plan.return_type, (T.ArrayType, T.TupleType)):
            raise Incompatible("np.fromfunction() of a function returning "
                               f"{call.call_plan.return_type} (arrays and tuples only)")
        return call.call_plan.return_type

    def lower(self, L, call, args, kwargs):
        from ..python import operators as ops
        b = bind_arguments("np.fromfunction", self.PARAMS, args, kwargs)
        shape = L.let(b["shape"])
        dims = [N.TupleGet(shape, k, shape.type.items[k]) for k in range(len(shape.type.items))]
        dims = [L.let(ops.convert(L, x, T.INT64)) for x in dims]
        spec = call.call_plan
        return L.call_symbol(spec.symbol, dims, spec.return_type)
