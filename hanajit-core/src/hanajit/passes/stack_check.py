"""RecursionError instead of a crash: recursive functions check the stack's depth.

CPython raises ``RecursionError`` when calls nest too deeply; compiled code would
run off the end of the thread's stack and crash.  For every function that can
call itself (directly or through others: a cycle of the call graph) this pass
splits it in two::

    d(n)                 ->  d(n): return d__stack(n, stack_address() - BUDGET)
                             d__stack(n, floor):
                                 if stack_address() < floor: raise RecursionError
                                 ... body, its calls in the cycle passing floor on

A call from outside the cycle (the entry, a caller from Python) sets the floor
:data:`BUDGET` bytes below its own frame; every call inside the cycle checks its
frame against that floor, one compare per call.  The budget is far deeper than
CPython's own limit (1000 frames by default), and well inside a thread's stack
(8 MiB for the main thread and Python's threads on Linux).  Functions outside
cycles are unchanged.  Runs on targets whose ``Capabilities.stack_check``
holds, before the raise analysis (the split functions can raise).  A cycle of
library helpers all marked ``hj_shallow`` (``Function.shallow``: a depth their
arguments bound, such as the log2(n) levels of the pairwise sum's tree) is left
as it is: the check would make each of its calls return a status.
"""
from __future__ import annotations

import copy

from ..ir import nodes as N
from ..ir import types as T

BUDGET = 1 << 20            # bytes of stack a recursion may use below its first call
MESSAGE = "maximum recursion depth exceeded"
FLOOR = "__stack_floor"
RESULT = "__stack_result"


def cycles(module: N.Module) -> list:
    """The strongly connected components of the call graph that hold a cycle
    (Tarjan's algorithm), each a set of function names."""
    kept = N.kept_graph(module)
    graph = {name: set(kept[name]) & module.functions.keys() for name in module.functions}
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(v):
        work = [(v, iter(sorted(graph[v])))]
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        while work:
            node, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = set()
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.add(w)
                        if w == node:
                            break
                    if len(comp) > 1 or node in graph[node]:
                        out.append(comp)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _redirect(e, names: dict):
    """Calls of functions in the cycle go to their checked copies, with the floor."""
    for sub in N.walk_expr(e):
        if isinstance(sub, N.Call) and sub.func in names:
            sub.func = names[sub.func]
            sub.args = [*sub.args, N.Var(FLOOR, T.INT64)]


def stack_check(module: N.Module) -> bool:
    """False when no function needed a check (no body changed: the pipeline then
    does not verify the bodies again)."""
    changed = False
    for comp in cycles(module):
        if all(module.functions[name].shallow for name in comp):
            continue        # library helpers whose depth their arguments bound
        changed = True
        names = {name: f"{name}__stack" for name in comp}
        for name in sorted(comp):
            fn = module.functions[name]
            body = copy.deepcopy(fn.body)
            for s in N.walk_stmts(body):
                for e in N.stmt_exprs(s):
                    if e is not None:
                        _redirect(e, names)
            deep = N.Cmp("lt", N.StackAddress(T.INT64), N.Var(FLOOR, T.INT64), T.BOOL)
            guard = N.If(cond=deep, then=[N.Raise(exc=RecursionError, message=MESSAGE)])
            checked = copy.copy(fn)
            checked.name, checked.params = names[name], [*fn.params, FLOOR]
            checked.arg_types = (*fn.arg_types, T.INT64)
            checked.locals = {**fn.locals, FLOOR: T.INT64}
            checked.body = [guard, *body]
            module.functions[names[name]] = checked
            floor = N.BinOp("sub", N.StackAddress(T.INT64),
                            N.Const(BUDGET, T.INT64), T.INT64)
            call = N.Call(names[name], [*(N.Var(p, t) for p, t in
                                          zip(fn.params, fn.arg_types)), floor],
                          fn.return_type)
            if isinstance(fn.return_type, T.NoneType):
                fn.body = [N.ExprStmt(value=call), N.Return()]
            else:           # a call is the value of an assignment or a statement
                fn.locals = {**fn.locals, RESULT: fn.return_type}
                fn.body = [N.Assign(target=RESULT, value=call),
                           N.Return(value=N.Var(RESULT, fn.return_type))]
    return changed
