"""The rewrite of a function's run-time strs (``str_locals.py`` finds them and
says what compiles): each statement and expression rebuilt, a str operation a
call of a helper on code point arrays, and a run-time str anywhere else a
fallback naming the construct."""
from __future__ import annotations

import ast

from . import comprehensions as comps
from . import str_formats, str_methods, str_splits
from .str_locals import PREFIX, helper_call, is_call_of, name_node

_ORDER = {ast.Lt: ast.Lt, ast.LtE: ast.LtE, ast.Gt: ast.Gt, ast.GtE: ast.GtE}
def _src(e) -> str:
    try:
        return ast.unparse(e)[:60]
    except Exception:       # pragma: no cover
        return "?"


class Rewriter:
    def __init__(self, b, info):
        self.b, self.info = b, info
        self.S = set(info.locals)
        self.subst = {}                 # comprehension str targets -> code point name
        self.pre = []
        self.changed = bool(info.locals or info.tables or info.splits)
        self.returns_str = False
        self.table_names = {}
        self.constants = {}             # str constant -> the local of its array
        self.chars = None               # the local of the table of characters (char)
        # str locals grown by +=: a buffer with spare room and a count (``acc``)
        self.acc = {n for n in self.S if any(how == "+=" for _, how in info.binds.get(n, ()))}
        for p in info.coded:
            if p in info.binds:
                self.fail(info.fn, "str parameter", f"'{p}' (a str built at run time by the "
                          "caller) is assigned in the function")
        rets = [n for n in _walk_own(info.fn) if isinstance(n, ast.Return)]
        self.str_positions = self.tuple_positions(rets)
        consts = {self.info.value(n.value, self.S) for n in rets if n.value is not None}
        if any(n.value is not None and self.rt(n.value) for n in rets) or \
                len(consts - {None}) > 1:         # return "some" / return "none"
            self.returns_str = self.changed = True
            for n in rets:
                if n.value is None or not self.like(n.value):
                    self.fail(n, "str returned", "the function returns a str built at run "
                              "time on one path and something else on another")

    def tuple_positions(self, rets):
        """The positions of the strs in the tuples every return gives (``return s,
        len(s)``), or () when no return gives a tuple holding a run-time str."""
        shapes = set()
        for n in rets:
            v = n.value
            if isinstance(v, ast.Tuple) and not any(isinstance(x, ast.Starred)
                                                    for x in v.elts):
                shapes.add((len(v.elts), tuple(k for k, x in enumerate(v.elts)
                                               if self.like(x))))
                if any(self.rt(x) for x in v.elts):
                    self.changed = True
            else:
                shapes.add(None)
        if not self.changed or not any(s and s[1] for s in shapes):
            return ()
        if len(shapes) > 1:
            self.fail(rets[0], "str returned", "the function's returns give tuples with "
                      "run-time strs at different places, or a tuple and something else")
        return shapes.pop()[1]

    # ---------------------------------------------------------------- helpers
    def fail(self, node, construct, detail=""):
        self.b.fail(node, construct, detail)

    def like(self, e):
        return self.rt(e) or self.info.value(e, self.S) is not None

    def rt(self, e):
        return self.info.rt(e, self.S)

    def tmp(self, hint):
        t = self.b.tmp(hint)
        self.b.locals.add(t)
        return t

    def refuse(self, e, where):
        self.fail(e, "str built at run time", f"{_src(e)} {where}; a run-time str "
                  "compiles in +, *, indexing, slicing, len, ord, int, str, chr, "
                  "f-strings, comparisons, in, join, for loops, its methods "
                  "(docs/semantics.md), print, raise messages and return")

    # ------------------------------------------------------------- statements
    def stmts(self, body):
        out = []
        saved = self.pre
        try:
            for s in body:
                self.pre = []
                new = self.stmt(s)
                out += self.pre + new
        finally:
            self.pre = saved
        return out

    def stmt(self, s):
        if getattr(s, "hj_raw", False):
            return [s]
        m = getattr(self, "s_" + type(s).__name__, None)
        if m is None:
            self.free(s, "in a statement of this kind")
            return [s]
        out = m(s)
        for st in out:
            ast.copy_location(st, s)
        return out

    def free(self, node, where):
        """Refuse a run-time str anywhere in ``node``."""
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and (
                    n.id in self.S or n.id in self.info.tables):
                self.refuse(n, where)

    def s_Expr(self, s):
        v = s.value
        if isinstance(v, ast.Constant):
            return [s]
        if isinstance(v, ast.Call) and is_call_of(v, "print", self.b._global_object):
            v.args = [self.text(a, "printed") for a in v.args]
            for k in v.keywords:
                if self.like(k.value) and self.info.value(k.value, self.S) is None:
                    self.refuse(k.value, f"as print's {k.arg}= (a constant is compiled)")
                k.value = self.expr(k.value)
            return [s]
        s.value = self.expr(v)
        return [s]

    def text(self, e, what):
        """``e`` where CPython formats it as text -- an argument of ``print``, the
        message of a raise -- and a run-time str is passed as one
        (``T.StrCodes``: ``lib/python/printing.py``, ``errors.Field``)."""
        if isinstance(e, ast.Starred):
            self.free(e, f"{what} from a starred argument")
            return e
        if isinstance(e, ast.JoinedStr):
            for v in e.values:
                if isinstance(v, ast.FormattedValue):
                    v.value = self.text(v.value, what)
                    if v.format_spec is not None:
                        self.free(v.format_spec, "in a format specification")
            return e
        if self.rt(e):
            return helper_call("str_tag", self.sv(e))
        return self.expr(e)

    def s_Raise(self, s):
        """``raise E(message)``: a run-time str in the message is formatted as
        CPython formats it (``raise ValueError(s)``: the str is the message)."""
        exc = s.exc
        if s.cause is not None:
            self.free(s.cause, "as the cause of an exception")
        if isinstance(exc, ast.Call) and len(exc.args) == 1 and not exc.keywords:
            self.free(exc.func, "in a raise statement")
            exc.args = [self.message(exc.args[0], "in a raise message")]
        elif exc is not None:
            self.free(exc, "in a raise statement")
        return [s]

    def message(self, e, what):
        if self.rt(e) and not isinstance(e, ast.JoinedStr):    # raise E(s): the str
            e = ast.copy_location(ast.JoinedStr([ast.FormattedValue(e, -1, None)]), e)
        if isinstance(e, ast.JoinedStr):
            return self.text(e, what)
        self.free(e, what)
        return e

    def s_Assert(self, s):
        if s.msg is not None:
            s.msg = self.message(s.msg, "in an assert message")
        s.test = self.cond(s.test)
        return [s]

    def s_Return(self, s):
        if self.str_positions:          # return s, len(s): each str its array
            s.value.elts = [self.sv(x) if k in self.str_positions else self.expr(x)
                            for k, x in enumerate(s.value.elts)]
            s.hj_str = self.str_positions
            return [s]
        if self.returns_str:
            s.value = self.sv(s.value, top=True)
            s.hj_str = True
        elif s.value is not None:
            s.value = self.expr(s.value, top=True)
        return [s]

    def s_Assign(self, s):
        t = s.targets[0]
        if len(s.targets) == 1 and isinstance(t, (ast.Tuple, ast.List)) and any(
                isinstance(x, ast.Name) and x.id in self.S for x in t.elts):
            if not all(isinstance(x, ast.Name) and x.id in self.S for x in t.elts):
                self.fail(s, "str variable", "a tuple target of names some of which hold "
                          "strs built at run time and others something else")
            return str_splits.unpacked(self, t, s.value)
        names = [t for t in s.targets if isinstance(t, ast.Name)]
        if len(s.targets) == 1 and names and names[0].id in self.info.tables:
            return self.table(names[0].id)
        if len(s.targets) == 1 and names and names[0].id in self.info.splits:
            return str_splits.assigned(self, names[0].id, s.value)
        if any(t.id in self.S for t in names):
            if len(s.targets) != 1:
                self.fail(s, "str built at run time", "assigned to several names at once")
            return self.bind(names[0].id, self.sv(s.value, top=True))
        if any(t.id in self.info.params for t in names) and self.rt(s.value):
            return [s]      # (infer/str_params.py: a str argument is not assigned)
        if names and self.rt(s.value):
            self.mixed(s, names[0].id)
        s.value = self.expr(s.value, top=True)
        s.targets = [self.target(t) for t in s.targets]
        return [s]

    def s_AnnAssign(self, s):
        if s.value is None:
            return []
        return self.s_Assign(ast.Assign(targets=[s.target], value=s.value))

    def s_AugAssign(self, s):
        t = s.target
        if isinstance(t, ast.Name) and t.id in self.acc and isinstance(s.op, ast.Add):
            buf, n = self.hidden(t.id)          # out += x: x put after the count
            x = self.tmp("x")
            return [ast.Assign(targets=[name_node(x, True)], value=self.sv(s.value, top=True)),
                    ast.Assign(targets=[name_node(buf, True)], value=helper_call(
                        "put", name_node(buf), name_node(n), name_node(x))),
                    ast.AugAssign(name_node(n, True), ast.Add(),
                                  helper_call("len", name_node(x)))]
        if isinstance(t, ast.Name) and t.id in self.S:
            if isinstance(s.op, ast.Add):
                value = helper_call("concat", name_node(t.id), self.sv(s.value, top=True))
            else:
                value = helper_call("repeat_of", self.sv(name_node(t.id)), self.expr(s.value))
            return self.bind(t.id, value)
        if isinstance(t, ast.Name) and self.like(s.value):
            self.mixed(s, t.id)
        s.value = self.expr(s.value)
        s.target = self.target(s.target)
        return [s]

    def mixed(self, s, name):
        self.fail(s, "str variable", f"'{name}' is assigned a str built at run time here "
                  "and, elsewhere, something not known to be a str (a number, another "
                  "loop's items, an argument): one local holds one kind of value")

    def target(self, t):
        if isinstance(t, ast.Name):
            return t
        if isinstance(t, (ast.Tuple, ast.List)):
            t.elts = [self.target(x) for x in t.elts]
            return t
        if isinstance(t, ast.Starred):
            t.value = self.target(t.value)
            return t
        if isinstance(t, ast.Subscript):
            t.value, t.slice = self.expr(t.value), self.expr(t.slice)
            return t
        if isinstance(t, ast.Attribute):
            t.value = self.expr(t.value)
        return t

    def table(self, name):
        """``names = ["M", "CM", ...]``: all the code points, where each starts."""
        items = self.info.tables[name]
        starts = [0]
        for x in items:
            starts.append(starts[-1] + len(x))
        c, st = f"$tc_{name}", f"$ts_{name}"
        self.table_names[name] = (c, st)
        return [ast.Assign(targets=[name_node(c, True)], value=self.codes("".join(items))),
                ast.Assign(targets=[name_node(st, True)], value=helper_call(
                    "array", ast.Tuple([ast.Constant(v) for v in starts], ast.Load()),
                    name_node(PREFIX + "int64")))]

    def s_For(self, s):
        t, it = s.target, s.iter
        body, orelse = s.body, s.orelse
        if isinstance(t, ast.Name) and t.id in self.S:
            if isinstance(it, ast.Name) and it.id in self.info.tables:
                j = self.tmp("j")
                c, st = self._table(it.id)
                s.target = name_node(j, True)
                s.iter = helper_call("range", ast.Constant(len(self.info.tables[it.id])))
                first = self.bind(t.id, helper_call(
                    "picked", name_node(c), name_node(st), name_node(j)))
            elif (parts := str_splits.source(self, it)) is not None:
                j = self.tmp("j")           # for w in s.split(): each piece made when read
                s.target = name_node(j, True)
                s.iter = helper_call("range", str_splits.count(parts[1]))
                first = self.bind(t.id, str_splits.piece(*parts, name_node(j)))
            else:
                cp = self.tmp("cp")
                s.iter, s.target = self.sv(it), name_node(cp, True)
                first = self.bind(t.id, self.char(cp))
            for x in first:
                ast.copy_location(x, s)
            s.body = first + self.stmts(body)
            s.orelse = self.stmts(orelse)
            return [s]
        if isinstance(t, ast.Tuple) and len(t.elts) == 2 and \
                isinstance(t.elts[1], ast.Name) and t.elts[1].id in self.S:
            cp = self.tmp("cp")
            c = t.elts[1].id
            parts = str_splits.source(self, it.args[0])
            if parts is not None:           # enumerate(parts): of the pieces' numbers
                it.args = [helper_call("range", str_splits.count(parts[1]))] + \
                    [self.expr(a) for a in it.args[1:]]
                first = self.bind(c, str_splits.piece(*parts, name_node(cp)))
            else:
                it.args = [self.sv(it.args[0])] + [self.expr(a) for a in it.args[1:]]
                first = self.bind(c, self.char(cp))
            it.func = name_node(PREFIX + "enumerate")
            t.elts[1] = name_node(cp, True)
            for x in first:
                ast.copy_location(x, s)
            s.body = first + self.stmts(body)
            s.orelse = self.stmts(orelse)
            return [s]
        s.iter = self.expr(it)
        s.target = self.target(t)
        s.body, s.orelse = self.stmts(body), self.stmts(orelse)
        return [s]

    def hidden(self, name):
        return f"$sb_{name}", f"$sn_{name}"

    def bind(self, name, value):
        """``name = value`` of a str local (of one grown by ``+=``: its buffer, the
        value itself, and count)."""
        if name not in self.acc:
            return [ast.Assign(targets=[name_node(name, True)], value=value)]
        buf, n = self.hidden(name)
        return [ast.Assign(targets=[name_node(buf, True)], value=value),
                ast.Assign(targets=[name_node(n, True)], value=helper_call(
                    "len", name_node(buf)))]

    def _table(self, name):
        return f"$tc_{name}", f"$ts_{name}"

    def s_While(self, s):
        s.test = self.cond(s.test)
        s.body, s.orelse = self.stmts(s.body), self.stmts(s.orelse)
        return [s]

    def s_If(self, s):
        s.test = self.cond(s.test)
        s.body, s.orelse = self.stmts(s.body), self.stmts(s.orelse)
        return [s]

    def s_Try(self, s):
        s.body, s.orelse, s.finalbody = self.stmts(s.body), self.stmts(s.orelse), \
            self.stmts(s.finalbody)
        for h in s.handlers:
            h.body = self.stmts(h.body)
        return [s]

    def s_With(self, s):
        for item in s.items:
            item.context_expr = self.expr(item.context_expr)
        s.body = self.stmts(s.body)
        return [s]

    def s_Pass(self, s):
        return [s]

    s_Break = s_Continue = s_Global = s_Nonlocal = s_Import = s_ImportFrom = s_Pass

    # ------------------------------------------------------------ expressions
    def cond(self, e):
        """``e`` in a truth context."""
        if isinstance(e, ast.Name) and e.id in self.info.splits:
            return str_splits.truth(e)
        if isinstance(e, ast.Name) and e.id in self.acc and e.id in self.S and \
                e.id not in self.subst:
            return ast.Compare(name_node(self.hidden(e.id)[1]), [ast.NotEq()],
                               [ast.Constant(0)])
        if self.rt(e):
            return ast.Compare(helper_call("len", self.sv(e)), [ast.NotEq()], [ast.Constant(0)])
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
            e.operand = self.cond(e.operand)
            return e
        if isinstance(e, ast.BoolOp):
            e.values = [self.cond(v) for v in e.values]
            return e
        return self.expr(e)

    def expr(self, e, top=False):
        """``e`` where its value is not a str."""
        if e is None:
            return None
        if isinstance(e, ast.Name):
            if e.id in self.S or e.id in self.info.tables or e.id in self.info.splits:
                self.refuse(e, "used where compiled code has no str")
            return e
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not) and \
                isinstance(e.operand, ast.Name) and e.operand.id in self.info.splits:
            return ast.UnaryOp(ast.Not(), str_splits.truth(e.operand))
        if isinstance(e, ast.Call):
            return self.call(e)
        if isinstance(e, ast.Compare):
            return self.compare(e)
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not) and self.rt(e.operand):
            return ast.Compare(helper_call("len", self.sv(e.operand)), [ast.Eq()],
                               [ast.Constant(0)])
        if isinstance(e, ast.IfExp):
            if self.rt(e):
                self.refuse(e, "used where compiled code has no str")
            e.test, e.body, e.orelse = self.cond(e.test), self.expr(e.body), \
                self.expr(e.orelse)
            return e
        if isinstance(e, (ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp)):
            return self.comprehension(e)
        if isinstance(e, ast.Lambda):
            self.free(e, "in a lambda")
            return e
        if self.rt(e):
            self.refuse(e, "used where compiled code has no str")
        for field, value in ast.iter_fields(e):
            if isinstance(value, ast.expr):
                setattr(e, field, self.expr(value))
            elif isinstance(value, list) and value and isinstance(value[0], ast.expr):
                setattr(e, field, [self.expr(v) for v in value])
        return e

    def call(self, e):
        if (v := str_methods.value_call(self, e)) is not None:
            return v
        str_methods.refuse_other(self, e)
        f = e.func
        g = self.b._global_object(f.id) if isinstance(f, ast.Name) else None
        one = len(e.args) == 1 and not e.keywords and not isinstance(e.args[0], ast.Starred)
        if one:
            a = e.args[0]
            if g is len and isinstance(a, ast.Name) and a.id in self.info.tables:
                return ast.Constant(len(self.info.tables[a.id]))
            if g is len and self.info.split_of(a, self.S):
                return str_splits.length(self, a)
            if g is len and isinstance(a, ast.Name) and a.id in self.acc and \
                    a.id in self.S and a.id not in self.subst:
                return name_node(self.hidden(a.id)[1])
            if g is len and self.rt(a):
                return helper_call("len", self.sv(a))
            if g is ord and self.like(a):
                return helper_call("code_point", self.sv(a))
            if g is int and self.like(a):
                return helper_call("to_int", self.sv(a))
            if g is bool and self.rt(a):
                return self.cond(a)
        if self.rt(e):
            self.refuse(e, "used where compiled code has no str")
        e.func = self.expr(f) if not isinstance(f, ast.Name) else f
        user = _user_function(g)
        for a in e.args:
            if self.rt(a.value if isinstance(a, ast.Starred) else a) and not (
                    user and not isinstance(a, ast.Starred)):
                self.refuse(a, f"passed to {_src(f)}()")
        e.args = [helper_call("str_tag", self.sv(a)) if user and self.rt(a) else self.expr(a)
                  for a in e.args]
        for k in e.keywords:
            if self.rt(k.value) and not user:
                self.refuse(k.value, f"passed to {_src(f)}()")
            k.value = helper_call("str_tag", self.sv(k.value)) if user and \
                self.rt(k.value) else self.expr(k.value)
        return e

    def compare(self, e):
        parts = [e.left] + list(e.comparators)
        if not any(self.rt(p) for p in parts):
            e.left = self.expr(e.left)
            e.comparators = [self.expr(c) for c in e.comparators]
            return e
        if len(parts) > 2 and not all(isinstance(p, (ast.Name, ast.Constant))
                                      for p in parts[1:-1]):
            self.fail(e, "str comparison", "a chained comparison of strs whose middle "
                      "operands are not names or constants")
        tests = []
        for a, op, c in zip(parts, e.ops, parts[1:]):
            tests.append(self.pair(e, a, op, c))
        return tests[0] if len(tests) == 1 else ast.BoolOp(ast.And(), tests)

    def pair(self, e, a, op, c):
        if isinstance(op, (ast.In, ast.NotIn)) and isinstance(c, (ast.Tuple, ast.List,
                                                                  ast.Set)):
            if not (isinstance(a, ast.Name) and all(self.like(x) for x in c.elts)):
                self.fail(e, "str comparison", "'in' of a display other than strs, or "
                          "tested for an expression other than a name")
            found = ast.BoolOp(ast.Or(), [helper_call("equal", self.sv(a), self.sv(x))
                                          for x in c.elts]) if len(c.elts) > 1 else \
                helper_call("equal", self.sv(a), self.sv(c.elts[0])) if c.elts else \
                ast.Constant(False)
            return ast.UnaryOp(ast.Not(), found) if isinstance(op, ast.NotIn) else found
        if not (self.like(a) and self.like(c)):
            self.fail(e, "str comparison", f"{_src(e)}: a run-time str compared with "
                      "something not known to be a str")
        x, y = self.sv(a), self.sv(c)
        if isinstance(op, (ast.Eq, ast.NotEq)):
            r = helper_call("equal", x, y)
            return ast.UnaryOp(ast.Not(), r) if isinstance(op, ast.NotEq) else r
        if isinstance(op, tuple(_ORDER)):
            return ast.Compare(helper_call("order", x, y), [op], [ast.Constant(0)])
        if isinstance(op, (ast.In, ast.NotIn)):
            r = helper_call("contains", y, x)
            return ast.UnaryOp(ast.Not(), r) if isinstance(op, ast.NotIn) else r
        self.fail(e, "str comparison", f"'{type(op).__name__}' of run-time strs")

    def comprehension(self, e):
        saved_S, saved_sub = set(self.S), dict(self.subst)
        try:
            for k, g in enumerate(e.generators):
                strs = self.like(g.iter) and isinstance(g.target, ast.Name)
                parts = str_splits.source(self, g.iter) if isinstance(g.target, ast.Name) \
                    and (k == 0 or isinstance(g.iter, ast.Name)) else None
                if parts is not None:       # over a split: each piece made when read
                    j = self.b.tmp("j")
                    g.iter = helper_call("range", str_splits.count(parts[1]))
                else:
                    g.iter = self.sv(g.iter) if strs else self.expr(g.iter)
                for n in ast.walk(g.target):
                    if isinstance(n, ast.Name):
                        self.S.discard(n.id)
                        self.subst.pop(n.id, None)
                if parts is not None:
                    self.S.add(g.target.id)
                    self.subst[g.target.id] = (*parts, j)
                    g.target = name_node(j, True)
                elif strs:
                    cp = self.b.tmp("cp")
                    self.S.add(g.target.id)
                    self.subst[g.target.id] = cp
                    g.target = name_node(cp, True)
                g.ifs = [self.cond(c) for c in g.ifs]
            if isinstance(e, ast.DictComp):
                e.key, e.value = self.expr(e.key), self.expr(e.value)
            else:
                e.elt = self.expr(e.elt)
        finally:
            self.S, self.subst = saved_S, saved_sub
        return e

    # ------------------------------------------------------------------ strs
    def codes(self, text):
        """The array of the str constant ``text``: one local per distinct constant,
        made on entry (``prelude``; never written, so shared)."""
        if text not in self.constants:
            self.constants[text] = self.tmp("k")
        return name_node(self.constants[text])

    def char(self, cp):
        """The one-character str of the code point in the local ``cp`` (of a loop
        over a str): below 256, a row of a table made on entry (no allocation)."""
        return helper_call("char_of", self.chars_table(), name_node(cp))

    def chars_table(self):
        if self.chars is None:
            self.chars = self.tmp("chars")
        return name_node(self.chars)

    def prelude(self):
        """The assignments of the constants' arrays (and of the table of the first
        256 characters), for the top of the function."""
        out = []
        if self.chars is not None:
            out.append(ast.copy_location(ast.Assign(targets=[name_node(self.chars, True)],
                                                    value=helper_call("char_table")),
                                         self.info.fn))
        for text, name in self.constants.items():
            value = helper_call("array", ast.Tuple([ast.Constant(ord(c)) for c in text],
                                                   ast.Load()), name_node(PREFIX + "int32")) \
                if text else helper_call("empty", ast.Constant(0), name_node(PREFIX + "int32"))
            out.append(ast.copy_location(ast.Assign(targets=[name_node(name, True)],
                                                    value=value), self.info.fn))
        return out

    def sv(self, e, top=False):
        """The code point array of the str ``e``."""
        self.changed = True
        if isinstance(e, ast.Name) and e.id in self.S:
            if e.id in self.subst:
                sub = self.subst[e.id]
                if isinstance(sub, tuple):      # a piece of a split (comprehension)
                    return str_splits.piece(*sub[:2], name_node(sub[2]))
                return self.char(sub)
            if e.id in self.acc:
                return helper_call("taken", *map(name_node, self.hidden(e.id)))
            if e.id in self.info.coded:
                return helper_call("str_untag", e)
            return e
        v = self.info.value(e, self.S)
        if v is not None:
            return self.codes(v)
        if isinstance(e, ast.JoinedStr):
            return str_formats.fstring(self, e)
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Name):
            g = self.b._global_object(e.func.id)
            if g is str and not e.args:
                return self.codes("")
            if g is str and self.like(e.args[0]):
                return self.sv(e.args[0])
            if g is str:
                return helper_call("str_of", self.expr(e.args[0]))
            if g is chr:
                return helper_call("chr_of", self.expr(e.args[0]), self.chars_table())
            if g is repr:
                if self.like(e.args[0]):
                    self.fail(e, "repr()", "the repr of a str is not compiled")
                return helper_call("repr_of", self.expr(e.args[0]))
            if g in (format, bin, hex, oct):    # format(x, spec), bin(x): an f-string's
                spec = {bin: "#b", hex: "#x", oct: "#o"}.get(g, "")     # field
                if g is format and len(e.args) == 2:
                    spec = self.info.value(e.args[1], self.S)
                    if spec is None:
                        self.fail(e, "format()", "a format spec other than a constant")
                field = ast.FormattedValue(e.args[0], -1, ast.JoinedStr(
                    [ast.Constant(spec)]) if spec else None)
                return str_formats.field(self, ast.copy_location(field, e))
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and \
                e.func.attr == "join":
            return self.join(e, top)
        if isinstance(e, ast.Subscript):
            if self.info.split_of(e.value, self.S) and not isinstance(e.slice, ast.Slice):
                return str_splits.item(self, e)
            if isinstance(e.value, ast.Name) and e.value.id in self.info.tables:
                c, st = self._table(e.value.id)
                return helper_call("picked", name_node(c), name_node(st), self.expr(e.slice))
            if isinstance(e.slice, ast.Slice):
                sl = e.slice
                part = ast.Subscript(self.sv(e.value), ast.Slice(
                    self.expr(sl.lower), self.expr(sl.upper), self.expr(sl.step)), ast.Load())
                return helper_call("copied", part)
            return helper_call("item_of", self.sv(e.value), self.expr(e.slice))
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Add):
            parts = [e.right]           # a + b + c: one call of the parts in order
            while isinstance(e.left, ast.BinOp) and isinstance(e.left.op, ast.Add) and \
                    self.like(e.left):
                e = e.left
                parts.append(e.right)
            parts.append(e.left)
            return helper_call("concat_of", *[self.sv(p) for p in reversed(parts)])
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Mult):
            if self.like(e.left) and self.like(e.right):
                self.fail(e, "str repetition", "a str times a str")
            if self.like(e.left):
                return helper_call("repeat_of", self.sv(e.left), self.expr(e.right))
            return helper_call("repeat_of", self.sv(e.right), self.expr(e.left))
        if isinstance(e, ast.IfExp) and self.like(e.body) and self.like(e.orelse):
            return ast.IfExp(self.cond(e.test), self.sv(e.body), self.sv(e.orelse))
        if str_methods.makes_str(self.info, e, self.S):
            return str_methods.str_call(self, e)
        self.fail(e, "str built at run time", f"{_src(e)}: not known to be a str here")

    def join(self, e, top):
        sep, arg = e.func.value, e.args[0]
        if isinstance(arg, (ast.List, ast.Tuple)) and \
                not any(isinstance(x, ast.Starred) for x in arg.elts):
            if not arg.elts:
                return self.codes("")
            if not (isinstance(sep, (ast.Name, ast.Constant)) or
                    self.info.value(sep, self.S) is not None):
                self.fail(e, "str join", "a separator other than a name or a constant")
            parts = [self.sv(arg.elts[0])]
            for x in arg.elts[1:]:
                parts += [self.sv(sep), self.sv(x)]
            return parts[0] if len(parts) == 1 else helper_call("concat_of", *parts)
        if self.info.split_of(arg, self.S):        # sep.join(parts)
            return str_splits.joined(self, e)
        if isinstance(arg, ast.Name) and arg.id in self.info.tables:
            s = self.info.value(sep, self.S)
            if s is None:
                self.fail(e, "str join", "a list of str constants joined by a run-time str")
            return self.codes(s.join(self.info.tables[arg.id]))
        if not isinstance(arg, (ast.GeneratorExp, ast.ListComp)):
            self.fail(e, "str join", f"{_src(arg)}: join compiles for a generator, a list "
                      "comprehension or a display of strs")
        if not top:
            self.fail(e, "str join", "a join of a generator inside a larger expression "
                      "(it compiles as the whole value of an assignment or a return)")
        sp, jb, jn, jk, je = (self.tmp(h) for h in ("jsep", "jb", "jn", "jk", "je"))
        self.pre += [ast.Assign(targets=[name_node(sp, True)], value=self.sv(sep)),
                     ast.Assign(targets=[name_node(jb, True)], value=helper_call(
                         "empty", ast.Constant(16), name_node(PREFIX + "int32"))),
                     ast.Assign(targets=[name_node(jn, True)], value=ast.Constant(0)),
                     ast.Assign(targets=[name_node(jk, True)], value=ast.Constant(0))]
        comp = comps.renamed(self.b, arg)
        for g in comp.generators:
            if (self.like(g.iter) or self.info.split_of(g.iter, self.S)) and \
                    isinstance(g.target, ast.Name):
                self.S.add(g.target.id)
        self.S.add(je)
        raw = [
            ast.If(test=ast.Compare(name_node(jk), [ast.Gt()], [ast.Constant(0)]), body=[
                ast.Assign(targets=[name_node(jb, True)], value=helper_call(
                    "put", name_node(jb), name_node(jn), name_node(sp))),
                ast.AugAssign(name_node(jn, True), ast.Add(), helper_call("len", name_node(sp)))],
                orelse=[]),
            ast.Assign(targets=[name_node(jb, True)], value=helper_call(
                "put", name_node(jb), name_node(jn), name_node(je))),
            ast.AugAssign(name_node(jn, True), ast.Add(), helper_call("len", name_node(je))),
            ast.AugAssign(name_node(jk, True), ast.Add(), ast.Constant(1))]
        for r in raw:
            r.hj_raw = True
        inner = [ast.Assign(targets=[name_node(je, True)], value=comp.elt)] + raw
        loops = comps.loops(comp.generators, inner, None)
        comps.locate(loops, e)
        saved = self.pre
        self.pre = []
        self.pre = saved + self.stmts(loops)
        return helper_call("taken", name_node(jb), name_node(jn))


def _user_function(g) -> bool:
    """Is ``g`` a function of the user's (plain or jitted), which a run-time str is
    passed to as its code points (the callee specialises on ``T.StrCodes``)?"""
    import inspect
    if inspect.isfunction(getattr(g, "py_func", None)):        # jitted
        return True
    mod = getattr(g, "__module__", "") or ""
    return inspect.isfunction(g) and mod.split(".")[0] not in ("numpy", "hanajit", "math")


def _walk_own(fn):
    """The nodes of ``fn``, nested functions and lambdas left out."""
    todo = list(ast.iter_child_nodes(fn))
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.FunctionDef, ast.Lambda, ast.AsyncFunctionDef)):
            continue
        yield n
        todo.extend(ast.iter_child_nodes(n))


__all__ = ["Rewriter"]
