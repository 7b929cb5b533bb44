"""Run every benchmark and print its markdown table (what docs/performance.md shows).

    python benchmarks/run.py            # full run, a few minutes
    python benchmarks/run.py --quick    # smoke run: small sizes, one process each,
                                        # Numba compiling one function only
    python benchmarks/run.py --only expr,kernels   # some of them

Exit status 1 when a benchmark found a wrong result or a fallback to the
interpreter where compiled code was expected.
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bench_cache  # noqa: E402
import bench_calls  # noqa: E402
import bench_compile  # noqa: E402
import bench_compile_library  # noqa: E402
import bench_corpus  # noqa: E402
import bench_evolve  # noqa: E402
import bench_expr  # noqa: E402
import bench_kernels  # noqa: E402
import bench_memory  # noqa: E402
import bench_more_kernels  # noqa: E402
import bench_narrow  # noqa: E402
import bench_parallel  # noqa: E402
import bench_partition  # noqa: E402
import bench_products  # noqa: E402
import bench_random  # noqa: E402
import bench_scalar  # noqa: E402
import bench_user_kernels  # noqa: E402
from common import print_machine  # noqa: E402

BENCHMARKS = [bench_compile, bench_compile_library, bench_scalar, bench_calls, bench_expr,
              bench_kernels, bench_user_kernels, bench_more_kernels,
              bench_products, bench_corpus, bench_narrow,
              bench_parallel, bench_cache, bench_evolve, bench_random, bench_memory,
              bench_partition]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fast smoke run")
    ap.add_argument("--only", default="",
                    help="comma-separated names: " + ",".join(
                        b.__name__.removeprefix("bench_") for b in BENCHMARKS))
    args = ap.parse_args(argv)
    only = set(filter(None, args.only.split(",")))
    if args.quick:      # Numba compiles a few functions only (common.numba_njit)
        os.environ["HANAJIT_BENCH_QUICK"] = "1"
    print_machine()
    status = 0
    for bench in BENCHMARKS:
        if only and bench.__name__.removeprefix("bench_") not in only:
            continue
        status |= bench.main(quick=args.quick)
    return status


if __name__ == "__main__":
    sys.exit(main())
