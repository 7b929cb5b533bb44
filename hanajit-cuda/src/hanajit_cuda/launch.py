"""Launching on CUDA: core's launcher (:mod:`hanajit.launch.launcher`) over the
CUDA driver, with CUDA's device arrays and streams.

Everything a launch does -- geometry, parameters, copies, the error record -- is
core's; this module supplies what is CUDA's: :class:`DeviceArray` with
``__cuda_array_interface__``, foreign arrays through that interface, and
:func:`to_stream` (streams of cuda-bindings, CuPy, PyTorch, Numba).
"""
from __future__ import annotations

from hanajit.launch.launcher import make_typeof

from .devicearray import DeviceArray, interface

device_typeof = make_typeof(DeviceArray, interface)


def to_stream(driver, stream):
    """A ``CUstream`` from None, an int handle, a cuda-bindings stream, or a CuPy /
    PyTorch / Numba stream object."""
    if stream is None:
        return None
    cu = driver.cu
    if isinstance(stream, cu.CUstream):
        return stream
    for attr in ("ptr", "cuda_stream", "handle"):
        h = getattr(stream, attr, None)
        if h is not None:
            stream = getattr(h, "value", h) or 0
            break
    return cu.CUstream(int(stream))
