"""The host case list of the conformance suite (``hanajit.testing.conformance``) on
the CPU target."""
from hanajit.testing.conformance import HostConformance


class TestCpuConformance(HostConformance):
    target = "cpu"
