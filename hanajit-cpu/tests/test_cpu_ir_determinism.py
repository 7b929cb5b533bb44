"""The LLVM IR hanajit hands to LLVM is the same text in every process: no order
of a set or dict of names that Python's string hashing decides leaks into it
(jam_loops' copies, unbound_locals' flags).  The library cache and the shared
pieces are keyed by that text, so two processes -- two xdist workers -- share
their work only when it is."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent('''
    import hashlib, sys
    import numpy as np
    from hanajit import jit
    from hanajit.toolkit import llvm_toolchain

    seen = []
    compile_ = llvm_toolchain.compile

    def recording(ir_text, tm, **kw):
        seen.append(hashlib.sha256(ir_text.encode()).hexdigest())
        return compile_(ir_text, tm, **kw)

    llvm_toolchain.compile = recording

    def std_rows(a):
        return a.std(axis=1)

    def listed(n):
        out = [i * i for i in range(n) if i % 3]
        return sum(out)

    def maybe(a, n):
        for i in range(n):
            if a[i] > 0:
                last = a[i]
        return last

    def clamped(a, n):
        s = 0.0
        for i in range(n):
            s += a[min(max(i - 1, 0), n - 1)] * a[i]
        return s

    a = np.arange(1.0, 13.0).reshape(3, 4)
    jit(std_rows, fallback=False)(a)
    jit(listed, fallback=False)(10)
    jit(maybe, fallback=False)(a[0], 4)
    jit(clamped, fallback=False)(a[1], 4)
    print(" ".join(seen))
''')


def _texts(tmp_path, seed: int) -> list:
    script = tmp_path / "kernels.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, PYTHONHASHSEED=str(seed),
               HANAJIT_CACHE_DIR=str(tmp_path / f"cache{seed}"))
    out = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.split()


def test_the_same_ir_text_under_any_string_hashing(tmp_path):
    first = _texts(tmp_path, 1)
    assert first and _texts(tmp_path, 2) == first and _texts(tmp_path, 3) == first
