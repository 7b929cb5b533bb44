"""Arrays resident in GPU memory: :class:`DeviceArray` and foreign device arrays.

``f.to_device(a)`` returns a DeviceArray owning a copy of ``a`` on the device;
``launch`` uses it in place.  Any object with ``__cuda_array_interface__`` (CuPy,
PyTorch CUDA tensors, Numba device arrays, a DeviceArray) is read through
:func:`interface` without a copy.
"""
from __future__ import annotations

import numpy as np


class DeviceArray:
    """A C-contiguous array in device memory (``shape``, ``dtype``, ``strides``).

    ``to_host()`` copies it into a new NumPy array, ``copy_from_host(a)`` overwrites
    it from a NumPy array of the same shape and dtype, ``free()`` releases the
    memory now (otherwise when the object is collected).
    """

    def __init__(self, driver, shape, dtype, ptr: int | None = None, sync=None):
        self._driver = driver
        self._sync = sync or driver.synchronize      # waits, reports kernel errors
        self.shape = tuple(int(n) for n in shape)
        self.dtype = np.dtype(dtype)
        self.size = int(np.prod(self.shape, dtype=np.int64)) if self.shape else 1
        self.nbytes = self.size * self.dtype.itemsize
        self.ndim = len(self.shape)
        strides, step = [], self.dtype.itemsize
        for n in reversed(self.shape):
            strides.append(step)
            step *= max(n, 1)
        self.strides = tuple(reversed(strides))
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

    @property
    def __cuda_array_interface__(self) -> dict:
        return {"shape": self.shape, "strides": None, "typestr": self.dtype.str,
                "data": (self.ptr, False), "version": 3}

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
        return f"<hanajit_cuda.DeviceArray {self.dtype} {self.shape} at {state}>"


def interface(obj) -> dict | None:
    """The ``__cuda_array_interface__`` of ``obj`` normalised (or None): ``ptr``,
    ``shape``, ``strides`` (bytes, C-order ones filled in), ``dtype``, ``readonly``."""
    cai = getattr(obj, "__cuda_array_interface__", None)
    if cai is None:
        return None
    dtype = np.dtype(cai["typestr"])
    if "descr" in cai and len(cai["descr"]) > 1:
        raise TypeError("structured device arrays are not supported")
    shape = tuple(int(n) for n in cai["shape"])
    strides = cai.get("strides")
    if strides is None:
        strides, step = [], dtype.itemsize
        for n in reversed(shape):
            strides.append(step)
            step *= max(n, 1)
        strides = tuple(reversed(strides))
    ptr, readonly = cai["data"]
    if cai.get("mask") is not None:
        raise TypeError("masked device arrays are not supported")
    return {"ptr": int(ptr or 0), "shape": shape,
            "strides": tuple(int(s) for s in strides), "dtype": dtype,
            "readonly": bool(readonly)}
