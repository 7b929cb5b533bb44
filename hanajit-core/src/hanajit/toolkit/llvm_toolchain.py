"""llvmlite for every target: one lock, optimise-and-emit once, risky codegen isolated.

llvmlite parses, links and optimises in LLVM's one global context, which is not
thread-safe, and it releases the GIL during those calls: two threads using it at
once -- a CPU compile beside an executable export or a CUDA compile -- can corrupt
memory.  Every target therefore goes through this module, whose :data:`LOCK` is
held around every module's life (parse, link, optimise, print, emit, dispose).

Emitting changes a module (``../shared/notes/toolchains.md``: emitting twice from
one module can abort), so :func:`compile` emits each output but the last from a
fresh parse of the optimised bitcode, and the last from the optimised module
itself, which is disposed of right after (one output, the usual case, costs no
bitcode round trip: about 5% of the compile of a small function).  Some LLVM errors
end the process they happen in (``exit(1)`` on a missing libcall, assertions in the
wheel); targets whose backends do that run :func:`compile` in a child Python with
:func:`run_isolated`, which turns a crash into an error naming what failed.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from typing import Callable, Iterable

# process-wide: held around every llvmlite module's life, by every target (an RLock:
# the CPU engine compiles its runtime while holding it)
LOCK = threading.RLock()
_initialised: set[str] = set()


def binding(all_targets: bool = False):
    """``llvmlite.binding``, with the native target (or every target in the wheel:
    NVPTX, AMDGPU, WebAssembly, SPIR-V ...) initialised once."""
    import llvmlite.binding as llvm
    want = "all" if all_targets else "native"
    if want not in _initialised:
        with LOCK:
            if all_targets:
                llvm.initialize_all_targets()
                llvm.initialize_all_asmprinters()
            else:
                llvm.initialize_native_target()
                llvm.initialize_native_asmprinter()
            _initialised.add(want)
    return llvm


def target_machine(triple: str, cpu: str = "", features: str = "", opt: int = 3,
                   reloc: str = "default", codemodel: str = "jitdefault"):
    """A target machine for ``triple`` (every target of the wheel initialised)."""
    llvm = binding(all_targets=True)
    with LOCK:
        return llvm.Target.from_triple(triple).create_target_machine(
            cpu=cpu, features=features, opt=opt, reloc=reloc, codemodel=codemodel)


def compile(ir_text: str, tm, *, speed: int = 3, slp: bool = False,
            link: Iterable = (), link_lazily: bool = False,
            prepare: Callable | None = None, before: Callable | None = None,
            after: Callable | None = None, emit: Iterable[str] = ("obj",)) -> dict:
    """Parse ``ir_text``, link the modules in ``link`` (IR text, or bitcode bytes;
    with ``link_lazily`` their definitions become ``linkonce_odr``, so only what the
    code uses is linked in -- a library such as libdevice), verify, optimise at ``speed`` for ``tm`` (the loop vectoriser on, as LLVM's
    pipeline has it, and the SLP vectoriser when ``slp``), and emit.

    ``prepare(llvm, module)`` runs after linking and before verification (linkage
    changes, say); ``before(llvm, module, pass_builder)`` and ``after(...)`` right
    before and after the optimisation pipeline.  Returns ``{"llvm": optimised IR
    text}`` plus ``"asm"`` (text) and/or ``"obj"`` (bytes), each emitted once from
    the optimised module (a fresh parse of its bitcode for all but the last)."""
    import llvmlite.binding as llvm        # initialised by whoever made ``tm``
    emit = tuple(emit)
    with LOCK:
        mod = llvm.parse_assembly(ir_text)
        try:
            data_layout = str(tm.target_data)
            mod.triple = tm.triple
            mod.data_layout = data_layout
            for extra in link:
                other = (llvm.parse_bitcode(extra) if isinstance(extra, bytes)
                         else llvm.parse_assembly(extra))
                other.triple = tm.triple
                other.data_layout = data_layout
                if link_lazily:
                    for fn in other.functions:
                        if not fn.is_declaration:
                            fn.linkage = "linkonce_odr"
                mod.link_in(other)
            if prepare is not None:
                prepare(llvm, mod)
            mod.verify()
            pto = llvm.create_pipeline_tuning_options(speed_level=speed)
            pto.slp_vectorization = slp
            pb = llvm.create_pass_builder(tm, pto)
            if before is not None:
                before(llvm, mod, pb)
            pb.getModulePassManager().run(mod, pb)
            if after is not None:
                after(llvm, mod, pb)
            out: dict = {"llvm": str(mod)}
            bitcode = mod.as_bitcode() if len(emit) > 1 else None
            for i, kind in enumerate(emit):
                # the last output from the module itself, disposed of right after
                last = i == len(emit) - 1
                source = mod if last else llvm.parse_bitcode(bitcode)
                try:
                    out[kind] = (tm.emit_object(source) if kind == "obj"
                                 else tm.emit_assembly(source))
                finally:
                    if not last:
                        source.close()
            return out
        finally:
            mod.close()


def run_isolated(module: str, request: dict, *, what: str, timeout: float,
                 error: Callable[[str], Exception], fork_server: bool = False) -> dict:
    """Run ``python -m module`` with ``request`` as JSON on stdin and return the JSON
    it prints.  A timeout, a crash or an error exit raises ``error(message)`` with
    ``what`` and the end of the child's stderr.

    With ``fork_server`` (``module`` has an ``emit(request)`` function, which its
    ``__main__`` runs) the child is forked from a server that stays
    (:mod:`.codegen_workers`: the same output and errors, no Python start per
    request); ``HANAJIT_CODEGEN_WORKERS=0`` starts ``python -m module`` all the
    same."""
    from . import codegen_workers
    if (fork_server and codegen_workers.available()
            and os.environ.get("HANAJIT_CODEGEN_WORKERS", "1") != "0"):
        try:
            return codegen_workers.run(module, request, timeout)
        except TimeoutError:
            raise error(f"{what} took over {timeout:g} s") from None
        except codegen_workers.WorkerFailed as exc:
            raise error(f"{what} {exc}") from None
    try:
        proc = subprocess.run([sys.executable, "-m", module], input=json.dumps(request),
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise error(f"{what} took over {timeout:g} s") from None
    if proc.returncode != 0:
        how = codegen_workers.describe_exit(proc.returncode)
        tail = "\n".join(proc.stderr.strip().splitlines()[-15:])
        raise error(f"{what} {how}:\n{tail}")
    return json.loads(proc.stdout) if proc.stdout.strip() else {}
