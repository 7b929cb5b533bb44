"""Entry point of the ``wasm`` plugin: the export target, ``export_wasm`` and
``inspect_wasm``."""
from hanajit import hookimpl

from .target import WasmTarget


@hookimpl
def hanajit_register_target(register):
    register(WasmTarget)


@hookimpl
def hanajit_register_exporters(register):
    register("wasm", export_wasm)
    register("inspect_wasm", inspect_wasm)


def export_wasm(jitfunc, *args, **kwargs):
    """Imported on first use, so plugin discovery stays cheap."""
    from .export import export_wasm as impl
    return impl(jitfunc, *args, **kwargs)


def inspect_wasm(jitfunc, *args, **kwargs):
    """Imported on first use, so plugin discovery stays cheap."""
    from .export import inspect_wasm as impl
    return impl(jitfunc, *args, **kwargs)
