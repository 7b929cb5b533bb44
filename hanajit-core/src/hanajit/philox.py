"""Counter-based random streams for GPU kernels and CPU functions: Philox-4x64-10,
bit for bit NumPy's ``np.random.Philox``.

Every thread of a kernel draws from its own stream, keyed by its index, and the
same call in a CPU function -- or NumPy itself -- gives the same numbers, so a
kernel's random numbers can be checked on the CPU::

    from hanajit.philox import philox_stream, philox_random

    @jit(target="cuda", signature="f64[:], u64")
    def fill(out, seed):
        i = block_id() * block_dim() + thread_id()
        if i < out.shape[0]:
            s = philox_stream(seed, i)
            x, s = philox_random(s)
            y, s = philox_random(s)
            out[i] = x * y

    # thread i's numbers are those of
    g = np.random.Generator(np.random.Philox(key=seed, counter=i << 128))
    g.random(), g.random()

* ``philox_stream(key, stream)`` -- the state of stream ``stream`` of key ``key``
  (integers in ``[0, 2**64)``; a negative one is a ValueError):
  ``np.random.Philox(key=key, counter=stream << 128)`` before its first draw.
* ``philox_uint64(s)`` -- ``(uint64, s)``: ``bit_generator.random_raw()``.
* ``philox_uint32(s)`` -- ``(uint32, s)``: NumPy's 32-bit draw, the low then the
  high half of one word (``Generator.integers(0, 2**32, dtype=np.uint32)``
  draws the same words).
* ``philox_random(s)`` -- ``(float, s)``: ``Generator.random()``.
* ``philox_random_float32(s)`` -- ``(float32, s)``:
  ``Generator.random(dtype=np.float32)``.
* ``philox_normal(s)`` -- ``(float, s)``: ``Generator.standard_normal()`` (the
  ziggurat; on a device its ``exp``/``log1p`` rejection tests use the device's
  math library).

The state is a tuple of 13 uint64 (kernels hold no mutable objects but arrays),
so every draw returns the new state: ``x, s = philox_random(s)``.  Keep a
stream's state in one variable and never draw twice from the same state value
(two draws from one ``s`` give the same number).  The functions are library code
written in Python (``hanajit/lib/random/philox.py``), compiled into the caller for any
target with 64-bit integers (``Capabilities.int64``; others refuse the kernel
naming it), and they run as they are in the interpreter.  ``docs/semantics.md``
("Philox streams") says how they relate to NumPy.
"""
from __future__ import annotations

from .lib.random.philox import (philox_normal, philox_random, philox_random_float32,
                         philox_stream, philox_uint32, philox_uint64)

__all__ = ["philox_normal", "philox_random", "philox_random_float32",
           "philox_stream", "philox_uint32", "philox_uint64"]
