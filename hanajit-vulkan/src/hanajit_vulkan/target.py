"""The ``vulkan`` target: typed IR -> SPIR-V compute shader; launch through the
``vulkan`` package (cffi over ``libvulkan.so.1``).

Stages: ``"llvm"`` (optimised SPIR-V LLVM IR) and ``"spirv"`` (the binary);
``inspect_gpu()`` shows its disassembly (``spirv-dis``).  Compiling needs neither
a GPU nor the Vulkan loader; launching loads both on the first launch.
"""
from __future__ import annotations

from hanajit.lowering.kernel_logical import ERR_BYTES
from hanajit.target import Artifact, Capabilities, Target

from . import codegen, tools


class VulkanTarget(Target):
    name = "vulkan"
    description = ("Vulkan compute shaders: SPIR-V through LLVM, launched with the "
                   "vulkan package (lavapipe runs them on the CPU)")
    stages = ("llvm", "spirv")
    kind = "gpu"
    # no float64 transcendentals and no C library on the device (c_math); i32/f32
    # atomics only (the row's atomic_rmw)
    capabilities = Capabilities(kernel_model=True, shared_memory=True, atomics=True,
                                c_math=False, complex=False)

    def __init__(self):
        self._launcher = None

    # -- status and doctor -------------------------------------------------------------
    def status(self):
        try:
            from .runtime import get_runtime
            rt = get_runtime()
        except Exception as exc:
            return False, f"cannot launch: {exc}"
        return True, rt.device_name

    def doctor(self, report):
        from .doctor import run_checks
        run_checks(report)

    # -- codegen -----------------------------------------------------------------------
    def compile(self, module, options) -> Artifact:
        size = codegen.local_size()
        out = codegen.compile_kernel(module, size, self.capabilities)
        entry = module.functions[module.entry]
        return Artifact(target=self.name, entry=codegen.KERNEL,
                        stages={"llvm": out["llvm"], "spirv": out["spirv"]},
                        metadata={"raises": list(module.raises), "name": entry.pyname,
                                  "params": out["params"],
                                  "arg_types": tuple(entry.arg_types),
                                  "local_size": size,
                                  "error_bytes": ERR_BYTES,
                                  # re-lowered per workgroup size at launch
                                  "module": module,
                                  "shaders": {size: out["spirv"]}})

    def shader(self, artifact, size) -> bytes:
        """The SPIR-V of ``artifact`` for workgroup ``size`` (compiled once each)."""
        shaders = artifact.metadata["shaders"]
        if size not in shaders:
            shaders[size] = codegen.compile_kernel(artifact.metadata["module"], size,
                                                   self.capabilities)["spirv"]
        return shaders[size]

    # -- running (core's launcher over the Vulkan driver) -----------------------------
    def launcher(self):
        if self._launcher is None:
            from hanajit.launch.launcher import Launcher

            from .driver import VulkanDriver
            from .runtime import get_runtime
            self._launcher = Launcher(VulkanDriver(get_runtime(), self))
        return self._launcher

    @property
    def typeof(self):
        from hanajit.launch.launcher import make_typeof
        return make_typeof()

    def launch(self, artifact, args, grid=None, block=None, stream=None, sync=True):
        launcher = self._launcher or self.launcher()
        return launcher.launch(artifact, args, grid, block, stream, sync)

    def to_device(self, array, stream=None):
        return self.launcher().to_device(array, stream)

    def synchronize(self):
        if self._launcher is not None:
            self._launcher.synchronize()

    def assembly(self, artifact) -> str:
        text = tools.disassemble(artifact.stages["spirv"])
        if text is None:
            return ("; spirv-dis not found (Debian: spirv-tools); optimised LLVM IR:\n"
                    + artifact.stages["llvm"])
        return text
