"""``np.where(c, x, y)`` of three numbers: NumPy returns a 0-d array, compiled code
holds the value as a number (a NumPy scalar of the same dtype).

The two behave alike wherever only the value is read -- arithmetic, comparisons
and unary operators (NumPy gives a 0-d array's results as scalars), truth tests,
``float``/``int``/``bool``/``complex``/``abs``, ``math`` functions, NumPy ufuncs
without ``out=``, a store into an array element -- and through locals read only
that way.  Anywhere else the array itself would show (returned, put in a tuple or
list, handed to ``min``/``max`` or another function, changed in place with
``+=``), so :func:`check` makes the function fall back, naming the call.
"""
from __future__ import annotations

import math

import numpy as np

from ..ir import nodes as N
from ..ir import types as T

_VALUE_CALLS = (float, int, bool, complex, abs)
_ORDER = frozenset({"lt", "le", "gt", "ge", "eq", "ne"})


def _zero_d_call(e) -> bool:
    return isinstance(e, N.PyCall) and e.callee is np.where and len(e.args) == 3 \
        and not e.kwargs and isinstance(e.type, T.Scalar)


def _reads_value(parent, e) -> bool:
    """Does expression ``parent`` read only the value of its operand ``e``?"""
    if isinstance(parent, N.PyBinOp):
        return parent.op != "matmul"
    if isinstance(parent, (N.PyUnOp, N.Truth)):
        return True
    if isinstance(parent, N.PyCompare):
        return all(op in _ORDER for op in parent.ops)
    if isinstance(parent, N.PyIfExp):
        return e is parent.cond
    if isinstance(parent, N.PyCall):
        f = parent.callee
        if any(v is e for v in parent.kwargs.values()):
            return False
        if any(f is g for g in _VALUE_CALLS) or getattr(f, "__module__", None) == "math" \
                or getattr(math, getattr(f, "__name__", ""), None) is f:
            return True
        return isinstance(f, np.ufunc) and "out" not in parent.kwargs \
            and len(parent.args) <= f.nin
    return False


def check(fn: N.Function, fail) -> None:
    """``fail(line, construct, detail)`` at the first all-number ``np.where`` whose
    0-d array result would be seen as more than its value."""
    sites, parents, reads, inplace = [], {}, {}, set()
    for s in N.walk_stmts(fn.body):
        if isinstance(s, N.Assign) and s.inplace:
            inplace.add(s.target)
        for top in N.stmt_exprs(s):
            if top is None:
                continue
            parents[id(top)] = (s, None)
            for x in N.walk_expr(top):
                if _zero_d_call(x):
                    sites.append(x)
                if isinstance(x, N.Var):
                    reads.setdefault(x.name, []).append(x)
                for k in x.children():
                    parents[id(k)] = (s, x)

    def value_only(e, seen) -> bool:
        s, parent = parents[id(e)]
        if parent is not None:
            return _reads_value(parent, e)
        if isinstance(s, (N.If, N.PyWhile, N.ExprStmt)):
            return True
        if isinstance(s, (N.Store, N.PySetItem)):
            return e is s.value
        if isinstance(s, N.Assign) and e is s.value and not s.inplace:
            name = s.target
            if name in inplace or name in fn.params:
                return False
            if name in seen:
                return True
            seen.add(name)
            return all(value_only(v, seen) for v in reads.get(name, ()))
        return False

    for e in sites:
        if not value_only(e, set()):
            s, _ = parents[id(e)]
            fail(s.line, "use of np.where() of numbers",
                 "NumPy returns a 0-d array there, which compiled code holds as a "
                 "number: it compiles where only the value is read (arithmetic, "
                 "comparisons, float(), math functions, stores into arrays)")
