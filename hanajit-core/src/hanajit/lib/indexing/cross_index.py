"""``np.ix_(*seqs)``: an open mesh of index arrays, each 1-D sequence a view of
itself reshaped to ``(1,) * k + (n,) + (1,) * (nd - k - 1)`` (NumPy's
``reshape``: a view of an array argument), a boolean one first its
``nonzero()[0]`` (int64).  List and tuple displays are ``asarray``'d (never
empty: NumPy's intp for an empty list does not arise).  An argument that is not
1-D (NumPy's ValueError "Cross index must be 1 dimensional") falls back, so
the interpreter raises it."""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..python.operators import C
from ..registry import CallTemplate, register, typed_helper

I = T.INT64


def _nonzero(x):
    return x.nonzero()[0]


def _strides(L, n, s, k, nd, itemsize):
    """NumPy's strides of the reshape: ``n * s`` before axis ``k``, ``s`` from it
    on; of an empty array C-contiguous ones (a zero dimension counting as 1)."""
    empty = L.let(N.Cmp("eq", n, C(0, I), T.BOOL))
    before = L.let(N.Select(empty, C(itemsize, I), N.BinOp("mul", n, s, I), I))
    at = L.let(N.Select(empty, C(itemsize, I), s, I))
    return [before if j < k else at for j in range(nd)]


@register
class Ix(CallTemplate):
    paths = ("numpy.ix_",)
    array_like = tuple(range(32))       # (list and tuple displays: their asarray)

    def typer(self, inf, call, args, kwargs):
        if kwargs:
            raise Incompatible("np.ix_(*args) takes no keywords")
        nd = len(args)
        plans, items = [], []
        for k, t in enumerate(args):
            if not isinstance(t, T.ArrayType) or t.ndim != 1:
                raise Incompatible("np.ix_(): Cross index must be 1 dimensional "
                                   "(NumPy's ValueError)")
            plan = typed_helper(inf, _nonzero, [t]) if t.dtype.is_bool else None
            base = plan.return_type if plan is not None else t
            layout = "C" if base.layout == "C" else "A"
            plans.append(plan)
            items.append(T.ArrayType(base.dtype, nd, layout))
            del k
        call.call_plan = plans
        return T.TupleType(tuple(items))

    def lower(self, L, call, args, kwargs):
        nd = len(args)
        out = []
        rt = call.type
        for k, (x, plan) in enumerate(zip(args, call.call_plan)):
            x = L.let(x)
            if plan is not None:
                x = L.let(L.call_symbol(plan.symbol, [x], plan.return_type))
            n = L.let(N.ArrayAttr(x, "shape", 0, I))
            s = L.let(N.ArrayAttr(x, "strides", 0, I))
            shape = [n if j == k else C(1, I) for j in range(nd)]
            strides = _strides(L, n, s, k, nd, max(x.type.dtype.bits // 8, 1))
            out.append(L.let(N.ArrayView(x, C(0, I), shape, strides, rt.items[k])))
        return N.MakeTuple(out, rt)
