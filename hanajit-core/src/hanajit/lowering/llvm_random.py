"""LLVM lowering of constant tables and random draws (a mixin of
``llvm.FunctionLowering``): ``TableLoad``, ``RandomBits``, ``MakeGenerator`` and
``HostArray`` (see ``ir/nodes.py``)."""
from __future__ import annotations

from llvmlite import ir

from . import llvm as _ll


class TablesAndRandom:
    """``e_*`` methods for the nodes of ``lib/generator*.py`` and constant tables."""

    def e_TableLoad(self, e):
        """A load from a private constant array (one per distinct table; a GPU
        row places it in its ``constant_addrspace``); with logical addressing
        (Vulkan: no pointer into a module constant), a chain of selects instead,
        in every function of the kernel."""
        gpu = self.m.info.gpu
        if gpu is not None and gpu.addressing == "logical":
            et = _ll.lltype(e.type)
            i = self.expr(e.index)
            r = ir.Constant(et, e.values[-1])
            for k in range(len(e.values) - 2, -1, -1):
                hit = self.b.icmp_signed("==", i, ir.Constant(_ll.I64, k))
                r = self.b.select(hit, ir.Constant(et, e.values[k]), r)
            return r
        key = ("table", e.type, e.values)
        g = self.m.decls.get(key)
        if g is None:
            et = _ll.lltype(e.type)
            aty = ir.ArrayType(et, len(e.values))
            g = ir.GlobalVariable(self.m.llmod, aty, f"hj.table.{len(self.m.decls)}")
            g.linkage = "private"
            g.global_constant = True
            g.initializer = ir.Constant(aty, [ir.Constant(et, v) for v in e.values])
            self.m.decls[key] = g
        p = self.b.gep(g, [ir.Constant(_ll.I64, 0), self.expr(e.index)], inbounds=True,
                       source_etype=g.value_type)
        return self.b.load(p, typ=_ll.lltype(e.type))

    def e_MakeGenerator(self, e):
        arr = self.expr(e.words)
        v = ir.Constant(_ll.lltype(e.type), ir.Undefined)
        start = self.expr(e.start) if e.start is not None else ir.Constant(_ll.I64, 0)
        for k in range(4):
            at = self.b.add(start, ir.Constant(_ll.I64, k))
            p = self.element_ptr(arr, e.words.type, [at])
            v = self.b.insert_value(v, self.b.load(p, typ=_ll.I64), k)
        return v

    def e_HostArray(self, e):
        if not self.m.info.host_calls:
            from ..errors import UnsupportedError
            if e.shape is not None:
                raise UnsupportedError(
                    f"{self.fn.name}: a global array is only reachable on the CPU target",
                    func=self.fn.name, construct="global array")
            raise UnsupportedError(
                f"{self.fn.name}: the global random state (NumPy's or Python's) is "
                "only reachable on the CPU target", func=self.fn.name,
                construct="random" if e.symbol.startswith("hj.python.") else "np.random")
        if e.address is not None:
            g = self.b.inttoptr(self.expr(e.address), _ll.PTR)
        else:
            name = e.symbol if e.symbol.startswith("hj.") else f"hj.numpy.{e.symbol}"
            g = self.m.llmod.globals.get(name)
            if g is None:
                g = ir.GlobalVariable(self.m.llmod, _ll.I8, name)
                g.linkage = "external"
        itemsize = max(1, e.type.dtype.bits // 8)
        shape = e.shape if e.shape is not None else (e.size,)
        strides = e.strides if e.strides is not None else (itemsize,)
        v = ir.Constant(_ll.lltype(e.type), ir.Undefined)
        v = self.b.insert_value(v, ir.Constant(_ll.PTR, None), 0)
        v = self.b.insert_value(v, g, 1)
        for k, (n, s) in enumerate(zip(shape, strides)):
            v = self.b.insert_value(v, ir.Constant(_ll.I64, n), [2, k])
            v = self.b.insert_value(v, ir.Constant(_ll.I64, s), [3, k])
        return v

    def e_RandomBits(self, e):
        """A call of the bit generator's C function (an address in the generator
        value) on its state pointer: ``uint64_t next_uint64(void *state)`` ..."""
        b = self.b
        g = self.expr(e.rng)
        field, ret = {"uint64": (1, _ll.I64), "uint32": (2, _ll.I32),
                      "double": (3, _ll.F64)}[e.kind]
        # a typed pointer only tells llvmlite the callee's type (it prints ``ptr``)
        fnty = ir.FunctionType(ret, [_ll.PTR])
        fp = b.inttoptr(b.extract_value(g, field), fnty.as_pointer())
        return b.call(fp, [b.inttoptr(b.extract_value(g, 0), _ll.PTR)])

