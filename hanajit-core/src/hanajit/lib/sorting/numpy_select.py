"""NumPy's own selection functions, called from compiled code without Python.

``np.partition`` and ``np.argpartition`` run, per lane, the function NumPy's
``get_partition_func`` / ``get_argpartition_func`` give for the dtype:
``introselect_noarg<tag>(v, num, kth, pivots, npiv, nkth, NULL)`` and
``introselect_arg<tag>(v, tosort, num, kth, pivots, npiv, nkth, NULL)``
(``numpy/_core/src/npysort/selection.cpp``), which at a single kth hand the lane
to x86-simd-sort's quickselect where the CPU has it and else run NumPy's
``introselect_``.  Calling the same functions gives NumPy's order bit for bit
(signed zeros, NaNs, ties of argpartition) at NumPy's cost, without the Python
callback of ``numpy_partition`` (about 1.4 us a call, and for argpartition two
more buffers and a copy).

They are not exported: their addresses come from the ``.symtab`` of
``_multiarray_umath`` (kept in NumPy's wheels), read here with a small ELF
reader, plus the load bias of the module (the address ``dlsym`` gives
``PyInit__multiarray_umath`` less its symbol value).  Each function found is
checked once per process against ``np.partition`` / ``np.argpartition`` at
several kth's of arrays with ties, NaNs and signed zeros before use; where the
table is missing (a stripped build, another platform) or a check fails, the
callback is used instead.  The code holds symbols (``hj.host.<name>``), not
addresses: the disk cache reuses it in another process.
"""
from __future__ import annotations

import ctypes
import functools
import struct

# NumPy's type numbers (``np.dtype(...).num``) -> the tag of its templates
_TAGS = {0: "bool", 1: "byte", 2: "ubyte", 3: "short", 4: "ushort", 5: "int",
         6: "uint", 7: "long", 8: "ulong", 9: "longlong", 10: "ulonglong",
         11: "float", 12: "double"}
PIVOTS = 50                     # NPY_MAX_PIVOT_STACK
_SELECT = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64,
                           ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64,
                           ctypes.c_void_p)
_ARGSELECT = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                              ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p,
                              ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p)


def symbol(arg: bool, dtype_name: str) -> str:
    """``numpy_select_<dtype>`` / ``numpy_argselect_<dtype>``."""
    return f"numpy_{'argselect' if arg else 'select'}_{dtype_name}"


def _mangled(tag: str, arg: bool) -> str:
    name = f"{tag}_tag"
    t = f"N3npy{len(name)}{name}E"
    if arg:
        return f"_Z15introselect_argI{t}EiPvPlllS3_S3_lS2_"
    return f"_Z17introselect_noargI{t}EiPvllPlS3_lS2_"


def elf_symbols(path: str, wanted: set) -> dict:
    """``{name: (value, size)}`` of the function symbols ``wanted`` in the
    ``.symtab`` of the 64-bit little-endian ELF file ``path`` ({} if none)."""
    with open(path, "rb") as f:
        head = f.read(64)
        if head[:4] != b"\x7fELF" or head[4] != 2 or head[5] != 1:
            return {}
        shoff, = struct.unpack_from("<Q", head, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", head, 0x3A)
        f.seek(shoff)
        table = f.read(shentsize * shnum)
        sections = [struct.unpack_from("<IIQQQQIIQQ", table, i * shentsize)
                    for i in range(shnum)]
        found = {}
        for sec in sections:
            if sec[1] != 2:             # SHT_SYMTAB
                continue
            strtab = sections[sec[6]]
            f.seek(strtab[4])
            names = f.read(strtab[5])
            f.seek(sec[4])
            data = f.read(sec[5])
            # the names' offsets in the string table, then their entries
            offsets = {}
            for name in wanted:
                key = b"\0" + name.encode("ascii") + b"\0"
                at = names.find(key)
                if at >= 0:
                    offsets[at + 1] = name
            for st_name, st_info, _, _, value, size in struct.iter_unpack(
                    "<IBBHQQ", data[:len(data) - len(data) % 24]):
                if st_name in offsets and st_info & 0xF == 2 and value:  # STT_FUNC
                    found[offsets[st_name]] = (value, size)
        return found


@functools.cache
def _addresses() -> dict:
    """``{(tag, arg): address}`` of NumPy's selection functions in this process."""
    try:
        import numpy._core._multiarray_umath as mu
        path = mu.__file__
        names = {_mangled(tag, arg): (tag, arg) for tag in _TAGS.values()
                 for arg in (False, True)}
        entry = "PyInit__multiarray_umath"
        found = elf_symbols(path, set(names) | {entry})
        if entry not in found:
            return {}
        lib = ctypes.CDLL(path)
        bias = ctypes.cast(getattr(lib, entry), ctypes.c_void_p).value - found[entry][0]
        if bias % 4096:
            return {}
        return {names[n]: bias + v for n, (v, size) in found.items()
                if n in names and size > 0}
    except Exception:           # noqa: BLE001 - no table: the Python callback
        return {}


def _samples(np, dtype):
    rng = np.random.default_rng(31)
    dt = np.dtype(dtype)
    out = []
    for n in (2, 3, 16, 100, 129, 997):
        if dt.kind == "f":
            a = rng.standard_normal(n)
            pick = rng.random(n) < 0.3
            a[pick] = rng.choice(np.array([0.0, -0.0, np.nan, np.inf, -np.inf, 1.0]),
                                 int(pick.sum()))
        elif dt.kind == "b":
            a = rng.integers(0, 2, n)
        else:
            a = rng.integers(0, 5 if n < 200 else 100, n)
        with np.errstate(all="ignore"):
            out.append(a.astype(dt))
    return out


@functools.cache
def checked(dtype_name: str) -> tuple | None:
    """``(select, argselect)`` addresses for ``dtype_name``, each checked to give
    ``np.partition`` / ``np.argpartition``'s result at a single kth; else None."""
    try:
        import numpy as np
        tag = _TAGS.get(np.dtype(dtype_name).num)
        found = _addresses()
        if tag is None or (tag, False) not in found or (tag, True) not in found:
            return None
        select = _SELECT(found[tag, False])
        argselect = _ARGSELECT(found[tag, True])
        pivots = np.zeros(PIVOTS + 1, np.int64)
        for a in _samples(np, dtype_name):
            n = len(a)
            for kth in {0, 1, n // 3, n // 2, n - 1}:
                v = a.copy()
                pivots[PIVOTS] = 0
                if select(v.ctypes.data, n, kth, pivots.ctypes.data,
                          pivots.ctypes.data + 8 * PIVOTS, 1, None) != 0 \
                        or v.tobytes() != np.partition(a, kth).tobytes():
                    return None
                p = np.arange(n, dtype=np.int64)
                pivots[PIVOTS] = 0
                if argselect(a.ctypes.data, p.ctypes.data, n, kth, pivots.ctypes.data,
                             pivots.ctypes.data + 8 * PIVOTS, 1, None) != 0 \
                        or p.tobytes() != np.argpartition(a, kth).tobytes():
                    return None
        return found[tag, False], found[tag, True]
    except Exception:           # noqa: BLE001 - the Python callback instead
        return None


def address(name: str) -> int | None:
    """The address behind ``name`` (:func:`symbol`), else None."""
    parts = name.split("_")
    if len(parts) != 3 or parts[0] != "numpy" or parts[1] not in ("select", "argselect"):
        return None
    found = checked(parts[2])
    return None if found is None else found[parts[1] == "argselect"]
