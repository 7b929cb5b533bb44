"""Numba-CUDA's back-to-back launch overhead, alone (no hanajit import), as JSON.

Run by scripts/gpu-check.sh with the machine's own Python path: a newer llvmlite
put in front for hanajit would stop Numba from importing.
"""
from __future__ import annotations

import json
import sys
import time

import numpy as np


def measure(count: int) -> dict:
    if not hasattr(np, "row_stack"):
        # NumPy 2.5 removed np.row_stack, which numba-cuda's typing still names
        # (seen with the numba-cuda of an H200 image); the alias is np.vstack's
        np.row_stack = np.vstack
    try:
        from numba import cuda
        if not cuda.is_available():
            raise RuntimeError("numba.cuda sees no device")

        @cuda.jit
        def ntiny(y, n):
            i = cuda.threadIdx.x
            if i < n:
                y[i] = y[i] + 1.0

        d = cuda.to_device(np.zeros(32))
        for _ in range(100):
            ntiny[1, 32](d, 32)
        cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(count):
            ntiny[1, 32](d, 32)
        cuda.synchronize()
        us = (time.perf_counter() - t0) / count * 1e6
        exact = bool(np.all(d.copy_to_host() == 100 + count))
        return {"numba_us": us, "numba_exact": exact}
    except Exception as exc:                            # not installed, no device...
        import traceback
        traceback.print_exc()
        return {"numba_us": None, "numba_why": f"{type(exc).__name__}: {exc}"}


if __name__ == "__main__":
    print(json.dumps(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 20000)))
