"""Calls compiled as one of hanajit's Python-source helpers, chosen and typed while
inferring: a :class:`SourceCall` binds the call's arguments to ``params``, its
:meth:`SourceCall.choose` picks the helper (NumPy's source, step by step) and the
arguments it gets -- bound parameter names, or constant nodes -- and the call's
type is the helper's return type, specialised at those argument types."""
from __future__ import annotations

from ...ir import nodes as N
from ..registry import CallTemplate, bind_arguments, bound_const, typed_helper




class SourceCall(CallTemplate):
    """``name`` (``"np.tri"``) and ``params`` are the callable's; ``choose(call,
    nodes, types)`` returns ``(helper, items)``, each item a bound parameter name
    or an ``N.Const`` passed as is."""

    name = ""
    params: tuple = ()

    def choose(self, call, nodes: dict, types: dict):
        raise NotImplementedError

    def const(self, call, nodes, name, default):
        return bound_const(call, nodes, name, default)

    def typer(self, inf, call, args, kwargs):
        nodes = bind_arguments(self.name, self.params, call.args, call.kwargs)
        types = bind_arguments(self.name, self.params, args, kwargs)
        helper, items = self.choose(call, nodes, types)
        argtypes = [types[x] if isinstance(x, str) else x.type for x in items]
        call.plan = (typed_helper(inf, helper, argtypes), items)
        return call.plan[0].return_type

    def lower(self, L, call, args, kwargs):
        spec, items = call.plan
        b = bind_arguments(self.name, self.params, args, kwargs)
        values = [L.let(b[x]) if isinstance(x, str) else x for x in items]
        return L.call_symbol(spec.symbol, values, spec.return_type)


def const_node(value, t):
    """A constant argument of type ``t`` for :meth:`SourceCall.choose`."""
    return N.Const(value, t)
