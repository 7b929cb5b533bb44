"""hanajit-fpga: Vitis HLS export (entry point ``fpga``).

``f.export_fpga(prefix, sig=None, part=None, clock_ns=None, samples=None)`` writes
``<prefix>_hls.cpp`` (the HLS C++ top function), ``<prefix>_tb.cpp`` (a
C-simulation testbench checking values computed by the CPU JIT at export time),
``<prefix>_hls.tcl`` (csim -> csynth -> export_design) and ``<prefix>.ll``; a
kernel outside the HLS C++ subset gets ``<prefix>.ll`` and a TCL stub only (with
a HanaJitFallbackWarning saying why).
"""

__all__ = ["FpgaExport", "export_fpga"]


def __getattr__(name):
    # the export code loads on first use, so plugin discovery stays cheap
    if name in __all__:
        from . import export
        return getattr(export, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
