"""The conformance suite: one case list per kind of target; subclass the one that
fits in the target's tests.

::

    from hanajit.testing.conformance import HostConformance

    class TestExampleConformance(HostConformance):
        target = "example"

* :class:`HostConformance` (alias ``TargetConformance``) -- targets whose compiled
  functions run in this process (``kind == "host"``): scalar Python semantics
  (operators, builtins, statements) and arrays passed in.
* :class:`KernelConformance` -- GPU kernel targets: cases written as kernels that
  write into an output array, launched on the device and checked against the
  same kernel run on the CPU interpreter (:mod:`.cases_kernels`).
* :class:`ExporterConformance` -- exporters: each case exported, the artifact run
  (an executable, a WebAssembly module under node, an HLS C simulation) and its
  printed result checked against CPython (:mod:`.cases_exports`).

Each case compiles module-level Python functions with ``fallback=False`` and
checks every result against CPython running the same function
(:mod:`hanajit.testing.reference`).  The list is chosen by the target's declared
:class:`~hanajit.target.Capabilities`: a case needing what the target lacks is
not collected (:func:`.base.requires`).  A target whose ``status()`` is not ok
skips every case with the reason.  ``pip install "hanajit-core[testing]"`` brings
pytest and hypothesis.
"""
from __future__ import annotations

from .cases_arrays import ArrayCases
from .cases_builtins import BuiltinCases
from .cases_exports import ExporterConformance
from .cases_kernels import KernelConformance
from .cases_operators import OperatorCases
from .cases_statements import StatementCases


class HostConformance(OperatorCases, BuiltinCases, StatementCases, ArrayCases):
    """The host list: scalar Python semantics case by case, then arrays."""

    target = "cpu"


TargetConformance = HostConformance

__all__ = ["ExporterConformance", "HostConformance", "KernelConformance",
           "TargetConformance"]
