"""Entry point of the ``metal`` target plugin."""
from hanajit import hookimpl

from .target import MetalTarget


@hookimpl
def hanajit_register_target(register):
    register(MetalTarget)
