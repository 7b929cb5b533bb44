"""GPU benchmarks of the cuda target, side by side in one process (needs a GPU).

* saxpy over N float64 (default 1e8) on resident arrays, timed with CUDA events,
  against a device-to-device copy of the same array (the bandwidth ceiling):
  saxpy moves 3 arrays (2 reads, 1 write), the copy 2 (1 read, 1 write).
* back-to-back launches of a tiny kernel on resident arrays (``sync=False``, one
  synchronize at the end), against Numba-CUDA's launch of the same kernel when
  ``numba.cuda`` works (``numba_launch.py``, in this process or given as JSON).

Prints a Markdown table; ``--json FILE`` also writes the numbers.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

from hanajit import jit


def saxpy(y, x, a, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        y[i] = a * x[i] + y[i]


def tiny(y, n):
    i = thread_id()  # noqa: F821
    if i < n:
        y[i] = y[i] + 1.0


class Events:
    """Elapsed device time between two CUDA events, in seconds."""

    def __init__(self, drv):
        self.drv, cu = drv, drv.cu
        self.start = drv.check("cuEventCreate", cu.cuEventCreate(0))
        self.stop = drv.check("cuEventCreate", cu.cuEventCreate(0))

    def time(self, fn, repeat):
        cu, drv = self.drv.cu, self.drv
        fn()                                            # warm-up
        drv.check("cuCtxSynchronize", cu.cuCtxSynchronize())
        drv.check("cuEventRecord", cu.cuEventRecord(self.start, 0))
        for _ in range(repeat):
            fn()
        drv.check("cuEventRecord", cu.cuEventRecord(self.stop, 0))
        drv.check("cuEventSynchronize", cu.cuEventSynchronize(self.stop))
        ms = drv.check("cuEventElapsedTime",
                       cu.cuEventElapsedTime(self.start, self.stop))
        return ms / 1e3 / repeat


def bench_bandwidth(n, repeat):
    from hanajit_cuda.driver import get_driver
    drv = get_driver()
    f = jit(saxpy, target="cuda", signature="f64[:], f64[:], f64, i64", fallback=False)
    rng = np.random.default_rng(0)
    x = rng.random(n)
    y = rng.random(n)
    xd, yd = f.to_device(x), f.to_device(y)
    grid = (n + 255) // 256
    ev = Events(drv)
    t_saxpy = ev.time(
        lambda: f.launch(yd, xd, 1e-9, n, grid=grid, block=256, sync=False), repeat)
    f.synchronize()
    dst = drv.alloc(n * 8)
    t_copy = ev.time(lambda: drv.dtod(dst, xd.ptr, n * 8), repeat)
    drv.free(dst)
    # correctness of what was timed: 1 + repeat launches of y += 1e-9 * x
    want = y.copy()
    for _ in range(repeat + 1):
        want = 1e-9 * x + want
    exact = bool(np.array_equal(yd.to_host(), want))
    xd.free()
    yd.free()
    return {"n": n, "saxpy_s": t_saxpy, "saxpy_GBps": 3 * 8 * n / t_saxpy / 1e9,
            "copy_s": t_copy, "copy_GBps": 2 * 8 * n / t_copy / 1e9,
            "saxpy_exact": exact}


def bench_launch(count, numba_json=None):
    f = jit(tiny, target="cuda", signature="f64[:], i64", fallback=False)
    yd = f.to_device(np.zeros(32))
    for _ in range(100):                                # warm-up
        f.launch(yd, 32, grid=1, block=32, sync=False)
    f.synchronize()
    t0 = time.perf_counter()
    for _ in range(count):
        f.launch(yd, 32, grid=1, block=32, sync=False)
    f.synchronize()
    ours = (time.perf_counter() - t0) / count
    ok = bool(np.all(yd.to_host() == 100 + count))
    out = {"launches": count, "hanajit_us": ours * 1e6, "hanajit_exact": ok}
    if numba_json:                      # measured in a separate process
        with open(numba_json) as fh:
            out.update(json.load(fh))
    else:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from numba_launch import measure
        out.update(measure(count))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=float, default=1e8)
    p.add_argument("--repeat", type=int, default=10)
    p.add_argument("--launches", type=int, default=20000)
    p.add_argument("--json", default=None)
    p.add_argument("--numba-json", default=None,
                   help="Numba-CUDA's figure from numba_launch.py (run separately)")
    a = p.parse_args(argv)
    from hanajit_cuda.driver import get_driver
    d = get_driver()
    bw = bench_bandwidth(int(a.n), a.repeat)
    la = bench_launch(a.launches, a.numba_json)
    res = {"device": d.name, "capability": d.capability, **bw, **la,
           "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    ratio = bw["saxpy_GBps"] / bw["copy_GBps"]
    print(f"\n{d.name} (sm_{d.capability[0]}{d.capability[1]}), {res['date']}\n")
    print("| measure | hanajit | reference | ratio | goal |")
    print("|---|---|---|---|---|")
    print(f"| saxpy {bw['n']:.0e} f64, GB/s (3 arrays) | {bw['saxpy_GBps']:.0f} | "
          f"D2D copy {bw['copy_GBps']:.0f} (2 arrays) | {ratio:.2f} | >= 0.80 |")
    nb = la["numba_us"]
    print(f"| back-to-back launch, us | {la['hanajit_us']:.2f} | "
          + (f"numba-cuda {nb:.2f} | {la['hanajit_us'] / nb:.2f} | <= 1.00 |" if nb else
             f"numba-cuda n/a ({la.get('numba_why', '')}) | - | <= 1.00 |"))
    print(f"| results exact (saxpy, launches) | {bw['saxpy_exact']}, "
          f"{la['hanajit_exact']} | | | True |")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(res, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
