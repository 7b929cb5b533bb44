"""NumPy arrays in the generated dispatcher: checking and unboxing ndarray arguments.

One more entry of the boxing table of :mod:`hanajit_cpu.nativebox`.  An argument
matches an ``ArrayType(dtype, ndim, layout, readonly)`` specialisation exactly when
:func:`hanajit.typing_rules.typeof` would give that type (or, for an any-layout
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
import threading

from hanajit.ir import types as T
from hanajit.lowering.llvm import I8, I32, I64, PTR
from llvmlite import ir

from .nativebox import OB_TYPE, CApi, continue_if, field, outlined

# PyArrayObject / PyArray_Descr field offsets (64-bit, NumPy 1.x and 2.x)
AR_DATA, AR_ND, AR_DIMS, AR_STRIDES, AR_DESCR, AR_FLAGS = 16, 24, 32, 40, 56, 64
DESCR_BYTEORDER, DESCR_TYPE_NUM = 26, 28
# NPY_ARRAY_* flag bits
C_CONTIGUOUS, F_CONTIGUOUS, ALIGNED, WRITEABLE = 0x1, 0x2, 0x100, 0x400

_state: dict = {}
_lock = threading.Lock()


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


# ------------------------------------------------------------ boxing results
# NumPy's C-API table (``_ARRAY_API``): stable indices since NumPy 1.7
_API_ARRAY_TYPE, _API_NEW_FROM_DESCR, _API_SET_BASE = 2, 94, 282
CAPSULE_FREE = "__hj_capsule_free"
_CAPSULE_FREE_IR = r"""
declare ptr @PyCapsule_GetPointer(ptr, ptr)
declare void @hj_nrt_decref(ptr)

define void @__hj_capsule_free(ptr %cap) nounwind {
entry:
  %mi = call ptr @PyCapsule_GetPointer(ptr %cap, ptr null)
  call void @hj_nrt_decref(ptr %mi)
  ret void
}
"""


def box_api() -> dict | None:
    """Addresses for boxing arrays allocated by compiled code, or None when this
    NumPy is not one whose C-API table is known (results then take the Python
    boxing path).  The capsule destructor that releases a meminfo is compiled
    once per process and never freed: arrays may outlive every jitted function."""
    if "api" not in _state:
        with _lock:                  # one destructor per process, built once
            if "api" not in _state:
                try:
                    _state["api"] = _make_box_api() if layout_known() else None
                except Exception:    # pragma: no cover - any surprise: Python path
                    _state["api"] = None
    return _state["api"]


def _array_api_table() -> int:
    import numpy as np
    try:
        from numpy._core import _multiarray_umath as mu
    except ImportError:             # NumPy 1.x
        from numpy.core import _multiarray_umath as mu
    # a private prototype: ctypes.pythonapi's function objects are shared
    get = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object, ctypes.c_char_p)(
        ("PyCapsule_GetPointer", ctypes.pythonapi))
    table = get(mu._ARRAY_API, None)
    if ctypes.c_void_p.from_address(table + 8 * _API_ARRAY_TYPE).value != id(np.ndarray):
        raise RuntimeError("unknown NumPy C-API table")
    return table


def _make_box_api() -> dict:
    import numpy as np
    from hanajit.lowering import nrt

    from .engine import get_engine
    table = _array_api_table()

    def slot(i):
        return ctypes.c_void_p.from_address(table + 8 * i).value
    new_from_descr, set_base = slot(_API_NEW_FROM_DESCR), slot(_API_SET_BASE)
    # check both entries on a real array before generating code that calls them
    new = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.py_object,
                            ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                            ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p)(new_from_descr)
    setb = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object,
                             ctypes.py_object)(set_base)
    buf = np.arange(6.0)
    dims, strides = (ctypes.c_int64 * 2)(2, 3), (ctypes.c_int64 * 2)(8, 16)
    dt = np.dtype(np.float64)
    ctypes.pythonapi.Py_IncRef(ctypes.py_object(dt))      # NewFromDescr steals it
    arr = new(id(np.ndarray), dt, 2, ctypes.addressof(dims), ctypes.addressof(strides),
              buf.ctypes.data, WRITEABLE, None)
    owner = [buf]
    ctypes.pythonapi.Py_IncRef(ctypes.py_object(owner))   # SetBaseObject steals it
    if setb(arr, owner) != 0 or arr.base is not owner or arr.tolist() != \
            [[0.0, 2.0, 4.0], [1.0, 3.0, 5.0]] or not arr.flags.writeable:
        raise RuntimeError("NumPy C-API table entries do not behave as expected")
    eng = get_engine()
    decref = eng.nrt_addresses()[nrt.DECREF]
    getp = ctypes.cast(ctypes.pythonapi.PyCapsule_GetPointer, ctypes.c_void_p).value
    tracker, addrs = eng.link(eng.compile_object(_CAPSULE_FREE_IR)[1], [CAPSULE_FREE],
                              imports={"PyCapsule_GetPointer": getp,
                                       nrt.DECREF: decref})
    _state["keep"] = tracker
    return {"PyArray_NewFromDescr": new_from_descr, "PyArray_SetBaseObject": set_base,
            "capsule_free": addrs[CAPSULE_FREE], "nrt_decref": decref}


def _declare(cx, name, ret, args, address) -> ir.Function:
    f = cx._decls.get(name)
    if f is None:
        f = cx._decls[name] = ir.Function(cx.m, ir.FunctionType(ret, args), name)
        f.attributes.add("nounwind")
        cx.imports[name] = address
    return f


def _new_array(cx, b, t: T.ArrayType, data, dims, flags):
    """``PyArray_NewFromDescr`` over ``data`` with ``dims`` (shape then strides,
    i64 values) and ``flags`` (an i32): the new array, or NULL with an exception
    set."""
    import numpy as np
    api = box_api()
    with b.goto_entry_block():
        buf = b.alloca(ir.ArrayType(I64, max(1, 2 * t.ndim)), name="array.dims")
        buf.type = PTR
    for k, v in enumerate(dims):
        b.store(v, b.gep(buf, [ir.Constant(I64, k)], source_etype=I64))
    strides = b.gep(buf, [ir.Constant(I64, t.ndim)], source_etype=I64)
    descr = CApi.address(id(np.dtype(t.dtype.name)))
    new = _declare(cx, "PyArray_NewFromDescr", PTR,
                   [PTR, PTR, I32, PTR, PTR, PTR, I32, PTR], api["PyArray_NewFromDescr"])
    b.call(cx.Py_IncRef, [descr])                 # stolen by NewFromDescr
    return b.call(new, [CApi.address(_numpy_state()["ndarray"]), descr,
                        ir.Constant(I32, t.ndim), buf, strides, b.inttoptr(data, PTR),
                        flags, ir.Constant(PTR, None)])


def _set_base(cx, b, arr, base):
    """``PyArray_SetBaseObject(arr, base)``, which steals ``base`` (also on
    failure): ``arr``, or NULL (``arr`` released) with an exception set."""
    fn = b.function
    setbase = _declare(cx, "PyArray_SetBaseObject", I32, [PTR, PTR],
                       box_api()["PyArray_SetBaseObject"])
    failed = b.icmp_signed("<", b.call(setbase, [arr, base]), ir.Constant(I32, 0))
    start = b.block
    no_base, done = fn.append_basic_block("array.nobase"), fn.append_basic_block("array.based")
    b.cbranch(failed, no_base, done)
    b.position_at_end(no_base)
    b.call(cx.Py_DecRef, [arr])
    b.branch(done)
    b.position_at_end(done)
    result = b.phi(PTR, name="based")
    result.add_incoming(arr, start)
    result.add_incoming(ir.Constant(PTR, None), no_base)
    return result


def box_fresh_array(cx, b, leaves, t: T.ArrayType):
    """A new ndarray over memory allocated by compiled code (meminfo not NULL),
    with a capsule holding the meminfo reference as its ``base``.  NULL with an
    exception set on failure (the reference is released)."""
    api = box_api()
    meminfo, data = next(leaves), next(leaves)
    dims = [next(leaves) for _ in range(2 * t.ndim)]
    fn = b.function
    decref = _declare(cx, "hj_nrt_decref", ir.VoidType(), [PTR], api["nrt_decref"])
    null = ir.Constant(PTR, None)
    mi = b.inttoptr(meminfo, PTR)
    arr = _new_array(cx, b, t, data, dims, ir.Constant(I32, WRITEABLE))
    made, no_array = fn.append_basic_block("array.made"), fn.append_basic_block("array.no")
    done = fn.append_basic_block("array.done")
    b.cbranch(b.icmp_unsigned("==", arr, null), no_array, made)
    b.position_at_end(no_array)                   # release the meminfo reference
    b.call(decref, [mi])
    b.branch(done)
    b.position_at_end(made)
    cap = b.call(cx.PyCapsule_New, [mi, null, CApi.address(api["capsule_free"])])
    has_cap, no_cap = fn.append_basic_block("array.cap"), fn.append_basic_block("array.nocap")
    b.cbranch(b.icmp_unsigned("==", cap, null), no_cap, has_cap)
    b.position_at_end(no_cap)
    b.call(decref, [mi])
    b.call(cx.Py_DecRef, [arr])
    b.branch(done)
    b.position_at_end(has_cap)
    based = _set_base(cx, b, arr, cap)
    based_block = b.block
    b.branch(done)
    b.position_at_end(done)
    result = b.phi(PTR, name="array")
    result.add_incoming(null, no_array)
    result.add_incoming(null, no_cap)
    result.add_incoming(based, based_block)
    return result


def contains(b, t: T.ArrayType, flat, address):
    """i1: does the (unboxed) array argument ``flat`` = [data, shape..., strides...]
    have an element at byte ``address``?  Its elements span
    ``[data + sum(min(0, (n-1)*s)), data + sum(max(0, (n-1)*s)) + itemsize)``;
    an empty array has none."""
    data, shape, strides = flat[0], flat[1:1 + t.ndim], flat[1 + t.ndim:]
    zero = ir.Constant(I64, 0)
    lo, hi = data, b.add(data, ir.Constant(I64, max(1, t.dtype.bits // 8)))
    nonempty = ir.Constant(ir.IntType(1), 1)
    for n, s in zip(shape, strides):
        ext = b.mul(b.sub(n, ir.Constant(I64, 1)), s)
        neg = b.icmp_signed("<", ext, zero)
        lo = b.add(lo, b.select(neg, ext, zero))
        hi = b.add(hi, b.select(neg, zero, ext))
        nonempty = b.and_(nonempty, b.icmp_signed(">", n, zero))
    inside = b.and_(b.icmp_unsigned("<=", lo, address), b.icmp_unsigned("<", address, hi))
    return b.and_(nonempty, inside)


def box_view(cx, b, t: T.ArrayType, leaves, owner):
    """A view of the argument ``owner`` (a result with NULL meminfo whose data
    lies in ``owner``'s elements): writeable as ``owner`` is unless its type is
    read-only (``np.diag`` of a matrix), with ``owner`` as its ``base``.  NULL
    with an exception set on failure."""
    _meminfo, data = next(leaves), next(leaves)
    dims = [next(leaves) for _ in range(2 * t.ndim)]
    flags = b.and_(field(b, owner, AR_FLAGS, I32),
                   ir.Constant(I32, 0 if t.readonly else WRITEABLE))
    arr = _new_array(cx, b, t, data, dims, flags)
    fn = b.function
    made, failed = fn.append_basic_block("view.made"), fn.append_basic_block("view.no")
    done = fn.append_basic_block("view.done")
    b.cbranch(b.icmp_unsigned("==", arr, ir.Constant(PTR, None)), failed, made)
    b.position_at_end(made)
    b.call(cx.Py_IncRef, [owner])                 # stolen by SetBaseObject
    based = _set_base(cx, b, arr, owner)
    based_block = b.block
    b.branch(done)
    b.position_at_end(failed)
    b.branch(done)
    b.position_at_end(done)
    result = b.phi(PTR, name="view")
    result.add_incoming(based, based_block)
    result.add_incoming(ir.Constant(PTR, None), failed)
    return result


def call_box_fresh_array(cx, b, leaves, t: T.ArrayType):
    """:func:`box_fresh_array`, as a call (:func:`nativebox.outlined`)."""
    args = [next(leaves) for _ in range(2 + 2 * t.ndim)]
    return outlined(cx, b, f"hj.box_array.{t.dtype.name}.{t.ndim}",
                     lambda cx, b, it: box_fresh_array(cx, b, it, t), args)


def call_box_view(cx, b, t: T.ArrayType, leaves, owner):
    """:func:`box_view`, as a call (:func:`nativebox.outlined`)."""
    args = [owner] + [next(leaves) for _ in range(2 + 2 * t.ndim)]
    name = f"hj.box_view.{t.dtype.name}.{t.ndim}.{'r' if t.readonly else 'w'}"
    return outlined(cx, b, name,
                     lambda cx, b, it: box_view(cx, b, t, it, next(it)), args)


class ArrayBoxing:
    """Emitters for ``ArrayType``.  ``box`` handles arrays allocated by compiled
    code; views of arguments (NULL meminfo) are boxed by the dispatcher with
    :func:`contains` and :func:`box_view`."""

    box = staticmethod(call_box_fresh_array)

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
