"""Proven algebraic rewrites (``@jit(rewrite=True)``); each fires on an exact pattern.

Two entry points, both called by ``pipeline.py`` only with the option:

* ``rewrite_polynomials(fn, ctx)`` -- on the typed Python-level IR, before
  ``lower_semantics``: a polynomial in one variable written term by term becomes
  Horner form.  Only int64 polynomials (NumPy int64 ``+ - *`` and ``x ** k`` wrap
  modulo 2**64, a ring, so every regrouping is exact; on Python ints each
  operation deoptimises beyond int64 and the interpreter gives the exact value,
  whichever grouping overflowed), or float64 ones under
  ``fastmath=True`` or any flag set with ``reassoc`` (where rounding may change:
  that is what the flag allows)::

      3*x**3 + 2*x**2 - x + 5   ->   ((3*x + 2)*x - 1)*x + 5

* ``rewrite_loops(fn, ctx)`` -- on the primitive IR, after ``lower_semantics``:

  - closed forms for int64 sums over a counted ``range`` loop whose body is exactly
    ``i = a + k*c`` (or ``i = k``) then ``s = s + e`` with ``e`` one of ``i``,
    ``i*i``, ``u*i``, ``i*u``, ``u*i + v``, ``i + v`` (``u``, ``v`` loop
    invariant)::

        for k < n:                        $n = n
            i = add(a, mul(k, c))    ->   s = add(s, <closed form of $n, a, c>)
            s = add(s, i)

    The count ``n`` is the loop's own (it already encodes empty and negative
    ranges and any step sign).  The formulas are evaluated with wrapping int64
    arithmetic, which is exactly what the loop computes modulo 2**64; the only
    divisions (``n(n-1)/2``, ``(n-1)n(2n-1)/6``) divide the exact factor that is
    divisible, in unsigned arithmetic on the true (non-wrapped) values, so they are
    exact too.  The pattern is refused when ``i`` or ``k`` is read outside the loop.
    On Python ints the body also holds overflow checks (``lib/python/int_overflow.py``):
    they are dropped, and the closed form deoptimises unless its terms and the sum,
    estimated in float64, are all within 2**62 -- then the exact sum fits int64
    and equals the wrapped closed form (``_fits_check``).
  - loop-invariant hoisting: a non-trivial scalar sub-expression of a counted
    loop's body that reads no variable assigned in the loop, no memory (``Load``)
    and cannot trap (no integer division, no float-to-int cast) is computed once
    into a temporary before the loop.
"""

from __future__ import annotations

import copy

from ..ir import nodes as N
from ..ir import types as T

I64 = T.INT64
U64 = T.UINT64

# ------------------------------------------------------------------ polynomials


def _clone(e):
    """A copy of the tree ``e`` (types shared)."""
    c = copy.copy(e)
    kids = list(c.children())
    if kids:
        c.replace_children([_clone(k) for k in kids])
    return c


def _unshare(e, seen=None):
    """Copy every subtree of ``e`` that occurs more than once, so that no node of
    the IR has two parents (later passes may annotate nodes in place)."""
    seen = set() if seen is None else seen
    seen.add(id(e))
    kids = list(e.children())
    if kids:
        new = []
        for k in kids:          # one at a time: a sibling's subtree counts as seen
            new.append(_unshare(_clone(k) if id(k) in seen else k, seen))
        e.replace_children(new)
    return e


def _signed_terms(e, sign, out):
    """Flatten a tree of ``add``/``sub``/``neg`` into (sign, term) pairs."""
    if isinstance(e, N.PyBinOp) and e.op in ("add", "sub"):
        _signed_terms(e.left, sign, out)
        _signed_terms(e.right, sign if e.op == "add" else -sign, out)
    elif isinstance(e, N.PyUnOp) and e.op == "neg":
        _signed_terms(e.operand, -sign, out)
    else:
        out.append((sign, e))


def _const_value(e, t):
    if isinstance(e, N.Const) and type(e.value) in (int, float) and e.type == t:
        return e.value
    return None


def _monomial(e, t):
    """(coefficient, variable name, degree) of ``c``, ``x``, ``x**k``, ``c*x**k``,
    ``x**k*c`` with every node of type ``t``; None otherwise."""
    c = _const_value(e, t)
    if c is not None:
        return c, None, 0
    if e.type != t:
        return None
    if isinstance(e, N.Var):
        return 1, e.name, 1
    if (
        isinstance(e, N.PyBinOp)
        and e.op == "pow"
        and isinstance(e.left, N.Var)
        and e.left.type == t
        and isinstance(e.right, N.Const)
        and type(e.right.value) is int
        and 0 <= e.right.value <= 64
    ):
        return 1, e.left.name, e.right.value
    if isinstance(e, N.PyBinOp) and e.op == "mul":
        for cst, rest in ((e.left, e.right), (e.right, e.left)):
            c = _const_value(cst, t)
            m = _monomial(rest, t) if c is not None else None
            if m is not None and m[1] is not None:
                return c * m[0], m[1], m[2]
    return None


def _wrap(v):
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >> 63 else v


def _horner(e):
    """Horner form of ``e`` when it is a polynomial of degree >= 2 in one
    variable written with at least three terms; else None."""
    t = e.type
    terms = []
    _signed_terms(e, 1, terms)
    if len(terms) < 3:
        return None
    coeffs, var = {}, None
    for sign, term in terms:
        m = _monomial(term, t)
        if m is None:
            return None
        c, name, deg = m
        if name is not None:
            if var is not None and name != var:
                return None
            var = name
        coeffs[deg] = coeffs.get(deg, 0) + sign * c
    if var is None or max(coeffs) < 2:
        return None
    if t == I64:
        coeffs = {d: _wrap(c) for d, c in coeffs.items()}
    x = N.Var(var, t)
    top = max(coeffs)
    acc = N.Const(coeffs[top], t)
    for d in range(top - 1, -1, -1):
        acc = N.PyBinOp("mul", acc, _clone(x), t)
        if coeffs.get(d, 0):
            acc = N.PyBinOp("add", acc, N.Const(coeffs[d], t), t)
    return acc


def _rewrite_expr(e, float_ok):
    if isinstance(e, (N.PyBinOp, N.PyUnOp)) and (
        e.type == I64 or (float_ok and e.type == T.FLOAT64)
    ):
        h = _horner(e)
        if h is not None:
            return h, True
    changed = False
    kids = list(e.children())
    if kids:
        new = []
        for k in kids:
            nk, ch = _rewrite_expr(k, float_ok)
            new.append(nk)
            changed |= ch
        if changed:
            e.replace_children(new)
    return e, changed


def _set_exprs(s, fn_expr):
    """Apply ``fn_expr`` to the expressions held by ``s`` (in place)."""
    changed = False
    for attr in ("value", "cond", "start", "stop", "step", "count"):
        e = getattr(s, attr, None)
        if isinstance(e, N.Expr):
            ne, ch = fn_expr(e)
            if ch:
                setattr(s, attr, ne)
                changed = True
    return changed


def rewrite_polynomials(fn: N.Function, ctx=None) -> bool:
    from ..fastmath import flags
    # regrouping float terms needs the reassoc flag (fastmath=True has it); not
    # arcp or afn alone, as evolve_hyper's reciprocal and approximation genes give
    names = set(flags(ctx.options.get("fastmath"))) if ctx is not None else set()
    float_ok = bool(names & {"reassoc", "fast"})
    changed = False
    for s in list(N.walk_stmts(fn.body)):
        changed |= _set_exprs(s, lambda e: _rewrite_expr(e, float_ok))
    return changed


# ------------------------------------------------------------------ closed forms


def _reads(e, names) -> bool:
    return any(isinstance(x, N.Var) and x.name in names for x in N.walk_expr(e))


def _assigned(body) -> set:
    out = set()
    for s in N.walk_stmts(body):
        if isinstance(s, N.Assign):
            out.add(s.target)
        if isinstance(s, N.ForCount):
            out.add(s.counter)
    return out


def _b(op, x, y, t=I64):
    return N.BinOp(op, x, y, t)


def _is_var(e, name):
    return isinstance(e, N.Var) and e.name == name


def _induction(s, k):
    """``(i, a, c)`` for ``i = k`` or ``i = add(a, mul(k, c))`` (int64)."""
    if not (isinstance(s, N.Assign) and s.value.type == I64):
        return None
    v = s.value
    if _is_var(v, k):
        return s.target, N.Const(0, I64), N.Const(1, I64)
    if (
        isinstance(v, N.BinOp)
        and v.op == "add"
        and isinstance(v.right, N.BinOp)
        and v.right.op == "mul"
        and _is_var(v.right.left, k)
    ):
        return s.target, v.left, v.right.right
    return None


def _summand(e, i):
    """The shape of ``e`` as ``(p, u, v)``: ``e == u*i**p + v`` exactly; else None."""
    one, zero = N.Const(1, I64), N.Const(0, I64)
    if _is_var(e, i):
        return 1, one, zero
    if not isinstance(e, N.BinOp) or e.type != I64:
        return None
    if e.op == "mul":
        if _is_var(e.left, i) and _is_var(e.right, i):
            return 2, one, zero
        for u, x in ((e.left, e.right), (e.right, e.left)):
            if _is_var(x, i) and not _reads(u, {i}):
                return 1, u, zero
        return None
    if e.op == "add":
        for lin, v in ((e.left, e.right), (e.right, e.left)):
            if _reads(v, {i}):
                continue
            sh = _summand(lin, i)
            if (
                sh is not None
                and sh[0] == 1
                and isinstance(sh[2], N.Const)
                and sh[2].value == 0
            ):
                return 1, sh[1], v
    return None


def _tri(n):
    """n*(n-1)/2 modulo 2**64, exact: halve whichever factor is even (n >= 0)."""
    nm1 = _b("sub", n, N.Const(1, I64))
    even = N.Cmp("eq", _b("and", n, N.Const(1, I64)), N.Const(0, I64), T.BOOL)
    half_n = _b("ashr", n, N.Const(1, I64))
    half_nm1 = _b("ashr", nm1, N.Const(1, I64))
    return N.Select(even, _b("mul", half_n, nm1), _b("mul", n, half_nm1), I64)


def _sq_sum(n):
    """(n-1)*n*(2n-1)/6 modulo 2**64, exact (n >= 1): the factor 2 comes from n-1
    or n, the factor 3 from one of the three; 2n-1 < 2**64 is exact in uint64."""

    def u(e):
        return N.Cast(e, U64)

    x, y = u(_b("sub", n, N.Const(1, I64))), u(n)
    z = _b("sub", _b("shl", y, N.Const(1, U64), U64), N.Const(1, U64), U64)
    x_even = N.Cmp("eq", _b("and", x, N.Const(1, U64), U64), N.Const(0, U64), T.BOOL)
    x2 = N.Select(x_even, _b("udiv", x, N.Const(2, U64), U64), x, U64)
    y2 = N.Select(x_even, y, _b("udiv", y, N.Const(2, U64), U64), U64)

    def div3(a):
        return N.Cmp("eq", _b("urem", a, N.Const(3, U64), U64), N.Const(0, U64), T.BOOL)

    # x2, y2 keep their divisibility by 3 (dividing by 2 does not change it)
    x3 = N.Select(div3(x), _b("udiv", x2, N.Const(3, U64), U64), x2, U64)
    y3 = N.Select(
        div3(x),
        y2,
        N.Select(div3(y), _b("udiv", y2, N.Const(3, U64), U64), y2, U64),
        U64,
    )
    z3 = N.Select(
        div3(x), z, N.Select(div3(y), z, _b("udiv", z, N.Const(3, U64), U64), U64), U64
    )
    return N.Cast(_b("mul", _b("mul", x3, y3, U64), z3, U64), I64)


_OVERFLOW = ("sadd_overflow", "ssub_overflow", "smul_overflow")


def _unchecked(body, outside_reads):
    """A Python-int series body ``[i = ..., <overflow checks and temporaries>,
    s = add(s, e)]`` (``lib/python/int_overflow.py``) as ``[i = ..., s = add(s, e')]``
    with the temporaries substituted into ``e'``; None when it is not one."""
    if len(body) < 3 or not isinstance(body[-1], N.Assign):
        return None
    env = {}
    for x in body[1:-1]:
        if (isinstance(x, N.If) and not x.orelse and len(x.then) == 1
                and isinstance(x.then[0], N.Raise) and x.then[0].deopt
                and isinstance(x.cond, N.Intrinsic) and x.cond.name in _OVERFLOW):
            continue
        if not (isinstance(x, N.Assign) and x.target.startswith("$") and x.target not in env
                and x.target not in outside_reads and isinstance(x.value, N.BinOp)
                and x.value.op in ("add", "sub", "mul")):
            return None
        env[x.target] = _subst(x.value, env)
    acc = copy.copy(body[-1])
    acc.value = _subst(acc.value, env)
    return [body[0], acc]


def _subst(e, env):
    if isinstance(e, N.Var) and e.name in env:
        return _clone(env[e.name])
    e = copy.copy(e)
    kids = list(e.children())
    if kids:
        e.replace_children([_subst(k, env) for k in kids])
    return e


def _fits_check(s, n, a, c, p, u, w, line):
    """Deoptimise unless the exact sum ``s + sum(u*i**p + w)`` is within int64: its
    terms and their sum, estimated in float64, all within 2**62 (then the float
    error is far below 2**62, the exact value fits, and the wrapped closed form,
    equal to it modulo 2**64, is it)."""
    F = T.FLOAT64

    def f(e):
        return N.Cast(_clone(e), F)

    def m(*xs):
        out = xs[0]
        for x in xs[1:]:
            out = N.BinOp("mul", out, x, F)
        return out
    nf = f(n)
    tri = m(nf, N.BinOp("sub", nf, N.Const(1.0, F), F), N.Const(0.5, F))
    if p == 1:
        terms = [f(N.Var(s, I64)), m(f(u), nf, f(a)), m(f(u), f(c), tri), m(nf, f(w))]
    else:
        q = m(tri, N.BinOp("sub", m(N.Const(2.0, F), nf), N.Const(1.0, F), F),
              N.Const(1.0 / 3.0, F))
        terms = [f(N.Var(s, I64)), m(nf, f(a), f(a)), m(N.Const(2.0, F), f(a), f(c), tri),
                 m(f(c), f(c), q)]
    total = terms[0]
    for t in terms[1:]:
        total = N.BinOp("add", total, t, F)
    ok = None
    for t in terms + [total]:
        c_ = N.Cmp("le", N.Intrinsic("fabs", [_clone(t)], F), N.Const(2.0 ** 62, F), T.BOOL)
        ok = c_ if ok is None else N.BinOp("and", ok, c_, T.BOOL)
    return N.If(cond=N.UnOp("not", ok, T.BOOL), line=line, then=[N.Raise(
        exc=OverflowError, deopt=True, line=line,
        message="Python int beyond int64 (a sum over a range)")])


def _closed_form(loop, fn, outside_reads):
    """The statements replacing ``loop`` when it is an exact series; else None."""
    body = loop.body
    if type(loop) is not N.ForCount:
        return None
    checked = len(body) > 2
    if checked:
        body = _unchecked(body, outside_reads)
    if body is None or len(body) != 2:
        return None
    k = loop.counter
    ind = _induction(body[0], k)
    acc = body[1]
    if ind is None or not isinstance(acc, N.Assign):
        return None
    i, a, c = ind
    s = acc.target
    if fn.locals.get(s) != I64 or s in (i, k) or i == k:
        return None
    v = acc.value
    if not (isinstance(v, N.BinOp) and v.op == "add" and v.type == I64):
        return None
    e = v.right if _is_var(v.left, s) else v.left if _is_var(v.right, s) else None
    if e is None or _reads(e, {s, k}) or _reads(a, {i, k, s}) or _reads(c, {i, k, s}):
        return None
    shape = _summand(e, i)
    if shape is None or _reads(shape[1], {s, k}) or _reads(shape[2], {s, k}):
        return None
    if i in outside_reads or k in outside_reads:
        return None
    p, u, w = shape
    n = fn.new_temp(I64, "n")
    N_ = N.Var(n, I64)
    stmts = [
        N.Assign(target=n, value=loop.count, line=loop.line),
        N.Assign(
            target=n,
            value=N.Select(
                N.Cmp("gt", N_, N.Const(0, I64), T.BOOL), N_, N.Const(0, I64), I64
            ),
            line=loop.line,
        ),
    ]
    # sum_{k<n} (a + k c) = n a + c T(n)
    # sum_{k<n} (a + k c)^2 = n a^2 + 2 a c T(n) + c^2 Q(n)
    tri = _tri(N_)
    if p == 1:
        total = _b("add", _b("mul", N_, a), _b("mul", c, tri))
        total = _b("add", _b("mul", u, total), _b("mul", N_, w))
    else:
        q = N.Select(
            N.Cmp("gt", N_, N.Const(0, I64), T.BOOL), _sq_sum(N_), N.Const(0, I64), I64
        )
        total = _b(
            "add",
            _b(
                "add",
                _b("mul", N_, _b("mul", a, a)),
                _b("mul", _b("mul", N.Const(2, I64), _b("mul", a, c)), tri),
            ),
            _b("mul", _b("mul", c, c), q),
        )
    if checked:     # Python ints: CPython's exact sum, or a deoptimisation
        stmts.append(_fits_check(s, N_, a, c, p, u, w, acc.line))
    total = _unshare(_b("add", N.Var(s, I64), total))
    stmts.append(N.Assign(target=s, value=total, line=acc.line))
    return stmts


# ------------------------------------------------------------------ hoisting

_TRAPS = ("sdiv", "srem", "udiv", "urem")


def _hoistable(e, assigned) -> bool:
    if isinstance(e, (N.Var, N.Const)) or not isinstance(e.type, T.Scalar):
        return False
    for x in N.walk_expr(e):
        if isinstance(x, N.Var):
            if x.name in assigned:
                return False
        elif isinstance(x, N.BinOp):
            if x.op in _TRAPS:
                return False
        elif isinstance(x, N.Cast):
            if not (x.type.is_float or not x.operand.type.is_float):
                return False
        elif not isinstance(x, (N.Const, N.UnOp, N.Cmp, N.Select, N.Intrinsic)):
            return False
    return True


def _hoist(loop, fn):
    """Hoist invariant sub-expressions of ``loop``; return the new statements."""
    assigned = _assigned(loop.body) | {loop.counter}
    out, memo = [], {}

    def visit(e):
        if _hoistable(e, assigned):
            from ..ir.printer import format_expr

            key = (format_expr(e), e.type)
            name = memo.get(key)
            if name is None:
                name = memo[key] = fn.new_temp(e.type, "inv")
                out.append(N.Assign(target=name, value=e, line=loop.line))
            return N.Var(name, e.type), True
        kids = list(e.children())
        changed = False
        new = []
        for k in kids:
            nk, ch = visit(k)
            new.append(nk)
            changed |= ch
        if changed:
            e.replace_children(new)
        return e, changed

    for s in N.walk_stmts(loop.body):
        if isinstance(s, N.ForCount) and s is not loop:
            continue  # (the count of an inner loop is handled below)
        _set_exprs(s, visit)
    return out


def _outside_reads(fn, loop) -> set:
    inside = {id(s) for s in N.walk_stmts(loop.body)}
    names = set()
    for s in N.walk_stmts(fn.body):
        if id(s) in inside or s is loop:
            continue
        for e in N.stmt_exprs(s):
            if e is not None:
                names |= {x.name for x in N.walk_expr(e) if isinstance(x, N.Var)}
    return names


def _rewrite_body(body, fn) -> bool:
    changed = False
    i = 0
    while i < len(body):
        s = body[i]
        for attr in ("then", "orelse", "body"):
            sub = getattr(s, attr, None)
            if isinstance(sub, list):
                changed |= _rewrite_body(sub, fn)
        if type(s) is N.ForCount:
            new = _closed_form(s, fn, _outside_reads(fn, s))
            if new is None:
                new = _hoist(s, fn) + [s]
                if len(new) == 1:
                    i += 1
                    continue
            body[i : i + 1] = new
            i += len(new)
            changed = True
            continue
        i += 1
    return changed


def rewrite_loops(fn: N.Function, ctx=None) -> bool:
    return _rewrite_body(fn.body, fn)
