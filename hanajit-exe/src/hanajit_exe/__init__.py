"""hanajit-exe: standalone command-line executables (entry point ``exe``).

``f.export_executable(output, sig=None, cuda="off", cuda_arch=None)`` writes the
kernel as an object file from LLVM, a generated C ``main`` that parses the
command line, and links them with the host C compiler.
"""

__all__ = ["ExecutableExport", "export_executable"]


def __getattr__(name):
    # the export code loads on first use, so plugin discovery stays cheap
    if name in __all__:
        from . import export
        return getattr(export, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
