"""The ``cuda`` target: typed IR -> NVPTX LLVM IR -> PTX; launch through the driver.

Stages: ``"llvm"`` (optimised NVPTX LLVM IR, libdevice linked) and ``"ptx"``.
Compiling needs no GPU and no driver (only libdevice when the kernel uses
transcendentals); launching needs the NVIDIA driver and ``cuda-bindings``, both
loaded on the first launch.
"""
from __future__ import annotations

from hanajit.launch.gpu_target import GpuTarget
from hanajit.target import Artifact, Capabilities

from . import toolchain


class CudaTarget(GpuTarget):
    name = "cuda"
    description = "NVIDIA GPUs: PTX through LLVM NVPTX, launched with the CUDA driver"
    stages = ("llvm", "ptx")
    # math through libdevice
    capabilities = Capabilities(kernel_model=True, shared_memory=True, atomics=True,
                                c_math=True)

    # -- status and doctor -------------------------------------------------------------
    def describe(self, d) -> str:
        return f"{d.name} (sm_{d.capability[0]}{d.capability[1]})"

    def doctor(self, report):
        from .doctor import run_checks
        run_checks(report)

    # -- codegen -----------------------------------------------------------------------
    def compile(self, module, options) -> Artifact:
        from .codegen import KERNEL, lower_kernel, param_kinds
        from .ptx import emit_function
        arch = toolchain.gpu_arch(options)
        entry = module.functions[module.entry]
        text, uses_libdevice = lower_kernel(module)
        out = emit_function(entry, text, uses_libdevice, arch)
        return Artifact(target=self.name, entry=KERNEL,
                        stages={"llvm": out["llvm"], "ptx": out["ptx"]},
                        metadata={"raises": list(module.raises), "arch": arch,
                                  "name": entry.pyname, "params": param_kinds(entry),
                                  "arg_types": tuple(entry.arg_types),
                                  "libdevice": out["libdevice"]})

    def compile_single_thread(self, module, arch: str | None = None):
        """A one-thread kernel that calls the module's entry once and stores the
        result and raise record in a device buffer (``single_thread``; used by
        ``export_executable(cuda=...)``)."""
        from .single_thread import compile_single_thread
        return compile_single_thread(module, arch)

    def assembly(self, artifact) -> str:
        return artifact.stages["ptx"]

    # -- running (core's launcher over the CUDA driver) --------------------------------
    def make_driver(self):
        from .driver import get_driver
        return get_driver()

    @property
    def typeof(self):
        from .launch import device_typeof      # with __cuda_array_interface__
        return device_typeof
