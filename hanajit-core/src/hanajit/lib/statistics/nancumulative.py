"""``np.nancumsum(a, axis=None)`` and ``np.nancumprod(a, axis=None)`` of arrays:
NumPy's source -- ``_replace_nan`` (a copy of a float or complex array with its
NaNs set to 0 or 1, ``nancumulative_algorithms``; integer and boolean arrays as
they are), then ``np.cumsum`` / ``np.cumprod`` with its dtypes (int64 for small
integers and booleans): the call is rewritten, while typing, into that
``np.cumsum``/``np.cumprod`` call, typed and lowered as its own.  ``axis`` a
constant int or None; ``dtype=`` and ``out=`` fall back."""
from __future__ import annotations

import numpy as np

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..registry import CallTemplate, bind_arguments, bound_const, call_type, lookup, register
from . import nancumulative_algorithms as hn


class _NanCumulative(CallTemplate):
    params = ("a", "axis", "dtype", "out")

    def typer(self, inf, call, args, kwargs):
        b = bind_arguments(self.name, self.params, args, kwargs)
        nodes = bind_arguments(self.name, self.params, call.args, call.kwargs)
        a = b.get("a")
        if not isinstance(a, T.ArrayType):
            raise Incompatible(f"{self.name}() of {a} (an array)")
        if "dtype" in b or "out" in b:
            raise Incompatible(f"{self.name}() with dtype= or out=")
        axis = bound_const(call, nodes, "axis", None)
        if axis is not None and (type(axis) is not int or not -a.ndim <= axis < a.ndim):
            raise Incompatible(f"{self.name}(): axis must be a constant axis of the array")
        node = nodes["a"]
        if a.dtype.is_float or a.dtype.is_complex:
            node = N.PyCall(callee=self.replace, args=[node], kwargs={},
                            name=self.replace.__name__)
        call.callee = self.target()
        call.args = [node]
        call.kwargs = {} if axis is None else {"axis": N.Const(axis, T.INT64)}
        argtypes = [inf.arg_type(x, 0) for x in call.args]
        kwtypes = {k: inf.arg_type(v, 0) for k, v in call.kwargs.items()}
        return call_type(inf, call, lookup(call.callee), argtypes, kwtypes)


@register
class NanCumsum(_NanCumulative):
    paths, name = ("numpy.nancumsum",), "np.nancumsum"
    replace = staticmethod(hn.nan_to_zero)

    def target(self):
        return np.cumsum


@register
class NanCumprod(_NanCumulative):
    paths, name = ("numpy.nancumprod",), "np.nancumprod"
    replace = staticmethod(hn.nan_to_one)

    def target(self):
        return np.cumprod
