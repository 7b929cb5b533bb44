"""The GPU kernel programming model, shared by every GPU target.

A kernel is a ``@jit(target="cuda")`` function run by every thread of a launch
grid.  Inside it, these functions compile to primitive IR (``hanajit/lib/gpu.py``);
a kernel may call them unqualified, without importing them::

    @jit(target="cuda", signature="f64[:], f64[:], f64, i64")
    def saxpy(y, x, a, n):
        i = block_id() * block_dim() + thread_id()
        if i < n:
            y[i] = a * x[i] + y[i]

* ``thread_id()``, ``block_id()``, ``block_dim()``, ``grid_dim()`` and their
  ``_x``/``_y``/``_z`` forms (the plain name is the x axis): the thread's index in
  its block, the block's index in the grid, threads per block, blocks in the grid.
* ``shared_array(n, dtype)`` and ``shared_f64(n)``-style shorthands: a block-shared
  1-D array (``n`` a compile-time constant); one allocation per call site and
  block, uninitialised.
* ``barrier()``: every thread of the block waits for the others; shared and global
  writes before it are visible after it.
* ``atomic_add(a, i, v)``, ``atomic_min``, ``atomic_max``,
  ``atomic_cas(a, i, compare, v)``: atomic update of ``a[i]`` (global or shared;
  ``i`` an int or a tuple) returning the old value.

In the interpreter -- a GPU-target function called directly runs there, with a
warning -- they describe the single thread of a 1x1x1 grid, so the kernel body runs
once as thread 0.  Called anywhere else (a CPU function) they raise RuntimeError.
"""
from __future__ import annotations

import contextlib
import threading

__all__ = [
    "thread_id", "thread_id_x", "thread_id_y", "thread_id_z",
    "block_id", "block_id_x", "block_id_y", "block_id_z",
    "block_dim", "block_dim_x", "block_dim_y", "block_dim_z",
    "grid_dim", "grid_dim_x", "grid_dim_y", "grid_dim_z",
    "shared_array", "shared_f64", "shared_f32", "shared_i64", "shared_i32",
    "shared_u64", "shared_u32", "barrier",
    "atomic_add", "atomic_min", "atomic_max", "atomic_cas",
]

_state = threading.local()


@contextlib.contextmanager
def single_thread():
    """Run the body as thread 0 of a 1x1x1 grid (the interpreter's kernel model)."""
    depth = getattr(_state, "depth", 0)
    _state.depth = depth + 1
    try:
        yield
    finally:
        _state.depth = depth


def run_single_thread(func, *args, **kwargs):
    """Call ``func`` as the only thread of a 1x1x1 grid; the names of this module
    are visible to it as builtins are, so unimported ``thread_id()`` works (it runs
    on a copy of its module's globals: ``global`` writes are not seen outside)."""
    code = getattr(func, "__code__", None)
    if code is not None and any(n in __all__ for n in code.co_names):
        import builtins
        import types
        g = dict(func.__globals__)
        mine = {n: globals()[n] for n in __all__}
        g["__builtins__"] = {**builtins.__dict__, **mine}
        f = types.FunctionType(code, g, func.__name__, func.__defaults__,
                               func.__closure__)
        f.__kwdefaults__ = func.__kwdefaults__
        func = f
    with single_thread():
        return func(*args, **kwargs)


def _check(name):
    if not getattr(_state, "depth", 0):
        raise RuntimeError(f"hanajit.gpu.{name}() is only meaningful in a GPU kernel "
                           "(@jit(target=\"cuda\") launched with f.launch())")


def _geometry(name, value):
    def f():
        _check(name)
        return value
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"{name}(): GPU thread geometry (see hanajit.gpu); 0 or 1 interpreted."
    return f


thread_id = _geometry("thread_id", 0)
thread_id_x = _geometry("thread_id_x", 0)
thread_id_y = _geometry("thread_id_y", 0)
thread_id_z = _geometry("thread_id_z", 0)
block_id = _geometry("block_id", 0)
block_id_x = _geometry("block_id_x", 0)
block_id_y = _geometry("block_id_y", 0)
block_id_z = _geometry("block_id_z", 0)
block_dim = _geometry("block_dim", 1)
block_dim_x = _geometry("block_dim_x", 1)
block_dim_y = _geometry("block_dim_y", 1)
block_dim_z = _geometry("block_dim_z", 1)
grid_dim = _geometry("grid_dim", 1)
grid_dim_x = _geometry("grid_dim_x", 1)
grid_dim_y = _geometry("grid_dim_y", 1)
grid_dim_z = _geometry("grid_dim_z", 1)


def shared_array(n, dtype):
    """A block-shared 1-D array of ``n`` (a constant) elements of ``dtype``."""
    _check("shared_array")
    import numpy as np
    return np.zeros(n, dtype)


def _shared(name, dtype):
    def f(n):
        _check(name)
        return shared_array(n, dtype)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"{name}(n): shared_array(n, {dtype})."
    return f


shared_f64 = _shared("shared_f64", "float64")
shared_f32 = _shared("shared_f32", "float32")
shared_i64 = _shared("shared_i64", "int64")
shared_i32 = _shared("shared_i32", "int32")
shared_u64 = _shared("shared_u64", "uint64")
shared_u32 = _shared("shared_u32", "uint32")


def barrier():
    """Wait for every thread of the block (a no-op for the interpreter's one thread)."""
    _check("barrier")


def _update(name, array, index, new):
    _check(name)
    old = array[index]
    array[index] = new(old)
    return old


def atomic_add(array, index, value):
    """``old = array[index]; array[index] = old + value; return old``, atomically."""
    return _update("atomic_add", array, index, lambda old: old + value)


def atomic_min(array, index, value):
    """Atomic minimum (for floats a NaN operand is ignored); returns the old value."""
    import numpy as np
    return _update("atomic_min", array, index, lambda old: np.fmin(old, value))


def atomic_max(array, index, value):
    """Atomic maximum (for floats a NaN operand is ignored); returns the old value."""
    import numpy as np
    return _update("atomic_max", array, index, lambda old: np.fmax(old, value))


def atomic_cas(array, index, compare, value):
    """Store ``value`` if ``array[index]`` equals ``compare`` (floats: same bits);
    returns the old value."""
    import numpy as np

    def new(old):
        a = np.asarray(old)
        same = a.tobytes() == np.asarray(compare, a.dtype).tobytes()
        return value if same else old
    return _update("atomic_cas", array, index, new)
