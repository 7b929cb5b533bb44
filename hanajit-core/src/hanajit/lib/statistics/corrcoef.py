"""``np.corrcoef(x, y=None, rowvar=True)`` of real arrays as NumPy computes it:
``c = np.cov(x, y, rowvar)`` (``cov``: what it compiles and where it falls
back), then ``c`` divided by ``sqrt(diag(c))`` along its rows and then its
columns and clipped to [-1, 1] (``corrcoef_algorithms``).  The covariance of one
variable, a 0-d array, gives NumPy's ``c / c``, a float64 scalar: known while
typing for a 1-D ``x`` without ``y``; elsewhere (one row) ``cov`` re-runs the call
in the interpreter.  ``bias`` and ``ddof`` (deprecated, no effect) and ``dtype``
fall back."""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..registry import PlannedCall, register
from . import corrcoef_algorithms as ca
from .cov import Cov

_PARAMS = ("x", "y", "rowvar", "bias", "ddof", "dtype")


class _CovCall:
    """The call as ``Cov.lower`` reads it: its plan."""

    def __init__(self, plan):
        self.call_plan = plan


class _CorrPlan:
    def __init__(self, cov_plan):
        self.cov = cov_plan
        self.scalar = cov_plan.scalar
        self.type = T.FLOAT64 if cov_plan.scalar else cov_plan.type


@register
class Corrcoef(PlannedCall):
    paths = ("numpy.corrcoef",)
    name, params = "np.corrcoef", _PARAMS
    cov = Cov()

    def make_plan(self, call, nodes, types):
        for k in ("bias", "ddof", "dtype"):
            if k in types:
                raise Incompatible(f"np.corrcoef() with {k}=")
        if "x" not in types:
            raise Incompatible("np.corrcoef() needs x")
        cov_nodes = {("m" if k == "x" else k): v for k, v in nodes.items()}
        cov_types = {("m" if k == "x" else k): v for k, v in types.items()}
        return _CorrPlan(self.cov.make_plan(call, cov_nodes, cov_types))

    def lower(self, L, call, args, kwargs):
        p = call.call_plan
        b = self.bound(args, kwargs)
        c = L.let(self.cov.lower(L, _CovCall(p.cov), [b["x"]],
                                 {k: b[k] for k in ("y", "rowvar") if k in b}))
        if p.scalar:            # NumPy's ``c / c``
            v = L.let(N.Load(c, [], T.FLOAT64))
            return N.BinOp("fdiv", v, v, T.FLOAT64)
        return L.call_helper(ca.normalized, [c])
