"""``np.packbits(a, axis=None, bitorder='big')`` of an integer or boolean array and
``np.unpackbits(a, axis=None, count=None, bitorder='big')`` of a uint8 array,
flattened (``axis=None``, or the only axis of a 1-D array): NumPy's bytes
(``packbits_algorithms``).  Other axes, ``count=`` and a ``bitorder`` that is not
a constant fall back; so do the dtypes NumPy refuses (its TypeError)."""
from __future__ import annotations

from ...ir import types as T
from ...typing_rules import Incompatible
from ..registry import register
from . import packbits_algorithms as hp
from .source_calls import SourceCall, const_node


class _Bits(SourceCall):
    def choose(self, call, nodes, types):
        a = types.get("a")
        if not isinstance(a, T.ArrayType):
            raise Incompatible(f"{self.name}() of {a} (an array)")
        self.check_dtype(a.dtype)
        axis = self.const(call, nodes, "axis", None)
        if not (axis is None or a.ndim == 1 and axis in (0, -1) and type(axis) is int):
            raise Incompatible(f"{self.name}() along an axis of an array of more than one "
                               "dimension")
        if self.const(call, nodes, "count", None) is not None:
            raise Incompatible(f"{self.name}() with count=")
        order = self.const(call, nodes, "bitorder", "big")
        if order not in ("big", "little"):
            raise Incompatible(f"{self.name}(): bitorder must be 'big' or 'little' "
                               "(NumPy's ValueError otherwise)")
        return self.helper, ["a", const_node(order == "little", T.BOOL)]


class PackBits(_Bits):
    paths = ("numpy.packbits",)
    name, params = "np.packbits", ("a", "axis", "bitorder")
    helper = staticmethod(hp.packbits_flat)

    def check_dtype(self, dt):
        if not (dt.is_int or dt.is_bool):
            raise Incompatible("np.packbits() of a non-integer array (NumPy's TypeError)")


class UnpackBits(_Bits):
    paths = ("numpy.unpackbits",)
    name, params = "np.unpackbits", ("a", "axis", "count", "bitorder")
    helper = staticmethod(hp.unpackbits_flat)

    def check_dtype(self, dt):
        if dt != T.UINT8:
            raise Incompatible("np.unpackbits() of an array that is not uint8 (NumPy's "
                               "TypeError)")


register(PackBits())
register(UnpackBits())
