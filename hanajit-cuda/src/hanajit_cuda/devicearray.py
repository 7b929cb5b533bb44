"""Arrays resident in GPU memory: :class:`DeviceArray` and foreign device arrays.

``f.to_device(a)`` returns a DeviceArray owning a copy of ``a`` on the device;
``launch`` uses it in place.  The class is core's
(:class:`hanajit.launch.device_array.DeviceArray`) with
``__cuda_array_interface__`` added, so CuPy, PyTorch and Numba take it without a
copy; any object with that interface (a CuPy array, a PyTorch CUDA tensor ...) is
read through :func:`interface` the same way.
"""
from __future__ import annotations

from hanajit.launch import device_array
from hanajit.launch.array_interface import cuda_array_interface as interface  # noqa: F401


class DeviceArray(device_array.DeviceArray):
    __doc__ = device_array.DeviceArray.__doc__

    @property
    def __cuda_array_interface__(self) -> dict:
        return {"shape": self.shape, "strides": None, "typestr": self.dtype.str,
                "data": (self.ptr, False), "version": 3}
