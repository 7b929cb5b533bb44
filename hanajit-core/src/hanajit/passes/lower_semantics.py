"""Lower Python semantics to primitive IR (the one place they are decided).

Runs after type inference.  Every ``Py*`` node becomes primitive nodes: operators
expand through :mod:`hanajit.lib.python.operators` (floor division, ``%``, ``**``,
shifts, exact int/float comparisons), calls through the template registry, and
``and``/``or``/conditional expressions become ``Select`` or short-circuit ``If``.
Checks that raise (division by zero, ``range`` step 0) become ``If`` + ``Raise``
statements placed in Python's evaluation order.

Example (``x = a // b`` on ints)::

    x = PyBinOp(floordiv, a, b)   ->   if b == 0: raise ZeroDivisionError(...)
                                       $t1 = select(a == MIN & b == -1, 1, b)
                                       $t2 = srem(a, $t1)
                                       x = sdiv(a, $t1) - select($t2 != 0 &
                                               ($t2 ^ b) < 0, 1, 0)
"""
from __future__ import annotations

from ..errors import UnsupportedError, escape_braces
from ..typing_rules import Incompatible, same_kind
from ..ir import nodes as N
from ..ir import types as T
from ..lib.indexing import elements
from ..lib.indexing import views
from ..lib.arrays import elementwise as ew
from ..lib.python import int_overflow, kind_guards
from ..lib.python import operators as ops
from ..lib.python import string_algorithms
from ..lib import registry
from ..lib.parallel.regions import ParallelRegion
from . import fuse_temps, inline
from ..ir.frontend_nodes import Method, Unpack, falls_through


def stable(e: N.Expr) -> bool:
    """Can ``e`` be evaluated later, after other statements, with the same value?

    True for constants, locals and pure trees of them (statements emitted while
    lowering an expression only assign fresh temporaries)."""
    return True


def trivial(e: N.Expr) -> bool:
    return isinstance(e, (N.Const, N.Var))


class Lowerer:
    """Rewrites one typed function to primitive IR."""

    def __init__(self, ctx, fn: N.Function):
        self.ctx = ctx
        self.fn = fn
        self.out: list = []
        # Python ints deoptimise beyond int64, except where proven to stay inside
        self.int_checks = int_overflow.enabled(fn)
        self.int_facts = int_overflow.analyze(fn) if self.int_checks else None

    # ------------------------------------------------------------- utilities
    def emit(self, stmt: N.Stmt):
        if not stmt.line:
            stmt.line = self.line
        self.out.append(stmt)

    def temp(self, t: T.Type, hint="t") -> str:
        return self.fn.new_temp(t, hint)

    def let(self, e: N.Expr, hint="t") -> N.Expr:
        """``e`` as a Const or Var (assigning a temporary if needed)."""
        if isinstance(e, ew.Lazy):
            return ew.materialize(self, e)
        if trivial(e):
            return e
        name = self.temp(e.type, hint)
        self.emit(N.Assign(target=name, value=e))
        if self.int_facts is not None:        # (a fresh temporary: assigned once)
            int_overflow.note(self, name, e)
        return N.Var(name, e.type)

    def raise_if(self, cond: N.Expr, exc, message: str):
        if isinstance(cond, N.Const) and not cond.value:
            return
        self.emit(N.If(cond=cond, then=[N.Raise(exc=exc, message=message, line=self.line)],
                       line=self.line))

    def sub_block(self, fn_build):
        """Run ``fn_build()`` collecting the statements it emits; return (stmts, value)."""
        saved = self.out
        self.out = []
        try:
            value = fn_build()
            return self.out, value
        finally:
            self.out = saved

    def seq(self, exprs: list) -> list:
        """Lower ``exprs`` left to right, keeping Python's evaluation order."""
        results = []
        for e in exprs:
            mark = len(self.out)
            r = self.lower(e)
            if len(self.out) > mark:
                pos = mark
                for i, prev in enumerate(results):
                    if not trivial(prev) and not stable(prev):
                        name = self.temp(prev.type)
                        self.out.insert(pos, N.Assign(target=name, value=prev,
                                                      line=self.line))
                        if self.int_facts is not None:
                            int_overflow.note(self, name, prev)
                        pos += 1
                        results[i] = N.Var(name, prev.type)
            results.append(r)
        return results

    def call_helper(self, pyfunc, args: list, result_type=None) -> N.Expr:
        """Call a Python-source helper (compiled by hanajit) on lowered args."""
        sym, rtype = self.ctx.helper(pyfunc, tuple(a.type for a in args))
        return self.call_symbol(sym, args, rtype)

    def str_field(self, a) -> N.Expr:
        """A copy of the run-time str ``a`` (``T.StrCodes``) for a raise's message
        (its reference the error record takes: ``errors.Field``)."""
        codes = T.ArrayType(T.INT32, 1, "C")
        name = self.temp(codes, "s")
        self.emit(N.Assign(target=name, value=a))       # (the same form: strings.py)
        return self.call_helper(string_algorithms.copied, [N.Var(name, codes)])

    def call_symbol(self, sym, args, rtype) -> N.Expr:
        name = self.temp(rtype, "r")
        self.emit(N.Assign(target=name, value=N.Call(sym, list(args), rtype)))
        return N.Var(name, rtype)

    # ------------------------------------------------------------ statements
    def run(self):
        self.line = 0
        fn = self.fn
        entry = []
        # a parameter the body widens (``a = 1.5`` with an int ``a``) arrives as its
        # argument type and is converted once on entry
        for k, (p, at) in enumerate(zip(fn.params, fn.arg_types)):
            if fn.locals.get(p) != at:
                arg = fn.new_temp(at, "arg")
                fn.params[k] = arg
                entry.append(N.Assign(target=p, value=ops.convert_wrap(N.Var(arg, at),
                                                                        fn.locals[p])))
        self.fusible = fuse_temps.candidates(fn)
        self.deferred: dict = {}          # array temporaries kept lazy (fuse_temps)
        try:
            fn.body = entry + self.block(fn.body)
        except Incompatible as exc:
            # a template found a case its typer let through (an ordering of complex
            # arrays): a fallback naming the line, never an internal error
            raise UnsupportedError(
                f"{fn.pyname} ({fn.filename}:{self.line}): unsupported operation: {exc}",
                func=fn.pyname, line=self.line, construct="operation") from None
        fn.level = "primitive"

    def block(self, stmts) -> list:
        saved = self.out
        self.out = []
        try:
            for k, s in enumerate(stmts):
                self.line = s.line
                if self.fusible and fuse_temps.deferrable(stmts, k, self.fusible):
                    v = self.lower(s.value)
                    if isinstance(v, ew.Lazy):
                        self.deferred[s.target] = [v, self.fusible[s.target]]
                        continue
                    self.emit(N.Assign(target=s.target, value=ew.materialize(self, v),
                                       line=s.line))
                    continue
                start, deferred = len(self.out), set(self.deferred)
                self.stmt(s)
                self.keep_reads(s, start, deferred)
                if isinstance(s, N.If) and s.static is not None:
                    if not falls_through(s.then if s.static else s.orelse):
                        break     # dead code after a branch decided by types
            return self.out
        finally:
            self.out = saved

    def keep_reads(self, s, start: int, deferred: set) -> None:
        """Locals ``s`` reads whose reads its lowering dropped -- the value was the
        type's (``len`` of a tuple, ``a.ndim``, ``x is None``) -- are read all the
        same, first (``ExprStmt(Var)``, which backends do not evaluate): one unbound
        on some path still raises UnboundLocalError (``passes/unbound_locals``).
        ``deferred``: the temporaries fused into later expressions, read there."""
        names = set()
        for e in N.stmt_exprs(s):
            if e is not None:
                names |= N.read_names(e)
        names.difference_update(self.fn.params)
        names.difference_update(deferred)     # (fused in: fuse_temps)
        # (the compiler's own locals, ``$...``, may be read for their type only:
        # ``list_new($li_out)`` before any item was made)
        names = {n for n in names if not n.startswith("$")}
        if not names:
            return
        for t in self.out[start:]:
            for sub in N.walk_stmts([t]):
                for e in N.stmt_exprs(sub):
                    if e is not None:
                        names -= N.read_names(e)
        locals_ = self.fn.locals
        lost = [N.ExprStmt(value=N.Var(n, locals_[n]), line=s.line)
                for n in sorted(names) if n in locals_]
        self.out[start:start] = lost

    def stmt(self, s):
        if isinstance(s, N.Assign):
            t = self.fn.locals.get(s.target)
            if s.inplace and isinstance(t, T.ArrayType):
                self.inplace_update(s, t)
                return
            self.emit(N.Assign(target=s.target, value=self.value(s.value), line=s.line))
        elif isinstance(s, N.ExprStmt):
            v = self.lower(s.value)
            if isinstance(v, N.Call):
                self.emit(N.ExprStmt(value=v, line=s.line))
        elif isinstance(s, N.If):
            if s.static is not None:
                self.out.extend(self.block(s.then if s.static else s.orelse))
                return
            cond = self.condition(s.cond)
            if isinstance(cond, N.Const):
                self.out.extend(self.block(s.then if cond.value else s.orelse))
                return
            self.emit(N.If(cond=cond, then=self.block(s.then), orelse=self.block(s.orelse),
                           line=s.line))
        elif isinstance(s, N.PyWhile):
            head, cond = self.sub_block(lambda: self.condition(s.cond))
            body = list(head)
            if not (isinstance(cond, N.Const) and cond.value):
                body.append(N.If(cond=ops.logical_not(cond), then=[N.Break(line=s.line)],
                                 line=s.line))
            body.extend(self.block(s.body))
            self.emit(N.Loop(body=body, line=s.line))
        elif isinstance(s, N.Loop):
            self.emit(N.Loop(body=self.block(s.body), line=s.line))
        elif isinstance(s, N.PyForRange):
            self.for_range(s)
        elif isinstance(s, N.Return):
            value = self.value(s.value) if s.value is not None else None
            self.emit(N.Return(value=value, line=s.line))
        elif isinstance(s, N.Raise):
            message, args = ops.raise_fields(s.message, self.seq(s.args))
            # a str field: a copy of its own, whose reference the record takes
            args = [self.str_field(a) if isinstance(a.type, T.ArrayType) else a
                    for a in args]
            self.emit(N.Raise(exc=s.exc, message=message, args=args, line=s.line,
                              deopt=s.deopt))
        elif isinstance(s, N.PySetItem):
            arr, idx = self.seq([s.target, s.index])
            t = s.target.type
            value = self.lower(s.value)
            if t.readonly:
                self.emit(N.Raise(exc=ValueError, message="assignment destination is read-only",
                                  line=s.line))
                return
            if s.inplace and isinstance(value.type, T.ArrayType) and not same_kind(
                    value.type.dtype, t.dtype):
                self.emit(_cast_error(s.value, value.type.dtype, t.dtype, s.line))
                return
            if getattr(s, "weak_value", False):
                # NumPy 2: a Python int stored into a narrower integer array must fit
                value, = ew.python_int_fits(self, [value], t.dtype)
            # what setitem_value converts: a Python number or a NumPy scalar
            python = bool(getattr(s, "weak_value", False))
            if isinstance(s.index.type, T.ArrayType):
                from ..lib.indexing import fancy
                # a NumPy scalar through index arrays or a mask is cast as arrays are
                fancy.setitem(self, arr, idx, value, python or "cast")
                return
            if isinstance(views.result_type(t, s.index.type), T.ArrayType):
                elements.assign_to_view(self, views.lower_index(self, arr, idx, s.index.type,
                                                              write=True), value, python)
                return
            idxs = elements.index_values(self, idx, s.index.type)
            arr = self.let(arr)
            idxs = elements.checked_indices(self, arr, idxs)
            value = elements.setitem_value(self, value, t.dtype, python)
            self.emit(N.Store(array=arr, indices=idxs, value=value, line=s.line))
        elif isinstance(s, (N.Break, N.Continue)):
            self.emit(type(s)(line=s.line))
        elif isinstance(s, N.Try):
            self.emit(N.Try(body=self.block(s.body), then=self.block(s.then),
                            orelse=self.block(s.orelse), label=s.label, line=s.line))
        elif isinstance(s, N.Reraise):
            self.emit(N.Reraise(label=s.label, line=s.line))
        else:  # pragma: no cover
            raise AssertionError(f"unexpected statement {s}")

    def inplace_update(self, s, t):
        """``a op= b`` on an array: compute ``a op b`` (as if from copies, so
        overlapping operands give NumPy's result) and store it into ``a``."""
        s.value.inplace = True           # (product_forms.plain_flag: a is out)
        value = self.lower(s.value)
        rt = s.value.type
        if isinstance(rt, T.ArrayType) and rt.dtype != t.dtype and not same_kind(rt.dtype,
                                                                                    t.dtype):
            self.emit(_cast_error(s.value, rt.dtype, t.dtype, s.line))
            return
        if t.readonly:
            self.emit(N.Raise(exc=ValueError, message="output array is read-only",
                              line=s.line))
            return
        target = N.Var(s.target, t)
        if isinstance(rt, T.ArrayType):
            # NumPy's in-place ufunc: its output must be the broadcast shape
            if not isinstance(value, ew.Lazy):
                value = self.let(value)
            dims = value.dims if isinstance(value, ew.Lazy) else [
                N.ArrayAttr(value, "shape", k, T.INT64) for k in range(rt.ndim)]
            elements.broadcast_dims_check(self, dims, [N.ArrayAttr(target, "shape", k, T.INT64)
                                                       for k in range(t.ndim)], output=True)
        full = N.ArrayView(target, N.Const(0, T.INT64),
                           [N.ArrayAttr(target, "shape", k, T.INT64) for k in range(t.ndim)],
                           [N.ArrayAttr(target, "stride", k, T.INT64) for k in range(t.ndim)],
                           t)
        elements.assign_to_view(self, full, value)

    def for_range(self, s):
        t = self.fn.locals[s.target]
        bounds = self.seq([s.start, s.stop, s.step])
        if t == T.INT64:
            # range() of a NumPy uint64 counts in Python ints: a bound beyond int64
            # deoptimises instead of wrapping
            bounds = [int_overflow.uint64_as_python_int(self, e, "a range() bound")
                      for e in bounds]
        start, stop, step = (ops.convert(self, e, t) for e in bounds)
        start, stop, step = self.let(start), self.let(stop), self.let(step)
        # the range is made once: a start or step the body rebinds is copied first
        rebound = {st.target for st in N.walk_stmts(s.body)
                   if isinstance(getattr(st, "target", None), str)}
        held = []
        for e in (start, step):
            if isinstance(e, N.Var) and e.name in rebound:
                name = self.temp(e.type, "bound")
                self.emit(N.Assign(target=name, value=e))
                e = N.Var(name, e.type)
            held.append(e)
        start, step = held
        count = ops.range_count(self, start, stop, step)
        counter = self.temp(T.INT64, "i")
        value = ops.range_value(start, N.Var(counter, T.INT64), step, t)
        body = [N.Assign(target=s.target, value=value, line=s.line)] + self.block(s.body)
        self.emit(N.ForCount(counter=counter, count=count, body=body, line=s.line,
                             short=self.fn.short_loops))

    # ----------------------------------------------------------- expressions
    def lower(self, e: N.Expr) -> N.Expr:
        """Lower ``e``; an array-valued result may be a lazy (unmaterialised) array."""
        meth = getattr(self, "e_" + type(e).__name__)
        return meth(e)

    def value(self, e: N.Expr) -> N.Expr:
        """Lower ``e`` to a value that exists (lazies are materialised)."""
        return ew.materialize(self, self.lower(e))

    def e_Const(self, e):
        return e

    def e_Caught(self, e):
        return e

    def e_ObjRef(self, e):
        if isinstance(getattr(e, "type", None), (T.FunctionArg, T.StrArg)):
            return N.Const(None, e.type)    # a function passed on: nothing at run time
        if isinstance(getattr(e, "type", None), T.ArrayType):
            return registry.lower_global_array(e, e.type)   # a global array
        return e            # a compile-time argument; templates read ``.obj``

    def e_Var(self, e):
        if e.name in self.deferred:
            lazy = self.deferred[e.name]        # [value, reads left]
            lazy[1] -= 1
            if not lazy[1]:
                del self.deferred[e.name]
            return lazy[0]
        e.type = self.fn.locals.get(e.name, e.type)
        return e

    def e_Cast(self, e):
        return ops.convert(self, self.lower(e.operand), e.type)

    # primitive nodes an analysis put into the typed tree (infer/widened_locals)
    def e_Cmp(self, e):
        return N.Cmp(e.op, self.lower(e.left), self.lower(e.right), e.type)

    def e_Intrinsic(self, e):
        return N.Intrinsic(e.name, [self.lower(a) for a in e.args], e.type)

    def e_ComplexPart(self, e):
        return N.ComplexPart(self.lower(e.operand), e.part, e.type)

    def e_MakeTuple(self, e):
        items = [ew.materialize(self, x) for x in self.seq(e.items)]
        return N.MakeTuple(items, e.type)

    def e_TupleGet(self, e):
        tup = self.lower(e.tup)
        if isinstance(tup, N.MakeTuple):
            return tup.items[e.index]
        idx = e.index % len(e.tup.type.items)
        return N.TupleGet(tup, idx, e.type)

    def e_PyBinOp(self, e):
        a, b = self.seq([e.left, e.right])
        if e.op == "matmul":
            from ..lib.linalg.dot import dot
            return dot(self, a, b, e.type, "matmul")
        if isinstance(e.type, T.ArrayType):
            t = e.type.dtype
            a, b = ew.python_int_fits(self, [a, b], t)
            kind = e.python_exponent
            plain_if = None
            if t.is_complex and (e.op == "mul" or e.op == "pow" and kind == T.INT64):
                from ..lib.complex.product_forms import plain_flag
                plain_if = plain_flag(self, [a, b] if e.op == "mul" else [a], t,
                                             square=e.op == "pow",
                                             out=a if getattr(e, "inplace", False) else None)
            if e.op == "pow" and t.is_complex and kind is not None:
                from ..lib.complex.power import python_exponent_power
                return ew.lift(self, [a, b], e.type,      # NumPy's fast_scalar_power
                               lambda x, y: python_exponent_power(self, x, y, t, kind,
                                                                  plain_if))
            if e.op == "pow" and ew.one_exponent(b.type, t):
                k = b.operand if isinstance(b, N.Cast) else b       # (2: a * a ...)
                fast = isinstance(k, N.Const) and k.value in (2, 0.5, -1, 0, 1)
                return ew.mark_costly(ew.lift(self, [a, b], e.type,    # fast paths
                                              lambda x, y: ew.np_power_one_exponent(
                                                  self, x, y, t)), not fast)
            return ew.mark_costly(ew.lift(self, [a, b], e.type,
                                          lambda x, y: ew.np_binop(self, e.op, x, y, t,
                                                                   plain_if=plain_if)),
                                  e.op == "pow" and t.is_float)
        t = e.type
        if e.numpy_semantics:
            # a NumPy scalar operand: NumPy's element semantics, as on arrays
            # (float division by zero is inf, integer // 0 is 0, int ** -1 raises
            # ValueError); a Python int must fit a narrower integer type
            a, b = ew.python_int_fits(self, [a, b], t)
            zero_check = getattr(e, "zero_check", None)
            if zero_check is not None:
                # a local still a Python number divides as Python does
                # (infer/python_state.py): ZeroDivisionError, not inf
                states, message = zero_check
                b = self.let(b)
                python = None
                for name in states:
                    now = ops.logical_not(N.Var(name, T.BOOL))
                    python = now if python is None else ops.band(python, now)
                self.raise_if(ops.band(python, N.Cmp("eq", b, ops.zero(b.type), T.BOOL)),
                              ZeroDivisionError, message)
            elif getattr(e, "python_check", False):
                # a local that is a Python number on some runs (infer/uncertain_kinds)
                a, b = kind_guards.before(self, e.op, a, b, t)
                if e.op == "pow":
                    r = ew.np_scalar_binop(self, e.op, a, b, t)
                    return kind_guards.pow_result(self, a, b, r, t)
            return ew.np_scalar_binop(self, e.op, a, b, t)
        return ops.binop(self, e.op, a, b, t, e.left, e.right, checked=not (
            self.int_facts and id(e) in self.int_facts.safe_steps))

    def e_PyUnOp(self, e):
        if isinstance(e.type, T.ArrayType):
            t = e.type.dtype
            return ew.lift(self, [self.lower(e.operand)], e.type,
                           lambda x: ew.np_unop(self, e.op, x, t))
        if e.type == T.BOOL and e.op == "invert":            # ~ of a NumPy bool
            return N.BinOp("xor", self.lower(e.operand), N.Const(True, T.BOOL), T.BOOL)
        x = self.lower(e.operand)
        if getattr(e, "python_check", False):
            x = kind_guards.neg(self, x, e.type)
        return ops.unop(self, e.op, x, e.type,
                        checked=not getattr(e, "numpy_semantics", True))

    def e_Truth(self, e):
        return ops.truth(self, self.condition(e.operand))

    def condition(self, e):
        """An ``if``/``while`` condition or a truth test: of a 0-d array
        (``if a > 1:``, ``if a:``), its element (infer rejects other arrays)."""
        x = self.lower(e)
        if isinstance(x.type, T.ArrayType):
            x = self.let(ew.to_lazy(self, x).elem([]))
        return x

    def e_PyCompare(self, e):
        if isinstance(e.type, T.ArrayType):
            a, b = self.seq(e.operands)
            ct = e.compare_types[0]
            return ew.lift(self, [a, b], e.type, lambda x, y: ew.np_binop(
                self, e.ops[0], x, y, T.BOOL, compare_in=ct))
        return ops.compare_chain(self, e)

    def e_PyBoolOp(self, e):
        return ops.boolop(self, e)

    def e_PyIfExp(self, e):
        cond = self.lower(e.cond)
        sa, a = self.sub_block(lambda: self.value(e.a))
        sb, b = self.sub_block(lambda: self.value(e.b))
        if isinstance(cond, N.Const):
            self.out.extend(sa if cond.value else sb)
            return a if cond.value else b
        if not sa and not sb:
            return N.Select(cond, a, b, e.type)
        name = self.temp(e.type)
        self.emit(N.If(cond=cond, then=sa + [N.Assign(target=name, value=a)],
                       orelse=sb + [N.Assign(target=name, value=b)]))
        return N.Var(name, e.type)

    def e_PyGetItem(self, e):
        v, i = self.seq([e.value, e.index])
        t = e.value.type
        if isinstance(t, T.TupleType):
            n = len(t.items)
            if isinstance(i, N.Const):
                idx = i.value + n if i.value < 0 else i.value
                if isinstance(v, N.MakeTuple):
                    return v.items[idx]
                return N.TupleGet(v, idx, e.type)
            v = self.let(v)
            i = self.sequence_index(i, N.Const(n, T.INT64), e.kind)
            return ops.tuple_item_dynamic(v, i, e.type)
        if isinstance(t, T.ArrayType) and e.kind == "list":
            # a list comprehension built as an array (frontend.comprehension_lists):
            # a list's index rules and IndexError, then the element
            v = self.let(v)
            i = self.sequence_index(i, self.let(N.ArrayAttr(v, "shape", 0, T.INT64)), "list")
            return views.lower_index(self, v, i, T.INT64)
        if isinstance(t, T.ArrayType):
            return views.lower_index(self, v, i, e.index.type)
        raise AssertionError(f"getitem on {t}")  # pragma: no cover

    def sequence_index(self, i, n, kind: str):
        """Index ``i`` of a Python sequence of length ``n``: an int (a negative
        one counts from the end), else ``IndexError("<kind> index out of range")``."""
        i = self.let(ops.convert(self, i, T.INT64))
        i = self.let(N.Select(N.Cmp("lt", i, N.Const(0, T.INT64), T.BOOL),
                              N.BinOp("add", i, n, T.INT64), i, T.INT64))
        self.raise_if(N.BinOp("or", N.Cmp("lt", i, N.Const(0, T.INT64), T.BOOL),
                              N.Cmp("ge", i, n, T.BOOL), T.BOOL),
                      IndexError, f"{kind} index out of range")
        return i

    def e_PyAttr(self, e):
        if hasattr(e, "const_value"):             # np.finfo(t).eps, a.dtype.itemsize
            return N.Const(int(e.const_value) if e.type == T.INT64 else float(e.const_value),
                           e.type)
        v = self.lower(e.value)
        t = e.value.type
        if isinstance(t, T.ArrayType):
            return self.array_attr(v, t, e.attr)
        if isinstance(t, T.NamedTupleType):           # r.eigenvalues of an EighResult
            return N.TupleGet(v, t.fields.index(e.attr), e.type)
        if t.is_complex:
            return N.ComplexPart(v, e.attr, e.type)
        if e.attr == "real":
            return ops.convert(self, v, e.type)
        return N.Const(0, e.type) if not e.type.is_float else N.Const(0.0, e.type)

    def array_attr(self, v, t, attr):
        if attr == "T":
            from ..lib.arrays.shape import transpose
            return transpose(self, v)
        v = self.let(v)
        if attr in ("real", "imag", "dtype", "mT"):
            from ..lib.arrays.attributes import lower_attr
            return lower_attr(self, v, t, attr)
        I = T.INT64
        if attr == "ndim":
            return N.Const(t.ndim, I)
        if attr == "itemsize":
            return N.Const(max(1, t.dtype.bits // 8), I)
        dims = [N.ArrayAttr(v, "shape", k, I) for k in range(t.ndim)]
        if attr == "shape":
            return N.MakeTuple(dims, T.TupleType((I,) * t.ndim))
        if attr == "strides":
            return N.MakeTuple([N.ArrayAttr(v, "stride", k, I) for k in range(t.ndim)],
                               T.TupleType((I,) * t.ndim))
        size = N.Const(1, I)
        for d in dims:
            size = N.BinOp("mul", size, d, I)
        if attr == "size":
            return size
        return N.BinOp("mul", size, N.Const(max(1, t.dtype.bits // 8), I), I)  # nbytes

    def e_Load(self, e):
        return e

    def e_Lowered(self, e):
        return e.value

    def e_PySlice(self, e):
        return N.PySlice(*self.seq([e.start, e.stop, e.step]), e.type)

    def e_ArrayView(self, e):
        return e

    def e_ArrayAttr(self, e):
        return e

    def e_PyCall(self, e):
        callee = e.callee
        if isinstance(callee, Unpack):
            if isinstance(e.args[0].type, T.ArrayType):
                return views.unpack(self, self.let(self.lower(e.args[0])), callee.n, e.type)
            return self.lower(e.args[0])
        spec = getattr(e, "spec", None)
        if (spec is not None and spec.inline_expr is not None and not e.kwargs
                and not isinstance(callee, ParallelRegion)
                and getattr(self, "inline_depth", 0) < inline.MAX_DEPTH):
            return inline.inline_call(self, spec, self.seq(list(e.args)))
        args = self.seq(list(e.args) + list(e.kwargs.values()))
        tpl = getattr(e, "method_template", None) if isinstance(callee, Method) else (
            None if getattr(e, "spec", None) is not None else registry.lookup(callee))
        if not getattr(tpl, "accepts_lazy", False) and not getattr(tpl, "ufunc", False):
            args = [ew.materialize(self, a) for a in args]
        elif not getattr(tpl, "ufunc", False) and not getattr(tpl, "copies_elements", False):
            args = [ew.whole_first(self, a) for a in args]
        kwargs = dict(zip(e.kwargs.keys(), args[len(e.args):]))
        args = args[:len(e.args)]
        if isinstance(callee, Method):
            if tpl is not None:
                return tpl.lower(self, e, args, kwargs)
            return ops.method(self, callee.name, args, e.type)
        spec = getattr(e, "spec", None)
        if isinstance(callee, ParallelRegion):
            return callee.lower(self, e, args)
        if spec is not None:           # a jitted function
            if spec.fn.return_type == T.NONE:
                self.emit(N.ExprStmt(value=N.Call(spec.symbol, args, T.NONE)))
                return N.Const(None, T.NONE)
            return self.call_symbol(spec.symbol, args, spec.fn.return_type)
        if getattr(e, "ufunc_value", None) is not None:
            from ..lib.arrays import ufuncs
            return ufuncs.out_lower(tpl, self, e, args, kwargs)
        if getattr(tpl, "ufunc", False) and isinstance(e.type, T.ArrayType):
            from ..lib.arrays import ufuncs
            return ufuncs.lift_lower(tpl, self, e, args, kwargs)
        return tpl.lower(self, e, args, kwargs)


_UFUNC_NAMES = {"sub": "subtract", "mul": "multiply", "truediv": "divide",
                "floordiv": "floor_divide", "mod": "remainder", "pow": "power",
                "lshift": "left_shift", "rshift": "right_shift", "bitand": "bitwise_and",
                "bitor": "bitwise_or", "bitxor": "bitwise_xor"}


def _cast_error(binop, src: T.Scalar, dst: T.Scalar, line) -> N.Raise:
    """NumPy's error for an in-place operator whose result cannot be cast back
    (``a op= b`` is ``np.<ufunc>(a, b, out=a)`` with same_kind casting)."""
    from ..lib.arrays import casting_errors
    op = getattr(binop, "op", "")
    return N.Raise(exc=casting_errors.UFuncOutputCastingError, line=line,
                   message=escape_braces(casting_errors.message(_UFUNC_NAMES.get(op, op),
                                                                src, dst)))


def lower_semantics(fn: N.Function, ctx) -> bool:
    """Rewrite a typed Python-level function into primitive IR (see module doc)."""
    Lowerer(ctx, fn).run()
    return True
