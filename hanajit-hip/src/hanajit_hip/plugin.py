"""Entry point of the ``hip`` target plugin (also reachable as ``"amd"``)."""
from hanajit import hookimpl

from .target import HipTarget


@hookimpl
def hanajit_register_target(register):
    register(HipTarget)
