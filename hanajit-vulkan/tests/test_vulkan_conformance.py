"""The GPU kernel case list on Vulkan: launched on the Vulkan device (lavapipe
here) with VK_LAYER_KHRONOS_validation on (``conftest.py``), each result compared with the
interpreter; every module also passes ``spirv-val --target-env vulkan1.3``."""
from __future__ import annotations

import pytest

from hanajit.errors import UnsupportedError
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

    @pytest.mark.parametrize("name", ["transcendental"])
    def test_kernel_float64_math_refused(self, name):
        """float64 exp/sin/log1p: Vulkan's GLSL.std.450 is 32-bit only; refused by
        capability until core supplies a software float64 library."""
        with pytest.raises(UnsupportedError, match="capability"):
            super().test_kernel(name)

    # every case but the float64 transcendentals (refused, above)
    @pytest.mark.parametrize("name", sorted(set(KERNELS) - {"transcendental"}))
    def test_kernel(self, name):
        super().test_kernel(name)
