"""Random programs (``hanajit.testing.progen``) compiled for the CPU and compared
with CPython: 11 modules of 52 programs (572 per run), zero mismatches allowed.

A mismatch prints the program and its inputs; reproduce it with
``python -m hanajit.testing.progen --seed <seed> --modules 1 --count 52`` and turn it
into a small named test in ``test_cpu_regressions.py``.
"""
import pytest

from hanajit.testing.progen import generate_module, run_module

MODULES = 11
PROGRAMS = 52


@pytest.mark.parametrize("seed", range(MODULES))
def test_random_programs_match_cpython(seed):
    stats = run_module(generate_module(seed, PROGRAMS))
    assert stats.programs == PROGRAMS
    assert not stats.mismatches, "\n\n".join(map(str, stats.mismatches[:3]))
    # most inputs must be compared, not skipped for int64 overflow
    assert stats.calls >= 2 * stats.skipped_overflow
