"""hanajit's HIP target: ``@jit(target="hip")`` (or ``"amd"``) kernels as AMDGPU
code objects, run with ``launch``.

Importing this package loads neither LLVM nor the HIP runtime.
"""
from __future__ import annotations

__all__ = ["HipTarget"]


def __getattr__(name):
    if name == "HipTarget":
        from .target import HipTarget
        return HipTarget
    raise AttributeError(name)
