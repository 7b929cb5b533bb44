"""Calls compiled as one of hanajit's Python-source helpers, chosen and typed while
inferring: a :class:`SourceCall` binds the call's arguments to ``params``, its
:meth:`SourceCall.choose` picks the helper (NumPy's source, step by step) and the
arguments it gets -- bound parameter names, or constant nodes -- and the call's
type is the helper's return type, specialised at those argument types."""
from __future__ import annotations

from dataclasses import dataclass

from ...ir import nodes as N
from ..registry import PlannedCall, bind_arguments, bound_const, typed_helper


@dataclass
class SourcePlan:
    """The helper's specialisation (``type``: its return type) and its items."""

    spec: object
    items: list

    @property
    def type(self):
        return self.spec.return_type


class SourceCall(PlannedCall):
    """A :class:`~..registry.PlannedCall` whose plan is a helper: ``name``
    (``"np.tri"``) and ``params`` are the callable's; ``choose(call, nodes,
    types)`` returns ``(helper, items)``, each item a bound parameter name or an
    ``N.Const`` passed as is."""

    def choose(self, call, nodes: dict, types: dict):
        raise NotImplementedError       # (every registered subclass defines it)

    def const(self, call, nodes, name, default):
        return bound_const(call, nodes, name, default)

    def typer(self, inf, call, args, kwargs):
        # (PlannedCall's binding; the plan needs ``inf`` to type the helper)
        nodes = bind_arguments(self.name, self.params, call.args, call.kwargs)
        types = self.bound(args, kwargs)
        helper, items = self.choose(call, nodes, types)
        argtypes = [types[x] if isinstance(x, str) else x.type for x in items]
        call.call_plan = plan = SourcePlan(typed_helper(inf, helper, argtypes), items)
        return plan.type

    def lower(self, L, call, args, kwargs):
        plan = call.call_plan
        b = self.bound(args, kwargs)
        values = [L.let(b[x]) if isinstance(x, str) else x for x in plan.items]
        return L.call_symbol(plan.spec.symbol, values, plan.type)


def const_node(value, t):
    """A constant argument of type ``t`` for :meth:`SourceCall.choose`."""
    return N.Const(value, t)
