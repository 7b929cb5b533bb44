"""The host CPU target: typed IR -> LLVM IR -> optimised object -> in-process code.

Stages: ``"llvm"`` (optimised LLVM IR text) and ``"obj"`` (the host object file,
which is also what the disk cache stores).
"""
from __future__ import annotations

from hanajit.target import Artifact, Target


class CpuTarget(Target):
    name = "cpu"
    description = "host CPU through LLVM (ORC JIT, in-process)"
    stages = ("llvm", "obj")
    kind = "host"

    def status(self):
        try:
            from .engine import get_engine
            eng = get_engine()
        except Exception as exc:          # pragma: no cover - llvmlite broken
            return False, f"LLVM unavailable: {exc}"
        return True, f"{eng.triple}, cpu {eng.cpu}"

    def doctor(self, report):
        ok, reason = self.status()
        report.check("cpu target: LLVM host engine", ok, reason)
        if not ok:
            return
        try:
            import hanajit

            @hanajit.jit(fallback=False)
            def _doctor_probe(n):
                s = 0
                for i in range(n):
                    s += i * i
                return s

            got = _doctor_probe(100)
            report.check("cpu target: compile and run a loop", got == 328350, f"sum = {got}")
        except Exception as exc:
            report.check("cpu target: compile and run a loop", False, repr(exc))

    def cache_env(self) -> tuple:
        """What the disk cache key needs to know about this host's code generation:
        triple, CPU name and features, LLVM version."""
        from .engine import get_engine
        eng = get_engine()
        return (eng.triple, eng.cpu, eng.features,
                ".".join(map(str, eng.llvm.llvm_version_info)))

    def compile(self, module, options) -> Artifact:
        from hanajit.lowering.llvm import LLVMTargetInfo, ModuleLowering
        from hanajit.lowering.cabi import ENTRY, add_entry_wrapper
        from .cexport import add_cfunc
        from .engine import get_engine
        from .vecmath import vector_variants
        eng = get_engine()
        # pow through an opaque name: LLVM would rewrite pow(x, 2.0) as x*x, which
        # can differ from the C library's pow (what CPython computes) by an ulp
        # vector_variants: math calls in vectorised loops call libmvec (vecmath.py)
        info = LLVMTargetInfo(triple=eng.triple, data_layout=eng.data_layout,
                              math={"pow": ("libm", "hj.libm.pow")},
                              vector_variants=vector_variants(eng.features),
                              parallel=True)
        ml = ModuleLowering(module, info)
        llmod = ml.lower()
        entry_fn = module.functions[module.entry]
        add_entry_wrapper(llmod, entry_fn, ml.declare(entry_fn))
        cexports = add_cfunc(llmod, entry_fn, ml.declare(entry_fn))
        optimized = eng.optimize(str(llmod))
        obj = eng.emit_object(optimized)
        return Artifact(target=self.name, entry=ENTRY,
                        stages={"llvm": str(optimized), "obj": obj},
                        metadata={"raises": list(module.raises), "fn": entry_fn,
                                  "cexports": cexports})

    def load(self, artifact, fallback):
        from .cwrapper import make_runner, native_entry
        from .engine import get_engine
        eng = get_engine()
        cexports = artifact.metadata.get("cexports", [])
        tracker, addrs = eng.link(artifact.stages["obj"], [artifact.entry, *cexports],
                                  imports=eng.imports_for(artifact.stages["llvm"]))
        run = make_runner(addrs[artifact.entry], artifact.metadata["fn"],
                          artifact.metadata["raises"], tracker, fallback)
        run.native = native_entry(run, artifact, addrs, fallback)
        return run

    # -- native dispatch (optional: see hanajit.dispatch.native) ---------------------
    def native_dispatcher(self, shape, entries, handlers):
        """Generate the vectorcall dispatcher over ``entries`` (the ones it can
        handle); return ``(address, keepalive, llvm_ir)``, or None if none can."""
        from .native import build_dispatcher, natively_callable
        entries = [e if natively_callable(e) else None for e in entries]
        if not any(entries):
            return None
        return build_dispatcher(shape, entries, handlers)

    def assembly(self, artifact) -> str:
        from .engine import get_engine
        return get_engine().emit_assembly(artifact.stages["llvm"])
