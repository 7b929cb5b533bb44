"""``np.nonzero(a)`` (also ``a.nonzero()`` and one-argument ``np.where(a)``),
``np.flatnonzero(a)`` and ``np.argwhere(a)``: the indices of the true elements
in C order, as int64 arrays -- one per axis, flat, or an ``(N, ndim)`` matrix.
A 0-d array falls back (NumPy raises or treats it specially)."""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from ..arrays.creation import allocate
from ..python.operators import C
from ..arrays.reductions import loops
from ..registry import CallTemplate, register

I = T.INT64
VEC = T.ArrayType(I, 1, "C")


class NonZero(CallTemplate):
    def __init__(self, name):
        self.name = name
        self.paths = (f"numpy.{name}",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or kwargs or not isinstance(args[0], T.ArrayType) \
                or args[0].ndim == 0:
            raise Incompatible(f"np.{self.name}(a) of an array of at least one dimension")
        n = args[0].ndim
        if self.name == "flatnonzero":
            return VEC
        if self.name == "argwhere":
            return T.ArrayType(I, 2, "C")
        return T.TupleType(tuple([VEC] * n))

    def lower(self, L, call, args, kwargs):
        arr = L.let(args[0])
        t = arr.type
        dims = [L.let(N.ArrayAttr(arr, "shape", k, I)) for k in range(t.ndim)]
        count = L.temp(I, "count")
        L.emit(N.Assign(target=count, value=C(0, I)))

        def counting(idx):
            nz = ops.truth(L, N.Load(arr, list(idx), t.dtype))
            L.emit(N.Assign(target=count, value=N.BinOp(
                "add", N.Var(count, I), ops.convert(L, nz, I), I)))
        loops(L, dims, counting)
        n = L.let(N.Var(count, I))
        # one row more than the count: every element's indices are stored at
        # ``pos`` and ``pos`` moves on by whether it was true -- no branch (the
        # data decide it, unpredictably); the results are views of the first n
        room = L.let(N.BinOp("add", n, C(1, I), I))
        if self.name == "flatnonzero":
            bufs = [allocate(L, VEC, [room])]
        elif self.name == "argwhere":
            bufs = [allocate(L, call.type, [room, C(t.ndim, I)])]
        else:
            bufs = [allocate(L, VEC, [room]) for _ in range(t.ndim)]
        bufs = [L.let(o) for o in bufs]
        pos = L.temp(I, "pos")
        L.emit(N.Assign(target=pos, value=C(0, I)))
        flat = L.temp(I, "flat")
        L.emit(N.Assign(target=flat, value=C(0, I)))

        def filling(idx):
            nz = ops.truth(L, N.Load(arr, list(idx), t.dtype))
            p = N.Var(pos, I)
            if self.name == "flatnonzero":
                stores = [N.Store(array=bufs[0], indices=[p], value=N.Var(flat, I)),
                          N.Assign(target=flat, value=N.BinOp("add", N.Var(flat, I),
                                                              C(1, I), I))]
            elif self.name == "argwhere":
                stores = [N.Store(array=bufs[0], indices=[p, C(k, I)], value=i)
                          for k, i in enumerate(idx)]
            else:
                stores = [N.Store(array=o, indices=[p], value=i) for o, i in zip(bufs, idx)]
            for st in stores:
                L.emit(st)
            L.emit(N.Assign(target=pos, value=N.BinOp("add", p, ops.convert(L, nz, I), I)))
        loops(L, dims, filling)
        if self.name == "argwhere":
            return L.let(N.ArrayView(bufs[0], C(0, I), [n, C(t.ndim, I)],
                                     [C(8 * t.ndim, I), C(8, I)], call.type))
        outs = [L.let(N.ArrayView(b, C(0, I), [n], [C(8, I)], VEC)) for b in bufs]
        if self.name == "flatnonzero":
            return outs[0]
        return N.MakeTuple(outs, call.type)


for _name in ("nonzero", "flatnonzero", "argwhere"):
    register(NonZero(_name))

METHODS = {"nonzero": NonZero("nonzero")}
