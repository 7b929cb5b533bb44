"""Entry point of the ``levelzero`` target plugin (also called ``intel``)."""
from hanajit import hookimpl

from .target import LevelZeroTarget


@hookimpl
def hanajit_register_target(register):
    register(LevelZeroTarget)
