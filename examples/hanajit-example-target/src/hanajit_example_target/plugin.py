"""Entry point of the ``example`` plugin: every hook a plugin can implement."""
from __future__ import annotations

import sys

from hanajit import hookimpl

from .target import ExampleTarget, write_listing


@hookimpl
def hanajit_register_target(register):
    register(ExampleTarget)


@hookimpl
def hanajit_register_exporters(register):
    register("example_listing", write_listing)


@hookimpl
def hanajit_doctor(report):
    ok = sys.version_info >= (3, 10)
    report.check("example plugin python", ok, sys.version.split()[0])
