"""``a.view(dtype)``: NumPy's view of an array's memory as another dtype of the
same itemsize (``f8`` as ``i8``, ``u4`` as ``f4``, ``c8`` as ``i8`` ...): the same
shape and byte strides, any layout, the bits reinterpreted; ``a.view()`` a view
of the same dtype.  A dtype of another itemsize (NumPy changes the last axis),
a view as ``bool`` of a non-boolean array (bytes other than 0 and 1 are bools
compiled code has no spelling for), byte-swapped dtypes, ``type=`` and
non-constant dtypes fall back."""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..python.operators import C
from ..registry import CallTemplate

I = T.INT64


def _itemsize(t: T.Scalar) -> int:
    return 1 if t.is_bool else t.bits // 8


class DtypeView(CallTemplate):
    """``a.view(dtype=None)`` of an array."""

    def typer(self, inf, call, args, kwargs):
        import numpy as np
        from .creation import dtype_of
        a = args[0]
        if len(args) > 2 or set(kwargs) - {"dtype"} or (len(args) == 2 and kwargs):
            raise Incompatible("a.view(dtype) (type= falls back)")
        dt = args[1] if len(args) == 2 else kwargs.get("dtype", T.NONE)
        if dt == T.NONE:
            return a
        if not isinstance(dt, T.ConstType):
            raise Incompatible("a.view() needs a constant dtype such as np.int64")
        try:
            npdt = np.dtype(dt.value)
        except TypeError:
            raise Incompatible(f"a.view(): dtype {dt.value!r} (a NumPy array type?)") from None
        if npdt.byteorder not in "=|":
            raise Incompatible(f"a.view() as the byte-swapped dtype {npdt}")
        new = dtype_of(npdt)
        if _itemsize(new) != _itemsize(a.dtype):
            raise Incompatible(f"a.view() of {a.dtype} as {new}, a dtype of another "
                               "itemsize (NumPy changes the last axis)")
        if new.is_bool and not a.dtype.is_bool:
            raise Incompatible(f"a.view() of {a.dtype} as bool")
        return a.copy(dtype=new)

    def lower(self, L, call, args, kwargs):
        v = L.let(args[0])
        nd = v.type.ndim
        return N.ArrayView(v, C(0, I), [N.ArrayAttr(v, "shape", k, I) for k in range(nd)],
                           [N.ArrayAttr(v, "stride", k, I) for k in range(nd)], call.type)
