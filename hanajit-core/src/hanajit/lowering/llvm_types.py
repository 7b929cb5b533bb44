"""The LLVM side of hanajit's types (``llvm.py`` re-exports all of it): what a
target tells the lowering (:class:`LLVMTargetInfo`), the LLVM type of each IR
type (:func:`lltype`, :func:`memtype` for array elements) and constants
(:func:`const`)."""
from __future__ import annotations

from dataclasses import dataclass, field

from llvmlite import ir

from ..ir import types as T


@dataclass
class LLVMTargetInfo:
    triple: str = ""
    data_layout: str = ""
    # intrinsic name -> ("llvm", "llvm.sqrt") | ("libm", "tan") | ("frem", "")
    math: dict = field(default_factory=dict)
    float32_suffix: str = "f"        # libm spelling of the float32 variant
    # ParallelFor on threads through the ``hj_parallel_for`` runtime (see
    # hanajit_cpu.threads); False: run it as the serial ForCount it also is
    parallel: bool = False
    # GPU targets: the kernel-model row (``kernel_model.KernelModel``) that says how
    # GpuIndex, Barrier, SharedArray and Atomic are spelt (``kernel_lower.py``
    # prints them); None for CPU-like targets
    gpu: object = None
    # scalar math callee ("llvm.exp.f64", "expm1f") -> ((lanes, vector function), ...):
    # the loop vectoriser may call these instead (a vector math library such as
    # libmvec); empty: math calls in vectorised loops stay scalar
    vector_variants: dict = field(default_factory=dict)
    # complex math (NumPy's np.exp of a complex array ...) calls the C library's
    # ``cexp``/``cexpf`` ... through ``hj.libm.<name>`` (x86-64 System V: a complex
    # double in two SSE registers, a complex float packed in one); False: such a
    # kernel is refused with a clear error
    math_functions: bool = False
    # ForeignCall statements (LAPACK of NumPy's OpenBLAS) call ``hj.host.<symbol>``,
    # which the CPU engine resolves in the process; False: such a kernel is refused
    host_calls: bool = False
    # vectorised loops compute the exact square's ``pow(x, 2.0)`` slow path as
    # ``x * x``, vector math within 1 ulp (``vector_square.py``), for an engine that
    # inlines ``hj.vsquare.*`` after vectorising; False: such loops stay scalar
    vector_square: bool = False
    # float64 math calls (exp, log, pow, sin ... the names of ``softmath.NAMES``) call
    # core's software versions ``hj.softmath.<name>``, defined in the module; a target
    # sets this from ``not capabilities.float64_math``
    softmath: bool = False
    # the elements of NumPy's ufunc loops (``Intrinsic.numpy_loop``) through NumPy's
    # own SIMD functions: (intrinsic name, dtype name) -> (lanes, vector function),
    # e.g. ("pow", "float64") -> (8, "__svml_pow8_ha") (``numpy_loops.py``); a
    # mapping the target may fill on first use; None: the C library's functions
    numpy_loops: object = None


I1, I8, I32, I64 = ir.IntType(1), ir.IntType(8), ir.IntType(32), ir.IntType(64)
F32, F64 = ir.FloatType(), ir.DoubleType()
PTR = ir.PointerType()


def lltype(t: T.Type) -> ir.Type:
    """The LLVM type of ``t``, one instance per type for the process: llvmlite's
    types are values that nothing changes, and each prints its text once (a new
    ``{ptr, ptr, [2 x i64], [2 x i64]}`` per array operand was formatted again
    for every instruction that names it)."""
    try:
        return _LLTYPES[t]
    except KeyError:
        ty = _LLTYPES[t] = _lltype(t)
        return ty
    except TypeError:           # (a type holding something unhashable)
        return _lltype(t)


_LLTYPES: dict = {}


def _lltype(t: T.Type) -> ir.Type:
    if isinstance(t, T.Scalar):
        if t.kind == "b":
            return I1
        if t.kind in "iu":
            return ir.IntType(t.bits)
        if t.kind == "f":
            return F32 if t.bits == 32 else F64
        c = lltype(t.component)
        return ir.LiteralStructType([c, c])
    if isinstance(t, T.TupleType):
        return ir.LiteralStructType([lltype(i) for i in t.items])
    if isinstance(t, T.NoneType):
        return I8
    if isinstance(t, T.ArrayType):
        dims = ir.ArrayType(I64, t.ndim)
        return ir.LiteralStructType([PTR, PTR, dims, dims])
    if isinstance(t, T.GeneratorType):      # state, next_uint64, next_uint32, next_double
        return ir.LiteralStructType([I64] * 4)
    raise TypeError(f"no LLVM type for {t}")


def holds_array(t) -> bool:
    if isinstance(t, T.ArrayType):
        return True
    return isinstance(t, T.TupleType) and any(holds_array(i) for i in t.items)


def memtype(t: T.Scalar) -> ir.Type:
    """How an array element is stored (bools as bytes)."""
    return I8 if t.is_bool else lltype(t)


def const(value, t: T.Type) -> ir.Constant:
    ty = lltype(t)
    if isinstance(t, T.Scalar):
        if t.kind == "b":
            return ir.Constant(I1, int(bool(value)))
        if t.kind in "iu":
            from ..ir.constants import of_type
            v = of_type(int(value), t) & ((1 << t.bits) - 1)
            return ir.Constant(ty, v)
        if t.kind == "f":
            return ir.Constant(ty, float(value))
        v = complex(value)
        c = t.component
        return ir.Constant(ty, [const(v.real, c), const(v.imag, c)])
    if isinstance(t, T.TupleType):
        return ir.Constant(ty, [const(v, it) for v, it in zip(value, t.items)])
    if isinstance(t, T.NoneType):
        return ir.Constant(I8, 0)
    raise TypeError(t)


def set_weights(br, weights: tuple) -> None:
    """``br.set_weights(weights)``: the same ``!prof`` node, made once per module
    (llvmlite's makes the node's operands -- a string and constants -- and looks
    them up again for each branch; a module has hundreds of checked branches)."""
    module = br.module
    made = module.__dict__.setdefault("hj_weights", {})
    md = made.get(weights)
    if md is None:
        br.set_weights(list(weights))
        made[weights] = br.metadata["prof"]
    else:
        br.set_metadata("prof", md)
