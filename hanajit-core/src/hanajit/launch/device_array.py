"""Arrays resident in device memory: :class:`DeviceArray`.

``f.to_device(a)`` returns a DeviceArray owning a copy of ``a`` in the target's
device memory; a launch uses it in place, without copying.  The class is the same
for every GPU target: its memory calls go to the target's driver (see
:mod:`hanajit.launch.launcher`).  A target may subclass it to publish a foreign
protocol (the CUDA one adds ``__cuda_array_interface__``).
"""
from __future__ import annotations

import numpy as np

from .array_interface import c_strides


class DeviceArray:
    """A C-contiguous array in device memory (``shape``, ``dtype``, ``strides``).

    ``to_host()`` copies it into a new NumPy array, ``copy_from_host(a)`` overwrites
    it from a NumPy array of the same shape and dtype, ``free()`` releases the
    memory now (otherwise when the object is collected).  ``ptr`` is the driver's
    handle of the memory: a device address on CUDA and HIP.
    """

    def __init__(self, driver, shape, dtype, ptr: int | None = None, sync=None):
        self._driver = driver
        self._sync = sync or driver.synchronize      # waits, reports kernel errors
        self.shape = tuple(int(n) for n in shape)
        self.dtype = np.dtype(dtype)
        self.size = int(np.prod(self.shape, dtype=np.int64)) if self.shape else 1
        self.nbytes = self.size * self.dtype.itemsize
        self.ndim = len(self.shape)
        self.strides = c_strides(self.shape, self.dtype.itemsize)
        self._ptr = driver.alloc(self.nbytes) if ptr is None else ptr
        self._ir_type = None             # launch's caches: the IR type, the parameters
        self._params = [self._ptr, *self.shape, *self.strides]

    @property
    def ir_type(self):
        """The array's hanajit IR type (C-contiguous, writeable)."""
        if self._ir_type is None:
            from hanajit.ir import types as T
            self._ir_type = T.ArrayType(T.from_numpy_dtype(self.dtype), self.ndim, "C")
        return self._ir_type

    @classmethod
    def from_host(cls, driver, array, stream=None, sync=None) -> "DeviceArray":
        host = np.ascontiguousarray(array)
        d = cls(driver, host.shape, host.dtype, sync=sync)
        d.copy_from_host(host, stream=stream)
        return d

    @property
    def ptr(self) -> int:
        if self._ptr is None:
            raise ValueError("the device array has been freed")
        return self._ptr

    def interface(self) -> dict:
        """What a launch reads: ``ptr``, ``shape``, ``strides``, ``dtype``,
        ``readonly`` (as :func:`~.array_interface.cuda_array_interface` returns)."""
        return {"ptr": self.ptr, "shape": self.shape, "strides": self.strides,
                "dtype": self.dtype, "readonly": False}

    def copy_from_host(self, array, stream=None) -> None:
        host = np.ascontiguousarray(array)
        if host.shape != self.shape or host.dtype != self.dtype:
            raise ValueError(f"copy_from_host: got a {host.dtype} array of shape "
                             f"{host.shape}, the device array is {self.dtype} "
                             f"{self.shape}")
        self._driver.htod(self.ptr, host.ctypes.data, self.nbytes, stream)
        if stream is not None:
            self._keep = host              # alive until the copy has run

    def to_host(self, out=None, stream=None) -> np.ndarray:
        """Copy to a NumPy array (``out``, C-contiguous, or a new one)."""
        if out is None:
            out = np.empty(self.shape, self.dtype)
        elif (out.shape != self.shape or out.dtype != self.dtype
              or not out.flags.c_contiguous):
            raise ValueError("to_host: out must be a C-contiguous array of the same "
                             "shape and dtype")
        self._sync()                       # pending launches write into this array
        self._driver.dtoh(out.ctypes.data, self.ptr, self.nbytes, stream)
        return out

    def free(self) -> None:
        if self._ptr is not None:
            ptr, self._ptr = self._ptr, None
            self._params = None
            self._driver.free(ptr)

    def __del__(self):
        try:
            self.free()
        except Exception:                  # interpreter shutdown, context gone
            pass

    def __len__(self):
        return self.shape[0]

    def __repr__(self):
        state = "freed" if self._ptr is None else f"0x{self._ptr:x}"
        where = type(self).__module__.split(".")[0]
        return f"<{where}.DeviceArray {self.dtype} {self.shape} at {state}>"
