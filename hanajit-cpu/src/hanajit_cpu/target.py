"""The host CPU target: typed IR -> LLVM IR -> optimised object -> in-process code.

Stages: ``"llvm"`` (optimised LLVM IR text) and ``"obj"`` (the host object file,
which is also what the disk cache stores).
"""
from __future__ import annotations

import os

from hanajit.target import Artifact, Capabilities, Stages, Target

from . import cpu_choice


class CpuTarget(Target):
    name = "cpu"
    description = "host CPU through LLVM (ORC JIT, in-process)"
    stages = ("llvm", "obj")
    kind = "host"
    capabilities = Capabilities(host_calls=True, threads=True, c_math=True, atomics=True,
                                numpy_simd_calls=True,
                                stack_check=True, allocation=True, links_code=True,
                                catches=True)
    chains_dispatchers = True

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

    def get_num_threads(self) -> int:
        from .parallel_config import get_num_threads
        return get_num_threads()

    def set_num_threads(self, n: int) -> None:
        from .parallel_config import set_num_threads
        set_num_threads(n)

    def cache_env(self) -> tuple:
        """What the disk cache key needs to know about this host's code generation:
        the CPU (name and features) and the LLVM build, found without loading LLVM
        where possible (see ``_host_identity``), and whether vector math is on."""
        from .numpy_simd import cache_env
        return _host_identity() + (("vecmath", os.environ.get("HANAJIT_VECMATH", "1")),
                                   ) + cache_env()

    def linked_pieces(self):
        """The library's linked pieces kept on disk (``library_cache.py``)."""
        from .library_cache import SIGNATURES
        return SIGNATURES

    def compile(self, module, options) -> Artifact:
        from hanajit.lowering.llvm import LLVMTargetInfo, ModuleLowering
        from hanajit.lowering.cabi import ENTRY, add_entry_wrapper
        from hanajit.lowering.llvm_release import release
        from hanajit.lowering.llvm_text import module_text
        from .cexport import add_cfunc
        from .engine import get_engine
        from .vecmath import vector_variants
        from . import numpy_simd, shared_code
        eng = get_engine()
        # pow through an opaque name: LLVM would rewrite pow(x, 2.0) as x*x, which
        # can differ from the C library's pow (what CPython computes) by an ulp
        # vector_variants: math calls in vectorised loops call libmvec (vecmath.py)
        info = LLVMTargetInfo(triple=eng.triple, data_layout=eng.data_layout,
                              math={"pow": ("libm", "hj.libm.pow")},
                              vector_variants=vector_variants(eng.isa_features),
                              parallel=True,
                              # (complex arguments as x86-64 System V passes them)
                              math_functions=eng.triple.startswith("x86_64")
                              and "linux" in eng.triple,
                              host_calls=True,
                              vector_square=os.environ.get("HANAJIT_VECMATH", "1") != "0",
                              # NumPy's power loops call its SIMD functions
                              numpy_loops=numpy_simd.Table(eng))
        # large callees (the library's sorts, selections ...) compiled once per
        # process and called by symbol (shared_code.py)
        externals, imports, only = shared_code.split(
            module, info, eng, share=shared_code.wanted(module, options or {}))
        ml = ModuleLowering(module, info, externals=externals, only=only)
        llmod = ml.lower()
        entry_fn = module.functions[module.entry]
        add_entry_wrapper(llmod, entry_fn, ml.declare(entry_fn))
        # the plain C exports only when asked (``f.specialize``): two more functions
        # through LLVM would double the compile of a scalar function
        cexports = add_cfunc(llmod, entry_fn, ml.declare(entry_fn)) \
            if options.get("c_exports") else []
        entry_decl = ml.declare(entry_fn)
        once = (not cexports and "noinline" not in entry_decl.attributes
                and optimise_once(module, only))
        if once:
            entry_decl.attributes.add("alwaysinline")
        text = module_text(llmod)  # (str(llmod), faster: lowering/llvm_text.py)
        release(llmod)            # (freed at once, not by the cyclic collector)
        optimized, obj = eng.compile_object(text, multi_exit=checked_loops(module, only),
                                            inline_first=once)
        if (options or {}).get("cache"):
            # the runtimes the code calls, for processes that load it from the cache
            from . import runtimes
            runtimes.store_for(str(optimized), eng)
        return Artifact(target=self.name, entry=ENTRY,
                        stages={"llvm": str(optimized), "obj": obj},
                        metadata={"raises": list(module.raises),
                                  "fn": _signature_only(entry_fn),
                                  "cexports": cexports, "imports": imports,
                                  "release_gil": _releases_gil(module, options)})

    def load(self, artifact, fallback):
        from .cwrapper import make_runner, native_entry
        cexports = artifact.metadata.get("cexports", [])
        exports = [artifact.entry, *cexports]
        linked = _link_cached(artifact, exports) if artifact.metadata.get(
            "from_cache") else None
        if linked is None:
            from .engine import get_engine
            eng = get_engine()
            imports = eng.imports_for(artifact.stages["llvm"])
            imports.update(artifact.metadata.get("imports") or {})   # shared_code
            linked = eng.link(artifact.stages["obj"], exports, imports=imports)
        tracker, addrs = linked
        run = make_runner(addrs[artifact.entry], artifact.metadata["fn"],
                          artifact.metadata["raises"], tracker, fallback)
        run.native = native_entry(run, artifact, addrs, fallback)
        # linked: the optimised text is read again only by inspect_llvm/asm and
        # the disk cache (benchmarks/bench_memory.py: kB per kept function)
        artifact.stages = Stages(artifact.stages)
        artifact.stages.pack("llvm")
        return run

    # -- native dispatch (optional: see hanajit.dispatch.native) ---------------------
    def native_dispatcher(self, shape, entries, handlers, previous=None):
        """Generate the vectorcall dispatcher over ``entries`` (the ones it can
        handle); return ``(address, keepalive, llvm_ir)``, or None if none can.
        ``previous``: a link of a chain (``Target.chains_dispatchers``)."""
        from . import nativecall
        from .native import build_dispatcher, natively_callable
        if not nativecall.available():
            return None
        entries = [e if e is not None and natively_callable(e) else None for e in entries]
        if not any(entries):
            return None
        return build_dispatcher(shape, entries, handlers, previous)

    def assembly(self, artifact) -> str:
        from .engine import get_engine
        return get_engine().emit_assembly(artifact.stages["llvm"])


def _signature_only(fn):
    """The entry function without its body: what the runner and the native
    dispatcher read (argument and return types, purity, the result's NumPy
    types).  The artifact outlives the compile, and the body holds the IR."""
    import copy
    out = copy.copy(fn)
    out.body, out.locals = [], {}
    return out


def optimise_once(module, only=None) -> bool:
    """May the program's function be inlined into its C-ABI wrapper before LLVM's
    pipeline, which then optimises its body once rather than twice (alone, then
    inside the wrapper)?  Not where a function of the module has a loop of a
    constant count inside another loop: LLVM's first pass unrolls it (``for di
    in (-1, 0, 1)``) and only the second folds what that left (``life_step``'s
    ``(j + dj) % m`` became compare-and-select: 3x slower optimised once).
    ``only``: the functions the module defines (None: all).
    ``HANAJIT_OPTIMISE_ONCE=0``: never (for comparing)."""
    from hanajit.ir import nodes as N

    def constant(s) -> bool:
        if isinstance(s, N.ForCount):
            return not N.read_names(s.count)
        return isinstance(s, N.PyForRange) and not any(
            N.read_names(e) for e in (s.start, s.stop, s.step) if e is not None)

    def nested(body, inside: bool) -> bool:
        for s in body:
            loop = isinstance(s, (N.ForCount, N.Loop, N.PyForRange, N.PyWhile))
            if loop and inside and constant(s):
                return True
            if any(isinstance(sub, list) and nested(sub, inside or loop)
                   for sub in (getattr(s, a, None) for a in ("then", "orelse", "body"))):
                return True
        return False
    if os.environ.get("HANAJIT_OPTIMISE_ONCE") == "0":
        return False
    return not any(nested(fn.body, False) for name, fn in module.functions.items()
                   if only is None or name in only)


def checked_loops(module, only=None) -> bool:
    """Does a function of the program itself (not hanajit's library, whose loops
    index unchecked) compiled in this module have a loop that can leave early
    -- a bounds check that stays, a ``break``, a ``return`` or a raise?  LLVM
    unrolls such loops only when asked (``Engine.compile_object``), which for
    the rest costs compile time and gains nothing.  ``only``: the functions the
    module defines (None: all)."""
    from hanajit.ir import nodes as N
    from hanajit.lowering import shared

    def leaves_early(body) -> bool:
        return any(isinstance(s, (N.Raise, N.Reraise, N.Break, N.Return))
                   for s in N.walk_stmts(body))
    for name, fn in module.functions.items():
        if (only is not None and name not in only) or shared.ours(fn):
            continue
        if any(isinstance(s, (N.ForCount, N.Loop)) and leaves_early(s.body)
               for s in N.walk_stmts(fn.body)):
            return True
    return False


def _releases_gil(module, options) -> bool:
    """Calls run without the GIL with ``nogil=True`` and when the code has
    parallel loops (their threads never need it; other Python threads may run)."""
    from hanajit.ir import nodes as N
    if (options or {}).get("nogil"):
        return True
    return any(isinstance(s, N.ParallelFor) for fn in module.functions.values()
               for s in N.walk_stmts(fn.body))


def _link_cached(artifact, exports):
    """Link an object from the disk cache without LLVM (``objload``), so that a
    warm start never imports llvmlite; the runtimes it calls come from the cache
    folder too (``runtimes.py``).  None when the loader does not handle the object
    or this host (then ORC links it)."""
    from . import objload, runtimes
    from .engine import library_imports
    if not objload.available():
        return None
    text = artifact.stages.get("llvm", "")
    try:
        imports = library_imports(text, cached=True)
        for name in runtimes.needed(text):
            imports.update(runtimes.addresses(name, cached=True))
        return objload.link(artifact.stages["obj"], exports, imports)
    except objload.Unsupported:
        return None


_host_id = None


def _host_identity() -> tuple:
    """(machine, CPU identity, llvmlite version, LLVM library size and mtime).

    On Linux the CPU identity is the kernel's description of the first CPU (vendor,
    family, model, stepping, feature flags) -- what LLVM's host CPU name and
    features are derived from -- so no LLVM is loaded to compute the key; elsewhere
    it is LLVM's host CPU name and features.  A CPU named by ``HANAJIT_CPU_NAME``
    replaces it (``cpu_choice.cache_identity``).  Read once per process.
    """
    global _host_id
    if _host_id is None:
        import importlib.util
        spec = importlib.util.find_spec("llvmlite")
        folder = os.path.join(os.path.dirname(spec.origin), "binding")
        lib = sorted(f for f in os.listdir(folder) if f.startswith("libllvmlite"))
        st = os.stat(os.path.join(folder, lib[0])) if lib else None
        llvm = (_llvmlite_version(os.path.dirname(spec.origin)), st and st.st_size,
                st and st.st_mtime_ns)
        cpu = None
        try:
            with open("/proc/cpuinfo") as f:
                block = f.read(1 << 16).split("\n\n")[0]
            keep = ("vendor_id", "cpu family", "model", "model name", "stepping",
                    "flags", "Features", "CPU implementer", "CPU part")
            cpu = tuple(sorted(ln.split(":", 1)[1].strip() for ln in block.splitlines()
                               if ln.split(":", 1)[0].strip() in keep))
        except OSError:
            pass
        if not cpu:
            from .engine import get_engine
            eng = get_engine()
            cpu = (eng.triple, eng.cpu, eng.features)
        chosen = cpu_choice.cache_identity()
        if chosen is not None:
            # a CPU named in the environment replaces the host's in the key, so the
            # machines of a cluster that share the choice share entries
            cpu = chosen if chosen[1] else (cpu, chosen)
        _host_id = (os.uname().machine if hasattr(os, "uname") else "", cpu, llvm)
    return _host_id


def _llvmlite_version(folder: str) -> str:
    """llvmlite's version, read from its ``_version.py`` so that computing a cache
    key does not import llvmlite (the binding's size and mtime follow it in the
    key); llvmlite's own ``__version__`` when that file says something else."""
    import re
    try:
        with open(os.path.join(folder, "_version.py")) as f:
            found = re.search(r"^version_version = '([^']+)'$", f.read(), re.M)
        if found:
            return found.group(1)
    except OSError:
        pass
    from llvmlite import __version__
    return __version__
