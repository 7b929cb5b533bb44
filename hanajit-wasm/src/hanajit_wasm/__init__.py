"""hanajit-wasm: WebAssembly export (entry point ``wasm``).

``f.export_wasm(prefix, sig=None, bits=32)`` writes ``<prefix>.ll``, ``.s``, ``.o``,
``.mjs`` (an ES-module loader mapping libm imports to JavaScript ``Math``),
``.json`` (a manifest), ``.build.sh`` and, when ``wasm-ld`` is found, ``.wasm``.
``f.inspect_wasm()`` returns the wasm assembly text.  :mod:`hanajit_wasm.runtime`
runs an exported module in Python through wasmtime.
"""

__all__ = ["WasmExport", "export_wasm", "inspect_wasm"]


def __getattr__(name):
    # the export code loads on first use, so plugin discovery stays cheap
    if name in __all__:
        from . import export
        return getattr(export, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
