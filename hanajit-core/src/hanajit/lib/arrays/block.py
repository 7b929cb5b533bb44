"""``np.block(arrays)`` of a list display of arrays, or of a list display of list
displays of arrays (one or two levels, every item at the same depth): NumPy's
``_block``: each array viewed with leading axes of length 1 up to the result's
dimensions (the larger of the depth and the arrays' largest ``ndim``), each
innermost list concatenated along the last axis, the lists of those along the
one before (NumPy's ValueError where the lengths do not match).  The dtype is
NumPy's ``concatenate`` promotion.  Tuples (NumPy's TypeError), lists held in
names, numbers among the blocks, mismatched depths and empty lists fall back."""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible, promote
from ..python.operators import C
from ..registry import CallTemplate, register
from .joining import concatenate

I = T.INT64


def _rows(call):
    """The nesting of the list display argument: a list of rows, each a list of
    item positions ``(row, col)`` (col None at depth 1)."""
    node = call.args[0] if len(call.args) == 1 and not call.kwargs else None
    if not isinstance(node, N.MakeTuple) or not getattr(node, "from_list", False) \
            or not node.items:
        raise Incompatible("np.block() of a list display of arrays (or of lists of them)")
    inner = [isinstance(x, N.MakeTuple) for x in node.items]
    if not any(inner):
        return 1
    if not all(inner) or not all(getattr(x, "from_list", False) and x.items
                                 and not any(isinstance(y, N.MakeTuple) for y in x.items)
                                 for x in node.items):
        raise Incompatible("np.block(): lists of one or two levels, every item at the "
                           "same depth (NumPy's ValueError or TypeError otherwise)")
    return 2


def _arrays(t, depth):
    rows = [t.items] if depth == 1 else [r.items for r in t.items]
    for r in rows:
        for x in r:
            if not isinstance(x, T.ArrayType):
                raise Incompatible(f"np.block() of {x} (arrays only)")
    return rows


def _prepended(L, arr, n):
    """``arr`` viewed with leading axes of length 1 up to ``n`` dimensions."""
    t = arr.type
    if t.ndim == n:
        return arr
    k = n - t.ndim
    shape = [C(1, I)] * k + [N.ArrayAttr(arr, "shape", j, I) for j in range(t.ndim)]
    strides = [C(0, I)] * k + [N.ArrayAttr(arr, "stride", j, I) for j in range(t.ndim)]
    layout = t.layout if t.layout == "C" else "A"
    return N.ArrayView(arr, C(0, I), shape, strides, t.copy(ndim=n, layout=layout))


@register
class Block(CallTemplate):
    paths = ("numpy.block",)

    def typer(self, inf, call, args, kwargs):
        depth = _rows(call)
        rows = _arrays(args[0], depth)
        items = [x for r in rows for x in r]
        dt = items[0].dtype
        for x in items[1:]:
            dt = promote(dt, x.dtype) if dt != x.dtype else dt
        call.plan = depth
        return T.ArrayType(dt, max(depth, max(x.ndim for x in items)), "C")

    def lower(self, L, call, args, kwargs):
        depth, rt = call.plan, call.type
        tup = L.let(args[0])
        n = rt.ndim
        if depth == 1:
            rows = [[L.let(N.TupleGet(tup, k, x)) for k, x in enumerate(tup.type.items)]]
        else:
            rows = []
            for k, rtp in enumerate(tup.type.items):
                row = L.let(N.TupleGet(tup, k, rtp))
                rows.append([L.let(N.TupleGet(row, j, x)) for j, x in enumerate(rtp.items)])
        joined = []
        for r in rows:
            arrs = [L.let(_prepended(L, a, n)) for a in r]
            joined.append(L.let(concatenate(L, arrs, n - 1, rt)))
        if depth == 1:
            return joined[0]
        return concatenate(L, joined, n - 2, rt)
