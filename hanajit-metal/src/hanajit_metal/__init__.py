"""hanajit-metal: the ``metal`` target -- GPU kernels as Metal Shading Language.

The kernel is printed by the core's C-family emitter in its MSL dialect
(``hanajit.toolkit.c_kernel``); on macOS it is compiled by Metal.framework and
launched through PyObjC (``pyobjc_driver``); elsewhere launches run in a C++
simulation of Metal (``sim``), compiled with g++ -- see ``docs/gpu.md``.
"""
from .target import MetalTarget

__all__ = ["MetalTarget"]
