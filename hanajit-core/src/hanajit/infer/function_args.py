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

import sys
import types

from ..errors import UnsupportedError
from ..ir import types as T

# (installed packages: a plain function there is a library's, not the user's)
_LIBRARY_DIRS = ("site-packages", "dist-packages")
_OWN = frozenset({"numpy", "hanajit"} | {f"hanajit_{t}" for t in (
    "cpu", "cuda", "hip", "levelzero", "vulkan", "metal", "wasm", "fpga", "exe")})


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


def user_function(obj) -> bool:
    """Is ``obj`` a plain Python function of the user's own code -- called by name
    from compiled code, it is compiled for the call as a jitted function is?  Not
    one of the standard library's, NumPy's, hanajit's or an installed package's
    (those are supported by name in the registry, or not at all), nor a
    generator function."""
    if not isinstance(obj, types.FunctionType) or getattr(obj, "__hj_lambda__", False):
        return False
    module = getattr(obj, "__module__", None) or ""
    top = module.partition(".")[0]
    if top in sys.stdlib_module_names or top in _OWN:
        return False
    if obj.__code__.co_flags & 0x20:                    # CO_GENERATOR
        return False
    path = obj.__code__.co_filename.replace("\\", "/")
    return not any(f"/{d}/" in path for d in _LIBRARY_DIRS)
