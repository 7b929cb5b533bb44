"""A data-dependent ``select`` in a loop stays a conditional move on x86 (the
backend's cmov-to-branch conversion is off while hanajit emits code:
``engine.Engine._selects_kept``); results are the interpreter's."""
import platform

import numpy as np
import pytest

from hanajit import jit


def crc16(data, poly=0x8408):
    crc = 0xFFFF
    for b in data:
        cur_byte = 0xFF & b
        for _ in range(0, 8):
            if (crc & 0x0001) ^ (cur_byte & 0x0001):
                crc = (crc >> 1) ^ poly
            else:
                crc >>= 1
            cur_byte >>= 1
    crc = (~crc & 0xFFFF)
    crc = (crc << 8) | ((crc >> 8) & 0xFF)
    return crc & 0xFFFF


CRC = jit(crc16, fallback=False)


@pytest.mark.parametrize("n", [0, 1, 7, 300])
def test_crc16_as_interpreter(n):
    data = np.random.default_rng(n).integers(0, 256, n, dtype=np.uint8)
    got, want = CRC(data), crc16(data)
    assert type(got) is type(want) and got == want


def test_choice_stays_a_select():
    """The data-dependent choice of the inner loop is a ``select`` in the
    optimised IR (no branch on the data), one per unrolled step."""
    CRC(np.arange(10, dtype=np.uint8))
    ir = CRC.inspect_llvm()
    assert ir.count(" select i1 ") >= 8


@pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64"),
                    reason="an option of LLVM's x86 backend")
def test_select_conversion_off_while_emitting(monkeypatch):
    """The x86 backend's select-to-branch conversion is off while the engine
    emits code and back on after (the option is the process's: Numba's code keeps
    LLVM's default); a property of the engine, not of the host's instructions."""
    from hanajit_cpu.engine import get_engine
    eng = get_engine()
    seen = []
    real = eng.llvm.set_option
    monkeypatch.setattr(eng.llvm, "set_option",
                        lambda *a: (seen.append(a[1]), real(*a)))
    eng.emit_assembly(CRC.inspect_llvm())
    flips = [o for o in seen if o.startswith("-x86-cmov-converter")]
    assert flips == ["-x86-cmov-converter=false", "-x86-cmov-converter=true"]
