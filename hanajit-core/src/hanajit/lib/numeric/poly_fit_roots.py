"""``np.roots(p)`` and ``np.polyfit(x, y, deg)``: NumPy's Python source step by
step as compiled helpers (``poly_fit_roots_algorithms``), so the companion
matrix, the scaled Vandermonde matrix and the ``eigvals``/``lstsq`` calls on them
are NumPy's, bit for bit.

* ``roots``: ``p`` a 1-D array (or a list/tuple display) of integers, bools,
  float64 or complex128; leading and trailing zeros stripped, the eigenvalues of
  the companion matrix (``np.linalg.eigvals``: a real polynomial with complex
  roots re-runs in the interpreter, whose result is then complex), the zero roots
  appended.  A complex polynomial of degree 0 (NumPy's result is float64 then)
  re-runs in the interpreter; float32/complex64 coefficients and arrays that are
  not 1-D fall back.
* ``polyfit``: ``x`` 1-D and ``y`` 1-D or 2-D, integers, bools or float64
  (``asarray(x) + 0.0``), ``deg`` an int; NumPy's errors for ``deg < 0``, an
  empty ``x`` and lengths that differ; a rank-deficient fit (NumPy warns
  RankWarning) re-runs in the interpreter.  ``rcond``, ``full``, ``w``, ``cov``
  and float32/complex data fall back."""
from __future__ import annotations

from ...ir import types as T
from ...typing_rules import Incompatible
from ..arrays import elementwise as ew
from ..python import operators as ops
from ..registry import CallTemplate, bind_arguments, register, typed_helper
from . import poly_fit_roots_algorithms as pa

F8 = T.FLOAT64


def _real_data(t, name, what):
    """``t`` an array of integers, bools or float64 (as float64), else Incompatible."""
    if not isinstance(t, T.ArrayType) or not isinstance(t.dtype, T.Scalar):
        raise Incompatible(f"{name}() with {what} of {t} (an array)")
    d = t.dtype
    if not (d.is_int or d.is_bool or d == F8):
        raise Incompatible(f"{name}() with {what} of {d} (integers, bools or float64 only)")


def _call(L, call, args):
    """The helper typed for the call, specialised to the lowered arguments."""
    args = [L.let(a) for a in args]
    spec = L.ctx.specialize(call.call_plan.pyfunc, tuple(a.type for a in args))
    return L.call_symbol(spec.symbol, args, spec.return_type)


def _as_float64(L, a):
    a = ew.materialize(L, a)
    if a.type.dtype == F8:
        return a
    z = ew.to_lazy(L, a)
    t = a.type.copy(dtype=F8, layout="C", readonly=False)
    return ew.materialize(L, ew.Lazy(t, z.dims, lambda idx: ops.convert(L, z.elem(idx), F8)))


@register
class Roots(CallTemplate):
    paths = ("numpy.roots",)
    array_like = (0, "p")
    accepts_lazy = True

    def typer(self, inf, call, args, kwargs):
        p = bind_arguments("np.roots", ("p",), args, kwargs).get("p")
        if not isinstance(p, T.ArrayType) or p.ndim != 1:
            raise Incompatible("np.roots() of a 1-D array only (NumPy's ValueError "
                               "for other shapes)")
        if p.dtype == T.COMPLEX128:
            helper = pa.roots_complex
        else:
            _real_data(p, "np.roots", "p")
            helper = pa.roots_real
        t = p.copy(dtype=p.dtype if p.dtype.is_complex else F8, layout="C", readonly=False)
        call.call_plan = typed_helper(inf, helper, [t])
        return call.call_plan.return_type

    def lower(self, L, call, args, kwargs):
        p = bind_arguments("np.roots", ("p",), args, kwargs)["p"]
        p = ew.materialize(L, p) if p.type.dtype.is_complex else _as_float64(L, p)
        return _call(L, call, [p])


@register
class Polyfit(CallTemplate):
    paths = ("numpy.polyfit",)
    array_like = (0, 1, "x", "y")
    accepts_lazy = True
    PARAMS = ("x", "y", "deg", "rcond", "full", "w", "cov")

    def typer(self, inf, call, args, kwargs):
        b = bind_arguments("np.polyfit", self.PARAMS, args, kwargs)
        extra = set(b) - {"x", "y", "deg"}
        if extra:
            raise Incompatible(f"np.polyfit() with {', '.join(sorted(extra))}= (only "
                               "x, y, deg compile)")
        if "deg" not in b:
            raise Incompatible("np.polyfit() missing deg")
        x, y, deg = b["x"], b["y"], b["deg"]
        _real_data(x, "np.polyfit", "x")
        _real_data(y, "np.polyfit", "y")
        if x.ndim != 1:
            raise Incompatible("np.polyfit() of an x that is not 1-D (NumPy's TypeError)")
        if y.ndim not in (1, 2):
            raise Incompatible("np.polyfit() of a y that is not 1-D or 2-D (NumPy's "
                               "TypeError)")
        if not (isinstance(deg, T.Scalar) and deg.is_int):
            raise Incompatible(f"np.polyfit() with deg of {deg} (an int)")
        helper = pa.polyfit_1 if y.ndim == 1 else pa.polyfit_2
        types = [t.copy(dtype=F8, layout="C" if t.dtype != F8 else t.layout,
                        readonly=t.readonly if t.dtype == F8 else False) for t in (x, y)]
        call.call_plan = typed_helper(inf, helper, types + [T.INT64])
        return call.call_plan.return_type

    def lower(self, L, call, args, kwargs):
        b = bind_arguments("np.polyfit", self.PARAMS, args, kwargs)
        x, y = (_as_float64(L, b[k]) for k in ("x", "y"))
        return _call(L, call, [x, y, ops.convert(L, b["deg"], T.INT64)])
