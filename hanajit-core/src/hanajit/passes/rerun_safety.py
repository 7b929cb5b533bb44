"""Checks that a compiled call which may re-run in the interpreter can: a call
that has written into arrays (or printed, or drawn random numbers) cannot be
re-run, so the constructs that need one fall back at compile time instead of
raising ``UnsupportedError`` when they are reached (``docs/architecture.md``,
deoptimisation)."""
from __future__ import annotations

from ..errors import CLEAN, RERUN, UnsupportedError
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


def clean_state_reads(fn, is_entry: bool) -> None:
    """``get_state()`` of a ``RandomState`` argument or of the global state
    re-runs the call in the interpreter when its bit generator is not an
    MT19937 (``lib/random/saved_state.py``: a clean deoptimisation), which only
    an entry that cannot have drawn, written or printed before it can: elsewhere
    the function falls back."""
    def reads(s):
        return next((c.hj_clean_deopt for e in N.stmt_exprs(s) if e is not None
                     for c in N.walk_expr(e) if getattr(c, "hj_clean_deopt", "")), "")
    marked = {id(s): s for s in N.walk_stmts(fn.body) if reads(s)}
    if not marked:
        return
    hit = written_before(fn, lambda s: id(s) in marked, effects=True) if is_entry \
        else next(iter(marked.values()))
    if hit is None:
        return
    name = fn.pyname or fn.name
    where = "after random draws, writes into arrays or prints" if is_entry else \
        "in a function called from compiled code"
    raise UnsupportedError(
        f"{name} ({getattr(fn, 'filename', '?')}:{hit.line}): unsupported "
        f"{reads(hit)} {where}: its bit generator is known only when it runs, and "
        "for one other than MT19937 (a dict) the call must re-run in the "
        "interpreter, which it no longer can", func=name, line=hit.line,
        construct="RandomState get_state")


def handler_context(fn) -> bool:
    """An error raised inside an ``except`` or ``finally`` clause (``a[i]``, ``x //
    0``) has the exception being handled as its ``__context__`` in CPython, which
    compiled code, holding no exception objects, cannot give it: in an entry where
    no write into an array, print, draw or call of another Python function can
    precede such a raise, it re-runs the call in the interpreter (``Raise.deopt``
    RERUN, as a ``raise X`` statement there does: frontend/builder.s_Raise) --
    a ``try`` around it inside the clause still catches it.  Elsewhere the
    exception reaches the caller without ``__context__`` (docs/limitations.md);
    the raises of callees too.  Returns whether it marked any."""
    inside = {}
    for clause in _clauses(fn.body):
        for r in N.walk_stmts(clause):
            if isinstance(r, N.Raise) and not r.deopt:
                inside[id(r)] = r
    if not inside or written_before(fn, lambda s: id(s) in inside, effects=True):
        return False
    for r in inside.values():
        r.deopt = RERUN
    return True


def _clauses(body):
    """The statement lists that run while an exception is handled: each ``Try``'s
    handlers, and the ``finally`` clauses (frontend/try_statements.py: the
    statements between a ``Try`` whose handler sets ``$fin..`` and the ``if
    $fin..: reraise`` -- they run on the normal path too, where a re-run costs
    time, not correctness)."""
    for s in N.walk_stmts(body):
        if isinstance(s, N.Try):
            yield s.then
        for attr in ("body", "then", "orelse"):
            stmts = getattr(s, attr, None)
            if isinstance(stmts, list):
                yield from _finally_bodies(stmts)
    yield from _finally_bodies(body)


def _finally_bodies(stmts):
    for k, s in enumerate(stmts):
        if not isinstance(s, N.Try):
            continue
        flags = {a.target for a in N.walk_stmts(s.then) if isinstance(a, N.Assign)
                 and isinstance(a.target, str) and a.target.startswith("$fin")}
        for m in range(k + 1, len(stmts)):
            t = stmts[m]
            if isinstance(t, N.If) and isinstance(t.cond, N.Var) and t.cond.name in flags:
                yield stmts[k + 1:m]
                break
