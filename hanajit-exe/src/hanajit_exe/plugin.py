"""Entry point of the ``exe`` plugin: the export target and ``export_executable``."""
from hanajit import hookimpl

from .target import ExeTarget


@hookimpl
def hanajit_register_target(register):
    register(ExeTarget)


@hookimpl
def hanajit_register_exporters(register):
    register("executable", export_executable)


def export_executable(jitfunc, *args, **kwargs):
    """Imported on first use, so plugin discovery stays cheap."""
    from .export import export_executable as impl
    return impl(jitfunc, *args, **kwargs)
