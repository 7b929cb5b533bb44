"""Arrays that live in a Vulkan storage buffer between launches (``f.to_device``)."""
from __future__ import annotations

import numpy as np


class DeviceArray:
    """A C-ordered array in one storage buffer; ``to_host()`` copies it back."""

    def __init__(self, rt, buffer, shape, dtype, synchronize):
        self.rt, self.buffer = rt, buffer
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.size = int(np.prod(self.shape, dtype=np.int64))
        self.strides = _c_strides(self.shape, self.dtype.itemsize)
        self._synchronize = synchronize

    @classmethod
    def from_host(cls, rt, array: np.ndarray, synchronize):
        from .runtime import Buffer
        a = np.ascontiguousarray(array)
        buf = Buffer(rt, max(a.nbytes, 1))
        buf.owned = True
        buf.write(a.tobytes())
        return cls(rt, buf, a.shape, a.dtype, synchronize)

    def to_host(self) -> np.ndarray:
        """A NumPy copy, after every launch queued so far has completed."""
        self._synchronize()
        n = self.size * self.dtype.itemsize
        return np.frombuffer(self.buffer.read(n), self.dtype).reshape(self.shape).copy()

    copy_to_host = to_host

    def __len__(self):
        return self.shape[0]

    def __repr__(self):
        return f"<vulkan DeviceArray {self.shape} {self.dtype}>"

    def __del__(self):
        try:
            self.buffer.free()
        except Exception:                      # noqa: BLE001  (interpreter shutdown)
            pass


def _c_strides(shape, itemsize) -> tuple:
    strides, step = [], itemsize
    for n in reversed(shape):
        strides.append(step)
        step *= max(int(n), 1)
    return tuple(reversed(strides))
