"""NumPy's own sort functions, called from compiled code (:func:`sort_lanes`: a
``ForeignCall`` per lane) on targets whose code runs in this process (the CPU).

``np.sort`` and ``np.argsort`` sort each lane with the function its dtype's
``PyArray_ArrFuncs`` holds for the kind (``sort[kind]``, ``argsort[kind]``): on
x86-64 these dispatch at run time to SIMD sorts (x86-simd-sort, Highway) whose
order of equal values -- ``-0.0`` and ``0.0``, argsort's ties -- depends on the
host's vector ISA.  Calling the same functions is the only way to give NumPy's
answer bit for bit on every host, at NumPy's speed.  They are reached through
NumPy's C API (``_PyDataType_GetArrFuncs``, entry 365 of its API table in NumPy
2), checked once per process on a small array before use; where the check
fails, the sorts are hanajit's own (``sort_algorithms``).
"""
from __future__ import annotations

import ctypes
import functools

import numpy as np

from ...ir import nodes as N
from ...ir import types as T

I = T.INT64
KINDS = ("quick", "heap", "stable")
_GET_ARRFUNCS = 365             # _PyDataType_GetArrFuncs in NumPy 2's API table
_SORT_SLOT = 21 + 12            # PyArray_ArrFuncs: cast[21] and 12 pointers first
_SORT = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_ssize_t, ctypes.c_void_p)
_ARGSORT = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                            ctypes.c_ssize_t, ctypes.c_void_p)


def symbol(arg: bool, kind: str, dtype) -> str:
    """``numpy_sort_<kind>_<dtype>`` or ``numpy_argsort_<kind>_<dtype>``."""
    return f"numpy_{'argsort' if arg else 'sort'}_{kind}_{dtype.name}"


def _functions(dtype: str) -> tuple:
    """The six addresses ``sort[0..2]``, ``argsort[0..2]`` of ``dtype``."""
    import numpy._core._multiarray_umath as mu
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    table = (ctypes.c_void_p * (_GET_ARRFUNCS + 1)).from_address(get(mu._ARRAY_API, None))
    arrfuncs = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p)(table[_GET_ARRFUNCS])
    slots = (ctypes.c_void_p * (_SORT_SLOT + 6)).from_address(
        arrfuncs(id(np.dtype(dtype))))
    return tuple(slots[_SORT_SLOT:_SORT_SLOT + 6])


@functools.cache
def _checked(dtype: str) -> dict | None:
    """``{kind: (sort address, argsort address)}`` of ``dtype``, each checked to
    sort an array of ties (signed zeros among them) as ``np.sort`` and
    ``np.argsort`` of that kind do; None where one is not found so."""
    if int(np.__version__.split(".")[0]) < 2:
        return None
    try:
        found = _functions(dtype)
        rng = np.random.default_rng(0)
        with np.errstate(all="ignore"):
            a = rng.choice(np.array([0.0, -0.0, 1.0, 2.0]), 300).astype(dtype)
        out = {}
        # NumPy 2.4 sorts kind="heapsort" with its default function (slot 0)
        for kind, numpy_kind, slots in (("quick", "quicksort", (0,)),
                                         ("heap", "heapsort", (1, 0)),
                                         ("stable", "stable", (2,))):
            want_v = np.sort(a, kind=numpy_kind)
            want_p = np.argsort(a, kind=numpy_kind)
            for slot in slots:
                if not (found[slot] and found[3 + slot]):
                    continue
                v = a.copy()
                _SORT(found[slot])(v.ctypes.data, len(v), None)
                p = np.arange(len(a), dtype=np.intp)
                _ARGSORT(found[3 + slot])(a.ctypes.data, p.ctypes.data, len(a), None)
                if v.tobytes() == want_v.tobytes() and np.array_equal(p, want_p):
                    out[kind] = (found[slot], found[3 + slot])
                    break
            else:
                return None
        return out
    except Exception:           # noqa: BLE001 - another NumPy: hanajit's own sorts
        return None


def usable(L, dtype) -> bool:
    """Do this target's sorts of ``dtype`` call NumPy's functions?"""
    return (L.ctx.capabilities.host_calls and isinstance(dtype, T.Scalar)
            and _checked(dtype.name) is not None)


def address(name: str) -> int | None:
    """The address behind the symbol ``name`` (:func:`symbol`), else None."""
    parts = name.split("_")
    if len(parts) != 4 or parts[0] != "numpy" or parts[1] not in ("sort", "argsort") \
            or parts[2] not in KINDS:
        return None
    found = _checked(parts[3])
    if found is None:
        return None
    return found[parts[2]][parts[1] == "argsort"]


def sort_lanes(L, flat, n, kind: str, positions=None) -> None:
    """Sort each lane of ``n`` items of the C-contiguous 1-D ``flat`` in place with
    NumPy's function of the ``kind`` ("quick", "heap", "stable"); with
    ``positions`` (int64, shaped as ``flat``), write each lane's argsort there
    instead, as NumPy does: 0 to n-1, then ordered by the items (``flat`` kept)."""
    from ..arrays.reductions import loops
    zero = N.Const(0, I)
    size = L.let(N.ArrayAttr(flat, "shape", 0, I))
    n = L.let(n)
    # (a select computes both sides: the divisor is never zero)
    some = N.Cmp("gt", n, zero, T.BOOL)
    lanes = L.let(N.Select(some, N.BinOp("sdiv", size, N.Select(some, n, N.Const(1, I), I),
                                         I), zero, I))
    if positions is not None:
        loops(L, [lanes, n], lambda idx: L.emit(N.Store(
            array=positions, indices=[N.BinOp("add", N.BinOp("mul", idx[0], n, I),
                                              idx[1], I)], value=idx[1])))

    def at(arr, first):
        step = N.Const(max(arr.type.dtype.bits // 8, 1), I)     # bool: a byte
        return N.BinOp("add", N.ArrayAttr(arr, "data", 0, I),
                       N.BinOp("mul", first, step, I), I)

    def call(idx):
        first = L.let(N.BinOp("mul", idx[0], n, I))
        if positions is None:
            args = [at(flat, first), n, zero]
        else:
            args = [at(flat, first), at(positions, first), n, zero]
        # NumPy's functions return -1 when their buffers cannot be allocated
        # (merge sort, timsort, radix sort), where np.sort raises MemoryError
        status = L.temp(T.INT32, "sorted")
        L.emit(N.Assign(target=status, value=N.Const(0, T.INT32)))
        L.emit(N.ForeignCall(symbol=symbol(positions is not None, kind, flat.type.dtype),
                             args=[L.let(a) for a in args], returns=T.INT32,
                             target=status))
        L.emit(N.If(cond=N.Cmp("lt", N.Var(status, T.INT32), N.Const(0, T.INT32), T.BOOL),
                    then=[N.Raise(exc=MemoryError, message="cannot allocate the "
                                  "sort's buffers")]))
    loops(L, [lanes], call)
