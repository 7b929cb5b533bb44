"""The conformance suite every target passes: subclass it in the target's tests.

::

    from hanajit.testing.conformance import TargetConformance

    class TestCudaConformance(TargetConformance):
        target = "cuda"

Each case compiles module-level Python functions with ``jit(target=self.target,
fallback=False)`` and checks every result against CPython running the same function
(:mod:`hanajit.testing.reference`).  A target whose ``status()`` is not ok skips
every case with the reason.
"""
from __future__ import annotations

from .cases_builtins import BuiltinCases
from .cases_operators import OperatorCases
from .cases_statements import StatementCases


class TargetConformance(OperatorCases, BuiltinCases, StatementCases):
    """Scalar Python semantics, case by case (``target`` names the target)."""

    target = "cpu"


__all__ = ["TargetConformance"]
