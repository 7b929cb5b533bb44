"""nogil=True (and functions with parallel loops) run without the GIL, on the
native dispatcher and on the Python dispatcher alike; results are unchanged."""
import os
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent("""
    import sys, threading, numpy as np
    from hanajit import jit, prange

    def spin(x, reps):
        s = 0.0
        for r in range(reps):
            for i in range(len(x)):
                s += x[i] * 1.0000001
        return s

    def pspin(x, reps):
        s = 0.0
        for i in prange(len(x)):
            t = 0.0
            for r in range(reps):
                t += x[i] * 1.0000001
            s += t
        return s

    released = jit(spin, nogil=True)
    held = jit(spin)
    par = jit(pspin)
    x = np.ones(100_000)

    def progress_during(f, reps):
        for _ in range(50):              # compiled, and the native dispatcher built
            f(x, 1)
        count = [0]
        done = threading.Event()
        def other():
            while not done.is_set():
                count[0] += 1
        t = threading.Thread(target=other)
        t.start()
        while count[0] == 0:
            pass
        start = count[0]
        r = f(x, reps)
        end = count[0]
        done.set()
        t.join()
        assert r == f(x, reps) and abs(r / (reps * len(x)) - 1) < 1e-3
        return end - start

    sys.setswitchinterval(0.001)
    a = progress_during(released, 3000)
    b = progress_during(par, 3000)
    print(a, b)
    assert a > 1000 and b > 1000, (a, b)
    if sys.argv[1] == "1":
        # the native dispatcher holds the GIL for plain functions: the other
        # thread barely runs then (the counts differ by orders of magnitude)
        c = progress_during(held, 3000)
        assert a > 5 * c and b > 5 * c, (a, b, c)
""")


@pytest.mark.parametrize("native", ["1", "0"])
def test_other_threads_run_during_a_nogil_call(tmp_path, native):
    script = tmp_path / "nogil.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, HANAJIT_NATIVE_DISPATCH=native, HANAJIT_NUM_THREADS="2")
    r = subprocess.run([sys.executable, str(script), native], capture_output=True, text=True,
                       env=env, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
