"""Boxing and unboxing CPython objects in LLVM IR, as a table keyed by IR type.

Used by the generated vectorcall dispatcher (:mod:`hanajit_cpu.native`).  For each
IR type the table has three emitters:

* ``check(cx, b, obj, t, fail)``: branch to ``fail`` unless ``obj`` is exactly what
  :func:`hanajit.typing_rules.argtypeof` maps to ``t`` (exact ``int``, ``float``,
  ``bool``, ``complex``, ``None``, NumPy scalars, tuples of those);
* ``unbox(cx, b, obj, t, fail)``: the flat C-ABI values (``i64``/``double``, see
  :func:`hanajit.lowering.cabi.flat_kinds`); ``fail`` is taken, with no exception
  set, when the value does not fit (an ``int`` beyond int64);
* ``box(cx, b, leaves, t)``: a new reference built from the flat values, or NULL
  with an exception set.

Scalars are looked up by type (``SCALARS``), structured types by their IR class
(``STRUCTURED``): tuples here, NumPy scalars (``NumpyScalarArg``-marked types,
and the sized types only NumPy has) in :mod:`hanajit_cpu.nativescalar`, NumPy arrays in :mod:`hanajit_cpu.nativearray`,
``np.random.Generator`` arguments in :mod:`hanajit_cpu.nativerandom`.  A type with no entry is not
handled natively; calls with it take the Python dispatcher.

Object layouts used (64-bit CPython 3.10 to 3.13 with the GIL, the same in each):
``ob_type`` at +8, ``ob_size`` at +16, ``PyFloatObject.ob_fval`` at +16,
``PyComplexObject.cval`` at +16/+24, ``PyTupleObject.ob_item`` at +24.  Integers go through ``PyLong_AsLongLong``
(its layout changed in 3.12).
"""
from __future__ import annotations

import ctypes

from llvmlite import ir

from hanajit.ir import types as T
from hanajit.lowering.llvm import F64, I8, I32, I64, PTR

from . import nativecall

VOID = ir.VoidType()
OB_TYPE, OB_SIZE, OB_FVAL, OB_ITEM = 8, 16, 16, 24


class CApi:
    """CPython C-API declarations in one llvmlite module, and what to link them to."""

    FUNCTIONS = {
        "PyLong_AsLongLong": (I64, [PTR]),
        "PyLong_FromLongLong": (PTR, [I64]),
        "PyLong_FromUnsignedLongLong": (PTR, [I64]),
        "PyFloat_FromDouble": (PTR, [F64]),
        "PyComplex_FromDoubles": (PTR, [F64, F64]),
        "PyTuple_New": (PTR, [I64]),
        "PyTuple_SetItem": (I32, [PTR, I64, PTR]),
        "PyErr_Occurred": (PTR, []),
        "PyErr_Clear": (VOID, []),
        "Py_IncRef": (VOID, [PTR]),
        "Py_DecRef": (VOID, [PTR]),
        "PyObject_Vectorcall": (PTR, [PTR, PTR, I64, PTR]),
        "PyCapsule_New": (PTR, [PTR, PTR, PTR]),
        "PyEval_SaveThread": (PTR, []),
        "PyEval_RestoreThread": (VOID, [PTR]),
        "PyObject_GenericGetDict": (PTR, [PTR, PTR]),
        "PyDict_Size": (I64, [PTR]),
        "PyDict_Contains": (I32, [PTR, PTR]),
        "PyUnicode_Compare": (I32, [PTR, PTR]),
    }
    # data symbols: resolved to the objects' addresses in this process
    OBJECTS = {
        "PyLong_Type": int, "PyFloat_Type": float, "PyComplex_Type": complex,
        "PyTuple_Type": tuple, "_Py_TrueStruct": True, "_Py_FalseStruct": False,
        "_Py_NoneStruct": None, "PyUnicode_Type": str,
    }

    def __init__(self, llmod: ir.Module):
        self.m = llmod
        self.imports: dict = {}
        self._decls: dict = {}

    def __getattr__(self, name):
        if name in CApi.FUNCTIONS:
            return self.fn(name)
        raise AttributeError(name)

    def fn(self, name: str) -> ir.Function:
        f = self._decls.get(name)
        if f is None:
            ret, args = CApi.FUNCTIONS[name]
            f = self._decls[name] = ir.Function(self.m, ir.FunctionType(ret, args), name)
            f.attributes.add("nounwind")
            if name == nativecall.VECTORCALL:      # a static inline in 3.10
                self.imports[name] = nativecall.address()
            else:
                self.imports[name] = ctypes.cast(getattr(ctypes.pythonapi, name),
                                                 ctypes.c_void_p).value
        return f

    def obj(self, name: str) -> ir.GlobalVariable:
        g = self._decls.get(name)
        if g is None:
            g = self._decls[name] = ir.GlobalVariable(self.m, I8, name)
            g.linkage = "external"
            self.imports[name] = id(CApi.OBJECTS[name])
        return g

    @staticmethod
    def address(value: int) -> ir.Constant:
        """A constant pointer to a Python object that outlives the generated code."""
        return ir.Constant(I64, value).inttoptr(PTR)


# --------------------------------------------------------------------- helpers
def field(b: ir.IRBuilder, obj, offset: int, ty=PTR):
    p = b.gep(obj, [ir.Constant(I64, offset)], source_etype=I8)
    return b.load(p, typ=ty)


def outlined(cx, b, name, emit, args):
    """``emit(cx, builder, iter(params))`` as a call of one internal function of
    the module named ``name``, made the first time: a dispatcher boxes the same
    types and calls the same handlers for many specialisations, and its code
    generation grows with every copy (~30-40 instructions each)."""
    fn = cx._decls.get(name)
    if fn is None:
        fn = cx._decls[name] = ir.Function(
            cx.m, ir.FunctionType(PTR, [a.type for a in args]), name)
        fn.linkage = "internal"
        fn.attributes.add("nounwind")
        fn.attributes.add("noinline")
        inner = ir.IRBuilder(fn.append_basic_block("entry"))
        inner.ret(emit(cx, inner, iter(fn.args)))
    return b.call(fn, args)


def continue_if(b: ir.IRBuilder, cond, fail: ir.Block, name="ok") -> None:
    """Branch to ``fail`` unless ``cond``; continue in a new block."""
    ok = b.function.append_basic_block(name)
    b.cbranch(cond, ok, fail)
    b.position_at_end(ok)


def _is(b, x, y):
    return b.icmp_unsigned("==", x, y)


def _exact_type(cx, b, obj, type_name, fail):
    continue_if(b, _is(b, field(b, obj, OB_TYPE), cx.obj(type_name)), fail, "type.ok")


# ------------------------------------------------------------------ the table
class ScalarBoxing:
    """Emitters for one scalar type (None where a direction is unsupported)."""

    def __init__(self, check=None, unbox=None, box=None):
        self.check, self.unbox, self.box = check, unbox, box


def _check_int(cx, b, obj, t, fail):
    _exact_type(cx, b, obj, "PyLong_Type", fail)


def _unbox_int(cx, b, obj, t, fail):
    v = b.call(cx.PyLong_AsLongLong, [obj])
    maybe = b.function.append_basic_block("int.maybe_err")
    ok = b.function.append_basic_block("int.ok")
    b.cbranch(_is(b, v, ir.Constant(I64, -1)), maybe, ok)
    b.position_at_end(maybe)
    err = b.call(cx.PyErr_Occurred, [])
    clear = b.function.append_basic_block("int.overflow")
    b.cbranch(_is(b, err, ir.Constant(PTR, None)), ok, clear)
    b.position_at_end(clear)        # beyond int64: typeof() says "unsupported"
    b.call(cx.PyErr_Clear, [])
    b.branch(fail)
    b.position_at_end(ok)
    return [v]


def _check_float(cx, b, obj, t, fail):
    _exact_type(cx, b, obj, "PyFloat_Type", fail)


def _unbox_float(cx, b, obj, t, fail):
    return [field(b, obj, OB_FVAL, F64)]


def _check_complex(cx, b, obj, t, fail):
    _exact_type(cx, b, obj, "PyComplex_Type", fail)


def _unbox_complex(cx, b, obj, t, fail):
    return [field(b, obj, OB_FVAL, F64), field(b, obj, OB_FVAL + 8, F64)]


def _check_bool(cx, b, obj, t, fail):
    is_true = _is(b, obj, cx.obj("_Py_TrueStruct"))
    continue_if(b, b.or_(is_true, _is(b, obj, cx.obj("_Py_FalseStruct"))), fail,
                "bool.ok")


def _unbox_bool(cx, b, obj, t, fail):
    return [b.zext(_is(b, obj, cx.obj("_Py_TrueStruct")), I64)]


def _check_none(cx, b, obj, t, fail):
    continue_if(b, _is(b, obj, cx.obj("_Py_NoneStruct")), fail, "none.ok")


# the str constants the dispatchers compare with (interned, so that a literal at the
# call site is the same object), kept alive while the process runs: at most
# api.STR_VALUES_CAP per parameter of each function
_STR_CONSTANTS: dict = {}


def _check_str(cx, b, obj, t, fail):
    """A str argument equal to the specialisation's constant (``StrArg``): the same
    object (an interned literal), else an exact str comparing equal."""
    import sys
    const = _STR_CONSTANTS.setdefault(t.value, sys.intern(t.value))
    expected = CApi.address(id(const))
    same = b.function.append_basic_block("str.same")
    other = b.function.append_basic_block("str.other")
    b.cbranch(_is(b, obj, expected), same, other)
    b.position_at_end(other)
    _exact_type(cx, b, obj, "PyUnicode_Type", fail)
    equal = b.call(cx.PyUnicode_Compare, [obj, expected])
    continue_if(b, b.icmp_signed("==", equal, ir.Constant(I32, 0)), fail, "str.equal")
    b.branch(same)
    b.position_at_end(same)


def _new_ref(cx, b, obj):
    b.call(cx.Py_IncRef, [obj])
    return obj


def _box_signed(cx, b, leaves, t):
    return b.call(cx.PyLong_FromLongLong, [next(leaves)])


def _box_unsigned(cx, b, leaves, t):
    return b.call(cx.PyLong_FromUnsignedLongLong, [next(leaves)])


def _box_float(cx, b, leaves, t):
    return b.call(cx.PyFloat_FromDouble, [next(leaves)])


def _box_complex(cx, b, leaves, t):
    re, im = next(leaves), next(leaves)
    return b.call(cx.PyComplex_FromDoubles, [re, im])


def _box_bool(cx, b, leaves, t):
    v = b.icmp_unsigned("!=", next(leaves), ir.Constant(I64, 0))
    return _new_ref(cx, b, b.select(v, cx.obj("_Py_TrueStruct"),
                                    cx.obj("_Py_FalseStruct")))


def _box_none(cx, b, leaves, t):
    return _new_ref(cx, b, cx.obj("_Py_NoneStruct"))


SCALARS: dict = {
    T.INT64: ScalarBoxing(_check_int, _unbox_int, _box_signed),
    T.FLOAT64: ScalarBoxing(_check_float, _unbox_float, _box_float),
    T.BOOL: ScalarBoxing(_check_bool, _unbox_bool, _box_bool),
    T.COMPLEX128: ScalarBoxing(_check_complex, _unbox_complex, _box_complex),
    T.NONE: ScalarBoxing(_check_none, lambda cx, b, obj, t, fail: [], _box_none),
}


def _numpy_scalars():
    from .nativescalar import NumpyScalarBoxing
    return NumpyScalarBoxing


class SizedScalarBoxing(ScalarBoxing):
    """A scalar type only NumPy scalars have (int8, float32 ...): checked and
    unboxed as a NumPy scalar (:mod:`hanajit_cpu.nativescalar`); a result is a
    Python number unless its type carries the ``NumpyScalarArg`` marker."""

    def __init__(self, box):
        super().__init__(lambda *a: _numpy_scalars().check(*a),
                         lambda *a: _numpy_scalars().unbox(*a), box)

    @staticmethod
    def supported(t) -> bool:
        return _numpy_scalars().supported(t)


SCALARS[T.COMPLEX64] = SizedScalarBoxing(_box_complex)
SCALARS[T.FLOAT32] = SizedScalarBoxing(_box_float)
for _t in (T.INT8, T.INT16, T.INT32):
    SCALARS[_t] = SizedScalarBoxing(_box_signed)
for _t in (T.UINT8, T.UINT16, T.UINT32, T.UINT64):
    SCALARS[_t] = SizedScalarBoxing(_box_unsigned)


class TupleBoxing:
    """Tuples: exact ``tuple`` of the right length, items recursively."""

    @staticmethod
    def check(cx, b, obj, t, fail):
        _exact_type(cx, b, obj, "PyTuple_Type", fail)
        n = field(b, obj, OB_SIZE, I64)
        continue_if(b, _is(b, n, ir.Constant(I64, len(t.items))), fail, "tuple.len")
        for i, it in enumerate(t.items):
            check(cx, b, field(b, obj, OB_ITEM + 8 * i), it, fail)

    @staticmethod
    def unbox(cx, b, obj, t, fail):
        out = []
        for i, it in enumerate(t.items):
            out += unbox(cx, b, field(b, obj, OB_ITEM + 8 * i), it, fail)
        return out

    @staticmethod
    def box(cx, b, leaves, t):
        # the items first: each may own a reference (an array's meminfo) that
        # boxing takes over or releases, so none leaks if the tuple cannot be made
        items = [box(cx, b, leaves, it) for it in t.items]
        null = ir.Constant(PTR, None)
        tup = b.call(cx.PyTuple_New, [ir.Constant(I64, len(t.items))])
        fill = b.function.append_basic_block("tuple.fill")
        no_tuple = b.function.append_basic_block("tuple.none")
        done = b.function.append_basic_block("tuple.done")
        b.cbranch(_is(b, tup, null), no_tuple, fill)
        b.position_at_end(no_tuple)
        for item in items:             # Py_DecRef ignores NULL
            b.call(cx.Py_DecRef, [item])
        b.branch(done)
        b.position_at_end(fill)
        ok = ir.Constant(ir.IntType(1), 1)
        for i, item in enumerate(items):
            # SetItem steals the item; a NULL item leaves an empty slot, which
            # the tuple's deallocator skips
            b.call(cx.PyTuple_SetItem, [tup, ir.Constant(I64, i), item])
            ok = b.and_(ok, b.icmp_unsigned("!=", item, null))
        failed = b.function.append_basic_block("tuple.item_failed")
        filled = b.block
        b.cbranch(ok, done, failed)
        b.position_at_end(failed)
        b.call(cx.Py_DecRef, [tup])
        b.branch(done)
        b.position_at_end(done)
        result = b.phi(PTR)
        result.add_incoming(null, no_tuple)
        result.add_incoming(tup, filled)
        result.add_incoming(null, failed)
        return result


class FlaggedBoxing:
    """A result whose leaves are boxed per call (``T.FlaggedResult``,
    ``infer/result_flags.py``): the value's slots, then one flag each; a
    ``NumpyScalarIf`` leaf is the NumPy scalar when its flag is set, else the
    Python number of the type that holds it."""

    check = unbox = None

    @staticmethod
    def supported(t) -> bool:
        return can_box(_held(t.value))

    @staticmethod
    def box(cx, b, leaves, t):
        values = list(leaves)
        cx.result_flags = values[len(values) - t.flags:]
        return box(cx, b, iter(values[:len(values) - t.flags]), t.value)


def _held(t):
    """``t`` with each per-call leaf as its NumPy type (what boxing needs)."""
    if isinstance(t, T.TupleType):
        return T.TupleType(tuple(_held(i) for i in t.items))
    return T.NumpyScalarArg(t.base) if isinstance(t, T.NumpyScalarIf) else t


class PerCallScalarBoxing:
    """A ``NumpyScalarIf`` leaf inside a :class:`FlaggedBoxing` result."""

    check = unbox = None

    @staticmethod
    def box(cx, b, leaves, t):
        held = t.held
        values = [next(leaves) for _ in range(2 if held.is_complex else 1)]
        flag = cx.result_flags[t.flag]
        as_numpy = b.function.append_basic_block("percall.numpy")
        as_python = b.function.append_basic_block("percall.python")
        done = b.function.append_basic_block("percall.done")
        b.cbranch(b.icmp_unsigned("!=", flag, ir.Constant(flag.type, 0)), as_numpy, as_python)
        b.position_at_end(as_numpy)
        numpy_obj = _numpy_scalars().box(cx, b, iter(values), T.NumpyScalarArg(t.base))
        numpy_end = b.block
        b.branch(done)
        b.position_at_end(as_python)
        python_obj = box(cx, b, iter(_as_python(b, values, held, t.python)),
                         t.python or held)
        python_end = b.block
        b.branch(done)
        b.position_at_end(done)
        obj = b.phi(PTR)
        obj.add_incoming(numpy_obj, numpy_end)
        obj.add_incoming(python_obj, python_end)
        return obj


def _as_python(b, values, held, python):
    """The leaves of a Python ``python`` number held in ``held`` (``python`` None:
    ``held``'s own): an int held exactly in a float64 or complex, a bool in an
    int64 or float64, a float in a complex (its real part)."""
    if python is None or python == held:
        return values
    v = values[0]                               # (a complex's real part)
    if python == T.BOOL:
        nz = b.fcmp_unordered("!=", v, ir.Constant(v.type, 0.0)) \
            if held.is_float or held.is_complex else b.icmp_unsigned(
                "!=", v, ir.Constant(v.type, 0))
        return [b.zext(nz, I64)]
    if python.is_int:
        return [b.fptosi(v, I64) if held.is_float or held.is_complex else v]
    return [v]


STRUCTURED: dict = {T.TupleType: TupleBoxing, T.FlaggedResult: FlaggedBoxing,
                    T.NumpyScalarIf: PerCallScalarBoxing}


def _box_str(cx, b, leaves, t):
    import sys
    const = _STR_CONSTANTS.setdefault(t.value, sys.intern(t.value))
    return _new_ref(cx, b, CApi.address(id(const)))


_STR_ARG = ScalarBoxing(_check_str, lambda cx, b, obj, t, fail: [], _box_str)


def _check_default(cx, b, obj, t, fail):
    """An omitted argument's default (``DefaultArg``): that very object, which
    the type holds (so its address is not reused while the entry lives)."""
    continue_if(b, _is(b, obj, CApi.address(id(t.value))), fail, "default.same")


_DEFAULT_ARG = ScalarBoxing(_check_default,
                            lambda cx, b, obj, t, fail: unbox(cx, b, obj, t.base, fail))


def _entry(t: T.Type):
    if isinstance(t, T.DefaultArg):        # a folded default: checked by identity
        return _DEFAULT_ARG
    if isinstance(t, T.NumpyScalarArg):    # np.float64 ...: a NumPy scalar
        return _numpy_scalars()
    if isinstance(t, T.StrArg):            # a str constant: checked, passes nothing
        return _STR_ARG
    e = SCALARS.get(t) or STRUCTURED.get(type(t))
    if e is None and isinstance(t, T.ArrayType):
        from .nativearray import ArrayBoxing      # registers itself on first use
        e = STRUCTURED[T.ArrayType] = ArrayBoxing
    if e is None and isinstance(t, T.GeneratorType):
        from .nativerandom import GeneratorBoxing     # likewise (and PyRandomBoxing)
        e = STRUCTURED.get(type(t), GeneratorBoxing)
    return e


def can_unbox(t: T.Type) -> bool:
    """True when an argument of type ``t`` can be checked and unboxed natively."""
    if isinstance(t, T.TupleType):
        return all(can_unbox(i) for i in t.items)
    e = _entry(t)
    if e is None or e.check is None or e.unbox is None:
        return False
    return e.supported(t) if hasattr(e, "supported") else True


def can_box(t: T.Type) -> bool:
    """True when a result of type ``t`` can be boxed natively."""
    if isinstance(t, T.TupleType):
        return all(can_box(i) for i in t.items)
    if isinstance(t, T.ArrayType):
        from .nativearray import box_api
        return _entry(t).supported(t) and box_api() is not None
    e = _entry(t)
    if e is None or e.box is None:
        return False
    return e.supported(t) if isinstance(t, (T.NumpyScalarArg, T.FlaggedResult)) else True


def check(cx, b, obj, t, fail):
    _entry(t).check(cx, b, obj, t, fail)


def unbox(cx, b, obj, t, fail) -> list:
    return _entry(t).unbox(cx, b, obj, t, fail)


def box(cx, b, leaves, t):
    return _entry(t).box(cx, b, leaves, t)
