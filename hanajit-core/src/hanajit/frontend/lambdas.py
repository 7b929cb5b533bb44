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

A nested ``def`` at the top level of the body (positional parameters, no
defaults or decorators, no ``yield``, ``global``, ``nonlocal`` or nested
functions of its own) is outlined the same way -- it is a lambda with
statements: ``def clamp(i): return min(max(i, 0), n - 1)`` becomes a generated
function taking ``n`` too, its calls of itself (recursion) included.
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
        elif isinstance(s, ast.FunctionDef):            # a nested ``def``
            plan = _plan(fnode, i, s.name, s, locals_)
        else:
            continue
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
        lam = fnode.body[i]                # (calls of earlier lambdas rewritten)
        lam = lam if isinstance(lam, ast.FunctionDef) else lam.value
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
    nested = isinstance(lam, ast.FunctionDef)
    node = _def_copy(lam, gen, free) if nested else as_def(lam, name, free)
    lparsed = ParsedFunction(pyfunc=None, node=node,
                             filename=parsed.filename, first_line=lam.lineno,
                             source=parsed.source, globals=parsed.globals,
                             closure=dict(scope))
    qualname = f"{parsed.qualname}.<locals>.{name}" if nested else \
        f"{parsed.qualname}.<lambda {name}>"
    stand_in = LambdaFunction(lparsed, qualname, params + list(free))
    lparsed.pyfunc = stand_in
    injected[gen] = scope[gen] = lparsed.closure[gen] = stand_in    # (recursion)
    return gen


def _def_copy(fdef: ast.FunctionDef, gen: str, free) -> ast.FunctionDef:
    """A nested ``def`` as the generated function ``gen``: the enclosing locals
    it reads appended to its parameters, and its calls of itself made calls of
    ``gen`` passing them on."""
    node = copy.deepcopy(fdef)
    node.args.args = node.args.args + [ast.copy_location(ast.arg(arg=f), fdef)
                                       for f in free]
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) \
                and n.func.id == fdef.name:
            n.args = n.args + [ast.copy_location(ast.Name(id=f, ctx=ast.Load()), n)
                               for f in free]
        if isinstance(n, ast.Name) and n.id == fdef.name:
            n.id = gen
    return ast.fix_missing_locations(node)


def _simple(lam) -> bool:
    """Positional parameters only, no nested lambdas, walrus or yield (a nested
    ``def``: nor decorators, nested functions, ``global`` or ``nonlocal``)."""
    a = lam.args
    if a.posonlyargs or a.vararg or a.kwarg or a.kwonlyargs or a.defaults:
        return False
    if isinstance(lam, ast.FunctionDef):
        return not lam.decorator_list and not any(isinstance(n, (
            ast.Lambda, ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await,
            ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Global,
            ast.Nonlocal)) for s in lam.body for n in ast.walk(s))
    return not any(isinstance(n, (ast.Lambda, ast.NamedExpr, ast.Yield, ast.YieldFrom,
                                  ast.Await)) for n in ast.walk(lam.body))


def _free(lam, locals_: set) -> tuple:
    """The enclosing function's locals the lambda's (or nested ``def``'s) body
    reads -- not those a ``def`` assigns, which are its own."""
    params = {x.arg for x in lam.args.args}
    body = lam.body if isinstance(lam, ast.FunctionDef) else [lam.body]
    nodes = [n for s in body for n in ast.walk(s)]
    own = {n.id for n in nodes if isinstance(n, ast.Name)
           and not isinstance(n.ctx, ast.Load)}
    return tuple(sorted({n.id for n in nodes if isinstance(n, ast.Name)
                         and n.id in locals_ and n.id not in params | own}))


def _plan(fnode, i, name, lam: ast.Lambda, locals_: set):
    """``(index, name, lambda, free locals)`` when the lambda bound at top-level
    statement ``i`` can be outlined, else None: bound once, read only after it,
    called with its number of positional arguments -- or, reading no enclosing
    local, also passed on as a value."""
    if not _simple(lam):
        return None
    stores = [n for n in ast.walk(fnode) if isinstance(n, ast.Name) and n.id == name
              and not isinstance(n.ctx, ast.Load)] + [
        n for n in ast.walk(fnode) if isinstance(n, (ast.FunctionDef, ast.ClassDef))
        and n.name == name and n is not fnode]
    if len(stores) != 1 or any(isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names
                               for n in ast.walk(fnode)):
        return None
    free = tuple(f for f in _free(lam, locals_) if f != name)
    calls, later = set(), set()
    own = [lam] if isinstance(lam, ast.FunctionDef) else []     # (recursion)
    for s in fnode.body[i + 1:] + own:
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
