"""Results the interpreter returns as a NumPy scalar on some calls and a Python
number on others.

``acc = 0.0; for v in x32: acc += v * v; return acc`` returns the Python float
``0.0`` when the loop does not run and an ``np.float32`` when it does (NEP 50:
``acc`` becomes a NumPy scalar at the first ``+=``, ``infer/weak_locals.py``);
``return 0.0`` on one path and ``return a[i]`` on another return a Python float or
an ``np.float64``.  One compiled type holds the value either way; which box the
interpreter would use is a run-time fact.

:func:`plan` finds such scalar leaves of the return value and makes each a bool
local, ``$np<k>``, set before every ``return`` -- a constant where the returned
expression decides it, or the state of a local that changes type, which is kept
in ``$npv_<name>`` beside every assignment to it (False at the start: a
parameter holds a Python number).  It gives the marked result type, whose
dynamic leaves are :class:`~hanajit.ir.types.NumpyScalarIf`.  Only an entry
function returns its flags, on targets that box results in this process:
``passes/result_flags.py`` inserts them and appends them to each returned
value.  Elsewhere nothing changes and those leaves keep the static rule.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..ir import nodes as N
from ..ir import types as T
from .numpy_results import assignments, python_number

NP, PY = "np", "py"


def plan(fn: N.Function, is_strong, kinds: dict, mixed: dict):
    """A :class:`Plan` when some leaf of ``fn``'s result is a NumPy scalar on some
    calls only, else None (the body is not changed: :meth:`Plan.apply` does it).  ``kinds``: per local, the (type, NumPy scalar?) of its
    assignments; ``mixed``: the locals that change type (``weak_locals``).  Call
    after inference and before the coercions, as
    :func:`numpy_results.numpy_result`."""
    rt = fn.return_type
    if not isinstance(rt, (T.Scalar, T.TupleType)):
        return None
    assigned = assignments(fn)
    returns = [s for s in N.walk_stmts(fn.body) if isinstance(s, N.Return)]
    if not returns or any(s.value is None for s in returns):
        return None
    # locals assigned a Python number and NumPy scalars of one type S: their
    # state is tracked, and S boxes them (held exactly in the local's type)
    changing = {}
    for name, got in kinds.items():
        strong = {t for t, st in got if st}
        if len(strong) == 1 and any(not st for _, st in got):
            changing[name] = mixed[name][1] if name in mixed else next(iter(strong))
    rules = {name: r for name in changing
             if (r := state_rules(fn, name, changing, mixed, is_strong)) is not None}

    def states(v, t):
        """Per scalar leaf of ``t``: NP, PY or the name of a tracked local."""
        if isinstance(t, T.TupleType):
            items = v.items if isinstance(v, N.MakeTuple) and len(v.items) == len(
                t.items) else [None] * len(t.items)
            return [x for it, tt in zip(items, t.items) for x in states(it, tt)]
        if not isinstance(t, T.Scalar):
            return [None]                       # (arrays: not this module's)
        if t not in T.PYTHON_KINDS:
            return [NP]
        if v is None or python_number(v, assigned):
            return [PY]
        if isinstance(v, N.Var) and v.name in rules:
            return [v.name]
        return [NP if is_strong(v) else PY]

    def own_types(v, t):
        """Per scalar leaf of ``t``: the type of the returned expression there
        (``return y[0] * y[1]`` of float32 ``y`` under a float64 result)."""
        if isinstance(t, T.TupleType):
            items = v.items if isinstance(v, N.MakeTuple) and len(v.items) == len(
                t.items) else [None] * len(t.items)
            return [x for it, tt in zip(items, t.items) for x in own_types(it, tt)]
        vt = getattr(v, "type", None)
        held = isinstance(vt, T.Scalar) and isinstance(t, T.Scalar) and (
            (vt.kind == t.kind and vt.bits <= t.bits)
            or (vt.is_int and t.is_int and vt.bits < t.bits))  # (uint16 in int64)
        return [vt if held else t]

    def python_types(v, t, got):
        """Per scalar leaf: the types of the Python numbers it may be (``got``:
        its states in this return)."""
        if isinstance(t, T.TupleType):
            items = v.items if isinstance(v, N.MakeTuple) and len(v.items) == len(
                t.items) else [None] * len(t.items)
            out, k = [], 0
            for it, tt in zip(items, t.items):
                n = len(_leaf_types(tt))
                out += python_types(it, tt, got[k:k + n])
                k += n
            return out
        x = got[0]
        if x == PY:
            vt = getattr(v, "type", None)
            return [{vt} if vt in T.PYTHON_KINDS else {t}]
        if x not in (NP, None):
            return [{w for w, st in kinds[x] if not st}]
        return [set()]

    per_return = [states(s.value, rt) for s in returns]
    pythons = [set().union(*ps) for ps in zip(*[python_types(s.value, rt, got) for s, got
                                                 in zip(returns, per_return)])]
    leaves = list(zip(*per_return))
    owns = list(zip(*[own_types(s.value, rt) for s in returns]))
    # the NumPy type of each leaf when it is one: the returned value's own, or
    # the type a local that changes type takes (held in the Python number's
    # type, exactly)
    bases = [{owns[k][r] if x == NP else changing[x] for r, x in enumerate(got)
              if x not in (PY, None)} for k, got in enumerate(leaves)]
    dynamic = [k for k, got in enumerate(leaves)
               if None not in got and set(got) != {NP} and set(got) != {PY}
               and len(bases[k]) == 1]
    if not dynamic:
        return None
    used = sorted({x for k in dynamic for x in leaves[k] if x not in (NP, PY)})
    flag_of = {k: (i, next(iter(bases[k])), next(iter(pythons[k]))
                   if len(pythons[k]) == 1 else None) for i, k in enumerate(dynamic)}
    return Plan(_marked(rt, leaves, flag_of, iter(range(len(leaves)))), len(dynamic),
                {name: rules[name] for name in used},
                {id(s): [got[k] for k in dynamic] for s, got in zip(returns, per_return)})


@dataclass
class Plan:
    """What :func:`plan` found: ``marks`` (the result type, its dynamic leaves
    ``NumpyScalarIf``), the number of flags, per tracked local its state after
    each of its assignments (by the statement's identity; None: unchanged), and
    per ``return`` (likewise) each flag's source: NP, PY or a tracked local."""

    marks: T.Type
    flags: int
    tracked: dict
    returns: dict

    def applies_to(self, fn) -> bool:
        """Are ``fn``'s statements still the ones planned for?"""
        for s in N.walk_stmts(fn.body):
            if isinstance(s, N.Return) and id(s) not in self.returns:
                return False
            if isinstance(s, N.Assign) and s.target in self.tracked and \
                    id(s) not in self.tracked[s.target]:
                return False
        return True

    def apply(self, fn) -> tuple:
        """Insert the flags into ``fn``'s body: ``$npv_<name>`` beside each
        assignment of a tracked local (False at the start: a parameter holds a
        Python number), ``$np<k>`` before each ``return``; the flag locals."""
        state = {name: fn.new_temp(T.BOOL, f"npv_{name}_") for name in self.tracked}
        flags = [fn.new_temp(T.BOOL, "np") for _ in range(self.flags)]
        returns = [s for s in N.walk_stmts(fn.body) if isinstance(s, N.Return)]
        track_states(fn, state, self.tracked)
        for s in returns:
            N.splice(fn.body, s, [
                N.Assign(target=flag, value=_state(x, state), line=s.line)
                for flag, x in zip(flags, self.returns[id(s)])] + [s])
        return tuple(flags)


def _leaf_types(t) -> list:
    if isinstance(t, T.TupleType):
        return [x for i in t.items for x in _leaf_types(i)]
    return [t]


def _state(x, state):
    if x in (NP, PY):
        return N.Const(x == NP, T.BOOL)
    return N.Var(state[x], T.BOOL)


def _marked(t, leaves, flag_of, counter):
    if isinstance(t, T.TupleType):
        return T.TupleType(tuple(_marked(i, leaves, flag_of, counter) for i in t.items))
    k = next(counter)
    if k in flag_of:
        flag, base, python = flag_of[k]
        return T.NumpyScalarIf(base, flag, t, python if python != t else None)
    if isinstance(t, T.Scalar) and set(leaves[k]) == {NP}:
        return T.NumpyScalarArg(t)
    return t


def state_rules(fn, name, changing, mixed, is_strong):
    """Per assignment of ``name`` (by identity), its state after it: True/False,
    or None for "as it was" (``s = s + x`` with a Python-number ``x``); None
    when some assignment's state cannot be told (``name`` is then not tracked)."""
    out = {}
    for s in N.walk_stmts(fn.body):
        if getattr(s, "target", None) != name:
            continue
        if not isinstance(s, N.Assign):
            return None                 # (a loop target ...)
        v = s.value
        if name in mixed:               # its reads were checked: no state decides
            out[id(s)] = bool(is_strong(v))
            continue
        other = v
        if isinstance(v, N.PyBinOp):
            if isinstance(v.left, N.Var) and v.left.name == name:
                other = v.right
            elif isinstance(v.right, N.Var) and v.right.name == name:
                other = v.left
        if any(isinstance(e, N.Var) and e.name in changing for e in N.walk_expr(other)):
            if strong_anyway(v, changing, is_strong):     # ``t = t * 2 + a[i]``
                out[id(s)] = True
                continue
            return None
        strong = bool(is_strong(other))
        out[id(s)] = True if strong else (None if other is not v else False)
    return out


def strong_anyway(e, changing, is_strong) -> bool:
    """Is arithmetic ``e`` a NumPy scalar whatever state the locals that change
    type are in -- an operand is one without them (``t * 2 + a[i]``)?  Only
    arithmetic is looked through (a NumPy operand makes its result one)."""
    if isinstance(e, N.Var) and e.name in changing:
        return False
    if isinstance(e, N.PyBinOp):
        return strong_anyway(e.left, changing, is_strong) or \
            strong_anyway(e.right, changing, is_strong)
    if isinstance(e, N.PyUnOp) and e.op != "not":
        return strong_anyway(e.operand, changing, is_strong)
    if any(isinstance(x, N.Var) and x.name in changing for x in N.walk_expr(e)):
        return False
    return bool(is_strong(e))


def track_states(fn, state: dict, rules: dict) -> None:
    """``$npv_<name> = <is it a NumPy scalar now>`` after each assignment of a
    tracked local (``rules``: :func:`state_rules`), and False at the start."""
    def walk(body):
        out = []
        for s in body:
            for attr in ("then", "orelse", "body"):
                sub = getattr(s, attr, None)
                if isinstance(sub, list):
                    setattr(s, attr, walk(sub))
            out.append(s)
            if isinstance(s, N.Assign) and s.target in state:
                now = rules[s.target][id(s)]
                if now is not None:
                    out.append(N.Assign(target=state[s.target], line=s.line,
                                        value=N.Const(now, T.BOOL)))
        return out
    start = [N.Assign(target=flag, value=N.Const(False, T.BOOL),
                      line=fn.body[0].line if fn.body else 0) for flag in state.values()]
    fn.body = start + walk(fn.body)
