"""The spellings of the C-family emitter (:mod:`hanajit.toolkit.c_family`).

A :class:`Dialect` says how C99, HLS C++ and the Metal Shading Language (MSL) spell
the same statement: type names, literals, aggregates, pointers, the math library,
the prelude.  It never changes what is computed -- wrapping integer arithmetic,
NaN comparisons, casts are decided by the IR and printed the same way in every
dialect (``tests`` check that the dialects differ in spelling only).

* :data:`C99` -- ``<stdint.h>`` types, ``static inline``, libm (``sinf`` for
  float32), ``typedef struct`` and compound literals ``(T){...}``.
* :data:`HLS_CPP` -- what ``hanajit-fpga`` feeds Vitis HLS: C++ aggregates
  ``T{...}``, ``#pragma HLS PIPELINE II=1`` in innermost loops.
* :data:`MSL` -- ``<metal_stdlib>``, ``int``/``long``/``float``, ``metal::`` math,
  ``device T *`` array data, ``thread T *`` out-parameters.  Metal has no 64-bit
  floats: float64 anywhere is an ``UnsupportedError`` naming float64.  Metal's
  compiler assumes fast math unless given ``-fno-fast-math``: a Metal target must
  pass it, or NaN, infinities and ``pow`` of negative bases no longer follow the
  IR.  There is no Metal compiler on Linux: MSL output is checked structurally
  here and compiled on a Mac only.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from . import libm

_STDINT = {("b", 1): "bool", ("f", 32): "float", ("f", 64): "double",
           **{(k, b): f"{'u' if k == 'u' else ''}int{b}_t"
              for k in "iu" for b in (8, 16, 32, 64)}}
_METAL = {("b", 1): "bool", ("f", 32): "float",
          ("i", 8): "char", ("u", 8): "uchar", ("i", 16): "short", ("u", 16): "ushort",
          ("i", 32): "int", ("u", 32): "uint", ("i", 64): "long", ("u", 64): "ulong"}

# pow as the C library computes it (what the CPU code calls): C compilers fold
# pow(x, 2.0) into x*x once the exponent is a known constant, and that can differ
# from pow in the last bit.  Synthesis tools keep their own pow.
POW_WRAPPERS = (
    "#if defined(__SYNTHESIS__)",
    "#define hj_pow pow",
    "#define hj_powf powf",
    "#else",
    "#if defined(__clang__)",
    "#define HJ_OPAQUE __attribute__((noinline, optnone))",
    "#elif defined(__GNUC__)",
    "#define HJ_OPAQUE __attribute__((noipa))",
    "#else",
    "#define HJ_OPAQUE",
    "#endif",
    "HJ_OPAQUE static double hj_pow(double x, double y) { return pow(x, y); }",
    "HJ_OPAQUE static float hj_powf(float x, float y) { return powf(x, y); }",
    "#endif",
    "",
)

# the libm functions the Metal standard library has (``metal::<name>``)
_METAL_MATH = frozenset(
    "sqrt exp exp2 log log2 log10 sin cos tan asin acos atan sinh cosh tanh asinh "
    "acosh atanh atan2 pow fmod fabs floor ceil trunc rint copysign fma".split())


@dataclass(frozen=True)
class Dialect:
    """How one C-family language spells the emitter's output."""

    name: str
    includes: tuple = ("<stdint.h>", "<math.h>")
    function_prefix: str = "static inline "
    # "c++": ``struct S {...};`` and ``S{a, b}``; "c": ``typedef struct`` and ``(S){a, b}``
    aggregates: str = "c++"
    # a float formatted into an exception message: the bits of the double ``value``
    # into the int64 ``slot`` (None: the language cannot; such a raise is refused)
    float_field: "str | None" = ("{{ double hj_f = {value}; "
                                 "__builtin_memcpy(&{slot}, &hj_f, sizeof hj_f); }}")
    # (kind, bits) -> type name
    types: tuple = tuple(_STDINT.items())
    # suffixes of 64-bit signed and unsigned integer literals
    int64_suffix: tuple = ("LL", "ULL")
    # suffix of float literals of each width (MSL has no double literals)
    float_suffix: tuple = ("", "")
    # address space of array data and of out-parameters ("" in C)
    data_space: str = ""
    local_space: str = ""
    # "libm": ``sin``/``sinf`` (pow through ``hj_pow``); otherwise a namespace
    # prefix such as ``metal::`` whose functions are overloaded by type
    math: str = "libm"
    # the integer type of a pointer's address, or "" when the dialect has none
    address_int: str = "intptr_t"
    # called with a loop statement, returns lines to put first in its body
    loop_pragmas: object = None
    # how GPU kernels are spelt (:class:`KernelSpelling`), None: no kernels
    kernel: object = None

    def type_name(self, kind: str, bits: int) -> str | None:
        return dict(self.types).get((kind, bits))

    def float_literal(self, text: str, bits: int) -> str:
        return text + self.float_suffix[bits == 64]

    def aggregate(self, ctype: str, items: str) -> str:
        return f"({ctype}){{{items}}}" if self.aggregates == "c" else f"{ctype}{{{items}}}"

    def zero(self) -> str:
        """An initialiser that zeroes any scalar or struct."""
        return "{0}" if self.aggregates == "c" else "{}"

    def struct(self, cname: str, fields: str) -> str:
        if self.aggregates == "c":
            return f"typedef struct {cname} {{ {fields} }} {cname};"
        return f"struct {cname} {{ {fields} }};"

    def math_function(self, name: str, bits: int) -> str | None:
        """The callee spelling ``name`` on floats of ``bits``, or None when the
        dialect's library lacks it."""
        if name not in libm.FLOAT_FUNCTIONS:
            return None
        if self.math == "libm":
            if name == "pow":
                name = "hj_pow"
            return name + ("f" if bits == 32 else "")
        return self.math + name if name in _METAL_MATH else None

    def prelude(self, uses_pow: bool, uses_smul: bool = False) -> list:
        """Lines after the includes: the population-count helper, pow wrappers, the
        overflow test of a product."""
        u64 = self.type_name("u", 64)
        lines = ["", f"static inline {u64} hj_ctpop({u64} x) {{",
                 f"    {u64} n = 0;", "    for (; x; x &= x - 1) n++;",
                 "    return n;", "}", ""]
        i64 = self.type_name("i", 64)            # does a * b leave int64?
        lo, hi = f"(({i64})-9223372036854775807 - 1)", f"(({i64})9223372036854775807)"
        lines += [] if not uses_smul else [f"static inline int hj_smul_overflow({i64} a, {i64} b) {{",
                  "    if (a == 0 || b == 0) return 0;",
                  f"    if (a > 0) return b > 0 ? a > {hi} / b : b < {lo} / a;",
                  f"    return b > 0 ? a < {lo} / b : b < {hi} / a;", "}", ""]
        if uses_pow and self.math == "libm":
            lines += POW_WRAPPERS
        return lines


@dataclass(frozen=True)
class KernelSpelling:
    """How a C-family dialect spells the GPU kernel model
    (:mod:`hanajit.toolkit.c_kernel` prints it; ``docs/gpu.md`` has the layout).

    Every ``{...}`` field is a ``str.format`` template.  The kernel entry takes, in
    order: the error record (``err_param``, buffer 0), one buffer per array
    argument (``buffer_param``), one buffer of 8-byte scalar slots
    (``slots_param``), one threadgroup buffer per shared array
    (``shared_param``), then the built-ins (``builtins``)."""

    entry_prefix: str = "kernel void"
    err_param: str = "device long *hj_err [[buffer(0)]]"
    buffer_param: str = "device {type} *{name} [[buffer({slot})]]"
    slots_param: str = "constant long *{name} [[buffer({slot})]]"
    shared_param: str = "threadgroup {type} *{name} [[threadgroup({slot})]]"
    # pointer qualifier of shared arrays' data
    shared_space: str = "threadgroup "
    # GpuIndex kind -> (parameter type, name, attribute); read as ``<name>.<axis>``
    builtins: tuple = (
        ("thread", "uint3", "hj_tid", "thread_position_in_threadgroup"),
        ("block", "uint3", "hj_bid", "threadgroup_position_in_grid"),
        ("block_dim", "uint3", "hj_bdim", "threads_per_threadgroup"),
        ("grid_dim", "uint3", "hj_gdim", "threadgroups_per_grid"))
    builtin_param: str = "{type} {name} [[{attr}]]"
    # a float scalar slot holds a float32 in its low four bytes
    float_slot: str = "as_type<float>((uint){slot})"
    # shared and global memory, as the IR's Barrier promises
    barrier: str = ("threadgroup_barrier(mem_flags::mem_threadgroup | "
                    "mem_flags::mem_device);")
    # atomics: (kind, bits) -> atomic type; the operations each has
    atomic_types: tuple = ((("i", 32), "atomic_int"), (("u", 32), "atomic_uint"),
                           (("f", 32), "atomic_float"))
    atomic_ops: frozenset = frozenset({"add.i32", "min.i32", "max.i32", "add.u32",
                                       "min.u32", "max.u32", "add.f32"})
    atomic_fetch: str = ("atomic_fetch_{op}_explicit(({space}{atype} *)&{lvalue}, "
                         "{value}, memory_order_relaxed)")
    # one compare-and-swap attempt: true when it stored ``{new}``; ``{expected}``
    # (a local) then holds the value seen
    atomic_cas: str = ("atomic_compare_exchange_weak_explicit(({space}{atype} *)&{lvalue}, "
                       "&{expected}, {new}, memory_order_relaxed, memory_order_relaxed)")


def _innermost_pipeline(loop) -> list:
    from ..ir import nodes as N
    nested = any(isinstance(s, (N.Loop, N.ForCount)) for s in N.walk_stmts(loop.body))
    return [] if nested else ["#pragma HLS PIPELINE II=1"]


C99 = Dialect(name="c99", includes=("<stdbool.h>", "<stdint.h>", "<math.h>"),
              aggregates="c")
HLS_CPP = Dialect(name="hls-c++", loop_pragmas=_innermost_pipeline)
MSL = Dialect(name="msl", includes=("<metal_stdlib>",), function_prefix="static inline ",
              types=tuple(_METAL.items()), int64_suffix=("L", "UL"),
              float_suffix=("f", ""), data_space="device ", local_space="thread ",
              math="metal::", address_int="", kernel=KernelSpelling(), float_field=None)

# Metal with float64 demoted to float32 (``metal_float64="demote"``)
MSL_DEMOTE_F64 = replace(MSL, name="msl (float64 as float32)",
                         types=MSL.types + ((("f", 64), "float"),),
                         float_suffix=("f", "f"))

DIALECTS = {d.name: d for d in (C99, HLS_CPP, MSL)}
