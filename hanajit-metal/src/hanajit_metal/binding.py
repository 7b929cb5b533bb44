"""From the generic launcher's parameter slots to a Metal kernel's buffers.

``hanajit.launch.Launcher`` flattens the arguments into 8-byte slots (slot 0 the
error record, then per array its data handle, shape and byte strides, per scalar
its bits, floats as float64).  A Metal kernel (``hanajit.toolkit.c_kernel``)
takes buffer 0 = the error record, one buffer per array's data, then one buffer
of 8-byte slots with the shapes, strides and scalars in the same order -- a float
slot holding a float32 (Metal has no double): :func:`plan` converts.

With ``metal_float64="demote"`` a float64 array is computed on as float32: the
kernel reads element ``byte offset / 8`` of a float32 buffer, so the driver
binds a float32 copy of the array's extent (:class:`ArrayBinding.demote`) and
copies it back, widened, after the kernel.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hanajit.ir import types as T
from hanajit.lowering.cabi import flat_kinds


@dataclass
class ArrayBinding:
    """One array argument's data: the driver handle of element 0, and -- for a
    demoted float64 array -- the byte extent [lo, hi) of its elements."""

    ptr: int
    demote: bool = False
    lo: int = 0
    hi: int = 0


def plan(metadata: dict, values) -> tuple[int, list, np.ndarray]:
    """``(error record handle, [ArrayBinding], slots)`` of one launch: ``values``
    are the launcher's ``Params.values``; ``slots`` the int64 buffer the kernel
    reads its shapes, strides and scalars from (never empty)."""
    demote = metadata.get("float64") == "demote"
    raw = np.frombuffer(memoryview(values).cast("B"), dtype=np.int64)
    arrays, slots = [], []
    s = 1
    for t in metadata["arg_types"]:
        if isinstance(t, T.ArrayType):
            nd = t.ndim
            ptr = int(raw[s]) & 0xFFFFFFFFFFFFFFFF
            shape = [int(x) for x in raw[s + 1:s + 1 + nd]]
            strides = [int(x) for x in raw[s + 1 + nd:s + 1 + 2 * nd]]
            s += 1 + 2 * nd
            slots += shape + strides
            b = ArrayBinding(ptr)
            if demote and t.dtype == T.FLOAT64:
                lo = hi = ptr
                for n, st in zip(shape, strides):
                    if n == 0:
                        lo = hi = ptr
                        break
                    if st < 0:
                        lo += (n - 1) * st
                    else:
                        hi += (n - 1) * st
                b = ArrayBinding(ptr, True, lo, hi + 8)
            arrays.append(b)
            continue
        for leaf in flat_kinds(t):
            bits = int(raw[s])
            if leaf.is_float:
                f32 = np.float32(np.int64(bits).view(np.float64))
                bits = int(f32.view(np.uint32))
            slots.append(bits)
            s += 1
    return int(raw[0]) & 0xFFFFFFFFFFFFFFFF, arrays, np.array(slots or [0], np.int64)


def demote_out(host_f64: np.ndarray) -> np.ndarray:
    """float64 bytes of an extent as the float32 buffer the kernel reads."""
    with np.errstate(over="ignore"):
        return host_f64.astype(np.float32)
