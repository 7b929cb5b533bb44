"""Type inference: give every expression and local of a Python-level IR function a
type, by iterating to a fixpoint over the body.

A local's type is the unification of everything assigned to it (see
:func:`rules.unify`).  Calls of other jitted functions infer the callee's
specialisation on the spot; a recursive call uses the callee's current return
type estimate, so ``fib`` types from its base case.  After the fixpoint,
:func:`insert_coercions` makes every assignment and return match the declared
type with an explicit primitive ``Cast``.
"""
from __future__ import annotations

from ..errors import UnsupportedError
from ..errors import message_fields as message_field_list
from ..frontend.generator_inlining import generator_function
from ..ir.frontend_nodes import Method, ObjRef, Unpack, falls_through, returned_parameter
from ..ir import constants as K
from ..ir import nodes as N
from ..ir import types as T
from ..lib import registry
from .. import typing_rules as rules
from . import (function_args, message_fields, numpy_results, python_state, result_flags,
               zero_d_values)
from . import either_choices, uncertain_kinds, weak_locals, widened_locals
from .coercions import insert_coercions
from .none_params import NONE_AND_VALUE
from .scalar_kinds import ScalarKinds
from ..typing_rules import Incompatible


class Inferrer(ScalarKinds):
    """Infers one specialisation (function IR + argument types)."""

    def __init__(self, ctx, fn: N.Function, arg_types: tuple):
        self.ctx = ctx
        self.fn = fn
        # NumPy scalar parameters are "strong" (see is_strong): np.float32, np.int8
        # ... by their type, np.float64 and np.int64 by a dispatch-key marker
        self.strong_params = {
            name for name, t in zip(fn.params, arg_types)
            if isinstance(t, T.NumpyScalarArg)
            or isinstance(t, T.Scalar) and t not in T.PYTHON_KINDS}
        self.arg_types = arg_types = tuple(T.plain(t) for t in arg_types)
        self.locals: dict = {}
        self.return_type = None
        self.changed = False
        self.used_estimate = False
        # scalar variables holding a NumPy scalar (an array element, a NumPy
        # function's result) on some path: "strong" in NumPy 2's promotion
        self.strong_vars: set = set(self.strong_params)
        # per scalar local, the (type, NumPy scalar?) of its assignments; the
        # locals that are a Python number and later a NumPy scalar of another
        # type (``infer/weak_locals.py``), read as Python numbers
        self.assigned: dict = {}
        self.mixed: dict = {}
        # per tuple local, which items are NumPy scalars (``for i, v in
        # enumerate(a)``: the index is a Python int, the element is not)
        self.strong_items: dict = {}

    # ------------------------------------------------------------------ driver
    def fail(self, line, construct, detail=""):
        msg = (f"{self.fn.pyname} ({self.fn.filename}:{line}): unsupported {construct}"
               + (f": {detail}" if detail else ""))
        raise UnsupportedError(msg, func=self.fn.pyname, line=line, construct=construct)

    def run(self, key=None, max_iter=64):
        for name, t in zip(self.fn.params, self.arg_types):
            self.locals[name] = t
            if isinstance(t, T.Scalar):     # (a parameter may change type too)
                self.note_assignment(name, t, name in self.strong_params)
        for _ in range(max_iter):
            self.changed = False
            self.block(self.fn.body)
            if key is not None:
                self.ctx.update_estimate(key, self.return_type)
            if not self.changed:
                break
        else:
            self.fail(self.fn.body[0].line if self.fn.body else 0, "types",
                      "type inference did not converge")
        self.finish()

    def finish(self):
        if not registry.ours(self.fn) and either_choices.split(
                self.fn, self.is_strong, self.assigned, self.mixed):
            self.block(self.fn.body)        # (type the split statements)
        # a final pass with everything known: every expression must be typed
        self.strict = True
        self.block(self.fn.body)
        fn = self.fn
        fn.body = prune_static(fn.body)     # (reads in a branch types rule out never run)
        weak_locals.check_narrow(fn.body, self.assigned, self.fail, fn.hidden_words)
        if self.mixed:
            weak_locals.check_reads(fn.body, self.mixed, self.is_strong, self.fail,
                                    fn.hidden_words)
        fn.locals = dict(self.locals)
        fn.arg_types = tuple(self.arg_types)
        fn.return_type = self.return_type if self.return_type is not None else T.NONE
        fn.returns_param = returned_parameter(fn)
        zero_d_values.check(fn, self.fail)
        fn.numpy_result = numpy_results.numpy_result(fn, self.is_strong,
                                                        self.strong_items)
        numpy_results.mark_lists(fn, lambda v: self.is_strong(N.Var(v, self.locals.get(v))))
        if getattr(fn, "dict_returns", None):      # (frontend/dict_locals.py)
            fn.dict_boxing = tuple(
                (k, self.is_strong(N.Var(kn)), self.is_strong(N.Var(vn)))
                for k, kn, vn in fn.dict_returns)
        # (only an entry's result is boxed per call; a callee's keeps the static rule)
        fn.flagged_result = result_flags.plan(
            fn, self.is_strong, self.assigned, self.mixed,
            self.fail if getattr(fn, "entry", False) and not registry.ours(fn) else None)
        if not registry.ours(fn):
            widened_locals.guard(fn, self.assigned, self.mixed, self.is_strong, self.fail,
                                 fn.flagged_result)
        python_state.check_divisions(fn, self.assigned, self.mixed, self.is_strong)
        if not registry.ours(fn):
            uncertain_kinds.check(fn, self.assigned, self.mixed, self.is_strong, self.fail)
        insert_coercions(fn)

    strict = False

    def set_local(self, name, t, line):
        if t is None:
            return
        old = self.locals.get(name)
        new = rules.unify(old, t)
        if new is None:
            self.fail(line, "variable type change",
                      f"{weak_locals.local_words(name)} holds both {old} and {t}"
                      + (NONE_AND_VALUE if T.NONE in (old, t) else ""))
        if new != old:
            self.locals[name] = new
            self.changed = True

    # ------------------------------------------------------------- statements
    def block(self, body):
        for s in body:
            self.stmt(s)
            if isinstance(s, N.If) and s.static is not None:
                taken = s.then if s.static else s.orelse
                if not falls_through(taken):
                    break         # the rest of this block is dead code

    def stmt(self, s):
        line = s.line
        if isinstance(s, N.Assign):
            t = self.expr(s.value, line)
            if s.inplace and isinstance(self.locals.get(s.target), T.ArrayType):
                return          # a += b on an array writes into it: no new binding
            if isinstance(t, (T.GeneratorType, T.TupleType)):
                problem = registry.local_generator_problem(t, s.value)
                if problem:
                    self.fail(line, "random generator", problem)
            self.set_local(s.target, t, line)
            if isinstance(t, T.TupleType):
                self.note_items(s.target, s.value)
            strong = self.is_strong(s.value)
            if s.target not in self.strong_vars and t is not None \
                    and not isinstance(t, T.ArrayType) and strong:   # (kinds once typed)
                self.strong_vars.add(s.target)
                self.changed = True
            if isinstance(t, T.Scalar):
                self.note_assignment(s.target, t, strong, line)
        elif isinstance(s, N.ExprStmt):
            self.expr(s.value, line)
        elif isinstance(s, N.If):
            self.cond(s.cond, line)
            s.static = static_truth(s.cond)
            if s.static is None and unanswered(s.cond):
                # a question types answer (compensates(total, item)) whose operands
                # are not typed yet: neither branch now -- typing the one it will
                # rule out would widen the locals it assigns for good (typing the
                # operands later in this pass makes another)
                return
            if s.static is not False:
                self.block(s.then)
            if s.static is not True:
                self.block(s.orelse)
        elif isinstance(s, N.PyWhile):
            self.cond(s.cond, line)
            self.block(s.body)
        elif isinstance(s, N.Loop):
            self.block(s.body)
        elif isinstance(s, N.PyForRange):
            ts = [self.expr(e, line) for e in (s.start, s.stop, s.step)]
            for t in ts:
                if t is not None and not (isinstance(t, T.Scalar) and (t.is_int or t.is_bool)):
                    self.fail(line, "range() argument", f"{t} is not an integer")
            if all(t is not None for t in ts):
                # range() yields Python ints whatever its bounds' types (NumPy would
                # promote an int64 bound with a uint64 one to float64); a uint64
                # bound beyond int64 deoptimises (``Lowerer.for_range``)
                self.set_local(s.target, T.INT64, line)
            self.block(s.body)
        elif isinstance(s, N.Return):
            if isinstance(s.value, ObjRef) and type(s.value.obj) is str:
                s.value.type = t = T.StrArg(s.value.obj)     # boxed as the constant
            else:
                t = self.expr(s.value, line) if s.value is not None else T.NONE
            if isinstance(t, T.SavedRandomStateType):
                self.fail(line, "return of a RandomState's get_state()",
                          "compiled code keeps it only for set_state in the call")
            if _holds_generator(t):
                self.fail(line, "return of a random generator",
                          "compiled code draws from it but cannot hand it back")
            if t is not None:
                new = rules.unify(self.return_type, t)
                if new is None:
                    self.fail(line, "return type",
                              f"returns both {self.return_type} and {t}")
                if new != self.return_type:
                    self.return_type = new
                    self.changed = True
        elif isinstance(s, N.PySetItem):
            t = self.expr(s.target, line)
            it = self.index_type(s.index, line)
            vt = self.expr(s.value, line)
            s.weak_value = isinstance(vt, T.Scalar) and self.weak(s.value)
            if t is not None and it is not None:
                rt = self.check_array_index(t, it, line, store=True)
                if vt is not None and not isinstance(vt, T.Scalar) and not (
                        isinstance(rt, T.ArrayType) and isinstance(vt, T.ArrayType)):
                    self.fail(line, "item assignment", f"of {vt} into {t}")
                vs = vt.dtype if isinstance(vt, T.ArrayType) else vt
                if vs is not None and vs.is_complex and not t.dtype.is_complex:
                    self.fail(line, "item assignment", f"of a complex value into {t}")
        elif isinstance(s, N.Raise):
            if len(s.args) > 3:       # (str constants' fields are formatted already)
                self.fail(line, "raise",
                          "a message with more than three fields formatted at run time")
            types = [self.expr(a, line) for a in s.args]
            host = self.ctx is None or self.ctx.capabilities.host_calls
            for a, t, field in zip(s.args, types, message_field_list(s.message)):
                problem = message_fields.field_problem(t, field.conversion, self.weak(a),
                                                       field.precision, host)
                if problem:
                    self.fail(line, "exception argument" if field.conversion == "v"
                              else "f-string message", problem)
        elif isinstance(s, N.Try):
            if not self.ctx.capabilities.catches:
                self.fail(line, "try statement", "this target cannot catch exceptions in "
                          "compiled code")
            self.block(s.body)
            self.block(s.then)
            self.block(s.orelse)
        elif isinstance(s, (N.Break, N.Continue, N.Reraise)):
            pass
        else:  # pragma: no cover - the frontend makes no other statements
            self.fail(line, f"statement {type(s).__name__}")

    def cond(self, e, line):
        t = self.expr(e, line)
        if isinstance(t, T.ArrayType) and t.ndim:       # ``if a > 0:`` of an array
            self.fail(line, "truth value of an array",
                      "it is ambiguous; use a.any() or a.all()")
        return t

    # ------------------------------------------------------------ expressions
    def expr(self, e, line):
        meth = getattr(self, "e_" + type(e).__name__)
        t = meth(e, line)
        e.type = t
        return t

    def e_Const(self, e, line):
        big = [v for v in (e.value if type(e.value) is tuple else (e.value,))
               if K.is_big_int(v)]
        if big:                                   # (2**64, 1) too
            self.fail(line, "integer constant", K.not_int64(big[0]))
        t = rules.typeof(e.value)
        if t is None:
            self.fail(line, "constant", f"{e.value!r} does not fit a machine type")
        return t

    def e_Var(self, e, line):
        t = self.locals.get(e.name)
        if t is None and self.strict:
            self.fail(line, "variable", f"the type of '{e.name}' is unknown "
                      "(is it assigned before use on every path?)")
        return t

    def e_Caught(self, e, line):
        return T.BOOL

    def e_ObjRef(self, e, line):
        if isinstance(t := rules.typeof(e.obj), T.FunctionArg):
            return t                        # a function passed on (function_args)
        if type(e.obj) is str:
            self.fail(line, "str value", f"{e.name} used as a run-time value (a str "
                      "folds where its value is known: comparisons with constants, "
                      "len(), library options, raise and print)")
        try:                                # an array: lib/arrays/global_arrays
            return registry.global_array_type(self.ctx, e.obj) or self.fail(
                line, "use of a Python object as a value", e.name)
        except Incompatible as exc:
            self.fail(line, "global array", f"{e.name}: {exc}")

    def big_int_operand(self, operands, line):
        """The position of an int constant beyond int64 among ``operands`` (a
        folded ``2**64``) and the other operand's type, which decides what
        CPython computes (``ir/constants.py``); None when there is none."""
        big = [k for k, o in enumerate(operands)
               if isinstance(o, N.Const) and K.is_big_int(o.value)]
        if not big:
            return None
        k = big[0]
        if len(big) != 1 or 0 < k < len(operands) - 1:
            # (a < 2**64 < b: one constant cannot stand for both comparisons)
            self.fail(line, "integer constant", K.not_int64(operands[k].value))
        return k, self.expr(operands[1 if k == 0 else k - 1], line)

    def e_PyBinOp(self, e, line):
        big = self.big_int_operand([e.left, e.right], line)
        if big is not None:
            # a float or complex operand converts the int exactly as CPython's
            # PyLong_AsDouble; an int result beyond int64 is refused
            (k, t), n = big, (e.left, e.right)[big[0]].value
            f = isinstance(t, T.Scalar) and (t.is_float or t.is_complex) and \
                K.float_operand(n, exact=t not in (T.FLOAT64, T.COMPLEX128)
                                and self.is_strong((e.right, e.left)[k]))
            if f is None or f is False:
                if t is None or (not self.strict and isinstance(t, T.Scalar)
                                 and (t.is_int or t.is_bool)):
                    return None           # (an int may still widen to a float)
                self.fail(line, "integer constant", K.not_int64(n))
            setattr(e, ("left", "right")[k], N.Const(f))
        a = self.expr(e.left, line)
        b = self.expr(e.right, line)
        if a is None or b is None:
            return None
        if e.op == "matmul":
            try:
                return registry.matmul_type(a, b)
            except Incompatible as exc:
                self.fail(line, "operator @", str(exc))
        if isinstance(a, T.ArrayType) or isinstance(b, T.ArrayType):
            # ``array ** k`` of a Python int or float: NumPy's operator looks at
            # k's value first (complex arrays: lib/complex/power.py)
            e.python_exponent = b if (e.op == "pow" and isinstance(a, T.ArrayType)
                                      and b in (T.INT64, T.FLOAT64)
                                      and self.weak(e.right)) else None
            if e.python_exponent == T.INT64 and a.dtype == T.BOOL and isinstance(
                    e.right, N.Const) and e.right.value == 2:
                # NumPy's ``a ** 2`` is np.square(a), which takes bool as int8
                return T.ArrayType(T.INT8, a.ndim, "C")
            try:
                return T.ArrayType(registry.array_operation_dtype(
                    e.op, a, b, self.weak(e.left), self.weak(e.right)),
                    registry.broadcast_ndim(a, b), "C")
            except Incompatible as exc:
                self.fail(line, "array operation", str(exc))
        # NEP 50 on scalars: a Python number adapts to a NumPy scalar's type
        # (np.float32(x) * 0.5 is float32, np.int8(x) + n is int8), and an
        # operation with a NumPy scalar has NumPy's semantics (lower_semantics)
        strong = self.is_strong(e.left) or self.is_strong(e.right)
        if a == T.COMPLEX128 and b == T.FLOAT64 and self.weak(e.left):
            # a Python complex's own method takes an np.float64 (a float
            # subclass that does not subclass complex) first: Python semantics,
            # a Python complex result ((1+1j) / np.float64(0) raises)
            strong = False
        e.numpy_semantics = strong
        self.mark_weak(e.left, a)
        self.mark_weak(e.right, b)
        if strong and a == T.BOOL and b == T.BOOL and e.op not in (
                "add", "mul", "bitand", "bitor", "bitxor", "truediv"):
            self.fail(line, "operation", f"{e.op} of NumPy booleans")
        try:
            t = rules.binop_type(e.op, a, b, e.left, e.right)
        except Incompatible as exc:
            self.fail(line, "operation", str(exc))
        if e.op == "pow" and (t.is_int or t.is_bool) and not strong:
            if isinstance(e.right, N.Const) and e.right.value < 0:
                return T.FLOAT64
            if t.is_bool:
                return T.INT64
        return t

    def e_PyUnOp(self, e, line):
        t = self.expr(e.operand, line)
        if t is None:
            return None
        e.numpy_semantics = self.is_strong(e.operand)     # (-x of a Python int: checked)
        if e.op == "not":
            if isinstance(t, T.ArrayType):
                self.fail(line, "'not' of an array",
                          "the truth value of an array is ambiguous")
            return T.BOOL
        if isinstance(t, T.ArrayType):
            if e.op in ("neg", "pos") and t.dtype.is_bool:     # (NumPy: TypeError)
                self.fail(line, "array operation", f"unary {e.op} of a boolean array")
            if e.op == "invert" and (t.dtype.is_float or t.dtype.is_complex):
                self.fail(line, "array operation", f"~ on {t}")
            return t.copy(layout="C", readonly=False)
        if not isinstance(t, T.Scalar):
            self.fail(line, "unary operator", f"{e.op} on {t}")
        if t.is_bool and self.is_strong(e.operand):
            # a NumPy bool: ~ is logical not; - and + raise TypeError in NumPy
            if e.op != "invert":
                self.fail(line, "operation", f"unary {e.op} of a NumPy bool")
            return T.BOOL
        if e.op == "invert":
            if t.is_float or t.is_complex:
                self.fail(line, "operation", f"~ on {t}")
            return T.INT64 if t.is_bool else t
        return T.INT64 if t.is_bool else t

    def e_PyCompare(self, e, line):
        big = self.big_int_operand(e.operands, line)
        if big is not None:
            # settled by the other operand's type (its range, or exact float
            # neighbours): rewritten in the last pass, when that type is final
            (k, t), n = big, e.operands[big[0]].value
            j, op = (1, 0) if k == 0 else (k - 1, k - 1)    # its neighbour, operator
            if t is None or not isinstance(t, T.Scalar):
                if t is None:
                    return None
                self.fail(line, "integer constant", K.not_int64(n))
            if not self.strict:
                others = [self.expr(o, line) for i, o in enumerate(e.operands) if i != k]
                return None if None in others else T.BOOL
            r = K.compare_rewrite(e.ops[op], n, k == 0, t, self.is_strong(e.operands[j]))
            if r is None:
                self.fail(line, "integer constant", K.not_int64(n))
            e.ops[op], e.operands[k] = r[0], N.Const(r[1])
        ts = [self.expr(o, line) for o in e.operands]
        if any(t is None for t in ts):
            return None
        if len(e.ops) == 1 and e.ops[0] in ("is", "isnot") and T.NONE in ts:
            return T.BOOL                   # (``out is None`` of an array: decided)
        if any(isinstance(t, T.ArrayType) for t in ts):
            if len(e.ops) != 1 or e.ops[0] not in ("lt", "le", "gt", "ge", "eq", "ne"):
                self.fail(line, "array comparison", "chained or membership comparisons "
                          "of arrays are ambiguous")
            weak = [self.weak(o) for o in e.operands]
            try:
                registry.array_operation_dtype(e.ops[0], ts[0], ts[1], *weak)
            except Incompatible as exc:
                self.fail(line, "array comparison", str(exc))
            e.compare_types = [registry.comparison_type(ts[0], ts[1], *weak)]
            return T.ArrayType(T.BOOL, registry.broadcast_ndim(*ts), "C")
        # NumPy scalars compare in NumPy's type (np.float32(0.1) == 0.1 holds)
        e.compare_types = [
            registry.comparison_type(a, b, self.weak(x), self.weak(y))
            if isinstance(a, T.Scalar) and isinstance(b, T.Scalar)
            and (self.is_strong(x) or self.is_strong(y))
            else self.contains_types(a, b, x, y) if op in ("in", "notin") else None
            for op, a, b, x, y in zip(e.ops, ts, ts[1:], e.operands, e.operands[1:])]
        for op, a, b in zip(e.ops, ts, ts[1:]):
            if op in ("in", "notin"):
                if not isinstance(b, T.TupleType):
                    self.fail(line, "'in'", f"membership test in {b}")
                continue
            if op in ("is", "isnot"):
                if not (a == T.NONE or b == T.NONE or a == T.BOOL and b == T.BOOL):
                    self.fail(line, "'is' comparison", "only 'is None' is supported")
                continue
            if isinstance(a, T.Scalar) and isinstance(b, T.Scalar):
                if (a.is_complex or b.is_complex) and op not in ("eq", "ne"):
                    self.fail(line, "comparison", "ordering of complex numbers")
                continue
            if isinstance(a, T.TupleType) and isinstance(b, T.TupleType) and op in ("eq", "ne"):
                continue
            self.fail(line, "comparison", f"{op} between {a} and {b}")
        return T.BOOL

    def contains_types(self, a, b, x, tup):
        """``x in tup`` with a NumPy scalar ``x``: each item's ``==`` in NumPy's
        type (``comparison_type``), or None for Python's exact comparisons."""
        if not (isinstance(a, T.Scalar) and self.is_strong(x)
                and isinstance(b, T.TupleType)
                and all(isinstance(i, T.Scalar) for i in b.items)):
            return None
        items = tup.items if isinstance(tup, N.MakeTuple) else [None] * len(b.items)
        return [registry.comparison_type(a, t, False, n is None or self.weak(n))
                for t, n in zip(b.items, items)]

    def e_PyBoolOp(self, e, line):
        ts = [self.expr(v, line) for v in e.values]
        if any(t is None for t in ts):
            return None
        if any(not isinstance(t, (T.Scalar, T.TupleType, T.NoneType)) for t in ts[:-1]):
            self.fail(line, f"'{e.op}' of {ts[0]}", "the truth value of an array is "
                      "ambiguous; use a.any() or a.all()")
        if len(set(ts)) != 1:
            # Python returns one of the operands; with different types the result
            # type would depend on the values
            self.fail(line, f"'{e.op}' of values of different types",
                      ", ".join(map(str, ts)))
        return ts[0]

    def e_PyIfExp(self, e, line):
        self.expr(e.cond, line)
        a = self.expr(e.a, line)
        b = self.expr(e.b, line)
        if a is None or b is None:
            return a if b is None else b
        t = rules.unify(a, b)
        if t is None:
            self.fail(line, "conditional expression", f"arms of types {a} and {b}")
        return t

    def e_Truth(self, e, line):
        t = self.expr(e.operand, line)
        if isinstance(t, T.ArrayType) and t.ndim:      # (a 0-d array: its element's)
            self.fail(line, "truth value of an array",
                      "it is ambiguous; use a.any() or a.all()")
        if t is not None and not isinstance(t, (T.Scalar, T.TupleType, T.NoneType,
                                                T.ArrayType)):
            self.fail(line, "truth value", f"of {t}")
        return T.BOOL

    def e_MakeTuple(self, e, line):
        ts = [self.expr(i, line) for i in e.items]
        if any(t is None for t in ts):
            return None
        return T.TupleType(tuple(ts))

    def e_TupleGet(self, e, line):
        t = self.expr(e.tup, line)
        if t is None:
            return None
        if not isinstance(t, T.TupleType) or not -len(t.items) <= e.index < len(t.items):
            self.fail(line, "tuple item", f"item {e.index} of {t}")
        return t.items[e.index]

    def e_PySlice(self, e, line):
        for part in (e.start, e.stop, e.step):
            pt = self.expr(part, line)
            if pt is not None and pt != T.NONE and not (
                    isinstance(pt, T.Scalar) and (pt.is_int or pt.is_bool)):
                self.fail(line, "slice", f"bound of type {pt}")
        unit = isinstance(e.step, N.Const) and e.step.value in (None, 1)
        return T.SliceType(unit)

    def index_type(self, e, line):
        if isinstance(e, ObjRef) and e.obj is Ellipsis:
            e.type = T.ConstType(Ellipsis)
            return e.type
        if isinstance(e, N.MakeTuple):
            ts = [self.index_type(i, line) for i in e.items]
            if any(t is None for t in ts):
                return None
            e.type = T.TupleType(tuple(ts))
            return e.type
        return self.expr(e, line)

    def e_PyGetItem(self, e, line):
        t = self.expr(e.value, line)
        it = self.index_type(e.index, line)
        if t is None or it is None:
            return None
        if isinstance(t, T.TupleType):
            if isinstance(e.index, N.Const) and type(e.index.value) is int:
                i = e.index.value
                if not -len(t.items) <= i < len(t.items):
                    self.fail(line, "tuple index", "index out of range")
                return t.items[i]
            if not (isinstance(it, T.Scalar) and (it.is_int or it.is_bool)):
                self.fail(line, "tuple index", f"index of type {it}")
            if not t.items or len(set(t.items)) != 1:
                self.fail(line, "tuple index",
                          "a variable index needs a non-empty tuple of one item type")
            return t.items[0]
        if isinstance(t, T.ArrayType) and e.kind == "list":     # a list comprehension
            if not (isinstance(it, T.Scalar) and (it.is_int or it.is_bool)):
                self.fail(line, "list index", f"of type {it}")
            return t.dtype
        if isinstance(t, T.ArrayType):
            return self.check_array_index(t, it, line)
        self.fail(line, "indexing", f"of {t}")

    def check_array_index(self, t, it, line, store=False):
        """Type of ``t[index]``: the element type, or a view's array type."""
        if not isinstance(t, T.ArrayType):
            self.fail(line, "item assignment" if store else "indexing", f"of {t}")
        try:
            return registry.index_type(t, it)
        except Incompatible as exc:
            self.fail(line, "array index", str(exc))

    def e_PyAttr(self, e, line):
        if isinstance(e.value, N.PyAttr) and e.value.attr == "dtype":   # a.dtype.itemsize
            t = self.expr(e.value.value, line)
            if t is None:
                return None
            t = e.value.type = registry.dtype_argument_type(t) \
                if isinstance(t, T.ArrayType) else t
        else:
            t = self.expr(e.value, line)
        if t is None:
            return None
        if isinstance(t, T.ConstType):        # np.finfo(np.float32).eps: a constant
            known = registry.constant_attribute(t.value, e.attr)
            if known is not None:
                e.const_value = known[0]
                return known[1]
        if isinstance(t, T.ArrayType):
            if e.attr in ("shape", "strides"):
                return T.TupleType((T.INT64,) * t.ndim)
            if e.attr in ("size", "ndim", "itemsize", "nbytes"):
                return T.INT64
            if e.attr == "T":
                return t.copy(layout={"C": "F", "F": "C"}.get(t.layout, "A"))
            if e.attr in ("real", "imag") or (e.attr == "mT" and t.ndim >= 2):
                return registry.attribute_type(t, e.attr)
        if isinstance(t, T.NamedTupleType) and e.attr in t.fields:
            return t.items[t.fields.index(e.attr)]
        if isinstance(t, T.Scalar):
            if e.attr in ("real", "imag"):
                # True.real is the int 1; np.True_.real is np.True_
                return t.component if t.is_complex else (
                    T.INT64 if t.is_bool and not self.is_strong(e.value) else t)
        self.fail(line, "attribute", f"{t}.{e.attr}")

    def arg_type(self, a, line):
        """Call arguments may be compile-time Python objects (``dtype=np.float32``)."""
        if isinstance(a, ObjRef) and not registry.is_global_array(a.obj):
            a.type = T.ConstType(a.obj)
            return a.type
        if isinstance(a, N.MakeTuple) and a.items and all(
                isinstance(i, ObjRef) and isinstance(i.obj, type) for i in a.items):
            for i in a.items:
                i.type = T.ConstType(i.obj)
            a.type = T.ConstType(tuple(i.obj for i in a.items))    # (int, float)
            return a.type
        if isinstance(a, N.PyAttr) and a.attr == "dtype":     # np.empty(n, a.dtype)
            t = self.expr(a.value, line)
            if isinstance(t, T.ArrayType):
                a.type = registry.dtype_argument_type(t)
                return a.type
        if isinstance(a, N.PyCall):     # np.empty(n, np.result_type(a, b)): a dtype there
            a.call_argument = True
        return self.expr(a, line)

    def e_PyCall(self, e, line):
        argtypes = [self.arg_type(a, line) for a in e.args]
        kwtypes = {k: self.arg_type(v, line) for k, v in e.kwargs.items()}
        if any(t is None for t in argtypes) or any(t is None for t in kwtypes.values()):
            return None
        callee = e.callee
        if isinstance(callee, Unpack):
            t = argtypes[0]
            if isinstance(t, T.ArrayType) and t.ndim >= 1:    # first axis: lib views.unpack
                return T.TupleType((registry.index_type(t, T.INT64),) * callee.n)
            if not isinstance(t, T.TupleType) or len(t.items) != callee.n:
                self.fail(line, "unpacking", f"cannot unpack {t} into {callee.n} names")
            return t
        if isinstance(callee, Method):
            return self.method_type(e, callee.name, argtypes, kwtypes, line)
        if registry.is_parallel_region(callee):
            return callee.infer(self, e, argtypes, line)
        if isinstance(callee, N.Var):
            return function_args.infer_call(self, e, argtypes, kwtypes, line)
        jf = self.ctx.as_jit_function(callee)
        if jf is not None:
            return self.ctx.infer_call(self, e, jf, argtypes, kwtypes, line)
        tpl = registry.lookup(callee)
        if tpl is None:
            jf = self.ctx.as_plain_callee(callee)      # a plain function of the user's
            if jf is not None:
                return self.ctx.infer_call(self, e, jf, argtypes, kwtypes, line)
            if generator_function(callee) is not None:
                self.fail(line, "generator call", f"{e.name}(...) makes a generator object, "
                          "which compiled code has no form for: only a for loop over the "
                          "call, a comprehension over it, sum/any/all/min/max/list of it "
                          "and one held in a name driven by next() or a for loop compile")
            self.fail(line, "call", f"{e.name or callee!r} is not supported")
        try:
            return registry.call_type(self, e, tpl, argtypes, kwtypes, line)
        except Incompatible as exc:
            self.fail(line, f"call of {e.name}", str(exc))
        except _TYPER_SLIPS:
            self.fail(line, f"call of {e.name}", _argument_types(argtypes, kwtypes))

    def method_type(self, e, name, argtypes, kwtypes, line):
        t = argtypes[0]
        if isinstance(t, T.ArrayType):
            tpl = registry.method_template(t, name)
            if tpl is None:
                self.fail(line, "array method", f"{t}.{name}() is not supported yet")
            e.method_template = tpl
            try:
                return registry.method_type(self, e, tpl, argtypes, kwtypes, line)
            except Incompatible as exc:
                self.fail(line, f"array method {name}()", str(exc))
            except _TYPER_SLIPS:
                self.fail(line, f"array method {name}()", _argument_types(argtypes[1:], kwtypes))
        if isinstance(t, T.GeneratorType):
            kind = ("random.Random" if isinstance(t, T.PyRandomType)
                    else "RandomState" if isinstance(t, T.RandomStateType)
                    else "get_state() value" if isinstance(t, T.SavedRandomStateType)
                    else "generator")
            tpl = registry.method_template(t, name)
            if tpl is None:
                owner = "Generator" if kind == "generator" else kind
                self.fail(line, f"{kind} method", f"{owner}.{name}() is not supported")
            e.method_template = tpl
            try:
                return tpl.typer(self, e, argtypes, kwtypes)
            except Incompatible as exc:
                self.fail(line, f"{kind} method {name}()", str(exc))
        if isinstance(t, T.Scalar) and name == "conjugate" and len(argtypes) == 1:
            return T.INT64 if t.is_bool and not self.is_strong(e.args[0]) else t
        if isinstance(t, T.Scalar) and t.is_float and name == "is_integer":
            return T.BOOL
        if (isinstance(t, T.Scalar) and name == "bit_length" and len(argtypes) == 1
                and not kwtypes and (t.is_int or t.is_bool)
                and not self.is_strong(e.args[0])):
            return T.INT64     # a Python int's (NumPy's integer scalars have none)
        if (isinstance(t, T.Scalar) and name == "item" and len(argtypes) == 1
                and self.is_strong(e.args[0]) and not (t.is_int and not t.is_signed
                                                       and t.bits == 64)):
            # a NumPy scalar's ``item()``: the Python number (Python's have none)
            return T.BOOL if t.is_bool else T.INT64 if t.is_int else \
                T.COMPLEX128 if t.is_complex else T.FLOAT64
        self.fail(line, "method call", f"{t}.{name}()")


# A template's typer meeting argument types it does not expect (``np.copy`` of a
# scalar reading ``.dtype``): the call falls back naming itself and the types,
# never as an internal compiler error
_TYPER_SLIPS = (AttributeError, KeyError, IndexError, TypeError)


def _holds_generator(t) -> bool:
    if isinstance(t, T.GeneratorType):
        return True
    return isinstance(t, T.TupleType) and any(_holds_generator(i) for i in t.items)


def _argument_types(argtypes, kwtypes) -> str:
    types = [str(t) for t in argtypes] + [f"{k}={t}" for k, t in kwtypes.items()]
    return "with arguments of types (" + ", ".join(types) + ")"


def prune_static(body: list) -> list:
    """Drop the branches decided by types, and the statements they make dead."""
    out = []
    for s in body:
        if isinstance(s, N.If) and s.static is not None:
            taken = prune_static(s.then if s.static else s.orelse)
            out.extend(taken)
            if not falls_through(taken):
                break
            continue
        for attr in ("then", "orelse", "body"):
            sub = getattr(s, attr, None)
            if isinstance(sub, list):
                setattr(s, attr, prune_static(sub))
        out.append(s)
    return out


def _tested(cond):
    """What ``cond`` tests, its truth and one ``not`` taken off: (expression,
    negated?)."""
    c = cond.operand if isinstance(cond, N.Truth) else cond
    if isinstance(c, N.PyUnOp) and c.op == "not":
        return (c.operand.operand if isinstance(c.operand, N.Truth) else c.operand), True
    return c, False


def unanswered(cond) -> bool:
    """Is ``cond`` a question types answer (``registry.is_static``) that has no
    answer yet (an operand still untyped)?"""
    c, _ = _tested(cond)
    return isinstance(c, N.PyCall) and registry.is_static(c) and \
        getattr(c, "type", None) is None


def static_truth(cond):
    """True/False when a condition is decided by types alone (``x is None``), else
    None: the branch not taken is neither typed nor compiled."""
    c = cond.operand if isinstance(cond, N.Truth) else cond
    if isinstance(c, N.Const):
        return bool(c.value)
    if isinstance(c, N.PyCall) and isinstance(c.plan, bool) and registry.is_static(c):
        return c.plan
    c, negate = _tested(cond)
    if isinstance(c, N.PyCompare) and len(c.ops) == 1 and c.ops[0] in ("is", "isnot"):
        a, b = (o.type for o in c.operands)
        if a is None or b is None or (a == T.BOOL and b == T.BOOL):
            return None
        same = a == b == T.NONE
        if not same and T.NONE not in (a, b):
            return None
        r = same if c.ops[0] == "is" else not same
        return (not r) if negate else r
    return None


def _holds_array(t) -> bool:
    if isinstance(t, T.ArrayType):
        return True
    return isinstance(t, T.TupleType) and any(_holds_array(i) for i in t.items)
