"""hanajit's CUDA target: ``@jit(target="cuda")`` kernels as PTX, run with ``launch``.

Importing this package loads neither LLVM nor the CUDA driver.
"""
from __future__ import annotations

__all__ = ["CudaTarget", "DeviceArray"]


def __getattr__(name):
    if name == "CudaTarget":
        from .target import CudaTarget
        return CudaTarget
    if name == "DeviceArray":
        from .devicearray import DeviceArray
        return DeviceArray
    raise AttributeError(name)
