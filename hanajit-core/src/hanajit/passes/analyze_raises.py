"""Decide which functions can raise (and so need the error-returning ABI).

Runs last on a primitive module.  A function can raise if it holds a ``Raise``
(or a ``Reraise``, or a ``Try``: its handlers read the error record, whatever its
body does) or calls a function that can raise; found by a fixpoint over the call
graph, so a recursive function that never raises (``fib``) keeps the plain C calling
convention.

Example::

    fib(n): if n < 2: return n ...  -> can_raise = False  (ret i64 @fib(i64))
    f(a, b): return a // b           -> can_raise = True   (i32 @f(ptr, ptr, i64, i64))
"""
from __future__ import annotations

from ..ir import nodes as N


def _allocates(s) -> bool:
    return isinstance(s, N.Assign) and isinstance(s.value, N.AllocArray)


def analyze_raises(module: N.Module) -> bool:
    # (a function compiled apart, ``Function.external``, keeps what was decided then)
    raises = {name: fn.can_raise if fn.external is not None else
              any(isinstance(s, (N.Raise, N.Reraise, N.Try)) or _allocates(s)
                  for s in N.walk_stmts(fn.body))
              for name, fn in module.functions.items()}
    # (the callees of a function found raising already are never asked for)
    calls: dict = {}
    graph = N.kept_graph(module)
    changed = True
    while changed:
        changed = False
        for name in raises:
            if raises[name]:
                continue
            callees = calls.get(name)
            if callees is None:
                callees = calls[name] = set(graph[name])
            if any(raises.get(c) for c in callees):
                raises[name] = changed = True
    for name, fn in module.functions.items():
        fn.can_raise = raises[name]
    return True
