"""Entry point of the ``cpu`` target plugin."""
from hanajit import hookimpl

from .target import CpuTarget


@hookimpl
def hanajit_register_target(register):
    register(CpuTarget)
