"""hanajit's Level Zero target: ``@jit(target="levelzero")`` (or ``"intel"``) kernels
as OpenCL-flavoured SPIR-V, run with ``launch`` through Level Zero -- or, where
no Level Zero driver exists, through an OpenCL device (``HANAJIT_LEVELZERO_RUNTIME
=opencl``).

Importing this package loads neither LLVM nor any driver.
"""
from __future__ import annotations

__all__ = ["LevelZeroTarget"]


def __getattr__(name):
    if name == "LevelZeroTarget":
        from .target import LevelZeroTarget
        return LevelZeroTarget
    raise AttributeError(name)
