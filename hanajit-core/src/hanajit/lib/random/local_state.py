"""What a generator made inside a compiled function needs from this process
(``lib/random/local_generator.py``, ``seed_algorithms.py``).

* ``hj.pcg64.functions``: a cell of three int64, the addresses of NumPy's PCG64
  ``next_uint64``, ``next_uint32`` and ``next_double`` (the same functions for
  every PCG64 object), linked by the CPU engine like the legacy state
  (``hanajit_cpu.engine.library_imports``), so the object code holds no address
  of this process and stays cacheable;
* ``hj.host.hanajit_os_entropy``: a ctypes callback writing 128 bits from the
  OS (``secrets.randbits(128)``, as ``SeedSequence()`` draws them) for
  ``default_rng()`` without a seed.

:func:`layout_ok` checks once per process that NumPy lays PCG64's state out as
``seed_algorithms`` writes it (``pcg64_state``: pointer, ``has_uint32``,
``uinteger``; the 128-bit state and increment low word first) and that the
functions are shared by all PCG64 objects; if not, ``default_rng`` falls back.
"""
from __future__ import annotations

import ctypes

_state: dict = {}


def _fn(f) -> int:
    return ctypes.cast(f, ctypes.c_void_p).value


def layout_ok() -> bool:
    if "ok" not in _state:
        try:
            _state["ok"] = _probe()
        except Exception:           # pragma: no cover - any surprise: the interpreter
            _state["ok"] = False
    return _state["ok"]


def _probe() -> bool:
    import numpy as np
    if ctypes.sizeof(ctypes.c_void_p) != 8:
        return False
    fns = set()
    for seed in (1, 12345, 2**63 + 5):
        bg = np.random.PCG64(seed)
        c = bg.ctypes
        fns.add((_fn(c.next_uint64), _fn(c.next_uint32), _fn(c.next_double)))
        bg.random_raw()
        np.random.Generator(bg).integers(0, 10, dtype=np.uint32)   # has_uint32 = 1
        st = bg.state
        head = (ctypes.c_uint64 * 2).from_address(c.state_address)
        words = (ctypes.c_uint64 * 4).from_address(head[0])
        m = (1 << 64) - 1
        want = [st["state"]["state"] & m, st["state"]["state"] >> 64,
                st["state"]["inc"] & m, st["state"]["inc"] >> 64]
        if list(words) != want or head[1] != st["has_uint32"] | st["uinteger"] << 32:
            return False
    if len(fns) != 1:
        return False
    _state["functions"] = (ctypes.c_int64 * 3)(*fns.pop())
    return True


def pcg64_addresses() -> dict:
    """The cell the engine links as ``hj.pcg64.functions``."""
    if not layout_ok():
        from hanajit.errors import UnsupportedError
        raise UnsupportedError("NumPy's PCG64 has a layout hanajit does not know",
                               construct="np.random.default_rng")
    return {"hj.pcg64.functions": ctypes.addressof(_state["functions"])}


def os_entropy(out) -> int:
    """``hanajit_os_entropy``: two int64 of OS entropy at ``out``; 0 on success."""
    import secrets
    try:
        bits = secrets.randbits(128)
        words = (ctypes.c_uint64 * 2).from_address(out)
        words[0] = bits & ((1 << 64) - 1)
        words[1] = bits >> 64
        return 0
    except Exception:               # pragma: no cover - the OS refused
        return 1


_ENTROPY = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p)(os_entropy)
HOST = {"hanajit_os_entropy": _ENTROPY}


def host_address(name: str):
    """The address of host function ``name`` of this module, else None."""
    f = HOST.get(name)
    return None if f is None else _fn(f)
