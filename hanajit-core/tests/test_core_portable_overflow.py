"""``llvm_math._portable_overflow``, the overflow flag of signed ``+ - *`` that
targets without LLVM's ``with.overflow`` intrinsics use (``KernelModel.
overflow_intrinsics``: the SPIR-V rows): every pair of 8-bit operands, run
through LLVM on this host, against the exact result's range."""
import ctypes

import pytest

llvm = pytest.importorskip("llvmlite.binding")
from llvmlite import ir  # noqa: E402

from hanajit.lowering.llvm_math import _portable_overflow  # noqa: E402
from hanajit.toolkit import llvm_toolchain  # noqa: E402


def _flags(name):
    """A 256x256 table of the flag, computed by the compiled formula."""
    i8, i32 = ir.IntType(8), ir.IntType(32)
    m = ir.Module(name="portable_overflow")
    f = ir.Function(m, ir.FunctionType(i32, [i32, i32]), "flag")
    b = ir.IRBuilder(f.append_basic_block())
    x, y = (b.trunc(a, i8) for a in f.args)
    b.ret(b.zext(_portable_overflow(b, name, x, y), i32))
    with llvm_toolchain.LOCK:
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        mod = llvm.parse_assembly(str(m))
        tm = llvm.Target.from_default_triple().create_target_machine()
        engine = llvm.create_mcjit_compiler(mod, tm)
        engine.finalize_object()
        fn = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_int32, ctypes.c_int32)(
            engine.get_function_address("flag"))
        table = [[fn(x, y) for y in range(-128, 128)] for x in range(-128, 128)]
    return table


@pytest.mark.parametrize("name,op", [("sadd_overflow", lambda x, y: x + y),
                                     ("ssub_overflow", lambda x, y: x - y),
                                     ("smul_overflow", lambda x, y: x * y)])
def test_every_8_bit_pair(name, op):
    table = _flags(name)
    for x in range(-128, 128):
        for y in range(-128, 128):
            want = not -128 <= op(x, y) <= 127
            assert bool(table[x + 128][y + 128]) is want, (name, x, y)
