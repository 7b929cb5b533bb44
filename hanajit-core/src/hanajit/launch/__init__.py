"""Launching GPU kernels, shared by every GPU target.

A GPU target compiles a kernel to its device's format; what happens at a launch
is the same everywhere and lives here:

* :mod:`.geometry` -- ``grid=`` / ``block=`` as (x, y, z), and the default: one
  thread per element of the largest array argument;
* :mod:`.launcher` -- :class:`~.launcher.Launcher`: arguments flattened into the
  kernel entry's parameters (``lowering/kernel_lower.py`` documents them: an
  error record pointer, then per array a pointer, its shape and its strides, per
  scalar its bits, each in one 8-byte slot), NumPy arrays copied to the device and
  back (arguments that share memory copied once, as one block), kernels launched
  without waiting checked at ``synchronize()``, and the exception a kernel thread
  recorded raised in the caller;
* :mod:`.device_array` -- :class:`~.device_array.DeviceArray`, an array living in
  device memory (``f.to_device``, ``.to_host()``);
* :mod:`.array_interface` -- foreign device arrays through
  ``__cuda_array_interface__`` (CuPy, PyTorch, Numba; also on ROCm).

A target supplies a *driver*: an object with the device's memory and launch calls
(the protocol is in :mod:`.launcher`'s docstring).  The CUDA driver wraps
``cuda-bindings``; tests use fake drivers whose device memory is host memory.
"""
