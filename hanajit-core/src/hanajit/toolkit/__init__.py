"""The backend toolkit: what every target shares below the primitive IR.

* :mod:`.llvm_toolchain` -- llvmlite under one process-wide lock: target machines,
  optimise, emit (from a fresh parse each time), codegen in a child process.
* :mod:`.boundary` -- the boundary of an exported function as data: how
  arguments are parsed and results printed (as Python prints them), raise names,
  exit statuses; :mod:`.boundary_c` and :mod:`.boundary_js` print it as C (the
  executable's ``main``, the HLS testbench) and JavaScript (the wasm loader).
* :mod:`.c_family` -- primitive IR printed as C-family source, in a
  :mod:`.c_dialects` dialect (C99, HLS C++, the Metal Shading Language).
* :mod:`.libm` -- the one table of C library math functions backends map.
"""
