"""str arguments and str locals as compile-time constants.

A str argument is part of the dispatch key (``ir.types.StrArg``): each distinct
string compiles once, and inside the function every use of it folds before
inference.  The parameter's reads become the constant (an ``ObjRef`` holding the
string, as a literal ``"same"`` is), so a library call taking a string
(``np.convolve(a, v, mode)``) sees a constant, and a jitted callee specialises on
it (``StrArg`` again, ``pipeline.CompileContext.infer_call``).  Then, bottom-up,
everything about constants folds as the interpreter computes it:

* ``==``/``!=``/``<``.../``in``/``not in``/``is``/``is not`` between constants
  (strings, numbers, None and tuples of them), ``len(s)``, truth, ``not``,
  ``and``/``or`` with a constant first operand, ``a if c else b`` on a constant
  ``c``, and the str methods of :data:`_METHODS` with constant arguments;
* a constant's fields in ``raise`` messages (f-strings: formatted now) and in
  ``print`` (printed as text).

An ``if`` on a folded condition is then decided by inference (``static_truth``):
the branch not taken is neither typed nor compiled.  A local assigned a str
constant -- the same one on every assignment -- folds the same way.  Whatever is
left (a str compared with a run-time value, indexed, concatenated in a loop, a
parameter reassigned, a local holding different strings on different paths) is
refused with a plain reason: the function runs in the interpreter.
"""
from __future__ import annotations

import operator

from ..errors import Field, kernel_message_parts
from ..ir import nodes as N
from ..ir import types as T
from ..ir.frontend_nodes import Method, ObjRef

_COMPARE = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le,
            "gt": operator.gt, "ge": operator.ge, "is": operator.is_,
            "isnot": operator.is_not, "in": lambda a, b: a in b,
            "notin": lambda a, b: a not in b}

# str methods folded on constants (their arguments constant too)
_METHODS = frozenset((
    "startswith", "endswith", "lower", "upper", "strip", "lstrip", "rstrip",
    "casefold", "isdigit", "isalpha", "isalnum", "isspace", "islower", "isupper",
    "capitalize", "title", "count", "find", "rfind", "replace", "removeprefix",
    "removesuffix", "isidentifier", "isnumeric", "isdecimal", "index", "rindex",
    "isprintable", "istitle", "isascii", "swapcase", "zfill", "center", "ljust",
    "rjust"))

_UNSET = object()


class StrUseError(Exception):
    """A use of a str constant that cannot fold: ``(line, detail)``."""


def _const(e):
    """The compile-time value of folded expression ``e``, or _UNSET."""
    if isinstance(e, ObjRef) and type(e.obj) is str:
        return e.obj
    if isinstance(e, N.Const) and (e.value is None or type(e.value) in (
            bool, int, float, str, tuple)):
        return e.value
    if isinstance(e, N.MakeTuple):
        items = tuple(_const(i) for i in e.items)
        return _UNSET if any(i is _UNSET for i in items) else items
    return _UNSET


def _holds_str(v) -> bool:
    return type(v) is str or (type(v) is tuple and any(_holds_str(i) for i in v))


def _node(v):
    """An expression for the folded value ``v``."""
    if type(v) is str:
        return ObjRef(v, repr(v))
    if type(v) is tuple and _holds_str(v):
        return N.MakeTuple([_node(i) for i in v])
    return N.Const(v)


def _has_str_locals(body) -> bool:
    for s in N.walk_stmts(body):
        v = getattr(s, "value", None)
        if isinstance(s, N.Assign) and isinstance(v, ObjRef) and type(v.obj) is str:
            return True
    return False


def settle_str_params(fn: N.Function, arg_types: tuple, fail) -> None:
    """Fold the str parameters and str locals of ``fn`` (in place); ``fail(line,
    construct, detail)`` refuses what cannot fold."""
    consts = {p: t.value for p, t in zip(fn.params, arg_types) if _str_type(t)}
    if not consts and not _has_str_locals(fn.body):
        return
    for p in consts:
        for s in N.walk_stmts(fn.body):
            if _binds(s, p):
                fail(s.line, "str argument", f"'{p}' is assigned in the function; a "
                     "str argument is a compile-time constant, used as it is passed")
    while True:                 # (``m = mode``, then ``n = m``: one more each time)
        more = _str_locals(fn.body, fail, consts)
        if more.keys() <= consts.keys():
            break
        consts.update(more)
    for k, p in enumerate(fn.params):
        if p in consts and _str_type(arg_types[k]):
            fn.params[k] = f"$str_{p}"        # (never read: every read folded)
    fn.body = [s for s in (_stmt(s, consts, fail) for s in fn.body) if s is not None]


def _str_type(t) -> bool:
    return isinstance(t, T.StrArg)


def _binds(s, name) -> bool:
    return any(isinstance(v, str) and v == name for v in vars(s).values())


def _str_locals(body, fail, known) -> dict:
    """Locals every assignment of which is the same str constant (or a name of
    ``known`` holding one)."""
    values: dict = {}
    lines: dict = {}
    for s in N.walk_stmts(body):
        if isinstance(s, N.Assign) and not s.inplace:
            v = s.value
            c = v.obj if isinstance(v, ObjRef) and type(v.obj) is str else \
                known[v.name] if isinstance(v, N.Var) and v.name in known else _UNSET
            values.setdefault(s.target, []).append(c)
            lines.setdefault(s.target, s.line)
        else:
            for name, v in vars(s).items():
                if isinstance(v, str) and name in ("target", "name", "var"):
                    values.setdefault(v, []).append(_UNSET)
    out = {}
    for name, vs in values.items():
        if name in known:
            continue
        strs = [v for v in vs if v is not _UNSET]
        if not strs:
            continue
        if len(strs) != len(vs) or len(set(strs)) != 1:
            fail(lines[name], "str variable", f"'{name}' holds "
                 + ("different strings on different paths" if len(strs) == len(vs)
                    else "a str and another value") + "; only a str constant "
                 "assigned the same value everywhere is compiled")
        out[name] = strs[0]
    return out


def _stmt(s, consts, fail):
    if isinstance(s, N.Assign) and s.target in consts:
        return None                              # (every read folded)
    for name, v in list(vars(s).items()):
        if isinstance(v, N.Expr):
            setattr(s, name, _expr(v, consts, fail, s.line))
        elif isinstance(v, list) and v and isinstance(v[0], N.Expr):
            setattr(s, name, [_expr(x, consts, fail, s.line) for x in v])
        elif isinstance(v, list) and v and isinstance(v[0], N.Stmt):
            setattr(s, name, [x for x in (_stmt(x, consts, fail) for x in v)
                              if x is not None])
    if isinstance(s, N.Raise) and s.args:
        _fold_message(s)
    return s


def _expr(e, consts, fail, line):
    if isinstance(e, N.Var) and e.name in consts:
        return _node(consts[e.name])
    kids = e.children()
    if kids:
        e.replace_children([_expr(c, consts, fail, line) for c in kids])
    if isinstance(e, N.PyCall) and e.name == "print" and isinstance(e.plan, tuple):
        _fold_print(e)
    if isinstance(e, N.PyIfExp):
        c = _const(e.cond.operand if isinstance(e.cond, N.Truth) else e.cond)
        if type(c) is bool:             # decided (a folded str test): only that arm
            return e.a if c else e.b
    folded = _fold(e, line, fail)
    return e if folded is _UNSET else _node(folded)


def _fold(e, line, fail):
    """The value of ``e`` when its operands are constants and one is a str."""
    if isinstance(e, N.PyCompare):
        vals = [_const(o) for o in e.operands]
        if not any(_holds_str(v) for v in vals if v is not _UNSET):
            return _UNSET
        if any(v is _UNSET for v in vals):
            fail(line, "str comparison", "a str compared with a run-time value (only "
                 "comparisons of compile-time strings are compiled)")
        try:
            return all(_COMPARE[op](a, b) for op, a, b in zip(e.ops, vals, vals[1:]))
        except TypeError as exc:
            fail(line, "str comparison", str(exc))
    if isinstance(e, N.Truth):
        v = _const(e.operand)
        return bool(v) if _holds_str(v) else _UNSET
    if isinstance(e, N.PyUnOp) and e.op == "not":
        v = _const(e.operand)
        return (not v) if v is not _UNSET and (_holds_str(v) or type(v) is bool) \
            else _UNSET
    if isinstance(e, N.PyBoolOp):
        return _fold_boolop(e)
    if isinstance(e, N.PyIfExp):
        c = _const(e.cond.operand if isinstance(e.cond, N.Truth) else e.cond)
        a, b = _const(e.a), _const(e.b)
        if c is not _UNSET and (_holds_str(a) or _holds_str(b)):
            return a if c else b
        if _holds_str(a) or _holds_str(b):
            fail(line, "str value", "a str chosen at run time (a if c else b) cannot "
                 "be folded to one compile-time string")
        return _UNSET
    if isinstance(e, N.PyCall):
        return _fold_call(e, line, fail)
    return _UNSET


def _fold_boolop(e):
    vals = [_const(v.operand if isinstance(v, N.Truth) else v) for v in e.values]
    if not any(_holds_str(v) for v in vals if v is not _UNSET) and not (
            vals and type(vals[0]) is bool):
        return _UNSET
    # leading constants decide or drop out (Python's and/or return an operand)
    while len(e.values) > 1 and vals[0] is not _UNSET:
        if bool(vals[0]) == (e.op == "or"):
            return vals[0]
        e.values.pop(0)
        vals.pop(0)
    if len(e.values) == 1 and vals[0] is not _UNSET:
        return vals[0]
    return _UNSET


def _fold_call(e, line, fail):
    args = [_const(a) for a in e.args]
    if e.kwargs or any(a is _UNSET for a in args):
        if isinstance(e.callee, Method) and args and type(args[0]) is str:
            fail(line, "str method", f"str.{e.callee.name}() with run-time arguments")
        return _UNSET
    if e.callee is len and len(args) == 1 and type(args[0]) is str:
        return len(args[0])
    if e.callee is str and len(args) == 1 and type(args[0]) is str:
        return args[0]
    if isinstance(e.callee, Method) and args and type(args[0]) is str:
        if e.callee.name not in _METHODS:
            fail(line, "str method", f"str.{e.callee.name}() is not compiled")
        try:
            return getattr(args[0], e.callee.name)(*args[1:])
        except (TypeError, ValueError) as exc:
            fail(line, "str method", str(exc))
    return _UNSET


_CONV = {"": str, "s": str, "r": repr, "a": ascii}


def _fold_message(s: N.Raise) -> None:
    """Format the constant fields of a raise's message now."""
    out, args, k = [], [], 0
    for part in kernel_message_parts(s.message):
        if isinstance(part, Field):
            v = _const(s.args[k]) if k < len(s.args) else _UNSET
            if v is _UNSET or part.kind or part.value and type(v) is not str:
                # (raise KeyError(k) of a str constant k is its text; of a number,
                # the number itself at run time)
                out.append("{" + part.kind + ("!" + part.conversion
                                              if part.conversion else "") +
                           part.suffix() + "}")
                if k < len(s.args):
                    args.append(s.args[k])
            else:
                text = _CONV[part.conversion.strip("v")](v)[:part.precision]
                out.append(text.replace("{", "{{").replace("}", "}}"))
            k += 1
        else:
            out.append(part * 2 if part in "{}" else part)
    s.message, s.args = "".join(out), args + list(s.args[k:])


def _fold_print(e: N.PyCall) -> None:
    """Print constant arguments as text (a print's ``plan``: print_calls.py)."""
    kind, items, *rest = e.plan
    args, out, k = [], [], 0
    for item in items:
        if item[0] == "value":
            v = _const(e.args[k])
            if type(v) is str:
                out.append(("const", v))
            else:
                out.append(item)
                args.append(e.args[k])
            k += 1
        elif item[0] == "fstring":
            parts = []
            for part in item[1]:
                if isinstance(part, tuple):
                    v = _const(e.args[k])
                    if type(v) is str:
                        conv, spec = part
                        parts.append(format(_CONV[conv or ""](v), spec))
                    else:
                        parts.append(part)
                        args.append(e.args[k])
                    k += 1
                else:
                    parts.append(part)
            out.append(("fstring", tuple(parts)))
        else:
            out.append(item)
    e.plan = (kind, tuple(out), *rest)
    e.args = args + list(e.args[k:])
