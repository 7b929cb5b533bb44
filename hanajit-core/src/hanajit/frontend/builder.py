"""Python AST -> Python-level IR (``Py*`` nodes), resolving global names.

Module globals that are numbers, tuples of numbers or ``None`` are frozen into
constants at compile time (their values are part of the cache key); modules,
functions, builtins and jitted functions are resolved to the objects themselves,
which type inference looks up in its registry.  Every construct outside the
supported subset raises :class:`UnsupportedError` naming the line and construct.

Example::

    def f(a, b):             Function f(a, b)
        c = a + b * 2          c = PyBinOp(add, a, PyBinOp(mul, b, 2))
        return c if c > 0      Return(PyIfExp(Truth(PyCompare([gt], [c, 0])),
               else -c                c, PyUnOp(neg, c)))
"""
from __future__ import annotations

import ast
import builtins
import numbers

from .. import gpu
from . import comprehension_arrays, comprehensions, index_grid_calls, local_imports, \
    message_formats, omitted_defaults, tolist_calls
from ..errors import RERUN, UnsupportedError, escape_braces
from ..ir import constants as K
from ..ir import nodes as N
from ..ir import types as T
from ..lib import registry
from ..ir.frontend_nodes import Method, ObjRef, Unpack, falls_through
from .lambdas import outline_local_lambdas
from .loop_statements import LoopStatements, is_flat
from .node_names import plain_name
from .readonly_lists import index_array, readonly_lists
from .list_displays import as_tuple, mark_lists
from .scopes import survey
from . import built_calls, comprehension_lists, dict_comprehensions, dict_locals, \
    generator_inlining, growable_list_uses, growable_lists, key_functions, list_passing, \
    list_tables, range_objects, set_locals, starred_targets, str_locals, try_statements, \
    vectorize_calls, walrus, tuple_lists, with_statements
from .source import ParsedFunction, eager_self

_BINOPS = {
    ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv",
    ast.FloorDiv: "floordiv", ast.Mod: "mod", ast.Pow: "pow", ast.LShift: "lshift",
    ast.RShift: "rshift", ast.BitAnd: "bitand", ast.BitOr: "bitor",
    ast.BitXor: "bitxor", ast.MatMult: "matmul",
}
_UNOPS = {ast.USub: "neg", ast.UAdd: "pos", ast.Invert: "invert", ast.Not: "not"}
_CMPOPS = {
    ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge", ast.Eq: "eq",
    ast.NotEq: "ne", ast.In: "in", ast.NotIn: "notin", ast.Is: "is",
    ast.IsNot: "isnot",
}


def is_number(v) -> bool:
    return isinstance(v, (bool, numbers.Number)) and not isinstance(v, type)


def freezable(v) -> bool:
    """Values frozen into constants: numbers, None, and tuples of them."""
    if v is None or is_number(v):
        return True
    if isinstance(v, tuple):
        return all(freezable(x) for x in v)
    return False


class Builder(LoopStatements):
    """Build the Python-level IR function of one parsed ``def``."""

    def __init__(self, parsed: ParsedFunction, parallel: dict | None = None,
                 str_args: dict | None = None):
        self.p = parsed
        # prange/parallel=True: {"auto": bool, "fallback": bool, "workers": int,
        # "serial": set of (qualname, line) loops to keep serial}
        self.parallel = parallel or {}
        self.injected: dict = {}        # names of generated code (parallel loops)
        self.n_tmp = 0                  # (tmp(): fresh names)
        self.loop_depth = 0
        self.fnode = parsed.node
        self.qualname = parsed.qualname
        args = self.fnode.args
        if args.vararg or args.kwarg:
            self.fail(self.fnode, "*args / **kwargs parameters")
        self.params = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
        # (the analyses below only when their construct is there: each walks the
        # tree; the first checks of four rewrites are made in survey's one walk)
        sv = survey(self.fnode)
        if generator_inlining.is_generator_function(parsed.pyfunc):
            self.fail(self.fnode, "generator function", "calling it makes a generator "
                      "object, which compiled code has no form for (a for loop over its "
                      "call inside a compiled function compiles)")
        if ast.Call in sv.kinds or ast.GeneratorExp in sv.kinds:   # for x in g(...)
            sv = self._take(generator_inlining.rewrite(
                self, self.fnode, set(self.params) | sv.names), sv)
        if ast.With in sv.kinds or ast.AsyncWith in sv.kinds:   # with np.errstate(...): body
            self.fnode = with_statements.rewrite(self, self.fnode, sv.names)
            sv = survey(self.fnode)
        if ast.Lambda in sv.kinds or any(isinstance(s, ast.FunctionDef)   # g = lambda y:
                                         for s in self.fnode.body):       # ...; g(x)
            sv = self._take(outline_local_lambdas(
                parsed, set(self.params) | sv.names, self.injected), sv)
        if sv.tolist:       # a.tolist() read: a list comprehension (tolist_calls)
            sv = self._take(tolist_calls.rewrite(self.fnode, self.injected, found=True), sv)
        # strs built at run time: code point arrays (frontend.str_locals)
        self.locals = set(self.params) | sv.names
        fnode, self.returns_str = str_locals.rewrite(self, self.fnode, str_args or {})
        sv = self._take(fnode, sv)
        if ast.DictComp in sv.kinds:   # d = {k: v for ...}: loops (frontend.dict_comprehensions)
            sv = self._take(dict_comprehensions.rewrite(self, self.fnode), sv)
        self.dict_reasons, self.dict_returns = {}, []
        self.locals = set(self.params) | sv.names
        if sv.dict_assign:
            # dict locals of numbers: hidden arrays (frontend.dict_locals)
            fnode, _, self.dict_reasons, self.dict_returns = dict_locals.rewrite(
                self.fnode, set(self.params), self._global_object, self.injected,
                found=True)
            sv = self._take(fnode, sv)
        self.set_reasons = {}
        if set_locals.has_sets(self.fnode):
            # h(s) of a user function: inlined (frontend.list_passing)
            sv = self._take(set_locals.passed(self, self.fnode, set(self.params),
                                              self.locals), sv)
            # set locals of numbers: hidden arrays (frontend.set_locals)
            fnode, _, self.set_reasons = set_locals.rewrite(
                self.fnode, set(self.params), self._global_object, self.injected,
                getattr(self.p.pyfunc, "__code__", None))
            sv = self._take(fnode, sv)
        # dp = [[0] * m for ...]: three lists each (frontend.list_tables)
        sv = list_tables.apply(self, sv, lambda: readonly_lists(
            self.fnode, set(self.params), self._global_object)[1])
        if sv.list_assign and ast.Tuple in sv.kinds:   # stack.append((r, c)): lists per item
            # (frontend.tuple_lists)
            sv = self._take(tuple_lists.rewrite(self.fnode, set(self.params)), sv)
        self.locals = set(self.params) | sv.names
        # (a range rewrite changes the tree in place: growable_list_uses walks it again)
        list_assign = sv.list_assign
        if sv.held_range:   # r = range(n); len(range(...)) (frontend.range_objects)
            list_assign = None
            fnode = range_objects.rewrite(self.fnode, set(self.params), self._global_object,
                                          self.injected, held=True)
            if fnode is not self.fnode:
                sv = self._take(fnode, sv)
                self.locals = set(self.params) | sv.names
        if list_assign is not False and ast.Call in sv.kinds:
            # h(out) of a user function: inlined (frontend.list_passing)
            fnode = list_passing.rewrite(self, self.fnode, set(self.params), self.locals)
            if fnode is not self.fnode:
                sv = self._take(fnode, sv)
                self.locals = set(self.params) | sv.names
                list_assign = None
        kinds = sv.kinds
        # list displays only read, built as tuples (frontend.readonly_lists)
        self.list_displays, self.list_names = readonly_lists(
            self.fnode, set(self.params), self._global_object) \
            if ast.List in kinds else (set(), {})
        # starred names only read, as tuples (frontend.starred_targets)
        self.starred_names = starred_targets.find(self.fnode, set(self.params),
                                                  self._global_object) \
            if ast.Starred in kinds else set()
        self.list_names.update((n, False) for n in self.starred_names)
        # named list comprehensions only read, as arrays (frontend.comprehension_lists)
        self.comp_lists = {} if self.parallel.get("auto") or (
            ast.ListComp not in kinds and not sv.sorted_named) \
            else comprehension_lists.find(self.fnode, set(self.params), self._global_object)
        self.comp_items: dict = {}          # name -> the local holding its items
        # list locals that grow (``out.append(x)``): hidden buffers (frontend.growable_lists)
        lists, self.grow_refused = growable_list_uses.find(
            self.fnode, set(self.params), self._global_object, assigns=list_assign) \
            if not self.parallel.get("auto") and (ast.List in kinds or ast.Call in kinds) \
            else ({}, {})
        self.grow_lists = growable_lists.setup(self, {
            k: v for k, v in lists.items() if k not in self.list_names
            and k not in self.comp_lists})
        self.frozen: dict = {}          # global name -> frozen value or object
        self.loop_flags: list = []      # stack of (else-flag name or None)
        self.hidden_words: dict = {}    # (Function.hidden_words)
        # statements to run before the one being built (frontend.comprehensions)
        self.pending: list = []
        self.current_stmt = None
        self.returns: dict = {}         # "list" / "other": what the returns return
        self.n_try = 0                  # Try labels (frontend.try_statements)
        self.handling: list = []        # labels of the handlers being built (bare raise)
        self.exc_names: set = set()     # ``except ... as name`` names (``del name``)
        self.exc_bound: list = []       # (name, label) of the handlers being built

    def _take(self, fnode, sv):
        """A rewrite's tree as the one built from now on, and its survey (``sv``
        when the rewrite changed nothing)."""
        if fnode is self.fnode:
            return sv
        self.fnode = fnode
        return survey(fnode)

    # ---------------------------------------------------------------- helpers
    def fail(self, node, construct: str, detail: str = ""):
        line = getattr(node, "lineno", self.p.first_line)
        msg = (f"{self.qualname} ({self.p.filename}:{line}): unsupported {construct}"
               + (f": {detail}" if detail else ""))
        raise UnsupportedError(msg, func=self.qualname, line=line, construct=construct)

    def tmp(self, hint="t") -> str:
        self.n_tmp += 1
        return f"${hint}{self.n_tmp}"

    def resolve(self, name: str, node):
        if name in self.injected:
            return self.injected[name]
        if name in self.p.closure:
            value = self.p.closure[name]
        elif name in self.p.globals:
            value = self.p.globals[name]
        elif hasattr(builtins, name):
            value = getattr(builtins, name)
        elif name in gpu.__all__:        # kernels may call thread_id() unimported
            value = getattr(gpu, name)
        elif eager_self(self.p.pyfunc, name) is not None:   # recursion, signature=
            value = eager_self(self.p.pyfunc, name)
        else:
            self.fail(node, "name", f"{name!r} is not defined")
        self.frozen[name] = value
        return value

    def _global_object(self, name):
        """The object a free name refers to, or None (no error: for analyses)."""
        if name in self.locals:
            return None
        if name in self.injected:
            return self.injected[name]
        for scope in (self.p.closure, self.p.globals):
            if name in scope:
                return scope[name]
        return getattr(builtins, name, None)

    def value_expr(self, value, name, node) -> N.Expr:
        if freezable(value):
            return N.Const(value)
        return ObjRef(value, name)

    # ----------------------------------------------------------------- build
    def build(self) -> N.Function:
        body = self.stmts(self.fnode.body, top=True)
        if self.grow_lists:             # (keys of list names bound to others)
            body = growable_lists.prologue(self) + body
        if falls_through(body):
            body.append(N.Return(value=None, line=getattr(self.fnode, "end_lineno", 0) or 0))
            self.returns["other"] = True
        fn = N.Function(name=self.fnode.name, params=list(self.params),
                        body=body, pyname=self.qualname, filename=self.p.filename)
        fn.hidden_words = self.hidden_words
        if self.returns.get("str"):     # (frontend.str_locals)
            if self.returns.get("other"):
                self.fail(self.fnode, "str returned", "the function returns a str built "
                          "at run time on one path and None (falling off its end) on another")
            fn.returns_list = True              # boxed in Python: a str, or a tuple
            fn.returns_str = self.returns["str"]        # with strs at these positions
        comprehension_lists.mark_returns(self, fn)      # lists the caller gets
        fn.returns_table = self.returns_table  # (list_tables)
        dict_locals.mark_returns(self, fn, self.dict_returns)
        return fn

    def stmts(self, body, top=False) -> list:
        out = []
        for i, s in enumerate(body):
            if (top and i == 0 and isinstance(s, ast.Expr)
                    and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)):
                continue      # docstring
            out.extend(self.stmt(s))
        return out

    def stmt(self, s) -> list:
        line = getattr(s, "lineno", 0)
        meth = getattr(self, "s_" + type(s).__name__, None)
        if meth is None:
            self.fail(s, plain_name(s),
                      ast.unparse(s).splitlines()[0] if hasattr(ast, "unparse") else "")
        saved = self.pending, self.current_stmt
        self.pending, self.current_stmt = [], s
        try:
            out = growable_lists.statement(self, s) if self.grow_lists or \
                self.grow_refused else None
            out = meth(s) if out is None else out
            out = self.pending + out
        finally:
            self.pending, self.current_stmt = saved
        for st in out:
            if not st.line:
                st.line = line
        return out

    # statements ------------------------------------------------------------------
    def s_Import(self, s):
        return local_imports.bind(self, s)

    s_ImportFrom = s_Import

    def s_Pass(self, s):
        return []

    def s_Expr(self, s):
        if isinstance(s.value, ast.Constant):
            return []           # a bare string or number does nothing
        return [N.ExprStmt(value=self.expr(s.value))]

    def s_Return(self, s):
        if getattr(s, "hj_str", False):         # a run-time str (frontend.str_locals)
            self.returns["str"] = s.hj_str      # (True, or its positions in a tuple)
            return [N.Return(value=self.expr(s.value))]
        value = comprehension_lists.returned(self, s.value)    # a list, built as an array
        if value is not None:
            return [N.Return(value=value)]
        self.returns["other"] = True
        return [N.Return(value=self.expr(s.value) if s.value is not None else None)]

    def s_Assign(self, s):
        if len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
                and s.targets[0].id in self.comp_lists:      # xs = [...], only read
            return comprehension_lists.build(self, s.targets[0].id, s.value)
        value = self.expr(s.value)
        if len(s.targets) == 1:
            return self.assign_to(s.targets[0], value)
        name = self.tmp("m")
        self.locals.add(name)
        out = [N.Assign(target=name, value=value)]
        for t in s.targets:
            out.extend(self.assign_to(t, N.Var(name)))
        return out

    def s_AnnAssign(self, s):
        if s.value is None:
            return []
        return self.assign_to(s.target, self.expr(s.value))

    def assign_to(self, target, value) -> list:
        if isinstance(target, ast.Name):
            return [N.Assign(target=target.id, value=value)]
        if isinstance(target, (ast.Tuple, ast.List)):
            if any(isinstance(e, ast.Starred) for e in target.elts):
                return starred_targets.assign(self, target, value)   # first, *rest = t
            name = self.tmp("u")
            self.locals.add(name)
            out = [N.Assign(target=name, value=N.PyCall(callee=Unpack(len(target.elts)),
                                                        args=[value], name="unpack"))]
            for i, elt in enumerate(target.elts):
                out.extend(self.assign_to(elt, N.TupleGet(N.Var(name), i)))
            return out
        if isinstance(target, ast.Subscript) and is_flat(target.value):
            flat_set = registry.flat_callables()[1]
            return [N.ExprStmt(value=N.PyCall(callee=flat_set, args=[
                self.expr(target.value.value), self.expr(target.slice), value],
                name="a.flat[i] = v"))]
        if isinstance(target, ast.Subscript):
            return [N.PySetItem(target=self.expr(target.value),
                                index=self.index(target.slice), value=value)]
        self.fail(target, f"assignment target ({plain_name(target)})")

    def s_AugAssign(self, s):
        op = _BINOPS.get(type(s.op))
        if isinstance(s.target, ast.Subscript) and is_flat(s.target.value):
            return self.aug_flat(s, op)
        if isinstance(s.target, ast.Subscript):
            # a[i] += v: the container and the index are evaluated once
            out = []
            base = self.expr(s.target.value)
            if not isinstance(base, N.Var):
                name = self.tmp("a")
                self.locals.add(name)
                out.append(N.Assign(target=name, value=base))
                base = N.Var(name)
            index = self.index(s.target.slice)
            if not isinstance(index, (N.Const, N.PySlice, N.MakeTuple, ObjRef)):
                name = self.tmp("k")        # (ObjRef: ``...``, not a value)
                self.locals.add(name)
                out.append(N.Assign(target=name, value=index))
                index = N.Var(name)
            value = N.PyBinOp(op, N.PyGetItem(base, index), self.expr(s.value))
            out.append(N.PySetItem(target=base, index=index, value=value, inplace=True))
            return out
        if not isinstance(s.target, ast.Name):
            self.fail(s, "augmented assignment to a non-name target")
        value = N.PyBinOp(op, N.Var(s.target.id), self.expr(s.value))
        assign = N.Assign(target=s.target.id, value=value)
        assign.inplace = True       # on an array, x += y writes into x (NumPy)
        return [assign]

    def aug_flat(self, s, op):
        """``a.flat[i] op= v``: ``a`` and ``i`` evaluated once."""
        flat_get, flat_set = registry.flat_callables()
        out, parts = [], []
        for node in (s.target.value.value, s.target.slice):
            name = self.tmp("f")
            self.locals.add(name)
            out.append(N.Assign(target=name, value=self.expr(node)))
            parts.append(N.Var(name))
        value = N.PyBinOp(op, N.PyCall(callee=flat_get, args=list(parts), name="a.flat[i]"),
                          self.expr(s.value))
        out.append(N.ExprStmt(value=N.PyCall(callee=flat_set, args=parts + [value],
                                             name="a.flat[i] = v")))
        return out

    def s_If(self, s):
        return [N.If(cond=self.cond(s.test), then=self.stmts(s.body),
                     orelse=self.stmts(s.orelse))]

    def s_While(self, s):
        if walrus.holds(s.test):            # while (x := f(x)) > eps: (frontend/walrus.py)
            if not walrus.plain_else(s.orelse):
                self.fail(s, "assignment expression (:=)", "in the test of a while "
                          "loop whose else: clause has a break or continue")
            s = walrus.while_loop(s)
        return super().s_While(s)

    def s_Break(self, s):
        if not self.loop_flags:
            self.fail(s, "break outside a loop")
        flag = self.loop_flags[-1]
        out = [N.Assign(target=flag, value=N.Const(True))] if flag else []
        return out + [N.Break()]

    def s_Continue(self, s):
        return [N.Continue()]

    def s_Try(self, s):
        return try_statements.build_try(self, s)

    def s_Delete(self, s):
        return try_statements.delete(self, s)

    def s_Raise(self, s):
        if s.cause is not None:
            try_statements.check_cause(self, s)     # (re-runs in the interpreter)
        if s.exc is None:
            return try_statements.bare_raise(self, s)
        if (out := try_statements.raise_name(self, s)) is not None:
            return out                      # raise e: the caught exception again
        exc, msg, args = s.exc, "", []
        if isinstance(exc, ast.Call):
            if exc.keywords or len(exc.args) > 1:
                self.fail(s, "raise", "exceptions take at most one message argument")
            if exc.args:
                msg, args = self.message(exc.args[0], "raise")
                self._nonempty(s, msg, args, "raise")
            exc = exc.func
        cls = self.expr(exc)
        obj = getattr(cls, "obj", None)
        if not (isinstance(obj, type) and issubclass(obj, BaseException)):
            self.fail(s, "raise", "only exception classes can be raised")
        # ``from c``, or a raise in an except or finally clause (whose exception
        # CPython gives the one being handled as ``__context__``): compiled code
        # has no exception objects, so the call re-runs in the interpreter
        cause = "raise ... from" if s.cause is not None else \
            "raise in an except or finally clause" if self.handling else ""
        out = N.Raise(exc=obj, message=msg, args=args, deopt=RERUN if cause else False)
        out.hj_cause = cause                        # (passes/rerun_safety.no_cause_rerun)
        return [out]

    def s_Assert(self, s):
        msg, args = ("", []) if s.msg is None else self.message(s.msg, "assert")
        if s.msg is not None:
            self._nonempty(s, msg, args, "assert")
        return [N.If(cond=N.PyUnOp("not", self.cond(s.test)),
                     then=[N.Raise(exc=AssertionError, message=msg, args=args,
                                   line=s.lineno)])]

    def _nonempty(self, s, msg, args, what):
        """An empty message text: compiled raises carry it as no arguments at all
        (``e.args == ()``, errors.kernel_exception), where CPython's has ``('',)``."""
        if msg == "" and not args:
            self.fail(s, what, "an empty message (CPython's exception has the argument "
                      "'', the compiled one none)")

    def message(self, node, what) -> tuple[str, list]:
        """An exception message: a string literal, or an f-string formatting up to
        three integers or floats (``f"index {i} out of range"``), as a kernel message
        template (``errors.kernel_message``) and the expressions in its fields."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return escape_braces(node.value), []
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            made = message_formats.percent_message(self, node)
        elif isinstance(node, ast.Call):
            made = message_formats.format_message(self, node)
        else:
            made = None
        if made is None:
            made = message_formats.value_message(self, node)
        if made is not None:
            return made
        if not isinstance(node, ast.JoinedStr):
            self.fail(node, what, "the message must be a string literal, an f-string, "
                      "or '...' % values / '...'.format(values) with %s, %r, {} fields")
        parts, args = [], []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(escape_braces(v.value))
            elif v.conversion in (-1, ord("s"), ord("r")) and v.format_spec is None:
                # the conversion is kept until the field's type is known
                parts.append("{}" if v.conversion == -1 else "{!%c}" % v.conversion)
                args.append(self.expr(v.value))
            elif (cut := message_formats.str_precision(v)) is not None:
                parts.append("{!%c.%d}" % (v.conversion, cut))   # {s!r:.200}: a str's
                args.append(self.expr(v.value))
            else:
                self.fail(v, what, "f-string conversions and format specifications")
        return "".join(parts), args       # (at most three fields: checked when typed)

    # expressions ---------------------------------------------------------------------
    def cond(self, e) -> N.Expr:
        """An expression in a truth context (``if``, ``while``, ``assert``)."""
        if isinstance(e, ast.BoolOp):       # (each operand is in one too: ``if out and x``)
            return N.PyBoolOp("and" if isinstance(e.op, ast.And) else "or",
                              [self.cond(v) for v in e.values])
        return growable_lists.non_empty(self, e) or comprehension_lists.non_empty(self, e) \
            or truth(self.expr(e))

    def expr(self, e) -> N.Expr:
        meth = getattr(self, "e_" + type(e).__name__, None)
        if meth is None:
            self.fail(e, plain_name(e), _src(e))
        return meth(e)

    def e_Constant(self, e):
        v = e.value
        if freezable(v):
            return N.Const(v)
        if isinstance(v, str) or v is Ellipsis:   # library-call arguments, indices
            return ObjRef(v, repr(v))
        self.fail(e, "constant", f"{type(v).__name__} values are not supported")

    def e_Name(self, e):
        if e.id in self.grow_lists:
            self.fail(e, "use of a list", f"'{e.id}' here")
        if e.id in self.locals:
            var = N.Var(e.id)
            if e.id in self.list_names:     # a read-only list (a tuple): ufunc.at's index
                var.from_list = True
            return var
        return self.value_expr(self.resolve(e.id, e), e.id, e)

    def e_Attribute(self, e):
        base = self.expr(e.value)
        if isinstance(base, ObjRef) and not registry.is_global_array(base.obj):
            try:
                value = getattr(base.obj, e.attr)
            except AttributeError:
                self.fail(e, "attribute", f"{base.name}.{e.attr} does not exist")
            name = f"{base.name}.{e.attr}"
            return self.value_expr(value, name, e)
        return N.PyAttr(base, e.attr)

    def folded(self, node, fold, operands):
        """Constant operands folded exactly as CPython (``ir/constants.py``)."""
        if not all(isinstance(a, N.Const) for a in operands):
            return None
        try:
            return N.Const(fold([a.value for a in operands]))
        except K.NotFolded:
            return None
        except K.TooBig:
            self.fail(node, "integer constant", f"{_src(node)} does not fit in int64 "
                      "(compiled integers are 64-bit)")

    def e_BinOp(self, e):
        op, ab = _BINOPS[type(e.op)], [self.expr(e.left), self.expr(e.right)]
        return self.folded(e, lambda v: K.fold_binop(op, *v), ab) or N.PyBinOp(op, *ab)

    def e_UnaryOp(self, e):
        op = _UNOPS[type(e.op)]
        if op == "not":
            return N.PyUnOp("not", self.cond(e.operand))
        operand = self.expr(e.operand)
        return self.folded(e, lambda v: K.fold_unop(op, v[0]), [operand]) \
            or N.PyUnOp(op, operand)          # -1, -2.5, -9223372036854775808

    def e_BoolOp(self, e):
        op = "and" if isinstance(e.op, ast.And) else "or"
        return N.PyBoolOp(op, [self.expr(v) for v in e.values])

    def e_Compare(self, e):
        if self.grow_lists and ((v := growable_lists.contains(self, e)) is not None or (
                v := growable_lists.compare(self, e)) is not None):
            return v                    # x in out, out == other
        ops = [_CMPOPS[type(o)] for o in e.ops]
        operands = [self.expr(e.left)] + [self.expr(c) for c in e.comparators]
        return self.folded(e, lambda v: K.fold_compare(ops, v), operands) \
            or N.PyCompare(ops, operands)

    def e_NamedExpr(self, e):
        return walrus.build(self, e)

    def e_IfExp(self, e):
        return N.PyIfExp(self.cond(e.test), self.expr(e.body), self.expr(e.orelse))

    def e_Tuple(self, e):
        if any(isinstance(x, ast.Starred) for x in e.elts):
            self.fail(e, "starred expression")
        items = [self.expr(x) for x in e.elts]
        if all(isinstance(i, N.Const) for i in items):
            return N.Const(tuple(i.value for i in items))
        return N.MakeTuple(items)

    def e_Subscript(self, e):
        if is_flat(e.value):                   # a.flat[i]
            return N.PyCall(callee=registry.flat_callables()[0], args=[self.expr(e.value.value),
                                                   self.expr(e.slice)], name="a.flat[i]")
        if isinstance(e.value, ast.Name) and e.value.id in self.comp_lists:
            return comprehension_lists.item(self, e.value.id, self.index(e.slice))
        if isinstance(e.value, ast.Name) and (e.value.id in self.grow_lists or
                                              getattr(e, "hj_items_like", None)):
            return growable_lists.item(self, e)
        trick = index_grid_calls.marker(self, e)          # np.r_[...], np.mgrid[...]
        if trick is not None:
            return index_grid_calls.build(self, trick, e)
        kind = "list" if self.is_list(e.value) else "tuple"
        index = self.index(e.slice)
        if kind == "list" and isinstance(index, N.Const) and type(index.value) is bool:
            index = N.Const(int(index.value))       # w[True] is w[1]
        return N.PyGetItem(self.expr(e.value), index, kind=kind)

    def is_list(self, node) -> bool:
        """Is ``node`` a read-only list built as a tuple (or an item of a nest of
        them: ``w[i]`` of ``w = [[1, 2], [3, 4]]``)?"""
        depth = 0
        while isinstance(node, ast.Subscript):
            node, depth = node.value, depth + 1
        if isinstance(node, ast.Name) and node.id in self.list_names:
            return depth == 0 or self.list_names[node.id]
        return depth == 0 and id(node) in self.list_displays

    def e_Dict(self, e):
        reasons = "; ".join(self.dict_reasons.values())
        self.fail(e, "dict display", f"{_src(e)}" + (
            f": {reasons}" if reasons else ": a dict is compiled only as a local of "
            "numbers used by its own operations (docs/semantics.md, dicts)"))

    def e_Set(self, e):
        reasons = "; ".join(self.set_reasons.values())
        self.fail(e, plain_name(e), f"{_src(e)}" + (
            f": {reasons}" if reasons else ": a set is compiled only as a local of "
            "numbers used by its own operations (docs/semantics.md, sets)"))

    e_SetComp = e_Set

    def e_List(self, e):
        if id(e) not in self.list_displays:
            self.fail(e, "list display", f"{_src(e)}: " + (
                "; ".join(self.table_reasons.values()) if self.table_reasons and
                growable_list_uses.nested_reason(self.fnode, e) else
                growable_list_uses.nested_reason(self.fnode, e) or "a list is compiled only "
                "where it is never changed, returned or passed on (read as a tuple)"))
        return self.list_arg(e)

    def index(self, node) -> N.Expr:
        """An index: an expression, a slice, or a tuple of them (``m[i, 1:3]``)."""
        if isinstance(node, ast.Slice):
            part = (lambda x: self.expr(x) if x is not None else N.Const(None))
            return N.PySlice(part(node.lower), part(node.upper), part(node.step))
        if isinstance(node, ast.List):
            return index_array(self, node)
        if isinstance(node, ast.Name) and node.id in self.list_names:
            import numpy        # a list held in a name: NumPy's np.array of it
            return N.PyCall(callee=numpy.array, args=[self.expr(node)], kwargs={},
                            name="np.array")
        if isinstance(node, ast.Tuple) and any(
                isinstance(x, (ast.Slice, ast.List))
                or isinstance(x, ast.Name) and x.id in self.list_names for x in node.elts):
            return N.MakeTuple([self.index(x) for x in node.elts])
        return self.expr(node)

    def e_Call(self, e):
        if any(isinstance(a, ast.Starred) for a in e.args) or any(
                k.arg is None for k in e.keywords):
            self.fail(e, "call with *args or **kwargs", _src(e))
        if self.grow_lists and (v := growable_lists.call(self, e)) is not None:
            return v                    # len(out), out.index(x) ... of a growable list
        if isinstance(e.func, (ast.Call, ast.Name)) and \
                (v := vectorize_calls.build(self, e)) is not None:
            return v                    # np.vectorize(f)(x)
        func = self.expr(e.func)
        if isinstance(func, ObjRef) and func.obj in (set, frozenset):
            self.e_Set(e)
        if isinstance(func, ObjRef) and func.obj is isinstance and self.exc_bound and \
                (v := try_statements.isinstance_of(self, e)) is not None:
            return v                    # isinstance(e, X) of a caught exception
        if isinstance(func, ObjRef) and (v := built_calls.build(self, func.obj, e)) is not None:
            return v                    # np.piecewise, np.fromiter: loops of their own
        if isinstance(func, ObjRef) and key_functions.handles(func.obj, e):
            return key_functions.min_max(self, e, func.obj)     # min(seq, key=f)
        if isinstance(func, ObjRef) and comprehensions.reduces(self, func.obj, e):
            return comprehensions.reduce_comprehension(self, e, func.obj)
        literal_lists = (isinstance(func, ObjRef) and getattr(
            func.obj, "__module__", None) in ("numpy", "numpy._core.multiarray",
                                               "numpy._core.shape_base", "numpy.core.multiarray")
                         ) or (isinstance(func, N.PyAttr) and func.attr in _ARRAY_LIKE_METHODS)
        arg = (lambda a: self.list_arg(a, e)) if literal_lists else self.expr
        args = [arg(a) for a in e.args]
        if literal_lists and isinstance(func, ObjRef) and comprehension_arrays.is_built(
                func.obj, e):
            return args[0]                  # np.array([...]): the array built for it
        kwargs = {k.arg: arg(k.value) for k in e.keywords}
        if isinstance(func, ObjRef) and func.obj is builtins.pow and len(args) == 2 \
                and not kwargs:                           # pow(x, y) is x ** y
            return self.folded(e, lambda v: K.fold_binop("pow", *v), args) \
                or N.PyBinOp("pow", args[0], args[1])
        if isinstance(func, ObjRef) and not kwargs and (c := self.folded(
                e, lambda v: K.fold_call(func.obj, v), args)):        # float(2**63)
            return c
        if isinstance(func, ObjRef) and func.obj is builtins.float and not kwargs \
                and len(args) == 1 and isinstance(args[0], ObjRef) \
                and type(args[0].obj) is str:          # float("inf"), float("nan")
            try:
                return N.Const(float(args[0].obj))
            except ValueError:
                self.fail(e, "call of float", f"float({args[0].obj!r}) raises "
                          "ValueError")
        if isinstance(func, ObjRef) and func.obj is _numpy_where() and len(args) == 1 \
                and not kwargs:                   # np.where(c) is np.nonzero(c)
            import numpy
            return N.PyCall(callee=numpy.nonzero, args=args, kwargs={}, name="np.nonzero")
        if isinstance(func, ObjRef):        # (hj_name: a generated call's words)
            return N.PyCall(callee=func.obj, args=args, kwargs=kwargs,
                            name=getattr(e, "hj_name", None) or func.name)
        if isinstance(func, N.PyAttr):      # method call on a value
            return N.PyCall(callee=Method(func.attr), args=[func.value] + args,
                            kwargs=kwargs, name=func.attr)
        if isinstance(func, N.Var):         # a function argument (infer/function_args)
            return N.PyCall(callee=func, args=args, kwargs=kwargs, name=func.name)
        self.fail(e, "call of a value", _src(e))


    def list_arg(self, node, call=None):
        """A NumPy function's argument: a list display (``np.array([1.0, x])``) is
        read like a tuple, since it is never mutated there."""
        if isinstance(node, ast.List) or isinstance(node, ast.Tuple) and any(
                isinstance(x, ast.List) for x in node.elts):   # (also ``([1, 0], [0, 1])``)
            built = self.e_Tuple(ast.Tuple(elts=[as_tuple(x) for x in node.elts],
                                           ctx=ast.Load()))
            mark_lists(node, built)
            return built
        if isinstance(node, ast.ListComp):          # np.array([f(x) for x in a])
            return comprehension_arrays.build_array(self, node, call)
        return growable_lists.as_array(self, node) or self.expr(node)    # np.mean(out)


# array methods whose arguments NumPy reads as arrays (``a.take([0, 2])``): a list
# display there is read like a tuple, as in a NumPy function's arguments
_ARRAY_LIKE_METHODS = frozenset({"take"})


def _numpy_where():
    import numpy
    return numpy.where


def truth(e: N.Expr) -> N.Expr:
    """Wrap ``e`` for a truth context, pushing through ``and``/``or``/``not``."""
    if isinstance(e, N.Truth):
        return e
    if isinstance(e, N.PyBoolOp):
        return N.PyBoolOp(e.op, [truth(v) for v in e.values])
    if isinstance(e, N.PyUnOp) and e.op == "not":
        return e
    if isinstance(e, N.PyCompare) and not any(o in ("in", "notin") for o in e.ops):
        return e
    return N.Truth(e)


def _src(e) -> str:
    try:
        return ast.unparse(e)[:60]
    except Exception:       # pragma: no cover
        return ""


def build_function(parsed: ParsedFunction, parallel: dict | None = None,
                   arg_types: tuple = ()) -> tuple[N.Function, dict]:
    """Build the Python-level IR of a parsed function (called with ``arg_types``:
    its str arguments' values are known); also return the frozen globals (name ->
    value) the body depends on."""
    args = parsed.node.args
    params = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
    defaults = {p: t.value for p, t in zip(params, arg_types) if isinstance(t, T.DefaultArg)}
    if defaults:
        parsed = omitted_defaults.folding(parsed, defaults)
    str_args = {p: t.value for p, t in zip(params, arg_types) if isinstance(t, T.StrArg)}
    # (a run-time str passed by a compiled caller: its code points, frontend.str_locals)
    str_args.update({p: None for p, t in zip(params, arg_types)
                     if isinstance(t, T.StrCodes)})
    b = Builder(parsed, parallel, str_args)
    fn = b.build()
    fn.locals = {}
    fn.frontend_locals = b.locals
    return fn, b.frozen


__all__ = ["build_function", "ObjRef", "Method", "truth", "is_number", "freezable"]
