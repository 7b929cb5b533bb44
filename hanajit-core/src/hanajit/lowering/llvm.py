"""Primitive IR -> LLVM IR (llvmlite.ir), shared by every LLVM-based target.

Targets differ only in what :class:`LLVMTargetInfo` says: the triple and data
layout, how each math ``Intrinsic`` is spelt (LLVM intrinsic, libm symbol,
libdevice ``__nv_*``), and address spaces.  Python semantics are already explicit
in the IR; this module prints primitive operations one to one.

Calling convention (internal functions):

* a function that cannot raise: ``ret_ty @f(args...)``;
* a function that can raise: ``i32 @f(ptr err, ptr ret, args...)`` returning 0,
  or 1 after storing the raise code (``Module.raises`` index + 1) in ``*err``.

So recursion in non-raising functions is as cheap as C.
"""
from __future__ import annotations

from llvmlite import ir

from ..ir import nodes as N
from ..ir import types as T
from ..toolkit.libm import INT_MINMAX, OVERFLOW_FUNCTIONS
from .llvm_host_text import text_call
from .llvm_linked import translate_raise
from .llvm_math import MathCalls
from .llvm_memory import ArrayMemory, borrowed_params, moved_items, moved_temps
from .llvm_random import TablesAndRandom
from .llvm_try import TryLowering, fill_switches
from .llvm_types import (F32, F64, I1, I8, I32, I64, PTR,  # noqa: F401 (re-exported)
                         LLVMTargetInfo, const, holds_array, lltype, memtype,
                         set_weights)
from .vector_math_sites import VectorMathSites


class FunctionLowering(TablesAndRandom, ArrayMemory, VectorMathSites, TryLowering):
    """Lowers one primitive IR function into an ``ir.Function``."""

    def __init__(self, mod: "ModuleLowering", fn: N.Function):
        self.m = mod
        self.fn = fn
        self.llfn = mod.declare(fn)
        self.slots: dict = {}
        self.loops: list = []        # (continue_block, break_block)
        self.vector_loops: list = []  # per enclosing loop: may LLVM vectorise it?
        self.prefetch: list = []     # per open counted loop: prefetch.Sites or None
        self._fail_bb = None         # the one exit of a raise: fail()
        self.landings: list = []     # per enclosing try body: its landing block
        self.try_records: dict = {}  # Try label -> its saved error record (llvm_try)

    def run(self):
        fn = self.fn
        entry = self.llfn.append_basic_block("entry")
        self.b = ir.IRBuilder(entry)
        args = list(self.llfn.args)
        if fn.can_raise:
            self.err, self.ret = args[0], args[1]
            args = args[2:]
        self.managed = []           # locals holding arrays: released at every exit
        borrowed = borrowed_params(fn)      # (no incref, no decref: llvm_memory.py)
        for name, t in fn.locals.items():
            if t == T.NONE and name not in fn.params:
                continue
            self.slots[name] = self.b.alloca(lltype(t), name=_clean(name))
            if holds_array(t) and name not in borrowed:
                self.managed.append((name, t))
                self.b.store(ir.Constant(lltype(t), None), self.slots[name])
        # ``x = $t`` whose temporary hands its reference over (llvm_memory.py)
        # and ``y = $u[k]`` whose tuple temporary hands over the reference of an item
        managed = {n for n, _ in self.managed}
        self.moves = moved_temps(fn, managed) | moved_items(fn, managed) if managed \
            else set()
        for name, a in zip(fn.params, args):
            self.b.store(a, self.slots[name])
            t = fn.locals[name]
            if holds_array(t) and name not in borrowed:
                self.refcount(a, t, self.m.nrt("incref"))   # locals own their arrays
        self.start_records()
        self.block(fn.body)
        if not self.b.block.is_terminated:
            if fn.return_type == T.NONE:
                self.emit_return(None)
            else:       # every path returned (the frontend added the fall-through one)
                self.b.unreachable()

    # --------------------------------------------------------------- statements
    def block(self, stmts):
        for s in stmts:
            if self.b.block.is_terminated:
                self.b.position_at_end(self.llfn.append_basic_block("dead"))
            self.stmt(s)

    def stmt(self, s):
        b = self.b
        if isinstance(s, N.Assign):
            if isinstance(s.value, N.Call):
                v = self.call(s.value)
            elif isinstance(s.value, N.AllocArray):
                v = self.alloc(s.value)
            else:
                v = self.expr(s.value)
            if s.target in self.slots:
                t = self.fn.locals[s.target]
                if holds_array(t):
                    if id(s) in self.moves and isinstance(s.value, N.TupleGet):
                        src, k = s.value.tup.name, s.value.index     # (an item's)
                        slot = self.slots[src]
                        item = ir.Constant(lltype(self.fn.locals[src].items[k]), None)
                        b.store(b.insert_value(b.load(slot), item, k), slot)
                    elif id(s) in self.moves:       # the temporary's reference moves
                        src = s.value.name
                        b.store(ir.Constant(lltype(self.fn.locals[src]), None),
                                self.slots[src])
                    elif not isinstance(s.value, (N.Call, N.AllocArray)):
                        self.refcount(v, t, self.m.nrt("incref"))
                    self.refcount(b.load(self.slots[s.target]), t, self.m.nrt("decref"))
                b.store(v, self.slots[s.target])
        elif isinstance(s, N.ExprStmt):
            if isinstance(s.value, N.Call):
                v = self.call(s.value)
                if holds_array(s.value.type):
                    self.refcount(v, s.value.type, self.m.nrt("decref"))
        elif isinstance(s, N.If):
            cond = self.expr(s.cond)
            then_bb = self.llfn.append_basic_block("then")
            else_bb = self.llfn.append_basic_block("else") if s.orelse else None
            merge = self.llfn.append_basic_block("endif")
            b.cbranch(cond, then_bb, else_bb or merge)
            if s.then and isinstance(s.then[0], N.Raise) and len(s.then) == 1 and not s.orelse:
                set_weights(b.block.instructions[-1], (1, 2000))
            versioned = getattr(s, "versioned", False)     # passes/version_bounds.py
            if versioned:
                set_weights(b.block.instructions[-1], (2000, 1))
            b.position_at_end(then_bb)
            self.block(s.then)
            if not b.block.is_terminated:
                b.branch(merge)
            if else_bb is not None:
                b.position_at_end(else_bb)
                # the checked copy of a versioned nest: its loops take no strategy
                # hints, so loop k stays loop k of the source for hanajit.evolve
                paused, self.m.hints_paused = self.m.hints_paused, versioned
                self.block(s.orelse)
                self.m.hints_paused = paused
                if not b.block.is_terminated:
                    b.branch(merge)
            b.position_at_end(merge)
        elif isinstance(s, N.Loop):
            head = self.llfn.append_basic_block("loop")
            exit_ = self.llfn.append_basic_block("endloop")
            b.branch(head)
            b.position_at_end(head)
            self.loops.append((head, exit_))
            self.vector_loops.append(False)     # (exits from its body: never vectorised)
            self.block(s.body)
            self.vector_loops.pop()
            self.loops.pop()
            if not b.block.is_terminated:
                b.branch(head)
            b.position_at_end(exit_)
        elif isinstance(s, N.ParallelFor) and self.m.info.parallel:
            from .parallel import parallel_for
            parallel_for(self, s)
        elif isinstance(s, N.ForCount):
            self.for_count(s)
        elif isinstance(s, N.Barrier):
            from .kernel_lower import barrier
            barrier(b, self.m.llmod, self.gpu_hooks("barrier()"))
        elif isinstance(s, N.Break):
            b.branch(self.loops[-1][1])
        elif isinstance(s, N.Continue):
            b.branch(self.loops[-1][0])
        elif isinstance(s, N.Return):
            self.emit_return(s.value)
        elif isinstance(s, N.Raise):
            code = self.m.module.raise_code(s.exc, s.message, s.deopt)
            gpu = self.m.info.gpu
            if gpu is not None and gpu.addressing == "logical":
                from .kernel_logical import record_raise
                record_raise(self.m, b, gpu, ir.Constant(I64, code),
                             *[self.expr(a) for a in s.args[:3]])
            else:
                b.store(ir.Constant(I64, code), self.err)
                for k, a in enumerate(s.args[:3]):
                    p = b.gep(self.err, [ir.Constant(I64, k + 1)], source_etype=I64)
                    b.store(self.record_value(a), p)
            self.fail()
        elif isinstance(s, N.ForeignCall):
            self.foreign_call(s)
        elif isinstance(s, N.Try):
            self.lower_try(s)
        elif isinstance(s, N.Reraise):
            self.reraise(s)
        elif isinstance(s, N.Store):
            arr = self.expr(s.array)
            ptr = self.element_ptr(arr, s.array.type, [self.expr(i) for i in s.indices])
            v = self.expr(s.value)
            if s.array.type.dtype.is_bool:
                v = b.zext(v, I8)
            b.store(v, ptr)
        else:  # pragma: no cover
            raise AssertionError(f"cannot lower {s}")

    def foreign_call(self, s: N.ForeignCall):
        """``hj.host.<symbol>(ptr...)``: a host library's C function, its int64
        arguments passed as pointers (Fortran passes everything by reference)."""
        if not self.m.info.host_calls:
            from ..errors import UnsupportedError
            raise UnsupportedError(
                f"{self.fn.name}: {s.symbol} is a function of NumPy's BLAS/LAPACK, which "
                "only the CPU target calls", func=self.fn.name, construct=s.symbol)
        if s.text is not None:
            return text_call(self, s)
        name = f"hj.host.{s.symbol}"
        # int64 arguments are addresses or integers (the same registers); floats
        # (CBLAS's alpha and beta) are passed as floats, complex numbers by address
        args = []
        for a in s.args:
            v = self.expr(a)
            if a.type == T.INT64:
                v = self.b.inttoptr(v, PTR)
            elif a.type.is_complex:
                with self.b.goto_entry_block():
                    at = self.b.alloca(v.type)
                self.b.store(v, at)
                v = at
            args.append(v)
        slot = None
        if s.result_arg:
            with self.b.goto_entry_block():
                slot = self.b.alloca(lltype(s.returns))
            args.append(slot)
        fn = self.m.math_decls.get(name)
        if fn is None:
            ret = ir.VoidType() if s.returns is None or s.result_arg else lltype(s.returns)
            fn = ir.Function(self.m.llmod, ir.FunctionType(ret, [a.type for a in args]), name)
            fn.attributes.add("nounwind")
            self.m.math_decls[name] = fn
        value = self.b.call(fn, args)
        if s.target is not None:
            self.b.store(self.b.load(slot) if slot is not None else value,
                         self.slots[s.target])

    def for_count(self, s):
        hints = self.m.next_hints(s)
        if hints and hints.get("align"):
            from .align import versions
            versions(self, s, int(hints["align"]), self._for_count)
        else:
            self._for_count(s)

    def _for_count(self, s):
        b = self.b
        count = self.expr(s.count)
        slot = self.slots[s.counter]
        b.store(ir.Constant(I64, 0), slot)
        cond_bb = self.llfn.append_basic_block("for.cond")
        body_bb = self.llfn.append_basic_block("for.body")
        latch = self.llfn.append_basic_block("for.next")
        exit_ = self.llfn.append_basic_block("for.end")
        pre = b.branch(cond_bb)
        b.position_at_end(cond_bb)
        k = b.load(slot)
        b.cbranch(b.icmp_signed("<", k, count), body_bb, exit_)
        b.position_at_end(body_bb)
        self.loops.append((latch, exit_))
        sites = None
        if self.m.wants_prefetch and not self.m.hints_paused:
            from .prefetch import Sites
            sites = Sites(s, pre)
        self.prefetch.append(sites)
        self.vector_loops.append(self.vectorisable(s.body))
        numpy_calls = self.m.numpy_calls
        self.block(s.body)
        self.vector_loops.pop()
        self.prefetch.pop()
        self.loops.pop()
        if not b.block.is_terminated:
            b.branch(latch)
        b.position_at_end(latch)
        k = b.load(slot)
        b.store(b.add(k, ir.Constant(I64, 1)), slot)
        br = b.branch(cond_bb)
        hints = self.m.loop_metadata(br)
        if hints is None and s.short:
            self.m.short_loop(br)
        elif hints is None and self.m.numpy_calls != numpy_calls:
            # a vector call of NumPy's (numpy_loops.py) clobbers every vector
            # register: loop copies interleaved around it spill theirs (np.tan
            # of 1e6 values 0.80x -> 0.9x NumPy's time with one copy)
            self.m.loop_hint(br, "llvm.loop.interleave.count", 1)
        b.position_at_end(exit_)
        if sites is not None and hints and hints.get("prefetch"):
            from .prefetch import emit
            emit(self, sites, int(hints["prefetch"]))

    def emit_return(self, value):
        b = self.b
        fn = self.fn
        v = None
        if value is not None and fn.return_type != T.NONE:
            v = self.expr(value)
            if holds_array(fn.return_type):
                self.refcount(v, fn.return_type, self.m.nrt("incref"))  # the caller's ref
        self.release_locals()
        if fn.can_raise:
            if v is not None:
                b.store(v, self.ret)
            b.ret(ir.Constant(I32, 0))
        elif fn.return_type == T.NONE:
            b.ret_void()
        else:
            b.ret(v)

    def call(self, c: N.Call):
        b = self.b
        callee = self.m.module.functions[c.func]
        llcallee = self.m.declare(callee)
        args = [self.expr(a) for a in c.args]
        if not callee.can_raise:
            r = b.call(llcallee, args)
            return r if callee.return_type != T.NONE else const(None, T.NONE)
        rslot = self.m.ret_slot(self, callee.return_type)
        status = b.call(llcallee, [self.err, rslot] + args)
        ok = self.llfn.append_basic_block("call.ok")
        fail = self.llfn.append_basic_block("call.fail")
        br = b.cbranch(b.icmp_unsigned("==", status, ir.Constant(I32, 0)), ok, fail)
        set_weights(br, (2000, 1))
        b.position_at_end(fail)
        if self.fn.can_raise:
            if c.func in self.m.externals:
                translate_raise(self.m, self, c.func)
            self.fail()
        else:  # pragma: no cover - the raise analysis prevents this
            b.unreachable()
        b.position_at_end(ok)
        if callee.return_type == T.NONE:
            return const(None, T.NONE)
        return b.load(rslot)

    # -------------------------------------------------------------- expressions
    def expr(self, e: N.Expr):
        return getattr(self, "e_" + type(e).__name__)(e)

    def e_Const(self, e):
        return const(e.value, e.type)

    def e_Var(self, e):
        slot = self.slots.get(e.name)
        if slot is None:
            return const(None, T.NONE)
        return self.b.load(slot)

    def e_BinOp(self, e):
        b = self.b
        x, y = self.expr(e.left), self.expr(e.right)
        t = e.type
        op = e.op
        if t.is_float:
            inst = {"add": b.fadd, "sub": b.fsub, "mul": b.fmul, "fdiv": b.fdiv,
                    "frem": b.frem}[op](x, y)
            if e.reassoc:
                inst.flags.append("reassoc")
            inst.flags.extend(f for f in self.fn.fastmath if f not in inst.flags)
            return inst
        return {"add": b.add, "sub": b.sub, "mul": b.mul, "sdiv": b.sdiv, "srem": b.srem,
                "udiv": b.udiv, "urem": b.urem, "shl": b.shl, "ashr": b.ashr,
                "lshr": b.lshr, "and": b.and_, "or": b.or_, "xor": b.xor}[op](x, y)

    def e_UnOp(self, e):
        b = self.b
        x = self.expr(e.operand)
        if e.op == "not":
            return b.xor(x, ir.Constant(I1, 1))
        if e.op == "invert":
            return b.xor(x, ir.Constant(x.type, -1))
        if e.type.is_float:
            return b.fneg(x)
        return b.sub(ir.Constant(x.type, 0), x)

    _ICMP = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!="}

    def e_Cmp(self, e):
        b = self.b
        x, y = self.expr(e.left), self.expr(e.right)
        t = e.left.type
        if t.is_float:
            if e.op == "uno":
                return b.fcmp_unordered("uno", x, y)
            if e.op == "ne":
                return b.fcmp_unordered("!=", x, y)
            return b.fcmp_ordered(self._ICMP[e.op], x, y)
        if t.is_signed:
            return b.icmp_signed(self._ICMP[e.op], x, y)
        return b.icmp_unsigned(self._ICMP[e.op], x, y)

    def e_Cast(self, e):
        b = self.b
        x = self.expr(e.operand)
        src, dst = e.operand.type, e.type
        to = lltype(dst)
        if src == dst:
            return x
        if src.is_float and dst.is_float:
            return b.fpext(x, to) if dst.bits > src.bits else b.fptrunc(x, to)
        if src.is_float:
            return b.fptosi(x, to) if dst.is_signed else b.fptoui(x, to)
        # src is int or bool
        signed = src.is_signed
        if dst.is_float:
            return b.sitofp(x, to) if signed else b.uitofp(x, to)
        if dst.is_bool:
            return b.icmp_unsigned("!=", x, ir.Constant(x.type, 0))
        sb, db = x.type.width, to.width
        if db < sb:
            return b.trunc(x, to)
        if db > sb:
            return b.sext(x, to) if signed else b.zext(x, to)
        return x

    def e_Select(self, e):
        return self.b.select(self.expr(e.cond), self.expr(e.a), self.expr(e.b))

    def e_Intrinsic(self, e):
        args = [self.expr(a) for a in e.args]
        if e.name in OVERFLOW_FUNCTIONS:
            return self.m.overflow_flag(self.b, e.name, args)
        if e.name in INT_MINMAX or e.name == "ctpop":
            return self.m.integer_call(self.b, e.name, args)
        if isinstance(e.type, T.Scalar) and e.type.is_complex:
            return self.m.complex_math_call(self.b, e.name, args, e.type, self.fn.pyname)
        if getattr(e, "numpy_loop", False):         # NumPy's own SIMD function
            call = self.m.numpy_loop_call(self.b, e.name, args, e.type,
                                          self.vector_math_here())
            if call is not None:
                return call
        exact = getattr(e, "libm_exact", False)     # the C library's result, always
        # vector variants only inside loops: outside, LLVM's SLP vectoriser would
        # pack two scalar calls (``log(x) + log(y)``) into one vector call, whose
        # last bits are not the C library's (docs/vector-math.md)
        call = self.m.math_call(self.b, e.name, args, e.type, square=not exact,
                                vectorize=self.vector_math_here() and not (
                                    exact or getattr(e, "scalar_only", False)))
        if self.fn.fastmath and isinstance(call, ir.CallInstr):
            call.fastmath.update(self.fn.fastmath)
        return call

    def e_ArrayView(self, e):
        b = self.b
        base = self.expr(e.array)
        t = e.type
        v = ir.Constant(lltype(t), ir.Undefined)
        v = b.insert_value(v, b.extract_value(base, 0), 0)
        v = b.insert_value(v, b.gep(b.extract_value(base, 1), [self.expr(e.offset)],
                                    source_etype=I8), 1)
        for k, (d, st) in enumerate(zip(e.shape, e.strides)):
            v = b.insert_value(v, self.expr(d), [2, k])
            v = b.insert_value(v, self.expr(st), [3, k])
        return v

    def e_ArrayAttr(self, e):
        arr = self.expr(e.array)
        if e.attr == "data":
            return self.b.ptrtoint(self.b.extract_value(arr, 1), I64)
        field = 2 if e.attr == "shape" else 3
        return self.b.extract_value(arr, [field, e.axis])

    def e_NumThreads(self, e):
        if not self.m.info.parallel:
            return ir.Constant(I64, 1)
        from .parallel import num_threads
        return num_threads(self)

    def element_ptr(self, arr, t: T.ArrayType, idxs):
        """Address of ``arr[idxs]``: contiguous layouts index through the shape so
        the innermost stride is a constant the vectorizer can use."""
        b = self.b
        data = b.extract_value(arr, 1)
        et = memtype(t.dtype)
        gpu = self.m.info.gpu
        if gpu is not None and gpu.addressing == "logical":
            from .kernel_logical import element
            off = ir.Constant(I64, 0)
            for k, i in enumerate(idxs):
                off = b.add(off, b.mul(i, b.extract_value(arr, [3, k])))
            return element(self.m, b, data, off, et)
        if t.layout in ("C", "F") and t.ndim >= 1:
            order = range(t.ndim) if t.layout == "C" else range(t.ndim - 1, -1, -1)
            flat = None
            for k in order:
                if flat is None:
                    flat = idxs[k]
                else:
                    flat = b.add(b.mul(flat, b.extract_value(arr, [2, k])), idxs[k])
            return b.gep(data, [flat], source_etype=et)
        off = ir.Constant(I64, 0)
        for k, i in enumerate(idxs):
            off = b.add(off, b.mul(i, b.extract_value(arr, [3, k])))
        return b.gep(data, [off], source_etype=I8)

    def e_Load(self, e):
        arr = self.expr(e.array)
        ptr = self.element_ptr(arr, e.array.type, [self.expr(i) for i in e.indices])
        t = e.array.type.dtype
        v = self.b.load(ptr, typ=memtype(t))
        if self.prefetch and self.prefetch[-1] is not None:
            self.prefetch[-1].add(e, ptr, v)
        if t.is_bool:
            v = self.b.icmp_unsigned("!=", v, ir.Constant(I8, 0))
        return v

    def e_MakeTuple(self, e):
        v = ir.Constant(lltype(e.type), ir.Undefined)
        for i, item in enumerate(e.items):
            v = self.b.insert_value(v, self.expr(item), i)
        return v

    def e_TupleGet(self, e):
        return self.b.extract_value(self.expr(e.tup), e.index)

    def e_MakeComplex(self, e):
        v = ir.Constant(lltype(e.type), ir.Undefined)
        v = self.b.insert_value(v, self.expr(e.real), 0)
        return self.b.insert_value(v, self.expr(e.imag), 1)

    def e_ComplexPart(self, e):
        return self.b.extract_value(self.expr(e.operand), 0 if e.part == "real" else 1)

    # ------------------------------------------------------------- GPU kernels
    def gpu_hooks(self, what):
        """The target's kernel-model row; UnsupportedError outside GPU targets."""
        model = self.m.info.gpu
        if model is None:
            from ..errors import UnsupportedError
            raise UnsupportedError(f"{self.fn.pyname}: {what} is only available in GPU "
                                   "kernels", func=self.fn.pyname, construct=what)
        return model

    def e_StackAddress(self, e):
        fn = self.m.llmod.globals.get("llvm.frameaddress.p0")
        if fn is None:
            fn = ir.Function(self.m.llmod, ir.FunctionType(
                ir.PointerType(), [ir.IntType(32)]), "llvm.frameaddress.p0")
        return self.b.ptrtoint(self.b.call(fn, [ir.Constant(ir.IntType(32), 0)]),
                               ir.IntType(64))

    def e_GpuIndex(self, e):
        from .kernel_lower import read_index
        return read_index(self.b, self.m.llmod, self.gpu_hooks("thread indexing"),
                          e.kind, e.axis)

    def e_SharedArray(self, e):
        """A view of a static array in the target's shared address space, addressed
        through a generic pointer (LLVM infers the address space back)."""
        model = self.gpu_hooks("shared_array()")
        b = self.b
        t = e.type
        et = memtype(t.dtype)
        g = self.m.llmod.globals.get(e.name)
        if g is None:
            g = ir.GlobalVariable(self.m.llmod, ir.ArrayType(et, e.size), e.name,
                                  addrspace=model.shared_addrspace)
            g.linkage = "internal"
            g.initializer = ir.Constant(g.value_type, ir.Undefined)
            g.align = 16
        itemsize = max(1, t.dtype.bits // 8)
        v = ir.Constant(lltype(t), ir.Undefined)
        v = b.insert_value(v, ir.Constant(PTR, None), 0)
        if model.addressing == "logical":
            from .kernel_logical import shared_token
            v = b.insert_value(v, shared_token(self.m, g, e.size, et), 1)
        else:
            v = b.insert_value(v, b.addrspacecast(g, PTR), 1)
        v = b.insert_value(v, ir.Constant(I64, e.size), [2, 0])
        return b.insert_value(v, ir.Constant(I64, itemsize), [3, 0])

    def e_Atomic(self, e):
        from .kernel_lower import atomic
        t = e.array.type
        ptr = self.element_ptr(self.expr(e.array), t, [self.expr(i) for i in e.indices])
        v = self.expr(e.value)
        cmp = self.expr(e.compare) if e.op == "cas" else None
        return atomic(self.b, self.gpu_hooks("atomics"), e.op, t.dtype, ptr, v, cmp)


def _clean(name: str) -> str:
    return name.replace("$", "_")


class ModuleLowering(MathCalls):
    """Lowers a whole primitive IR module into one ``ir.Module``."""

    def __init__(self, module: N.Module, info: LLVMTargetInfo | None = None, name="hanajit",
                 *, names: dict | None = None, exports: frozenset = frozenset(),
                 externals: dict | None = None, only: set | None = None):
        """``names``: the LLVM name of a function (default its own); ``exports``:
        functions defined with external linkage (a piece of ``lowering/shared.py``:
        its root); ``externals``: functions only declared, ``name -> (symbol,
        raises)`` -- defined in another module, whose raise codes index
        ``raises`` (and every function whose ``Function.external`` says so);
        ``only``: the functions to define (default all)."""
        self.module = module
        self.names = names or {}
        self.exports = exports
        # (a function the pipeline gave as compiled apart is one too)
        self.externals = {**{name: fn.external for name, fn in module.functions.items()
                             if fn.external is not None}, **(externals or {})}
        self.only = only
        self._code_tables: dict = {}
        self.info = info or LLVMTargetInfo(math={})
        self.llmod = ir.Module(name=name)
        if self.info.triple:
            self.llmod.triple = self.info.triple
        if self.info.data_layout:
            self.llmod.data_layout = self.info.data_layout
        self.decls: dict = {}
        self.math_decls: dict = {}
        self.hints_paused = False       # lowering a versioned nest's checked copy
        loops = ((getattr(module, "strategy", None) or {}).get("loops") or {}).values()
        self.wants_prefetch = any(h.get("prefetch") for h in loops)
        self.vector_decls: list = []          # vector math functions, see vector_variant
        self.numpy_calls = 0                  # calls of NumPy's functions (numpy_loops.py)
        self.code_tests: list = []            # switches on raise codes (llvm_try.py)

    def fn_type(self, fn: N.Function) -> ir.FunctionType:
        params = [lltype(t) for t in fn.arg_types]
        if fn.can_raise:
            return ir.FunctionType(I32, [PTR, PTR] + params)
        ret = ir.VoidType() if fn.return_type == T.NONE else lltype(fn.return_type)
        return ir.FunctionType(ret, params)

    def declare(self, fn: N.Function) -> ir.Function:
        f = self.decls.get(fn.name)
        if f is None:
            outside = self.externals.get(fn.name)
            if outside and outside[0] in self.llmod.globals:
                # two callees that print the same (one helper reached twice)
                f = self.decls[fn.name] = self.llmod.globals[outside[0]]
                return f
            name = outside[0] if outside else self.names.get(fn.name, fn.name)
            f = ir.Function(self.llmod, self.fn_type(fn), name=name)
            f.attributes.add("nounwind")
            if not (outside or fn.name in self.exports):    # (else linked by symbol)
                f.linkage = "internal"
                if fn.inline:
                    f.attributes.add("alwaysinline")
                elif getattr(fn, "compact", False):
                    f.attributes.add("noinline")
                    f.attributes.add("optnone")
            self.decls[fn.name] = f
        return f

    def ret_slot(self, fl: FunctionLowering, t: T.Type):
        """An entry-block alloca to receive a callee's result."""
        b = fl.b
        cur = b.block
        entry = fl.llfn.entry_basic_block
        with b.goto_block(entry):
            if entry.instructions:
                b.position_before(entry.instructions[0])
            slot = b.alloca(lltype(t) if t != T.NONE else I8)
        b.position_at_end(cur)
        return slot

    def nrt(self, which: str) -> ir.Function:
        """Declaration of the memory runtime function ``alloc``/``incref``/``decref``."""
        from . import nrt
        name = {"alloc": nrt.ALLOC, "incref": nrt.INCREF, "decref": nrt.DECREF}[which]
        fn = self.llmod.globals.get(name)
        if fn is None:
            ty = ir.FunctionType(PTR, [I64]) if which == "alloc" else ir.FunctionType(
                ir.VoidType(), [PTR])
            fn = ir.Function(self.llmod, ty, name)
            fn.attributes.add("nounwind")
        return fn

    def loop_metadata(self, br):
        """Hints for a counted loop's back edge from the module's compile strategy
        (``module.strategy``, set by ``hanajit.evolve``): loop ``k`` in lowering
        order gets ``{"unroll": n, "interleave": n, "width": n}`` as
        ``llvm.loop.unroll.count`` / ``llvm.loop.interleave.count`` /
        ``llvm.loop.vectorize.width``; 1 disables the transform (unroll 1:
        ``llvm.loop.unroll.disable``).  ``"prefetch": d`` asks for software
        prefetches ``d`` iterations ahead (``lowering/prefetch.py``) and
        ``"align": 64`` for an aligned-data copy of the loop behind a run-time
        test (``lowering/align.py``); both done by ``FunctionLowering.for_count``.
        Returns loop ``k``'s hints, or None."""
        if self.hints_paused:
            return None
        k = self.__dict__.get("_loops_seen", 0)
        self._loops_seen = k + 1
        strategy = getattr(self.module, "strategy", None) or {}
        hints = (strategy.get("loops") or {}).get(k)
        if not hints:
            return None
        m = self.llmod
        names = (("unroll", "llvm.loop.unroll.count"),
                 ("interleave", "llvm.loop.interleave.count"),
                 ("width", "llvm.loop.vectorize.width"))
        ops = [m.add_metadata([ir.MetaDataString(m, name),
                               ir.Constant(I32, int(hints[key]))])
               for key, name in names if hints.get(key) and not (
                   key == "unroll" and hints[key] == 1)]
        if hints.get("unroll") == 1:
            disable = ir.MetaDataString(m, "llvm.loop.unroll.disable")
            ops.append(m.add_metadata([disable]))
        if not ops:
            return hints
        # a loop id refers to itself: made with a unique placeholder, then patched
        loop_id = m.add_metadata([ir.MetaDataString(m, f"hj.loop.{k}"), *ops])
        loop_id.operands = (loop_id, *loop_id.operands[1:])
        br.set_metadata("llvm.loop", loop_id)
        return hints

    def loop_hint(self, br, name: str, value: int):
        """One loop hint (``llvm.loop.interleave.count`` ...) on a back edge."""
        m = self.llmod
        k = self.__dict__.get("_hinted", 0)
        self._hinted = k + 1
        op = m.add_metadata([ir.MetaDataString(m, name), ir.Constant(I32, value)])
        loop_id = m.add_metadata([ir.MetaDataString(m, f"hj.hint.{k}"), op])
        loop_id.operands = (loop_id, *loop_id.operands[1:])
        br.set_metadata("llvm.loop", loop_id)

    def short_loop(self, br):
        """``llvm.loop.vectorize.enable false`` and ``llvm.loop.unroll.disable``
        on the back edge of a loop marked ``short``."""
        m = self.llmod
        ops = [m.add_metadata([ir.MetaDataString(m, "llvm.loop.vectorize.enable"),
                               ir.Constant(ir.IntType(1), 0)]),
               m.add_metadata([ir.MetaDataString(m, "llvm.loop.unroll.disable")])]
        k = self.__dict__.get("_short_seen", 0)
        self._short_seen = k + 1
        loop_id = m.add_metadata([ir.MetaDataString(m, f"hj.short.{k}"), *ops])
        loop_id.operands = (loop_id, *loop_id.operands[1:])
        br.set_metadata("llvm.loop", loop_id)

    def next_hints(self, loop):
        """The hints ``loop_metadata`` will give ``loop``, read before its body is
        lowered -- known for an innermost loop only (None otherwise: hints go to
        innermost loops, genome.outer_loops)."""
        strategy = getattr(self.module, "strategy", None) or {}
        hints = (strategy.get("loops") or {}).get(self.__dict__.get("_loops_seen", 0))
        if not hints or self.hints_paused or any(
                isinstance(t, N.ForCount) for t in N.walk_stmts(loop.body)):
            return None
        return hints

    def lower(self) -> ir.Module:
        for fn in self.module.functions.values():
            if fn.name in self.externals or (self.only is not None
                                             and fn.name not in self.only):
                continue
            FunctionLowering(self, fn).run()
        if self.code_tests:
            fill_switches(self)
        if self.vector_decls:                 # else dead-declaration removal drops them
            used = ir.GlobalVariable(self.llmod, ir.ArrayType(PTR, len(self.vector_decls)),
                                     "llvm.compiler.used")
            used.linkage = "appending"
            used.section = "llvm.metadata"
            used.initializer = ir.Constant(used.value_type, self.vector_decls)
        return self.llmod


def lower_module(module: N.Module, info: LLVMTargetInfo | None = None) -> ir.Module:
    """Lower every function of a primitive IR module; return the llvmlite module."""
    return ModuleLowering(module, info).lower()
