"""The backend toolkit: what every target shares below the primitive IR.

* :mod:`.llvm_toolchain` -- llvmlite under one process-wide lock: target machines,
  optimise, emit (from a fresh parse each time), codegen in a child process.
"""
