"""``prims.warn(category, message)``: ``warnings.warn`` from compiled code, a call
back into Python (``hanajit.host_warnings``).

Both arguments are string literals (``category`` the name of a builtin warning
class); the call is one ``ForeignCall`` with the constant text
``repr((category, message))`` and gives 0, or 1 when the warning raised (a filter
made it an error), after which the caller raises the warning itself::

    if prims.warn("RuntimeWarning", "covariance is not ...") != 0:
        raise RuntimeWarning("covariance is not ...")

Integers after the message fill its ``{}`` fields (``str`` of each, as an
f-string writes them): ``prims.warn("DeprecationWarning", "randint({}, {} + 1)",
low, high)``; they travel as the call's int64 slots.

Only targets whose code runs in this process call back (the lowering refuses
the others at compile time)."""
from __future__ import annotations

import ast
import builtins

from ...host_warnings import SYMBOL
from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from . import operators as ops
from ..registry import CallTemplate, register


class Warn(CallTemplate):
    paths = ("hanajit.lib.prims.warn",)

    @staticmethod
    def text(call) -> str:
        values = [getattr(getattr(a, "type", None), "value", None)
                  for a in (getattr(call, "args", None) or [])[:2]]
        if len(values) != 2 or not all(isinstance(v, str) for v in values):
            raise Incompatible("prims.warn(category, message) of two string literals")
        category, message = values
        if not (isinstance(getattr(builtins, category, None), type)
                and issubclass(getattr(builtins, category), Warning)):
            raise Incompatible(f"prims.warn(): {category} is not a builtin warning")
        return repr((category, message))

    def typer(self, inf, call, args, kwargs):
        if kwargs:
            raise Incompatible("prims.warn() takes no keywords")
        message = ast.literal_eval(self.text(call))[1]
        ints = args[2:]
        if not all(isinstance(t, T.Scalar) and t.is_int and not t.is_bool
                   and t != T.UINT64 for t in ints):
            raise Incompatible("prims.warn(category, message, *ints): integers after "
                               "the message")
        if ints and message.count("{}") != len(ints):
            raise Incompatible("prims.warn(): as many '{}' in the message as integers")
        return T.INT64

    def lower(self, L, call, args, kwargs):
        target = L.temp(T.INT64, "warned")
        L.emit(N.Assign(target=target, value=N.Const(0, T.INT64)))
        values = [L.let(ops.convert(L, a, T.INT64)) for a in args[2:]]
        L.emit(N.ForeignCall(symbol=SYMBOL, args=values, returns=T.INT64, target=target,
                             text=self.text(call)))
        return N.Var(target, T.INT64)


register(Warn())
