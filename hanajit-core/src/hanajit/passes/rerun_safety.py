"""Checks that a compiled call which may re-run in the interpreter can: a call
that has written into arrays (or printed, or drawn random numbers) cannot be
re-run, so the constructs that need one fall back at compile time instead of
raising ``UnsupportedError`` when they are reached (``docs/architecture.md``,
deoptimisation)."""
from __future__ import annotations

from ..errors import CLEAN, UnsupportedError
from ..ir import nodes as N
from ..ir import types as T
from .writes import written_before


def draws_argument(fn) -> bool:
    """Does ``fn`` take a random generator (``np.random.Generator``,
    ``random.Random``), whose draws a re-run in the interpreter would repeat?"""
    def holds(t):
        return isinstance(t, T.GeneratorType) or isinstance(t, T.TupleType) and any(
            holds(i) for i in t.items)
    return any(holds(t) for t in getattr(fn, "arg_types", ()) or ())


def no_cause_rerun(fn, writes) -> None:
    """``raise X from c``, and ``raise X`` in an except or finally clause, re-run
    the call in the interpreter (``Raise.deopt`` RERUN: frontend/builder.s_Raise),
    which a call writing into arrays (or drawing from a generator argument:
    ``draws_argument``) cannot: such a function falls back rather than raise
    ``X`` without its ``__cause__``/``__context__``."""
    if not writes:
        return
    for s in N.walk_stmts(fn.body):
        construct = getattr(s, "hj_cause", "") if isinstance(s, N.Raise) else ""
        if construct:
            name = fn.pyname or fn.name
            raise UnsupportedError(f"{name}: unsupported {construct} in a function that "
                                   "may write into arrays or draw from a generator "
                                   "argument (compiled code cannot give the "
                                   "exception its cause or context, nor re-run such a "
                                   "call)", func=name, construct=construct)


def no_guard_after_writes(fn, is_entry: bool, entry_writes: bool) -> None:
    """A read of a local that may still hold a Python number re-runs the call in
    the interpreter (``infer/widened_locals``), which a call that has written
    into arrays, printed or drawn cannot: in the entry, such reads that nothing of
    the kind precedes re-run even if writes follow (``errors.CLEAN``), and the
    function falls back where one may follow; in a callee of an entry that may
    write into arrays, it falls back."""
    guards = {id(s): s for s in N.walk_stmts(fn.body)
              if isinstance(s, N.Raise) and getattr(s, "hj_state_guard", None)}
    if not guards:
        return
    if is_entry:
        hit = written_before(fn, lambda s: id(s) in guards, effects=True)
        if hit is None:
            for g in guards.values():
                g.deopt = CLEAN
            return
    elif not entry_writes:
        return                      # (a deopt, re-run where the call is pure)
    else:
        hit = next(iter(guards.values()))
    name = fn.pyname or fn.name
    local = hit.hj_state_guard
    raise UnsupportedError(
        f"{name} ({getattr(fn, 'filename', '?')}:{hit.line}): unsupported variable type "
        f"change: '{local}' may still hold a Python number where it is read after the "
        "function has written into an array (or printed, or drawn random numbers), and "
        "compiled code can neither compute with it as one nor re-run such a call; start "
        "it as a NumPy scalar (np.float64(...), np.int64(...))", func=name, line=hit.line,
        construct="variable type change")
