"""``np.cov(m, y=None, rowvar=True, bias=False, ddof=None)`` of real arrays, as
NumPy computes it (``cov_algorithms``): the float64 copy ``X`` of ``m`` (a 1-D
``m`` one row; ``rowvar=False`` its transpose), ``y``'s rows after it, the means
of the rows subtracted, ``X @ X.T`` times ``1 / (N - ddof)`` (``ddof`` 1 by
default, 0 with ``bias``; ``N - ddof <= 0`` gives ``1 / 0``, as NumPy's after its
warning).  The result is squeezed as NumPy squeezes it: a 0-d array for one
variable.  For a 1-D ``m`` without ``y`` that is known while typing; elsewhere one
variable is found at run time and the call re-runs in the interpreter (the
result's type would change), as does ``rowvar=False`` of a single row (NumPy
keeps it a row).

Compiled: ``m`` and ``y`` 1-D (any stride) or C-contiguous 2-D arrays of bools,
integers or floats; ``rowvar``/``bias`` constants; ``ddof`` None or an integer.
Complex arrays, other layouts, a 1-D operand with ``y`` and ``rowvar=False``,
``fweights``, ``aweights`` and ``dtype`` fall back.  With ``rowvar=False`` NumPy
concatenates the transposed operands in Fortran order, and so does hanajit
(``cov_algorithms.stacked_columns``): the order the means add in."""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..python import operators as ops
from ..python.operators import C
from ..registry import PlannedCall, bound_const, register
from . import cov_algorithms as ca

I = T.INT64
F = T.FLOAT64
_PARAMS = ("m", "y", "rowvar", "bias", "ddof", "fweights", "aweights", "dtype")


def _operand(name, t, nodes):
    if name == "y" and (t is None or t == T.NONE):
        return None
    if not (isinstance(t, T.ArrayType) and t.ndim in (1, 2) and isinstance(t.dtype, T.Scalar)
            and not t.dtype.is_complex):
        raise Incompatible(f"np.cov() {name} of {t} (a 1-D or 2-D real array only)")
    if t.ndim == 2 and t.layout != "C":
        raise Incompatible(f"np.cov() of a 2-D array that is not C-contiguous ({t}): "
                           "its mean along the rows would add in another order")
    return t


class Plan:
    def __init__(self, call, nodes, types):
        self.m = _operand("m", types.get("m"), nodes)
        self.y = _operand("y", types.get("y"), nodes)
        for k in ("fweights", "aweights", "dtype"):
            if k in types and types[k] != T.NONE:
                raise Incompatible(f"np.cov() with {k}=")
        self.rowvar = bool(bound_const(call, nodes, "rowvar", True))
        bias = bool(bound_const(call, nodes, "bias", False))
        ddof = types.get("ddof")
        if ddof is None or ddof == T.NONE:
            self.ddof = 0 if bias else 1
        elif isinstance(ddof, T.Scalar) and (ddof.is_int or ddof.is_bool):
            self.ddof = None            # (a run-time value)
        else:
            raise Incompatible(f"np.cov() ddof of {ddof} (None or an integer)")
        if not self.rowvar and self.y is not None and 1 in (self.m.ndim, self.y.ndim):
            raise Incompatible("np.cov(m, y, rowvar=False) with a 1-D operand (the "
                               "order of NumPy's concatenation there is not followed)")
        self.scalar = self.m.ndim == 1 and self.y is None
        self.type = T.ArrayType(F, 0 if self.scalar else 2, "C")


def _deopt_if(L, cond, why):
    L.emit(N.If(cond=cond, then=[N.Raise(exc=ValueError, deopt=True, line=L.line,
                                         message=f"np.cov() {why}")]))


def _rows(L, p, a):
    """``X`` of one operand (a fresh float64 array, variables in rows)."""
    a = L.let(ew.materialize(L, a))
    if a.type.ndim == 1:
        return L.call_helper(ca.rows_1d, [a])
    if p.rowvar:
        return L.call_helper(ca.rows_2d, [a])
    _deopt_if(L, N.Cmp("eq", N.ArrayAttr(a, "shape", 0, I), C(1, I), T.BOOL),
              "with rowvar=False of a single row, which NumPy keeps a row")
    return L.call_helper(ca.columns_2d, [a])


@register
class Cov(PlannedCall):
    paths = ("numpy.cov",)
    name, params = "np.cov", _PARAMS

    def make_plan(self, call, nodes, types):
        if "m" not in types:
            raise Incompatible("np.cov() needs m")
        return Plan(call, nodes, types)

    def lower(self, L, call, args, kwargs):
        p = call.call_plan
        b = self.bound(args, kwargs)
        if p.y is not None and not p.rowvar:
            m, y = (L.let(ew.materialize(L, b[k])) for k in ("m", "y"))
            b = dict(b, m=m, y=y)
            # of two single columns NumPy's concatenation is C-ordered (its strides
            # tie), not Fortran-ordered as of wider ones: the means add pairwise
            _deopt_if(L, ops.band(N.Cmp("eq", N.ArrayAttr(m, "shape", 1, I), C(1, I), T.BOOL),
                                  N.Cmp("eq", N.ArrayAttr(y, "shape", 1, I), C(1, I), T.BOOL)),
                      "with rowvar=False of one column in m and in y")
        X = _rows(L, p, b["m"])
        if p.y is not None:
            X = L.call_helper(ca.stacked if p.rowvar else ca.stacked_columns,
                              [X, _rows(L, p, b["y"])])
        ddof = C(p.ddof, I) if p.ddof is not None else L.let(ops.convert(L, b["ddof"], I))
        c = L.let(L.call_helper(ca.cov_rows, [X, ddof]))
        if p.scalar:            # NumPy's squeeze of the 1x1 matrix
            return N.ArrayView(c, C(0, I), [], [], p.type)
        _deopt_if(L, N.Cmp("eq", N.ArrayAttr(c, "shape", 0, I), C(1, I), T.BOOL),
                  "of one variable, which NumPy squeezes to a 0-d array")
        return c
