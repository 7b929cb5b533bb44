"""The cost of the recursion check: recursive kernels with and without it, next to
Numba (which has no check and crashes on deep recursion) and CPython.

Recursive functions check their stack frame against a floor at every call, so a
recursion too deep raises RecursionError as in CPython instead of crashing
(``hanajit/passes/stack_check.py``).  "no check" compiles the same function for a
copy of the CPU target whose capabilities say ``stack_check=False``: what every
recursive function cost before the check existed.

    python benchmarks/bench_recursion.py [--quick]
"""
from __future__ import annotations

import argparse
import dataclasses

from common import fmt_ratio, fmt_seconds, interleaved, median, numba_njit, print_table

from hanajit import jit, plugins

njit = numba_njit()


def fib_hj(n):
    if n < 2:
        return n
    return fib_hj(n - 1) + fib_hj(n - 2)


def fib_raw(n):
    if n < 2:
        return n
    return fib_raw(n - 1) + fib_raw(n - 2)


def ack_hj(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ack_hj(m - 1, 1)
    return ack_hj(m - 1, ack_hj(m, n - 1))


def ack_raw(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ack_raw(m - 1, 1)
    return ack_raw(m - 1, ack_raw(m, n - 1))


def fib_py(n):
    return n if n < 2 else fib_py(n - 1) + fib_py(n - 2)


def without_check(func):
    """``func`` compiled with the CPU target's capabilities minus the stack check."""
    target = plugins.get_target("cpu")
    saved = target.capabilities
    target.capabilities = dataclasses.replace(saved, stack_check=False)
    try:
        f = jit(func, fallback=False, cache=False)
        globals()[func.__name__] = f            # the recursive call means f
        f(1, 1) if func.__code__.co_argcount == 2 else f(1)
    finally:
        target.capabilities = saved
    return f


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    quick = ap.parse_args().quick
    repeats = 5 if quick else 15
    rows = []
    fib_raw_, ack_raw_ = without_check(fib_raw), without_check(ack_raw)
    fib_hj_ = globals()["fib_hj"] = jit(fib_hj, fallback=False, cache=False)
    ack_hj_ = globals()["ack_hj"] = jit(ack_hj, fallback=False, cache=False)
    nb = {}
    if njit is not None:
        exec("def fib_nb(n):\n    return n if n < 2 else fib_nb(n - 1) + fib_nb(n - 2)\n"
             "def ack_nb(m, n):\n    if m == 0:\n        return n + 1\n    if n == 0:\n"
             "        return ack_nb(m - 1, 1)\n    return ack_nb(m - 1, ack_nb(m, n - 1))\n",
             nb)
        nb = {k: njit(v) for k, v in nb.items() if k.endswith("_nb")}
        nb["fib_nb"].py_func.__globals__.update(nb)     # the recursive calls
    cases = [("fib(27)", fib_hj_, fib_raw_, nb.get("fib_nb"), (27,)),
             ("ackermann(2, 2000)", ack_hj_, ack_raw_, nb.get("ack_nb"), (2, 2000))]
    for name, checked, raw, numba_f, args in cases:
        want = raw(*args)
        assert checked(*args) == want
        cands = {"checked": lambda: checked(*args), "no check": lambda: raw(*args)}
        if numba_f is not None:
            assert numba_f(*args) == want
            cands["numba"] = lambda: numba_f(*args)
        t = {k: median(v) for k, v in interleaved(cands, repeats).items()}
        rows.append([name, fmt_seconds(t["checked"]), fmt_seconds(t["no check"]),
                     fmt_ratio(t["no check"] / t["checked"]),
                     fmt_seconds(t.get("numba")),
                     fmt_ratio(t["numba"] / t["checked"]) if "numba" in t else "-"])
    print_table("Recursion: the cost of raising RecursionError instead of crashing",
                ["kernel", "hanajit", "hanajit, no check", "no check / hanajit",
                 "numba", "numba / hanajit"], rows,
                ["Ratios above 1: hanajit with the check is faster."])


if __name__ == "__main__":
    main()
