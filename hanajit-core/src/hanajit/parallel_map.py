"""``hanajit.pmap``: one function over a batch of argument tuples, in parallel.

By default the calls run on a thread pool, which runs jitted functions
concurrently when they release the GIL (``@jit(nogil=True)``; functions with
``prange`` loops release it too).  Any ``concurrent.futures.Executor`` may be given
instead: a ``ProcessPoolExecutor``, or a Dask cluster through
``client.get_executor()``.  Jitted functions travel by reference (module and
qualified name) and compile, or load from the disk cache, on the worker.  Results
come back in the order of ``argtuples``; the first failing call's exception is
raised as it was raised on the worker.  Array arguments that arrive unaligned
(Dask deserialises them from network buffers at any offset) are passed to the
function as aligned copies, which compiled code needs, and copied back.
"""
from __future__ import annotations

from concurrent.futures import Executor, ThreadPoolExecutor


def _call(fn, args):
    """``fn(*args)`` where unaligned arrays -- what Dask and other executors
    deserialise from network buffers -- are passed as aligned copies (compiled
    code takes aligned arrays only) and copied back afterwards, so the call still
    sees and changes the same values."""
    fixed = tuple(_aligned(a) for a in args)
    try:
        return fn(*fixed)
    finally:
        for a, f in zip(args, fixed):
            if f is not a and a.flags.writeable:
                a[...] = f


def _aligned(a):
    if type(a).__name__ == "ndarray" and not a.flags.aligned:
        return a.copy()
    return a


def pmap(fn, argtuples, workers: int | None = None, executor: Executor | None = None):
    """``[fn(*args) for args in argtuples]``, computed in parallel.

    ``workers`` sizes the default thread pool (``HANAJIT_NUM_THREADS`` or the CPU
    count when None); ``executor`` replaces it (and is not shut down)."""
    argtuples = [tuple(a) if isinstance(a, (tuple, list)) else (a,) for a in argtuples]
    if not argtuples:
        return []
    if executor is not None:
        futures = [executor.submit(_call, fn, a) for a in argtuples]
        return [f.result() for f in futures]
    if workers is None:
        from .thread_count import get_num_threads
        workers = get_num_threads()
    workers = max(1, min(int(workers), len(argtuples)))
    if workers == 1:
        return [_call(fn, a) for a in argtuples]
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="hanajit-pmap") as ex:
        return list(ex.map(_call, [fn] * len(argtuples), argtuples))


__all__ = ["pmap"]
