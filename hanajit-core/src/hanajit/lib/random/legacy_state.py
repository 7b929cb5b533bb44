"""Where NumPy's global ``RandomState`` keeps its state, for ``np.random.*`` calls.

The legacy functions (``np.random.random``, ``randn``, ``randint`` ...) are
methods of ``np.random.mtrand._rand``.  Compiled code reaches its bit generator
and its cached Gaussian through two symbols the CPU engine resolves when it
links a kernel (``hanajit_cpu.engine.library_imports``), so the object code
holds no process address and stays cacheable.  The interpreter's path of the
``prims.legacy_*`` functions reads the same memory.
"""
from __future__ import annotations

import ctypes

_state: dict = {}


def legacy_addresses() -> dict:
    """``hj.numpy.legacy_bitgen`` and ``hj.numpy.legacy_aug``: the ``bitgen_t``
    copy inside NumPy's global ``RandomState`` (``np.random.mtrand._rand``) and
    its ``aug_bitgen_t`` (bit generator pointer, ``has_gauss``, ``gauss``), which
    its methods use.  Found once per process like :func:`bitgen_offset`; both stay
    valid for the process (``np.random.seed``, ``set_state`` and
    ``set_bit_generator`` update them in place).  Raises ``UnsupportedError``
    when the layout cannot be confirmed."""
    if "legacy" not in _state:
        try:
            _state["legacy"] = _probe_legacy()
        except Exception:           # pragma: no cover - any surprise: refuse
            _state["legacy"] = None
    found = _state["legacy"]
    if found is None:
        from hanajit.errors import UnsupportedError
        raise UnsupportedError("NumPy's global RandomState has a layout hanajit "
                               "does not know", construct="np.random")
    return found


def _probe_legacy():
    import numpy as np
    rs = np.random.mtrand._rand
    offset = randomstate_offset()
    if offset is None:
        return None
    bitgen = id(rs) + offset
    found = {"hj.numpy.legacy_bitgen": bitgen, "hj.numpy.legacy_aug": bitgen + AUG}
    tag = _mt19937_tag()
    if tag is not None:
        found["hj.numpy.mt19937_tag"] = ctypes.addressof(tag)
        found["hj.numpy.mt19937_functions"] = ctypes.addressof(_state["mt19937_fns"])
    tags = _state["bitgen_tags"] = (ctypes.c_int64 * len(OTHER_BIT_GENERATORS))(*[
        ctypes.cast(getattr(np.random, name)(0).ctypes.next_double, ctypes.c_void_p).value
        for name in OTHER_BIT_GENERATORS])
    found["hj.numpy.bitgen_tags"] = ctypes.addressof(tags)
    return found


# NumPy's other bit generators, whose ``next_double`` (one C function for every
# object of the class) names a RandomState's bit generator (``set_state``'s error)
OTHER_BIT_GENERATORS = ("PCG64", "PCG64DXSM", "Philox", "SFC64")


# The cached Gaussian (``aug_bitgen_t``: bit generator pointer, ``has_gauss``,
# ``gauss``) follows the five words of the ``bitgen_t`` copy in a RandomState
AUG = 40


def randomstate_offset():
    """The byte offset of the ``bitgen_t`` copy inside a ``RandomState`` (its
    ``aug_bitgen_t`` at ``+ AUG``), found once per process on RandomStates of
    several bit generators (and the global one) and checked against their
    ``ctypes`` interface and ``get_state``; None when they disagree."""
    if "offset" not in _state:
        try:
            _state["offset"] = _probe_offset()
        except Exception:           # pragma: no cover - any surprise: refuse
            _state["offset"] = None
    return _state["offset"]


def _probe_offset():
    import numpy as np
    if ctypes.sizeof(ctypes.c_void_p) != 8:
        return None
    found = set()
    samples = [np.random.mtrand._rand, np.random.RandomState(3),
               np.random.RandomState(np.random.PCG64(4)),
               np.random.RandomState(np.random.Philox(5))]
    samples[1].standard_normal()            # has_gauss = 1
    for rs in samples:
        c = rs._bit_generator.ctypes
        want = [c.state_address] + [ctypes.cast(f, ctypes.c_void_p).value
                                    for f in (c.next_uint64, c.next_uint32, c.next_double)]
        nwords = type(rs).__basicsize__ // 8
        words = (ctypes.c_uint64 * nwords).from_address(id(rs))
        hits = [k for k in range(2, nwords - 8) if list(words[k:k + 4]) == want]
        if len(hits) != 1 or words[hits[0] + AUG // 8] != id(rs) + 8 * hits[0]:
            return None
        aug = id(rs) + 8 * hits[0] + AUG
        # has_gauss and gauss must read as get_state reports them
        st = rs.get_state(legacy=False)
        if ctypes.c_int32.from_address(aug + 8).value != st["has_gauss"] or \
                ctypes.c_double.from_address(aug + 16).value != st["gauss"]:
            return None
        found.add(8 * hits[0])
    return found.pop() if len(found) == 1 else None


def _mt19937_tag():
    """A cell holding MT19937's ``next_double`` address (``np.random.seed``
    checks the global bit generator is an MT19937 by it), after checking that
    ``mt19937_state`` is ``uint32_t key[624]; int pos`` as ``seed`` writes it."""
    import numpy as np
    m = np.random.MT19937(0)
    m._legacy_seeding(12345)
    st = m.state["state"]
    address = m.ctypes.state_address
    key = (ctypes.c_uint32 * 624).from_address(address)
    if list(key) != st["key"].tolist() or \
            ctypes.c_int32.from_address(address + 4 * 624).value != st["pos"]:
        return None
    cell = _state["mt19937_tag"] = ctypes.c_int64(
        ctypes.cast(m.ctypes.next_double, ctypes.c_void_p).value)
    # MT19937's next_uint64, next_uint32, next_double and next_raw, as a
    # RandomState of it holds them (``RandomState(seed)`` made in a function)
    rs = np.random.RandomState(m)
    fns = (ctypes.c_int64 * 4).from_address(id(rs) + randomstate_offset() + 8)
    c = m.ctypes
    if list(fns[:3]) != [ctypes.cast(f, ctypes.c_void_p).value
                         for f in (c.next_uint64, c.next_uint32, c.next_double)]:
        return None
    _state["mt19937_fns"] = (ctypes.c_int64 * 4)(*fns)
    return cell


def view(symbol: str, dtype, n: int):
    """The interpreter's view of the memory behind ``hj.numpy.<symbol>``."""
    import numpy as np
    address = legacy_addresses()[f"hj.numpy.{symbol}"]
    ctype = np.ctypeslib.as_ctypes_type(np.dtype(dtype))
    return np.ctypeslib.as_array((ctype * n).from_address(address))


def view_at(address: int, dtype, n: int):
    """The interpreter's view of ``n`` elements at a run-time address."""
    import numpy as np
    ctype = np.ctypeslib.as_ctypes_type(np.dtype(dtype))
    return np.ctypeslib.as_array((ctype * n).from_address(int(address)))
