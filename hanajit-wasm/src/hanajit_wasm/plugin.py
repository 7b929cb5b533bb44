"""Entry point of the ``wasm`` plugin: the export target, ``export_wasm`` and
``inspect_wasm``."""
from hanajit import hookimpl

from .export import export_wasm, inspect_wasm
from .target import WasmTarget


@hookimpl
def hanajit_register_target(register):
    register(WasmTarget)


@hookimpl
def hanajit_register_exporters(register):
    register("wasm", export_wasm)
    register("inspect_wasm", inspect_wasm)
