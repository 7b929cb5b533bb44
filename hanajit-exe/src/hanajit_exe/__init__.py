"""hanajit-exe: standalone command-line executables (entry point ``exe``).

``f.export_executable(output, sig=None, cuda="off", cuda_arch=None)`` writes the
kernel as an object file from LLVM, a generated C ``main`` that parses the
command line, and links them with the host C compiler.
"""
from .export import ExecutableExport, export_executable

__all__ = ["ExecutableExport", "export_executable"]
