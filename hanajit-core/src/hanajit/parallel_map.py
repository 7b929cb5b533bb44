"""``hanajit.pmap``: one function over a batch of argument tuples, in parallel.

By default the calls run on a thread pool, which runs jitted functions
concurrently when they release the GIL (``@jit(nogil=True)``; functions with
``prange`` loops release it too).  Any ``concurrent.futures.Executor`` may be given
instead: a ``ProcessPoolExecutor``, or a Dask cluster through
``client.get_executor()``.  Jitted functions travel by reference (module and
qualified name) and compile, or load from the disk cache, on the worker.  Results
come back in the order of ``argtuples``; the first failing call's exception is
raised as it was raised on the worker.
"""
from __future__ import annotations

from concurrent.futures import Executor, ThreadPoolExecutor


def _call(fn, args):
    return fn(*args)


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
        from .parallel_config import get_num_threads
        workers = get_num_threads()
    workers = max(1, min(int(workers), len(argtuples)))
    if workers == 1:
        return [fn(*a) for a in argtuples]
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="hanajit-pmap") as ex:
        return list(ex.map(_call, [fn] * len(argtuples), argtuples))


__all__ = ["pmap"]
