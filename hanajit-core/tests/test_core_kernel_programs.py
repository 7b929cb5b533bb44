"""The GPU programs' references checked against the kernels themselves, run in the
interpreter by a grid of Python threads (one block at a time, a
``threading.Barrier`` per block, atomics under a lock), so every GPU target's
conformance list compares with references that are right."""
from __future__ import annotations

import threading
import types

import numpy as np
import pytest

from hanajit.testing.cases_kernel_programs import PROGRAMS, _same


def run_grid(kernel, args, grid, block):
    grid = (grid,) if isinstance(grid, int) else tuple(grid)
    block = (block,) if isinstance(block, int) else tuple(block)
    grid, block = grid + (1,) * (3 - len(grid)), block + (1,) * (3 - len(block))
    lock = threading.Lock()
    local = threading.local()

    def atomic(op):
        def update(a, i, v):
            with lock:
                old = a[i]
                a[i] = op(old, v)
                return old
        return update

    model = {"barrier": lambda: local.barrier.wait(),
             "atomic_add": atomic(lambda old, v: old + v),
             "atomic_min": atomic(min), "atomic_max": atomic(max)}
    for k, axis in enumerate(("", "_x", "_y", "_z")):
        d = max(k - 1, 0)
        model["thread_id" + axis] = lambda d=d: local.tid[d]
        model["block_id" + axis] = lambda d=d: local.bid[d]
        model["block_dim" + axis] = lambda d=d: block[d]
        model["grid_dim" + axis] = lambda d=d: grid[d]

    def shared_array(n, dtype):
        k = local.calls
        local.calls += 1
        with lock:
            return local.shared.setdefault(k, np.zeros(n, dtype))

    model["shared_array"] = shared_array
    run = types.FunctionType(kernel.__code__, {**kernel.__globals__, **model})
    errors = []

    def thread(tid, bid, barrier, shared):
        local.tid, local.bid, local.barrier = tid, bid, barrier
        local.shared, local.calls = shared, 0
        try:
            run(*args)
        except Exception as exc:          # noqa: BLE001 - the first one is raised
            errors.append(exc)
            barrier.abort()

    size = block[0] * block[1] * block[2]
    for bz in range(grid[2]):
        for by in range(grid[1]):
            for bx in range(grid[0]):
                barrier, shared = threading.Barrier(size), {}
                threads = [threading.Thread(target=thread, args=(
                    (x, y, z), (bx, by, bz), barrier, shared))
                    for z in range(block[2]) for y in range(block[1])
                    for x in range(block[0])]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
    real = [e for e in errors if not isinstance(e, threading.BrokenBarrierError)]
    if real:
        raise real[0]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_reference_matches_the_kernel_in_the_interpreter(name):
    p = PROGRAMS[name]
    args, reference = p.make()
    if p.raises:
        exc, message = p.raises
        with pytest.raises(exc, match=message):
            run_grid(p.kernel, args, p.grid, p.block)
        return
    run_grid(p.kernel, args, p.grid, p.block)
    for got, want in reference():
        assert got.dtype == want.dtype
        assert _same(got, want).all(), name
