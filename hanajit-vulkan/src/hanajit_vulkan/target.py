"""The ``vulkan`` target: typed IR -> SPIR-V compute shader; launch through the
``vulkan`` package (cffi over ``libvulkan.so.1``).

Stages: ``"llvm"`` (optimised SPIR-V LLVM IR) and ``"spirv"`` (the binary);
``inspect_gpu()`` shows its disassembly (``spirv-dis``).  Compiling needs neither
a GPU nor the Vulkan loader; launching loads both on the first launch.
"""
from __future__ import annotations

from hanajit.launch.gpu_target import GpuTarget
from hanajit.target import Artifact, Capabilities



class VulkanTarget(GpuTarget):
    name = "vulkan"
    description = ("Vulkan compute shaders: SPIR-V through LLVM, launched with the "
                   "vulkan package (lavapipe runs them on the CPU)")
    stages = ("llvm", "spirv")
    # no float64 transcendentals (core's software ones are compiled in:
    # float64_math=False) and no C library on the device (c_math); i32/f32 atomics
    # only (the row's atomic_rmw)
    capabilities = Capabilities(kernel_model=True, shared_memory=True, atomics=True,
                                c_math=False, complex=False, float64_math=False,
                                structured_control_flow=True)

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
        from hanajit.lowering.kernel_logical import ERR_BYTES   # LLVM: on first use

        from . import codegen
        size = codegen.local_size()
        out = codegen.compile_kernel(module, size, self.capabilities)
        entry = module.functions[module.entry]
        refuse_invalid(entry, out["spirv"])
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
            from . import codegen
            shaders[size] = codegen.compile_kernel(artifact.metadata["module"], size,
                                                   self.capabilities)["spirv"]
        return shaders[size]

    # -- running (core's launcher over the Vulkan driver) -----------------------------
    def make_driver(self):
        from .driver import VulkanDriver
        from .runtime import get_runtime
        return VulkanDriver(get_runtime(), self)

    def assembly(self, artifact) -> str:
        from . import tools
        text = tools.disassemble(artifact.stages["spirv"])
        if text is None:
            return ("; spirv-dis not found (Debian: spirv-tools); optimised LLVM IR:\n"
                    + artifact.stages["llvm"])
        return text


def refuse_invalid(entry, spirv: bytes) -> None:
    """An ``UnsupportedError`` naming the kernel when ``spirv-val`` rejects the
    module LLVM's SPIR-V backend made (where the validator is installed):
    LLVM 22's structuriser may still give invalid modules for some control
    flow (docs/gpu.md; ``codegen.compile_kernel`` already tried a second
    arrangement of the returns), and a driver handed one may crash or compute
    garbage.  The one place that
    decides; without ``spirv-val`` nothing is checked offline."""
    from hanajit.errors import UnsupportedError

    from . import tools
    if tools.find("spirv-val") is None:
        return
    ok, msg = tools.validate(spirv)
    if ok:
        return
    first = next((line for line in msg.splitlines() if line.strip()), msg)
    raise UnsupportedError(
        f"{entry.pyname}: LLVM's SPIR-V backend made a module spirv-val rejects for "
        f"Vulkan ({first.strip()}); this control flow does not compile for Vulkan "
        "yet (docs/gpu.md)", func=entry.pyname, construct="SPIR-V control flow")
