"""Foreign device arrays through ``__cuda_array_interface__`` (version 3): CuPy,
PyTorch and Numba arrays -- on NVIDIA, and on AMD GPUs, where CuPy and PyTorch
publish the same interface -- are used in place, without a copy."""
from __future__ import annotations

import numpy as np


def c_strides(shape, itemsize: int) -> tuple:
    """The byte strides of a C-contiguous array of ``shape``."""
    strides, step = [], itemsize
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


def cuda_array_interface(obj) -> dict | None:
    """The ``__cuda_array_interface__`` of ``obj`` normalised (or None): ``ptr``,
    ``shape``, ``strides`` (bytes, C-order ones filled in), ``dtype``, ``readonly``."""
    cai = getattr(obj, "__cuda_array_interface__", None)
    if cai is None:
        return None
    dtype = np.dtype(cai["typestr"])
    if "descr" in cai and len(cai["descr"]) > 1:
        raise TypeError("structured device arrays are not supported")
    shape = tuple(int(n) for n in cai["shape"])
    strides = cai.get("strides")
    if strides is None:
        strides = c_strides(shape, dtype.itemsize)
    ptr, readonly = cai["data"]
    if cai.get("mask") is not None:
        raise TypeError("masked device arrays are not supported")
    return {"ptr": int(ptr or 0), "shape": shape,
            "strides": tuple(int(s) for s in strides), "dtype": dtype,
            "readonly": bool(readonly)}


def no_interface(obj) -> None:
    """For drivers whose device has no foreign-array protocol."""
    return None
