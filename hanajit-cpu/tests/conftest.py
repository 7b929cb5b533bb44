"""Fixtures shared by the CPU target's tests."""
from hanajit.testing.dispatch_modes import mode  # noqa: F401  (a fixture: both dispatchers)
