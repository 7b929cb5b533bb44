"""Unroll-and-jam: ``FACTOR`` iterations of an outer loop run side by side, so the
in-order float accumulations of their inner loops are independent chains.

A convolution, or any ``for j: s = 0.0; for k: s += ...; out[j] = s``, adds into
``s`` one value at a time, in order -- the order CPython adds in, so it must stay.
Each addition waits for the one before it: the loop runs at the latency of a float
add per element, with most of the CPU idle.  Running iterations ``j`` .. ``j + 3``
of the outer loop together gives four chains that do not wait for each other, and
each chain still adds its own values in its own order, so every result keeps every
bit::

    for j < n:                          for q < n // 4:
        s = 0.0                             s0 = 0.0; s1 = 0.0; s2 = 0.0; s3 = 0.0
        for k < m:                          for k < m:
            s = add(s, f(j, k))     ->          s0 = add(s0, f(4q, k)) ... s3 = add(s3, f(4q + 3, k))
        out[j] := s                         out[4q] := s0 ... out[4q + 3] := s3
                                        for r < n - 4 * (n // 4):      (the rest, as before)
                                            ...

Why the result is the same: the copies of one statement run in iteration order,
and only statements of *different* iterations change their order.  So it is
enough that no iteration sees what another one does:

- every local the body assigns is assigned before it is read in the same
  iteration (nothing flows from one iteration to the next), and none is read
  after the loop (each copy gets its own names);
- the body's only effects are stores, outside its inner loops, each array stored
  by one statement, and never read by the body; when the arrays read are not
  provably other memory than the arrays stored, a run-time test that they do not
  overlap picks the jammed loop, and the loop as it was runs otherwise;
- nothing raises, calls, allocates, breaks or returns (the copy of a nest that
  ``version_bounds`` proved in bounds has no index checks left);
- an inner loop runs the same number of times in every iteration (its count
  depends on nothing the outer iteration changes), so one loop serves the four.

It is applied to the innermost loop for which all this holds and whose inner loops
carry a float accumulation in order (not an integer one, nor one ``fastmath`` or
``reduce_reassoc=True`` lets LLVM vectorise), with a body of at most ``MAX_STMTS``
statements.  Not for HLS exports (``general_copies``), where code is area.
"""
from __future__ import annotations

from ..ir import nodes as N
from ..ir import types as T
from .interchange import disjoint
from .version_bounds import clone

I64, BOOL = T.INT64, T.BOOL
FACTOR = 4
MAX_STMTS = 80
UNROLLED = 32         # inner loops of at most this many iterations, known: unrolled
_ACCUMULATE = ("add", "sub", "mul")
# expressions with an effect, or whose memory the overlap test cannot see
_EFFECTS = (N.Call, N.Atomic, N.RandomBits, N.AllocArray, N.StackAddress,
            N.SharedArray, N.MakeGenerator, N.HostArray)


def jam_loops(fn: N.Function) -> bool:
    """Jam every loop of ``fn`` the rules above allow; True when one changed."""
    state = {"n": 0}

    def visit(body, path) -> bool:
        """Jam inside ``body``; True when something was (its loops then stay)."""
        out, changed = [], False
        for k, s in enumerate(body):
            here = path + [(body, k, s)]
            if isinstance(s, N.ForCount) and not isinstance(s, N.ParallelFor):
                if visit(s.body, here):
                    changed = True
                else:
                    new = _jam(fn, s, here, state)
                    if new is not None:
                        out.extend(new)
                        changed = True
                        continue
            elif isinstance(s, N.If):
                changed |= visit(s.then, here) | visit(s.orelse, here)
            elif isinstance(s, N.Loop):
                changed |= visit(s.body, here)
            out.append(s)
        body[:] = out
        return changed

    return visit(fn.body, [])


# -- the rules ---------------------------------------------------------------------
def _jam(fn, loop, path, state):
    """The statements replacing ``loop`` (``path``: the bodies and positions from
    the function's body down to it), or None where a rule above does not hold."""
    body = loop.body
    if loop.short or sum(1 for _ in N.walk_stmts(body)) > MAX_STMTS:
        return None
    if getattr(loop, "jammed", False) or not _pure(loop.count):
        return None
    inner = _inner_counters(body)
    if inner is None:
        return None
    assigned = _assigned(body) - inner
    if loop.counter in assigned:
        return None
    if set(fn.fastmath) & {"reassoc", "fast"} or not _accumulates(body, assigned,
                                                                  fn.locals):
        return None
    if not _statements_ok(body, top=True):
        return None
    if not _private(body, assigned):
        return None
    if _live_after(path, assigned | {loop.counter}):
        return None
    uniform = _uniform(body, assigned, inner, loop.counter)
    if uniform is None:
        return None
    stores, loads = _memory(body)
    if stores is None:
        return None
    if any(isinstance(fn.locals.get(v), T.ArrayType) for v in assigned):
        return None
    if set(stores) & set(loads) or set(stores) & assigned or set(loads) & assigned:
        return None
    fresh = _fresh(fn)
    guard = None
    for i, s in enumerate(stores):
        for a in loads + stores[i + 1:]:
            if s not in fresh or a in stores and a not in fresh:
                guard = _and(guard, disjoint(N.Var(s, fn.locals[s]),
                                              N.Var(a, fn.locals[a])))
    return _rewrite(fn, loop, assigned, uniform, guard, state)


def _inner_counters(body):
    """The counters of the loops inside ``body``, or None where a loop is under an
    ``If`` (each iteration could run it a different number of times)."""
    out = set()

    def walk(stmts, under_if):
        for s in stmts:
            if isinstance(s, N.ForCount):
                if under_if or isinstance(s, N.ParallelFor):
                    return False
                out.add(s.counter)
                if not walk(s.body, False):
                    return False
            elif isinstance(s, N.If) and not (walk(s.then, True)
                                              and walk(s.orelse, True)):
                return False
        return True
    return out if walk(body, False) else None


def _assigned(body) -> set:
    return {s.target for s in N.walk_stmts(body) if isinstance(s, N.Assign)}


def _accumulates(body, assigned, locals_) -> bool:
    """Does an inner loop carry a float value along (``s = add(s, ...)``)?  Not
    counting loops of a few iterations fixed at compile time: LLVM unrolls them
    whole, and then vectorises the outer loop, each lane its own chain."""
    for s in N.walk_stmts(body):
        if not isinstance(s, N.ForCount) or _small_constant(s.count):
            continue
        for t in N.walk_stmts(s.body):
            if (isinstance(t, N.Assign) and t.target in assigned
                    and isinstance(t.value, N.BinOp) and t.value.op in _ACCUMULATE
                    and not getattr(t.value, "reassoc", False)
                    and getattr(locals_.get(t.target), "is_float", False)
                    and any(isinstance(x, N.Var) and x.name == t.target
                            for x in (t.value.left, t.value.right))):
                return True
    return False


def _small_constant(e) -> bool:
    """Is ``e`` a constant no larger than ``UNROLLED`` (constants, ``+ - *``,
    compares, selects and casts of them)?"""
    def value(e):
        if isinstance(e, N.Const) and isinstance(e.value, (int, bool)):
            return int(e.value)
        if isinstance(e, N.Cast):
            return value(e.operand)
        if isinstance(e, N.Select):
            return value(e.a) if value(e.cond) else value(e.b)
        if isinstance(e, (N.BinOp, N.Cmp)):
            a, b = value(e.left), value(e.right)
            ops = {"add": a + b, "sub": a - b, "mul": a * b, "lt": a < b, "le": a <= b,
                   "gt": a > b, "ge": a >= b, "eq": a == b, "ne": a != b}
            if e.op in ops:
                return int(ops[e.op])
        raise ValueError(e)
    try:
        return value(e) <= UNROLLED
    except ValueError:
        return False


def _pure(e) -> bool:
    return not any(isinstance(x, _EFFECTS) for x in N.walk_expr(e))


def _statements_ok(stmts, top) -> bool:
    """Assignments, stores (outside inner loops), inner loops and ``If``s, all of
    pure expressions; nothing that leaves a loop, raises or calls out."""
    for s in stmts:
        if isinstance(s, N.Assign):
            if s.inplace or not _pure(s.value):
                return False
        elif isinstance(s, N.Store):
            if not top or not isinstance(s.array, N.Var):
                return False
            if not all(_pure(e) for e in [*s.indices, s.value]):
                return False
        elif isinstance(s, N.ForCount):
            if not _pure(s.count) or not _statements_ok(s.body, False):
                return False
        elif isinstance(s, N.If):
            if not (_pure(s.cond) and _statements_ok(s.then, top)
                    and _statements_ok(s.orelse, top)):
                return False
        else:
            return False
    return True


def _private(body, assigned) -> bool:
    """Is every local the body assigns assigned before it is read, in every
    iteration (no value flows from one iteration of the loop to the next)?"""
    def scan(stmts, defined):
        defined = set(defined)
        for s in stmts:
            for e in N.stmt_exprs(s):
                if (N.read_names(e) & assigned) - defined:
                    return None
            if isinstance(s, N.Assign):
                defined.add(s.target)
            elif isinstance(s, N.ForCount):
                if scan(s.body, defined) is None:
                    return None           # runs zero or more times: adds nothing
            elif isinstance(s, N.If):
                a, b = scan(s.then, defined), scan(s.orelse, defined)
                if a is None or b is None:
                    return None
                defined |= a & b
        return defined
    return scan(body, set()) is not None


def _live_after(path, names) -> bool:
    """May a statement that runs after the loop (``path[-1]``) read one of
    ``names`` before assigning it?  Conservative: each run of statements is
    scanned on its own, an assignment at its top level ending the name's life."""
    def reads(stmts):
        killed = set()
        for s in stmts:
            for t in N.walk_stmts([s]):
                for e in N.stmt_exprs(t):
                    if (N.read_names(e) & names) - killed:
                        return True
            if isinstance(s, N.Assign):
                killed.add(s.target)
        return False

    for body, k, _stmt in path:
        if reads(body[k + 1:]):
            return True
    # the statements before, which a loop around runs again
    for (body, k, _s), (_b, _k, outer) in zip(path[1:], path[:-1]):
        if isinstance(outer, (N.ForCount, N.Loop)) and reads(body[:k]):
            return True
    return False


def _uniform(body, assigned, inner, counter):
    """The locals every iteration gives the same value, or None when an inner
    loop's count is not among them."""
    level = {}                 # name -> assignments; under an If: not uniform

    def collect(stmts, under_if):
        for s in stmts:
            if isinstance(s, N.Assign):
                level.setdefault(s.target, []).append(None if under_if else s.value)
            elif isinstance(s, N.ForCount):
                collect(s.body, under_if)
            elif isinstance(s, N.If):
                collect(s.then, True)
                collect(s.orelse, True)
    collect(body, False)
    uniform = {v for v, vals in level.items() if None not in vals}
    while True:
        keep = {v for v in uniform
                if all(not (N.read_names(e) & ((assigned - uniform) | {counter}))
                       for e in level[v])}
        if keep == uniform:
            break
        uniform = keep
    varying = (assigned - uniform) | {counter}
    for s in N.walk_stmts(body):
        if isinstance(s, N.ForCount) and N.read_names(s.count) & varying:
            return None
    return uniform


def _memory(body):
    """(arrays stored, arrays read) by name; None where one array is stored by
    two statements of the body (the branches of one ``If`` are one statement: the
    copies of a statement run in order) or an access is not through a local."""
    stores, loads = [], []
    for top in body:
        here = {s.array.name for s in N.walk_stmts([top]) if isinstance(s, N.Store)}
        if here & set(stores):
            return None, None
        stores.extend(sorted(here))
    for s in N.walk_stmts(body):
        for e in N.stmt_exprs(s):
            for x in N.walk_expr(e):
                if isinstance(x, (N.Load, N.ArrayView)):
                    if not isinstance(x.array, N.Var):
                        return None, None
                    if x.array.name not in loads:
                        loads.append(x.array.name)
    return stores, loads


def _fresh(fn) -> set:
    """Locals that hold an array allocated in ``fn`` that no other name can reach:
    assigned once (an ``AllocArray``, or a local assigned once from one that
    nothing else reads), and read only as the array of accesses, attributes and
    the result."""
    assigns = {}
    for s in N.walk_stmts(fn.body):
        if isinstance(s, N.Assign):
            assigns.setdefault(s.target, []).append(s.value)
    plain = {}                    # reads other than as an access's array
    for s in N.walk_stmts(fn.body):
        exprs = list(N.stmt_exprs(s))
        if isinstance(s, N.Store):
            exprs = [*s.indices, s.value]
        elif isinstance(s, N.Return) and isinstance(s.value, N.Var):
            exprs = []
        for e in exprs:
            _plain_reads(e, plain)

    def allocated(name, seen=()):
        vals = assigns.get(name, [])
        if len(vals) != 1 or name in fn.params or name in seen:
            return False
        v = vals[0]
        if isinstance(v, N.AllocArray):
            return True
        # the source is read once: by this assignment
        return (isinstance(v, N.Var) and plain.get(v.name) == 1
                and allocated(v.name, seen + (name,)))
    return {name for name in assigns if allocated(name) and not plain.get(name)}


def _plain_reads(e, out):
    if isinstance(e, N.Var):
        out[e.name] = out.get(e.name, 0) + 1
        return
    if isinstance(e, (N.Load, N.ArrayAttr)) and isinstance(e.array, N.Var):
        for c in e.children()[1:]:
            _plain_reads(c, out)
        return
    for c in e.children():
        _plain_reads(c, out)


# -- the rewrite ---------------------------------------------------------------------
def _rewrite(fn, loop, assigned, uniform, guard, state):
    state["n"] += 1
    while f"$jam{state['n']}n" in fn.locals:     # names unique in the function
        state["n"] += 1
    tag = f"$jam{state['n']}"
    n, q, base = f"{tag}n", f"{tag}q", f"{tag}b"
    for v in (n, q, base):
        fn.locals[v] = I64

    def c(v):
        return N.Const(v, I64)

    def var(name):
        return N.Var(name, I64)

    names = {}
    for k in range(FACTOR):
        for v in sorted(assigned):         # (one order: the same IR text in every process)
            # a value every iteration shares is computed once, by the first copy
            names[(v, k)] = f"{v}{tag}.{0 if v in uniform else k}"
            fn.locals[names[(v, k)]] = fn.locals[v]
    counter = N.Var(loop.counter, I64)

    def copy_of(stmt, k):
        index = N.BinOp("add", N.BinOp("mul", var(q), c(FACTOR), I64), c(k), I64)
        return _renamed([clone(stmt)], {v: names[(v, k)] for v in assigned},
                        loop.counter, index)[0]

    def jam(stmts):
        out = []
        for s in stmts:
            if isinstance(s, N.ForCount):
                head = copy_of(N.ForCount(counter=s.counter, count=s.count,
                                          short=s.short, line=s.line), 0)
                head.body = jam(s.body)
                out.append(head)
            elif isinstance(s, N.Assign) and s.target in uniform:
                out.append(copy_of(s, 0))
            else:
                out.extend(copy_of(s, k) for k in range(FACTOR))
        return out

    jammed = N.ForCount(counter=q, count=N.BinOp("sdiv", var(n), c(FACTOR), I64),
                        body=jam(loop.body), line=loop.line)
    jammed.jammed = True
    rest = N.ForCount(counter=loop.counter,
                      count=N.BinOp("sub", var(n), var(base), I64),
                      body=_renamed(clone(loop.body), {}, loop.counter,
                                    N.BinOp("add", var(base), counter, I64)),
                      short=True, line=loop.line)
    rest.jammed = True
    # ForCount runs no iteration for a count <= 0
    count = N.Select(N.Cmp("lt", loop.count, c(0), BOOL), c(0), loop.count, I64)
    new = [N.Assign(target=n, value=count, line=loop.line), jammed,
           N.Assign(target=base, value=N.BinOp("mul", N.BinOp("sdiv", var(n), c(FACTOR),
                                                              I64), c(FACTOR), I64),
                    line=loop.line),
           rest]
    if guard is None:
        return new
    loop.jammed = True
    return [N.If(cond=guard, then=new, orelse=[loop], line=loop.line)]


def _renamed(stmts, names, counter, index):
    """``stmts`` (fresh copies) with locals renamed by ``names`` and the counter
    replaced by ``index``."""
    def expr(e):
        if isinstance(e, N.Var):
            if e.name == counter:
                return clone(index)
            new = names.get(e.name)
            return N.Var(new, e.type) if new else e
        kids = e.children()
        if kids:
            e.replace_children([expr(x) for x in kids])
        return e

    for s in N.walk_stmts(stmts):
        if isinstance(s, N.Assign):
            s.target = names.get(s.target, s.target)
            s.value = expr(s.value)
        elif isinstance(s, N.Store):
            s.array = expr(s.array)
            s.indices = [expr(x) for x in s.indices]
            s.value = expr(s.value)
        elif isinstance(s, N.ForCount):
            s.count = expr(s.count)
        elif isinstance(s, N.If):
            s.cond = expr(s.cond)
    return stmts


def _and(a, b):
    return b if a is None else N.BinOp("and", a, b, BOOL)
