"""Entry point of the ``fpga`` plugin: the export target and ``export_fpga``."""
from hanajit import hookimpl

from .target import FpgaTarget


@hookimpl
def hanajit_register_target(register):
    register(FpgaTarget)


@hookimpl
def hanajit_register_exporters(register):
    register("fpga", export_fpga)


def export_fpga(jitfunc, *args, **kwargs):
    """Imported on first use, so plugin discovery stays cheap."""
    from .export import export_fpga as impl
    return impl(jitfunc, *args, **kwargs)
