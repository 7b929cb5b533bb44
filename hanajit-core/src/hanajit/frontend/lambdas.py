"""Lambdas: the source of ``jit(lambda ...)``, and lambdas assigned to a local
and called, outlined as functions of their own.

``lambda_function_def(pyfunc)`` finds a lambda's ``ast.Lambda`` in the parsed
file from its code object's first line and instruction positions, and returns
it as ``def <lambda>(params): return body``; several lambdas it cannot tell
apart make the function fall back with that reason.

``outline_local_lambdas(parsed, injected)`` rewrites a ``def`` in which

::

    g = lambda y: y * k            # at the top level of the body, bound once
    ... g(x) + 1 ...               # later statements only call it

becomes ``pass`` and each call ``g(x)`` a call of a generated function
``def g(y, k): return y * k`` with the enclosing locals the lambda reads
appended: ``__hj_lambda_g_<n>(x, k)``.  Those locals are read at the call, as
Python's closures read them (a local rebound after the lambda is defined is
seen with its new value); a lambda may call one bound before it.  A lambda
that reads no enclosing local may also be used as a value (``h = g``,
``apply(g, x)``), and a lambda written as a call's argument (``apply(lambda y: y
+ 1, x)``) is outlined too: the generated function is a function argument
(``infer/function_args.py``).  A lambda that reads enclosing locals and is used
as a value (a closure, which has a run-time form), has defaults, is called with
keywords, or is bound more than once or inside a block is left as it is, and
the function falls back naming the lambda.
"""
from __future__ import annotations

import ast
import copy
import inspect
import itertools

from ..errors import UnsupportedError

_UID = itertools.count(1)


class LambdaFunction:
    """Stands in for a Python function: one outlined local lambda (its parsed
    ``def`` in ``__hj_parsed__``, its parameters in ``__signature__``)."""

    __hj_lambda__ = True

    def __init__(self, parsed, qualname, params):
        self.__hj_parsed__ = parsed
        self.__qualname__ = qualname
        self.__name__ = qualname.rpartition(".")[2]
        self.__module__ = "hanajit.local_lambda"
        self.__signature__ = inspect.Signature(
            [inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in params])

    def __call__(self, *args):          # pragma: no cover - never called
        raise TypeError("an outlined lambda is only called from compiled code")


def as_def(lam: ast.Lambda, name: str, extra=()) -> ast.FunctionDef:
    """``def name(<lam's params>, *extra): return <lam's body>`` at lam's lines."""
    args = copy.deepcopy(lam.args)
    args.args = args.args + [ast.arg(arg=e) for e in extra]
    ret = ast.Return(value=copy.deepcopy(lam.body))
    extra_fields = {"type_params": []} if "type_params" in ast.FunctionDef._fields else {}
    fdef = ast.FunctionDef(name=name, args=args, body=[ret], decorator_list=[],
                           returns=None, **extra_fields)
    for node in (fdef, ret, *ast.walk(args)):
        ast.copy_location(node, lam)
    return ast.fix_missing_locations(fdef)


def lambdas_by_line(tree: ast.Module) -> dict:
    """The ``ast.Lambda`` nodes of a file's ``tree`` by their first line."""
    out: dict = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Lambda):
            out.setdefault(n.lineno, []).append(n)
    return out


def lambda_function_def(pyfunc, by_line: dict, name: str) -> ast.FunctionDef:
    """The ``def`` standing for the lambda ``pyfunc`` among its file's lambdas
    (:func:`lambdas_by_line`; the ``def`` is a copy)."""
    code = pyfunc.__code__
    line = code.co_firstlineno
    params = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
    found = [n for n in by_line.get(line, ())
             if [a.arg for a in n.args.posonlyargs + n.args.args + n.args.kwonlyargs]
             == params]
    if len(found) > 1:
        # the body's instructions have source spans (RESUME and the implicit
        # return have empty ones): the lambda whose body holds them all
        spots = [(ln, col) for (ln, end, col, end_col) in code.co_positions()
                 if ln is not None and col is not None and (ln, col) != (end, end_col)]
        found = [n for n in found if spots and all(_inside(n.body, ln, col)
                                                   for ln, col in spots)]
    if len(found) != 1:
        raise UnsupportedError(
            f"{name}: cannot tell which lambda on line {line} this is "
            f"({len(found)} match its parameters)", func=name, line=line,
            construct="lambda")
    return as_def(found[0], "<lambda>")


def _inside(node, ln, col) -> bool:
    start = (node.lineno, node.col_offset)
    end = (node.end_lineno, node.end_col_offset)
    return start <= (ln, col) < end


def outline_local_lambdas(parsed, locals_: set, injected: dict) -> ast.FunctionDef:
    """The parsed ``def`` with its local lambdas outlined (a copy; the original
    when there are none it can outline)."""
    fnode = parsed.node
    plans = []
    for i, s in enumerate(fnode.body):
        if (isinstance(s, ast.Assign) and len(s.targets) == 1
                and isinstance(s.targets[0], ast.Name) and isinstance(s.value, ast.Lambda)):
            plan = _plan(fnode, i, s.targets[0].id, s.value, locals_)
            if plan is not None:
                plans.append(plan)
    passed = [(call, k) for call in ast.walk(fnode) if isinstance(call, ast.Call)
              for k, x in enumerate(call.args) if isinstance(x, ast.Lambda)
              and _simple(x) and not _free(x, locals_)]
    # np.piecewise(x, conds, [lambda v: ..., 0]): frontend/piecewise_calls.py
    listed = [(d, k) for call in ast.walk(fnode) if isinstance(call, ast.Call)
              and _names_piecewise(call.func)
              for d in call.args + [w.value for w in call.keywords]
              if isinstance(d, (ast.List, ast.Tuple))
              for k, x in enumerate(d.elts) if isinstance(x, ast.Lambda)
              and _simple(x) and not _free(x, locals_)]
    if not plans and not passed and not listed:
        return fnode
    names = {p[1] for p in plans}
    plans = [(i, name, tuple(f for f in free if f not in names))
             for i, name, _, free in plans]
    memo = {}
    fnode = copy.deepcopy(fnode, memo)
    scope = dict(parsed.closure)        # generated functions see earlier ones
    for i, name, free in plans:
        lam = fnode.body[i].value          # (calls of earlier lambdas rewritten)
        gen = _outline(parsed, lam, name, free, scope, injected)
        fnode.body[i] = ast.copy_location(ast.Pass(), fnode.body[i])
        for s in fnode.body[i + 1:]:
            for node in ast.walk(s):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                        and node.func.id == name:
                    node.args = node.args + [ast.copy_location(
                        ast.Name(id=f, ctx=ast.Load()), node) for f in free]
                if isinstance(node, ast.Name) and node.id == name:
                    node.id = gen           # a call, or (no free locals) a value
    for call, k in passed:                  # f(lambda y: y + 1, x)
        call = memo[id(call)]
        lam = call.args[k]
        gen = _outline(parsed, lam, "lambda", (), scope, injected)
        call.args[k] = ast.copy_location(ast.Name(id=gen, ctx=ast.Load()), lam)
    for d, k in listed:
        d = memo[id(d)]
        lam = d.elts[k]
        gen = _outline(parsed, lam, "lambda", (), scope, injected)
        d.elts[k] = ast.copy_location(ast.Name(id=gen, ctx=ast.Load()), lam)
    return fnode


def _names_piecewise(func) -> bool:
    """``np.piecewise`` or ``piecewise`` (a call's ``func``, by name)."""
    return isinstance(func, ast.Attribute) and func.attr == "piecewise" or \
        isinstance(func, ast.Name) and func.id == "piecewise"


def _outline(parsed, lam, name, free, scope, injected) -> str:
    """Make the generated function of ``lam``; return the name it is bound to."""
    from .source import ParsedFunction
    gen = f"__hj_lambda_{name}_{next(_UID)}"
    params = [a.arg for a in lam.args.args]
    lparsed = ParsedFunction(pyfunc=None, node=as_def(lam, name, free),
                             filename=parsed.filename, first_line=lam.lineno,
                             source=parsed.source, globals=parsed.globals,
                             closure=dict(scope))
    stand_in = LambdaFunction(lparsed, f"{parsed.qualname}.<lambda {name}>",
                              params + list(free))
    lparsed.pyfunc = stand_in
    injected[gen] = scope[gen] = stand_in
    return gen


def _simple(lam: ast.Lambda) -> bool:
    """Positional parameters only, no nested lambdas, walrus or yield."""
    a = lam.args
    if a.posonlyargs or a.vararg or a.kwarg or a.kwonlyargs or a.defaults:
        return False
    return not any(isinstance(n, (ast.Lambda, ast.NamedExpr, ast.Yield, ast.YieldFrom,
                                  ast.Await)) for n in ast.walk(lam.body))


def _free(lam: ast.Lambda, locals_: set) -> tuple:
    """The enclosing function's locals the lambda's body reads."""
    params = {x.arg for x in lam.args.args}
    return tuple(sorted({n.id for n in ast.walk(lam.body) if isinstance(n, ast.Name)
                         and n.id in locals_ and n.id not in params}))


def _plan(fnode, i, name, lam: ast.Lambda, locals_: set):
    """``(index, name, lambda, free locals)`` when the lambda bound at top-level
    statement ``i`` can be outlined, else None: bound once, read only after it,
    called with its number of positional arguments -- or, reading no enclosing
    local, also passed on as a value."""
    if not _simple(lam):
        return None
    stores = [n for n in ast.walk(fnode) if isinstance(n, ast.Name) and n.id == name
              and not isinstance(n.ctx, ast.Load)]
    if len(stores) != 1 or any(isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names
                               for n in ast.walk(fnode)):
        return None
    free = tuple(f for f in _free(lam, locals_) if f != name)
    calls, later = set(), set()
    for s in fnode.body[i + 1:]:
        for n in ast.walk(s):
            later.add(id(n))
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name:
                if n.keywords or len(n.args) != len(lam.args.args) or any(
                        isinstance(x, ast.Starred) for x in n.args):
                    return None
                calls.add(id(n.func))
    for n in ast.walk(fnode):
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load):
            if id(n) not in later or id(n) not in calls and free:
                return None     # read before its definition, or a closure as a value
    return (i, name, lam, free)
