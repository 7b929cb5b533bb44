"""``initial=`` of ``np.min``/``np.max``/``np.sum``/``np.prod`` (and the array
methods) and ``where=`` of ``np.mean``, ``np.min``/``np.max`` (with
``initial``) and ``np.sum`` with ``initial`` -- whole-array reductions only
(``axis`` None, or 0 of a 1-D array; ``keepdims`` kept), hooked into
:class:`~.reductions.Reduction` (``reduce_initial_algorithms`` computes them).

* ``initial`` a number: converted to the reduction's type as NumPy stores it (a
  float into float32 rounds; one out of float32's range, or an int out of the
  integer type's range, re-runs in the interpreter: NumPy warns or raises).  A
  float ``initial`` for an integer reduction, bool and float16 arrays, and
  complex min/max fall back.
* min/max: the extreme of ``initial`` and ``np.max(a)`` (any layout); where
  NumPy's loop order would choose between zeros or NaNs of both signs the call
  re-runs in the interpreter.  With ``where=`` a loop over the selected values.
* sum: ``initial + np.sum(a)`` -- NumPy's one inner loop adds the pairwise sum
  of the array to ``initial`` -- for 1-D and C-contiguous arrays (N-D arrays of
  other layouts add row by row: they fall back); integer sums of any layout.
  ``initial`` ``-0.0`` with a zero sum re-runs in the interpreter.
* prod: NumPy's in-order products from ``initial`` (1-D or C-contiguous;
  integer products, which wrap, of any layout).
* mean with ``where=``: NumPy's masked sum (``masked_sums``) divided by the
  count of selected values, float and complex arrays; no selected value re-runs
  in the interpreter (NumPy warns).  The mask must have the array's shape
  (checked at run time: broadcasting re-runs in the interpreter) and both be
  1-D or C-contiguous.
"""
from __future__ import annotations

from ...errors import RERUN
from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from ..python.operators import C
from . import elementwise as ew
from . import reduce_initial_algorithms as hr

I = T.INT64


def wanted(name, kwargs) -> bool:
    if "initial" in kwargs:
        return name in ("sum", "prod", "min", "max")
    return "where" in kwargs and name in ("mean", "min", "max")


def _keep(call, ndim):
    """``keepdims`` (a constant) after checking ``axis`` names all axes."""
    from .reductions import axis_arg
    axis, keep = axis_arg(call)
    if axis is not None and not (ndim == 1 and axis in (0, -1)):
        raise Incompatible(f"np.{call.name.split('.')[-1]}() with initial= or where= "
                           "over an axis (whole arrays only)")
    return keep


def _initial_ok(name, init, st):
    if not isinstance(init, T.Scalar) or init == T.NONE or init.is_bool:
        raise Incompatible(f"np.{name}(): initial= must be a number")
    if init.is_complex and not st.is_complex:
        raise Incompatible(f"np.{name}(): a complex initial= for a real reduction")
    if st.is_int and not init.is_int:
        raise Incompatible(f"np.{name}(): a float initial= for an integer reduction")


def typer(red, call, args, kwargs):
    name = red.name
    a = args[0]
    extra = set(kwargs) - {"axis", "keepdims", "initial", "where"}
    if extra or len(args) > 2:
        raise Incompatible(f"np.{name}() arguments {sorted(extra)} with initial=/where=")
    if a.dtype.is_bool or a.dtype.bits == 16 and a.dtype.is_float:
        raise Incompatible(f"np.{name}() with initial=/where= of a {a.dtype} array")
    if name in ("min", "max") and a.dtype.is_complex:
        raise Incompatible(f"np.{name}() with initial=/where= of a complex array")
    st = red.scalar_type(a.dtype)
    if "initial" in kwargs:
        _initial_ok(name, kwargs["initial"], st)
    elif name in ("min", "max"):
        raise Incompatible(f"np.{name}() with where= needs initial= (NumPy: ValueError)")
    if "where" in kwargs:
        m = kwargs["where"]
        if name == "prod":
            raise Incompatible("np.prod() with where=")
        if name == "mean" and not (a.dtype.is_float or a.dtype.is_complex):
            raise Incompatible("np.mean(where=) of an integer array (NumPy sums in "
                               "float64 buffers)")
        if not (isinstance(m, T.ArrayType) and m.dtype.is_bool and m.ndim == a.ndim):
            raise Incompatible(f"np.{name}(where=) with a boolean mask of the array's shape")
        if a.ndim > 1 and not (a.layout == "C" and m.layout == "C"):
            raise Incompatible(f"np.{name}(where=) of N-D arrays that are not both "
                               "C-contiguous")
    elif name in ("sum", "prod") and a.ndim > 1 and a.layout != "C" \
            and not st.is_int:
        raise Incompatible(f"np.{name}(initial=) of an N-D array that may not be "
                           "C-contiguous (NumPy then reduces row by row)")
    if _keep(call, a.ndim):
        return T.ArrayType(st, a.ndim, "C")
    return st


def _initial(L, v, st):
    """``initial`` stored into the type ``st`` as NumPy stores it; what NumPy
    would warn or raise about re-runs in the interpreter."""
    from ..python.helpers import Deopt
    v = L.let(v)
    t = v.type
    if st.is_int and t.is_int:
        lo = 0 if st.kind == "u" else -(1 << (st.bits - 1))
        hi = (1 << (st.bits - (0 if st.kind == "u" else 1))) - 1
        if t.kind == "u" and t.bits == 64:
            if not (st.kind == "u" and st.bits == 64):
                L.raise_if(N.Cmp("gt", v, C(hi, t), T.BOOL), Deopt,
                           "initial= out of the reduction type's range")
        else:
            if lo > -(1 << 63) or t.kind == "u":
                L.raise_if(N.Cmp("lt", v, C(max(lo, -(1 << 63)), t), T.BOOL), Deopt,
                           "initial= out of the reduction type's range")
            if hi < (1 << 63) - 1:
                L.raise_if(N.Cmp("gt", v, C(hi, t), T.BOOL), Deopt,
                           "initial= out of the reduction type's range")
        return L.let(ops.convert(L, v, st))
    out = L.let(ops.convert(L, v, st))
    if st == T.FLOAT32 and t.is_float and t.bits == 64:
        fin_in = N.Cmp("lt", N.BinOp("sub", v, v, t), C(1.0, t), T.BOOL)      # finite
        fin_out = N.Cmp("lt", N.BinOp("sub", out, out, st), C(1.0, st), T.BOOL)
        L.raise_if(ops.band(fin_in, ops.logical_not(fin_out)), Deopt,
                   "initial= overflows float32 (NumPy warns)")
    return out


def _flat_pair(L, a, m, name):
    """``a`` and the mask ``m`` (checked to have ``a``'s shape) as 1-D arrays."""
    from .shape import reshape_view
    nd = a.type.ndim
    for k in range(nd):
        L.emit(N.If(cond=N.Cmp("ne", N.ArrayAttr(a, "shape", k, I),
                               N.ArrayAttr(m, "shape", k, I), T.BOOL),
                    then=[N.Raise(exc=ValueError, deopt=RERUN, line=L.line,
                                  message=f"np.{name}(where=): the mask does not match")]))
    if nd != 1:
        a = L.let(reshape_view(L, a, [C(-1, I)], a.type.copy(ndim=1)))
        m = L.let(reshape_view(L, m, [C(-1, I)], m.type.copy(ndim=1)))
    return a, m


def _flat(L, a):
    from .shape import reshape_view
    if a.type.ndim == 1:
        return a
    return L.let(reshape_view(L, a, [C(-1, I)], a.type.copy(ndim=1)))


def lower(red, L, call, args, kwargs):
    from ..python.helpers import Deopt
    from ..sorting.digitize import as_dtype
    from . import masked_sum_algorithms as hb
    from .reductions import kept_array
    name = red.name
    rt = call.type
    st = rt.dtype if isinstance(rt, T.ArrayType) else rt
    a = L.let(ew.materialize(L, args[0]))
    init = _initial(L, kwargs["initial"], st) if "initial" in kwargs else None
    m = L.let(ew.materialize(L, kwargs["where"])) if "where" in kwargs else None
    is_max = C(name == "max", T.BOOL)
    if name in ("min", "max"):
        if m is None:
            helper = hr.extreme_initial_float if st.is_float else hr.extreme_initial_int
            r = L.call_helper(helper, [a, init, is_max])
        else:
            x, mm = _flat_pair(L, a, m, name)
            helper = hr.extreme_where_float if st.is_float else hr.extreme_where_int
            r = L.call_helper(helper, [x, mm, init, is_max])
    elif name == "prod" and st.is_int:      # (products wrap: any order)
        r = L.call_helper(hr.int_product_from, [a, init])
    elif name == "prod":
        r = L.call_helper(hr.product_from, [as_dtype(L, _flat(L, a), st), init])
    elif m is not None:        # sum or mean
        x, mm = _flat_pair(L, a, m, name)
        z = init if init is not None else ops.zero(st)
        r = L.let(L.call_helper(hb.masked_sum, [as_dtype(L, x, st), mm, z]))
        if name == "mean":
            n = L.let(L.call_helper(hr.masked_count, [mm]))
            L.raise_if(N.Cmp("eq", n, C(0, I), T.BOOL), Deopt,
                       "np.mean(where=) selects nothing (NumPy warns)")
            if st.is_complex:
                r = L.let(L.call_helper(hr.complex_mean, [r, n]))
                r = ops.convert(L, r, st) if st != r.type else r
            else:
                r = red.mean_of(L, r, n, st)
    else:                      # sum with initial
        r = L.call_helper(hr.sum_from, [a, init])
    if init is not None and name == "sum" and not st.is_int:
        check = hr.complex_zero_start if st.is_complex else hr.float_zero_start
        r = L.call_helper(check, [init, r])
    if init is not None and name in ("sum", "prod") and st.is_float:
        r = L.call_helper(hr.float_nan_signs, [init, a, r])
    if isinstance(rt, T.ArrayType):
        return kept_array(L, r, rt, rt.ndim)
    return r

