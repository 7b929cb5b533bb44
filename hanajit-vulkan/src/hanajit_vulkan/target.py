"""The ``vulkan`` target: typed IR -> SPIR-V compute shader; launch through the
``vulkan`` package (cffi over ``libvulkan.so.1``).

Stages: ``"llvm"`` (optimised SPIR-V LLVM IR) and ``"spirv"`` (the binary);
``inspect_gpu()`` shows its disassembly (``spirv-dis``).  Compiling needs neither
a GPU nor the Vulkan loader; launching loads both on the first launch.
"""
from __future__ import annotations

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

    # -- running -----------------------------------------------------------------------
    def launcher(self):
        if self._launcher is None:
            from .launch import Launcher
            from .runtime import get_runtime
            self._launcher = Launcher(get_runtime(), self)
        return self._launcher

    @property
    def typeof(self):
        from .launch import device_typeof
        return device_typeof

    def launch(self, artifact, args, grid=None, block=None, stream=None, sync=True):
        return self.launcher().launch(artifact, args, grid, block, sync)

    def to_device(self, array, stream=None):
        import numpy as np

        from .devicearray import DeviceArray
        if not isinstance(array, np.ndarray):
            raise TypeError(f"to_device takes a NumPy array, not {type(array).__name__}")
        lau = self.launcher()
        return DeviceArray.from_host(lau.rt, array, lau.synchronize)

    def synchronize(self):
        if self._launcher is not None:
            self._launcher.synchronize()

    def assembly(self, artifact) -> str:
        text = tools.disassemble(artifact.stages["spirv"])
        if text is None:
            return ("; spirv-dis not found (Debian: spirv-tools); optimised LLVM IR:\n"
                    + artifact.stages["llvm"])
        return text
