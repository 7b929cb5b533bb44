"""Primitive IR -> C-family source text, in one of several dialects.

The counterpart of ``lowering.llvm`` for targets that take source code.  Like the
LLVM lowering it prints each primitive operation faithfully and decides no Python
semantics itself (floor division, ``%``, ``**`` are already explicit in the IR).
A :class:`~hanajit.toolkit.c_dialects.Dialect` changes the spelling only -- C99,
HLS C++ (``hanajit-fpga``), the Metal Shading Language -- never what is computed:

* integer ``add sub mul shl`` and ``neg`` wrap: computed in the unsigned type of at
  least 32 bits and converted back, so C's signed-overflow UB never happens;
* ``sdiv srem udiv urem`` are C ``/`` and ``%`` (the IR guarantees a non-zero
  divisor and no ``MIN / -1``); ``frem`` is ``fmod``;
* comparisons follow Python's NaN rules, which are C's: ``ne`` is true with a NaN,
  the others are false; ``uno`` is ``a != a || b != b``;
* ``Cast`` is a C conversion (truncation/extension by the source's signedness,
  float -> int truncating toward zero, bool -> 0/1);
* ``Intrinsic`` is the libm function (``sinf`` for float32; the names are
  :data:`hanajit.toolkit.libm.FLOAT_FUNCTIONS`);
* structured control flow is printed as is; ``ForCount`` is a ``for`` loop over a
  count evaluated once; ``Raise`` stores its code and returns 1;
* an array is a struct ``hj_array_<dtype>_<ndim> { T *data; int64_t shape[n];
  int64_t strides[n]; }`` (strides in bytes, as in the IR); ``Load``/``Store``
  index ``data`` with the element offset ``sum(i_k * strides[k]) / sizeof(T)``
  (the IR has already checked the indices); ``ArrayView`` builds a new struct.

Calling convention, mirroring the LLVM one: a function that cannot raise is
``T f(args)``; one that can is ``int32_t f(int64_t *err, T *ret, args)`` returning
0, or 1 after storing the raise code (``Module.raises`` index + 1) in ``err[0]``
and the integers its message formats in ``err[1..3]``.

Constructs outside the subset (complex numbers, arrays the kernel allocates, and
what a dialect lacks: float64 and some libm functions in Metal) raise
:class:`~hanajit.errors.UnsupportedError` naming the construct.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from ..errors import UnsupportedError
from ..ir import nodes as N
from ..ir import types as T
from .c_dialects import C99, DIALECTS, HLS_CPP, MSL, Dialect
from .libm import INT_MINMAX


@dataclass
class CSource:
    """The emitted text and what a caller needs to wrap it."""

    text: str
    entry: str                          # C name of the entry function
    tuple_types: dict = field(default_factory=dict)   # IR TupleType -> C struct name
    array_types: dict = field(default_factory=dict)   # (dtype, ndim) -> C struct name


def _ident(name: str) -> str:
    """A C identifier for an IR variable or symbol."""
    out = "".join(c if c.isalnum() and c.isascii() else
                  ("_" if c == "_" else f"_{ord(c):x}_") for c in name)
    return "v_" + out


class CEmitter:
    """Prints one primitive IR module as C-family source."""

    def __init__(self, module: N.Module, dialect: Dialect | None = None):
        self.module = module
        self.d = dialect or C99
        self.uses_pow = False
        self.uses_smul = False      # hj_smul_overflow (a Python-int product's check)
        self.tuples: dict = {}
        self.arrays: dict = {}          # (dtype, ndim) -> C struct name
        self.lines: list = []
        self.fn: N.Function | None = None
        self.line = 0                   # source line of what is being printed

    # ------------------------------------------------------------------ types
    def ctype(self, t: T.Type) -> str:
        if isinstance(t, T.Scalar):
            if t.is_complex:
                self.unsupported("complex numbers", t)
            name = self.d.type_name(t.kind, t.bits)
            if name is None:
                self.unsupported(f"{t} values ({self.d.name} has no {t.bits}-bit "
                                 f"{'floats' if t.is_float else 'integers'})", t)
            return name
        if isinstance(t, T.TupleType):
            if t not in self.tuples:
                for item in t.items:
                    self.ctype(item)
                self.tuples[t] = f"hj_tuple{len(self.tuples)}"
            return self.tuples[t]
        if isinstance(t, T.NoneType):
            return "void"
        if isinstance(t, T.ArrayType):
            key = (t.dtype, t.ndim)
            if key not in self.arrays:
                self.ctype(t.dtype)
                self.arrays[key] = f"hj_array_{t.dtype.short}_{t.ndim}"
            return self.arrays[key]
        self.unsupported(f"values of type {t}", t)

    def int_type(self, signed: bool, bits: int) -> str:
        return self.d.type_name("i" if signed else "u", bits)

    def unsigned(self, t: T.Scalar) -> str:
        return self.int_type(False, 64 if t.bits == 64 else 32)

    def unsupported(self, what: str, where=None):
        fn = self.fn
        name = (fn.pyname or fn.name) if fn else self.module.entry
        where = f" (line {self.line})" if self.line else ""
        raise UnsupportedError(f"{name}{where}: {what} cannot be transpiled to "
                               f"{self.d.name} source (supported: bool, integer and "
                               "float scalars, tuples of them, arrays passed in)",
                               func=name, line=self.line or None, construct=what)

    # ------------------------------------------------------------ expressions
    def const(self, value, t: T.Type) -> str:
        if isinstance(t, T.TupleType):
            items = ", ".join(self.const(v, it) for v, it in zip(value, t.items))
            return self.d.aggregate(self.ctype(t), items)
        if not isinstance(t, T.Scalar) or t.is_complex:
            self.unsupported(f"constant {value!r}", t)
        if t.is_bool:
            return "true" if value else "false"
        if t.is_float:
            v = float(value)
            if math.isnan(v):
                text = "NAN"
            elif math.isinf(v):
                text = "INFINITY" if v > 0 else "(-INFINITY)"
            else:
                text = self.d.float_literal(repr(v), t.bits)
            return f"(({self.ctype(t)}){text})"
        from ..ir.constants import of_type
        lo, _ = T.int_range(t)
        v = of_type(int(value), t)
        signed_suffix, unsigned_suffix = self.d.int64_suffix
        if t.is_signed and v == lo:
            return f"(({self.ctype(t)})({v + 1}{signed_suffix} - 1))"
        return f"(({self.ctype(t)}){v}{unsigned_suffix if not t.is_signed else signed_suffix})"

    def expr(self, e: N.Expr) -> str:
        method = getattr(self, "e_" + type(e).__name__, None)
        if method is None:
            self.unsupported(f"the expression {type(e).__name__}")
        return method(e)

    def e_Const(self, e):
        return self.const(e.value, e.type)

    def e_Var(self, e):
        return _ident(e.name)

    _C_BIN = {"sdiv": "/", "srem": "%", "udiv": "/", "urem": "%", "and": "&",
              "or": "|", "xor": "^", "fdiv": "/"}

    def e_BinOp(self, e):
        t = e.type
        x, y = self.expr(e.left), self.expr(e.right)
        ct = self.ctype(t)
        if t.is_float:
            if e.op == "frem":
                return f"{self.math_function('fmod', t)}({x}, {y})"
            sym = {"add": "+", "sub": "-", "mul": "*", "fdiv": "/"}[e.op]
            return f"({x} {sym} {y})"
        if t.is_bool:
            return f"(({x}) {self._C_BIN[e.op]} ({y}))"
        if e.op in ("add", "sub", "mul", "shl"):
            u = self.unsigned(t)
            sym = {"add": "+", "sub": "-", "mul": "*", "shl": "<<"}[e.op]
            if e.op == "shl":
                return f"(({ct})(({u}){x} << {y}))"
            return f"(({ct})(({u}){x} {sym} ({u}){y}))"
        if e.op == "ashr":
            st = self.int_type(True, t.bits)
            return f"(({ct})(({st}){x} >> {y}))"
        if e.op == "lshr":
            return f"(({ct})(({self.int_type(False, t.bits)}){x} >> {y}))"
        return f"(({ct})({x} {self._C_BIN[e.op]} {y}))"

    def e_UnOp(self, e):
        x = self.expr(e.operand)
        t = e.type
        if e.op == "not":
            return f"(!{x})"
        ct = self.ctype(t)
        if e.op == "invert":
            return f"(({ct})~{x})"
        if t.is_float:
            return f"(-{x})"
        return f"(({ct})(0u - ({self.unsigned(t)}){x}))"

    _C_CMP = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!="}

    def e_Cmp(self, e):
        x, y = self.expr(e.left), self.expr(e.right)
        if e.op == "uno":
            return f"(({x}) != ({x}) || ({y}) != ({y}))"
        return f"({x} {self._C_CMP[e.op]} {y})"

    def e_Cast(self, e):
        op = e.operand
        if (isinstance(op, N.Const) and isinstance(op.type, T.Scalar) and op.type.is_float
                and e.type.is_float and self.d.type_name("f", op.type.bits) is None):
            # a float constant of a width the dialect lacks, converted: the constant
            # of the cast's type (rounded to nearest, as the conversion rounds)
            import numpy as np
            with np.errstate(over="ignore"):
                value = float(np.dtype(f"f{e.type.bits // 8}").type(op.value))
            return self.const(value, e.type)
        x = self.expr(e.operand)
        if e.type.is_bool:
            return f"({x} != 0)"
        return f"(({self.ctype(e.type)}){x})"

    def e_Select(self, e):
        return f"({self.expr(e.cond)} ? {self.expr(e.a)} : {self.expr(e.b)})"

    def e_Intrinsic(self, e):
        t = e.type
        args = [self.expr(a) for a in e.args]
        if e.name in INT_MINMAX:
            ct = self.ctype(t)
            cmp = INT_MINMAX[e.name]
            cast = f"({self.int_type(e.name[0] != 'u', t.bits)})"
            a, b = args
            return f"(({ct})({cast}{a} {cmp} {cast}{b} ? {a} : {b}))"
        if e.name in ("sadd_overflow", "ssub_overflow", "smul_overflow"):
            a, b = args
            lo, hi = self.const(-2 ** 63, T.INT64), self.const(2 ** 63 - 1, T.INT64)
            if e.name == "smul_overflow":
                self.uses_smul = True
                return f"(hj_smul_overflow({a}, {b}) != 0)"
            if e.name == "sadd_overflow":           # (no wrapping: C's + would be UB)
                return f"(({b}) > 0 ? ({a}) > {hi} - ({b}) : ({a}) < {lo} - ({b}))"
            return f"(({b}) < 0 ? ({a}) > {hi} + ({b}) : ({a}) < {lo} + ({b}))"
        if e.name == "ctpop":
            u64 = self.int_type(False, 64)
            return (f"(({self.ctype(t)})hj_ctpop(({u64})({self.int_type(False, t.bits)})"
                    f"{args[0]}))")
        if not t.is_float:
            self.unsupported(f"the intrinsic {e.name} on {t}")
        return f"{self.math_function(e.name, t)}({', '.join(args)})"

    def math_function(self, name: str, t: T.Scalar) -> str:
        self.ctype(t)
        callee = self.d.math_function(name, t.bits)
        if callee is None:
            self.unsupported(f"the math function {name} ({self.d.name} has none)")
        self.uses_pow = self.uses_pow or name == "pow"
        return callee

    def element(self, array: N.Expr, indices: list) -> str:
        """The lvalue of an element (indices already checked by the IR)."""
        a = self.expr(array)
        t = array.type
        size = 1 if t.dtype.is_bool else t.dtype.bits // 8
        terms = " + ".join(f"{self.expr(i)} * {a}.strides[{k}]"
                           for k, i in enumerate(indices)) or "0"
        return f"{a}.data[({terms}) / {size}]"

    def e_Load(self, e):
        return self.element(e.array, e.indices)

    def e_ArrayAttr(self, e):
        a = self.expr(e.array)
        if e.attr == "data":
            if not self.d.address_int:
                self.unsupported("the address of array data")
            return f"(({self.int_type(True, 64)})({self.d.address_int}){a}.data)"
        return f"{a}.{'shape' if e.attr == 'shape' else 'strides'}[{e.axis}]"

    def e_ArrayView(self, e):
        a = self.expr(e.array)
        t = e.type
        size = 1 if t.dtype.is_bool else t.dtype.bits // 8
        shape = ", ".join(self.expr(x) for x in e.shape)
        strides = ", ".join(self.expr(x) for x in e.strides)
        return self.d.aggregate(self.ctype(t), f"{a}.data + ({self.expr(e.offset)}) / "
                                f"{size}, {{{shape}}}, {{{strides}}}")

    def e_AllocArray(self, e):
        self.unsupported("array allocation (np.empty, np.zeros, array results of "
                         "expressions ...)")

    def e_MakeTuple(self, e):
        return self.d.aggregate(self.ctype(e.type), ", ".join(self.expr(i) for i in e.items))

    def e_RandomBits(self, e):
        self.unsupported("a draw from a NumPy random generator")

    e_MakeGenerator = e_HostArray = e_RandomBits

    def e_TableLoad(self, e):
        i = self.expr(e.index)
        out = self.const(e.values[-1], e.type)
        for k in range(len(e.values) - 2, -1, -1):
            out = f"({i} == {k} ? {self.const(e.values[k], e.type)} : {out})"
        return out

    def e_TupleGet(self, e):
        return f"{self.expr(e.tup)}.f{e.index}"

    # ------------------------------------------------------------- statements
    def emit(self, line: str, depth: int):
        self.lines.append("    " * depth + line)

    def block(self, stmts, depth):
        for s in stmts:
            self.stmt(s, depth)

    def stmt(self, s, depth):
        self.line = s.line or self.line
        if isinstance(s, N.Assign):
            if isinstance(s.value, N.Call):
                self.call(s.value, s.target, depth)
            elif s.target in self.fn.locals and self.fn.locals[s.target] != T.NONE:
                self.emit(f"{_ident(s.target)} = {self.expr(s.value)};", depth)
        elif isinstance(s, N.ExprStmt):
            if isinstance(s.value, N.Call):
                self.call(s.value, None, depth)
        elif isinstance(s, N.If):
            self.emit(f"if ({self.expr(s.cond)}) {{", depth)
            self.block(s.then, depth + 1)
            if s.orelse:
                self.emit("} else {", depth)
                self.block(s.orelse, depth + 1)
            self.emit("}", depth)
        elif isinstance(s, N.Loop):
            self.emit("for (;;) {", depth)
            self.loop_body(s, depth)
        elif isinstance(s, N.ForCount):
            k = _ident(s.counter)
            n = f"hj_n{len(self.lines)}"
            self.emit(f"const {self.int_type(True, 64)} {n} = {self.expr(s.count)};", depth)
            self.emit(f"for ({k} = 0; {k} < {n}; {k}++) {{", depth)
            self.loop_body(s, depth)
        elif isinstance(s, N.Break):
            self.emit("break;", depth)
        elif isinstance(s, N.Continue):
            self.emit("continue;", depth)
        elif isinstance(s, N.Return):
            self.ret(s.value, depth)
        elif isinstance(s, N.Store):
            lhs = self.element(s.array, s.indices)
            self.emit(f"{lhs} = {self.expr(s.value)};", depth)
        elif isinstance(s, N.Raise):
            self.raise_stmt(s, depth)
        else:
            self.unsupported(f"the statement {type(s).__name__}")

    def raise_stmt(self, s: N.Raise, depth):
        code = self.module.raise_code(s.exc, s.message, s.deopt)
        self.emit(f"hj_err[0] = {code};  /* {s.exc.__name__}: {_comment(s.message)} */",
                  depth)
        # the values the message formats (``errors.kernel_message``: three at most;
        # a double as its bits)
        for i, a in enumerate(s.args[:3]):
            if a.type.is_float:
                if self.d.float_field is None:
                    self.unsupported("a float formatted into an exception message")
                self.emit(self.d.float_field.format(value=self.expr(a),
                                                    slot=f"hj_err[{i + 1}]"), depth)
            else:
                self.emit(f"hj_err[{i + 1}] = ({self.err_type()}){self.expr(a)};", depth)
        self.emit("return 1;", depth)

    def loop_body(self, s, depth):
        if self.d.loop_pragmas is not None:
            for line in self.d.loop_pragmas(s):
                self.emit(line, depth + 1)
        self.block(s.body, depth + 1)
        self.emit("}", depth)

    def ret(self, value, depth):
        fn = self.fn
        has_value = value is not None and fn.return_type != T.NONE
        if fn.can_raise:
            if has_value:
                self.emit(f"*hj_ret = {self.expr(value)};", depth)
            self.emit("return 0;", depth)
        elif has_value:
            self.emit(f"return {self.expr(value)};", depth)
        else:
            self.emit("return;", depth)

    def call(self, c: N.Call, target, depth):
        callee = self.module.functions[c.func]
        args = self.leading_args() + [self.expr(a) for a in c.args]
        has_result = target is not None and self.fn.locals.get(target, T.NONE) != T.NONE
        name = _ident(callee.name)
        if not callee.can_raise:
            call = f"{name}({', '.join(args)})"
            self.emit(f"{_ident(target)} = {call};" if has_result else f"{call};", depth)
            return
        if callee.return_type == T.NONE:
            slot = "hj_none"
        elif has_result:
            slot = _ident(target)
        else:
            slot = f"hj_discard{len(self.lines)}"
            self.emit(f"{self.ctype(callee.return_type)} {slot};", depth)
        self.emit(f"if ({name}({', '.join(['hj_err', '&' + slot] + args)})) return 1;",
                  depth)

    # -------------------------------------------------------------- functions
    def leading_args(self) -> list:
        """Arguments every call passes first (a kernel's context)."""
        return []

    def leading_params(self) -> list:
        return []

    def err_type(self) -> str:
        """The element type of ``hj_err``: four of them, the raise code and the
        integers its message formats."""
        return self.int_type(True, 64)

    def local_type(self, name: str, t: T.Type) -> str:
        """The C type of local ``name`` of IR type ``t``."""
        return self.ctype(t)

    def signature(self, fn: N.Function) -> str:
        params = self.leading_params() + [
            f"{self.local_type(p, t)} {_ident(p)}" for p, t in zip(fn.params, fn.arg_types)]
        if fn.can_raise:
            rt = fn.return_type
            i32, sp = self.int_type(True, 32), self.d.local_space
            slot = self.int_type(False, 8) if rt == T.NONE else self.ctype(rt)
            return (f"{i32} {_ident(fn.name)}("
                    + ", ".join([f"{sp}{self.err_type()} *hj_err", f"{sp}{slot} *hj_ret"]
                                + params)
                    + ")")
        return f"{self.ctype(fn.return_type)} {_ident(fn.name)}({', '.join(params)})"

    def function(self, fn: N.Function) -> list:
        self.fn = fn
        self.lines = []
        self.line = 0
        self.emit(f"{self.d.function_prefix}{self.signature(fn)} {{", 0)
        # a local's declaration is refused at the line that first assigns it
        first = {}
        for s in N.walk_stmts(fn.body):
            if isinstance(s, N.Assign) and s.line:
                first.setdefault(s.target, s.line)
        for name, t in fn.locals.items():
            if name in fn.params or t == T.NONE:
                continue
            self.line = first.get(name, 0)
            self.emit(f"{self.local_type(name, t)} {_ident(name)} = {self.d.zero()};", 1)
        if any(isinstance(s, (N.Assign, N.ExprStmt)) and isinstance(s.value, N.Call)
               and self.module.functions[s.value.func].return_type == T.NONE
               and self.module.functions[s.value.func].can_raise
               for s in N.walk_stmts(fn.body)):
            self.emit(f"{self.int_type(False, 8)} hj_none = 0;", 1)
        self.block(fn.body, 1)
        if not (fn.body and isinstance(fn.body[-1], (N.Return, N.Raise))):
            if fn.can_raise:
                self.emit("return 0;", 1)
            elif fn.return_type != T.NONE:
                self.emit(f"return {self.d.aggregate(self.ctype(fn.return_type), '0')};"
                          if self.d.aggregates == "c" else
                          f"return {self.ctype(fn.return_type)}{{}};", 1)
        self.emit("}", 0)
        self.fn = None
        self.line = 0
        return self.lines

    def run(self) -> CSource:
        if self.module.functions and any(
                getattr(fn, "level", "primitive") != "primitive"
                for fn in self.module.functions.values()):
            raise ValueError("the C-family emitter needs a primitive-level module")
        bodies = []
        protos = []
        for fn in self.module.functions.values():
            protos.append(f"{self.d.function_prefix}{self.signature(fn)};")
            bodies.extend(self.function(fn))
            bodies.append("")
        out = [f"#include {inc}" for inc in self.d.includes]
        out += self.d.prelude(self.uses_pow, self.uses_smul)
        structs = self.struct_lines()
        out += structs + ([""] if structs else [])
        out += protos + [""] + bodies
        return CSource("\n".join(out), _ident(self.module.entry), dict(self.tuples),
                       dict(self.arrays))


    def struct_lines(self) -> list:
        """The definitions of the array and tuple structs used."""
        out = []
        i64 = self.int_type(True, 64)
        for (dt, nd), cname in self.arrays.items():
            out.append(self.d.struct(cname, f"{self.d.data_space}{self.ctype(dt)} *data; "
                                     f"{i64} shape[{nd}]; {i64} strides[{nd}];"))
        for t, cname in self.tuples.items():
            fields = " ".join(f"{self.ctype(it)} f{i};" for i, it in enumerate(t.items))
            out.append(self.d.struct(cname, fields))
        return out


def _comment(text: str) -> str:
    return re.sub(r"[^ -~]", "?", text).replace("*/", "* /")


def emit_c_source(module: N.Module, dialect: Dialect | str | None = None) -> CSource:
    """Print a primitive IR module as C-family source (see the module docstring);
    ``dialect`` is a :class:`Dialect` or its name (``"c99"``, ``"hls-c++"``,
    ``"msl"``; default C99)."""
    if isinstance(dialect, str):
        dialect = DIALECTS[dialect]
    return CEmitter(module, dialect).run()


c_identifier = _ident

__all__ = ["C99", "HLS_CPP", "MSL", "CSource", "Dialect", "c_identifier",
           "emit_c_source"]
