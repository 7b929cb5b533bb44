"""The ``metal`` target: typed IR -> Metal Shading Language; launch through
Metal.framework (PyObjC, macOS) or, elsewhere, the C++ simulation (``sim``).

Stage ``"msl"``: the kernel source.  Compiling needs nothing; launching needs
macOS with ``pyobjc-framework-Metal`` or, for the simulation, g++.
"""
from __future__ import annotations

from hanajit.launch.gpu_target import GpuTarget
from hanajit.target import Artifact, Capabilities



class MetalTarget(GpuTarget):
    name = "metal"
    description = "Apple GPUs: Metal Shading Language, launched with Metal.framework"
    stages = ("msl",)
    # no double, no complex; math through metal:: (the functions it has)
    capabilities = Capabilities(kernel_model=True, shared_memory=True, atomics=True,
                                c_math=True, float64=False, complex=False)
    options = {"metal_float64": "refuse"}

    def compile(self, module, options) -> Artifact:
        from hanajit.lowering.kernel_lower import param_kinds
        from . import codegen                   # the C-family emitter: on first use
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
    def doctor(self, report):
        from .doctor import run_checks
        run_checks(report)

    # -- running (core's launcher over the Metal or simulation driver) ---------------
    def make_driver(self):
        from . import drivers
        return drivers.get_driver()
