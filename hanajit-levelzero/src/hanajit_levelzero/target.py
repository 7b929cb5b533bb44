"""The ``levelzero`` target (alias ``intel``): typed IR -> OpenCL-flavoured SPIR-V;
launch through Level Zero.

Stages: ``"llvm"`` (optimised SPIR-V-flavoured LLVM IR) and ``"spirv"`` (the
module's bytes; ``inspect_gpu()`` shows it disassembled).  Compiling needs only
llvmlite; launching loads ``libze_loader.so.1`` on the first launch.
"""
from __future__ import annotations

from hanajit.launch.gpu_target import GpuTarget
from hanajit.target import Artifact, Capabilities


class LevelZeroTarget(GpuTarget):
    name = "levelzero"
    aliases = ("intel",)
    description = ("Intel GPUs: OpenCL SPIR-V through LLVM, launched with Level Zero "
                   "(or an OpenCL device)")
    stages = ("llvm", "spirv")
    # math through the OpenCL builtins (OpenCL.std); float64 on devices with fp64
    capabilities = Capabilities(kernel_model=True, shared_memory=True, atomics=True,
                                c_math=True)

    def __init__(self):
        super().__init__()
        self._launchers: dict = {}       # runtime name -> core's Launcher

    # -- status and doctor -------------------------------------------------------------
    def status(self):
        from .runtime import probe
        return probe()

    def doctor(self, report):
        from .doctor import run_checks
        run_checks(report)

    # -- codegen -----------------------------------------------------------------------
    def compile(self, module, options) -> Artifact:
        from hanajit.lowering.kernel_lower import param_kinds

        from .codegen import KERNEL, can_raise, emit_spirv, kernel_uses, lower_kernel
        entry = module.functions[module.entry]
        out = emit_spirv(lower_kernel(module, self.capabilities))
        return Artifact(target=self.name, entry=KERNEL,
                        stages={"llvm": out["llvm"], "spirv": out["spirv"]},
                        metadata={"raises": list(module.raises), "name": entry.pyname,
                                  "params": param_kinds(entry),
                                  "arg_types": tuple(entry.arg_types),
                                  "uses": kernel_uses(module),
                                  "can_raise": can_raise(out["llvm"])})

    def assembly(self, artifact) -> str:
        """The SPIR-V disassembled by ``spirv-dis``; without it, the optimised
        LLVM IR the module was emitted from."""
        from .spirv_tools import disassemble
        text = disassemble(artifact.stages["spirv"])
        if text is None:
            return ("; spirv-dis not found (apt-get install spirv-tools): the LLVM IR "
                    "of the SPIR-V module\n" + artifact.stages["llvm"])
        return text

    # -- running (core's launcher over the selected runtime's driver) -----------------
    def make_driver(self):
        from .runtime import get_driver
        return get_driver()

    def launcher(self):
        """Core's launcher over the selected runtime's driver (one per runtime:
        ``HANAJIT_LEVELZERO_RUNTIME`` may change between launches)."""
        from hanajit.launch.launcher import Launcher

        from .runtime import runtime
        name = runtime()
        lau = self._launchers.get(name)
        if lau is None:
            lau = self._launchers[name] = Launcher(self.make_driver())
        return lau

    def forget_launchers(self) -> None:
        """Drop the launchers and the drivers they hold: the next launch opens the
        runtime again.  For tests that swap the loader."""
        from . import opencl_driver, ze_driver
        self._launchers.clear()
        ze_driver.forget()
        opencl_driver.forget()

    def synchronize(self):
        from hanajit.errors import TargetError

        from .runtime import runtime
        try:
            lau = self._launchers.get(runtime())
        except TargetError:
            return                  # a bad HANAJIT_LEVELZERO_RUNTIME: nothing launched
        if lau is not None:
            lau.synchronize()
