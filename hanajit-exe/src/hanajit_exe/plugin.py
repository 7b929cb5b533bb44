"""Entry point of the ``exe`` plugin: the export target and ``export_executable``."""
from hanajit import hookimpl

from .export import export_executable
from .target import ExeTarget


@hookimpl
def hanajit_register_target(register):
    register(ExeTarget)


@hookimpl
def hanajit_register_exporters(register):
    register("executable", export_executable)
