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

A returned expression of such a local and Python numbers (``v * 2``, ``1.0 /
v``) takes that local's state (:func:`follows_local`); a local assigned a copy
of one (``s = $sum1``) or added into (``total = total + s``) is tracked too
(:func:`_copies`), and so is one assigned arithmetic of several (``slope = num /
den``: NumPy's when any is).  A returned ``x if n > 1 else y`` or ``max(x, y)`` of
locals and constants sets its flag behind the same test, made again
(:func:`_choice`).  The Python number a leaf is may be an int held in a float64
(``s = 0; s += v`` of float64 items): it is boxed as the int.  A leaf that is
an int on some calls and a float on others cannot be told: ``fail``.  Leaves no
flag covers that are still of either kind fail in ``uncertain_kinds``.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..ir import nodes as N
from ..ir import types as T
from .numpy_results import assignments, python_number
from . import uncertain_kinds

NP, PY = "np", "py"
STATIC = "static"              # (a leaf whose expression is not known here)


def plan(fn: N.Function, is_strong, kinds: dict, mixed: dict, fail=None):
    """A :class:`Plan` when some leaf of ``fn``'s result is a NumPy scalar on some
    calls only, else None (the body is not changed: :meth:`Plan.apply` does it).
    ``kinds``: per local, the (type, NumPy scalar?) of its assignments; ``mixed``: the locals that change type (``weak_locals``).  Call
    after inference and before the coercions, as
    :func:`numpy_results.numpy_result`.  ``fail(line, construct, detail)``: where
    the Python number a leaf would be is an int on some calls and a float on
    others (one compiled type cannot say which)."""
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
    from .uncertain_kinds import uncertain_locals
    unknown = set(changing) | uncertain_locals(fn, kinds, mixed)
    rules = {name: r for name in changing if (r := state_rules(
        fn, name, unknown, mixed, is_strong, picks_tracked=True)) is not None}
    weak_of = {name: {x for x, st in kinds.get(name, ()) if not st} for name in rules}
    _copies(fn, kinds, rules, changing, weak_of, is_strong, unknown, mixed)
    _prune(rules, changing, weak_of)

    # tracked locals holding Python numbers of one type (not those that change
    # type, read by weak_locals' rules): arithmetic on them follows their state
    pythons = {name: next(iter(w)) for name, w in weak_of.items()
               if name not in mixed and len(w) == 1 and w != {T.BOOL}}

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
        if v is None:
            return [STATIC]                 # (an item of a tuple held in a name)
        if python_number(v, assigned):
            return [PY]
        if isinstance(v, N.Var) and v.name in rules:
            return [v.name]
        follows = follows_local(v, pythons, is_strong)
        if follows is not None:
            return [(FOLLOWS, follows[0])]
        several = _follows_locals(v, pythons, is_strong)
        if several is not None:
            return [(ANYOF, tuple(sorted(several[0])), several[1])]
        chosen = _choice(v)
        if chosen is not None:
            test, a, b = chosen
            sa, sb = states(a, t)[0], states(b, t)[0]
            simple = (NP, PY) + tuple(rules)
            if all(x in simple or isinstance(x, tuple) and x[0] == FOLLOWS
                   for x in (sa, sb)):
                pys = python_types(a, t)[0] | python_types(b, t)[0]
                return [sa] if sa == sb else [(SELECT, test, sa, sb, frozenset(pys))]
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

    def python_types(v, t):
        """Per scalar leaf of ``t``: the types of Python number it may be there."""
        if isinstance(t, T.TupleType):
            items = v.items if isinstance(v, N.MakeTuple) and len(v.items) == len(
                t.items) else [None] * len(t.items)
            return [x for it, tt in zip(items, t.items) for x in python_types(it, tt)]
        got = states(v, t)[0] if isinstance(t, T.Scalar) else None
        if isinstance(got, tuple) and got[0] == ANYOF:
            return [{got[2]}]
        if isinstance(got, tuple) and got[0] == SELECT:
            return [set(got[4])]
        if isinstance(got, tuple):
            return [{follows_local(v, pythons, is_strong)[1]}]
        if got == PY:
            vt = getattr(v, "type", None)
            return [{vt if vt in T.PYTHON_KINDS else t}]
        if got not in (NP, None):           # a tracked local: its Python numbers
            return [weak_of.get(got) or {t}]
        return [set()]

    per_return = [states(s.value, rt) for s in returns]
    leaves = list(zip(*per_return))
    owns = list(zip(*[own_types(s.value, rt) for s in returns]))
    # the NumPy type of each leaf when it is one: the returned value's own, or
    # the type a local that changes type takes (held in the Python number's
    # type, exactly)
    bases = [{owns[k][r] if x == NP or isinstance(x, tuple) else changing[x]
              for r, x in enumerate(got)
              if x not in (PY, None, STATIC)} for k, got in enumerate(leaves)]
    dynamic = [k for k, got in enumerate(leaves)
               if None not in got and STATIC not in got and set(got) != {NP}
               and set(got) != {PY} and len(bases[k]) == 1]
    if not dynamic:
        return None
    used = {n for k in dynamic for x in leaves[k] for n in _source_refs(x)}
    while True:                         # (and the locals they copy)
        more = {n for name in used for r in rules[name].values()
                for n in _rule_refs(r)} - used
        if not more:
            break
        used |= more
    used = sorted(used)
    pys = [set().union(*got) for got in zip(*[python_types(s.value, rt) for s in returns])]
    held = {}
    for k in dynamic:
        t = _leaf_types(rt)[k]
        p = pys[k] - {t}
        if not p:
            continue
        if len(pys[k]) == 1 and (p <= {T.INT64, T.BOOL} and t == T.FLOAT64 or p == {T.BOOL}
                                 and t == T.INT64 or t == T.COMPLEX128):
            held[k] = next(iter(p))     # (a Python int held in a float64: int(value))
        elif fail is not None:
            fail(returns[0].line, "variable type change", "the result is a Python "
                 f"{' or '.join(sorted(_PY_WORDS[x] for x in pys[k]))} on some calls "
                 "and a NumPy scalar on others, and one compiled type cannot say which "
                 "Python number; convert it (int(x), float(x)) or start it as a NumPy "
                 "scalar")
            return None
        else:
            return None
    flag_of = {k: (i, next(iter(bases[k])), held.get(k)) for i, k in enumerate(dynamic)}

    def exprs(v, t):
        if isinstance(t, T.TupleType):
            items = v.items if isinstance(v, N.MakeTuple) and len(v.items) == len(
                t.items) else [None] * len(t.items)
            return [x for it, tt in zip(items, t.items) for x in exprs(it, tt)]
        return [v]
    covered = frozenset(id(e) for s in returns for k, e in enumerate(exprs(s.value, rt))
                        if k in flag_of and e is not None)
    static = _leaf_types(fn.numpy_result) if fn.numpy_result is not None else []
    if len(static) != len(leaves):
        static = [None] * len(leaves)
    leaves = [got if STATIC not in got else (static[k],) for k, got in enumerate(leaves)]
    return Plan(_marked(rt, leaves, flag_of, iter(range(len(leaves)))), len(dynamic),
                {name: rules[name] for name in used},
                {id(s): [got[k] for k in dynamic] for s, got in zip(returns, per_return)},
                covered)


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
    covered: frozenset = frozenset()    # (the returned expressions the flags box)

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
                st for flag, x in zip(flags, self.returns[id(s)])
                for st in _set_flag(flag, x, state, s.line)] + [s])
        return tuple(flags)


_PY_WORDS = {T.INT64: "int", T.FLOAT64: "float", T.BOOL: "bool", T.COMPLEX128: "complex"}


def _copies(fn, kinds, rules, changing, weak_of, is_strong, unknown, mixed=()) -> None:
    """Track, beside ``rules``, locals assigned copies of tracked locals (``s =
    $sum1``, the total of ``sum(...)``): their state after such an assignment is
    the copied local's (``(COPY, name)``); arithmetic of several tracked locals
    and Python numbers (``slope = num / den``) is a NumPy scalar when any of them
    is one (``(ANYOF, names)``); other assignments read no tracked local.  Adds
    to ``rules``, ``changing`` and ``weak_of`` (Python types)."""
    grew = True
    while grew:
        grew = False
        pythons = {n: next(iter(w)) for n, w in weak_of.items()
                   if n in rules and n not in mixed and len(w) == 1 and w != {T.BOOL}}
        for name in kinds:
            if name in rules:
                continue
            out, sources, bad, own = {}, set(), False, set()
            for s in N.walk_stmts(fn.body):
                if getattr(s, "target", None) != name:
                    continue
                v = getattr(s, "value", None)
                if not isinstance(s, N.Assign):
                    bad = True
                    continue
                other = v
                if isinstance(v, N.PyBinOp) and v.op in _INT_OPS[:5] + ("truediv",):
                    if isinstance(v.left, N.Var) and v.left.name == name:
                        other = v.right
                    elif isinstance(v.right, N.Var) and v.right.name == name:
                        other = v.left
                several = _python_follow(v, pythons, is_strong) \
                    if not (isinstance(other, N.Var) and other.name in rules) else None
                if isinstance(other, N.Var) and other.name in rules:
                    # a copy, or ``acc = acc + t`` (NumPy's if either is)
                    out[id(s)] = (COPY if other is v else EITHER, other.name)
                    sources.add(other.name)
                elif several is not None and name not in several[0]:
                    out[id(s)] = (ANYOF, tuple(sorted(several[0])))
                    own.add((several[1], getattr(v, "type", None)))
                else:
                    kind = _arith_kind(v, name, unknown, is_strong)
                    if kind is _UNKNOWN:
                        bad = True
                    else:
                        out[id(s)] = kind
            bases = {changing[x] for x in sources} | {t for _, t in own}
            if name in changing:
                bases.add(changing[name])
            strong = {t for t, st in kinds[name] if st}
            if bad or not (sources or own) or len(bases) != 1 or not strong <= bases:
                continue
            rules[name] = out
            changing[name] = bases.pop()
            weak_of[name] = set().union(*(weak_of[x] for x in sources)) | {
                t for t, st in kinds[name] if not st} | {p for p, _ in own}
            grew = True


COPY, EITHER = "copy", "either"


def _leaf_types(t) -> list:
    if isinstance(t, T.TupleType):
        return [x for i in t.items for x in _leaf_types(i)]
    return [t]


def _state(x, state):
    if x in (NP, PY):
        return N.Const(x == NP, T.BOOL)
    return N.Var(state[x[1] if isinstance(x, tuple) else x], T.BOOL)


FOLLOWS = "follows"
_INT_OPS = ("add", "sub", "mul", "floordiv", "mod", "pow", "lshift", "rshift")


def follows_local(v, pythons: dict, is_strong):
    """``(name, P)`` where the one tracked local ``name`` decides whether ``v`` is a
    NumPy scalar (``1.0 / v``, ``s * 2 + 1``, ``abs(s)`` of a local ``s`` that is
    the Python ``0`` or an ``np.int64``: arithmetic with Python numbers) and ``P``
    is the type of Python number ``v`` is while ``name`` is one (its operations
    on which Python's and NumPy's rules differ re-run in the interpreter:
    ``uncertain_kinds``); else None.  ``pythons``: per tracked local, the type
    of the Python numbers it holds."""
    got = _python_follow(v, pythons, is_strong)
    return (got[0].pop(), got[1]) if got is not None and len(got[0]) == 1 else None


def _follows_locals(v, pythons: dict, is_strong):
    """``(names, P)`` where several tracked locals decide whether ``v`` is a NumPy
    scalar (``num / den``, ``my - slope * mx``: arithmetic of them and Python
    numbers, a NumPy scalar when any of them is one) and ``P`` is the type of
    Python number ``v`` is while none is; else None."""
    got = _python_follow(v, pythons, is_strong)
    return got if got is not None and len(got[0]) > 1 else None


def _python_follow(v, pythons: dict, is_strong):
    names = set()

    def py(x):
        if isinstance(x, N.Var) and x.name in pythons:
            names.add(x.name)
            return pythons[x.name]
        if isinstance(x, N.PyBinOp):
            if x.type not in T.PYTHON_KINDS:
                return None
            l, r = py(x.left), py(x.right)
            if l is None or r is None:
                return None
            if T.COMPLEX128 in (l, r):
                return None
            if x.op == "truediv":
                return T.FLOAT64
            if T.FLOAT64 in (l, r):
                return T.FLOAT64 if x.op in _INT_OPS[:6] else None
            return T.INT64 if x.op in _INT_OPS else None
        operand = x.operand if isinstance(x, N.PyUnOp) and x.op in ("neg", "pos") else \
            x.args[0] if isinstance(x, N.PyCall) and x.callee is abs and \
            len(x.args) == 1 and not x.kwargs else None
        if operand is not None:
            t = py(operand)
            return T.INT64 if t == T.BOOL else t
        t = getattr(x, "type", None)
        if t in T.PYTHON_KINDS and not is_strong(x) and not any(
                isinstance(y, N.Var) and y.name in pythons for y in N.walk_expr(x)):
            return t                        # (a Python number: 2, len(a), int(c))
        return None
    if not isinstance(v, (N.PyBinOp, N.PyUnOp, N.PyCall)):
        return None
    t = py(v)
    return (names, t) if t is not None and names else None


ANYOF, SELECT = "anyof", "select"


def _choice(v):
    """``(test, a, b)`` for a returned ``a if test else b`` whose test compares
    locals and constants (made again, fresh, where the flag is set), and for
    ``max(x, y)`` / ``min(x, y)`` of locals and constants (CPython keeps ``x``
    unless ``y`` is greater / smaller); else None."""
    def plain(x):
        return isinstance(x, (N.Var, N.Const)) and isinstance(getattr(x, "type", None),
                                                                T.Scalar)
    if isinstance(v, N.PyIfExp):
        c = v.cond
        if isinstance(c, N.PyCompare) and len(c.ops) == 1 and \
                c.ops[0] in ("lt", "le", "gt", "ge", "eq", "ne") and \
                all(plain(o) for o in c.operands):
            return N.PyCompare(list(c.ops), [_fresh(o) for o in c.operands], T.BOOL), v.a, v.b
        return None
    if isinstance(v, N.PyCall) and v.callee in (min, max) and len(v.args) == 2 \
            and not v.kwargs and all(plain(a) for a in v.args):
        x, y = v.args
        op = "gt" if v.callee is max else "lt"
        return N.PyCompare([op], [_fresh(y), _fresh(x)], T.BOOL), y, x
    return None


def _source_refs(x) -> set:
    """The tracked locals a returned leaf's state source reads."""
    if x in (NP, PY, STATIC, None) or isinstance(x, T.Type):
        return set()
    if isinstance(x, str):
        return {x}
    if x[0] == FOLLOWS:
        return {x[1]}
    if x[0] == ANYOF:
        return set(x[1])
    if x[0] == SELECT:
        return _source_refs(x[2]) | _source_refs(x[3])
    return set()


def _rule_refs(r) -> set:
    """The tracked locals an assignment's state rule reads."""
    if not isinstance(r, tuple):
        return set()
    if r[0] in (COPY, EITHER):
        return {r[1]}
    if r[0] == ANYOF:
        return set(r[1])
    if r[0] == PICK and isinstance(r[3], str):
        return {r[3]}
    return set()


def _prune(rules: dict, changing: dict, weak_of: dict) -> None:
    """Drop the tracked locals whose rules read a local that is not tracked, or
    one of another NumPy type or other Python numbers (a pick), until none is."""
    grew = True
    while grew:
        grew = False
        for name in list(rules):
            for r in rules[name].values():
                refs = _rule_refs(r)
                if any(n not in rules for n in refs) or isinstance(r, tuple) and \
                        r[0] == PICK and any(
                            changing.get(n) != changing.get(name) or
                            not weak_of.get(n, set()) <= weak_of.get(name, set())
                            for n in refs):
                    del rules[name]
                    grew = True
                    break


def _set_flag(flag, x, state, line) -> list:
    """The statements setting ``flag`` to what the state source ``x`` says."""
    if isinstance(x, tuple) and x[0] == ANYOF:
        return [N.Assign(target=flag, value=N.Const(False, T.BOOL), line=line)] + [
            N.If(cond=N.Var(state[n], T.BOOL), line=line, then=[
                N.Assign(target=flag, value=N.Const(True, T.BOOL), line=line)])
            for n in x[1]]
    if isinstance(x, tuple) and x[0] == SELECT:
        return [N.If(cond=x[1], then=_set_flag(flag, x[2], state, line),
                     orelse=_set_flag(flag, x[3], state, line), line=line)]
    return [N.Assign(target=flag, value=_state(x, state), line=line)]


def _marked(t, leaves, flag_of, counter):
    if isinstance(t, T.TupleType):
        return T.TupleType(tuple(_marked(i, leaves, flag_of, counter) for i in t.items))
    k = next(counter)
    if k in flag_of:
        flag, base, python = flag_of[k]
        return T.NumpyScalarIf(base, flag, t, python)
    if isinstance(t, T.Scalar) and set(leaves[k]) == {NP}:
        return T.NumpyScalarArg(t)
    if len(leaves[k]) == 1 and isinstance(leaves[k][0], T.Type):
        return leaves[k][0]             # (the static rule's mark: numpy_results)
    return t


def state_rules(fn, name, changing, mixed, is_strong, picks_tracked=False):
    """Per assignment of ``name`` (by identity), its state after it: True/False,
    or None for "as it was" (``s = s + x`` with a Python-number ``x``); None
    when some assignment's state cannot be told (``name`` is then not tracked).
    ``picks_tracked``: ``name = max(name, y)`` of another local ``y`` of either
    kind takes ``y``'s state when it keeps ``y`` (the caller drops ``name`` unless
    ``y`` is tracked too)."""
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
        pick = _pick(fn, v, name, changing, is_strong, picks_tracked)
        if pick is not None:
            out[id(s)] = pick
            continue
        kind = _arith_kind(v, name, changing, is_strong)
        if kind is _UNKNOWN:
            return None
        out[id(s)] = kind
    return out


PICK = "pick"


def _pick(fn, v, name, changing, is_strong, tracked=False):
    """``name = min(name, x)`` (``max``, either order) of an ``x`` of the local's
    own type that reads no local of either kind: ``(PICK, test, x wins when the
    test holds?, x's state)``, the test -- CPython's, made before the assignment
    -- saying whether ``x`` is the one kept; else None."""
    if not (isinstance(v, N.PyCall) and v.callee in (min, max) and len(v.args) == 2
            and not v.kwargs):
        return None
    first, second = v.args
    mine = [isinstance(a, N.Var) and a.name == name for a in v.args]
    if mine.count(True) != 1:
        return None
    x = second if mine[0] else first
    held = (fn.locals or {}).get(name)
    if not isinstance(x, (N.Var, N.Const)) or getattr(x, "type", None) != held or \
            isinstance(x, N.Var) and x.name in changing and not tracked:
        return None
    op = "lt" if v.callee is min else "gt"
    # min(name, x) keeps x when x < name; min(x, name) keeps name when name < x
    test = (N.PyCompare([op], [_fresh(x), N.Var(name, held)], T.BOOL) if mine[0] else
            N.PyCompare([op], [N.Var(name, held), _fresh(x)], T.BOOL))
    if isinstance(x, N.Var) and x.name in changing:
        return (PICK, test, mine[0], x.name)        # (that local's state: tracked)
    return (PICK, test, mine[0], bool(is_strong(x)))


def _fresh(x):
    return N.Var(x.name, x.type) if isinstance(x, N.Var) else N.Const(x.value, x.type)


_UNKNOWN = object()
_ARITH = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow")


def _arith_kind(v, name, changing, is_strong):
    """The state ``name = v`` leaves: True where ``v`` is arithmetic with a NumPy
    scalar operand (``r * 3 + a[i]``, ``d * (x - mean)`` of a NumPy ``d``:
    NumPy's whatever the other operands are), None where it is arithmetic on
    ``name`` itself and Python numbers (``s = -s``, ``r * 3 + 1``: the kind it
    had), False for a Python number, ``_UNKNOWN`` where another local that
    changes kind decides it."""
    from .uncertain_kinds import either_call
    seen = {"self": False, "strong": False, "unknown": False}

    def walk(x):
        if isinstance(x, N.Var) and x.name == name:
            seen["self"] = True
        elif isinstance(x, N.PyBinOp) and x.op in _ARITH:
            walk(x.left)
            walk(x.right)
        elif isinstance(x, N.PyUnOp) and x.op in ("neg", "pos"):
            walk(x.operand)
        elif isinstance(x, N.PyGetItem) and isinstance(getattr(x, "type", None), T.Scalar) \
                and isinstance(getattr(x.value, "type", None), T.ArrayType):
            seen["strong"] = True           # an array's item (``x = parent[x]``)
        elif any(isinstance(e, N.Var) and e.name in changing or either_call(e)
                 for e in N.walk_expr(x)):
            seen["unknown"] = True
        elif is_strong(x):              # (``d if d > 0 else 0.0``: either kind)
            seen["strong" if uncertain_kinds.definite(x, is_strong) else "unknown"] = True
    walk(v)
    if seen["strong"]:
        return True
    if seen["unknown"]:
        return _UNKNOWN
    return None if seen["self"] else False


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
            now = rules[s.target].get(id(s)) if isinstance(s, N.Assign) and \
                s.target in state else None
            if isinstance(now, tuple) and now[0] == PICK:   # (lo = min(lo, x)): before
                _, test, then, strong = now
                set_it = [N.Assign(target=state[s.target], line=s.line, value=N.Var(
                    state[strong], T.BOOL) if isinstance(strong, str) else
                    N.Const(strong, T.BOOL))]
                out.append(N.If(cond=test, then=set_it if then else [],
                                orelse=[] if then else set_it, line=s.line))
            out.append(s)
            if isinstance(s, N.Assign) and s.target in state:
                if isinstance(now, tuple) and now[0] == PICK:
                    pass
                elif isinstance(now, tuple) and now[0] == ANYOF:      # (q = num / den)
                    out.extend(_set_flag(state[s.target], now, state, s.line))
                elif isinstance(now, tuple) and now[0] == EITHER:     # (acc = acc + t)
                    out.append(N.If(cond=N.Var(state[now[1]], T.BOOL),
                                    then=[N.Assign(target=state[s.target], line=s.line,
                                                   value=N.Const(True, T.BOOL))],
                                    line=s.line))
                elif isinstance(now, tuple):        # (COPY, name): that one's state
                    out.append(N.Assign(target=state[s.target], line=s.line,
                                        value=N.Var(state[now[1]], T.BOOL)))
                elif now is not None:
                    out.append(N.Assign(target=state[s.target], line=s.line,
                                        value=N.Const(now, T.BOOL)))
        return out
    start = [N.Assign(target=flag, value=N.Const(False, T.BOOL),
                      line=fn.body[0].line if fn.body else 0) for flag in state.values()]
    fn.body = start + walk(fn.body)
