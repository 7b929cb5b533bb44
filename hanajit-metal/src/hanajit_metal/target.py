"""The ``metal`` target: typed IR -> Metal Shading Language; launch through
Metal.framework (PyObjC, macOS) or, elsewhere, the C++ simulation (``sim``).

Stage ``"msl"``: the kernel source.  Compiling needs nothing; launching needs
macOS with ``pyobjc-framework-Metal`` or, for the simulation, g++.
"""
from __future__ import annotations

from hanajit.errors import TargetError
from hanajit.target import Artifact, Capabilities, Target

from . import codegen, drivers


class MetalTarget(Target):
    name = "metal"
    description = "Apple GPUs: Metal Shading Language, launched with Metal.framework"
    stages = ("msl",)
    kind = "gpu"
    # no double, no complex; math through metal:: (the functions it has)
    capabilities = Capabilities(kernel_model=True, shared_memory=True, atomics=True,
                                c_math=True, float64=False, complex=False)
    options = {"metal_float64": "refuse"}

    def __init__(self):
        self._launcher = None

    def compile(self, module, options) -> Artifact:
        from hanajit.lowering.kernel_lower import param_kinds
        src = codegen.emit_msl(module, self.capabilities, options)
        entry = module.functions[module.entry]
        return Artifact(target=self.name, entry=src.entry, stages={"msl": src.text},
                        metadata={"raises": list(module.raises), "name": entry.pyname,
                                  "params": param_kinds(entry),
                                  "arg_types": tuple(entry.arg_types),
                                  "buffers": src.buffers, "shared": src.shared,
                                  "barriers": codegen.uses_barrier(module),
                                  "float64": codegen.float64_mode(options)})

    def assembly(self, artifact) -> str:
        return artifact.stages["msl"]

    # -- status and doctor -------------------------------------------------------------
    def status(self):
        try:
            d = drivers.get_driver()
        except Exception as exc:
            return False, f"cannot launch: {exc}"
        return True, d.name

    def doctor(self, report):
        from .doctor import run_checks
        run_checks(report)

    # -- running -----------------------------------------------------------------------
    def launcher(self):
        if self._launcher is None:
            from hanajit.launch.launcher import Launcher
            self._launcher = Launcher(drivers.get_driver())
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
        if self._launcher is None:
            try:
                self.launcher()
            except TargetError:
                return              # nothing can have been launched
        self._launcher.synchronize()
