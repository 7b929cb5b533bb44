"""The vector form of a scalar ``x ** 2``: ``x * x`` in vectorised loops.

A NumPy float64 scalar's ``x ** 2`` is C's ``pow(x, 2.0)``, which glibc's ``pow``
returns one ulp away from the correctly rounded square for about one input in
1250.  ``helpers.np_float_square`` computes it bit for bit: ``x * x`` where an
fma remainder shows that ``pow`` rounds the same way, and a call of ``pow`` for
the rest (about one square in seventeen).  That call has no vector form, so a
loop squaring array elements stays scalar, with a branch that random data
mispredicts: six to eight times slower than Numba's ``x * x``.

In a loop that LLVM vectorises, hanajit computes math functions with vector math
(``docs/vector-math.md``: libmvec, within 4 ulp, where CPython calls the scalar C
library).  The vector math of ``x ** 2`` is the correctly rounded ``x * x``,
within 1 ulp of ``pow`` -- what NumPy's arrays, Numba and C compilers compute.
This module gives the ``pow(x, 2.0)`` call of the slow path a masked vector
variant (``_ZGV_LLVM_M<N>vv``), ``hj.vsquare.v<N>(x, y, mask) = x * x``, so the
vectoriser if-converts the loop; the CPU engine inlines the variants after
vectorisation, and the check and the select fold away.

Scalar code (loops that do not vectorise, their scalar remainders, code outside
loops) keeps the exact result.  Used where ``LLVMTargetInfo.vector_square`` is set:
the CPU target, unless vector math is off (``HANAJIT_VECMATH=0``, or no libmvec),
where every ``x ** 2`` is CPython's bit for bit.
"""
from __future__ import annotations

from llvmlite import ir

PREFIX = "hj.vsquare."

# lanes at each vector width the vectoriser may pick: 128, 256 and 512 bits
_LANES = (2, 4, 8)


def is_square(fn: ir.Function, args) -> bool:
    """Is this call ``pow(x, 2.0)`` in float64?"""
    return (len(args) == 2 and isinstance(fn.function_type.return_type, ir.DoubleType)
            and isinstance(args[1], ir.Constant) and args[1].constant == 2.0)


def attach(lowering, call: ir.CallInstr, fn: ir.Function, attrs_cls) -> None:
    """Name ``hj.vsquare.v<N>`` as the masked vector variants of ``call``
    (``pow(x, 2.0)``).  ``lowering`` is the ``ModuleLowering`` (its ``llmod`` and
    ``vector_decls``); ``attrs_cls`` builds the call's string attributes."""
    names = []
    for lanes in _LANES:
        vname = f"{PREFIX}v{lanes}"
        if lowering.llmod.globals.get(vname) is None:
            lowering.vector_decls.append(_define(lowering.llmod, vname, lanes))
        names.append(f"_ZGV_LLVM_M{lanes}vv_{fn.name}({vname})")
    variants = ",".join(names)
    call.attributes = attrs_cls([f'"vector-function-abi-variant"="{variants}"',
                                 "memory(none)", "nounwind"])


def _define(llmod: ir.Module, vname: str, lanes: int) -> ir.Function:
    vty = ir.VectorType(ir.DoubleType(), lanes)
    mty = ir.VectorType(ir.IntType(1), lanes)
    vfn = ir.Function(llmod, ir.FunctionType(vty, [vty, vty, mty]), vname)
    vfn.linkage = "internal"
    vfn.attributes.add("alwaysinline")
    vfn.attributes.add("nounwind")
    x = vfn.args[0]
    b = ir.IRBuilder(vfn.append_basic_block("entry"))
    b.ret(b.fmul(x, x))
    return vfn
