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

from hanajit.errors import TargetError
from hanajit.target import Artifact, Capabilities, Target

from . import toolchain


class HipTarget(Target):
    name = "hip"
    aliases = ("amd",)
    description = "AMD GPUs: AMDGPU code objects through LLVM, launched with HIP"
    stages = ("llvm", "hsaco")
    kind = "gpu"
    # math through ROCm's device libraries (ocml)
    capabilities = Capabilities(kernel_model=True, shared_memory=True, atomics=True,
                                c_math=True)

    def __init__(self):
        self._launcher = None

    # -- status and doctor -------------------------------------------------------------
    def status(self):
        try:
            from .driver import get_driver
            d = get_driver()
        except Exception as exc:
            return False, f"cannot launch: {exc}"
        return True, f"{d.name} ({d.arch})"

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

    # -- running (core's launcher over the HIP runtime) --------------------------------
    def launcher(self):
        if self._launcher is None:
            from hanajit.launch.launcher import Launcher

            from .driver import get_driver
            self._launcher = Launcher(get_driver())
        return self._launcher

    @property
    def typeof(self):
        """The IR type of a launch argument (NumPy or device array, foreign device
        array, scalar): a plain function, which ``launch`` keeps and calls once
        per argument."""
        from .driver import device_typeof
        return device_typeof

    def launch(self, artifact, args, grid=None, block=None, stream=None, sync=True):
        launcher = self._launcher or self.launcher()
        return launcher.launch(artifact, args, grid, block, stream, sync)

    def to_device(self, array, stream=None):
        return self.launcher().to_device(array, stream)

    def synchronize(self):
        if self._launcher is None:
            try:
                self.launcher()
            except TargetError:
                return              # nothing can have been launched
        self._launcher.synchronize()
