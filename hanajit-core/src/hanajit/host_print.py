"""``print`` of compiled code: the host function ``hj.host.hanajit_print`` (a
ctypes callback the CPU engine links, :func:`address`).

The compiled code passes the print's layout -- a constant text, the ``repr`` of
``(items, sep, end, flush, kinds)`` (``lib/python/printing.py``) -- and its
values in 8-byte slots (a str built at run time: the address and number of its
code points, read while the call lasts).  The callback rebuilds each value as the object the
interpreter would hold (a Python int, float, bool or complex, or a NumPy scalar
of its dtype), formats f-strings with Python's own ``format``, and calls the
builtin ``print`` with the constant ``sep``, ``end`` and ``flush``, into whatever
``sys.stdout`` is then.  ctypes callbacks take the GIL themselves, so threads of
parallel loops may print.  An exception ``print`` raises is kept and the call
returns 1: the compiled code raises ``errors.HostException``, for which the
runtime raises the kept exception itself."""
from __future__ import annotations

import ast
import builtins
import ctypes
import struct

from . import host_sets

SYMBOL = "hanajit_print"
_layouts: dict = {}


def slots_of(kind: str) -> int:
    """How many 8-byte slots a value of ``kind`` takes (an array ``arr:<dtype>:<ndim>``:
    its data address, shape and byte strides)."""
    if kind.startswith("arr:"):
        return 1 + 2 * int(kind.rsplit(":", 1)[1])
    if kind.startswith("set:"):
        return 4
    return 0 if kind == "none" else 2 if kind in ("complex", "np:complex64",
                                                   "np:complex128", "str") else 1


def _array(dtype, words: list):
    """The NumPy array at ``words[0]`` with shape and byte strides ``words[1:]``, a
    read-only view of that memory (no copy); zeros when the address is 0 (a sample)."""
    import numpy as np
    ndim = (len(words) - 1) // 2
    shape, strides = tuple(words[1:1 + ndim]), tuple(words[1 + ndim:])
    if not words[0] or 0 in shape:
        return np.zeros(shape if words[0] else (1,) * ndim, dtype)
    low = sum((n - 1) * s for n, s in zip(shape, strides) if s < 0)
    high = sum((n - 1) * s for n, s in zip(shape, strides) if s > 0) + dtype.itemsize
    memory = (ctypes.c_char * (high - low)).from_address(words[0] + low)
    a = np.ndarray(shape, dtype, buffer=memory, offset=-low, strides=strides)
    a.flags.writeable = False
    return a


def _set(dtype, words: list):
    """The Python set with the compiled table whose arrays' addresses are
    ``words[:3]`` (elements, hashes and states, sizes) and the flags ``words[3]``
    (``hanajit.host_sets``); an empty set for a sample (address 0)."""
    import numpy as np
    if not words[2]:
        return set()
    S = _array(np.dtype(np.int64), [words[2], 4, 8])
    size = int(S[2]) + 1
    K = _array(dtype, [words[0], size, dtype.itemsize])
    Ix = _array(np.dtype(np.int64), [words[1], 2 * size, 8])
    return host_sets.set_of_table(K, Ix, S, int(words[3]))


def _float(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<q", bits))[0]


def _value(kind: str, words: list):
    """The object of ``kind`` whose slots are ``words``."""
    if kind == "none":
        return None
    w = words[0]
    if kind == "int":
        return w
    if kind == "str":       # the address and number of its code points (0: a sample)
        codes = (ctypes.c_int32 * words[1]).from_address(w) if w and words[1] else b""
        return bytes(codes).decode("utf-32-le", "surrogatepass")
    if kind == "bool":
        return bool(w)
    if kind == "float":
        return _float(w)
    if kind == "complex":
        return complex(_float(w), _float(words[1]))
    import numpy as np
    if kind.startswith("arr:"):
        return _array(np.dtype(kind.split(":")[1]), words)
    if kind.startswith("set:"):
        return _set(np.dtype(kind[4:]), words)
    dtype = np.dtype(kind[3:])
    if dtype.kind == "c":
        return dtype.type(complex(_float(w), _float(words[1])))
    if dtype.kind == "f":
        return dtype.type(_float(w))
    if dtype.kind == "b":
        return np.bool_(w != 0)
    if dtype.kind == "u":
        return dtype.type(w & 0xFFFFFFFFFFFFFFFF)
    return dtype.type(w)


def _format(value, conversion: str, spec: str) -> str:
    if conversion:
        value = {"s": str, "r": repr, "a": ascii}[conversion](value)
    return format(value, spec)


def render(layout, words: list) -> tuple:
    """The objects ``print`` gets for ``layout`` and the slots ``words``."""
    items, _, _, _, kinds = layout
    out, k, v = [], 0, 0

    def take():
        nonlocal k, v
        kind = kinds[v]
        n = slots_of(kind)
        value = _value(kind, words[k:k + n])
        k += n
        v += 1
        return value

    for item in items:
        if item[0] == "const":
            out.append(item[1])
        elif item[0] == "value":
            out.append(take())
        else:
            out.append("".join(p if isinstance(p, str) else _format(take(), *p)
                               for p in item[1]))
    return tuple(out)


def host_print(text, slots, count) -> int:
    """``hj.host.hanajit_print(text, slots, count)``: 0, or 1 where ``print``
    raised (a lone surrogate in a str, a closed ``sys.stdout``): the exception is
    kept for the runtime to raise (:func:`take_exception`), as the interpreter
    would have raised it there."""
    try:
        key = ctypes.string_at(text)
        layout = _layouts.get(key)
        if layout is None:
            layout = _layouts[key] = ast.literal_eval(key.decode("utf-8", "surrogatepass"))
        words = list((ctypes.c_int64 * count).from_address(slots)) if count else []
        _, sep, end, flush, _ = layout
        builtins.print(*render(layout, words), sep=sep, end=end, flush=flush)
    except Exception as exc:        # noqa: BLE001 - raised again by the runtime
        _raised.append(exc)
        return 1
    return 0


_raised: list = []


def take_exception() -> BaseException:
    """The exception a call back raised last (the compiled code raised
    ``errors.HostException`` after it), taken."""
    return _raised.pop() if _raised else RuntimeError("print failed")


_PRINT = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p,
                          ctypes.c_int64)(host_print)


def address(name: str):
    """The address of the host function ``name`` when it is this module's."""
    if name == SYMBOL:
        return ctypes.cast(_PRINT, ctypes.c_void_p).value
    return None
