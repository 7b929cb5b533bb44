"""Divisions by a local that is a Python number until a NumPy scalar of the same
type replaces it.

``v = 0; for x in a: v += x`` -- after one item ``v`` is an ``np.int64`` (NEP
50), before any it is the Python int ``0``.  One compiled type (int64) holds
both, and the local is read with NumPy's semantics, which is right for every
value -- except where Python's and NumPy's rules differ on the same value:
division by zero.  ``1.0 / v`` of the Python ``0`` raises ZeroDivisionError;
of ``np.int64(0)`` it is ``inf`` (with NumPy's warning).  So is ``v / n`` of a
Python ``0.0`` by ``n = len(a) == 0``, the mean of an empty array.

:func:`check_divisions` keeps each such local's state in a bool local beside
every assignment (``infer/result_flags.py``'s ``state_rules``/``track_states``,
which do the same for results) and marks each ``/``, ``//``, ``%`` whose
semantics are NumPy's only because of such locals with ``zero_check``: (the
state locals, the message Python raises).  The lowering
(``passes/lower_semantics.py``) raises that error where every one of those
locals is still a Python number and the divisor is zero.  Locals whose state
cannot be told (a loop target, a parameter) are left as they were, and so is
hanajit's own library code, which is written for compiled semantics.
"""
from __future__ import annotations

from ..errors import zero_division_message
from ..ir import nodes as N
from ..ir import types as T
from ..lib import registry
from . import result_flags

_DIVISIONS = ("truediv", "floordiv", "mod")
_PYTHON = (T.INT64, T.FLOAT64, T.BOOL)


def same_type_locals(assigned: dict, mixed: dict, params) -> dict:
    """``{name: P}``: locals assigned a Python number of type P and NumPy
    scalars of the one type that holds both (int with np.int64, float or int
    with np.float64), not parameters."""
    out = {}
    for name, kinds in assigned.items():
        if name in mixed or name in params:
            continue
        weak = {t for t, strong in kinds if not strong and t in _PYTHON}
        strong = {t for t, strong in kinds if strong}
        if len(weak) == 1 and len(strong) == 1 and not next(iter(strong)).is_complex:
            out[name] = weak.pop()
    return out


def check_divisions(fn: N.Function, assigned: dict, mixed: dict, is_strong) -> None:
    """Mark the divisions that raise while the locals of ``same_type_locals``
    (``assigned``: name -> (type, strong) of its assignments; ``mixed``:
    ``weak_locals``') are Python numbers, and keep those locals' states (see the
    module doc).  Library code keeps compiled semantics."""
    locals_ = same_type_locals(assigned, mixed, fn.params)
    if not locals_ or registry.ours(fn):
        return
    sites = []
    for s in N.walk_stmts(fn.body):
        for root in N.stmt_exprs(s):
            for e in N.walk_expr(root) if root is not None else ():
                if isinstance(e, N.PyBinOp) and e.op in _DIVISIONS and e.numpy_semantics \
                        and isinstance(e.type, T.Scalar):
                    ours = [o.name for o in (e.left, e.right)
                            if isinstance(o, N.Var) and o.name in locals_]
                    others = [o for o in (e.left, e.right)
                              if not (isinstance(o, N.Var) and o.name in locals_)]
                    if ours and not any(is_strong(o) for o in others):
                        sites.append((e, ours, others))
    if not sites:
        return
    names = sorted({n for _, ours, _ in sites for n in ours})
    changing = {n: fn.locals.get(n) for n in names}
    rules = {}
    for n in names:
        r = result_flags.state_rules(fn, n, changing, {}, is_strong)
        if r is not None:
            rules[n] = r
    if not rules:
        return
    state = {n: fn.new_temp(T.BOOL, f"pystate_{n}_") for n in rules}
    result_flags.track_states(fn, state, rules)
    for e, ours, others in sites:
        if all(n in state for n in ours):
            types = [locals_[n] for n in ours] + [o.type for o in others]
            e.zero_check = ([state[n] for n in ours], zero_division_message(
                e.op, any(t.is_float for t in types)))
