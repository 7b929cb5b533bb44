"""The doctor's checks of what a host target provides: a host target at all, the
native dispatcher, the thread pool and the disk cache.

Each records one check on the report (:class:`hanajit.doctor.Report`): passed,
failed, or skipped (``None``) with the reason when the interpreter or the
platform cannot have the feature.  They use only the public API (``@jit``,
``prange``, ``cache=True``), so they check what a user gets.
"""
from __future__ import annotations

import contextlib
import math
import os
import subprocess
import sys
import tempfile
import textwrap
import timeit

from .loops import prange


def host_target(report) -> bool:
    """Is a host target (one that compiles for this machine) installed and usable?"""
    from . import plugins
    hosts = [(name, cls) for name, cls in plugins.target_classes().items()
             if cls.kind == "host"]
    usable = []
    for name, _cls in hosts:
        try:
            if plugins.get_target(name).status()[0]:
                usable.append(name)
        except Exception:          # its own group reports why
            pass
    if usable:
        report.check("host target", True, ", ".join(usable))
        return True
    detail = ("no host target is installed: every @jit function runs in the "
              "interpreter; install one (pip install hanajit-cpu)") if not hosts else \
        f"installed but unusable here: {', '.join(n for n, _ in hosts)}"
    report.check("host target", False, detail)
    return False


def _add(a, b):
    return a + b


def native_dispatch(report) -> None:
    """A call of a jitted function goes through the generated vectorcall
    dispatcher (no Python frame runs) and costs ... ns."""
    from .api import HOT_CALLS, jit
    from .dispatch.heaptype import get_vectorcall, native_dispatch_enabled
    from .dispatch.heaptype import interpreter_supports_native
    name = "native dispatcher"
    supported, why = interpreter_supports_native()
    if not supported:
        report.check(name, None, f"not used on this interpreter: {why}")
        return
    if not native_dispatch_enabled():
        report.check(name, None, "turned off (HANAJIT_NATIVE_DISPATCH=0)")
        return
    f = jit(fallback=False)(_add)
    for _ in range(1 + HOT_CALLS):      # compiled, then called on: the dispatcher made
        f(1, 2)
    if not get_vectorcall(f):
        report.check(name, False, "no dispatcher was generated (see the warnings "
                                  "'native dispatch unavailable')")
        return
    frames = []
    sys.setprofile(lambda frame, event, arg: frames.append(frame.f_code.co_name)
                   if event == "call" else None)
    try:
        got = f(1, 2)
    finally:
        sys.setprofile(None)
    if got != 3 or frames:
        report.check(name, False, f"the call ran Python code ({', '.join(frames)}), "
                                  f"returned {got!r}")
        return
    n = 20000
    best = min(timeit.Timer("f(1, 2)", globals={"f": f}).repeat(5, n)) / n
    report.check(name, True, f"f(1, 2) in {best * 1e9:.0f} ns per call")


def _spin(out, work):
    for i in prange(out.shape[0]):
        s = 0.0
        for j in range(work):
            s += math.sqrt(j + i)
        out[i] = s


def _thread_ticks() -> dict | None:
    """CPU clock ticks per thread of this process (Linux), or None."""
    root = "/proc/self/task"
    if not os.path.isdir(root):
        return None
    ticks = {}
    for tid in os.listdir(root):
        with contextlib.suppress(OSError, IndexError, ValueError):
            with open(f"{root}/{tid}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            ticks[tid] = int(fields[11]) + int(fields[12])     # utime + stime
    return ticks


def thread_pool(report, attempts: int = 3) -> None:
    """A ``prange`` loop runs on the pool: how many threads did work in it."""
    import numpy as np

    from .thread_count import get_num_threads
    name = "thread pool"
    n = get_num_threads()
    if n < 2:
        report.check(name, True, "1 thread configured (hanajit.set_num_threads); "
                                 "prange loops run serially")
        return
    if _thread_ticks() is None:
        report.check(name, None, "cannot count the threads that ran on this platform "
                                 "(no /proc/self/task)")
        return
    from .api import jit
    spin = jit(fallback=False)(_spin)
    out = np.zeros(n * 8)
    spin(out, 10)                          # compile and start the pool
    worked = 0
    for attempt in range(attempts):
        work = 400_000 * (attempt + 1)     # ~1 ms per iteration, more on retries
        before = _thread_ticks()
        spin(out, work)
        after = _thread_ticks()
        worked = sum(1 for tid, t in after.items() if t > before.get(tid, 0))
        if worked >= n:
            break
    ok = worked >= 2
    report.check(name, ok, f"a prange loop ran on {worked} of {n} threads"
                 + ("" if ok else " (the pool's threads did no work: a loaded "
                                  "machine, or the pool cannot start threads)"))


_CACHE_PROBE = '''
import hanajit

@hanajit.jit(cache=True, fallback=False)
def hj_doctor_cached(n):
    s = 0
    for i in range(n):
        s += i * 3 + 1
    return s
'''
_CHILD = '''
import sys
sys.path.insert(0, sys.argv[1])
import hj_doctor_cache_probe as m
from hanajit import cache
got = m.hj_doctor_cached(1000)
print(got, cache.stats["hits"], cache.stats["misses"])
'''


def disk_cache(report) -> None:
    """Compile with ``cache=True`` here, then load the entry in a child process."""
    import glob
    import importlib.util
    name = "disk cache"
    expected = sum(i * 3 + 1 for i in range(1000))
    with tempfile.TemporaryDirectory(prefix="hanajit-doctor-") as tmp:
        cache_dir = os.path.join(tmp, "cache")
        source = os.path.join(tmp, "hj_doctor_cache_probe.py")
        with open(source, "w", encoding="utf-8") as fh:
            fh.write(_CACHE_PROBE)
        saved = os.environ.get("HANAJIT_CACHE_DIR")
        os.environ["HANAJIT_CACHE_DIR"] = cache_dir
        try:
            spec = importlib.util.spec_from_file_location("hj_doctor_cache_probe", source)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            got = mod.hj_doctor_cached(1000)
        finally:
            if saved is None:
                os.environ.pop("HANAJIT_CACHE_DIR", None)
            else:
                os.environ["HANAJIT_CACHE_DIR"] = saved
        written = glob.glob(os.path.join(cache_dir, "**", "*.hjc"), recursive=True)
        if got != expected or not written:
            report.check(name, False, f"nothing written to {cache_dir}" if got == expected
                         else f"the probe returned {got}, not {expected}")
            return
        env = dict(os.environ, HANAJIT_CACHE_DIR=cache_dir)
        proc = subprocess.run([sys.executable, "-c", textwrap.dedent(_CHILD), tmp],
                              capture_output=True, text=True, env=env, timeout=300)
        words = proc.stdout.split()
        if proc.returncode != 0 or len(words) != 3:
            report.check(name, False, "the child process failed: "
                         + (proc.stderr.strip().splitlines() or ["(no output)"])[-1])
            return
        value, hits, _misses = (int(w) for w in words)
        ok = value == expected and hits == 1
        report.check(name, ok, f"written here, loaded in a child process ({hits} hit); "
                     + _cache_folder() if ok
                     else f"child process: result {value}, {hits} cache hits")


def _cache_folder() -> str:
    """Where this user's cache lives and what the library keeps there (its compiled
    pieces: docs/cache.md)."""
    import glob
    from .cache import store
    root = store.cache_dir()
    pieces = glob.glob(os.path.join(root, "_library", "*.hjc"))
    size = sum(os.path.getsize(p) for p in pieces if os.path.isfile(p))
    return (f"the cache folder is {root} ({len(pieces)} compiled library pieces, "
            f"{size / 1e6:.1f} MB)")
