"""Run every benchmark and print its markdown table (what docs/performance.md shows).

    python benchmarks/run.py            # full run, a minute or so
    python benchmarks/run.py --quick    # smoke run: small sizes, one process each

Exit status 1 when a benchmark found a wrong result or a fallback to the
interpreter where compiled code was expected.
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bench_calls  # noqa: E402
import bench_compile  # noqa: E402
import bench_scalar  # noqa: E402
from common import print_machine  # noqa: E402

BENCHMARKS = [bench_compile, bench_scalar, bench_calls]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fast smoke run")
    args = ap.parse_args(argv)
    print_machine()
    status = 0
    for bench in BENCHMARKS:
        status |= bench.main(quick=args.quick)
    return status


if __name__ == "__main__":
    sys.exit(main())
