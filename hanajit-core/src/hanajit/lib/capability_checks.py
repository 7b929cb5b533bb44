"""``prims.need_<capability>(what)``: a library function refuses, at compile time,
a target that lacks what it needs, with a message naming the capability.

Library code written in Python (``lib/random/philox.py``) calls the check first; the
template raises ``Incompatible`` when the target's
:class:`~hanajit.target.Capabilities` field is false, so the refusal names both
the function and the field (``philox_stream() needs 64-bit integers
(Capabilities.int64), which target 'x' does not have``) and a GPU kernel is
refused when it is compiled -- never computed differently.  Where the target
has it, the call is nothing.
"""
from __future__ import annotations

from ..ir import nodes as N
from ..ir import types as T
from ..typing_rules import Incompatible
from .registry import CallTemplate, register

_WHAT = {"int64": "64-bit integers"}


class NeedCapability(CallTemplate):
    """``prims.need_<field>("name")``: nothing, or Incompatible naming the field."""

    def __init__(self, field):
        self.field = field
        self.paths = (f"hanajit.lib.prims.need_{field}",)

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) != 1 or not isinstance(args[0], T.ConstType):
            raise Incompatible(f"prims.need_{self.field}(a constant name)")
        if not getattr(inf.ctx.capabilities, self.field):
            target = inf.ctx.options.get("target") or "cpu"
            raise Incompatible(f"{args[0].value}() needs {_WHAT[self.field]} "
                               f"(Capabilities.{self.field}), which target "
                               f"{target!r} does not have")
        return T.NONE

    def lower(self, L, call, args, kwargs):
        return N.Const(None, T.NONE)


for _field in _WHAT:
    register(NeedCapability(_field))
