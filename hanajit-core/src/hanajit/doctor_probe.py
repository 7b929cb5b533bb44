"""The doctor's probe kernel, compiled and launched for any GPU target.

:func:`probe_kernel` compiles the same saxpy kernel for every target (each
plugin's doctor shows that it compiles, then validates the output with its own
tools).  :func:`check_launch` launches it on the target's device in a child
process -- a vendor runtime that crashes or hangs cannot take the doctor with
it -- and checks the result against NumPy; the child is
``python -m hanajit.doctor_probe <target> <dtype>`` and prints one JSON line.
The values are small integers scaled by 2, so the result is exact whether or not
the device fuses the multiply and add.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

N = 1000
BLOCK = 64
SIGNATURES = {"f64": "f64[:], f64[:], f64, i64", "f32": "f32[:], f32[:], f32, i64"}


def hj_probe(y, x, a, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821 - kernel intrinsics
    if i < n:
        y[i] = a * x[i] + y[i]


def probe_kernel(target: str, dtype: str = "f64", **options):
    """The probe kernel compiled eagerly for ``target`` (``fallback=False``: an
    error raises)."""
    from .api import jit
    return jit(hj_probe, target=target, fallback=False, signature=SIGNATURES[dtype],
               **options)


def check_launch(report, target: str, dtype: str = "f64", timeout: float = 120) -> bool:
    """Launch the probe on ``target``'s device in a child process and add the
    outcome to ``report``; True when the result was NumPy's."""
    name = f"{target}: probe launch (saxpy on the device, in a child process)"
    cmd = [sys.executable, "-m", "hanajit.doctor_probe", target, dtype]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              env=dict(os.environ))
    except subprocess.TimeoutExpired:
        report.check(name, False, f"no answer within {timeout:g} s")
        return False
    lines = proc.stdout.strip().splitlines()
    try:
        outcome = json.loads(lines[-1])
    except (IndexError, ValueError):
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        report.check(name, False, f"the child exited with status {proc.returncode}: "
                                  f"{tail}")
        return False
    report.check(name, outcome["ok"], outcome["detail"])
    return bool(outcome["ok"])


def _launch(target: str, dtype: str) -> dict:
    import time

    import numpy as np

    from . import plugins
    kind = np.float64 if dtype == "f64" else np.float32
    f = probe_kernel(target, dtype)
    x = np.arange(N, dtype=kind)
    y = np.arange(N, dtype=kind)[::-1].copy()
    expected = kind(2) * x + y
    t0 = time.perf_counter()
    f.launch(y, x, kind(2), N, grid=(N + BLOCK - 1) // BLOCK, block=BLOCK)
    ms = (time.perf_counter() - t0) * 1e3
    device = plugins.get_target(target).status()[1]
    if not np.array_equal(y, expected):
        bad = int(np.flatnonzero(y != expected)[0])
        return {"ok": False, "detail": f"launched on {device}, but y[{bad}] is "
                                       f"{float(y[bad])!r}, not {float(expected[bad])!r}"}
    return {"ok": True, "detail": f"{N} {dtype} elements on {device} equal NumPy's "
                                  f"(first launch, with compiling: {ms:.1f} ms)"}


def main(argv=None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    target, dtype = args[0], (args[1:] or ["f64"])[0]
    try:
        outcome = _launch(target, dtype)
    except Exception as exc:             # noqa: BLE001 - reported to the parent
        outcome = {"ok": False, "detail": f"{type(exc).__name__}: {exc}"}
    print(json.dumps(outcome), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
