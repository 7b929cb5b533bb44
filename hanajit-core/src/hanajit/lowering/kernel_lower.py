"""GPU kernels from a :class:`~hanajit.lowering.kernel_model.KernelModel` row.

``lowering/llvm.py`` prints the kernel-model nodes through the functions here
(``GpuIndex`` -> :func:`read_index`, ``Barrier`` -> :func:`barrier`, ``Atomic``
-> :func:`atomic`), which read only the row.  :func:`lower_kernel` lowers a whole
module and adds the kernel entry every GPU target shares::

    void <name>(ptr err, <flattened arguments>)      ; the row's calling convention

An array argument is its data pointer (in the row's global address space, cast
to the generic one), then its shape and its strides (bytes) as i64; a scalar is
an i64 or a double (float32 is passed as a double and narrowed, bools and narrow
ints as i64), complex numbers and tuples are split (:func:`param_kinds`).
``err`` points to four i64 in device memory: when the kernel raises, the first
failing thread stores the raise code (``Module.raises`` index + 1) with a
compare-and-swap, then its three message values; that thread returns, the others
go on.  The launcher turns the code into the Python exception afterwards.

:func:`check_kernel` refuses, by the target's ``Capabilities``, what a kernel
cannot do.
"""
from __future__ import annotations

import re

from llvmlite import ir

from ..errors import UnsupportedError
from ..ir import nodes as N
from ..ir import types as T
from .cabi import flat_kinds, unflatten
from .kernel_model import AXES, KernelModel

I1, I32, I64 = ir.IntType(1), ir.IntType(32), ir.IntType(64)
PTR = ir.PointerType()


def _declare(llmod: ir.Module, name: str, fnty: ir.FunctionType, cc: str = ""):
    fn = llmod.globals.get(name)
    if fn is None:
        fn = ir.Function(llmod, fnty, name)
        if cc and not name.startswith("llvm."):       # intrinsics keep LLVM's cc
            fn.calling_convention = cc
    return fn


# -- indices, barriers -----------------------------------------------------------------
def read_index(b: ir.IRBuilder, llmod: ir.Module, model: KernelModel, kind: str,
               axis: int) -> ir.Value:
    """``GpuIndex(kind, axis)`` as an i64."""
    return _read(b, llmod, model, model.value(kind), axis)


def _read(b, llmod, model, spec, axis):
    ty = ir.IntType(spec.width)
    if spec.form == "constant":
        return ir.Constant(I64, spec.values[axis])
    if spec.form == "intrinsic":
        fn = _declare(llmod, spec.name.format(axis=AXES[axis]), ir.FunctionType(ty, []))
        v = b.call(fn, [])
    elif spec.form == "call":
        fn = _declare(llmod, spec.name, ir.FunctionType(ty, [I32]), model.callee_cc)
        v = b.call(fn, [ir.Constant(I32, axis)])
    elif spec.form == "packet":
        pty = ir.PointerType(addrspace=spec.addrspace)
        base = b.call(_declare(llmod, spec.name, ir.FunctionType(pty, [])), [])
        at = b.gep(base, [ir.Constant(I64, spec.offset + axis * spec.stride)],
                   source_etype=ir.IntType(8))
        v = b.load(at, typ=ty)
    else:
        raise ValueError(f"{model.name}: unknown builtin form {spec.form!r}")
    if spec.width < 64:
        v = b.zext(v, I64)
    elif spec.width > 64:
        v = b.trunc(v, I64)
    if spec.divide_by is not None:
        v = b.udiv(v, _read(b, llmod, model, spec.divide_by, axis))
    return v


def barrier(b: ir.IRBuilder, llmod: ir.Module, model: KernelModel) -> None:
    """``Barrier``: the row's steps in order."""
    for step in model.barrier:
        if step.fence:
            b.fence(step.fence, step.scope or None)
        else:
            fn = _declare(llmod, step.call,
                          ir.FunctionType(ir.VoidType(), [I32] * len(step.args)),
                          model.callee_cc)
            if not step.call.startswith("llvm."):
                # never duplicated into divergent paths (intrinsics say so
                # themselves): a barrier some threads skip hangs the block
                fn.attributes.add("convergent")
            b.call(fn, [ir.Constant(I32, a) for a in step.args])


# -- atomics ---------------------------------------------------------------------------
def ordering(model: KernelModel) -> str:
    """The row's ``syncscope(...) <ordering>`` text for ``atomicrmw``/``cmpxchg``."""
    # llvmlite prints the ordering where LLVM reads ``syncscope("...") <ordering>``
    if model.atomic_scope:
        return f'syncscope("{model.atomic_scope}") {model.atomic_ordering}'
    return model.atomic_ordering


def cmpxchg(b: ir.IRBuilder, model: KernelModel, ptr, cmp, new):
    """``{old, success}`` of one compare-and-swap with the row's scope and ordering."""
    if not model.cmpxchg:
        raise UnsupportedError(f"{model.name}: the device has no compare-and-swap "
                               "(capability: atomic compare-and-swap)",
                               construct="atomic compare-and-swap")
    return b.cmpxchg(ptr, cmp, new, ordering(model), model.atomic_ordering)


def atomic(b: ir.IRBuilder, model: KernelModel, op: str, dt: T.Scalar, ptr, value,
           compare=None):
    """``Atomic``: the old value of the element at ``ptr`` after applying ``op``
    ("add", "min", "max" or "cas" with ``compare``) with ``value``.  Floats min/max
    follow LLVM's ``minnum``/``maxnum``, as ``atomicrmw fmin``/``fmax`` do."""
    if op == "cas":
        if dt.is_float:
            it = ir.IntType(dt.bits)
            old = b.extract_value(cmpxchg(b, model, ptr, b.bitcast(compare, it),
                                          b.bitcast(value, it)), 0)
            return b.bitcast(old, value.type)
        return b.extract_value(cmpxchg(b, model, ptr, compare, value), 0)
    key = f"{op}.{'f' if dt.is_float else 'i' if dt.is_signed else 'u'}{dt.bits}"
    if key in model.atomic_rmw:
        if dt.is_float:
            rmw = {"add": "fadd", "min": "fmin", "max": "fmax"}[op]
        elif op == "add":
            rmw = "add"
        else:
            rmw = ("" if dt.is_signed else "u") + op
        return b.atomic_rmw(rmw, ptr, value, ordering(model))
    if not model.cmpxchg:
        raise UnsupportedError(
            f"{model.name}: no atomic {op} on {dt.bits}-bit "
            f"{'floats' if dt.is_float else 'integers'} (capability: atomic "
            f"{key}; the device's atomics are {', '.join(sorted(model.atomic_rmw))})",
            construct=f"atomic {key}")
    return _cas_loop(b, model, op, dt, ptr, value)


def _combine(b, op, dt, old, value):
    if op == "add":
        return b.fadd(old, value) if dt.is_float else b.add(old, value)
    if dt.is_float:
        name = f"llvm.{op}num.f{_bits(value.type)}"
        fn = _declare(b.module, name, ir.FunctionType(value.type, [value.type] * 2))
        return b.call(fn, [old, value])
    pred = "<" if op == "min" else ">"
    less = (b.icmp_signed if dt.is_signed else b.icmp_unsigned)(pred, value, old)
    return b.select(less, value, old)


def _bits(ty) -> int:
    return 32 if isinstance(ty, ir.FloatType) else 64


def _cas_loop(b, model, op, dt, ptr, value):
    """``op`` as a compare-and-swap loop, for a row without that ``atomicrmw``."""
    it = ir.IntType(dt.bits)
    fn = b.block.parent
    start = b.block
    first = b.load(ptr, typ=it)
    loop = fn.append_basic_block("atomic.retry")
    done = fn.append_basic_block("atomic.done")
    b.branch(loop)
    b.position_at_end(loop)
    seen = b.phi(it)
    seen.add_incoming(first, start)
    old = b.bitcast(seen, value.type) if dt.is_float else seen
    new = _combine(b, op, dt, old, value)
    pair = cmpxchg(b, model, ptr, seen, b.bitcast(new, it) if dt.is_float else new)
    now = b.extract_value(pair, 0)
    seen.add_incoming(now, loop)
    b.cbranch(b.extract_value(pair, 1), done, loop)
    b.position_at_end(done)
    return old


# -- the kernel entry ------------------------------------------------------------------
def param_kinds(fn: N.Function) -> list:
    """The kernel's flattened parameters after ``err``: ``"ptr"``, ``"i64"`` or
    ``"f64"``, in order (what a launcher packs)."""
    out = []
    for t in fn.arg_types:
        if isinstance(t, T.ArrayType):
            out += ["ptr"] + ["i64"] * (2 * t.ndim)
        else:
            out += ["f64" if k.is_float else "i64" for k in flat_kinds(t)]
    return out


def _walk(module: N.Module):
    for fn in module.functions.values():
        for s in N.walk_stmts(fn.body):
            yield fn, s, s
            for e in N.stmt_exprs(s):
                for sub in N.walk_expr(e) if e is not None else ():
                    yield fn, s, sub


def _types_of(t):
    if isinstance(t, T.ArrayType):
        yield t.dtype
    elif isinstance(t, T.TupleType):
        for i in t.items:
            yield from _types_of(i)
    elif isinstance(t, T.Scalar):
        yield t.component if t.kind == "c" else t


def check_kernel(module: N.Module, caps, target: str = "this target") -> None:
    """Refuse what a kernel cannot do on a target with ``caps``
    (``hanajit.target.Capabilities``), naming the construct or the capability."""
    if not caps.kernel_model:
        raise UnsupportedError(f"{target} has no GPU kernel model",
                               construct="kernel model")
    entry = module.functions[module.entry]
    need = {N.SharedArray: ("shared_memory", "shared arrays"),
            N.Atomic: ("atomics", "atomic operations")}
    # a constant converted by a cast is a constant of the cast's type
    # (``x32 * 0.25``: the float64 0.25 never exists on the device)
    folded = set()
    for fn, s, node in _walk(module):
        if isinstance(node, N.Cast) and isinstance(node.operand, N.Const):
            folded.add(id(node.operand))
        if id(node) in folded:
            continue
        if isinstance(node, N.AllocArray):
            raise UnsupportedError(
                f"{fn.pyname} (line {s.line}): a GPU kernel cannot allocate arrays; "
                "pass an output array or use shared_array()",
                func=fn.pyname, line=s.line, construct="array allocation")
        for kind, (cap, what) in need.items():
            if isinstance(node, kind) and not getattr(caps, cap):
                raise UnsupportedError(
                    f"{fn.pyname} (line {s.line}): {target} has no {what} "
                    f"(capability {cap})", func=fn.pyname, line=s.line, construct=what)
        t = getattr(node, "type", None)
        for k in _types_of(t) if t is not None else ():
            for cap, kind in (("float64", "f"), ("int64", "iu")):
                if k.kind in kind and k.bits == 64 and not getattr(caps, cap):
                    raise UnsupportedError(
                        f"{fn.pyname} (line {s.line}): {target} has no 64-bit "
                        f"{'floats' if kind == 'f' else 'integers'} (capability {cap})",
                        func=fn.pyname, line=s.line, construct=cap)
    for name, t in zip(entry.params, entry.arg_types):
        if isinstance(t, T.TupleType) and any(isinstance(i, T.ArrayType)
                                              for i in t.items):
            raise UnsupportedError(f"{entry.pyname}: kernel argument {name!r} is a "
                                   "tuple holding arrays", func=entry.pyname,
                                   construct="tuple of arrays argument")
    if isinstance(entry.return_type, T.ArrayType) or (
            isinstance(entry.return_type, T.TupleType)
            and any(isinstance(i, T.ArrayType) for i in entry.return_type.items)):
        raise UnsupportedError(f"{entry.pyname}: a GPU kernel cannot return an array "
                               "(write into an argument)", func=entry.pyname,
                               construct="array result")


def lower_kernel(module: N.Module, info, caps, name: str = "hj_kernel",
                 target: str = "this target") -> ir.Module:
    """The LLVM module of ``module`` (``info``: an ``LLVMTargetInfo`` whose ``gpu``
    is the row) with its kernel entry ``name``, after :func:`check_kernel`.  Its
    text still needs :func:`address_spaces` when the row's generic or stack
    address space is not 0 (:func:`kernel_text` does both)."""
    from .llvm import ModuleLowering
    check_kernel(module, caps, target)
    ml = ModuleLowering(module, info)
    llmod = ml.lower()
    if any(isinstance(node, N.Barrier) for _, _, node in _walk(module)):
        # calls of a function that waits at a barrier are barriers too
        for fn in llmod.functions:
            if not fn.is_declaration:
                fn.attributes.add("convergent")
    define_refcount_stubs(llmod)
    entry = module.functions[module.entry]
    if info.gpu.addressing == "logical":
        from . import kernel_logical
        # no pointer parameters in logical addressing: everything is inlined
        for fn in llmod.functions:
            if not fn.is_declaration:
                fn.attributes.discard("noinline")
                fn.attributes.discard("optnone")
                fn.attributes.add("alwaysinline")
        kernel_logical.add_logical_kernel(ml, llmod, entry, ml.declare(entry), info.gpu,
                                          name, param_kinds(entry))
        kernel_logical.check_math(llmod, info.gpu, entry.pyname)
    else:
        if info.gpu.inline_aggregates:
            inline_aggregate_functions(llmod)
        add_kernel(llmod, entry, ml.declare(entry), info.gpu, name)
    add_module_flags(llmod, info.gpu)
    return llmod


def inline_aggregate_functions(llmod) -> None:
    """Mark every function whose parameters or result include an LLVM aggregate
    (a tuple, an array's struct) ``alwaysinline``, for a row whose backend
    cannot pass aggregates between functions (``KernelModel.inline_aggregates``):
    LLVM 22's SPIR-V backend aborts on a tuple argument or result ("illegal
    aggregate intrinsic user") and on a 2-D array's struct built from constants
    ("unable to translate ... llvm.spv.const.composite")."""
    for fn in llmod.functions:
        fty = fn.function_type
        if not fn.is_declaration and any(
                isinstance(t, (ir.BaseStructType, ir.ArrayType))
                for t in (fty.return_type, *fty.args)):
            fn.attributes.discard("noinline")
            fn.attributes.discard("optnone")
            fn.attributes.add("alwaysinline")


def kernel_text(module: N.Module, info, caps, name: str = "hj_kernel",
                target: str = "this target") -> str:
    """:func:`lower_kernel` as LLVM IR text, in the row's address spaces (with
    logical addressing, completed by ``kernel_logical.finish``)."""
    llmod = lower_kernel(module, info, caps, name, target)
    if info.gpu.addressing == "logical":
        from .kernel_logical import finish
        return finish(str(llmod), llmod, info.gpu, name)
    return address_spaces(str(llmod), info.gpu)


_BARE_PTR = re.compile(r'(?<![\w."%@$-])ptr\b(?! addrspace\()')
# llvmlite prints allocas' pointers typed (``{i64, ptr}* %x``): LLVM reads them as
# ``ptr``, and ``T addrspace(4)*`` as ``ptr addrspace(4)``
_TYPED_PTR = re.compile(r'(?<=[\w}\]>])\*(?=[ ,)])')
_INTRINSIC = re.compile(r'@"?llvm\.[\w.]+"?')
_P0 = re.compile(r"\.p0(?=[.\"(]|$)")
_ALLOCA = re.compile(r'^(\s*)(%"[^"]+"|%[-\w.$]+) = alloca (.*)$', re.M)
_GLOBAL = re.compile(r'^(@"[^"]+"|@[-\w.$]+) = ((?:[a-z_]+ )*?)(constant|global) ',
                     re.M)


def address_spaces(text: str, model: KernelModel) -> str:
    """Move the lowering's pointers (all in address space 0) to the row's: every
    pointer into ``generic_addrspace`` (``ptr`` becomes ``ptr addrspace(4)``,
    ``llvm.*.p0`` intrinsics ``.p4``), every ``alloca`` into ``alloca_addrspace``
    followed by a cast to the generic space.  LLVM's address-space inference
    turns the casts back into direct accesses.  Text in, text out: llvmlite's
    builder cannot place allocas in an address space."""
    generic, stack = model.generic_addrspace, model.alloca_addrspace
    if generic == 0 and stack == 0:
        return text
    gp = f"ptr addrspace({generic})" if generic else "ptr"
    sp = f"ptr addrspace({stack})" if stack else "ptr"
    if generic:
        text = _BARE_PTR.sub(gp, text)
        text = _TYPED_PTR.sub(f" addrspace({generic})*", text)
        text = _INTRINSIC.sub(lambda m: _P0.sub(f".p{generic}", m.group(0)), text)
        text = _constants(text, gp, model.constant_addrspace)

    def move(m):
        indent, var, rest = m.groups()
        slot = var[:-1] + '.stack"' if var.endswith('"') else var + ".stack"
        where = f", addrspace({stack})" if stack else ""
        return (f"{indent}{slot} = alloca {rest}{where}\n"
                f"{indent}{var} = addrspacecast {sp} {slot} to {gp}")
    return _ALLOCA.sub(move, text)


def _constants(text: str, gp: str, space: int) -> str:
    """Module constants defined in address space 0 move to ``space``; each use,
    now a generic pointer, becomes a constant ``addrspacecast`` of the global."""
    if not space:
        return text
    moved = []

    def place(m):
        if m.group(3) != "constant":
            return m.group(0)
        moved.append(m.group(1))
        return f"{m.group(1)} = {m.group(2)}addrspace({space}) constant "
    text = _GLOBAL.sub(place, text)
    for name in moved:
        use = re.compile(r'(?:ptr addrspace\(\d+\)|(?:\[[^\]]*\]|\{[^}]*\}|[\w]+) '
                         r'addrspace\(\d+\)\*) ' + re.escape(name) + r'(?=[,)\s])')
        text = use.sub(f"{gp} addrspacecast (ptr addrspace({space}) {name} to {gp})",
                       text)
    return text


def define_refcount_stubs(llmod: ir.Module) -> None:
    """Kernels never own arrays (they cannot allocate; arguments and shared arrays
    have no meminfo), so the memory runtime's incref/decref are empty here."""
    from . import nrt
    for sym in (nrt.INCREF, nrt.DECREF):
        fn = llmod.globals.get(sym)
        if fn is not None and fn.is_declaration:
            fn.linkage = "internal"
            ir.IRBuilder(fn.append_basic_block("entry")).ret_void()


def add_module_flags(llmod: ir.Module, model: KernelModel) -> None:
    if model.module_flags:
        flags = llmod.add_named_metadata("llvm.module.flags")
        for behaviour, key, value in model.module_flags:
            flags.add(llmod.add_metadata([ir.Constant(I32, behaviour), key,
                                          ir.Constant(I32, value)]))


def add_kernel(llmod: ir.Module, fn: N.Function, decl: ir.Function,
               model: KernelModel, name: str) -> ir.Function:
    """The kernel entry ``name`` calling ``decl`` (the lowered ``fn``)."""
    gptr = ir.PointerType(addrspace=model.global_addrspace)
    llty = {"ptr": gptr, "i64": I64, "f64": ir.DoubleType()}
    kinds = param_kinds(fn)
    kty = ir.FunctionType(ir.VoidType(), [gptr] + [llty[x] for x in kinds])
    k = ir.Function(llmod, kty, name)
    if model.kernel_cc:
        k.calling_convention = model.kernel_cc
    b = ir.IRBuilder(k.append_basic_block("entry"))

    def generic(p):
        return p if model.global_addrspace == 0 else b.addrspacecast(p, PTR)

    err = k.args[0]
    flat = [generic(a) if kind == "ptr" else a for a, kind in zip(k.args[1:], kinds)]
    args = [unflatten(b, flat, t, data_is_ptr=True) for t in fn.arg_types]
    if not fn.can_raise:
        b.call(decl, args)
        b.ret_void()
        return k
    from .llvm import lltype
    rt = fn.return_type
    local_err = b.alloca(ir.ArrayType(I64, 4))
    slot = b.alloca(lltype(rt) if rt != T.NONE else ir.IntType(8))
    status = b.call(decl, [local_err, slot] + args)
    bad = k.append_basic_block("raised")
    done = k.append_basic_block("done")
    b.cbranch(b.icmp_unsigned("!=", status, ir.Constant(I32, 0)), bad, done)
    b.position_at_end(bad)

    def at(p, i):
        return b.gep(p, [ir.Constant(I64, i)], source_etype=I64)

    code = b.load(at(local_err, 0), typ=I64)
    won = b.extract_value(cmpxchg(b, model, err, ir.Constant(I64, 0), code), 1)
    first = k.append_basic_block("first")
    b.cbranch(won, first, done)
    b.position_at_end(first)
    for i in (1, 2, 3):
        b.store(b.load(at(local_err, i), typ=I64), at(err, i))
    b.branch(done)
    b.position_at_end(done)
    b.ret_void()
    return k
