"""The ``cuda`` target: typed IR -> NVPTX LLVM IR -> PTX; launch through the driver.

Stages: ``"llvm"`` (optimised NVPTX LLVM IR, libdevice linked) and ``"ptx"``.
Compiling needs no GPU and no driver (only libdevice when the kernel uses
transcendentals); launching needs the NVIDIA driver and ``cuda-bindings``, both
loaded on the first launch.
"""
from __future__ import annotations

from hanajit.errors import TargetError
from hanajit.target import Artifact, Capabilities, Target

from . import toolchain


class CudaTarget(Target):
    name = "cuda"
    description = "NVIDIA GPUs: PTX through LLVM NVPTX, launched with the CUDA driver"
    stages = ("llvm", "ptx")
    kind = "gpu"
    # math through libdevice
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
        return True, f"{d.name} (sm_{d.capability[0]}{d.capability[1]})"

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

    # -- running -----------------------------------------------------------------------
    def launcher(self):
        if self._launcher is None:
            from .driver import get_driver
            from .launch import Launcher
            self._launcher = Launcher(get_driver())
        return self._launcher

    @property
    def typeof(self):
        """The IR type of a launch argument (NumPy or device array, scalar): a plain
        function, which ``launch`` keeps and calls once per argument."""
        from .launch import device_typeof
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
