"""The driver wrapper without a GPU: a fake ``cuda.bindings.driver`` module.  Checks
that failing calls raise CudaError with the driver's name and text, and that a
sticky error, and every error after it, says that the process must restart."""
from __future__ import annotations

import enum
import types

import pytest
from hanajit_cuda import driver as D

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
    assert drv.lost is None


def test_a_sticky_error_says_the_process_must_restart(fake):
    cu, drv = fake
    cu.fail["cuCtxSynchronize"] = 700
    with pytest.raises(D.CudaError, match="ILLEGAL_ADDRESS.*sticky.*restart") as info:
        drv.synchronize()
    assert info.value.name == "CUDA_ERROR_ILLEGAL_ADDRESS"
    assert drv.lost == "CUDA_ERROR_ILLEGAL_ADDRESS"
    assert "cuDevicePrimaryCtxReset" not in cu.calls   # it does not help (H200)
    cu.fail["cuMemAlloc"] = 2
    with pytest.raises(D.CudaError, match="stopped working in this process after "
                                          "CUDA_ERROR_ILLEGAL_ADDRESS"):
        drv.alloc(8)
