"""Vulkan target benchmarks on whatever device the loader gives (lavapipe here:
a CPU driver, not a GPU -- the figures say so).

* saxpy over N float64 on device arrays, against the same kernel body as a
  ``@jit`` CPU loop over NumPy arrays (both bandwidth-bound);
* back-to-back launches of a tiny kernel on device arrays (``sync=False``, one
  synchronize at the end): the launch overhead per dispatch.

Prints a Markdown table; ``--json FILE`` also writes the numbers.
"""
from __future__ import annotations

import argparse
import json
import time

import numpy as np

from hanajit import jit


def saxpy(y, x, a, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        y[i] = a * x[i] + y[i]


def saxpy_cpu(y, x, a, n):
    for i in range(n):
        y[i] = a * x[i] + y[i]


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=4_000_000)
    ap.add_argument("--launches", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    from hanajit_vulkan.runtime import get_runtime
    device = get_runtime().device_name
    n = args.n
    k = jit(target="vulkan")(saxpy)
    c = jit(saxpy_cpu)
    x_host, y_host = np.ones(n), np.zeros(n)
    x, y = k.to_device(x_host), k.to_device(y_host)
    k.launch(y, x, 2.0, n, block=256)                    # compile, pipeline
    gpu = best(lambda: k.launch(y, x, 2.0, n, block=256), args.repeat)
    c(y_host, x_host, 2.0, n)
    cpu = best(lambda: c(y_host, x_host, 2.0, n), args.repeat)
    small_x, small_y = k.to_device(np.ones(64)), k.to_device(np.zeros(64))
    k.launch(small_y, small_x, 1.0, 64, block=64)

    def launches():
        for _ in range(args.launches):
            k.launch(small_y, small_x, 1.0, 64, block=64, sync=False)
        k.synchronize()
    per_launch = best(launches, 3) / args.launches
    gbs = lambda s: 3 * 8 * n / s / 1e9                  # noqa: E731  (2 reads, 1 write)
    rows = {"device": device, "n": n, "vulkan_saxpy_s": gpu, "vulkan_GBps": gbs(gpu),
            "cpu_saxpy_s": cpu, "cpu_GBps": gbs(cpu), "launch_us": per_launch * 1e6}
    print(f"Vulkan device: {device} (lavapipe is a CPU driver, not a GPU)\n")
    print("| measure | vulkan | cpu target |\n|---|---|---|")
    print(f"| saxpy, {n} float64 | {gpu * 1e3:.2f} ms ({gbs(gpu):.1f} GB/s) | "
          f"{cpu * 1e3:.2f} ms ({gbs(cpu):.1f} GB/s) |")
    print(f"| back-to-back launch (sync=False) | {per_launch * 1e6:.0f} us | - |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=2)


if __name__ == "__main__":
    main()
