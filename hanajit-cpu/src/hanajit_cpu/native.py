"""The generated vectorcall dispatcher of a jitted function (CPU target).

Each time a jitted function's set of specialisations changes,
:func:`build_dispatcher` generates and links one small LLVM module::

    ptr @__hj_dispatch(ptr self, ptr args, i64 nargsf, ptr kwnames)

1. binding: ``f(a, b)`` with every parameter positional uses ``args`` as it is;
   otherwise the parameters are gathered into a stack array: positional
   arguments first, then keywords matched *by pointer* against the interned
   parameter names, then defaults (embedded object pointers);
2. for each specialisation in turn (those with any-layout arrays last): exact
   type checks of the parameters, unboxing (:mod:`hanajit_cpu.nativebox`;
   NumPy arrays in :mod:`hanajit_cpu.nativearray`), a call of its C-ABI entry
   wrapper, boxing the result (arrays the kernel allocated, also in tuples, and
   views of an argument; empty views and tuples holding views go to
   ``boxed(self, index, ret_address, *params)``, the Python path's boxing);
3. anything else (unknown types, an int beyond int64, an unknown or duplicate
   keyword, wrong arity, a keyword name that is not the interned one) calls the
   Python dispatcher ``slow(self, *args, **kwargs)`` with the original
   arguments, so behaviour is exactly the Python dispatcher's -- or, in a link
   of a chain (``previous``), the function's previous dispatcher, with the
   original vectorcall arguments, which handles the older specialisations and
   ends in ``slow`` in turn;
4. when a kernel raises, ``raised(self, index, err_address, *params)`` raises the
   kernel's exception (or re-runs the call in the interpreter for a deopt).
   Nothing is re-run after a kernel has had side effects.

The kernels are compiled once, separately (their object code never refers to
CPython, so it stays cacheable); only this dispatcher embeds process addresses.
"""
from __future__ import annotations

import hashlib

from llvmlite import ir

from hanajit.dispatch.native import CallShape, Handlers
from hanajit.ir import types as T
from hanajit.lowering.cabi import flat_kinds, ret_slots
from hanajit.lowering.llvm import F64, I32, I64, PTR, set_weights
from hanajit.lowering.llvm_text import module_text

from . import nativearray
from . import nativebox as nb
from .nativebox import CApi

DISPATCH = "__hj_dispatch"
PREVIOUS = "__hj_dispatch_previous"
_OFFSET_FLAG = 1 << 63          # PY_VECTORCALL_ARGUMENTS_OFFSET
_NULL = ir.Constant(PTR, None)


def natively_callable(entry) -> bool:
    """True when the dispatcher can check, unbox and box this specialisation."""
    return all(nb.can_unbox(t) for t in entry.arg_types) and nb.can_box(_boxed_type(entry))


def _boxed_type(entry):
    """The result type as boxed: NumPy-scalar leaves carry ``NumpyScalarArg``."""
    return getattr(entry, "numpy_result", None) or entry.return_type


def _widens(types) -> bool:
    """True when a type tuple has an any-layout array (which accepts others)."""
    for t in types:
        if isinstance(t, T.ArrayType) and t.layout == "A":
            return True
        if isinstance(t, T.TupleType) and _widens(t.items):
            return True
    return False


def _folds_default(types) -> bool:
    return any(isinstance(t, T.DefaultArg) for t in types)


def _has_array(t) -> bool:
    if isinstance(t, T.ArrayType):
        return True
    return isinstance(t, T.TupleType) and any(_has_array(i) for i in t.items)


def _scalar_of_array(t, boxed) -> bool:
    """Is an array in result type ``t`` boxed as a NumPy scalar (a 0-d array
    from arithmetic: ``infer/numpy_results.py``)?  The Python path boxes those."""
    if isinstance(t, T.ArrayType):
        return isinstance(boxed, T.NumpyScalarArg)
    if isinstance(t, T.TupleType) and isinstance(boxed, T.TupleType):
        return any(_scalar_of_array(i, j) for i, j in zip(t.items, boxed.items))
    return False


def _ret_kinds(t) -> list:
    """The leaf type of each result slot (an array: meminfo, data, shape, strides)."""
    if isinstance(t, T.ArrayType):
        return [T.INT64] * ret_slots(t)
    if isinstance(t, T.TupleType):
        return [k for i in t.items for k in _ret_kinds(i)]
    return flat_kinds(t)


def _meminfo_slots(t, start=0) -> list:
    """Result slots holding the meminfo of each array in a (nested) tuple."""
    if isinstance(t, T.ArrayType):
        return [start]
    out = []
    if isinstance(t, T.TupleType):
        for i in t.items:
            out += _meminfo_slots(i, start)
            start += ret_slots(i)
    return out


def _alloca(b: ir.IRBuilder, ty, size=None, name=""):
    """An alloca typed as an opaque ``ptr`` (llvmlite types it ``ty*``)."""
    a = b.alloca(ty, size=size, name=name)
    a.type = PTR
    return a


def _i64(v: int) -> ir.Constant:
    return ir.Constant(I64, v)


class _Gen:
    def __init__(self, shape: CallShape, entries: list, handlers: Handlers,
                 previous: int | None = None):
        self.shape = shape
        self.entries = entries
        self.handlers = handlers
        self.previous = previous
        self.m = ir.Module(name="hanajit_dispatch")
        self.cx = CApi(self.m)
        self.f = ir.Function(self.m, ir.FunctionType(PTR, [PTR, PTR, I64, PTR]), DISPATCH)
        self.self_, self.args, self.nargsf, self.kwnames = self.f.args

    def block(self, name):
        return self.f.append_basic_block(name)

    def gen(self) -> ir.Module:
        n = len(self.shape.params)
        b = self.b = ir.IRBuilder(self.block("entry"))
        nslots = max([1] + [ret_slots(e.return_type) for e in self.entries if e])
        self.buf = _alloca(b, ir.ArrayType(PTR, max(n, 1)), name="params")
        self.retbuf = _alloca(b, ir.ArrayType(I64, nslots), name="ret")
        self.errbuf = _alloca(b, ir.ArrayType(I64, 4), name="err")
        self.nargs = b.and_(self.nargsf, _i64(_OFFSET_FLAG - 1), name="nargs")
        self.slow_bb = self.block("slow")
        self.raised_bb = self.block("raised")
        dispatch = self.block("dispatch")
        bind = self.block("bind")
        if self.shape.simple:
            fast = b.and_(b.icmp_unsigned("==", self.kwnames, _NULL),
                          b.icmp_unsigned("==", self.nargs, _i64(n)))
            b.cbranch(fast, dispatch, bind)
        else:
            b.branch(bind)
        b.position_at_end(bind)
        self.bind(dispatch)
        b.position_at_end(dispatch)
        params = b.phi(PTR, name="p")
        if self.shape.simple:
            params.add_incoming(self.args, self.f.entry_basic_block)
        params.add_incoming(self.buf, self.bind_exit)
        self.params = params
        self.raise_index = []            # (index constant, block) for the phi
        # None: not handled natively.  Entries with any-layout arrays come last, so
        # an argument takes its exact specialisation when there is one, as in
        # the Python dispatcher; entries folding an omitted argument's default
        # (``DefaultArg``) before those taking any value there
        order = sorted((i for i, e in enumerate(self.entries) if e is not None),
                       key=lambda i: (_widens(self.entries[i].arg_types),
                                      not _folds_default(self.entries[i].arg_types)))
        for i in order:
            self.try_entry(i, self.entries[i])
        b.branch(self.slow_bb)
        self.slow()
        self.raised()
        return self.m

    # ------------------------------------------------------------------ binding
    def param_ptr(self, base, j):
        index = _i64(j) if isinstance(j, int) else j
        return self.b.gep(base, [index], source_etype=PTR)

    def load_ptr(self, base, j):
        return self.b.load(self.param_ptr(base, j), typ=PTR)

    def bind(self, dispatch):
        """Gather positional, keyword and default arguments into ``self.buf``."""
        b, shape = self.b, self.shape
        n = len(shape.params)
        positional = self.block("bind.positional")
        b.cbranch(b.icmp_unsigned(">", self.nargs, _i64(shape.npos)), self.slow_bb,
                  positional)
        b.position_at_end(positional)
        for j in range(n):
            b.store(_NULL, self.param_ptr(self.buf, j))
        for j in range(shape.npos):
            take, nxt = self.block(f"bind.pos{j}"), self.block(f"bind.pos{j}.done")
            b.cbranch(b.icmp_unsigned(">", self.nargs, _i64(j)), take, nxt)
            b.position_at_end(take)
            b.store(self.load_ptr(self.args, j), self.param_ptr(self.buf, j))
            b.branch(nxt)
            b.position_at_end(nxt)
        # keywords: for k in range(len(kwnames))
        has_kw = self.block("bind.has_kw")
        defaults = self.block("bind.defaults")
        b.cbranch(b.icmp_unsigned("==", self.kwnames, _NULL), defaults, has_kw)
        b.position_at_end(has_kw)
        nkw = nb.field(b, self.kwnames, nb.OB_SIZE, I64)
        head, body, nextk = self.block("kw.head"), self.block("kw.body"), \
            self.block("kw.next")
        b.branch(head)
        b.position_at_end(head)
        k = b.phi(I64, name="k")
        k.add_incoming(_i64(0), has_kw)
        b.cbranch(b.icmp_unsigned("<", k, nkw), body, defaults)
        b.position_at_end(body)
        name = self.load_ptr(self.kwnames, b.add(_i64(nb.OB_ITEM // 8), k))
        value = self.load_ptr(self.args, b.add(self.nargs, k))
        for j, p in enumerate(shape.params):
            if not p.keyword:
                continue
            hit, miss = self.block(f"kw.is_{p.name}"), self.block(f"kw.not_{p.name}")
            b.cbranch(b.icmp_unsigned("==", name, CApi.address(id(p.name))), hit, miss)
            b.position_at_end(hit)
            slot = self.param_ptr(self.buf, j)
            store = self.block(f"kw.set_{p.name}")
            b.cbranch(b.icmp_unsigned("==", b.load(slot, typ=PTR), _NULL), store, self.slow_bb)
            b.position_at_end(store)
            b.store(value, slot)
            b.branch(nextk)
            b.position_at_end(miss)
        b.branch(self.slow_bb)           # not an interned parameter name
        b.position_at_end(nextk)
        k.add_incoming(b.add(k, _i64(1)), nextk)
        b.branch(head)
        # defaults for what is still missing
        b.position_at_end(defaults)
        for j, p in enumerate(shape.params):
            slot = self.param_ptr(self.buf, j)
            missing, done = self.block(f"default.{p.name}"), self.block(f"have.{p.name}")
            b.cbranch(b.icmp_unsigned("==", b.load(slot, typ=PTR), _NULL), missing, done)
            b.position_at_end(missing)
            if p.has_default:
                b.store(CApi.address(id(p.default)), slot)
                b.branch(done)
            else:
                b.branch(self.slow_bb)
            b.position_at_end(done)
        self.bind_exit = b.block
        b.branch(dispatch)

    # ---------------------------------------------------------- specialisations
    def try_entry(self, index, e):
        b, cx = self.b, self.cx
        nxt = self.block(f"spec{index}.next")
        objs = [self.load_ptr(self.params, j) for j in range(len(e.arg_types))]
        for obj, t in zip(objs, e.arg_types):
            nb.check(cx, b, obj, t, nxt)
        flat, unboxed = [], []
        for obj, t in zip(objs, e.arg_types):
            unboxed.append(nb.unbox(cx, b, obj, t, self.slow_bb))
            flat += unboxed[-1]
        leaves = [k for t in e.arg_types for k in flat_kinds(T.plain(t))]
        argtys = [F64 if k.is_float else I64 for k in leaves]
        # the entry wrapper, linked by address under a name of its own
        callee = ir.Function(self.m, ir.FunctionType(I32, [PTR, PTR] + argtys),
                             f"__hj_entry.{index}")
        callee.attributes.add("nounwind")
        self.cx.imports[callee.name] = e.entry_address
        if e.release_gil:             # nogil: other Python threads run meanwhile
            tstate = b.call(cx.PyEval_SaveThread, [])
        status = b.call(callee, [self.retbuf, self.errbuf] + flat)
        if e.release_gil:
            b.call(cx.PyEval_RestoreThread, [tstate])
        if e.can_raise:
            ok = self.block(f"spec{index}.ok")
            br = b.cbranch(b.icmp_unsigned("==", status, ir.Constant(I32, 0)), ok,
                           self.raised_bb)
            set_weights(br, (2000, 1))
            self.raise_index.append((_i64(index), b.block))
            b.position_at_end(ok)
        rt = e.return_type
        if getattr(e, "returns_arg", None) is not None:    # ``return a``: a itself
            b.call(cx.Py_IncRef, [objs[e.returns_arg]])
            b.ret(objs[e.returns_arg])
            b.position_at_end(nxt)
            return
        # a list, NumPy's named tuples, a 0-d array given as a NumPy scalar: in Python
        in_python_only = getattr(e, "returns_list", False) or \
            T.named_tuple_in(rt) is not None or _scalar_of_array(rt, _boxed_type(e))
        if _has_array(rt) or in_python_only:
            in_python = self.block(f"spec{index}.box_in_python")
            if in_python_only:
                b.branch(in_python)
            elif isinstance(rt, T.ArrayType):
                fresh, view = self.block(f"spec{index}.box_fresh"), \
                    self.block(f"spec{index}.box_view")
                meminfo = b.load(self.retbuf, typ=I64)
                b.cbranch(b.icmp_unsigned("!=", meminfo, _i64(0)), fresh, view)
                b.position_at_end(fresh)
                self.box_natively(rt)
                b.position_at_end(view)
                self.box_view(e, rt, objs, unboxed, in_python)
            else:
                # a tuple: boxed here when every array in it is a new one
                fresh = self.block(f"spec{index}.box_fresh")
                new = ir.Constant(ir.IntType(1), 1)
                for slot in _meminfo_slots(rt):
                    mi = b.load(b.gep(self.retbuf, [_i64(slot)], source_etype=I64), typ=I64)
                    new = b.and_(new, b.icmp_unsigned("!=", mi, _i64(0)))
                b.cbranch(new, fresh, in_python)
                b.position_at_end(fresh)
                self.box_natively(rt, _boxed_type(e))
            b.position_at_end(in_python)
            b.ret(self.call_handler(self.handlers.boxed, _i64(index),
                                    b.ptrtoint(self.retbuf, I64)))
        else:
            self.box_natively(rt, _boxed_type(e))
        b.position_at_end(nxt)

    def box_view(self, e, rt, objs, unboxed, in_python):
        """A result with no meminfo is a view of an argument's memory: the first
        array argument holding an element at its data address becomes its base
        (the rule of :func:`hanajit_cpu.boxing.box_array`).  An empty result,
        arrays inside tuple arguments, or no such argument: ``in_python``."""
        b = self.b
        if any(_has_array(t) and not isinstance(t, T.ArrayType) for t in e.arg_types):
            b.branch(in_python)
            return
        slots = [b.load(b.gep(self.retbuf, [_i64(i)], source_etype=I64), typ=I64)
                 for i in range(ret_slots(rt))]
        empty = ir.Constant(ir.IntType(1), 0)
        for n in slots[2:2 + rt.ndim]:
            empty = b.or_(empty, b.icmp_signed("==", n, _i64(0)))
        nonempty = self.block("view.nonempty")
        b.cbranch(empty, in_python, nonempty)
        b.position_at_end(nonempty)
        for j, t in enumerate(e.arg_types):
            if not isinstance(t, T.ArrayType):
                continue
            hit, miss = self.block(f"view.of{j}"), self.block(f"view.not{j}")
            b.cbranch(nativearray.contains(b, t, unboxed[j], slots[1]), hit, miss)
            b.position_at_end(hit)
            b.ret(nativearray.call_box_view(self.cx, b, rt, iter(slots), objs[j]))
            b.position_at_end(miss)
        b.branch(in_python)

    def box_natively(self, rt, boxed=None):
        """Box the result slots of type ``rt`` as ``boxed`` (``rt`` with
        ``NumpyScalarArg`` on the leaves the interpreter gives as NumPy scalars)."""
        b = self.b
        loaded = []
        for i, k in enumerate(_ret_kinds(rt)):
            p = b.gep(self.retbuf, [_i64(i)], source_etype=I64)
            loaded.append(b.load(p, typ=F64 if k.is_float else I64))
        b.ret(nb.box(self.cx, b, iter(loaded), boxed or rt))

    # ------------------------------------------------------------ the handlers
    def slow(self):
        """``slow(self, *args, **kwargs)`` with the original vectorcall arguments
        (the previous dispatcher of a chain, with the same arguments)."""
        b, cx = self.b, self.cx
        b.position_at_end(self.slow_bb)
        if self.previous is not None:
            # (imported by address, under a name of its own: the text names no
            # address, so links over the same entries still print the same)
            prev = ir.Function(self.m, self.f.function_type, PREVIOUS)
            self.cx.imports[PREVIOUS] = self.previous
            b.ret(b.call(prev, [self.self_, self.args, self.nargsf, self.kwnames],
                         tail=True))
            return
        with_kw, call = self.block("slow.kw"), self.block("slow.call")
        b.cbranch(b.icmp_unsigned("==", self.kwnames, _NULL), call, with_kw)
        b.position_at_end(with_kw)
        nkw_value = nb.field(b, self.kwnames, nb.OB_SIZE, I64)
        b.branch(call)
        b.position_at_end(call)
        nkw = b.phi(I64, name="nkw")
        nkw.add_incoming(_i64(0), self.slow_bb)
        nkw.add_incoming(nkw_value, with_kw)
        total = b.add(self.nargs, nkw)
        tmp = _alloca(b, PTR, size=b.add(total, _i64(1)), name="slowargs")
        b.store(self.self_, tmp)
        memcpy = self.m.declare_intrinsic("llvm.memcpy", [PTR, PTR, I64])
        b.call(memcpy, [self.param_ptr(tmp, 1), self.args, b.mul(total, _i64(8)),
                        ir.Constant(ir.IntType(1), 0)])
        r = b.call(cx.PyObject_Vectorcall,
                   [CApi.address(id(self.handlers.slow)), tmp,
                    b.add(self.nargs, _i64(1)), self.kwnames])
        b.ret(r)

    def raised(self):
        """``raised(self, index, err_address, *params)``."""
        b = self.b
        b.position_at_end(self.raised_bb)
        if not self.raise_index:
            b.unreachable()
            return
        index = b.phi(I64, name="index")
        for value, block in self.raise_index:
            index.add_incoming(value, block)
        b.ret(self.call_handler(self.handlers.raised, index,
                                b.ptrtoint(self.errbuf, I64)))

    def call_handler(self, handler, index, address):
        """``handler(self, index, address, *params)``: the new reference it
        returns, or NULL with an exception set -- a call of one internal function
        per handler in the module (``nativebox.outlined``)."""
        return nb.outlined(self.cx, self.b, f"hj.handler.{handler.__name__}",
                           lambda cx, b, it: self._handler_body(b, handler, *it),
                           [self.self_, index, address, self.params])

    def _handler_body(self, b, handler, self_, index, address, params):
        cx, fn = self.cx, b.function
        n = len(self.shape.params)

        def slot(base, j):
            return b.gep(base, [_i64(j)], source_etype=PTR)
        tmp = _alloca(b, PTR, size=_i64(n + 3), name="handlerargs")
        idx_obj = b.call(cx.PyLong_FromLongLong, [index])
        addr_obj = b.call(cx.PyLong_FromLongLong, [address])
        fail, go = fn.append_basic_block("handler.nomem"), fn.append_basic_block("handler.call")
        done = fn.append_basic_block("handler.done")
        b.cbranch(b.or_(b.icmp_unsigned("==", idx_obj, _NULL),
                        b.icmp_unsigned("==", addr_obj, _NULL)), fail, go)
        b.position_at_end(go)
        b.store(self_, tmp)
        b.store(idx_obj, slot(tmp, 1))
        b.store(addr_obj, slot(tmp, 2))
        for j in range(n):
            b.store(b.load(slot(params, j), typ=PTR), slot(tmp, 3 + j))
        r = b.call(cx.PyObject_Vectorcall, [CApi.address(id(handler)), tmp,
                                            _i64(n + 3), _NULL])
        b.call(cx.Py_DecRef, [idx_obj])
        b.call(cx.Py_DecRef, [addr_obj])
        called = b.block
        b.branch(done)
        b.position_at_end(fail)
        for obj in (idx_obj, addr_obj):
            has, skip = fn.append_basic_block("handler.has"), fn.append_basic_block("handler.skip")
            b.cbranch(b.icmp_unsigned("==", obj, _NULL), skip, has)
            b.position_at_end(has)
            b.call(cx.Py_DecRef, [obj])
            b.branch(skip)
            b.position_at_end(skip)
        failed = b.block
        b.branch(done)
        b.position_at_end(done)
        result = b.phi(PTR, name="handled")
        result.add_incoming(r, called)
        result.add_incoming(_NULL, failed)
        return result


def build_dispatcher(shape: CallShape, entries: list, handlers: Handlers,
                     previous: int | None = None):
    """Generate, optimise and link the dispatcher; return (address, tracker, ir).
    With ``previous`` (the address of the function's current dispatcher) it is a
    link of a chain: only the entries given (the others are None) are tried, and a
    call none of them takes goes on to ``previous``."""
    from .engine import get_engine
    gen = _Gen(shape, entries, handlers, previous)
    llmod = gen.gen()
    eng = get_engine()
    text, obj = _quick_compile(eng, module_text(llmod))
    tracker, addrs = eng.link(obj, [DISPATCH], imports=gen.cx.imports)
    return addrs[DISPATCH], tracker, text


_fast_tm = None
_CODEGEN_OPT = 2


def _quick_compile(eng, text: str):
    """Compile a dispatcher in about 5 ms: a short pass list (SROA, instcombine,
    simplifycfg) then codegen at -O2.  The code is straight-line checks and calls,
    which these handle; the O3 pipeline costs ~10 ms more and gains nothing here,
    while -O0 codegen (1 ms) made keyword calls ~4 ns slower.

    The text names no function's address (the entries are imports, resolved at
    link), so functions of the same parameters (their names too: keyword binding
    compares them) and specialisations print the same dispatcher: it compiles
    once per process (``Engine.objects``) and is only linked again -- a test
    file's or a program's many functions of one signature paid 15-20 ms of code
    generation each."""
    key = (hashlib.blake2b(text.encode(), digest_size=20).digest(), "dispatcher")
    done = eng.objects.get(key)
    if done is None:
        with eng.compile_lock:
            done = _optimise_and_emit(eng, text)
        eng.objects.put(key, done)
    return done


def _optimise_and_emit(eng, text: str):
    global _fast_tm
    llvm = eng.llvm
    if _fast_tm is None:
        _fast_tm = eng.target.create_target_machine(
            cpu=eng.cpu, features=eng.features, opt=_CODEGEN_OPT, reloc="pic",
            codemodel="default")
    mod = llvm.parse_assembly(text)
    mod.triple = eng.triple
    mod.data_layout = eng.data_layout
    mod.verify()
    pb = llvm.create_pass_builder(_fast_tm, llvm.create_pipeline_tuning_options(0))
    mpm = llvm.create_new_module_pass_manager()
    mpm.add_sroa_pass()
    mpm.add_instruction_combine_pass()
    mpm.add_simplify_cfg_pass()
    mpm.run(mod, pb)
    text = str(mod)            # before emitting, which mutates the module
    return text, _fast_tm.emit_object(mod)

