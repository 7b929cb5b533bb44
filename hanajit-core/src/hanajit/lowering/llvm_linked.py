"""Calls of functions compiled in another module (``lowering/shared.py``).

A piece compiled apart has its own raise table (``Module.raises``); after a failing
call of it the caller's ``*err`` holds the piece's code, which
:func:`translate_raise` maps into the caller's table through a constant array,
so the exception raised is the one the piece raised.
"""
from __future__ import annotations

from llvmlite import ir

I64 = ir.IntType(64)


def translate_raise(ml, fl, name: str) -> None:
    """After a failing call of the external ``name`` (``ml.externals[name]`` is its
    ``(symbol, raises)``), in ``fl``'s function: ``*err`` becomes ``ml``'s code."""
    raises = ml.externals[name][1]
    table = ml._code_tables.get(name)
    if table is None:
        codes = [0] + [ml.module.raise_code(*r) for r in raises]
        ty = ir.ArrayType(I64, len(codes))
        table = ir.GlobalVariable(ml.llmod, ty, f"hj.codes.{len(ml._code_tables)}")
        table.linkage = "internal"
        table.global_constant = True
        table.initializer = ir.Constant(ty, codes)
        ml._code_tables[name] = table
    b = fl.b
    code = b.load(fl.err, typ=I64)
    b.store(b.load(b.gep(table, [ir.Constant(I64, 0), code]), typ=I64), fl.err)
