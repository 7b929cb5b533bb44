"""``np.sum(a, where=mask)`` / ``a.sum(where=mask)`` over the whole array
(``masked_sum_algorithms``): NumPy's runs of selected elements, each summed
pairwise, in NumPy's bits.  ``a`` and ``mask`` of one shape (checked at run
time; NumPy's broadcasting re-runs in the interpreter), 1-D or both
C-contiguous (NumPy's iterator sees one line); other layouts, ``axis``,
``initial`` and ``keepdims`` fall back."""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...errors import RERUN
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from ..python.operators import C
from . import elementwise as ew

I = T.INT64


def wanted(name, kwargs) -> bool:
    return name == "sum" and "where" in kwargs


def typer(call, args, kwargs, scalar_type):
    a, m = args[0], kwargs["where"]
    if set(kwargs) != {"where"} or len(args) != 1:
        raise Incompatible("np.sum(a, where=mask) without axis, dtype, initial or keepdims")
    if not (isinstance(m, T.ArrayType) and m.dtype.is_bool and m.ndim == a.ndim):
        raise Incompatible("np.sum(a, where=mask) with a boolean mask of a's shape")
    if a.ndim > 1 and not (a.layout == "C" and m.layout == "C"):
        raise Incompatible("np.sum(a, where=mask) of N-D arrays that are not both "
                           "C-contiguous")
    return scalar_type(a.dtype)


def lower(L, call, args, kwargs):
    from .shape import reshape_view
    from ..sorting.digitize import as_dtype
    from . import masked_sum_algorithms as hb
    rt = call.type
    a = L.let(ew.materialize(L, args[0]))
    m = L.let(ew.materialize(L, kwargs["where"]))
    nd = a.type.ndim
    for k in range(nd):
        L.emit(N.If(cond=N.Cmp("ne", N.ArrayAttr(a, "shape", k, I),
                               N.ArrayAttr(m, "shape", k, I), T.BOOL),
                    then=[N.Raise(exc=ValueError, deopt=RERUN, line=L.line,
                                  message="np.sum(where=): the mask does not match")]))
    if nd != 1:
        a = L.let(reshape_view(L, a, [C(-1, I)], a.type.copy(ndim=1)))
        m = L.let(reshape_view(L, m, [C(-1, I)], m.type.copy(ndim=1)))
    a = as_dtype(L, a, rt)            # (bool and small ints add in NumPy's sum type)
    return L.call_helper(hb.masked_sum, [a, m, ops.zero(rt)])
