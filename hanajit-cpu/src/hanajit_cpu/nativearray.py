"""NumPy arrays in the generated dispatcher: checking and unboxing ndarray arguments.

One more entry of the boxing table of :mod:`hanajit_cpu.nativebox`.  An argument
matches an ``ArrayType(dtype, ndim, layout, readonly)`` specialisation exactly when
:func:`hanajit.infer.rules.typeof` would give that type (or, for an any-layout
``"A"`` specialisation, when the Python dispatcher would accept it):

* its type is exactly ``numpy.ndarray`` (a pointer compare: subclasses take the
  Python dispatcher);
* ``nd`` is the specialisation's ``ndim``;
* the descriptor's ``type_num`` is one NumPy maps to the element type (``int64``
  is both ``NPY_LONG`` and ``NPY_LONGLONG`` on Linux) and its byte order is not
  the swapped one;
* ``flags`` has ``ALIGNED``, ``WRITEABLE`` set or clear as the specialisation's
  ``readonly`` says, and ``C_CONTIGUOUS`` (layout ``"C"``), or ``F_CONTIGUOUS``
  without ``C_CONTIGUOUS`` (layout ``"F"``, as ``typeof`` prefers ``"C"``), or
  nothing (``"A"``), tested together as one ``(flags & mask) == want``.

Unboxing reads ``data``, ``dimensions[k]`` and ``strides[k]`` straight from the
``PyArrayObject``: the C-ABI form is ``i64 data, i64 shape[ndim], i64 strides[ndim]``
(:func:`hanajit.lowering.cabi.flat_kinds`).  The arguments are borrowed for the
call, so no reference counts change.

The struct layouts are NumPy's public ones (identical in NumPy 1.x and 2.x up to
``flags``)::

    PyArrayObject: ob_refcnt +0, ob_type +8, data +16, nd +24 (int),
                   dimensions +32, strides +40, base +48, descr +56, flags +64 (int)
    PyArray_Descr: byteorder +26 (char), type_num +28 (int)

:func:`layout_known` checks them once per process against real arrays through
ctypes; if anything differs (another NumPy ABI, a 32-bit build), array
specialisations are not handled natively and every such call takes the Python
dispatcher, with identical results.
"""
from __future__ import annotations

import ctypes
import sys

from llvmlite import ir

from hanajit.ir import types as T
from hanajit.lowering.llvm import I8, I32, I64, PTR

from .nativebox import OB_TYPE, CApi, continue_if, field

# PyArrayObject / PyArray_Descr field offsets (64-bit, NumPy 1.x and 2.x)
AR_DATA, AR_ND, AR_DIMS, AR_STRIDES, AR_DESCR, AR_FLAGS = 16, 24, 32, 40, 56, 64
DESCR_BYTEORDER, DESCR_TYPE_NUM = 26, 28
# NPY_ARRAY_* flag bits
C_CONTIGUOUS, F_CONTIGUOUS, ALIGNED, WRITEABLE = 0x1, 0x2, 0x100, 0x400

_state: dict = {}


def layout_known() -> bool:
    """True when this process's NumPy lays arrays out as this module reads them
    (checked once, on real arrays, through ctypes)."""
    ok = _state.get("ok")
    if ok is None:
        try:
            ok = _probe()
        except Exception:           # pragma: no cover - any surprise: Python path
            ok = False
        _state["ok"] = ok
    return ok


def _probe() -> bool:
    import numpy as np
    if ctypes.sizeof(ctypes.c_void_p) != 8 or int(np.__version__.split(".")[0]) not in (1, 2):
        return False
    i32 = ctypes.c_int32.from_address
    ptr = ctypes.c_void_p.from_address
    samples = [np.arange(6.0).reshape(2, 3), np.zeros((3, 4), dtype=">i4").T[::2],
               np.array(5, dtype=np.uint8), np.ones(3, dtype=bool)[::-1]]
    ro = np.arange(4)
    ro.flags.writeable = False
    samples.append(ro)
    for a in samples:
        base = id(a)
        if ptr(base + AR_DATA).value != a.ctypes.data or i32(base + AR_ND).value != a.ndim:
            return False
        if ptr(base + OB_TYPE).value != id(np.ndarray) or \
                ptr(base + AR_DESCR).value != id(a.dtype):
            return False
        if i32(base + AR_FLAGS).value & 0xFFFF != a.flags.num & 0xFFFF:
            return False
        if a.ndim:
            dims = (ctypes.c_int64 * a.ndim).from_address(ptr(base + AR_DIMS).value)
            strides = (ctypes.c_int64 * a.ndim).from_address(ptr(base + AR_STRIDES).value)
            if tuple(dims) != a.shape or tuple(strides) != a.strides:
                return False
        d = id(a.dtype)
        if i32(d + DESCR_TYPE_NUM).value != a.dtype.num or \
                ctypes.c_char.from_address(d + DESCR_BYTEORDER).value != \
                a.dtype.byteorder.encode():
            return False
    return True


def _numpy_state() -> dict:
    """Process constants: the ndarray type's address, the swapped byte-order
    character, and the type numbers NumPy maps to each element type."""
    if "ndarray" not in _state:
        import numpy as np
        nums: dict = {}
        for code in np.typecodes["All"]:
            try:
                dt = np.dtype(code)
            except TypeError:        # pragma: no cover
                continue
            st = T.from_numpy_dtype(dt)
            if st is not None:
                nums.setdefault(st, set()).add(dt.num)
        _state["nums"] = {st: sorted(v) for st, v in nums.items()}
        _state["swapped"] = ord(">" if sys.byteorder == "little" else "<")
        _state["ndarray"] = id(np.ndarray)
    return _state


def _flag_test(t: T.ArrayType) -> tuple:
    """``(mask, want)``: the argument matches when ``flags & mask == want``."""
    mask, want = ALIGNED | WRITEABLE, ALIGNED | (0 if t.readonly else WRITEABLE)
    if t.layout == "C":
        mask, want = mask | C_CONTIGUOUS, want | C_CONTIGUOUS
    elif t.layout == "F":
        mask, want = mask | C_CONTIGUOUS | F_CONTIGUOUS, want | F_CONTIGUOUS
    return mask, want


class ArrayBoxing:
    """Emitters for ``ArrayType`` arguments (results are boxed by the Python
    dispatcher for now: ``box`` is None)."""

    box = None

    @staticmethod
    def supported(t: T.ArrayType) -> bool:
        return layout_known() and t.dtype in _numpy_state()["nums"]

    @staticmethod
    def check(cx, b, obj, t, fail):
        st = _numpy_state()
        is_nd = b.icmp_unsigned("==", field(b, obj, OB_TYPE), CApi.address(st["ndarray"]))
        continue_if(b, is_nd, fail, "array.type")
        nd = field(b, obj, AR_ND, I32)
        flags = field(b, obj, AR_FLAGS, I32)
        mask, want = _flag_test(t)
        good = b.and_(b.icmp_unsigned("==", nd, ir.Constant(I32, t.ndim)),
                      b.icmp_unsigned("==", b.and_(flags, ir.Constant(I32, mask)),
                                      ir.Constant(I32, want)))
        continue_if(b, good, fail, "array.shape_flags")
        descr = field(b, obj, AR_DESCR)
        num = field(b, descr, DESCR_TYPE_NUM, I32)
        same = None
        for n in st["nums"][t.dtype]:
            eq = b.icmp_unsigned("==", num, ir.Constant(I32, n))
            same = eq if same is None else b.or_(same, eq)
        order = field(b, descr, DESCR_BYTEORDER, I8)
        native = b.icmp_unsigned("!=", order, ir.Constant(I8, st["swapped"]))
        continue_if(b, b.and_(same, native), fail, "array.dtype")

    @staticmethod
    def unbox(cx, b, obj, t, fail):
        out = [field(b, obj, AR_DATA, I64)]
        for off in (AR_DIMS, AR_STRIDES):
            if t.ndim == 0:
                continue
            base = field(b, obj, off)
            for k in range(t.ndim):
                p = b.gep(base, [ir.Constant(I64, k)], source_etype=I64)
                out.append(b.load(p, typ=I64))
        return out
