"""hanajit-fpga: Vitis HLS export (entry point ``fpga``).

``f.export_fpga(prefix, sig=None, part=None, clock_ns=None, samples=None)`` writes
``<prefix>_hls.cpp`` (the HLS C++ top function), ``<prefix>_tb.cpp`` (a
C-simulation testbench checking values computed by the CPU JIT at export time),
``<prefix>_hls.tcl`` (csim -> csynth -> export_design) and ``<prefix>.ll``.
"""
from .export import FpgaExport, export_fpga

__all__ = ["FpgaExport", "export_fpga"]
