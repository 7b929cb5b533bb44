"""One compiled specialisation of a jitted function, as its dispatcher keeps it."""
from __future__ import annotations


class Specialization:
    """A compiled specialisation: the IR module, the target artifact, the runner."""

    def __init__(self, arg_types, module, artifact, runner):
        self.arg_types = arg_types
        self.module = module
        self.artifact = artifact
        self.runner = runner
