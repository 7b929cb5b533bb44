"""List displays that are only read: built as tuples.

A list is a mutable object with an identity; a compiled function cannot hand
one back to Python.  But a list display that is never mutated, never returned
and never passed where its identity or type shows behaves exactly as a tuple of
the same items::

    w = [0.25, 0.5, 0.25]          # only read below: built as (0.25, 0.5, 0.25)
    for k in [1, 2, 3]: ...        # iterated once
    out[i] = w[0] * a[i - 1] + w[1] * a[i] + w[2] * a[i + 1]
    b = a[idx]                     # idx = [0, 2]: NumPy's index array

This pass finds such displays before the function is built.  A local name
qualifies when every assignment to it is ``name = [display]`` and every read of
it is one of: ``name[i]`` (a load, not a slice), an array index (``a[name]``,
``a[name, j]``: NumPy reads a list there as ``np.array(name)``), ``len``,
``min``, ``max``, ``sum(name)``, ``math.dist``, ``for x in name`` (also in ``enumerate``/``zip``), ``x in
name``, or an argument of a ``numpy`` function (which reads a list and a tuple
alike).  Anything else -- ``append``, item assignment, ``return name``, a call
of another function -- leaves the display unsupported, so the function runs in
the interpreter as before.  Nested displays (``[[1, 2], [3, 4]]``) are only
indexed twice (``w[i][j]``), used as an index, measured or passed to NumPy:
``w[i]`` alone would be a tuple where Python has a list.
"""
from __future__ import annotations

import ast
import math

from .source import resolved

_READERS = (len, min, max)              # builtins whose result is never the list
_ITERATORS = (enumerate, zip)           # only inside ``for ... in``


def readonly_lists(fn: ast.FunctionDef, params, resolve_global):
    """``(display ids, names)``: the ``id()`` of each ``ast.List`` to build as a
    tuple, and ``{name: nested}`` for the local names holding such lists
    (``resolve_global(name)`` is the object a free name refers to, or None)."""
    ctx, stores, loads = scan(fn, resolve_global)
    parents = ctx.parents
    displays = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.List) and isinstance(node.ctx, ast.Load) \
                and node.elts and ctx.read_only(node, nested=_nested(node)):
            displays.add(id(node))
    scoped = declared_elsewhere(fn)
    names = {}
    for name, targets in stores.items():
        if name in params or name in scoped:
            continue
        values = [_assigned_display(t, parents) for t in targets]
        if not all(v is not None and v.elts for v in values):
            continue
        nested = any(_nested(v) for v in values)
        if nested and not all(_uniform(v) for v in values):
            continue
        if all(ctx.read_only(use, nested) for use in loads.get(name, [])):
            names[name] = nested
            displays.update(id(v) for v in values)
    return displays, names


def scan(fn, resolve_global):
    """``(Reads, stores, loads)`` of ``fn``: the parents of its nodes, and
    ``{name: [ast.Name, ...]}`` of the stores and of the loads of each name."""
    parents = {}
    for node in ast.walk(fn):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    stores, loads = {}, {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Name):
            group = loads if isinstance(node.ctx, ast.Load) else stores
            group.setdefault(node.id, []).append(node)
    return Reads(parents, resolve_global), stores, loads


class Reads:
    """The parents of a function's nodes, and how a name resolves: asks whether
    a read of a list is one a tuple (or an array) of its items answers alike."""

    def __init__(self, parents, resolve_global):
        self.parents = parents
        self.resolve_global = resolve_global

    def read_only(self, node, nested: bool) -> bool:
        """Is this read of a list (a display or a name) one that a tuple of the
        same items answers alike?"""
        p = self.parents.get(node)
        if isinstance(p, ast.Subscript):
            if p.value is node:                         # w[i]
                if isinstance(p.slice, ast.Slice) or not isinstance(p.ctx, ast.Load):
                    return False
                if not nested:
                    return True
                q = self.parents.get(p)                 # w[i][j] of nested lists
                return (isinstance(q, ast.Subscript) and q.value is p
                        and isinstance(q.ctx, ast.Load) and not isinstance(q.slice, ast.Slice))
            return p.slice is node                      # a[w]: an index array
        if isinstance(p, ast.Tuple) and isinstance(self.parents.get(p), ast.Subscript) \
                and self.parents[p].slice is p:
            return True                                 # a[w, j]
        if isinstance(p, ast.Compare):                  # x in w
            return any(c is node and isinstance(op, (ast.In, ast.NotIn))
                       for op, c in zip(p.ops, p.comparators))
        if isinstance(p, ast.For):
            return p.iter is node and not nested
        if isinstance(p, ast.Call) and node in p.args:
            obj = (self.resolve_global(p.func.id) if isinstance(p.func, ast.Name)
                   else None)
            if obj in _READERS and not (nested and obj is not len):
                return True
            if obj is sum and p.args[0] is node and not nested:
                return True                             # sum(w): a loop over it
            if self._math_product(p.func) and p.args[0] is node and not nested:
                return True                             # math.prod(w), math.fsum(w)
            if resolved(p.func, self.resolve_global) is math.dist and not nested:
                return True                             # math.dist(w, v): read as tuples
            if obj in _ITERATORS and not nested:
                q = self.parents.get(p)
                return isinstance(q, ast.For) and q.iter is p
            return self._numpy_function(p.func)
        if isinstance(p, ast.keyword):
            call = self.parents.get(p)
            return isinstance(call, ast.Call) and self._numpy_function(call.func)
        return False

    def _math_product(self, func) -> bool:
        """``math.prod`` / ``math.fsum`` (a loop over the list, like ``sum``)."""
        obj = resolved(func, self.resolve_global)
        return any(obj is f for f in (math.prod, math.fsum))

    def _numpy_function(self, func) -> bool:
        """``np.f`` / ``np.linalg.f`` / ``f`` imported from NumPy, or a method of a
        NumPy ufunc (``np.add.at``)."""
        import numpy
        obj = resolved(func, self.resolve_global)
        if isinstance(getattr(obj, "__self__", None), numpy.ufunc):
            return True
        module = getattr(obj, "__module__", None) or ""
        return callable(obj) and not isinstance(obj, type) and (
            module == "numpy" or module.startswith("numpy."))


def _assigned_display(target, parents):
    """The list display of ``name = [...]`` (one plain target), else None."""
    p = parents.get(target)
    if isinstance(p, ast.Assign) and len(p.targets) == 1 and p.targets[0] is target \
            and isinstance(p.value, ast.List):
        return p.value
    return None


def _nested(display) -> bool:
    return any(isinstance(e, (ast.List, ast.Tuple)) for e in display.elts)


def _uniform(display) -> bool:
    """Every level a non-empty list display (``[[1, 2], [3, 4]]``), so each
    ``w[i]`` of the nest is a list index (for its IndexError)."""
    return bool(display.elts) and all(
        not isinstance(e, (ast.Tuple, ast.Starred))
        and (not isinstance(e, ast.List) or _uniform(e)) for e in display.elts)


def declared_elsewhere(fn) -> set:
    """Names declared global/nonlocal or used by nested scopes (not list
    comprehensions and generator expressions: those compile inline, as loops of
    this function, ``frontend/comprehensions.py``)."""
    names = set()
    for node in ast.walk(fn):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            names.update(node.names)
        elif node is not fn and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                  ast.Lambda, ast.SetComp, ast.DictComp)):
            names.update(n.id for n in ast.walk(node) if isinstance(n, ast.Name))
    return names


def index_array(b, node):
    """A list display used as an index (``a[[0, 2]]``, ``m[[0, 1], [1, 0]]``), for
    the builder ``b``: NumPy reads it as ``np.array`` of the list -- an integer
    index array, or a boolean mask for a list of bools."""
    import numpy

    from ..ir import nodes as N
    from ..ir.frontend_nodes import ObjRef
    if not node.elts:         # NumPy indexes with an empty integer array
        return N.PyCall(callee=numpy.empty, args=[N.Const(0)],
                        kwargs={"dtype": ObjRef(numpy.intp, "np.intp")},
                        name="np.empty")
    return N.PyCall(callee=numpy.array, args=[b.list_arg(node)], kwargs={},
                    name="np.array")


def ancestors(node, parents, fn):
    """The nodes above ``node`` (``parents``: :func:`scan`'s map), up to ``fn``."""
    p = parents.get(node)
    while p is not None and p is not fn:
        yield p
        p = parents.get(p)


def is_prange(it, resolve_global) -> bool:
    """Is the loop iterable ``it`` a call of ``prange`` (by name or aliased)?"""
    if not (isinstance(it, ast.Call) and isinstance(it.func, (ast.Name, ast.Attribute))):
        return False
    name = it.func.id if isinstance(it.func, ast.Name) else it.func.attr
    obj = resolve_global(name) if isinstance(it.func, ast.Name) else None
    return name == "prange" or getattr(obj, "__name__", "") == "prange"
