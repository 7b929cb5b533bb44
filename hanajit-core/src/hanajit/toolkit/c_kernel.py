"""GPU kernels as C-family source: the kernel model in a dialect's
:class:`~hanajit.toolkit.c_dialects.KernelSpelling` (the Metal Shading Language).

The counterpart of ``lowering/kernel_lower.py`` for targets that take source: it
prints the four kernel-model nodes and the kernel entry from the dialect's data
and decides nothing itself -- the meaning of every node is the IR's:

* every function takes a context first (after ``hj_err``/``hj_ret``): ``thread
  hj_kctx *hj_k`` holding the built-ins and the shared arrays' data;
* ``GpuIndex(kind, axis)`` reads the built-in of ``kind`` on ``axis`` as int64;
* ``SharedArray`` is a threadgroup buffer of the kernel entry (a Metal kernel
  cannot declare threadgroup memory anywhere else): a 1-D array struct whose
  data lives in the threadgroup address space.  A local holding one keeps that
  type; passing one to another function is refused (no generic pointers);
* ``Barrier`` is the dialect's barrier over threadgroup and device memory;
* ``Atomic`` is an ``atomic_fetch_<op>_explicit`` (relaxed) when the dialect has
  that operation on that element type, ``cas`` a compare-and-swap loop; anything
  else is an ``UnsupportedError`` naming it (Metal has no 64-bit atomics);
* the kernel entry unpacks its buffers into the IR's arguments, calls the
  module's entry and, when that raises, records it exactly as ``kernel_lower``
  does: four int64 in buffer 0 -- the code (``Module.raises`` index + 1) stored
  by the first failing thread with a compare-and-swap, then the three message
  values; that thread returns, the others go on.

The entry's parameters: ``hj_err``; per array argument its data (a buffer);
one buffer of 8-byte slots with every array's shape and strides and every
scalar (as :func:`~hanajit.lowering.kernel_lower.param_kinds` orders them, a
float slot holding a float32); one threadgroup buffer per shared array; the
built-ins.  :class:`KernelSource` says what a launcher binds.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import UnsupportedError
from ..ir import nodes as N
from ..ir import types as T
from ..lowering.cabi import flat_kinds
from .c_family import CEmitter, CSource, c_identifier
from .c_dialects import Dialect

ENTRY = "hj_kernel"


@dataclass
class KernelSource:
    """The kernel's source and its binding layout."""

    text: str
    entry: str
    # buffer index -> "err", "array" (data of an argument), "slots"
    buffers: list = field(default_factory=list)
    # per shared array, in threadgroup-buffer order: (name, bytes)
    shared: list = field(default_factory=list)


def _key(dt: T.Scalar) -> str:
    return f"{'f' if dt.is_float else 'i' if dt.is_signed else 'u'}{dt.bits}"


class CKernelEmitter(CEmitter):
    """Prints a primitive IR module as a C-family GPU kernel (see the module
    docstring)."""

    def __init__(self, module: N.Module, dialect: Dialect, target: str = "this target"):
        super().__init__(module, dialect)
        if dialect.kernel is None:
            raise ValueError(f"the {dialect.name} dialect has no GPU kernels")
        self.k = dialect.kernel
        self.target = target
        self.shared: dict = {}           # SharedArray name -> (dtype, size)
        self.tg_arrays: dict = {}        # dtype -> struct of a threadgroup array
        self.shared_locals: set = set()
        self.tmp = 0
        for fn in module.functions.values():
            for s in N.walk_stmts(fn.body):
                for e in N.stmt_exprs(s):
                    for sub in N.walk_expr(e) if e is not None else ():
                        if isinstance(sub, N.SharedArray):
                            self.shared.setdefault(sub.name, (sub.type.dtype, sub.size))

    # -- shared arrays live in the threadgroup address space ---------------------------
    def is_shared(self, e) -> bool:
        if isinstance(e, N.SharedArray):
            return True
        if isinstance(e, N.Var):
            return e.name in self.shared_locals
        if isinstance(e, N.ArrayView):
            return self.is_shared(e.array)
        return False

    def tg_type(self, t: T.ArrayType) -> str:
        key = (t.dtype, t.ndim)
        if key not in self.tg_arrays:
            self.ctype(t.dtype)
            self.tg_arrays[key] = f"hj_tgarray_{t.dtype.short}_{t.ndim}"
        return self.tg_arrays[key]

    def local_type(self, name, t):
        if name in self.shared_locals:
            return self.tg_type(t)
        return self.ctype(t)

    def find_shared_locals(self, fn: N.Function) -> None:
        self.shared_locals = set()
        plain = set(fn.params)
        changed = True
        while changed:
            changed = False
            for s in N.walk_stmts(fn.body):
                if isinstance(s, N.Assign) and isinstance(fn.locals.get(s.target),
                                                          T.ArrayType):
                    shared = not isinstance(s.value, N.Call) and self.is_shared(s.value)
                    group = self.shared_locals if shared else plain
                    if s.target not in group:
                        group.add(s.target)
                        changed = True
        both = self.shared_locals & plain
        if both:
            self.unsupported(f"the variable {sorted(both)[0]!r} holding a shared array "
                             "and another array (the address spaces differ)")

    def function(self, fn):
        self.find_shared_locals(fn)
        for s in N.walk_stmts(fn.body):
            value = getattr(s, "value", None)
            if isinstance(value, N.Call) and any(self.is_shared(a) for a in value.args):
                self.fn, self.line = fn, s.line
                self.unsupported("a shared array passed to a function ("
                                 f"{self.d.name} has no generic pointers)")
        return super().function(fn)

    def e_SharedArray(self, e):
        size = 1 if e.type.dtype.is_bool else e.type.dtype.bits // 8
        return self.d.aggregate(self.tg_type(e.type),
                                f"hj_k->{c_identifier(e.name)}, {{{e.size}}}, {{{size}}}")

    def e_ArrayView(self, e):
        text = super().e_ArrayView(e)
        if self.is_shared(e.array):
            text = text.replace(self.ctype(e.type), self.tg_type(e.type), 1)
        return text

    # -- the kernel model ---------------------------------------------------------------
    def leading_args(self):
        return ["hj_k"]

    def leading_params(self):
        return [f"{self.d.local_space}hj_kctx *hj_k"]

    def e_GpuIndex(self, e):
        for kind, _, name, _ in self.k.builtins:
            if kind == e.kind:
                return f"(({self.int_type(True, 64)})hj_k->{name}.{'xyz'[e.axis]})"
        self.unsupported(f"the GPU index {e.kind}")

    def stmt(self, s, depth):
        if isinstance(s, N.Barrier):
            self.line = s.line or self.line
            self.emit(self.k.barrier, depth)
        else:
            super().stmt(s, depth)

    def atomic_type(self, dt: T.Scalar) -> str | None:
        return dict(self.k.atomic_types).get((dt.kind, dt.bits))

    def e_Atomic(self, e):
        dt = e.type
        space = self.k.shared_space if self.is_shared(e.array) else self.d.data_space
        lvalue = self.element(e.array, e.indices)
        value = self.expr(e.value)
        atype = self.atomic_type(dt)
        if e.op != "cas":
            if f"{e.op}.{_key(dt)}" not in self.k.atomic_ops or atype is None:
                self.unsupported(f"atomic {e.op} on {dt} ({self.target} has it on "
                                 f"{', '.join(sorted(self.k.atomic_ops))} only)")
            return self.k.atomic_fetch.format(op=e.op, space=space, atype=atype,
                                              lvalue=lvalue, value=value)
        # compare-and-swap: floats compare by bits, so swap their bit patterns
        bits_type = self.atomic_type(T.Scalar("u", dt.bits)) if dt.is_float else atype
        if bits_type is None:
            self.unsupported(f"atomic compare-and-swap on {dt} ({self.target} "
                             "has no such atomic)")
        ct = self.ctype(dt)
        old = f"hj_old{self.tmp}"
        self.tmp += 1
        wt = self.int_type(False, dt.bits) if dt.is_float else ct
        cmp, new = self.expr(e.compare), value
        if dt.is_float:
            cmp, new = f"as_type<{wt}>({cmp})", f"as_type<{wt}>({new})"
        # an atomic is only ever an Assign's value: declare and loop before it
        self.pending.append(f"{wt} {old} = {cmp};")
        attempt = self.k.atomic_cas.format(space=space, atype=bits_type, lvalue=lvalue,
                                           expected=old, new=new)
        self.pending.append(f"while (!{attempt} && {old} == {cmp}) {{}}")
        return f"as_type<{ct}>({old})" if dt.is_float else old

    def block(self, stmts, depth):
        for s in stmts:
            self.pending = []
            start = len(self.lines)
            self.stmt(s, depth)
            if self.pending:
                self.lines[start:start] = ["    " * depth + p for p in self.pending]
                self.pending = []

    # -- the entry ----------------------------------------------------------------------
    def struct_lines(self):
        out = super().struct_lines()
        i64 = self.int_type(True, 64)
        for (dt, nd), cname in self.tg_arrays.items():
            out.append(self.d.struct(cname, f"{self.k.shared_space}{self.ctype(dt)} *data; "
                                     f"{i64} shape[{nd}]; {i64} strides[{nd}];"))
        fields = [f"{ty} {name};" for _, ty, name, _ in self.k.builtins]
        fields += [f"{self.k.shared_space}{self.ctype(dt)} *{c_identifier(name)};"
                   for name, (dt, _) in self.shared.items()]
        out.append(self.d.struct("hj_kctx", " ".join(fields)))
        return out

    def entry(self) -> tuple[list, list]:
        """The kernel entry's lines, and its buffers' roles."""
        fn = self.module.functions[self.module.entry]
        self.fn = fn
        k, i64 = self.k, self.int_type(True, 64)
        params = [k.err_param]
        roles = ["err"]
        body = []
        slot = 0
        args = []
        for p, t in zip(fn.params, fn.arg_types):
            if isinstance(t, T.ArrayType):
                buf = f"hj_b{len(roles)}"
                params.append(k.buffer_param.format(type=self.ctype(t.dtype), name=buf,
                                                    slot=len(roles)))
                roles.append("array")
                shape = ", ".join(f"hj_s[{slot + i}]" for i in range(t.ndim))
                strides = ", ".join(f"hj_s[{slot + t.ndim + i}]" for i in range(t.ndim))
                slot += 2 * t.ndim
                args.append(self.d.aggregate(self.ctype(t), f"{buf}, {{{shape}}}, "
                                             f"{{{strides}}}"))
                continue
            if isinstance(t, T.Scalar) and t.is_complex or any(
                    isinstance(i, T.ArrayType) for i in getattr(t, "items", ())):
                self.unsupported(f"a kernel argument of type {t}")
            leaves = []
            for leaf in flat_kinds(t):
                text = (k.float_slot.format(slot=f"hj_s[{slot}]") if leaf.is_float
                        else f"hj_s[{slot}]")
                leaves.append(f"(({self.ctype(leaf)}){text})" if not leaf.is_bool
                              else f"({text} != 0)")
                slot += 1
            if isinstance(t, T.TupleType):
                args.append(self._tuple(t, iter(leaves)))
            elif leaves:
                args.append(leaves[0])
        params.append(k.slots_param.format(name="hj_s", slot=len(roles)))
        roles.append("slots")
        ctx = [name for _, _, name, _ in k.builtins]
        for i, (name, (dt, _)) in enumerate(self.shared.items()):
            params.append(k.shared_param.format(type=self.ctype(dt), name=f"hj_sh{i}",
                                                slot=i))
            ctx.append(f"hj_sh{i}")
        params += [k.builtin_param.format(type=ty, name=name, attr=attr)
                   for _, ty, name, attr in k.builtins]
        body.append(f"    hj_kctx hj_kv = {{{', '.join(ctx)}}};")
        body.append(f"    {self.d.local_space}hj_kctx *hj_k = &hj_kv;")
        call = ", ".join(["hj_k"] + args)
        name = c_identifier(fn.name)
        if fn.can_raise:
            rt = fn.return_type
            slot_t = self.int_type(False, 8) if rt == T.NONE else self.ctype(rt)
            body += [f"    {i64} hj_le[4] = {{0, 0, 0, 0}};",
                     f"    {slot_t} hj_r;",
                     f"    if ({name}(hj_le, &hj_r, {call})) {{",
                     f"        {self.int_type(True, 32)} hj_seen = 0;",
                     "        while (!" + k.atomic_cas.format(
                         space=self.d.data_space, atype=dict(k.atomic_types)[("i", 32)],
                         lvalue="hj_err[0]", expected="hj_seen",
                         new=f"({self.int_type(True, 32)})hj_le[0]")
                     + " && hj_seen == 0) {}",
                     "        if (hj_seen == 0) {",
                     "            hj_err[1] = hj_le[1]; hj_err[2] = hj_le[2]; "
                     "hj_err[3] = hj_le[3];",
                     "        }", "    }"]
        else:
            body.append(f"    {name}({call});")
        self.fn = None
        lines = [f"{k.entry_prefix} {ENTRY}(" + ",\n        ".join(params) + ") {"]
        return lines + body + ["}"], roles

    def _tuple(self, t, leaves):
        items = [self._tuple(i, leaves) if isinstance(i, T.TupleType) else next(leaves)
                 for i in t.items]
        return self.d.aggregate(self.ctype(t), ", ".join(items))

    def kernel(self) -> KernelSource:
        entry_fn = self.module.functions[self.module.entry]
        if isinstance(entry_fn.return_type, T.ArrayType):
            raise UnsupportedError(f"{entry_fn.pyname}: a GPU kernel cannot return an "
                                   "array", construct="array result")
        self.pending = []
        # the entry first: it registers the structs its arguments use
        entry_lines, roles = self.entry()
        src: CSource = self.run()
        shared = [(name, size * (1 if dt.is_bool else dt.bits // 8))
                  for name, (dt, size) in self.shared.items()]
        return KernelSource(src.text + "\n" + "\n".join(entry_lines) + "\n", ENTRY,
                            roles, shared)


def emit_kernel_source(module: N.Module, dialect: Dialect,
                       target: str = "this target") -> KernelSource:
    """A primitive IR module as a GPU kernel in ``dialect`` (which must have a
    :class:`~hanajit.toolkit.c_dialects.KernelSpelling`); the module has passed
    ``kernel_lower.check_kernel``."""
    return CKernelEmitter(module, dialect, target).kernel()


__all__ = ["ENTRY", "CKernelEmitter", "KernelSource", "emit_kernel_source"]
