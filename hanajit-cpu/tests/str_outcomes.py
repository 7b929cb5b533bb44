"""Helpers of the run-time str tests (test_cpu_str_floats.py, test_cpu_str_cases.py,
test_cpu_str_splits.py, test_cpu_str_methods.py, test_cpu_str_messages.py,
test_cpu_small_gaps.py): each
kernel jitted once (strictly: no fallback, no warning), a str's code points as an
argument, and the compiled outcome compared with CPython's -- value and type, or
exception class and text."""
import numpy as np

from hanajit.testing.compare import outcome, strict_jit

_jitted = {}


def compiled(f):
    if f not in _jitted:
        _jitted[f] = strict_jit(f)
    return _jitted[f]


def codes(text):
    return np.array([ord(c) for c in text], np.int64)


def same(f, *args):
    assert outcome(compiled(f), *args) == outcome(f, *args)
