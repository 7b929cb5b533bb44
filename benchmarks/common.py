"""Shared helpers for the benchmarks: interleaved timing, medians, markdown tables.

Every benchmark compares implementations side by side in one process.  Repeats are
*interleaved* (hanajit, numba, python, hanajit, numba, python, ...; the order rotates
each round) so that a slow phase of the machine -- another process, frequency
scaling, a cold cache -- hits every implementation alike.  Figures are medians of
the repeats and are reported as ratios against a baseline column.
"""
from __future__ import annotations

import contextlib
import datetime
import os
import platform
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Sequence

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))


# -- optional competitors -----------------------------------------------------------
def numba_njit():
    """``numba.njit``, or None when numba is not installed.  In a smoke run
    (``run.py --quick`` sets ``HANAJIT_BENCH_QUICK``) Numba compiles only the
    first :data:`QUICK_NUMBA` functions of the process, so the scripts' Numba
    paths run; later ones stay Python functions (their results are the
    interpreter's, and no timing of a smoke run means anything)."""
    try:
        from numba import njit
    except Exception:        # not installed, or broken against this numpy
        return None
    return _QuickNumba(njit)


QUICK_NUMBA = 1


class _QuickNumba:
    """``numba.njit`` as called (``njit(f)``, ``njit(**options)(f)``), Numba
    compiling all functions unless ``HANAJIT_BENCH_QUICK`` is set."""

    def __init__(self, njit):
        self.njit = njit
        self.seen: list = []

    def __call__(self, fn=None, **options):
        if fn is None:
            return lambda f: self(f, **options)
        if os.environ.get("HANAJIT_BENCH_QUICK") and fn not in self.seen:
            if len(self.seen) >= QUICK_NUMBA:
                return fn
            self.seen.append(fn)
        return self.njit(fn, **options)


# -- timing ---------------------------------------------------------------------------
def time_call(fn: Callable[[], object], number: int = 1) -> float:
    """Seconds per call of ``fn()``, averaged over ``number`` back-to-back calls."""
    clock = time.perf_counter
    t0 = clock()
    for _ in range(number):
        fn()
    return (clock() - t0) / number


def interleaved(candidates: dict[str, Callable[[], object]], repeats: int,
                number: int | dict[str, int] = 1,
                settle: float = 0.0) -> dict[str, list[float]]:
    """Time each candidate ``repeats`` times, alternating between candidates.

    Round ``r`` starts at candidate ``r % len(candidates)`` so that no candidate is
    always the first (or last) one after a pause.  ``number`` (one for all, or one
    per name) is how many back-to-back calls make one sample.  Returns name -> list
    of seconds per call.

    ``settle`` seconds of sleep before each sample let the previous candidate's
    thread pool go idle: an OpenMP runtime (Numba's ``parallel=True``) keeps its
    workers spinning for milliseconds after a loop, and on a 2-core machine they
    would steal a core from whichever candidate runs next.
    """
    names = list(candidates)
    counts = number if isinstance(number, dict) else dict.fromkeys(names, number)
    out: dict[str, list[float]] = {n: [] for n in names}
    for r in range(repeats):
        k = r % len(names)
        for name in names[k:] + names[:k]:
            if settle:
                time.sleep(settle)
            out[name].append(time_call(candidates[name], counts[name]))
    return out


def median(xs: Sequence[float]) -> float:
    return statistics.median(xs)


@contextlib.contextmanager
def recording_fallbacks(sink: list[str]):
    """Collect the text of every HanaJitFallbackWarning raised inside the block.

    A benchmark that silently measures the interpreter instead of compiled code is
    worse than none: callers print what lands in ``sink`` under their table.
    """
    from hanajit import HanaJitFallbackWarning
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", HanaJitFallbackWarning)
        yield
    for w in caught:
        if issubclass(w.category, HanaJitFallbackWarning):
            sink.append(str(w.message))
        else:                                      # pass the others on
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)


# -- formatting -----------------------------------------------------------------------
def fmt_seconds(s: float | None) -> str:
    """A duration with a unit that keeps 3 significant digits readable."""
    if s is None:
        return "--"
    if s >= 1.0:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.2f} ms"
    if s >= 1e-6:
        return f"{s * 1e6:.2f} us"
    return f"{s * 1e9:.1f} ns"


def fmt_ratio(x: float | None) -> str:
    if x is None:
        return "--"
    return f"{x:.2f}x" if x < 100 else f"{x:.0f}x"


def ratio_cells(t: dict) -> list[str]:
    """``numpy/numba``, ``numpy/hanajit`` and ``numba/hanajit`` of the seconds in
    ``t`` ("--" where a column has no time)."""
    return [fmt_ratio(t[a] / t[b]) if a in t and b in t else "--"
            for a, b in (("numpy", "numba"), ("numpy", "hanajit"), ("numba", "hanajit"))]


def geomean_ratio(xs: Sequence[float]) -> str:
    """The geometric mean of ratios, formatted ("--" for none)."""
    import math
    return fmt_ratio(math.exp(sum(map(math.log, xs)) / len(xs))) if xs else "--"


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A GitHub-flavoured markdown table; the first column left-aligned."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]

    def line(r):
        return "| " + " | ".join(
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(r, widths))) + " |"
    sep = "|" + "|".join(
        ("-" * (w + 2)) if i == 0 else ("-" * (w + 1) + ":")
        for i, w in enumerate(widths)) + "|"
    return "\n".join([line(cells[0]), sep] + [line(r) for r in cells[1:]])


def print_table(title: str, headers: Sequence[str], rows: Sequence[Sequence[object]],
                notes: Sequence[str] = ()) -> None:
    print(f"\n### {title}\n")
    print(markdown_table(headers, rows))
    for note in notes:
        print(f"\n{note}")
    sys.stdout.flush()


# -- the machine ----------------------------------------------------------------------
def _lscpu() -> dict[str, str]:
    try:
        text = subprocess.run(["lscpu"], capture_output=True, text=True,
                              timeout=10).stdout
    except Exception:
        return {}
    out = {}
    for ln in text.splitlines():
        key, _, value = ln.partition(":")
        out.setdefault(key.strip(), value.strip())
    return out


def _version(mod: str) -> str:
    try:
        from importlib.metadata import version
        return version(mod)
    except Exception:
        return "not installed"


def machine_info() -> dict[str, str]:
    """CPU model, core count, OS, and the versions that matter for the figures."""
    cpu = _lscpu()
    return {
        "date": datetime.date.today().isoformat(),
        "cpu": cpu.get("Model name") or platform.processor() or "unknown",
        "cores": (f"{cpu.get('CPU(s)', os.cpu_count())} logical "
                  f"({cpu.get('Core(s) per socket', '?')} cores/socket, "
                  f"{cpu.get('Socket(s)', '?')} socket(s))"),
        "hypervisor": cpu.get("Hypervisor vendor", "none"),
        "os": platform.platform(),
        "python": platform.python_version(),
        "hanajit": _version("hanajit-core"),
        "llvmlite": _version("llvmlite"),
        "numba": _version("numba"),
        "numpy": _version("numpy"),
    }


def print_machine() -> None:
    info = machine_info()
    print("## Machine\n")
    for k, v in info.items():
        print(f"- {k}: {v}")
    sys.stdout.flush()
