"""One fresh-process measurement for ``bench_compile_library.py`` (one JSON line).

    python benchmarks/library_probe.py hanajit|numba PROBE...

After a warm-up compile of a scalar function (the JIT, LLVM and the compiler
loaded), the first compile and call of each probe in this process, in seconds,
checked against NumPy (``None`` where the JIT cannot compile it).  hanajit reads
and writes the library cache under ``HANAJIT_CACHE_DIR`` as the caller set it.
"""
import json
import sys
import time
import warnings

import numpy as np

PROBES = {
    "np.median(a)": lambda a, b: np.median(a),
    "np.quantile(a, 0.3)": lambda a, b: np.quantile(a, 0.3),
    "np.einsum('ij,jk->ik', a, b)": lambda a, b: np.einsum("ij,jk->ik", a, b),
    "np.histogram(a, 10)[0]": lambda a, b: np.histogram(a, 10)[0],
    "np.sum(a, axis=(0, 2))": lambda a, b: np.sum(a.reshape(10, 20, 5), axis=(0, 2)),
}


def main(which: str, names: list) -> dict:
    if which == "hanajit":
        from hanajit import jit
        from hanajit.errors import HanaJitFallbackWarning
        warnings.simplefilter("error", HanaJitFallbackWarning)
    else:
        from numba import njit as jit
    jit(lambda x: x + 1.0)(1.0)
    rng = np.random.default_rng(0)
    a, b = rng.random((40, 25)), rng.random((25, 30))
    out = {}
    for name in names:
        f = PROBES[name]
        t0 = time.perf_counter()
        try:
            got = jit(f)(a, b)
        except Exception:           # (Numba: not supported)
            out[name] = None
            continue
        spent = time.perf_counter() - t0
        if not np.allclose(got, f(a, b)):
            raise AssertionError(f"WRONG RESULT for {name}")
        out[name] = spent
    return out


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], sys.argv[2:])))
