"""Text form of the IR, for ``HANAJIT_DUMP`` and tests."""
from __future__ import annotations

from ..errors import RERUN, RERUN_STRICT
from . import nodes as N


def format_expr(e) -> str:
    if isinstance(e, N.Const):
        return repr(e.value)
    if isinstance(e, N.Var):
        return e.name
    if isinstance(e, (N.BinOp, N.Cmp, N.PyBinOp)):
        return f"{e.op}({format_expr(e.left)}, {format_expr(e.right)})"
    if isinstance(e, (N.UnOp, N.PyUnOp)):
        return f"{e.op}({format_expr(e.operand)})"
    if isinstance(e, N.Cast):
        return f"cast<{e.type}>({format_expr(e.operand)})"
    if isinstance(e, N.Select):
        return f"select({format_expr(e.cond)}, {format_expr(e.a)}, {format_expr(e.b)})"
    if isinstance(e, N.Intrinsic):
        return f"@{e.name}({', '.join(map(format_expr, e.args))})"
    if isinstance(e, N.Call):
        return f"call {e.func}({', '.join(map(format_expr, e.args))})"
    if isinstance(e, N.TupleGet):
        return f"{format_expr(e.tup)}[{e.index}]"
    if isinstance(e, N.ComplexPart):
        return f"{format_expr(e.operand)}.{e.part}"
    if isinstance(e, N.StackAddress):
        return "stack_address()"
    if isinstance(e, N.Caught):
        return f"caught #{e.label}({', '.join(c.__name__ for c in e.classes)})"
    if isinstance(e, N.GpuIndex):
        return f"gpu.{e.kind}[{'xyz'[e.axis]}]"
    if isinstance(e, N.SharedArray):
        return f"shared<{e.type}>({e.name}, {e.size})"
    if isinstance(e, N.ArrayAttr):
        axis = "" if e.attr == "data" else f"[{e.axis}]"
        return f"{format_expr(e.array)}.{e.attr}{axis}"
    if isinstance(e, N.Atomic):
        idx = ", ".join(map(format_expr, e.indices))
        cmp = f", {format_expr(e.compare)}" if e.compare is not None else ""
        return f"atomic_{e.op}({format_expr(e.array)}[{idx}]{cmp}, {format_expr(e.value)})"
    if isinstance(e, N.RandomBits):
        return f"next_{e.kind}({format_expr(e.rng)})"
    name = type(e).__name__
    return f"{name}({', '.join(map(format_expr, e.children()))})"


def format_stmts(body, indent=1) -> list:
    pad = "    " * indent
    out = []
    for s in body:
        if isinstance(s, N.Assign):
            out.append(f"{pad}{s.target} = {format_expr(s.value)}")
        elif isinstance(s, N.ExprStmt):
            out.append(f"{pad}{format_expr(s.value)}")
        elif isinstance(s, N.If):
            mark = "  # versioned: fast copy, else general" if s.versioned else ""
            out.append(f"{pad}if {format_expr(s.cond)}:{mark}")
            out += format_stmts(s.then, indent + 1) or [pad + "    pass"]
            if s.orelse:
                out.append(f"{pad}else:")
                out += format_stmts(s.orelse, indent + 1)
        elif isinstance(s, N.Try):
            out.append(f"{pad}try #{s.label}:")
            out += format_stmts(s.body, indent + 1)
            out.append(f"{pad}except #{s.label}:")
            out += format_stmts(s.then, indent + 1)
            if s.orelse:
                out.append(f"{pad}else #{s.label}:")
                out += format_stmts(s.orelse, indent + 1)
        elif isinstance(s, N.Reraise):
            out.append(f"{pad}reraise #{s.label}")
        elif isinstance(s, N.Loop):
            out.append(f"{pad}loop:")
            out += format_stmts(s.body, indent + 1)
        elif isinstance(s, N.ForCount):
            out.append(f"{pad}for {s.counter} < {format_expr(s.count)}:")
            out += format_stmts(s.body, indent + 1)
        elif isinstance(s, N.PyForRange):
            out.append(f"{pad}for {s.target} in range({format_expr(s.start)}, "
                       f"{format_expr(s.stop)}, {format_expr(s.step)}):")
            out += format_stmts(s.body, indent + 1)
        elif isinstance(s, N.PyWhile):
            out.append(f"{pad}while {format_expr(s.cond)}:")
            out += format_stmts(s.body, indent + 1)
        elif isinstance(s, N.Return):
            out.append(f"{pad}return" + (f" {format_expr(s.value)}" if s.value is not None else ""))
        elif isinstance(s, N.Store):
            idx = ", ".join(map(format_expr, s.indices))
            out.append(f"{pad}{format_expr(s.array)}[{idx}] := {format_expr(s.value)}")
        elif isinstance(s, N.ForeignCall):
            call = f"foreign {s.symbol}({', '.join(map(format_expr, s.args))})"
            if s.text is not None:
                call += f" text {s.text!r}"
            if s.target is not None:
                call = f"{s.target} = {call}{' via pointer' if s.result_arg else ''}"
            out.append(pad + call)
        elif isinstance(s, N.Raise):
            exc = getattr(s.exc, "__name__", s.exc)
            out.append(f"{pad}raise {exc}({s.message!r})" + (" [rerun]" if s.deopt in (RERUN, RERUN_STRICT) else " [deopt]" if s.deopt else ""))
        else:
            out.append(f"{pad}{type(s).__name__.lower()}")
    return out


def format_function(fn: N.Function) -> str:
    params = ", ".join(f"{p}: {t}" for p, t in zip(fn.params, fn.arg_types))
    head = f"def {fn.name}({params}) -> {fn.return_type}  [{fn.level}" + (
        ", raises" if fn.can_raise else "") + "]:"
    return "\n".join([head] + format_stmts(fn.body))


def format_module(m: N.Module) -> str:
    return "\n\n".join(format_function(f) for f in m.functions.values())
