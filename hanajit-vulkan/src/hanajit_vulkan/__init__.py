"""hanajit's Vulkan target: ``@jit(target="vulkan")`` kernels as SPIR-V compute
shaders, run with ``launch`` through the ``vulkan`` package.

Importing this package loads neither LLVM nor the Vulkan loader.
"""
from __future__ import annotations

__all__ = ["VulkanTarget"]


def __getattr__(name):
    if name == "VulkanTarget":
        from .target import VulkanTarget
        return VulkanTarget
    raise AttributeError(name)
