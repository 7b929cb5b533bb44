"""``np.isin(element, test_elements, assume_unique=False, invert=False,
kind=None)`` of real numbers and arrays: whether each element equals one of the
test elements, compared in their common type as NumPy's ``==`` compares them
(``bins_algorithms.isin_into``: the tests sorted, a binary search per element;
integers by a table of flags over the tests' span when it is short,
``isin_ints``, as NumPy's ``kind='table'``).
The result is a bool array of ``element``'s shape, 0-d for a number as NumPy
returns.  ``assume_unique=True`` (NumPy's result then depends on its algorithm
for repeated values), ``kind=`` other than None and ``'sort'``, and uint64 with
signed integers (whose common type is float64 in one NumPy algorithm, exact in
another) fall back."""
from __future__ import annotations

from ...typing_rules import Incompatible, promote
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..arrays.creation import allocate
from ..python import operators as ops
from ..python.operators import C
from ..registry import CallTemplate, register
from . import bins_algorithms as hb
from .digitize import bind, flat_values, real_dtype

I = T.INT64
NAMES = ("element", "test_elements", "assume_unique", "invert", "kind")


def _const(call, name, pos):
    node = call.kwargs.get(name, call.args[pos] if len(call.args) > pos else None)
    if node is None:
        return None, False
    if not isinstance(node, N.Const):
        return None, True
    return node.value, False


@register
class IsIn(CallTemplate):
    paths = ("numpy.isin",)
    array_like = (0, 1, "element", "test_elements")     # (a list display too)
    accepts_lazy = True

    def typer(self, inf, call, args, kwargs):
        b = bind(call, args, kwargs, NAMES,
                 "np.isin(element, test_elements, assume_unique=False, invert=False, "
                 "kind=None)")
        e, t = real_dtype(b["element"]), real_dtype(b["test_elements"])
        if e is None or t is None:
            raise Incompatible("np.isin() of real numbers and arrays only")
        if {e.kind, t.kind} == {"u", "i"} and 64 in (e.bits, t.bits) and (
                (e.kind == "u" and e.bits == 64) or (t.kind == "u" and t.bits == 64)):
            raise Incompatible("np.isin() of uint64 with signed integers")
        unique, dynamic = _const(call, "assume_unique", 2)
        if dynamic or unique:
            raise Incompatible("np.isin() with assume_unique=True")
        kind, dynamic = _const(call, "kind", 4)
        if dynamic or kind not in (None, "sort"):
            raise Incompatible("np.isin() with kind= other than None or 'sort'")
        if "invert" in b and not (isinstance(b["invert"], T.Scalar)
                                  and not b["invert"].is_complex):
            raise Incompatible("np.isin(): invert must be a bool")
        x = b["element"]
        return T.ArrayType(T.BOOL, x.ndim if isinstance(x, T.ArrayType) else 0, "C")

    def lower(self, L, call, args, kwargs):
        from ..arrays.shape import reshape_view
        b = bind(call, args, kwargs, NAMES, "")
        common = promote(real_dtype(b["element"].type), real_dtype(b["test_elements"].type))
        helper = hb.isin_into
        if common.is_int or common.is_bool:     # equal as int64 (uint64: as itself)
            helper = hb.isin_ints
            common = T.UINT64 if common == T.UINT64 else I
        _, flat = flat_values(L, b["element"], common)
        _, tests = flat_values(L, b["test_elements"], common)
        n = L.let(N.ArrayAttr(flat, "shape", 0, I))
        out = L.let(allocate(L, T.ArrayType(T.BOOL, 1, "C"), [n]))
        invert = ops.truth(L, b["invert"]) if "invert" in b else C(False, T.BOOL)
        L.call_helper(helper, [flat, tests, out, L.let(invert)])
        x = b["element"]
        dims = list(ew.to_lazy(L, x).dims) if isinstance(x.type, T.ArrayType) or \
            isinstance(x, ew.Lazy) else []
        return reshape_view(L, out, dims, call.type)
