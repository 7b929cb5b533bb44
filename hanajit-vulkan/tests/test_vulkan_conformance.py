"""The GPU kernel case list on Vulkan: launched on the Vulkan device (lavapipe
here) with VK_LAYER_KHRONOS_validation on (``conftest.py``), each result compared with the
interpreter; every module also passes ``spirv-val --target-env vulkan1.3``."""
from __future__ import annotations

import pytest

from hanajit.testing.cases_kernels import KERNELS
from hanajit.testing.conformance import KernelConformance
from hanajit_vulkan import tools


class TestVulkanKernelConformance(KernelConformance):
    target = "vulkan"

    def validate(self, assembly: str) -> bool:
        if tools.find("spirv-val") is None or tools.find("spirv-as") is None:
            return False
        ok, msg = tools.validate(tools.assemble(assembly))
        assert ok, msg
        return True

    # every case, the float64 transcendentals too (core's software math)
    @pytest.mark.parametrize("name", sorted(KERNELS))
    def test_kernel(self, name):
        super().test_kernel(name)
