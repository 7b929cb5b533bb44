"""The driver wrapper without a GPU: a fake ``cuda.bindings.driver`` module.  Checks
that failing calls raise CudaError with the driver's name and text, and that a
sticky error resets the primary context, marks older device arrays lost and makes
the launcher reload its kernels."""
from __future__ import annotations

import enum
import types

import numpy as np
import pytest

from hanajit_cuda import driver as D
from hanajit_cuda.devicearray import DeviceArray

NAMES = {0: "CUDA_SUCCESS", 2: "CUDA_ERROR_OUT_OF_MEMORY",
         700: "CUDA_ERROR_ILLEGAL_ADDRESS"}


class FakeCu(types.SimpleNamespace):
    """The calls Driver makes, recorded; ``fail[call]`` makes a call return a code."""

    def __init__(self):
        super().__init__()
        self.calls, self.fail, self.next_ptr, self.contexts = [], {}, 4096, 0
        self.CUdevice_attribute = enum.Enum("A", [
            "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR",
            "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR"])

    def __getattr__(self, call):
        def fn(*args):
            self.calls.append(call)
            code = self.fail.pop(call, 0)
            if call in ("cuGetErrorName", "cuGetErrorString"):
                name = NAMES[int(args[0])]
                return 0, (name if call == "cuGetErrorName" else name.lower()).encode()
            if code:
                return (code, None)
            if call == "cuDevicePrimaryCtxRetain":
                self.contexts += 1
                return 0, f"ctx{self.contexts}"
            if call == "cuMemAlloc":
                self.next_ptr += 4096
                return 0, self.next_ptr
            if call == "cuDeviceGetName":
                return 0, b"Fake GPU\0\0"
            if call == "cuDeviceGetAttribute":
                return 0, 9
            return {"cuDeviceGetCount": (0, 1), "cuDeviceGet": (0, 0)}.get(call, (0,))
        return fn


@pytest.fixture
def fake(monkeypatch):
    cu = FakeCu()
    monkeypatch.setattr(D, "bindings", lambda: cu)
    return cu, D.Driver()


def test_errors_carry_the_drivers_name_and_text(fake):
    cu, drv = fake
    assert drv.name == "Fake GPU" and drv.capability == (9, 9)
    cu.fail["cuMemAlloc"] = 2
    with pytest.raises(D.CudaError, match="cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY: "
                                          "cuda_error_out_of_memory$"):
        drv.alloc(1 << 60)
    assert drv.generation == 0 and "cuDevicePrimaryCtxReset" not in cu.calls


def test_a_sticky_error_resets_the_context_and_loses_older_arrays(fake):
    cu, drv = fake
    old = DeviceArray(drv, (4,), np.float64)
    cu.fail["cuCtxSynchronize"] = 700
    with pytest.raises(D.CudaError, match="ILLEGAL_ADDRESS.*context was reset") as info:
        drv.synchronize()
    assert info.value.name == "CUDA_ERROR_ILLEGAL_ADDRESS"
    assert drv.generation == 1 and drv.context == "ctx2"
    assert cu.calls[-5:] == ["cuDevicePrimaryCtxReset", "cuDevicePrimaryCtxRelease",
                             "cuDevicePrimaryCtxRetain", "cuCtxSetCurrent",
                             "cuCtxSynchronize"]
    with pytest.raises(ValueError, match="context was reset after "
                                         "CUDA_ERROR_ILLEGAL_ADDRESS"):
        old.ptr
    assert old._params is None and "lost" in repr(old)
    old.free()                                # nothing to free: no driver call
    assert cu.calls[-1] == "cuCtxSynchronize"
    new = DeviceArray(drv, (4,), np.float64)  # allocations work again
    assert new.ptr and new._lost is None


def test_a_reset_that_does_not_help_says_so(fake):
    cu, drv = fake
    cu.fail["cuCtxSynchronize"] = 700
    cu.fail["cuCtxSetCurrent"] = 700          # the new context fails too (no recursion)
    with pytest.raises(D.CudaError, match="not usable either"):
        drv.synchronize()


def test_the_launcher_reloads_kernels_after_a_reset(fake):
    from hanajit_cuda.launch import Launcher
    cu, drv = fake
    lau = Launcher(drv)
    lau.kernels[1] = ("artifact", "loaded")
    lau.pending.add("kernel")
    drv.generation += 1
    with pytest.raises(Exception):            # the artifact is fake; the reset is seen
        lau._launch("artifact", (), (1, 1, 1), (1, 1, 1), None, True)
    assert lau.kernels == {} and lau.pending == set() and lau.generation == 1
