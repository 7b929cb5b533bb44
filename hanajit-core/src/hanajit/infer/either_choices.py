"""A choice between a NumPy scalar and a Python number -- ``a if c else b``,
``x and y`` / ``x or y``, a chain ``0 <= i < a[0]`` -- as a whole assigned or
returned value: split into ``if`` statements.

``v = a[i] if i < n else 0.0`` -- in the interpreter ``v`` is an ``np.float64``
on some runs and the Python float ``0.0`` on others; one compiled value cannot
say which arm ran.  As ``if i < n: v = a[i] else: v = 0.0`` each assignment has
one kind, which the per-call states of ``result_flags``/``widened_locals``
follow (``return v`` is boxed as the arm that ran).  The same for ``return a
if c else b`` (two returns, each boxed by its own kind) and for the augmented
form ``s += d if d > 0 else 0.0`` (``s = s + (...)``: both branches read ``s``,
a local the condition cannot rebind; walrus targets are hoisted to statements by
the frontend).  ``return ok and a[i] > 0`` becomes ``t = ok; if t: return a[i]
> 0 else: return t``; a chain whose first two operands are plain names or
constants (read again) ``if 0 <= i: return i < a[0] else: return 0 <= i`` --
the first false pair is the result, as in CPython.  Nested choices split again.
A choice that is the first thing a larger assigned, returned or stored value
evaluates (``return 2 * (a[0] if c else 0)``, ``s = abs(x if c else 0.5) + 1``:
what is evaluated before it is constants and parameters) is held in a local
first -- split as above -- which the states follow like any local of either
kind (``v * 2`` of one follows its flag).  Other places such a choice appears
(behind work that could fail or change something, under ``and``/``or`` or another
choice) keep the rules of ``uncertain_kinds``.
"""
from __future__ import annotations

from ..ir import nodes as N
from ..ir import types as T
from .uncertain_kinds import definite, uncertain_locals

_BLOCKS = ("then", "orelse", "body")


def split(fn: N.Function, is_strong, assigned: dict, mixed: dict) -> bool:
    """Rewrite ``fn``'s body as the module doc says; True if anything changed.
    ``assigned``: per local, the (type, NumPy scalar?) of its assignments."""
    changed = [False]
    unc = uncertain_locals(fn, assigned, mixed)

    def either(e):
        return _mixed(e, is_strong, unc)
    either.strong = is_strong
    fn.body = _walk(fn, fn.body, either, changed)
    return changed[0]


def _mixed(e, is_strong, unc) -> bool:
    """Is ``e`` a choice that is a NumPy scalar on some runs only (``unc``: the
    locals that are)?"""
    if not isinstance(e, (N.PyIfExp, N.PyBoolOp, N.PyCompare, N.PyCall)) or \
            not isinstance(e.type, T.Scalar) or not is_strong(e) or \
            definite(e, is_strong, unc):
        return False
    if isinstance(e, N.PyCall):
        return e.callee in (min, max)
    if isinstance(e, N.PyCompare):      # (a chain of plain operands, read twice)
        return len(e.ops) > 1 and all(isinstance(o, (N.Var, N.Const))
                                      for o in e.operands[:2])
    return True


def _walk(fn, body, either, changed):
    out = []
    for s in body:
        for attr in _BLOCKS:
            sub = getattr(s, attr, None)
            if isinstance(sub, list):
                setattr(s, attr, _walk(fn, sub, either, changed))
        new = _split(fn, s, either)
        if new is None:
            out.append(s)
            continue
        changed[0] = True
        for x in new:
            if isinstance(x, N.If):
                x.then = _walk(fn, x.then, either, changed)
                x.orelse = _walk(fn, x.orelse, either, changed)
        out += new
    return out


def _split(fn, s, either):
    """The statements that replace ``s``, or None."""
    if isinstance(s, N.Return) and either(s.value) and not isinstance(s.value, N.PyCall):
        return _arms(fn, s.value, lambda x: N.Return(value=x, line=s.line), s.line)
    if isinstance(s, N.Return) and s.value is not None:
        return _hoisted(fn, s, either)
    if not isinstance(s, N.Assign) or not s.target:
        return None
    v = s.value
    mine = [isinstance(a, N.Var) and a.name == s.target
            for a in getattr(v, "args", ())] if isinstance(v, N.PyCall) else []
    if mine and v.callee in (min, max) and len(mine) == 2 and mine.count(True) == 1 and \
            not v.kwargs and either(v) and \
            not isinstance(v.args[mine.index(False)], (N.Var, N.Const)):
        # s = max(s, x.max()): the other value in a local first, so that the state
        # can follow CPython's pick (result_flags._pick)
        k = mine.index(False)
        t = fn.new_temp(v.args[k].type, "pick")
        first = N.Assign(target=t, value=v.args[k], line=s.line)
        v.args[k] = N.Var(t, first.value.type)
        return [first, s]
    if either(v) and not isinstance(v, N.PyCall):
        return _arms(fn, v, lambda x: N.Assign(target=s.target, value=x, line=s.line),
                     s.line)
    if (out := _hoisted(fn, s, either)) is not None:
        return out
    if isinstance(v, N.PyBinOp) and isinstance(v.left, N.Var) and \
            v.left.name == s.target and isinstance(v.right, N.PyIfExp) and \
            either(v.right) and isinstance(v.type, T.Scalar):
        return _arms(fn, v.right, lambda x: N.Assign(
            target=s.target, line=s.line, inplace=s.inplace,
            value=N.PyBinOp(v.op, N.Var(s.target, v.left.type), x)), s.line)
    return None


def _arms(fn, e, put, line) -> list:
    """``put(x)`` for each value ``e`` may give, under the test that picks it."""
    if isinstance(e, N.PyIfExp):
        return [N.If(cond=e.cond, then=[put(e.a)], orelse=[put(e.b)], line=line)]
    if isinstance(e, N.PyBoolOp):       # (t = first; if t: rest else: t -- for and)
        first = e.values[0]
        t = fn.new_temp(first.type, "choice")
        rest = e.values[1] if len(e.values) == 2 else N.PyBoolOp(e.op, e.values[1:],
                                                                  e.type)
        keep, go_on = [put(N.Var(t, first.type))], [put(rest)]
        test = N.Truth(N.Var(t, first.type), T.BOOL)
        return [N.Assign(target=t, value=first, line=line),
                N.If(cond=test, line=line, then=go_on if e.op == "and" else keep,
                     orelse=keep if e.op == "and" else go_on)]
    # a < b < c: the first pair decides whether the rest is the result
    a, b = e.operands[:2]
    pair = N.PyCompare(e.ops[:1], [a, b], T.BOOL)
    again = N.PyCompare(e.ops[:1], [_copy(a), _copy(b)], T.BOOL)
    rest = N.PyCompare(e.ops[1:], [_copy(b)] + e.operands[2:], T.BOOL)
    return [N.If(cond=pair, then=[put(rest)], orelse=[put(again)], line=line)]


def _copy(x):
    return N.Var(x.name, x.type) if isinstance(x, N.Var) else N.Const(x.value, x.type)


# nodes that evaluate their operands in order, each once, with no test between
_IN_ORDER = (N.PyBinOp, N.PyUnOp, N.PyCall, N.MakeTuple, N.Truth)


def _hoisted(fn, s, either):
    """``[t = choice (split), s]`` where the first thing ``s.value`` evaluates is
    a choice of either kind (module doc), or None."""
    params = set(fn.params)
    found = []

    def first(e) -> bool:
        """Search ``e``'s operands in evaluation order; False once one that is not
        inert (a constant or a parameter) has been passed."""
        for k, c in enumerate(e.children()):
            if either(c) and not isinstance(c, N.PyCall):
                found.append((e, k, c))
                return False
            if _carries(c, either.strong):
                if not first(c) or found:
                    return False
            elif not (isinstance(c, N.Const) or isinstance(c, N.Var) and c.name in params):
                return False
        return True

    v = s.value
    if not _carries(v, either.strong):
        return None
    first(v)
    if not found:
        return None
    parent, k, choice = found[0]
    t = fn.new_temp(choice.type, "choice")
    kids = parent.children()
    kids[k] = N.Var(t, choice.type)
    parent.replace_children(kids)
    return _arms(fn, choice, lambda x: N.Assign(target=t, value=x, line=s.line),
                 s.line) + [s]


def _carries(e, is_strong) -> bool:
    """Does ``e`` evaluate its operands in order, and is its kind the choice's
    (a NumPy scalar where an operand is: not ``float(x)``), or a tuple of them?"""
    if isinstance(e, N.PyCompare) and len(e.ops) != 1:
        return False
    if not isinstance(e, _IN_ORDER + (N.PyCompare,)) or isinstance(e, N.PyCall) and e.kwargs:
        return False
    return isinstance(e, N.MakeTuple) or is_strong(e)
