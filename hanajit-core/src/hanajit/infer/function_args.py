"""Calls of a function passed as an argument: ``def apply(f, x): return f(x)``.

A jitted function or a plain Python function argument has the type
:class:`hanajit.ir.types.FunctionArg` of that very function (``typing_rules.typeof``),
so each function passed makes a specialisation of its own (the native dispatcher
leaves those to the Python one, which keys on the identity).  A call ``f(x)``
(the builder keeps the callee as the variable) is a call of that function,
compiled for the call's argument types as any jitted callee is; a plain
function is compiled with the caller's options.  A function whose source cannot
be compiled makes the caller fall back with its reason.  A function value can
be called, passed on and assigned; a compiled function returning one (alone or
in a tuple) falls back, since it has no run-time form (``check_result``).
"""
from __future__ import annotations

from ..errors import UnsupportedError
from ..ir import types as T


def infer_call(inf, e, argtypes, kwtypes, line):
    """The result type of ``e``, a call whose callee is a variable."""
    t = inf.expr(e.callee, line)
    if t is None:
        return None
    if not isinstance(t, T.FunctionArg):
        inf.fail(line, "call of a value", f"{e.name} is {t}, not a function")
    jf = inf.ctx.as_function_argument(t.fn)
    return inf.ctx.infer_call(inf, e, jf, argtypes, kwtypes, line)


def holds_function(t) -> bool:
    if isinstance(t, T.FunctionArg):
        return True
    return isinstance(t, T.TupleType) and any(holds_function(i) for i in t.items)


def check_result(fn, t) -> None:
    """A compiled entry cannot hand a function value back (it has no run-time
    form): the call falls back."""
    if holds_function(t):
        name = getattr(fn, "pyname", None) or "the function"
        raise UnsupportedError(f"{name}: returns a function value ({t}); only calls "
                               "of function arguments compile", func=name,
                               construct="return of a function")
