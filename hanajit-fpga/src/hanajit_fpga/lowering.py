"""The LLVM lowering used by the exporter (core's, with one workaround)."""
from __future__ import annotations

from llvmlite import ir

from hanajit.ir import nodes as N
from hanajit.ir import types as T
from hanajit.lowering.llvm import ModuleLowering, default_math, lltype


class ExportLowering(ModuleLowering):
    """``ModuleLowering`` declaring libm functions with attributes llvmlite knows.

    Works around core's ``math_call`` adding ``willreturn``, which llvmlite 0.50's
    ``FunctionAttributes`` rejects (every libm call -- log1p, hypot, cbrt -- fails
    to lower); harmless once core is fixed."""

    def math_call(self, b, name, args, t):
        kind, sym = (self.info.math.get(name) if self.info.math else None) \
            or default_math(name)
        if kind == "libm":
            symbol = sym + (self.info.float32_suffix if t == T.FLOAT32 else "")
            if symbol not in self.math_decls:
                ty = lltype(t)
                fn = ir.Function(self.llmod, ir.FunctionType(ty, [a.type for a in args]),
                                 symbol)
                fn.attributes.add("nounwind")
                self.math_decls[symbol] = fn
        return super().math_call(b, name, args, t)


def rename_functions(module: N.Module, prefix: str = "__hj_") -> None:
    """Give every function of ``module`` the symbol ``prefix + symbol`` (in place),
    so that a kernel called ``sin`` cannot collide with libm's ``sin``."""
    mapping = {old: prefix + old for old in module.functions}
    module.functions = {mapping[k]: fn for k, fn in module.functions.items()}
    for fn in module.functions.values():
        fn.name = mapping.get(fn.name, fn.name)
        for s in N.walk_stmts(fn.body):
            for e in N.stmt_exprs(s):
                for sub in N.walk_expr(e):
                    if isinstance(sub, N.Call) and sub.func in mapping:
                        sub.func = mapping[sub.func]
    module.entry = mapping[module.entry]
