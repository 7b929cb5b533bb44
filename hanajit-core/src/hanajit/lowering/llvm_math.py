"""How ``lowering/llvm.py`` spells math ``Intrinsic`` calls: LLVM intrinsics,
C library functions (``LLVMTargetInfo.math`` per target), the C library's
complex functions on the CPU target, and vector variants for the loop
vectoriser (``vector-function-abi-variant``)."""
from __future__ import annotations

from llvmlite import ir
from llvmlite.ir.instructions import CallInstrAttributes

from ..ir import types as T
from ..toolkit.libm import INT_MINMAX

LLVM_INTRINSICS = {
    "sqrt", "exp", "exp2", "log", "log2", "log10", "sin", "cos", "tan", "asin", "acos",
    "atan", "sinh", "cosh", "tanh", "pow", "fabs", "floor", "ceil", "trunc", "rint",
    "copysign", "atan2", "fma",
}


def default_math(name: str):
    """How a host CPU target spells each math intrinsic."""
    if name == "fmod":
        return ("frem", "")
    if name == "pow":
        # the C library's pow, called so LLVM cannot rewrite pow(x, 2.0) as x*x:
        # that can differ from pow (what CPython computes) in the last bit
        return ("libm", "pow")
    if name in LLVM_INTRINSICS:
        return ("llvm", "llvm." + name)
    return ("libm", name)


def _portable_overflow(b: ir.IRBuilder, name, x, y):
    """The overflow bit of a signed ``+ - *`` from plain integer operations:
    ``+``/``-`` by the signs of the operands and the wrapped result, ``*`` by
    dividing the wrapped product back (``y == MIN`` apart when ``x == -1``)."""
    ty = x.type
    zero = ir.Constant(ty, 0)
    if name == "sadd_overflow":
        r = b.add(x, y)
        return b.icmp_signed("<", b.and_(b.xor(x, r), b.xor(y, r)), zero)
    if name == "ssub_overflow":
        r = b.sub(x, y)
        return b.icmp_signed("<", b.and_(b.xor(x, y), b.xor(x, r)), zero)
    one, minus = ir.Constant(ty, 1), ir.Constant(ty, -1)
    low = ir.Constant(ty, -(1 << (ty.width - 1)))
    is_zero, is_minus = b.icmp_signed("==", x, zero), b.icmp_signed("==", x, minus)
    safe = b.select(b.or_(is_zero, is_minus), one, x)
    back = b.icmp_signed("!=", b.sdiv(b.mul(x, y), safe), y)
    return b.select(is_zero, ir.Constant(ir.IntType(1), 0),
                    b.select(is_minus, b.icmp_signed("==", y, low), back))


def _is_two(v) -> bool:
    return isinstance(v, ir.Constant) and v.constant == 2.0


def _returns_nonnegative(call: ir.CallInstr) -> None:
    """Tell LLVM that ``pow(x, 2.0)`` is never negative (NaN aside), so that
    ``math.sqrt(x ** 2 + ...)`` drops its domain check as it does for ``x * x``.
    (llvmlite has no return attributes on calls; they are printed where the
    calling convention goes, which is where LLVM reads them.)"""
    call.cconv = "nofpclass(ninf nnorm nsub nzero)"


class _StringCallAttributes(CallInstrAttributes):
    """Call-site attributes that also accept ``"key"="value"`` string attributes."""

    def add(self, name):
        return set.add(self, name)


class MathCalls:
    """The math-call part of ``ModuleLowering`` (which has ``info``, ``llmod``,
    ``math_decls`` and ``vector_decls``)."""

    def complex_math_call(self, b: ir.IRBuilder, name, args, t: T.Type, where: str):
        """``c<name>`` of the C library on complex values (``cpow`` takes two)."""
        from .llvm import F32, I32, lltype
        if not self.info.math_functions:
            from ..errors import UnsupportedError
            raise UnsupportedError(
                f"{where}: complex {name}() needs the C library's complex functions, "
                "which only the CPU target calls", func=where,
                construct=f"complex {name}()")
        c = lltype(t.component)
        single = c == F32              # complex float: <2 x float> in one register
        part = ir.VectorType(F32, 2) if single else None
        flat = []
        for a in args:
            re, im = b.extract_value(a, 0), b.extract_value(a, 1)
            if single:
                v = b.insert_element(ir.Constant(part, ir.Undefined), re, ir.Constant(I32, 0))
                flat.append(b.insert_element(v, im, ir.Constant(I32, 1)))
            else:
                flat += [re, im]
        symbol = f"hj.libm.c{name}" + ("f" if single else "")
        fn = self.math_decls.get(symbol)
        if fn is None:
            ret = part if single else lltype(t)
            fn = ir.Function(self.llmod, ir.FunctionType(ret, [x.type for x in flat]), symbol)
            fn.attributes.add("nounwind")
            self.math_decls[symbol] = fn
        r = b.call(fn, flat)
        if not single:
            return r
        out = ir.Constant(lltype(t), ir.Undefined)
        out = b.insert_value(out, b.extract_element(r, ir.Constant(I32, 0)), 0)
        return b.insert_value(out, b.extract_element(r, ir.Constant(I32, 1)), 1)

    def overflow_flag(self, b: ir.IRBuilder, name, args):
        """``sadd_overflow`` / ``ssub_overflow`` / ``smul_overflow`` (the Python-int
        checks of ``lib/python/int_overflow.py``): bit 1 of LLVM's
        ``llvm.s{add,sub,mul}.with.overflow``, which LLVM folds away where it
        proves no overflow (an induction variable against its bound)."""
        ty = args[0].type
        if not getattr(self.info.gpu, "overflow_intrinsics", True):
            return _portable_overflow(b, name, *args)
        sym = f"llvm.{name[:4]}.with.overflow.i{ty.width}"
        fn = self.llmod.globals.get(sym)
        if fn is None:
            fn = ir.Function(self.llmod, ir.FunctionType(
                ir.LiteralStructType([ty, ir.IntType(1)]), [ty, ty]), sym)
        return b.extract_value(b.call(fn, args), 1)

    def integer_call(self, b: ir.IRBuilder, name, args):
        """``smin smax umin umax`` (icmp + select, which LLVM reads as its own
        min/max) and ``ctpop`` (``llvm.ctpop``)."""
        if name == "ctpop":
            return b.call(self.llmod.declare_intrinsic("llvm.ctpop", [args[0].type]), args)
        pick = b.icmp_signed if name[0] == "s" else b.icmp_unsigned
        return b.select(pick(INT_MINMAX[name], *args), *args)

    def numpy_loop_call(self, b: ir.IRBuilder, name, args, t: T.Type, vectorize):
        """The element of NumPy's ufunc loop ``name`` by NumPy's own SIMD function
        (``numpy_loops.py``), or None where the target names none."""
        if self.info.numpy_loops is None:
            return None
        spec = self.info.numpy_loops.get((name, str(t)))
        if spec is None:
            return None
        from . import numpy_loops
        return numpy_loops.call(self, b, spec, args, _StringCallAttributes, vectorize)

    def math_call(self, b: ir.IRBuilder, name, args, t: T.Type, vectorize=True,
                  square=True):
        from .llvm import lltype
        if self.info.softmath and t == T.FLOAT64:
            from . import softmath
            if name in softmath.NAMES:
                fused = getattr(self.info.gpu, "fused_fma64", True)
                return b.call(softmath.define(self.llmod, name, fused_fma=fused), args)
        kind, sym = (self.info.math.get(name) if self.info.math else None) or default_math(name)
        if kind == "frem":
            return b.frem(args[0], args[1])
        ty = lltype(t)
        if kind == "llvm":
            fn = self.llmod.declare_intrinsic(sym, [ty], ir.FunctionType(ty, [ty] * len(args)))
            call = b.call(fn, args)
            # (not vectorize: a vectorised loop calls the scalar function per lane)
            return self.vector_variant(call, fn) if vectorize else call
        suffix = self.info.float32_suffix if t == T.FLOAT32 else ""
        symbol = sym + suffix if kind == "libm" else sym
        fn = self.math_decls.get(symbol)
        if fn is None:
            fn = ir.Function(self.llmod, ir.FunctionType(ty, [a.type for a in args]), symbol)
            fn.attributes.add("nounwind")
            if symbol in ("pow", "powf"):   # or LLVM folds pow(x, 2.0) into x*x
                fn.attributes.add("nobuiltin")
            if symbol in self.info.vector_variants:
                fn.attributes.add("readnone")     # so the vectoriser may call the variant
            self.math_decls[symbol] = fn
        call = b.call(fn, args)
        if symbol in ("pow", "powf", "hj.libm.pow") and _is_two(args[1]):
            _returns_nonnegative(call)
        if vectorize:
            return self.vector_variant(call, fn)
        if self.info.vector_square and square:
            from . import vector_square
            if vector_square.is_square(fn, args):
                vector_square.attach(self, call, fn, _StringCallAttributes)
        return call

    def vector_variant(self, call, fn):
        """Attach ``vector-function-abi-variant`` when the target has vector versions
        of ``fn`` (LLVM's VFABI; the declarations are kept by ``llvm.compiler.used``)."""
        variants = self.info.vector_variants.get(fn.name)
        if not variants:
            return call
        nargs = len(fn.function_type.args)
        names = []
        for lanes, vname in variants:
            vfn = self.llmod.globals.get(vname)
            if vfn is None:
                vty = ir.VectorType(fn.function_type.return_type, lanes)
                vfn = ir.Function(self.llmod, ir.FunctionType(vty, [vty] * nargs), vname)
                vfn.attributes.add("nounwind")
                self.vector_decls.append(vfn)
            names.append(f"_ZGV_LLVM_N{lanes}{'v' * nargs}_{fn.name}({vname})")
        call.attributes = _StringCallAttributes(
            ['"vector-function-abi-variant"="%s"' % ",".join(names)])
        return call
