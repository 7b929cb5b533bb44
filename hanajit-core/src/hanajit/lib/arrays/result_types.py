"""``np.result_type(*arrays_and_dtypes)`` and ``np.promote_types(a, b)`` as
compile-time dtypes (``a.dtype``'s kind of value: a dtype argument of
``np.empty``/``astype``/``np.zeros``..., or compared with ``==``).

Only the types of the arguments decide NumPy 2's answer (NEP 50): an array or
a NumPy scalar brings its dtype, a Python number is weak (it adapts to the
others: ``np.result_type(int8_array, 300)`` is int8; alone, the default
int64/float64/complex128), a dtype, NumPy type or dtype string brings itself.
So NumPy computes the result while the function is typed, from stand-ins of
the same kinds (an empty array, ``0``, ``0.0``, ``0j``).  Arguments NumPy
refuses (no argument, a dtype it does not know, an array to
``promote_types``) and arguments other than these (tuples, ``None``) fall back,
where the interpreter raises NumPy's error; so does a result hanajit has no
scalar type for (``np.result_type(np.float16, 1)``, strings) when it is used."""
from __future__ import annotations

import numpy as np

from ...ir import types as T
from ...typing_rules import Incompatible
from ..registry import CallTemplate, register

_WEAK = {T.BOOL: True, T.INT64: 0, T.FLOAT64: 0.0, T.COMPLEX128: 0j}


def _stand_in(inf, node, t, name):
    """What NumPy is given for an argument of type ``t`` (expression ``node``)."""
    if isinstance(t, T.ConstType):
        value = t.value
        if isinstance(value, (np.dtype, str)) or (isinstance(value, type)
                                                  and value in (bool, int, float, complex)
                                                  or isinstance(value, type)
                                                  and issubclass(value, np.generic)):
            return value
        raise Incompatible(f"{name}() of {value!r} (an array, a scalar or a dtype)")
    if isinstance(t, T.ArrayType):
        return np.empty(0, T.numpy_name(t.dtype))
    if isinstance(t, T.NumpyScalarArg):
        t = t.base
    if isinstance(t, T.Scalar):
        if t in _WEAK and inf.weak(node):
            return _WEAK[t]
        return np.dtype(T.numpy_name(t))
    raise Incompatible(f"{name}() of {t} (an array, a scalar or a dtype)")


def as_argument(call, name):
    """Refuse a dtype used other than as an argument of a call (``np.empty(n,
    np.result_type(a, b))``, ``x.astype(...)``; ``infer.arg_type`` marks those):
    held in a name, returned or compared, it would be a value, which compiled code
    has no representation for (``a.dtype`` is compiled in the same places)."""
    if not getattr(call, "call_argument", False):
        raise Incompatible(f"np.{name}() other than as an argument of a call (np.empty(n, "
                           f"np.{name}(...))): a dtype held in a name, returned or compared "
                           "is not compiled")


class _Promotion(CallTemplate):
    def lower(self, L, call, args, kwargs):
        from ...ir.frontend_nodes import ObjRef
        ref = ObjRef(call.type.value, "dtype")
        ref.type = call.type
        return ref


@register
class ResultType(_Promotion):
    name = "result_type"
    paths = ("numpy.result_type",)

    def typer(self, inf, call, args, kwargs):
        if kwargs:
            raise Incompatible("np.result_type() takes no keyword arguments")
        if not args:
            raise Incompatible("np.result_type() of no argument (NumPy's ValueError)")
        as_argument(call, self.name)
        for node, t in zip(call.args, args):
            inf.mark_weak(node, t)
        items = [_stand_in(inf, n, t, "np.result_type") for n, t in zip(call.args, args)]
        try:
            return T.ConstType(np.result_type(*items))
        except (TypeError, ValueError) as exc:
            raise Incompatible(f"np.result_type(): NumPy raises {type(exc).__name__}: "
                               f"{exc}") from None


@register
class PromoteTypes(_Promotion):
    name = "promote_types"
    paths = ("numpy.promote_types",)

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) != 2 or not all(isinstance(t, T.ConstType) for t in args):
            raise Incompatible("np.promote_types(type1, type2) of two dtypes or NumPy "
                               "types (NumPy's TypeError for anything else)")
        as_argument(call, self.name)
        try:
            return T.ConstType(np.promote_types(args[0].value, args[1].value))
        except (TypeError, ValueError) as exc:
            raise Incompatible(f"np.promote_types(): NumPy raises {type(exc).__name__}: "
                               f"{exc}") from None
