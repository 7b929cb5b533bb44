"""The GPU kernel model as data: one :class:`KernelModel` row per GPU target.

The primitive IR has four kernel-model nodes -- ``GpuIndex`` (thread, block,
block size and grid size on an axis), ``SharedArray``, ``Barrier`` and
``Atomic`` -- whose meaning is decided in core.  How a GPU spells them differs:
NVPTX reads special registers, AMDGPU reads work-item intrinsics and the HSA
dispatch packet, OpenCL-flavoured SPIR-V calls ``get_local_id(dim)``.  A target
says which by filling a :class:`KernelModel` row; ``lowering/kernel_lower.py``
prints the nodes from the row and nothing else, and builds the kernel entry
(error record, calling convention) from it.

A row is pure data (strings, numbers, tuples), so it can be printed, compared
and shipped to the child process that runs codegen.  Rows for NVPTX live in
``hanajit_cuda``; :data:`AMDGPU` and :data:`SPIRV_OPENCL` below are the rows the
HIP and Level Zero targets start from.  ``docs/gpu.md`` explains every field.
"""
from __future__ import annotations

from dataclasses import dataclass

AXES = "xyz"
# every atomic operation the IR has, per element kind: "<op>.<kind><bits>"
ATOMIC_OPS = ("add", "min", "max")
ALL_ATOMICS = frozenset(f"{op}.{k}{bits}" for op in ATOMIC_OPS
                        for k in "iuf" for bits in (32, 64))


@dataclass(frozen=True)
class Builtin:
    """How one kernel-model value is read on one axis, as an unsigned integer
    (zero-extended to i64 by the lowering).

    ``form``:

    * ``"intrinsic"`` -- call ``name`` (``{axis}`` replaced by x, y or z), no
      arguments, returning ``i<width>``: ``llvm.nvvm.read.ptx.sreg.tid.{axis}``;
    * ``"call"`` -- call ``name`` with the axis as an ``i32`` (0, 1, 2), returning
      ``i<width>``: OpenCL's ``_Z12get_local_idj`` (``size_t``: 64 bits on spirv64);
    * ``"packet"`` -- call the intrinsic ``name``, which returns a pointer in
      address space ``addrspace``, and load ``i<width>`` at byte
      ``offset + axis * stride``: AMDGPU's HSA dispatch packet.
    * ``"constant"`` -- ``values[axis]``, fixed when the kernel is compiled: the
      workgroup size of a Vulkan compute shader (``hlsl.numthreads``), which a
      target sets per launch configuration with ``dataclasses.replace``.

    ``divide_by``: the value is this one divided (unsigned) by that one -- the
    dispatch packet has the grid in work-items, the kernel model in blocks."""

    form: str
    name: str
    width: int = 32
    addrspace: int = 0
    offset: int = 0
    stride: int = 0
    divide_by: "Builtin | None" = None
    values: tuple = ()


@dataclass(frozen=True)
class Step:
    """One step of a barrier: a ``fence`` (``ordering`` in ``scope``) when
    ``fence`` is set, else a call of ``call`` with ``args`` as ``i32`` constants."""

    call: str = ""
    args: tuple = ()
    fence: str = ""
    scope: str = ""


@dataclass(frozen=True)
class KernelModel:
    """One GPU target's spelling of the kernel model (see the module docstring and
    ``docs/gpu.md``).  Every field is data."""

    name: str                       # for messages: "NVPTX", "AMDGPU", "SPIR-V (OpenCL)"
    triple: str
    data_layout: str                # "" = the target machine's
    cpu: str                        # default processor (sm_75, gfx90a ...)
    features: str = ""
    # GpuIndex: kind -> how it is read
    thread: Builtin = None
    block: Builtin = None
    block_dim: Builtin = None
    grid_dim: Builtin = None
    # Barrier: the steps, in order (fences around a control barrier ...)
    barrier: tuple = ()
    # address spaces: SharedArray globals; kernel pointer parameters (cast to the
    # generic address space 0 the lowering uses for every other pointer)
    shared_addrspace: int = 3
    global_addrspace: int = 0
    # the generic (flat) address space every other pointer of the lowering lives
    # in, and the one of stack slots (allocas), cast to the generic one; when
    # either is not 0, ``kernel_lower.address_spaces`` rewrites the module
    generic_addrspace: int = 0
    alloca_addrspace: int = 0
    # where module constants (``hj.table.*``: constant tuples indexed at run time)
    # live when the generic space is not 0: SPIR-V has no generic-storage globals
    constant_addrspace: int = 0
    # the kernel entry's calling convention (ptx_kernel, amdgpu_kernel, spir_kernel)
    # and the one of functions it calls by name (OpenCL builtins: spir_func)
    kernel_cc: str = ""
    callee_cc: str = ""
    # llvm.module.flags, as (behaviour, name, i32 value)
    module_flags: tuple = ()
    # atomics: every ``atomicrmw``/``cmpxchg`` gets ``syncscope(atomic_scope)``
    # ("" = the system scope) and ``atomic_ordering``; ``atomic_rmw`` lists the
    # "<op>.<kind><bits>" printed as one ``atomicrmw`` -- the others become a
    # compare-and-swap loop in core; ``cmpxchg``: False refuses atomic_cas() and a
    # raise (whose first thread is chosen by compare-and-swap)
    atomic_ordering: str = "monotonic"
    atomic_scope: str = ""
    atomic_rmw: frozenset = ALL_ATOMICS
    cmpxchg: bool = True
    # ``llvm.s{add,sub,mul}.with.overflow`` (the Python-int checks); False: the
    # backend cannot select them (LLVM 22's SPIR-V: G_SADDO) and plain integer
    # arithmetic computes the flag (``llvm_math._portable_overflow``)
    overflow_intrinsics: bool = True
    # command-line options for LLVM in the codegen process (``llvm.set_option``)
    llvm_options: tuple = ()
    # "physical": array data are pointers in ``global_addrspace`` (kernel
    # parameters cast to the generic space).  "logical" (Vulkan's logical
    # addressing: no pointer arithmetic, no pointer parameters): the kernel entry
    # takes no parameters, array ``k`` (``err`` first) is the storage buffer at
    # descriptor set 0, binding k, the other words are one push-constant block in
    # ``push_addrspace``, and an array's data "pointer" is a token (binding << 40
    # | byte offset) that ``kernel_logical`` turns into a buffer access per element;
    # a raise site claims the error record with an i32 atomic add (no 64-bit
    # atomics or compare-and-swap needed; the record is kernel_logical.ERR_BYTES)
    addressing: str = "physical"
    push_addrspace: int = 13
    push_bytes: int = 128           # the push-constant block's limit
    # logical addressing: attributes of the kernel entry, ``{x}``/``{y}``/``{z}``
    # replaced by the block_dim "constant" values (the workgroup size)
    entry_attributes: tuple = ()
    # float64 math LLVM may call as ``llvm.<name>.f64``; None = every function
    # (the others are refused: a device whose float64 has no transcendentals)
    float64_math: frozenset | None = None
    # whether ``llvm.fma.f64`` is rounded once on the device; False: core's
    # software float64 math (``softmath``) computes its fmas with Dekker's exact
    # products instead (lavapipe runs GLSL.std.450 Fma on doubles as a multiply and
    # an add, measured: fma(x, x, -x*x) is 0)
    fused_fma64: bool = True
    # the codegen process's optimisation: "O3", or "inline" (always-inline, SROA,
    # instcombine, SCCP: for a backend whose control-flow structuriser fails on
    # O3's CFG)
    optimise: str = "O3"
    # fixes applied in the codegen process, by name (``toolkit/spirv_patch.py``):
    # to the optimised IR text before emitting, and to the emitted binary
    pre_emit: tuple = ()
    post_emit: tuple = ()
    # a function taking or returning an aggregate (a tuple, an array's struct) is
    # always inlined: LLVM 22's SPIR-V backend aborts on aggregate call arguments
    # and results; a logical row inlines everything anyway
    inline_aggregates: bool = False

    def value(self, kind: str) -> Builtin:
        """The spec of ``GpuIndex.kind``: thread, block, block_dim or grid_dim."""
        return getattr(self, kind)


# -- AMDGPU (HIP) ----------------------------------------------------------------------
# hsa_kernel_dispatch_packet_t: workgroup_size_{x,y,z} are u16 at 4, 6, 8;
# grid_size_{x,y,z} (in work-items) are u32 at 12, 16, 20.  The packet exists in
# every code object version, unlike the implicit-argument layout.
_AMD_GROUP_SIZE = Builtin("packet", "llvm.amdgcn.dispatch.ptr", width=16, addrspace=4,
                          offset=4, stride=2)
AMDGPU = KernelModel(
    name="AMDGPU",
    triple="amdgcn-amd-amdhsa",
    data_layout="",
    cpu="gfx90a",
    thread=Builtin("intrinsic", "llvm.amdgcn.workitem.id.{axis}"),
    block=Builtin("intrinsic", "llvm.amdgcn.workgroup.id.{axis}"),
    block_dim=_AMD_GROUP_SIZE,
    grid_dim=Builtin("packet", "llvm.amdgcn.dispatch.ptr", width=32, addrspace=4,
                     offset=12, stride=4, divide_by=_AMD_GROUP_SIZE),
    # what clang emits for __syncthreads(): release fence, s_barrier, acquire fence
    barrier=(Step(fence="release", scope="workgroup"),
             Step(call="llvm.amdgcn.s.barrier"),
             Step(fence="acquire", scope="workgroup")),
    shared_addrspace=3,
    global_addrspace=1,
    alloca_addrspace=5,                 # private (scratch); 0 is the flat space
    kernel_cc="amdgpu_kernel",
    # code object v5: ROCm 5.3 and later load it (lld 15 and later link it)
    module_flags=((1, "amdhsa_code_object_version", 500),),
    atomic_scope="agent",
)

# -- SPIR-V, OpenCL flavour (Level Zero, OpenCL) --------------------------------------
# LLVM's SPIR-V backend turns these OpenCL builtins into the BuiltIn variables
# (LocalInvocationId, WorkgroupId, WorkgroupSize, NumWorkgroups) and OpControlBarrier.
_CLK_LOCAL_MEM_FENCE = 1
SPIRV_OPENCL = KernelModel(
    name="SPIR-V (OpenCL)",
    overflow_intrinsics=False,
    triple="spirv64-unknown-unknown",
    data_layout="",
    cpu="",
    thread=Builtin("call", "_Z12get_local_idj", width=64),
    block=Builtin("call", "_Z12get_group_idj", width=64),
    block_dim=Builtin("call", "_Z14get_local_sizej", width=64),
    grid_dim=Builtin("call", "_Z14get_num_groupsj", width=64),
    barrier=(Step(call="_Z7barrierj", args=(_CLK_LOCAL_MEM_FENCE,)),),
    shared_addrspace=3,
    global_addrspace=1,
    generic_addrspace=4,                # 0 is Function (private) storage in SPIR-V
    constant_addrspace=1,               # CrossWorkgroup: __constant has no generic cast
    kernel_cc="spir_kernel",
    inline_aggregates=True,
    callee_cc="spir_func",
    # relaxed atomics print an OpConstantNull as their semantics (see
    # ../shared/notes/vulkan-spirv.md), and the system scope is not allowed
    atomic_ordering="seq_cst",
    atomic_scope="device",
    # float atomics need extensions most OpenCL devices lack: a CAS loop instead
    atomic_rmw=frozenset(k for k in ALL_ATOMICS if ".f" not in k),
)

# -- SPIR-V, Vulkan flavour (compute shaders) -------------------------------------------
# ../shared/notes/vulkan-spirv.md: logical addressing (buffers by set and binding,
# push constants in addrspace 13), the workgroup size fixed at compile time, i32
# and f32 atomics only (LLVM 22 refuses Int64Atomics for Vulkan and aborts on
# cmpxchg), GLSL.std.450 math 32-bit only.
_I32_ATOMICS = frozenset(f"{op}.{k}32" for op in ATOMIC_OPS for k in "iuf")
VULKAN = KernelModel(
    name="SPIR-V (Vulkan)",
    overflow_intrinsics=False,
    triple="spirv1.6-unknown-vulkan1.3-compute",
    data_layout="",
    cpu="",
    thread=Builtin("call", "llvm.spv.thread.id.in.group.i32"),
    block=Builtin("call", "llvm.spv.group.id.i32"),
    block_dim=Builtin("constant", "workgroup size", values=(64, 1, 1)),
    grid_dim=Builtin("call", "llvm.spv.num.workgroups.i32"),
    barrier=(Step(call="llvm.spv.group.memory.barrier.with.group.sync"),),
    shared_addrspace=3,
    global_addrspace=11,                # StorageBuffer
    atomic_ordering="seq_cst",          # monotonic prints an OpConstantNull
    atomic_scope="device",
    atomic_rmw=_I32_ATOMICS,
    cmpxchg=False,
    # --disable-cgp: LLVM 22 runs CodeGenPrepare before the SPIR-V structuriser,
    # and it deletes the empty merge blocks of the lowering's if/else and loops
    # (docs/gpu.md)
    llvm_options=("--spirv-ext=+SPV_EXT_shader_atomic_float_add,"
                  "+SPV_EXT_shader_atomic_float_min_max", "--disable-cgp"),
    addressing="logical",
    entry_attributes=(("hlsl.numthreads", "{x},{y},{z}"), ("hlsl.shader", "compute")),
    float64_math=frozenset({"sqrt", "fabs", "floor", "ceil", "trunc", "rint",
                            "copysign", "fma", "minnum", "maxnum", "round",
                            "roundeven"}),
    fused_fma64=False,
    optimise="inline",
    pre_emit=("constant_geps", "unordered_compares", "duplicate_returns", "branch_order",
              "direct_access"),
    post_emit=("int_constant_null", "barrier_semantics", "exact_float",
               "loop_merge_last"),
)
