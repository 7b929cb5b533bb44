"""The host LLVM engine: target machine, optimisation, ORC JIT linking.

Created lazily on the first compilation (``import hanajit`` never loads LLVM).
Machine code is linked per specialisation into its own ORC library whose resource
tracker frees the code when the last reference to it goes.  The same module text
is optimised and emitted once per process (``Engine.compile_object``).
"""
from __future__ import annotations

import collections
import contextlib
import ctypes
import hashlib
import itertools
import re
import threading
import zlib

from hanajit.toolkit import llvm_toolchain as toolchain

from . import cpu_choice

_lock = threading.Lock()
_VSQUARE_CALL = re.compile(r"call [^\n]*@hj\.vsquare\.")
# what a loop does besides multiplying and adding that SIMD makes cheaper
_COSTLY = re.compile(r"= fdiv |vector-function-abi-variant")


def ordered_reductions_pay(ir_text: str) -> bool:
    """Whether LLVM may vectorise in-order float reductions in this module.

    The adds of ``s += x[i] / y[i]`` stay one at a time, in source order, but the
    divisions run in SIMD: 1.6x faster.  Where the loop only multiplies and adds,
    the vector loop is no faster than the scalar one, and it costs the compile:
    ``s += a[i] * b + 1`` optimises in 8 ms instead of 13 and emits in 4 ms
    instead of 11.  So only modules that divide or call functions with vector
    variants (exp, sin ...) are allowed it."""
    return _COSTLY.search(ir_text) is not None
_engine = None


class Engine:
    def __init__(self):
        llvm = toolchain.binding()
        self.llvm = llvm
        # LLVM options set per module (:meth:`_option`), name -> the value last set:
        # - force-ordered-reductions: in-order float reductions may vectorise (the
        #   adds stay in source order, so results are bit-identical) in modules
        #   that divide or call vector math (:func:`ordered_reductions_pay`);
        # - unroll-runtime-multi-exit: a loop whose bounds check stays
        #   (``out[idx[i]] += 1``) has a second exit; LLVM unrolls such loops only
        #   when asked (bincount: 0.76x Numba -> 1.0x).  Asked per module
        #   (compile_object's ``multi_exit``): for every module it made LLVM a
        #   quarter to half slower (np.min's caller 56 -> 82 ms, the first
        #   np.median 0.81 -> 1.01 s), its searches unrolled for nothing
        self._options: dict = {}
        # the host's CPU, or the one HANAJIT_CPU_NAME / HANAJIT_CPU_FEATURES choose
        self.cpu, self.features = cpu_choice.choose(llvm)
        self.triple = llvm.get_process_triple()
        self._x86 = self.triple.startswith(("x86_64", "i386", "i686"))
        self.target = llvm.Target.from_triple(self.triple)
        # the vector ISAs the chosen CPU has, spelt as features (vecmath.host_isas)
        self.isa_features = cpu_choice.isa_features(llvm, self.target, self.cpu,
                                                    self.features)
        self.tm = self._new_tm()
        self.data_layout = str(self.tm.target_data)
        # JITLink, not RuntimeDyld: RuntimeDyld maps an object's code, constants and
        # data as separate blocks wherever mmap puts them, and once other mappings
        # (wasmtime's 6 GiB reservations, freed JIT code) push two of them more
        # than 2 GiB apart the small code model's 32-bit offsets between them
        # overflow -- an abort or a crash in a long-running process.  JITLink lays
        # each object out in one contiguous allocation.
        self.lljit = llvm.create_lljit_compiler(self._new_tm(), use_jit_link=True)
        self._names = itertools.count()
        # llvmlite parses and optimises in LLVM's global context: one at a time, in
        # every target of the process (hanajit.toolkit.llvm_toolchain)
        self.compile_lock = toolchain.LOCK
        self._libm_loaded = False
        self.objects = _Objects()

    def _new_tm(self):
        return self.target.create_target_machine(cpu=self.cpu, features=self.features,
                                                 opt=3, reloc="pic", codemodel="default")

    def compile_object(self, ir_text: str, speed=3, multi_exit=False,
                       inline_first=False) -> tuple[str, bytes]:
        """Parse, verify, optimise and emit: ``(optimised IR text, object bytes)``,
        under the process-wide llvmlite lock (``toolchain.compile``).  The same
        module text compiles once per process (:class:`_Objects`): a function
        jitted again -- a fresh ``jit(...)`` of the same source, a closure made
        per call -- links the object already made.  ``multi_exit``: LLVM may
        unroll loops with more than one exit (``target.checked_loops``).
        ``inline_first``: the ``alwaysinline`` functions are inlined before the
        pipeline, which then optimises their bodies once, in their callers
        (``target.optimise_once``)."""
        key = (hashlib.blake2b(ir_text.encode(), digest_size=20).digest(), speed,
               multi_exit, inline_first)
        done = self.objects.get(key)
        if done is not None:
            return done
        with toolchain.LOCK:
            # (LLVM's options are the process's: set for this module, under the
            # lock every llvmlite compile of the process holds)
            self._option("force-ordered-reductions", ordered_reductions_pay(ir_text))
            self._option("unroll-runtime-multi-exit", multi_exit)
            with self._selects_kept():
                out = toolchain.compile(ir_text, self.tm, speed=speed, slp=True, emit=("obj",),
                                        before=_inline_first if inline_first else None,
                                        after=_inline_vector_squares
                                        if "hj.vsquare." in ir_text else None)
        done = out["llvm"], out["obj"]
        self.objects.put(key, done)
        return done

    def _option(self, name: str, on: bool) -> None:
        """Set LLVM's boolean option ``-name`` for the next compile, when it
        changes."""
        if self._options.get(name) != on:
            self.llvm.set_option("", f"-{name}={'true' if on else 'false'}")
            self._options[name] = on

    @contextlib.contextmanager
    def _selects_kept(self):
        """The x86 backend's cmov-to-branch conversion off while this engine
        emits code, back on after (the option is the process's: Numba and others
        compiling there keep LLVM's default).  That pass turns a ``select`` in a
        loop into a branch where its operands are loop-invariant and only the
        condition is on the critical path, betting on the branch being
        predictable; a data-dependent one is not, and a mispredict costs 15-20
        cycles: crc16 over random bytes (``(crc >> 1) ^ poly`` or ``crc >> 1``
        on a bit of the data) ran 5.5x slower than with ``cmov``, which Numba
        keeps there (its ``select`` has the shifted ``crc`` as operands)."""
        if not self._x86:
            yield
            return
        self.llvm.set_option("", "-x86-cmov-converter=false")
        try:
            yield
        finally:
            self.llvm.set_option("", "-x86-cmov-converter=true")

    def emit_assembly(self, ir_text: str) -> str:
        with self.compile_lock, self._selects_kept():
            mod = self.llvm.parse_assembly(ir_text)
            try:
                mod.triple = self.triple
                mod.data_layout = self.data_layout
                return self.tm.emit_assembly(mod)
            finally:
                mod.close()

    def nrt_addresses(self) -> dict:
        """Addresses of the memory runtime, linked once per process and never freed
        (arrays it allocated may outlive every jitted function): ``runtimes.py``."""
        from . import runtimes
        return runtimes.addresses("nrt")

    def threads_addresses(self) -> dict:
        """Addresses of the thread runtime behind ``prange`` (one per process, like
        the memory runtime, which sets the worker count)."""
        from . import runtimes
        return runtimes.addresses("threads")

    def imports_for(self, llvm_text: str) -> dict:
        """The process addresses a compiled module needs: the memory runtime only
        when it allocates (compiling it costs a first scalar function ~10 ms), and
        libm functions called through opaque names (``hj.libm.pow``)."""
        out = library_imports(llvm_text)
        if "@hj_nrt_" in llvm_text:
            out.update(self.nrt_addresses())
        if "@hj_parallel_for" in llvm_text or "@hj_num_threads" in llvm_text:
            out.update(self.threads_addresses())
        return out

    def link(self, obj: bytes, exports: list, imports: dict | None = None):
        """Link an object into its own JIT library; return (tracker, {name: address})."""
        llvm = self.llvm
        builder = llvm.JITLibraryBuilder().add_object_img(obj).add_current_process()
        for name, addr in (imports or {}).items():
            builder.import_symbol(name, addr)
        for name in exports:
            builder.export_symbol(name)
        with _lock:
            tracker = builder.link(self.lljit, f"hj{next(self._names)}")
        return tracker, {name: tracker[name] for name in exports}


class _Objects:
    """What :meth:`Engine.compile_object` made, by module text: the optimised text
    (compressed: a tenth of its size) and the object, the least recently used first
    out when they hold more than ``limit`` bytes (a small function's are 1-2 kB,
    a sort's tens of kB)."""

    def __init__(self, limit: int = 16 << 20):
        self.limit = limit
        self._items: collections.OrderedDict = collections.OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key):
        with self._lock:
            done = self._items.get(key)
            if done is not None:
                self._items.move_to_end(key)
        return None if done is None else (zlib.decompress(done[0]).decode(), done[1])

    def put(self, key, done) -> None:
        done = (zlib.compress(done[0].encode(), 1), done[1])
        size = len(done[0]) + len(done[1])
        with self._lock:
            if key in self._items or size > self.limit:
                return
            self._items[key] = done
            self._bytes += size
            while self._bytes > self.limit:
                _, (text, obj) = self._items.popitem(last=False)
                self._bytes -= len(text) + len(obj)


def _inline_first(llvm, mod, pb) -> None:
    """Inline the ``alwaysinline`` functions (the program's function into its
    C-ABI wrapper) before the optimisation pipeline."""
    pm = llvm.create_new_module_pass_manager()
    pm.add_always_inliner_pass()
    pm.run(mod, pb)


def _inline_vector_squares(llvm, mod, pb) -> None:
    """When the loop vectoriser called the vector square (hanajit.lowering.
    vector_square), inline it into the vector loops and fold its select."""
    if _VSQUARE_CALL.search(str(mod)):
        pm = llvm.create_new_module_pass_manager()
        pm.add_always_inliner_pass()
        pm.add_instruction_combine_pass()
        pm.add_simplify_cfg_pass()
        pm.run(mod, pb)


def _libm() -> ctypes.CDLL:
    from hanajit.lib.complex.math_functions import libm
    return libm()


_LIBM_NAME = re.compile(r'@"?hj\.libm\.(\w+)')
_HOST_NAME = re.compile(r'@"?hj\.host\.(\w+)')


def library_imports(llvm_text: str, cached: bool = False) -> dict:
    """The C library addresses a module needs (no LLVM involved): libm functions
    called through opaque names (``hj.libm.pow``) and libmvec variants (with
    ``cached``, hanajit's own vector exp comes from the disk cache's copy)."""
    out = {}
    if "@hj.libm." in llvm_text or '@"hj.libm.' in llvm_text:
        libm = _libm()
        for name in sorted(set(_LIBM_NAME.findall(llvm_text))):
            out[f"hj.libm.{name}"] = ctypes.cast(getattr(libm, name),
                                                 ctypes.c_void_p).value
    if "@hj.host." in llvm_text or '@"hj.host.' in llvm_text:
        from hanajit.lib.linalg import lapack       # NumPy's LAPACK (ForeignCall)
        from hanajit.lib.random.python_random_state import c_api_address
        from hanajit.parallel_streams import host_address
        from hanajit.lib.random.local_state import host_address as entropy_address
        from hanajit.lib.sorting.numpy_sorts import address as sort_address
        from hanajit.lib.numeric.fft_loops import address as fft_address
        from hanajit.host_print import address as print_address
        from hanajit.host_warnings import address as warn_address
        from hanajit.lib.sorting.numpy_partition import address as partition_address
        from hanajit.lib.sorting.numpy_select import address as select_address
        for name in sorted(set(_HOST_NAME.findall(llvm_text))):
            # CPython's C API (gauss_next of Python's random generators), the
            # per-chunk random streams of parallel loops, NumPy's sort functions,
            # print's and partition's calls back into Python, NumPy's FFT loops
            # and selection functions, else LAPACK/BLAS
            address = c_api_address(name) or host_address(name) or sort_address(name) \
                or print_address(name) or fft_address(name) or entropy_address(name) \
                or warn_address(name) \
                or partition_address(name) or select_address(name)
            out[f"hj.host.{name}"] = address if address is not None else \
                lapack.address(name)
    if "hj.numpy." in llvm_text:           # NumPy's global RandomState (legacy)
        from hanajit.lib.random.legacy_state import legacy_addresses
        out.update(legacy_addresses())
    if "hj.pcg64." in llvm_text:           # generators made in a function (local_state)
        from hanajit.lib.random.local_state import pcg64_addresses
        out.update(pcg64_addresses())
    if "hj.python." in llvm_text:          # Python's random generators (python_random)
        from hanajit.lib.random.python_random_state import python_addresses
        out.update(python_addresses())
    if "@__svml_" in llvm_text or '@"__svml_' in llvm_text:   # NumPy's (numpy_simd.py)
        from .numpy_simd import imports_for as numpy_imports
        out.update(numpy_imports(llvm_text))
    if "@_ZGV" in llvm_text:              # libmvec functions (vecmath.py)
        from .vecmath import imports_for
        out.update(imports_for(llvm_text, cached))
    return out


def get_engine() -> Engine:
    global _engine
    if _engine is None:
        with _lock:
            if _engine is None:
                _engine = Engine()
    return _engine


def c_symbol_address(name: str) -> int:
    return ctypes.cast(getattr(ctypes.CDLL(None), name), ctypes.c_void_p).value
