"""GPU kernels for a row with logical addressing (``KernelModel.addressing ==
"logical"``: Vulkan compute shaders through LLVM's SPIR-V backend).

Logical addressing has no pointer arithmetic and no pointer parameters: an
element of a storage buffer is reached only by indexing the buffer itself
(``llvm.spv.resource.getpointer(handle, index)``), and LLVM's instcombine turns
every ``getelementptr`` into arithmetic on a base pointer, which the backend then
refuses (``../shared/notes/vulkan-spirv.md``).  So here an array's data
"pointer" is a *token*, ``inttoptr(binding << 40 | byte offset)``: views add to
it as they add to a pointer, and every element access calls
``hj.element.<type>(token, byte offset)``, whose body (written by
:func:`finish`, always inlined) switches on the binding and indexes that buffer
-- or a shared array, whose token is ``SHARED + j``.  After inlining the binding
is a constant and the switch folds away.

The kernel entry takes no parameters (:func:`add_logical_kernel`): the error
record is the buffer at descriptor set 0, binding 0, and array ``k`` the one at
binding ``k``; every parameter slot a launcher fills (``hanajit.launch.launcher``:
the error record, then per array its address, shape and strides, per scalar its
bits) is an 8-byte member of one push-constant block, in order.  A driver's
device address is ``allocation << 40 | byte offset``: the kernel takes the offset
from it and the allocation from the binding.  A raise site claims the error
record with an i32 atomic add on its word 8 (:func:`record_raise`) and writes the
code and message as i32 halves; the record is :data:`ERR_BYTES` long (the
artifact's ``error_bytes``).  Every function is inlined into the entry.
"""
from __future__ import annotations

import re

from llvmlite import ir

from ..errors import UnsupportedError
from ..ir import types as T
from .cabi import unflatten
from .kernel_model import AXES, KernelModel

I8, I32, I64 = ir.IntType(8), ir.IntType(32), ir.IntType(64)
PTR = ir.PointerType()
SHIFT = 40                  # token = binding << SHIFT | byte offset
SHARED = 1 << 12            # shared array j has "binding" SHARED + j
# the error record as i32 words: 4 x i64 (code, three values), the claim word,
# one spare, then scratch for the threads that lost the claim: 72 bytes
CLAIM, SCRATCH, ERR_BYTES = 8, 10, 72


class LogicalState:
    """What :func:`finish` needs: the buffers (binding -> element type), the
    shared arrays (global, length, element type) and the element types used."""

    def __init__(self):
        self.buffers: dict[int, ir.Type] = {}
        self.shared: list = []
        self.types: dict[str, ir.Type] = {}


def state(ml) -> LogicalState:
    st = getattr(ml.llmod, "logical_state", None)
    if st is None:
        st = ml.llmod.logical_state = LogicalState()
    return st


def mangle(ty: ir.Type) -> str:
    if isinstance(ty, ir.DoubleType):
        return "f64"
    if isinstance(ty, ir.FloatType):
        return "f32"
    if isinstance(ty, ir.IntType):
        return f"i{ty.width}"
    raise UnsupportedError(f"logical addressing: no buffers of {ty}",
                           construct="array element type")


def token(value: int) -> ir.Constant:
    return ir.Constant(I64, value).inttoptr(PTR)


def element(ml, b: ir.IRBuilder, data, offset, et: ir.Type):
    """The (generic) address of the element at byte ``offset`` from ``data``."""
    name = mangle(et)
    st = state(ml)
    st.types[name] = et
    fn = ml.llmod.globals.get(f"hj.element.{name}")
    if fn is None:
        fn = ir.Function(ml.llmod, ir.FunctionType(PTR, [PTR, I64]), f"hj.element.{name}")
    return b.call(fn, [data, offset])


def shared_token(ml, g: ir.GlobalVariable, size: int, et: ir.Type) -> ir.Constant:
    """The token of shared array ``g`` (``size`` elements of ``et``)."""
    st = state(ml)
    for j, (other, _, _) in enumerate(st.shared):
        if other is g:
            return token((SHARED + j) << SHIFT)
    st.shared.append((g, size, et))
    st.types[mangle(et)] = et
    return token((SHARED + len(st.shared) - 1) << SHIFT)


# -- the kernel entry ------------------------------------------------------------------
def add_logical_kernel(ml, llmod: ir.Module, fn, decl: ir.Function, model: KernelModel,
                       name: str, kinds: list) -> ir.Function:
    """The parameterless entry ``name``: buffers and push constants rebuilt into
    ``decl``'s arguments, then the error record written by the first raiser."""
    from .llvm import lltype, memtype
    st = state(ml)
    # the push block is every parameter slot, as a launcher fills them: slot 0 the
    # error record, then per array its device address, shape and strides
    words = ["i64"] + ["i64" if k == "ptr" else k for k in kinds]
    if 8 * len(words) > model.push_bytes:
        raise UnsupportedError(
            f"{fn.pyname}: {len(words)} parameter words (the error record, per array "
            "its address, shape and strides, the scalars) do not fit "
            f"{model.name}'s {model.push_bytes}-byte push constants",
            func=fn.pyname, construct="kernel arguments")
    elems = [memtype(t.dtype) for t in fn.arg_types if isinstance(t, T.ArrayType)]
    st.buffers[0] = I32
    for k, et in enumerate(elems, 1):
        st.buffers[k] = et
    st.types["i32"] = I32
    llty = {"i64": I64, "f64": ir.DoubleType()}
    block = ir.LiteralStructType([llty[w] for w in words])
    push = ir.GlobalVariable(llmod, block, "hj.push", addrspace=model.push_addrspace)
    k = ir.Function(llmod, ir.FunctionType(ir.VoidType(), []), name)
    b = ir.IRBuilder(k.append_basic_block("entry"))
    flat, binding = [], 1
    for word, kind in enumerate(kinds, 1):
        at = b.gep(push, [ir.Constant(I32, 0), ir.Constant(I32, word)])
        value = b.load(at, typ=llty[words[word]])
        if kind == "ptr":
            # the buffer is the binding; the address's low bits are the byte
            # offset of the array in it (a view into a larger allocation)
            offset = b.and_(value, ir.Constant(I64, (1 << SHIFT) - 1))
            value = b.inttoptr(b.or_(offset, ir.Constant(I64, binding << SHIFT)), PTR)
            binding += 1
        flat.append(value)
    args = [unflatten(b, flat, t, data_is_ptr=True) for t in fn.arg_types]
    if fn.can_raise:
        # the raise sites wrote the error record themselves (record_raise)
        rt = fn.return_type
        args = [b.alloca(ir.ArrayType(I64, 4)),
                b.alloca(lltype(rt) if rt != T.NONE else I8)] + args
    b.call(decl, args)
    b.ret_void()
    return k


def record_raise(ml, b: ir.IRBuilder, model: KernelModel, code, *values) -> None:
    """A raise site (``Raise`` in a logical-addressing row; the function then
    returns, and once inlined the return is the shader's own): an i32 atomic add
    on word 8 of the error record (binding 0)
    picks the first raising thread, which writes the code and up to three values
    as i32 halves to words 0-7; the others write the same to the scratch words
    10-17.  No branch, and written where the raise is, not at one merge block:
    LLVM 22's structuriser gives invalid SPIR-V for a selection on the path of
    an exit, and for exits before, inside and after a loop meeting in one block."""
    from .kernel_lower import ordering
    err = token(0)
    old = b.atomic_rmw("add", element(ml, b, err, ir.Constant(I64, 4 * CLAIM), I32),
                       ir.Constant(I32, 1), ordering(model))
    won = b.icmp_unsigned("==", old, ir.Constant(I32, 0))
    base = b.select(won, ir.Constant(I64, 0), ir.Constant(I64, 4 * SCRATCH))
    words = [code] + list(values)
    for i, v in enumerate(words):
        if isinstance(v.type, ir.DoubleType):
            v = b.bitcast(v, I64)
        elif isinstance(v.type, ir.IntType) and v.type.width < 64:
            v = b.sext(v, I64)
        for half, part in enumerate((v, b.lshr(v, ir.Constant(I64, 32)))):
            at = b.add(base, ir.Constant(I64, 4 * (2 * i + half)))
            b.store(b.trunc(part, I32), element(ml, b, err, at, I32))


def check_math(llmod: ir.Module, model: KernelModel, pyname: str) -> None:
    """Refuse float64 math the row's device lacks (``float64_math``), and calls
    of library functions: a logical-addressing module links nothing."""
    for f in llmod.functions:
        if not f.is_declaration or f.name.startswith(("llvm.", "hj.element.")):
            continue
        raise UnsupportedError(
            f"{pyname}: {model.name} has no {f.name} (capability: c_math, a math "
            "library on the device)", func=pyname, construct=f.name)
    if model.float64_math is None:
        return
    for f in llmod.functions:
        m = re.fullmatch(r"llvm\.(\w+)\.f64", f.name)
        if f.is_declaration and m and m.group(1) not in model.float64_math:
            raise UnsupportedError(
                f"{pyname}: {model.name} has no float64 {m.group(1)} (capability: "
                "float64 transcendental math; use float32 arguments)",
                func=pyname, construct=f"float64 {m.group(1)}")


# -- text: the element functions and the entry's attributes ----------------------------
def _handle(et: ir.Type) -> tuple[str, str, str]:
    m = mangle(et)
    ty = f'target("spirv.VulkanBuffer", [0 x {et}], 12, 1)'
    return (ty, f"@llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0{m}_12_1t",
            f"@llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0{m}_12_1t")


def finish(text: str, llmod: ir.Module, model: KernelModel, name: str) -> str:
    """``text`` (the module printed) with the element functions defined, the
    buffer intrinsics declared and the entry's attributes set."""
    st = getattr(llmod, "logical_state", None) or LogicalState()
    sizes = {"x": 1, "y": 1, "z": 1}
    if model.block_dim.form == "constant":
        sizes = dict(zip(AXES, model.block_dim.values))
    attrs = " ".join(f'"{key}"="{value.format(**sizes)}"'
                     for key, value in model.entry_attributes)
    text = re.sub(rf'^(define void @"?{re.escape(name)}"?\(\))', rf"\1 {attrs}",
                  text, count=1, flags=re.M)
    # hidden: not exported, so LLVM declares no Linkage capability (not Vulkan's)
    text = re.sub(r'^(@"?hj\.push"? = )external ', r"\1external hidden ", text,
                  count=1, flags=re.M)
    extra = []
    for bnd in sorted(st.buffers):
        extra.append(f'@.hj.b{bnd} = private unnamed_addr constant [4 x i8] c"b{bnd:02d}\\00"')
    declared = set()
    for et in st.buffers.values():
        ty, hfb, gp = _handle(et)
        if hfb not in declared:
            declared.add(hfb)
            extra.append(f"declare {ty} {hfb}(i32, i32, i32, i32, ptr)")
            extra.append(f"declare ptr addrspace(11) {gp}({ty}, i32)")
    for mname, et in st.types.items():
        text = re.sub(rf'^declare ptr @"hj\.element\.{mname}"\(ptr %?"?[.\w]*"?, '
                      r'i64 %?"?[.\w]*"?\)\s*$',
                      "", text, flags=re.M)
        extra.append(_element_body(mname, et, st, model))
    return text + "\n" + "\n".join(extra) + "\n"


def _element_body(mname: str, et: ir.Type, st: LogicalState, model: KernelModel) -> str:
    size = max(1, (et.width if isinstance(et, ir.IntType) else
                   64 if isinstance(et, ir.DoubleType) else 32) // 8)
    cases, blocks = [], []
    for bnd, bt in sorted(st.buffers.items()):
        if mangle(bt) != mname:
            continue
        ty, hfb, gp = _handle(bt)
        cases.append(f"i64 {bnd}, label %b{bnd}")
        blocks.append(
            f"b{bnd}:\n"
            f"  %h{bnd} = call {ty} {hfb}(i32 0, i32 {bnd}, i32 1, i32 0, ptr @.hj.b{bnd})\n"
            f"  %p{bnd} = call ptr addrspace(11) {gp}({ty} %h{bnd}, i32 %i32)\n"
            f"  %g{bnd} = addrspacecast ptr addrspace(11) %p{bnd} to ptr\n"
            f"  ret ptr %g{bnd}")
    for j, (g, n, gt) in enumerate(st.shared):
        if mangle(gt) != mname:
            continue
        sid = SHARED + j
        gname = g.name if re.fullmatch(r"[-\w.$]+", g.name) else f'"{g.name}"'
        cases.append(f"i64 {sid}, label %s{j}")
        blocks.append(
            f"s{j}:\n"
            f"  %q{j} = getelementptr inbounds [{n} x {gt}], ptr addrspace("
            f"{model.shared_addrspace}) @{gname}, i64 0, i64 %i\n"
            f"  %r{j} = addrspacecast ptr addrspace({model.shared_addrspace}) %q{j} to ptr\n"
            f"  ret ptr %r{j}")
    return (f'define internal ptr @"hj.element.{mname}"(ptr %data, i64 %off) alwaysinline {{\n'
            "entry:\n"
            "  %a = ptrtoint ptr %data to i64\n"
            f"  %which = lshr i64 %a, {SHIFT}\n"
            f"  %base = and i64 %a, {(1 << SHIFT) - 1}\n"
            "  %at = add i64 %base, %off\n"
            f"  %i = sdiv exact i64 %at, {size}\n"
            "  %i32 = trunc i64 %i to i32\n"
            f"  switch i64 %which, label %none [ {' '.join(cases)} ]\n"
            + "\n".join(blocks) + "\nnone:\n  unreachable\n}\n")
