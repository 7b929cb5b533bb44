"""One fresh-process measurement for ``bench_before_after.py`` (prints one JSON line).

    PYTHONPATH=<checkout's src folders> python benchmarks/before_after_probe.py

Times, with whichever hanajit ``PYTHONPATH`` selects and the disk cache off: the
first call of a small loop (every one-time set-up included), then, for each
kernel of the CPU corpus test (``hanajit-cpu/tests/test_cpu_corpus.py`` of this
checkout, so both sides compile the same functions), its first call (compile
included) and the best of five later calls (run time).
"""
import importlib.util
import json
import os
import sys
import time
import warnings

clock = time.perf_counter
HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(os.path.dirname(HERE), "hanajit-cpu", "tests", "test_cpu_corpus.py")


def int_loop(n):
    s = 0
    for i in range(n):
        s += i * i
    return s


def main():
    import numpy as np
    import hanajit
    out = {"hanajit": os.path.dirname(hanajit.__file__)}
    t = clock()
    hanajit.jit(int_loop, cache=False)(100)
    out["first_call"] = clock() - t
    spec = importlib.util.spec_from_file_location("corpus_probe", CORPUS)
    corpus = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(corpus)
    compile_s, run_s = {}, {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in sorted(corpus.ARGS):
            f = hanajit.jit(getattr(corpus.K, name), cache=False)
            args = corpus.ARGS[name]
            fresh = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
            t = clock()
            f(*fresh)
            compile_s[name] = clock() - t
            best = float("inf")
            for _ in range(5):
                fresh = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
                t = clock()
                f(*fresh)
                best = min(best, clock() - t)
            run_s[name] = best
    out["compile"], out["run"] = compile_s, run_s
    print(json.dumps(out))


if __name__ == "__main__":
    sys.exit(main())
