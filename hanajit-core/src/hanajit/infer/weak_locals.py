"""Locals that are a Python number first and a NumPy scalar later (NEP 50).

``acc = 0.0; for v in x32: acc += v * v`` -- in the interpreter, ``acc`` starts
as a Python float and becomes an ``np.float32`` at the first ``+=`` (a Python
number is *weak*: it adapts to the NumPy scalar's type), so the sum is computed
in float32.  ``s = 0; for v in u8: s += v`` wraps in uint8 the same way.

A compiled variable has one type.  Such a local -- assigned a Python number of
kind P (int, float, complex, bool) on some path and a NumPy scalar of one other
type S on another -- is stored in P's type and *read as a Python number*: at
``acc + v * v`` the weak rule converts it to float32, which is exactly what the
interpreter does in both of its states (converting a float32 value held in a
float64 is exact).  That is right wherever both states give the same result:

* an arithmetic operand whose other operand is a NumPy scalar O, when NumPy's
  promotion of (S, O) and of (a Python P, O) agree (``acc + v`` with float32
  ``v``; not ``acc + 1.5``, which is float64 while ``acc`` is a Python float and
  float32 after);
* a comparison with NumPy scalars only;
* the returned value, alone or in a tuple (the value is the same; it comes
  back as a Python number, see ``docs/semantics.md``);
* a value stored into an array of type S.

Any other read (``acc * 2.0``, ``np.sqrt(acc)``, ``y = acc``, passing it on)
could differ, so the function falls back to the interpreter with a message
saying how to keep it compiled: start from a NumPy scalar (``np.float32(0.0)``).
"""
from __future__ import annotations

import numpy as np

from ..ir import nodes as N
from ..ir import types as T
from ..lib import registry

_PYTHON_VALUE = {T.FLOAT64: 0.0, T.INT64: 0, T.COMPLEX128: 0j, T.BOOL: False}
_PY_NAME = {T.FLOAT64: "float", T.INT64: "int", T.COMPLEX128: "complex", T.BOOL: "bool"}


def mixed_locals(assigned: dict) -> dict:
    """``{name: (P, S)}`` for locals assigned a Python number of kind P (weak) and
    NumPy scalars of exactly one other type S (strong) that P's type does not
    widen to (float32, int8, uint8 ... -- not float64 after an int, which the
    local's one type holds as the interpreter does); ``assigned`` maps a name to
    the set of (type, strong) of its assignments."""
    from ..typing_rules import unify
    out = {}
    for name, kinds in assigned.items():
        weak = {t for t, strong in kinds if not strong and t in _PYTHON_VALUE}
        strong = {t for t, strong in kinds if strong}
        if len(weak) == 1 and len(strong) == 1:
            p, s = weak.pop(), strong.pop()
            if unify(p, s) != s:
                out[name] = (p, s)
    return out


def local_words(name: str) -> str:
    """A local's name as a fallback reason says it: the compiler's own locals
    (``$sum2``) by what they hold."""
    if not name.startswith("$"):
        return f"'{name}'"
    hint = name[1:].rstrip("0123456789")
    if hint in ("sum", "min", "max", "any", "all", "prod", "fsum"):
        return f"the running result of {hint}() on this line"
    return "a value the compiler keeps for this line"


def _advice(name: str, s, words) -> str:
    """How to keep a function compiled whose local ``name`` is a Python number on
    one path and a NumPy ``s`` scalar on another."""
    call = (words or {}).get(name, "")      # (Function.hidden_words: "sum(out)")
    if call.startswith(("sum(", "prod(")):   # (they start from a Python int or start=)
        start = f", np.{s}(0)" if call.startswith("sum(") else f", start=np.{s}(1)"
        return (f"{call} starts from a Python number before taking NumPy {s} items; "
                f"give it a NumPy start ({call[:-1]}{start})) to compile this function")
    return f"start it as a NumPy scalar (np.{s}(...)) to compile this function"


def check_held(name: str, kinds: set, line, fail, words=None) -> None:
    """Fail for a local that is a Python int on one path and a NumPy uint64 on
    another: no one type holds both (an int64 cannot hold the uint64 values from
    2**63, a uint64 not the negative ints, and their common type, float64, rounds
    both), so the interpreter runs it, told how to keep it compiled."""
    if (T.INT64, False) in kinds and (T.UINT64, True) in kinds:
        fail(line, "variable type change",
             f"{local_words(name)} is a Python int on one path and a NumPy uint64 "
             f"scalar on another, and no one type holds both; {_advice(name, 'uint64', words)}")


def check_narrow(body: list, assigned: dict, fail, words=None) -> None:
    """Fail for a local assigned a Python number and NumPy scalars of two or more
    types, one of which a Python number of its kind adapts to (``s = 0; s += v;
    s -= 1`` of float32 ``v``: the interpreter keeps ``s`` float32, the one
    compiled type would be their common float64)."""
    from ..typing_rules import unify
    for name, kinds in assigned.items():
        weak = {t for t, strong in kinds if not strong and t in _PYTHON_VALUE}
        strong = {t for t, strong in kinds if strong}
        if weak and len(strong) > 1:
            narrow = sorted(str(x) for x in strong if any(unify(p, x) != x for p in weak))
            if narrow:
                line = next((x.line for x in N.walk_stmts(body) if isinstance(x, N.Assign)
                             and x.target == name), 0)
                py = " or ".join(_PY_NAME[t] for t in _PYTHON_VALUE if t in weak)
                fail(line, "variable type change",
                     f"{local_words(name)} is a Python {py} on "
                     f"one path and NumPy scalars of types {', '.join(sorted(map(str, strong)))} "
                     f"on others (NumPy 2 keeps it {narrow[0]}); "
                     f"{_advice(name, narrow[0], words)}")


def _agree(p, s, other) -> bool:
    """Does NumPy promote (S, O) as it promotes (a Python P, O)?"""
    try:
        strong = np.result_type(np.dtype(T.numpy_name(s)), np.dtype(T.numpy_name(other)))
        weak = np.result_type(_PYTHON_VALUE[p], np.dtype(T.numpy_name(other)))
    except Exception:          # noqa: BLE001 - a type NumPy has no dtype for
        return False
    return strong == weak


def promotes_alike(p, s, other) -> bool:
    """Does NumPy promote a NumPy scalar of type ``s`` with ``other`` as it
    promotes a Python number of kind ``p`` with it (``infer/uncertain_kinds``)?"""
    return _agree(p, s, other)


def check_reads(body: list, mixed: dict, is_strong, fail, words=None) -> None:
    """Fail (``fail(line, construct, detail)``) at the first read of a mixed
    local whose result could depend on which state the local is in."""

    def bad(name, line, what):
        p, s = mixed[name]
        fail(line, "variable type change",
             f"{local_words(name)} changes type: a Python {_PY_NAME[p]}, then a NumPy "
             f"{s} scalar (NumPy 2 keeps it {s} from then on), and {what} would depend on "
             f"which it is; {_advice(name, s, words)}")

    def visit(e, line, allowed=False):
        if isinstance(e, N.PyCall) and registry.is_static(e):
            return                      # a question of types reads no value
        if isinstance(e, N.Var):
            if e.name in mixed and not allowed:
                bad(e.name, line, "this use of it")
            return
        if isinstance(e, N.PyBinOp):
            for mine, other in ((e.left, e.right), (e.right, e.left)):
                ok = False
                if isinstance(mine, N.Var) and mine.name in mixed:
                    p, s = mixed[mine.name]
                    ot = getattr(other, "type", None)
                    ok = (isinstance(ot, T.Scalar) and is_strong(other)
                          and _agree(p, s, ot))
                    if not ok:
                        bad(mine.name, line, "this operation on it")
                visit(mine, line, allowed=ok)
            return
        if isinstance(e, N.PyCompare):
            for k, o in enumerate(e.operands):
                if isinstance(o, N.Var) and o.name in mixed:
                    others = e.operands[:k] + e.operands[k + 1:]
                    if not all(is_strong(x) for x in others):
                        bad(o.name, line, "this comparison")
                    continue
                visit(o, line)
            return
        for c in e.children():
            if c is not None:
                visit(c, line)

    def returned(e, line):
        if isinstance(e, N.Var):
            return
        if isinstance(e, N.MakeTuple):
            for item in e.items:
                returned(item, line)
            return
        visit(e, line)

    for s in N.walk_stmts(body):
        line = s.line
        if isinstance(s, N.Return) and s.value is not None:
            returned(s.value, line)
        elif isinstance(s, N.PySetItem):
            visit(s.target, line)
            visit(s.index, line)
            v, t = s.value, getattr(s.target, "type", None)
            if isinstance(v, N.Var) and v.name in mixed:
                if not (isinstance(t, T.ArrayType) and t.dtype == mixed[v.name][1]):
                    bad(v.name, line, "storing it into this array")
            else:
                visit(v, line)
        else:
            for e in N.stmt_exprs(s):
                if e is not None:
                    visit(e, line)
