"""``hanajit.get_num_threads()`` / ``set_num_threads(n)``: how many threads the
default target's parallel loops (``prange``, ``parallel=True``) and ``pmap`` use.

The target keeps the number (:meth:`hanajit.target.Target.get_num_threads`); the
CPU target's is ``HANAJIT_NUM_THREADS``, else the CPUs this process may run on,
until ``set_num_threads`` changes it.  ``@jit(workers=N)`` fixes it for one function.
"""
from __future__ import annotations

from . import plugins


def get_num_threads() -> int:
    """The number of threads a parallel loop runs on (at most)."""
    return plugins.get_target(plugins.DEFAULT_TARGET).get_num_threads()


def set_num_threads(n: int) -> None:
    """Run parallel loops on at most ``n`` threads (``n >= 1``)."""
    plugins.get_target(plugins.DEFAULT_TARGET).set_num_threads(n)
