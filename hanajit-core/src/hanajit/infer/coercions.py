"""Explicit coercions after type inference: every assignment, return and
conditional-expression arm is made to match its declared type with a primitive
``Cast`` (or a retyped constant or tuple), the widenings the unifier chose."""
from __future__ import annotations

from ..errors import UnsupportedError
from ..ir import nodes as N
from ..ir import types as T


def coerce(e: N.Expr, to: T.Type) -> N.Expr:
    """``e`` converted to type ``to`` (a widening the unifier chose)."""
    if e.type == to:
        return e
    if isinstance(to, T.TupleType):
        if isinstance(e, N.MakeTuple):
            e.items = [coerce(i, t) for i, t in zip(e.items, to.items)]
            e.type = to
            return e
        if isinstance(e, N.Const):
            return N.Const(e.value, to)
        return _TupleCoerce(e, to)
    if isinstance(e, N.Const) and isinstance(to, T.Scalar) and not isinstance(e.value, tuple):
        v = e.value
        if to.is_float:
            return N.Const(float(v), to)
        if to.is_complex:
            return N.Const(complex(v), to)
        if to.is_int:
            return N.Const(int(v), to)
    return N.Cast(e, to)


def _TupleCoerce(e, to):
    items = [coerce(N.TupleGet(e, i, t), dt) for i, (t, dt) in enumerate(zip(e.type.items, to.items))]
    return N.MakeTuple(items, to)


def insert_coercions(fn: N.Function):
    """Make every Assign/Return/IfExp arm match its declared type."""
    def fix_expr(e):
        for c in e.children():
            fix_expr(c)
        if isinstance(e, N.PyIfExp) and e.type is not None:
            e.a = coerce(e.a, e.type)
            e.b = coerce(e.b, e.type)

    for s in N.walk_stmts(fn.body):
        for e in N.stmt_exprs(s):
            if e is not None:
                fix_expr(e)
        if isinstance(s, N.Assign):
            if s.inplace and isinstance(fn.locals[s.target], T.ArrayType):
                continue
            s.value = coerce(s.value, fn.locals[s.target])
        elif isinstance(s, N.Return):
            if s.value is None:
                if fn.return_type != T.NONE:
                    raise UnsupportedError(
                        f"{fn.pyname} ({fn.filename}:{s.line}): unsupported return type: "
                        f"returns both None and {fn.return_type}", func=fn.pyname,
                        line=s.line, construct="return type")
            else:
                s.value = coerce(s.value, fn.return_type)
