"""May a function write into the arrays it is given?

Where compiled code cannot represent CPython's result it deoptimises: the call is
run again in the interpreter.  That is only right when the first run changed
nothing the caller can see, so a function that may write into an array argument
cannot deoptimise (it raises instead).  This answers the question on the typed IR,
before lowering, conservatively: an item or slice assignment, an augmented
assignment to an array, an ``out=`` argument, a mutating method or NumPy function,
or an array passed to another Python function counts as a write."""
from __future__ import annotations

import builtins

from ..ir import nodes as N
from ..ir import types as T
from ..lib.registry import CompiledOnly

MUTATING_METHODS = frozenset({"sort", "fill", "put", "resize", "partition", "itemset",
                              "setflags", "byteswap", "setfield"})
MUTATING_NUMPY = frozenset({"copyto", "put", "place", "putmask", "fill_diagonal",
                            "put_along_axis"})


FRESH_NUMPY = frozenset({"empty", "zeros", "ones", "full", "empty_like", "zeros_like",
                         "ones_like", "full_like", "concatenate", "arange", "linspace"})


def may_write_arrays(fn: N.Function) -> bool:
    """True unless ``fn`` certainly writes into no array it did not create.  A
    local every assignment of which makes a new array (``np.zeros(n)``,
    ``x.copy()``: :func:`fresh_locals`) is one it created."""
    fresh = fresh_locals(fn)
    return any(_writes(s, fn, fresh) for s in N.walk_stmts(fn.body))


def _writes(s, fn, fresh) -> bool:
    """Does statement ``s`` itself (not the statements nested in it) write?"""
    if isinstance(s, N.PySetItem) and isinstance(s.target, N.Var) \
            and s.target.name in fresh:
        pass
    elif isinstance(s, (N.PySetItem, N.Store)):
        return True
    if isinstance(s, N.Assign) and s.inplace and s.target not in fresh \
            and isinstance(fn.locals.get(s.target), T.ArrayType):
        return True
    return any(e is not None and any(_call_writes(c) for c in N.walk_expr(e)
                                     if isinstance(c, N.PyCall))
               for e in N.stmt_exprs(s))


_LOOPS = (N.PyForRange, N.PyWhile, N.ForCount, N.Loop)


def written_before(fn: N.Function, marked, effects: bool = False):
    """The first statement ``marked(s)`` holds for that may run after a write
    into an array ``fn`` did not create (in a loop, a write anywhere in its body
    counts as before); None when there is none: such a statement may deoptimise.
    ``effects``: a print, a random draw or a call of another Python function
    (which may do either) counts as a write."""
    fresh = fresh_locals(fn)

    def changes(x) -> bool:
        return _writes(x, fn, fresh) or effects and _effect(x)

    def writes_in(body) -> bool:
        return any(changes(x) for x in N.walk_stmts(body))

    def walk(body, written):
        for s in body:
            if written and marked(s):
                return s, written
            written = written or changes(s)     # (its own test or count first)
            if isinstance(s, _LOOPS):
                written = written or writes_in(s.body)
            for attr in ("body", "then", "orelse"):
                sub = getattr(s, attr, None)
                if isinstance(sub, list):
                    hit, written = walk(sub, written)
                    if hit is not None:
                        return hit, written
        return None, written
    return walk(fn.body, False)[0]


def _call_writes(call: N.PyCall) -> bool:
    if "out" in call.kwargs:
        return True
    from ..ir.frontend_nodes import Method
    callee = call.callee
    if isinstance(callee, Method):
        return callee.name in MUTATING_METHODS
    name = getattr(callee, "__name__", None)
    module = getattr(callee, "__module__", None) or ""
    if module == "numpy" or module.startswith("numpy.") or type(callee).__name__ == "ufunc":
        return name in MUTATING_NUMPY
    if module in ("math", "cmath", "builtins") or module.startswith("hanajit."):
        return False
    # another Python (jitted) function: it may write into an array passed to it
    return any(isinstance(getattr(a, "type", None), T.ArrayType) for a in call.children())


def fresh_locals(fn: N.Function) -> set:
    """Locals (not parameters) whose every assignment is a new array: a NumPy
    function of :data:`FRESH_NUMPY`, a ``.copy()``, or another such local."""
    values: dict = {}
    for s in N.walk_stmts(fn.body):
        if isinstance(s, N.Assign):
            values.setdefault(s.target, []).append(s.value)
    fresh = {name for name in values if name not in fn.params}
    while True:
        keep = {name for name in fresh if all(
            _makes_array(v) or isinstance(v, N.Var) and v.name in fresh
            for v in values[name])}
        if keep == fresh:
            return fresh
        fresh = keep


def _makes_array(e) -> bool:
    from ..ir.frontend_nodes import Method
    if not isinstance(e, N.PyCall) or "out" in e.kwargs:
        return False
    if isinstance(e.callee, Method):
        return e.callee.name == "copy"
    if isinstance(e.callee, CompiledOnly):      # the generated lists' new arrays
        return e.callee.__name__ in ("empty_of_type", "sorted", "list_new", "list_grow",
                                     "list_insert")   # (growable lists' buffers)
    module = getattr(e.callee, "__module__", None) or ""
    name = getattr(e.callee, "__name__", None)
    return (module == "numpy" or module.startswith("numpy.")) and name in FRESH_NUMPY


def _effect(s) -> bool:
    """Does statement ``s`` itself print, draw random numbers or call a Python
    function that may (anything but NumPy's, ``math``'s and the builtins)?"""
    if isinstance(s, N.ForeignCall):
        return True
    from ..ir.frontend_nodes import Method
    for e in N.stmt_exprs(s):
        for c in N.walk_expr(e) if e is not None else ():
            if not isinstance(c, N.PyCall):
                continue
            callee = c.callee
            if callee is builtins.print:
                return True
            if isinstance(callee, Method):
                if c.args and not isinstance(getattr(c.args[0], "type", None),
                                             (T.ArrayType, T.Scalar, T.TupleType)):
                    return True         # (a generator's, a list's ... methods)
                continue
            module = getattr(callee, "__module__", None) or ""
            if module.startswith(("numpy.random", "random")):
                return True
            if module == "numpy" or module.startswith(("numpy.", "hanajit.")) or \
                    type(callee).__name__ == "ufunc" or module in ("math", "cmath",
                                                                   "builtins"):
                continue
            return True
    return False
