"""hanajit-exe: standalone command-line executables (entry point ``exe``).

``f.export_executable(output, sig=None, cuda="off", cuda_arch=None)`` writes the
kernel as an object file from LLVM, a generated C ``main`` that parses the
command line, and links them with the host C compiler.  With ``cuda="optional"``
or ``"required"`` the program also carries the function's PTX as a one-thread
CUDA kernel (compiled by the hanajit-cuda plugin) and runs it through the NVIDIA
driver it loads at run time (``cudamain``); without CUDA, "optional" runs the CPU
code and "required" exits with status 70.
"""

__all__ = ["ExecutableExport", "export_executable"]


def __getattr__(name):
    # the export code loads on first use, so plugin discovery stays cheap
    if name in __all__:
        from . import export
        return getattr(export, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
