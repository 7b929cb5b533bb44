"""Generator expressions held in a name, looped over by ``for`` or given to
``list``: local generator functions.

``g = (f(x) for x in a if x > 0)`` is, in CPython, a generator whose first
iterable ``a`` is evaluated where the expression is and whose other parts run as
it is asked for items, reading the function's names when they run.  That is what
a generator function defined in the body reads (``generator_inlining.
LocalGenerator``), so the expression becomes one::

    def $ge1($src):                         g = $ge1(a)
        for x in $src:
            if x > 0:
                yield f(x)

and ``generator_inlining``/``held_generators`` compile it as any other
generator: a loop over it, ``next``, ``any``/``all``/``sum``/``list`` of it.
Generator expressions given straight to ``sum``/``any``/``all``/``min``/``max``/
``sorted`` and the other calls that build them as loops are left to those, and
so are expressions holding a ``:=`` (it binds in the function, not in a
generator's frame) or a ``lambda``."""
from __future__ import annotations

import ast
import builtins
import itertools

_UID = itertools.count(1)
_COMPREHENSIONS = (ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp)


def _convertible(e) -> bool:
    return isinstance(e, ast.GeneratorExp) and not any(
        isinstance(n, (ast.NamedExpr, ast.Lambda, ast.Await)) or getattr(n, "is_async", 0)
        for n in ast.walk(e))


def _source(it, callee) -> tuple:
    """``(the expressions evaluated where the generator expression is, the
    first loop's iterable over the parameters holding them)``: the iterable
    itself, or the arguments of ``range``/``enumerate``/``zip`` (whose objects
    compiled code makes only where they are looped over)."""
    if isinstance(it, ast.Call) and not it.keywords and it.args \
            and not any(isinstance(a, ast.Starred) for a in it.args) \
            and callee(it.func) in (builtins.range, builtins.enumerate, builtins.zip):
        names = [f"__hj_src{k}" for k in range(len(it.args))]
        inner = ast.Call(it.func, [ast.Name(n, ast.Load()) for n in names], [])
        return it.args, names, inner
    return [it], ["__hj_src"], ast.Name("__hj_src", ast.Load())


def _generator(e: ast.GeneratorExp, name: str, params: list, first) -> ast.FunctionDef:
    body = [ast.Expr(ast.Yield(e.elt))]
    for k, g in reversed(list(enumerate(e.generators))):
        for test in reversed(g.ifs):
            body = [ast.If(test=test, body=body, orelse=[])]
        body = [ast.For(target=g.target, iter=first if k == 0 else g.iter, body=body,
                        orelse=[])]
    args = ast.arguments(posonlyargs=[], args=[ast.arg(p) for p in params], vararg=None,
                         kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    return ast.FunctionDef(name=name, args=args, body=body, decorator_list=[],
                           returns=None, type_params=[])


def rewrite(fn: ast.FunctionDef, callee) -> list:
    """The generator expressions of ``fn``'s statements held in a name (``g =
    (...)``), looped over (``for x in (...)``) or given to ``list`` made calls
    of local generator functions, in place; returns the functions' ``def``\\ s,
    which the caller puts first in ``fn``'s body.  ``callee(func)``: the object
    a call's ``func`` names."""
    made: list = []

    def call_of(e):
        name = f"$ge{next(_UID)}"
        values, params, first = _source(e.generators[0].iter, callee)
        made.append(ast.fix_missing_locations(ast.copy_location(
            _generator(e, name, params, first), e)))
        return ast.copy_location(ast.Call(ast.Name(name, ast.Load()), list(values), []), e)

    def expr(e):
        """Convert ``list(<genexp>)`` in ``e``, and a generator expression that
        is the first iterable of a comprehension (evaluated where the
        comprehension is), not inside a nested scope."""
        if isinstance(e, _COMPREHENSIONS):
            first = e.generators[0]
            if _convertible(first.iter):
                first.iter = call_of(first.iter)
            expr(first.iter)
            return
        if isinstance(e, ast.Lambda):
            return
        if isinstance(e, ast.Call) and len(e.args) == 1 and not e.keywords \
                and _convertible(e.args[0]) and callee(e.func) is builtins.list:
            e.args[0] = call_of(e.args[0])
        for child in ast.iter_child_nodes(e):
            if isinstance(child, ast.expr):
                expr(child)

    def stmts(body):
        for s in body:
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if isinstance(s, ast.Assign) and len(s.targets) == 1 \
                    and isinstance(s.targets[0], ast.Name) and _convertible(s.value):
                s.value = call_of(s.value)
            if isinstance(s, ast.For) and _convertible(s.iter):
                s.iter = call_of(s.iter)
            for field, value in ast.iter_fields(s):
                if isinstance(value, ast.expr):
                    expr(value)
                elif isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                    stmts(value)
            for h in getattr(s, "handlers", ()):
                stmts(h.body)
            for case in getattr(s, "cases", ()):
                stmts(case.body)
    stmts(fn.body)
    return made
