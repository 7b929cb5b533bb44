"""Entry point of the ``fpga`` plugin: the export target and ``export_fpga``."""
from hanajit import hookimpl

from .export import export_fpga
from .target import FpgaTarget


@hookimpl
def hanajit_register_target(register):
    register(FpgaTarget)


@hookimpl
def hanajit_register_exporters(register):
    register("fpga", export_fpga)
