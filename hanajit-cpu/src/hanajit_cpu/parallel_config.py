"""How many threads the CPU target's ``prange`` loops use: ``HANAJIT_NUM_THREADS``, else the CPUs
this process may run on; ``hanajit.set_num_threads(n)`` changes it at run time and
``@jit(workers=N)`` fixes it for one function."""
from __future__ import annotations

import ctypes
import os

_address = None
_value = None


def default_num_threads() -> int:
    env = os.environ.get("HANAJIT_NUM_THREADS", "").strip()
    if env:
        try:
            return max(1, int(env))
        except ValueError:
            pass
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def get_num_threads() -> int:
    """The number of threads a parallel loop runs on (at most)."""
    return _value if _value is not None else default_num_threads()


def set_num_threads(n: int) -> None:
    """Run parallel loops on at most ``n`` threads (``n >= 1``)."""
    global _value
    n = int(n)
    if n < 1:
        raise ValueError("the number of threads must be at least 1")
    _value = n
    if _address is not None:
        ctypes.c_int64.from_address(_address).value = n


def apply_num_threads(address: int) -> None:
    """Called by a host engine with the address of its ``hj_num_threads``."""
    global _address
    _address = address
    ctypes.c_int64.from_address(address).value = get_num_threads()
