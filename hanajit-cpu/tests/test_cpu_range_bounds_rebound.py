"""``for i in range(start, stop, step)`` makes its range once: a start or step the
loop's body rebinds does not change the items (``passes/lower_semantics.for_range``;
found by generator inlining, where a generator's range loop holds the caller's
loop body)."""
from __future__ import annotations

from hanajit import jit
from hanajit.testing.compare import check_call


def rebinds_step(n):
    step = 1
    t = 0
    for i in range(0, n, step):
        t = t * 3 + i
        step = 2
    return t, step


def rebinds_start_and_stop(n, start):
    t = 0
    for i in range(start, n):
        t = t * 3 + i
        start = 100
        n = 1
    return t, start, n


def rebinds_in_inner_loop(n):
    step = 1
    t = 0
    for i in range(0, n, step):
        for j in range(3):
            step += j
            t = t * 2 + i
    return t, step


def test_rebound_bounds_are_read_once():
    for fn, argsets in [(rebinds_step, [(6,), (0,)]),
                        (rebinds_start_and_stop, [(6, 1), (0, 3)]),
                        (rebinds_in_inner_loop, [(5,)])]:
        compiled = jit(fn, fallback=False)
        for args in argsets:
            check_call(fn, compiled, *args)
