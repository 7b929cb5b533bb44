"""One fresh-process measurement for ``bench_compile.py`` (prints one JSON line).

    python benchmarks/compile_probe.py hanajit|numba|none

Times, in this process: importing the JIT, decorating two functions, the first
call of a small integer loop (everything one-time included: LLVM initialisation,
plugin discovery, the compiler's own imports), and the first call of a second,
different function (a float loop with two arguments) in the same process.
"""
import json
import sys
import time

clock = time.perf_counter


def int_loop(n):
    s = 0
    for i in range(n):
        s += i * i
    return s


def float_loop(n, x):
    s = 0.0
    for i in range(n):
        s += i * x
    return s


def main(which: str) -> dict:
    t0 = clock()
    if which == "hanajit":
        import hanajit  # noqa: F401
        t1 = clock()
        from hanajit import jit
    elif which == "numba":
        import numba  # noqa: F401
        t1 = clock()
        from numba import njit as jit
    else:
        t1 = clock()

        def jit(f):
            return f
    t2 = clock()
    f1, f2 = jit(int_loop), jit(float_loop)
    t3 = clock()
    r1 = f1(100)
    t4 = clock()
    r2 = f2(100, 0.5)
    t5 = clock()
    assert r1 == 328350 and r2 == 2475.0, (r1, r2)
    return {"import": t1 - t0, "import_jit": t2 - t0, "decorate": t3 - t2,
            "first_call": t4 - t3, "second_function": t5 - t4,
            "fallback": _fallbacks(f1, f2)}


def _fallbacks(*fs) -> list:
    return [r for f in fs for r in getattr(f, "_fallback_reasons", {}).values()]


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1])))
