"""Entry point of the ``cuda`` target plugin."""
from hanajit import hookimpl

from .target import CudaTarget


@hookimpl
def hanajit_register_target(register):
    register(CudaTarget)
