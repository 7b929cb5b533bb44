"""NumPy scalars in the generated dispatcher: ``np.float64``, ``np.float32``,
``np.int8`` ... ``np.uint64``, ``np.bool_``, ``np.complex64``/``np.complex128``.

More entries of the boxing table of :mod:`hanajit_cpu.nativebox`:

* **check**: the argument's type is exactly one of NumPy's scalar types for the
  IR type (a pointer compare; ``int64`` is both ``np.int64`` and ``np.longlong``
  where they differ), as :func:`hanajit.typing_rules.typeof` maps its dtype.  A
  ``np.float64`` argument arrives under the dispatch key
  ``NumpyScalarArg(float64)`` (it promotes as NumPy's, not as a Python float), so
  a Python float never matches it and it never matches a Python float's
  specialisation (whose check is ``PyFloat_Type`` exactly);
* **unbox**: the value is the scalar's ``obval``, right after ``PyObject_HEAD``
  (+16) in every NumPy scalar object (``PyDoubleScalarObject``,
  ``PyByteScalarObject`` ... ``PyCFloatScalarObject``: real +16, imaginary +20);
* **box**: a result the interpreter gives as a NumPy scalar (the specialisation's
  result type marks it with ``NumpyScalarArg``) is made as NumPy's own
  ``PyArrayScalar_New`` makes it, ``tp_alloc(type, 0)``, then ``obval`` is
  stored; bools are NumPy's two singletons ``np.True_``/``np.False_``.

:func:`layout_known` checks, once per process through ctypes, that every such
type has its value at +16 and that ``tp_alloc`` makes a scalar this module can
fill; otherwise NumPy-scalar specialisations take the Python dispatcher, with the
same results.
"""
from __future__ import annotations

import ctypes

from llvmlite import ir

from hanajit.ir import types as T
from hanajit.lowering.llvm import F64, I8, I64, PTR

from .nativebox import OB_TYPE, CApi, continue_if, field

OBVAL = 16
F32 = ir.FloatType()
_TP_ALLOC = 47              # Py_tp_alloc, for PyType_GetSlot
_state: dict = {}


def _numpy_types() -> dict:
    """IR scalar type -> the NumPy scalar types ``typeof`` maps to it."""
    import numpy as np
    out: dict = {}
    for cls in (np.bool_, np.int8, np.int16, np.int32, np.int64, np.longlong,
                np.uint8, np.uint16, np.uint32, np.uint64, np.ulonglong,
                np.float32, np.float64, np.complex64, np.complex128):
        t = T.from_numpy_dtype(np.dtype(cls))
        if t is not None and cls not in out.setdefault(t, []):
            out[t].append(cls)
    return out


def _tp_alloc(cls) -> int:
    get = ctypes.pythonapi.PyType_GetSlot
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_int]
    return get(cls, _TP_ALLOC)


_CTYPES = {"b": ctypes.c_bool, "i8": ctypes.c_int8, "i16": ctypes.c_int16,
           "i32": ctypes.c_int32, "i64": ctypes.c_int64, "u8": ctypes.c_uint8,
           "u16": ctypes.c_uint16, "u32": ctypes.c_uint32, "u64": ctypes.c_uint64,
           "f32": ctypes.c_float, "f64": ctypes.c_double}


def _ctype(t: T.Scalar):
    return _CTYPES["b" if t.is_bool else f"{t.kind}{t.bits}"]


def _probe() -> bool:
    import numpy as np
    if ctypes.sizeof(ctypes.c_void_p) != 8 or int(np.__version__.split(".")[0]) not in (1, 2):
        return False
    decref = ctypes.pythonapi.Py_DecRef
    decref.argtypes = [ctypes.c_void_p]
    for t, classes in _numpy_types().items():
        leaf = t.component if t.is_complex else t
        n = 2 if t.is_complex else 1
        ct = _ctype(leaf)
        for cls in classes:
            sample = cls(complex(3, -2) if t.is_complex else 1 if t.is_bool else 5)
            if ctypes.c_void_p.from_address(id(sample) + OB_TYPE).value != id(cls):
                return False
            got = (ct * n).from_address(id(sample) + OBVAL)
            want = [3, -2] if t.is_complex else [sample.item()]
            if list(got) != want:
                return False
            if t.is_bool:
                continue
            # a fresh one through tp_alloc, filled as the generated code fills it
            # PYFUNCTYPE: called with the GIL held (CFUNCTYPE releases it, and an
            # allocation without the GIL crashes CPython 3.12+)
            alloc = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_ssize_t)(
                _tp_alloc(cls))
            p = alloc(id(cls), 0)
            if not p:
                return False
            (ct * n).from_address(p + OBVAL)[:] = want
            made = ctypes.cast(p, ctypes.py_object).value
            ok = type(made) is cls and made == sample
            del made
            decref(p)
            if not ok:
                return False
    return True


def layout_known() -> bool:
    """True when NumPy's scalars are laid out as this module reads and makes them."""
    ok = _state.get("ok")
    if ok is None:
        try:
            ok = _probe()
        except Exception:           # pragma: no cover - any surprise: Python path
            ok = False
        _state["ok"] = ok
    return ok


def _classes(t: T.Scalar) -> list:
    types = _state.get("types")
    if types is None:
        types = _state["types"] = _numpy_types()
    return types.get(t, [])


def _leaf_type(t: T.Scalar):
    if t.is_float:
        return F32 if t.bits == 32 else F64
    return ir.IntType(8 if t.is_bool else t.bits)


class NumpyScalarBoxing:
    """Emitters for the NumPy scalar of IR type ``t`` (``t`` may carry the
    :class:`~hanajit.ir.types.NumpyScalarArg` marker)."""

    @staticmethod
    def supported(t) -> bool:
        return layout_known() and bool(_classes(T.plain(t)))

    @staticmethod
    def check(cx, b, obj, t, fail):
        t = T.plain(t)
        tp = field(b, obj, OB_TYPE)
        hit = ir.Constant(ir.IntType(1), 0)
        for cls in _classes(t):
            hit = b.or_(hit, b.icmp_unsigned("==", tp, CApi.address(id(cls))))
        continue_if(b, hit, fail, "npscalar.ok")

    @staticmethod
    def unbox(cx, b, obj, t, fail):
        t = T.plain(t)
        leaf = t.component if t.is_complex else t
        lt = _leaf_type(leaf)
        size = leaf.bits // 8
        out = []
        for k in range(2 if t.is_complex else 1):
            v = field(b, obj, OBVAL + k * size, lt)
            if leaf.is_float:
                out.append(v if lt is F64 else b.fpext(v, F64))
            elif leaf.bits == 64:
                out.append(v)
            elif leaf.is_signed:
                out.append(b.sext(v, I64))
            else:
                out.append(b.zext(v, I64))
        return out

    @staticmethod
    def box(cx, b, leaves, t):
        t = T.plain(t)
        import numpy as np
        if t.is_bool:
            v = b.icmp_unsigned("!=", next(leaves), ir.Constant(I64, 0))
            obj = b.select(v, CApi.address(id(np.True_)), CApi.address(id(np.False_)))
            b.call(cx.Py_IncRef, [obj])
            return obj
        cls = _classes(t)[0]
        values = [next(leaves) for _ in range(2 if t.is_complex else 1)]
        # tp_alloc, linked by address under a name of its own
        name = f"__hj_tp_alloc.{cls.__name__}"
        alloc = cx.m.globals.get(name)
        if alloc is None:
            alloc = ir.Function(cx.m, ir.FunctionType(PTR, [PTR, I64]), name)
            alloc.attributes.add("nounwind")
            cx.imports[name] = _tp_alloc(cls)
        obj = b.call(alloc, [CApi.address(id(cls)), ir.Constant(I64, 0)])
        fill = b.function.append_basic_block("npscalar.fill")
        done = b.function.append_basic_block("npscalar.done")
        b.cbranch(b.icmp_unsigned("==", obj, ir.Constant(PTR, None)), done, fill)
        b.position_at_end(fill)
        leaf = t.component if t.is_complex else t
        lt = _leaf_type(leaf)
        for k, v in enumerate(values):
            if leaf.is_float and lt is F32:
                v = b.fptrunc(v, F32)
            elif leaf.is_int and leaf.bits < 64:
                v = b.trunc(v, lt)
            p = b.gep(obj, [ir.Constant(I64, OBVAL + k * (leaf.bits // 8))], source_etype=I8)
            b.store(v, p)
        b.branch(done)
        b.position_at_end(done)
        return obj

