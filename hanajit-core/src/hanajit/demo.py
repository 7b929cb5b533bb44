"""``hanajit demo``: compile a few scalar kernels, check them, and time them.

Each kernel is an ordinary Python function decorated with ``@jit``.  The demo calls
it once to compile, checks the result against CPython running the same source, then
times CPython, a NumPy version where one is natural, and hanajit (median of 5
repeats) and prints a table.  A kernel hanajit cannot compile yet runs in the
interpreter; the demo says so under the table instead of failing, and exits with
status 1 only when no kernel compiled at all (no host target installed, say).  A
wrong result is an error (exit status 1).

The kernels use scalars and loops only: arrays are not supported yet.
"""
from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
import types
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hanajit.errors import HanaJitFallbackWarning

try:
    from hanajit import jit
    _JIT_MISSING = ""
except Exception as exc:  # the compiler is not there yet (or fails to import)
    _JIT_MISSING = f"{type(exc).__name__}: {exc}"

    def jit(func=None, **options):
        """Stand-in while ``hanajit.jit`` is unavailable: run in the interpreter."""
        if func is None:
            return lambda f: f
        return func


# -- the kernels -------------------------------------------------------------------
@jit
def sum_squares(n):
    s = 0.0
    for i in range(n):
        s += i * i * 0.5
    return s


@jit
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@jit
def collatz_steps(n):
    total = 0
    for start in range(1, n):
        k = start
        while k != 1:
            if k % 2 == 0:
                k = k // 2
            else:
                k = 3 * k + 1
            total += 1
    return total


@jit
def pi_series(n):
    s = 0.0
    for k in range(n):
        term = 1.0 / (2 * k + 1)
        if k % 2 == 0:
            s += term
        else:
            s -= term
    return 4.0 * s


@jit
def mandelbrot(width, height, max_iter):
    total = 0
    for j in range(height):
        y0 = -1.5 + 3.0 * j / height
        for i in range(width):
            x0 = -2.0 + 3.0 * i / width
            x = 0.0
            y = 0.0
            it = 0
            while it < max_iter and x * x + y * y <= 4.0:
                xt = x * x - y * y + x0
                y = 2.0 * x * y + y0
                x = xt
                it += 1
            total += it
    return total


KERNELS = (sum_squares, fib, collatz_steps, pi_series, mandelbrot)


# -- NumPy versions, where one is natural -------------------------------------------
def _np_sum_squares(n):
    import numpy as np

    i = np.arange(n, dtype=np.float64)
    return float((i * i * 0.5).sum())


def _np_pi_series(n):
    import numpy as np

    k = np.arange(n, dtype=np.float64)
    sign = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    return float(4.0 * (sign / (2.0 * k + 1.0)).sum())


def _np_mandelbrot(width, height, max_iter):
    import numpy as np

    y0 = (-1.5 + 3.0 * np.arange(height) / height)[:, None]
    x0 = (-2.0 + 3.0 * np.arange(width) / width)[None, :]
    x0, y0 = np.broadcast_arrays(x0, y0)
    x = np.zeros_like(x0)
    y = np.zeros_like(x0)
    count = np.zeros(x0.shape, dtype=np.int64)
    for _ in range(max_iter):
        active = x * x + y * y <= 4.0
        if not active.any():
            break
        xt = x * x - y * y + x0
        y = np.where(active, 2.0 * x * y + y0, y)
        x = np.where(active, xt, x)
        count += active
    return int(count.sum())


NUMPY_VERSIONS = {
    "sum_squares": _np_sum_squares,
    "pi_series": _np_pi_series,
    "mandelbrot": _np_mandelbrot,
}

SIZES = {
    "sum_squares": ((1_000_000,), (2_000,)),
    "fib": ((25,), (12,)),
    "collatz_steps": ((20_000,), (300,)),
    "pi_series": ((1_000_000,), (2_000,)),
    "mandelbrot": ((120, 80, 100), (16, 12, 20)),
}


# -- running ------------------------------------------------------------------------
def python_versions() -> dict[str, Callable[..., Any]]:
    """Plain-CPython copies of the kernels whose globals point at each other.

    ``kernel.py_func`` alone is not enough: ``fib``'s recursive call looks up the
    global ``fib``, which is the jitted function.
    """
    namespace = dict(globals())
    plain = {}
    for kernel in KERNELS:
        func = getattr(kernel, "py_func", kernel)
        copy = types.FunctionType(func.__code__, namespace, func.__name__,
                                  func.__defaults__, func.__closure__)
        plain[func.__name__] = copy
    namespace.update(plain)
    return plain


def _median_times(funcs: Sequence[Callable[..., Any]], args: tuple,
                  repeats: int) -> list[float]:
    """Median wall time of each function; the repeats are interleaved so that
    every function sees the same machine state (CPU clock, caches)."""
    times: list[list[float]] = [[] for _ in funcs]
    for _ in range(repeats):
        for func, samples in zip(funcs, times):
            start = time.perf_counter()
            func(*args)
            samples.append(time.perf_counter() - start)
    return [statistics.median(samples) for samples in times]


def _same(a: Any, b: Any) -> bool:
    """Exact for integers; floats may differ in the last bits if a target
    reassociates a reduction, so they compare with a relative tolerance."""
    if isinstance(a, float) or isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    return a == b


class DemoFailure(Exception):
    """A kernel gave a wrong result or raised."""


@dataclass
class Row:
    kernel: str
    python: float
    numpy: float | None
    hanajit: float
    note: str = ""
    compiled: bool = True      # False: hanajit fell back to the interpreter


def run(quick: bool = False, repeats: int = 5, out=sys.stdout) -> list[Row]:
    """Check and time every kernel; raise :class:`DemoFailure` on a wrong result."""
    plain = python_versions()
    rows = []
    for kernel in KERNELS:
        name = getattr(kernel, "py_func", kernel).__name__
        args = SIZES[name][1 if quick else 0]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                got = kernel(*args)        # compiles on the first call
            except Exception as exc:
                raise DemoFailure(f"{name}{args} raised {type(exc).__name__}: "
                                  f"{exc}") from exc
        expected = plain[name](*args)
        if not _same(got, expected):
            raise DemoFailure(
                f"{name}{args}: hanajit returned {got!r}, CPython returned "
                f"{expected!r} (wrong result)")
        note = "; ".join(dict.fromkeys(str(w.message) for w in caught))
        compiled = not _JIT_MISSING and not any(
            issubclass(w.category, HanaJitFallbackWarning) for w in caught)
        funcs = [plain[name], kernel]
        np_func = NUMPY_VERSIONS.get(name)
        if np_func is not None:
            np_result = np_func(*args)
            if not _same(np_result, expected):
                raise DemoFailure(f"{name}{args}: NumPy version returned "
                                  f"{np_result!r}, CPython {expected!r}")
            funcs.append(np_func)
        times = _median_times(funcs, args, repeats)
        np_time = times[2] if np_func is not None else None
        rows.append(Row(name, times[0], np_time, times[1], note, compiled))
    return rows


def _ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1e3:.3g} ms"


def format_table(rows: Sequence[Row]) -> str:
    header = ("kernel", "python", "numpy", "hanajit", "speedup vs python")
    body = [(r.kernel, _ms(r.python), _ms(r.numpy), _ms(r.hanajit),
             f"{r.python / r.hanajit:.1f}x" if r.hanajit > 0 else "-")
            for r in rows]
    widths = [max(len(line[i]) for line in [header, *body])
              for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip()
             for line in [header, tuple("-" * w for w in widths), *body]]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """``hanajit demo [--quick] [--repeats N]``; return the exit status."""
    parser = argparse.ArgumentParser(
        prog="hanajit demo",
        description="Compile a few scalar kernels, check them against CPython, and "
                    "time CPython, NumPy and hanajit.")
    parser.add_argument("--quick", action="store_true",
                        help="small sizes (seconds, used by the tests)")
    parser.add_argument("--repeats", type=int, default=5,
                        help="timing repeats; the median is shown (default 5)")
    args = parser.parse_args(argv)

    if _JIT_MISSING:
        print(f"note: hanajit.jit is not available yet ({_JIT_MISSING}); the hanajit "
              "column runs the interpreter.", file=sys.stderr)
    try:
        rows = run(quick=args.quick, repeats=max(1, args.repeats))
    except DemoFailure as exc:
        print(f"hanajit demo: {exc}", file=sys.stderr)
        return 1
    print(format_table(rows))
    notes = [r for r in rows if r.note]
    if notes:
        print()
        for r in notes:
            print(f"{r.kernel}: {r.note}")
    print(f"\nmedian of {max(1, args.repeats)} runs each; the first call "
          "(compilation) is not timed.")
    if not any(r.compiled for r in rows):
        print("hanajit demo: no kernel compiled (all ran in the interpreter); "
              "`hanajit doctor` says why", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
