"""Every Vulkan test runs with VK_LAYER_KHRONOS_validation: the runtime collects
its error messages and a launch that caused one fails (``runtime.ValidationError``)."""
import os

os.environ.setdefault("HANAJIT_VULKAN_VALIDATION", "1")
