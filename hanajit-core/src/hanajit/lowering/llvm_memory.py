"""LLVM lowering of the memory runtime's side of a function (a mixin of
``llvm.FunctionLowering``): array allocation, reference counts, and the
releases of the array locals at the failing exit."""
from __future__ import annotations

from llvmlite import ir

from ..ir import nodes as N
from ..ir import types as T
from . import llvm as _ll


class ArrayMemory:
    """Allocation, incref/decref and the one failing exit (``fail``)."""

    def fail(self):
        """Leave with the error status (the error record written): a branch to the
        function's one failing exit, which releases the locals and returns 1 --
        one copy of the releases, where a copy per raise site grew the IR as
        (raise sites x array locals).  Logical addressing (Vulkan) keeps a return
        per site: its structured control flow lets a selection exit only to its
        merge block.  Inside a ``try`` body: a branch to the innermost try's landing
        block instead (``llvm_try.py``)."""
        landing = self.landing()
        if landing is not None:
            self.b.branch(landing)
            return
        gpu = self.m.info.gpu
        if not self.managed or (gpu is not None and gpu.addressing == "logical"):
            self.release_locals()
            self.b.ret(ir.Constant(_ll.I32, 1))
            return
        if self._fail_bb is None:
            self._fail_bb = self.llfn.append_basic_block("fail")
            with self.b.goto_block(self._fail_bb):
                self.release_locals(tested=False)
                self.b.ret(ir.Constant(_ll.I32, 1))
        self.b.branch(self._fail_bb)

    def release_locals(self, tested: bool = True):
        """Decref every array local (``tested``: see :meth:`refcount`)."""
        for name, t in self.managed:
            self.refcount(self.b.load(self.slots[name]), t, self.m.nrt("decref"),
                          tested=tested)
        self.release_records()          # (strs of errors a try handled: llvm_try)

    def refcount(self, v, t, fn, tested: bool = True):
        """Apply ``fn`` (incref/decref) to the meminfo of every array in ``v``.

        ``tested``: each call behind a test of the meminfo against NULL, which LLVM
        folds where it is known (below).  Untested, the call is made whatever the
        meminfo (the runtime's functions return at once on NULL): one instruction
        where the test is four and two blocks.  The one failing exit, which runs
        at most once a call and releases every array local, calls untested: its
        tests were a quarter of the blocks of a function holding many arrays (a
        kernel of fourteen sets' tables: 430 of 1,280 tests; LLVM took a quarter
        less time without them)."""
        b = self.b
        if isinstance(t, T.ArrayType):
            mi = b.extract_value(v, 0)
            if not (self.m.info.host_calls and tested):     # (GPU code: structured
                b.call(fn, [mi])                            # control flow)
                return
            # a test LLVM folds where the meminfo is a known NULL: memory no
            # runtime owns (a global array's, a random state's) costs no call
            with b.if_then(b.icmp_unsigned("!=", mi, ir.Constant(mi.type, None)),
                           likely=True):
                b.call(fn, [mi])
        elif isinstance(t, T.TupleType):
            for i, it in enumerate(t.items):
                if _ll.holds_array(it):
                    self.refcount(b.extract_value(v, i), it, fn, tested)

    def alloc(self, e: N.AllocArray):
        b = self.b
        t = e.type
        itemsize = max(1, t.dtype.bits // 8)
        dims = [self.expr(d) for d in e.shape]
        nbytes = ir.Constant(_ll.I64, itemsize)
        for d in dims:
            nbytes = b.mul(nbytes, d)
        mi = b.call(self.m.nrt("alloc"), [nbytes])
        ok = self.llfn.append_basic_block("alloc.ok")
        fail = self.llfn.append_basic_block("alloc.fail")
        br = b.cbranch(b.icmp_unsigned("!=", mi, ir.Constant(_ll.PTR, None)), ok, fail)
        _ll.set_weights(br, (2000, 1))
        b.position_at_end(fail)
        code = self.m.module.raise_code(MemoryError, "Unable to allocate memory for an array")
        b.store(ir.Constant(_ll.I64, code), self.err)
        self.fail()
        b.position_at_end(ok)
        data = b.load(b.gep(mi, [ir.Constant(_ll.I64, 8)], source_etype=_ll.I8), typ=_ll.PTR)
        v = ir.Constant(_ll.lltype(t), ir.Undefined)
        v = b.insert_value(v, mi, 0)
        v = b.insert_value(v, data, 1)
        stride = ir.Constant(_ll.I64, itemsize)
        strides = [None] * t.ndim
        for k in range(t.ndim - 1, -1, -1):
            strides[k] = stride
            stride = b.mul(stride, dims[k])
        for k in range(t.ndim):
            v = b.insert_value(v, dims[k], [2, k])
            v = b.insert_value(v, strides[k], [3, k])
        return v


def borrowed_params(fn) -> set:
    """The parameters ``fn`` never assigns: each borrows the caller's reference,
    which the caller holds until the call returns, so the function neither
    increfs nor decrefs their arrays (docs/architecture.md, "Memory runtime")."""
    return set(fn.params) - {s.target for s in N.walk_stmts(fn.body)
                             if isinstance(s, N.Assign)}


def _reads(stmts, managed: set) -> dict:
    """How many times each of ``managed`` is read in ``stmts``."""
    out: dict = {}
    for st in N.walk_stmts(stmts):
        for e in N.stmt_exprs(st):
            if e is None:
                continue
            for x in N.walk_expr(e):
                if isinstance(x, N.Var) and x.name in managed:
                    out[x.name] = out.get(x.name, 0) + 1
    return out


def moved_items(fn, managed: set) -> set:
    """The ``Assign`` statements (by ``id``) ``y = $u[k]`` that take over the
    reference of item ``k`` of a compiler temporary tuple ``$u`` (one of
    ``managed``): those right after an assignment of ``$u``, each taking another
    item, where every read of ``$u`` in ``fn`` is one of them -- the unpacking of
    a call's tuple (``K, I, S = copy(...)``).  Each item's place in ``$u`` is
    then emptied instead of ``y``'s count raised, and ``$u`` releases nothing
    more: three tested increfs and three decrefs fewer per unpacking (a kernel of
    fourteen sets unpacks 50 such tuples)."""
    groups: dict = {}           # temporary -> [ids of its unpacking statements]
    counted: dict = {}          # temporary -> reads in them

    def scan(body):
        for k, st in enumerate(body):
            if isinstance(st, N.Assign) and st.target.startswith("$") \
                    and st.target in managed:
                u, seen, j = st.target, set(), k + 1
                while j < len(body) and _item_of(body[j], u) not in seen | {None}:
                    seen.add(_item_of(body[j], u))
                    groups.setdefault(u, []).append(id(body[j]))
                    j += 1
                counted[u] = counted.get(u, 0) + len(seen)
            for attr in ("then", "orelse", "body"):
                sub = getattr(st, attr, None)
                if isinstance(sub, list):
                    scan(sub)
    scan(fn.body)
    total = _reads(fn.body, set(groups))
    return {i for u, ids in groups.items() if counted[u] == total.get(u) for i in ids}


def _item_of(st, u: str):
    """``k`` where ``st`` is ``y = u[k]`` (``y`` not ``u``), else None."""
    if isinstance(st, N.Assign) and st.target != u and isinstance(st.value, N.TupleGet) \
            and isinstance(st.value.tup, N.Var) and st.value.tup.name == u:
        return st.value.index
    return None


def moved_temps(fn, managed: set) -> set:
    """The ``Assign`` statements (by ``id``) that take over their source's
    reference: ``x = $t`` where ``$t`` is a compiler temporary holding arrays
    (one of ``managed``) assigned earlier in the same run of statements, and
    every other read of ``$t`` in ``fn`` is between that assignment and this one
    (filling it, reading its shape): the value moved is that assignment's, and
    nothing reads ``$t`` after it -- nor before it, should a loop run the
    statements again.  The temporary's slot is then emptied instead of ``x``'s
    count raised: the array's last reference is ``x``'s, and rebinding ``x``
    frees it, where the temporary kept it until the function returned
    (``y = np.zeros_like(x)`` kept the first array of a loop ``y = y * x + c``
    alive: a third large block, which glibc gave back to the kernel at each
    return and faulted in again at each call)."""
    def reads_in(stmts) -> dict:
        return _reads(stmts, managed)

    total = reads_in(fn.body)
    out = set()

    def scan(body):
        last: dict = {}             # temporary -> index of its last assignment here
        for k, st in enumerate(body):
            if isinstance(st, N.Assign):
                v = st.value
                if (isinstance(v, N.Var) and v.name.startswith("$") and v.name in last
                        and st.target != v.name
                        and reads_in(body[last[v.name] + 1:k + 1]).get(v.name)
                        == total.get(v.name)):
                    out.add(id(st))
                if st.target.startswith("$"):
                    last[st.target] = k
            for attr in ("then", "orelse", "body"):
                sub = getattr(st, attr, None)
                if isinstance(sub, list):
                    scan(sub)
    scan(fn.body)
    return out
