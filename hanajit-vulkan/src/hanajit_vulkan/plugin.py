"""Entry point of the ``vulkan`` target plugin."""
from hanajit import hookimpl

from .target import VulkanTarget


@hookimpl
def hanajit_register_target(register):
    register(VulkanTarget)
