"""A ``ForeignCall`` with a constant text (``N.ForeignCall.text``): a call back
into this process, ``i64 hj.host.<symbol>(ptr text, ptr slots, i64 count)``, its
status (0: done) assigned to ``s.target`` where the statement names one.

The text is a constant global of the module (NUL-terminated UTF-8) and the
values sit in a stack buffer of 8-byte slots (an int64 as is, a float64 as its
bits), so the code holds no address of this process and the disk cache can reuse
it in another."""
from __future__ import annotations

from llvmlite import ir

I64, F64 = ir.IntType(64), ir.DoubleType()
PTR = ir.PointerType()


def text_call(low, s) -> None:
    """Lower ``s`` in the function lowerer ``low`` (``llvm.FunctionLowering``)."""
    if not low.m.info.host_calls:
        from ..errors import UnsupportedError
        raise UnsupportedError(
            f"{low.fn.name}: {s.symbol} calls back into Python, which only targets "
            "whose code runs in this process do", func=low.fn.name, construct=s.symbol)
    b = low.b
    count = len(s.args)
    with b.goto_entry_block():
        slots = b.alloca(ir.ArrayType(I64, max(1, count)))
    for k, a in enumerate(s.args):
        v = low.expr(a)
        if v.type == F64:
            v = b.bitcast(v, I64)
        elif v.type != I64:
            raise AssertionError(f"{s.symbol}: slot {k} of type {a.type}")
        b.store(v, b.gep(slots, [ir.Constant(I64, 0), ir.Constant(I64, k)]))
    name = f"hj.host.{s.symbol}"
    fn = low.m.math_decls.get(name)
    if fn is None:
        fn = ir.Function(low.m.llmod, ir.FunctionType(I64, [PTR, PTR, I64]), name)
        fn.attributes.add("nounwind")
        low.m.math_decls[name] = fn
    status = b.call(fn, [_text(low.m, s.text), slots, ir.Constant(I64, count)])
    if s.target is not None:
        b.store(status, low.slots[s.target])


def _text(m, text: str):
    """The global constant holding ``text`` in the module of ``m`` (one per text)."""
    texts = m.__dict__.setdefault("host_texts", {})
    g = texts.get(text)
    if g is None:
        data = bytearray(text.encode("utf-8", "surrogatepass") + b"\0")
        ty = ir.ArrayType(ir.IntType(8), len(data))
        g = ir.GlobalVariable(m.llmod, ty, f"hj.text.{len(texts)}")
        g.linkage = "internal"
        g.global_constant = True
        g.initializer = ir.Constant(ty, data)
        texts[text] = g
    return g
