"""The example target passes the host conformance suite through its own compile()."""
from __future__ import annotations

from hanajit.testing.conformance import HostConformance


class TestExampleConformance(HostConformance):
    target = "example"
