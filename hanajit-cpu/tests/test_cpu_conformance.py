"""The shared conformance suite (``hanajit.testing.conformance``) on the CPU target."""
from hanajit.testing.conformance import TargetConformance


class TestCpuConformance(TargetConformance):
    target = "cpu"
