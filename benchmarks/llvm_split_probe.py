"""Where LLVM's time goes while the CPU corpus compiles (one fresh process, CPU time).

    PYTHONPATH=<src folders> HANAJIT_CACHE_DIR=$(mktemp -d) \
        python benchmarks/llvm_split_probe.py [--json] [--dump DIR]

Wraps llvmlite's calls (parse, verify, the optimisation pipeline, printing,
emission, linking ...) with a CPU-time clock (``time.thread_time``: LLVM runs in the
calling thread) and counts them, while every kernel of the CPU corpus test
(``hanajit-cpu/tests/test_cpu_corpus.py``) is compiled and called once.  Also counts
the modules parsed, and how many distinct texts they had.  With ``--dump DIR`` every
emitted object is written there, named by its position and the hash of its bytes,
for comparing the machine code of two checkouts (``objdump -d``).
"""
import collections
import hashlib
import importlib.util
import json
import os
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(os.path.dirname(HERE), "hanajit-cpu", "tests", "test_cpu_corpus.py")
clock = time.thread_time
spent = collections.defaultdict(float)
calls = collections.Counter()
texts = collections.Counter()
objects = []


def wrap(owner, name, label, before=None):
    original = getattr(owner, name)

    def timed(*args, **kwargs):
        if before is not None:
            before(*args, **kwargs)
        t = clock()
        try:
            return original(*args, **kwargs)
        finally:
            spent[label] += clock() - t
            calls[label] += 1
    setattr(owner, name, timed)
    return original


def main():
    dump = sys.argv[sys.argv.index("--dump") + 1] if "--dump" in sys.argv else None
    import llvmlite.binding as llvm
    from llvmlite.binding import module, targets, newpassmanagers, orcjit
    wrap(llvm, "parse_assembly", "parse (text)",
                 before=lambda text, *a, **k: texts.update(
                     [hashlib.blake2b(text.encode(), digest_size=16).digest()]))
    wrap(llvm, "parse_bitcode", "parse (bitcode)")
    wrap(module.ModuleRef, "verify", "verify")
    wrap(module.ModuleRef, "__str__", "print optimised IR")
    wrap(module.ModuleRef, "as_bitcode", "bitcode")
    wrap(module.ModuleRef, "link_in", "link modules")
    wrap(module.ModuleRef, "close", "dispose")
    wrap(newpassmanagers.ModulePassManager, "run", "optimise")
    wrap(llvm, "create_pass_builder", "pass builder")
    emit = targets.TargetMachine.emit_object

    def emit_object(tm, mod):
        t = clock()
        try:
            obj = emit(tm, mod)
        finally:
            spent["emit object"] += clock() - t
            calls["emit object"] += 1
        objects.append(obj)
        return obj
    targets.TargetMachine.emit_object = emit_object
    wrap(targets.TargetMachine, "emit_assembly", "emit assembly")
    wrap(orcjit.JITLibraryBuilder, "link", "JIT link")

    import numpy as np
    import hanajit
    cpu0, wall0 = time.process_time(), time.perf_counter()
    spec = importlib.util.spec_from_file_location("corpus_probe", CORPUS)
    corpus = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(corpus)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in sorted(corpus.ARGS):
            f = hanajit.jit(getattr(corpus.K, name), cache=False)
            args = corpus.ARGS[name]
            f(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    llvm_total = sum(spent.values())
    out = {"cpu": cpu, "wall": wall, "llvm": llvm_total, "python": cpu - llvm_total,
           "spent": dict(spent), "calls": dict(calls), "modules": sum(texts.values()),
           "distinct_texts": len(texts), "objects": len(objects),
           "object_bytes": sum(map(len, objects))}
    if dump:
        os.makedirs(dump, exist_ok=True)
        for i, obj in enumerate(objects):
            digest = hashlib.blake2b(obj, digest_size=8).hexdigest()
            with open(os.path.join(dump, f"{i:04d}_{digest}.o"), "wb") as fh:
                fh.write(obj)
    if "--json" in sys.argv:
        print(json.dumps(out))
        return
    print(f"CPU {cpu:.2f} s (wall {wall:.2f}): LLVM {llvm_total:.2f} s, "
          f"the rest {cpu - llvm_total:.2f} s")
    for label, s in sorted(spent.items(), key=lambda kv: -kv[1]):
        print(f"  {label:20s} {s:7.3f} s  {calls[label]:5d} calls")
    print(f"modules parsed from text {out['modules']} ({out['distinct_texts']} distinct), "
          f"objects {len(objects)} ({out['object_bytes']} bytes)")


if __name__ == "__main__":
    main()
