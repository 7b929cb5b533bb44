"""The ``hip`` target: typed IR -> AMDGPU LLVM IR -> code objects; launch through
the HIP runtime.

Stages: ``"llvm"`` (optimised AMDGPU LLVM IR of the first architecture, device
libraries linked; every architecture's in ``metadata["llvm"]``) and ``"hsaco"``
(``{arch: code object bytes}``, one per ``gpu_arch``).  Compiling needs no GPU
and no HIP runtime (``ld.lld``, and ROCm's device libraries when the kernel uses
transcendentals); launching needs ``libamdhip64`` and a device, both loaded on
the first launch.
"""
from __future__ import annotations

from hanajit.launch.gpu_target import GpuTarget
from hanajit.target import Artifact, Capabilities

from . import toolchain


class HipTarget(GpuTarget):
    name = "hip"
    aliases = ("amd",)
    description = "AMD GPUs: AMDGPU code objects through LLVM, launched with HIP"
    stages = ("llvm", "hsaco")
    # math through ROCm's device libraries (ocml)
    capabilities = Capabilities(kernel_model=True, shared_memory=True, atomics=True,
                                c_math=True)

    # -- status and doctor -------------------------------------------------------------
    def describe(self, d) -> str:
        return f"{d.name} ({d.arch})"

    def doctor(self, report):
        from .doctor import run_checks
        run_checks(report)

    # -- codegen -----------------------------------------------------------------------
    def compile(self, module, options) -> Artifact:
        from . import hsaco
        from .codegen import KERNEL, lower_kernel, param_kinds
        archs = toolchain.gpu_archs(options)
        entry = module.functions[module.entry]
        text, ocml = lower_kernel(module, self.capabilities)
        out = hsaco.build(entry, text, ocml, archs)
        return Artifact(target=self.name, entry=KERNEL,
                        stages={"llvm": out["llvm"][archs[0]], "hsaco": out["hsaco"]},
                        metadata={"raises": list(module.raises), "archs": list(archs),
                                  "name": entry.pyname, "params": param_kinds(entry),
                                  "arg_types": tuple(entry.arg_types),
                                  "llvm": out["llvm"], "ocml": ocml,
                                  "device_libs": out["device_libs"]})

    def assembly(self, artifact) -> str:
        from .code_object import describe
        return describe(artifact)

    # -- running (core's launcher) ------------------------------------------------------
    def make_driver(self):
        from .driver import get_driver
        return get_driver()

    @property
    def typeof(self):
        from .driver import device_typeof     # foreign arrays by their interface
        return device_typeof
