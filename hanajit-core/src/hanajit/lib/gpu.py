"""Typing and lowering of the GPU kernel model (``hanajit.gpu``) to primitive IR.

Thread geometry becomes ``GpuIndex``, ``shared_array`` a ``SharedArray``,
``barrier()`` a ``Barrier`` statement and the atomics an ``Assign`` of an
``Atomic`` after the same index normalisation and bounds checks as ``a[i] = v``.
Each template refuses to type in a function compiled for a target whose kind is not
``"gpu"``, so a CPU function using them falls back with a message naming the call
(and in the interpreter ``hanajit.gpu`` raises RuntimeError).
"""
from __future__ import annotations

from ..typing_rules import Incompatible
from ..ir import nodes as N
from ..ir import types as T
from .indexing import elements
from .registry import CallTemplate, register

_P = "hanajit.gpu."
SHARED_LIMIT = 48 * 1024          # bytes of static shared memory per block (CUDA)
ATOMIC_DTYPES = (T.INT32, T.INT64, T.UINT32, T.UINT64, T.FLOAT32, T.FLOAT64)


def _require_gpu(inf, name):
    if not inf.ctx.capabilities.kernel_model:
        target = inf.ctx.options.get("target") or "cpu"
        raise Incompatible(f"{name}() is a GPU kernel function and this function is "
                           f"compiled for target {target!r}; use @jit(target=\"cuda\") "
                           "and f.launch()")


class GeometryTemplate(CallTemplate):
    """``thread_id_x()`` and friends: one ``GpuIndex``."""

    def __init__(self, name, kind, axis):
        self.name, self.kind, self.axis = name, kind, axis
        self.paths = (_P + name,)

    def typer(self, inf, call, args, kwargs):
        _require_gpu(inf, self.name)
        if args or kwargs:
            raise Incompatible(f"{self.name}() takes no arguments")
        return T.INT64

    def lower(self, L, call, args, kwargs):
        return N.GpuIndex(self.kind, self.axis, T.INT64)


for _kind, _ir_kind in (("thread_id", "thread"), ("block_id", "block"),
                        ("block_dim", "block_dim"), ("grid_dim", "grid_dim")):
    for _axis, _suffix in enumerate(("_x", "_y", "_z")):
        register(GeometryTemplate(_kind + _suffix, _ir_kind, _axis))
    register(GeometryTemplate(_kind, _ir_kind, 0))


def _const_int(e):
    return isinstance(e, N.Const) and isinstance(e.value, int) and not isinstance(
        e.value, bool)


class SharedArrayTemplate(CallTemplate):
    """``shared_array(n, dtype)`` / ``shared_f64(n)``: a ``SharedArray``."""

    def __init__(self, name, dtype=None):
        self.name, self.dtype = name, dtype
        self.paths = (_P + name,)

    def typer(self, inf, call, args, kwargs):
        _require_gpu(inf, self.name)
        want = 1 if self.dtype is not None else 2
        if kwargs or len(args) != want:
            raise Incompatible(f"{self.name}() takes {want} positional argument(s)")
        n = call.args[0]
        if not _const_int(n) or n.value <= 0:
            raise Incompatible(f"{self.name}(): the size must be a positive constant "
                               "integer (a literal or a global)")
        dtype = self.dtype
        if dtype is None:
            from .arrays.creation import const_dtype
            dtype = const_dtype(args[1])
        if dtype.is_complex:
            raise Incompatible(f"{self.name}(): complex shared arrays are not "
                               "supported")
        nbytes = n.value * max(1, dtype.bits // 8)
        if nbytes > SHARED_LIMIT:
            raise Incompatible(f"{self.name}(): {nbytes} bytes exceed the "
                               f"{SHARED_LIMIT} bytes of static shared memory "
                               "per block")
        return T.ArrayType(dtype, 1, "C")

    def lower(self, L, call, args, kwargs):
        k = getattr(L.fn, "n_shared", 0)
        L.fn.n_shared = k + 1
        return N.SharedArray(f"{L.fn.name}__shared{k}", call.args[0].value, call.type)


register(SharedArrayTemplate("shared_array"))
for _name, _dt in (("shared_f64", T.FLOAT64), ("shared_f32", T.FLOAT32),
                   ("shared_i64", T.INT64), ("shared_i32", T.INT32),
                   ("shared_u64", T.UINT64), ("shared_u32", T.UINT32)):
    register(SharedArrayTemplate(_name, _dt))


@register
class BarrierTemplate(CallTemplate):
    """``barrier()``: a ``Barrier`` statement."""

    paths = (_P + "barrier",)

    def typer(self, inf, call, args, kwargs):
        _require_gpu(inf, "barrier")
        if args or kwargs:
            raise Incompatible("barrier() takes no arguments")
        return T.NONE

    def lower(self, L, call, args, kwargs):
        L.emit(N.Barrier())
        return N.Const(None, T.NONE)


class AtomicTemplate(CallTemplate):
    """``atomic_<op>(array, index, [compare,] value)``: checked index, then an
    ``Assign`` of an ``Atomic`` (the old value)."""

    def __init__(self, op):
        self.op = op
        self.name = f"atomic_{op}"
        self.paths = (_P + self.name,)

    def typer(self, inf, call, args, kwargs):
        _require_gpu(inf, self.name)
        want = 4 if self.op == "cas" else 3
        if kwargs or len(args) != want:
            raise Incompatible(f"{self.name}() takes {want} positional arguments")
        arr, idx, vals = args[0], args[1], args[2:]
        if not isinstance(arr, T.ArrayType):
            raise Incompatible(f"{self.name}(): the first argument must be an array, "
                               f"not {arr}")
        if arr.readonly:
            raise Incompatible(f"{self.name}(): the array is read-only")
        if arr.dtype not in ATOMIC_DTYPES:
            raise Incompatible(f"{self.name}() on {arr.dtype} elements; supported: "
                               + ", ".join(map(str, ATOMIC_DTYPES)))
        items = idx.items if isinstance(idx, T.TupleType) else (idx,)
        if len(items) != arr.ndim or not all(
                isinstance(i, T.Scalar) and (i.is_int or i.is_bool) for i in items):
            raise Incompatible(f"{self.name}(): the index of a {arr.ndim}-D array "
                               f"must be {arr.ndim} integer(s), not {idx}")
        for v in vals:
            if not isinstance(v, T.Scalar) or v.is_complex:
                raise Incompatible(f"{self.name}(): the value must be a real number, "
                                   f"not {v}")
        return arr.dtype

    def lower(self, L, call, args, kwargs):
        arr, idx, vals = args[0], args[1], args[2:]
        dtype = arr.type.dtype
        idxs = elements.index_values(L, idx, call.args[1].type)
        arr = L.let(arr)
        idxs = elements.checked_indices(L, arr, idxs)
        vals = [L.let(elements.element_value(L, v, dtype)) for v in vals]
        compare, value = (vals[0], vals[1]) if self.op == "cas" else (None, vals[0])
        name = L.temp(dtype, "old")
        L.emit(N.Assign(target=name, value=N.Atomic(self.op, arr, idxs, value, compare,
                                                    dtype)))
        return N.Var(name, dtype)


for _op in ("add", "min", "max", "cas"):
    register(AtomicTemplate(_op))
