"""Locals that hold a Python number of one type and NumPy scalars of a wider one.

``s = 0; for i in range(n): s = s + a[i]; return s`` of a float64 ``a`` -- in the
interpreter ``s`` is the Python int ``0`` until the loop runs and an
``np.float64`` after.  Compiled, ``s`` has one type, float64 (the types unify),
which holds the NumPy states exactly; but while ``s`` is still the Python int
its reads are a Python int's: ``return s`` gives ``0``, not ``0.0``; ``s * 2``
is int arithmetic (``10**17 + 1`` stays exact); ``s // 0`` raises.

Reads that give the same in both states need nothing: arithmetic or a
comparison whose other operand is a NumPy scalar of the local's own type (NumPy
converts the Python number to that type exactly as the compiled local holds
it: ``s + a[i]``).  Before any other statement reading such a local, a guard
re-runs the call in the interpreter (deoptimises) while the local still holds
the Python number: its state is a bool local ``$pyn_<name>`` kept beside every
assignment (True after a Python number, False after a NumPy scalar, unchanged
after ``s = s + 1``).  A loop condition reading it, or an assignment whose
result kind cannot be told, falls back.  The common case -- the loop ran, or
the local is only added to -- costs nothing.

Locals holding a Python float and complex NumPy scalars (``t = 0.0; t = t +
z[i]``) and a Python bool and int64 ones are the same case.
"""
from __future__ import annotations

from ..ir import nodes as N
from ..ir import types as T
from .result_flags import state_rules

_ARITH = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow")
_CMP = ("lt", "le", "gt", "ge", "eq", "ne")
_BLOCKS = ("then", "orelse", "body")


def widened(fn, assigned: dict, mixed: dict) -> dict:
    """``{name: held type}`` for the locals of the module doc: assigned a Python
    number whose type is not the one that holds it, and NumPy scalars."""
    out = {}
    for name, kinds in assigned.items():
        held = fn.locals.get(name)
        if name in mixed or name in fn.params or name.startswith("$") or \
                not isinstance(held, T.Scalar) or held not in T.PYTHON_KINDS:
            continue
        weak = {t for t, strong in kinds if not strong}
        if any(strong for _, strong in kinds) and any(t != held for t in weak):
            out[name] = held
    return out


def guard(fn, assigned: dict, mixed: dict, is_strong, fail, plan=None) -> None:
    """Insert the states and guards of the module doc into ``fn``'s body;
    ``plan``: ``fn``'s result flags (``result_flags.plan``), which box a returned
    local in its Python state as its Python number."""
    locals_ = widened(fn, assigned, mixed)
    if not locals_:
        return
    changing = dict(locals_)
    rules = {}
    for name in locals_:
        r = state_rules(fn, name, changing, {}, is_strong)
        if r is None:
            line = next((s.line for s in N.walk_stmts(fn.body)
                         if getattr(s, "target", None) == name), 0)
            fail(line, "variable type change", _words(name, locals_[name]) + " in a way "
                 "the compiler cannot follow; start it as a NumPy scalar "
                 f"(np.{locals_[name]}(...)) or as a {locals_[name].name} value")
        rules[name] = r
    state = {name: fn.new_temp(T.BOOL, f"pyn_{name}_") for name in locals_}
    boxed = _boxed_returns(fn, plan, locals_)
    fn.body = _walk(fn.body, locals_, rules, state, is_strong, fail, boxed, top=True)


def _words(name, held) -> str:
    py = {T.FLOAT64: "float", T.COMPLEX128: "complex", T.INT64: "int"}.get(held, held)
    return (f"'{name}' is a Python number on some runs and a NumPy {py} on others, "
            "and it is read")


def _boxed_returns(fn, plan, locals_) -> set:
    """The ``Var`` reads (by identity) that are whole leaves of a returned value
    which the result flags box as the local's Python number in its Python state."""
    if plan is None:
        return set()
    out = set()

    def leaves(v, t):
        if isinstance(t, T.TupleType):
            if isinstance(v, N.MakeTuple) and len(v.items) == len(t.items):
                for it, tt in zip(v.items, t.items):
                    leaves(it, tt)
            return
        if isinstance(v, N.Var) and v.name in locals_ and isinstance(t, T.NumpyScalarIf) \
                and t.python is not None and t.held == locals_[v.name]:
            out.add(id(v))

    for s in N.walk_stmts(fn.body):
        if isinstance(s, N.Return) and s.value is not None:
            leaves(s.value, plan.marks)
    return out


def _exact(name, held, state, line):
    """Deoptimise where a Python int returned from a float64 (or complex) local
    may have been rounded when it was stored: beyond 2**53."""
    if not (held.is_float or held.is_complex):
        return []
    v = N.Var(name, held)
    if held.is_complex:
        v = N.ComplexPart(v, "real", T.FLOAT64)
    big = N.Cmp("ge", N.Intrinsic("fabs", [v], T.FLOAT64), N.Const(2.0 ** 53, T.FLOAT64),
                T.BOOL)
    return [N.If(cond=N.Var(state, T.BOOL), then=[N.If(cond=big, then=[N.Raise(
        exc=OverflowError, deopt=True, line=line,
        message=f"'{name}' holds a Python int beyond 2**53 in a float")], line=line)],
        line=line)]


def _walk(body, locals_, rules, state, is_strong, fail, boxed, top=False, known=()):
    """``known``: the locals certainly NumPy scalars where ``body`` starts (an
    assignment that makes one earlier, in the same block or one around it, and
    none since): their reads need no guard."""
    out = []
    known = set(known)
    if top:                 # (not assigned yet: no read can run)
        out += [N.Assign(target=state[n], value=N.Const(False, T.BOOL)) for n in locals_]
    for s in body:
        for attr in _BLOCKS:
            sub = getattr(s, attr, None)
            if isinstance(sub, list):
                inner = known - {getattr(x, "target", None) for x in N.walk_stmts(sub)}
                setattr(s, attr, _walk(sub, locals_, rules, state, is_strong, fail, boxed,
                                       known=inner))
        read = [n for n in _unsafe_reads(s, locals_, is_strong, boxed) if n not in known]
        if isinstance(s, N.Return) and s.value is not None:
            for e in N.walk_expr(s.value):
                if id(e) in boxed and e.name not in read:
                    out += _exact(e.name, locals_[e.name], state[e.name], s.line)
        if read and isinstance(s, N.PyWhile):
            fail(s.line, "loop condition", _words(read[0], locals_[read[0]]) + " by the "
                 "condition of a while loop; start it as a NumPy scalar "
                 f"(np.{locals_[read[0]]}(...))")
        for name in read:
            guard = N.Raise(exc=TypeError, deopt=True, line=s.line,
                            message=f"'{name}' still holds a Python number here (the "
                                    "interpreter computes with it as one)")
            guard.hj_state_guard = name     # (pipeline: not after a write into arrays)
            out.append(N.If(cond=N.Var(state[name], T.BOOL), then=[guard], line=s.line))
        out.append(s)
        target = getattr(s, "target", None)
        known -= {getattr(x, "target", None) for x in N.walk_stmts([s])}
        if isinstance(s, N.Assign) and target in locals_:
            now = rules[target].get(id(s))
            if now is not None:         # (None: unchanged, ``s = s + 1``)
                out.append(N.Assign(target=state[target], value=N.Const(not now, T.BOOL),
                                    line=s.line))
            if now is True:
                known.add(target)
    return out


def _unsafe_reads(s, locals_, is_strong, boxed) -> list:
    """The locals of ``locals_`` that statement ``s`` itself reads other than as
    an operand beside a NumPy scalar of their own type or as a returned leaf the
    result flags box (``boxed``)."""
    found = []
    for root in N.stmt_exprs(s):
        if root is None:
            continue
        safe = set(boxed)
        for e in N.walk_expr(root):
            pairs = []
            if isinstance(e, N.PyBinOp) and e.op in _ARITH:
                pairs = [(e.left, e.right), (e.right, e.left)]
            elif isinstance(e, N.PyCompare) and len(e.ops) == 1 and e.ops[0] in _CMP:
                a, b = e.operands
                pairs = [(a, b), (b, a)]
            for mine, other in pairs:
                if isinstance(mine, N.Var) and mine.name in locals_ and \
                        getattr(other, "type", None) == locals_[mine.name] and \
                        is_strong(other) and not any(
                            isinstance(x, N.Var) and x.name in locals_
                            for x in N.walk_expr(other)):
                    safe.add(id(mine))
        for e in N.walk_expr(root):
            if isinstance(e, N.Var) and e.name in locals_ and id(e) not in safe \
                    and e.name not in found:
                found.append(e.name)
    return found
