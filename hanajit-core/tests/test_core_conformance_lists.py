"""The conformance case lists themselves: the kernel list's interpreter reference,
and case selection by declared capabilities."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from hanajit.target import Capabilities
from hanajit.testing import base
from hanajit.testing.cases_kernels import KERNELS, N, float_arith, run_threads


def test_interpreter_reference_runs_every_thread():
    x, y = np.arange(N, dtype=np.float64), np.full(N, 2.0)
    out = np.zeros(N)
    run_threads(float_arith, out, (x, y), N)
    assert np.array_equal(out, (x + y) * x - y / (np.abs(y) + 1.0))


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_every_kernel_case_runs_in_the_interpreter_without_raising(name):
    kernel, dtype, make, _ = KERNELS[name]
    out = np.zeros(N, dtype)
    with warnings.catch_warnings():
        # integers: no overflow (Python ints and int64 would part); floats may
        # meet inf and NaN on purpose
        warnings.simplefilter("error" if dtype == np.int64 else "ignore")
        run_threads(kernel, out, make(), N)


def test_cases_are_chosen_by_capabilities(monkeypatch):
    class Cases(base.ConformanceBase):
        @base.requires("complex")
        def test_complex(self):
            pass

        def test_plain(self):
            pass

    monkeypatch.setattr(base, "capabilities_of", lambda name: Capabilities(complex=False))

    class Without(Cases):
        target = "nothing"
    assert Without.test_complex is None and callable(Without.test_plain)
    monkeypatch.setattr(base, "capabilities_of", lambda name: Capabilities())

    class With(Cases):
        target = "everything"
    assert callable(With.test_complex)
