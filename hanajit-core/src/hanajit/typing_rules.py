"""Type rules: Python values to types, unification and operator result types.

Scalars follow Python for Python values (``int`` -> int64, ``float`` -> float64,
``True + True`` is an int) and NumPy's promotion for sized NumPy scalars, with
Python number literals "weak" as in NumPy 2 (``np.float32(x) * 2.0`` stays float32).
"""
from __future__ import annotations

import dataclasses
import sys
import types

from .ir import types as T
from .jitted import is_jitted


_NUMPY_SCALARS: dict = {}     # NumPy scalar type -> Scalar (the Python dispatcher's key)


def typeof(value) -> T.Type | None:
    """The IR type of a Python value, or None if hanajit cannot take it."""
    tp = type(value)
    if tp is bool:
        return T.BOOL
    if tp is int:
        from .ir.constants import fits_int64
        return T.INT64 if fits_int64(value) else None
    if tp is float:
        return T.FLOAT64
    if tp is complex:
        return T.COMPLEX128
    if value is None:
        return T.NONE
    if tp.__name__ == "ndarray" and tp.__module__ == "numpy":
        return array_type(value)
    np = sys.modules.get("numpy")
    if np is not None:
        if isinstance(value, np.generic):               # a NumPy scalar
            t = _NUMPY_SCALARS.get(tp)
            if t is None:
                t = T.from_numpy_dtype(value.dtype)
                if t is not None:       # numbers: one dtype per type (not datetime64)
                    _NUMPY_SCALARS[tp] = t
            return t
        if isinstance(value, np.ndarray):
            # np.memmap keeps ndarray's semantics (results of operations are plain
            # ndarrays, views stay memmaps: boxing); np.matrix, np.recarray and
            # masked arrays change operators and indexing: refused (the reason
            # says so) -- as is any subclass hanajit does not know
            return array_type(value) if tp is np.memmap else None
    if tp.__name__ == "Generator" and tp.__module__ == "numpy.random._generator":
        return T.GENERATOR          # exactly np.random.Generator (lib/random/generator.py)
    if tp.__name__ == "RandomState" and tp.__module__ == "numpy.random.mtrand":
        return T.RANDOMSTATE        # exactly that class (lib/random/random_state.py)
    if tp.__name__ == "Random" and tp.__module__ == "random" and \
            tp is getattr(sys.modules.get("random"), "Random", None):
        # exactly random.Random (lib/random/python_random.py), no instance attribute that
        # could shadow a method (r.random = f): only gauss_next
        return T.PYRANDOM if set(vars(value)) <= {"gauss_next"} else None
    if tp is types.FunctionType or is_jitted(value) or getattr(tp, "__hj_lambda__", False):
        # a function, or an outlined lambda (frontend/lambdas.py) passed on:
        # specialised on (infer/function_args.py)
        return T.FunctionArg(value)
    if tp is tuple:
        items = tuple(typeof(v) for v in value)
        if any(i is None for i in items):
            return None
        return T.TupleType(items)
    return None


def unsupported_reason(value) -> str:
    """Why :func:`typeof` refuses ``value``, in words: the dtype of an array
    ("float16 arrays are not supported"), an int beyond int64, a tuple's item."""
    tp = type(value)
    if tp is int:
        text = str(value) if abs(value) < 10**30 else f"about {float(value):.3g}"
        return f"the int {text} does not fit int64"
    if tp.__name__ == "ndarray" and tp.__module__ == "numpy":
        dt = value.dtype
        if not dt.isnative:
            return f"arrays of non-native byte order ({dt.str}) are not supported"
        if T.from_numpy_dtype(dt) is None:
            kind = "structured" if dt.fields else (
                "object" if dt.kind == "O" else "string" if dt.kind in "SU" else str(dt))
            return f"{kind} arrays are not supported"
        if not value.flags.aligned:
            return "unaligned arrays are not supported"
    np = sys.modules.get("numpy")
    if np is not None and isinstance(value, np.ndarray) and tp is not np.memmap:
        return (f"{tp.__module__}.{tp.__qualname__} is an ndarray subclass, whose "
                "operators and indexing may differ from ndarray's; pass "
                "np.asarray(x)")
    if np is not None and isinstance(value, np.generic):
        return f"NumPy {value.dtype} scalars are not supported"
    if tp is tuple:
        for k, v in enumerate(value):
            if typeof(v) is None:
                return f"item {k} of a tuple: {unsupported_reason(v)}"
    rnd = sys.modules.get("random")
    if rnd is not None and isinstance(value, rnd.Random):
        if tp is not rnd.Random:
            return (f"{tp.__qualname__} is a subclass of random.Random, which may "
                    "override its methods; only random.Random itself is compiled")
        extra = sorted(set(vars(value)) - {"gauss_next"})
        return (f"a random.Random with instance attributes ({', '.join(extra)}), which "
                "may shadow its methods, is not supported")
    return f"values of type {tp.__name__} are not supported"


_PY_SCALARS = (bool, int, float, complex)


def argtypeof(value) -> T.Type | None:
    """:func:`typeof` for a dispatch key: a NumPy scalar whose type a Python number
    also has (``np.float64(1.0)``, ``np.int64(3)``) is marked, since NumPy 2
    promotes it with its dtype where the Python number adapts (NEP 50)."""
    if type(value) is str:
        # a compile-time constant (infer/str_params.py): compiled once per value
        return T.StrArg(value)
    t = typeof(value)
    if isinstance(t, T.Scalar) and t in T.PYTHON_KINDS and type(value) not in _PY_SCALARS:
        return T.NumpyScalarArg(t)
    return t


_DTYPES: dict = {}      # numpy dtype -> Scalar (or None)
_ARRAYS: dict = {}      # (Scalar, ndim, layout, readonly) -> ArrayType


def array_type(a) -> T.ArrayType | None:
    """The IR type of an ndarray (None for dtypes hanajit has no type for).  Called
    on every call with an array argument, so it is cached by dtype and flags."""
    dt = a.dtype
    try:
        st = _DTYPES[dt]
    except KeyError:
        st = _DTYPES[dt] = T.from_numpy_dtype(dt) if dt.isnative else None
    if st is None:
        return None
    flags = a.flags
    if not flags.aligned:
        return None
    key = (st, a.ndim, "C" if flags.c_contiguous else "F" if flags.f_contiguous else "A",
           not flags.writeable)
    t = _ARRAYS.get(key)
    if t is None:
        t = _ARRAYS[key] = T.ArrayType(*key)
    return t


def promote(a: T.Scalar, b: T.Scalar) -> T.Scalar:
    """NumPy's ``promote_types`` on scalar types (without importing NumPy)."""
    if a == b:
        return a
    if a.kind == "b":
        return b
    if b.kind == "b":
        return a
    order = "iufc"
    if order.index(a.kind) > order.index(b.kind):
        a, b = b, a
    ka, kb = a.kind, b.kind
    if ka == kb:
        return a if a.bits >= b.bits else b
    if ka == "i" and kb == "u":
        if b.bits < a.bits:
            return a
        return T.Scalar("i", b.bits * 2) if b.bits < 64 else T.FLOAT64
    # a is an integer or float, b is float or complex
    if kb == "f":
        if ka == "f":
            return a if a.bits >= b.bits else b
        return b if (a.bits <= 16 and b.bits == 32) or b.bits == 64 else T.FLOAT64
    # kb == "c"
    need = 64 if (ka in "iu" and a.bits <= 16) or (ka == "f" and a.bits <= 32) else 128
    return b if b.bits >= need else T.Scalar("c", need)


def unify(a: T.Type | None, b: T.Type | None) -> T.Type | None:
    """The type a variable has when it holds values of types ``a`` and ``b``.

    Numbers widen (bool < int < float < complex, NumPy's promotion for sizes), as in
    Numba: a variable that is an int on one path and a float on another is a float.
    Returns None when there is no common type.
    """
    if a is None:
        return b
    if b is None or a == b:
        return a
    if isinstance(a, T.Scalar) and isinstance(b, T.Scalar):
        if a.is_bool and b.is_int:
            return b
        if b.is_bool and a.is_int:
            return a
        return promote(a, b)
    if isinstance(a, T.ArrayType) and isinstance(b, T.ArrayType):
        if a.dtype == b.dtype and a.ndim == b.ndim:
            return a.copy(layout=a.layout if a.layout == b.layout else "A",
                          readonly=a.readonly or b.readonly)
        return None
    if isinstance(a, T.TupleType) and isinstance(b, T.TupleType) and len(a.items) == len(b.items):
        items = tuple(unify(x, y) for x, y in zip(a.items, b.items))
        if any(i is None for i in items):
            return None
        if isinstance(a, T.NamedTupleType) or isinstance(b, T.NamedTupleType):
            # (a named tuple is boxed as its class: one class or none)
            same = (getattr(a, "name", None), getattr(a, "module", None)) == \
                (getattr(b, "name", None), getattr(b, "module", None))
            return dataclasses.replace(a, items=items) if same else None
        return T.TupleType(items)
    return None


class Incompatible(Exception):
    pass


def is_weak(node) -> bool | None:
    """Is expression ``node`` a Python number, which NumPy 2 lets adapt to the other
    operand's type (NEP 50 "weak")?  False for a NumPy scalar, None when unknown
    (inference marks binary operators' operands: ``py_weak``)."""
    from .ir import nodes as N
    if isinstance(node, N.Const) and type(node.value) in (int, float, complex):
        return True
    return getattr(node, "py_weak", None)


def is_weak_int(node, t) -> bool:
    return t == T.INT64 and bool(is_weak(node))


def is_weak_float(node, t) -> bool:
    return t == T.FLOAT64 and bool(is_weak(node))


def is_weak_complex(node, t) -> bool:
    return t == T.COMPLEX128 and bool(is_weak(node))


def arith_operands(a: T.Scalar, b: T.Scalar, an=None, bn=None) -> T.Scalar:
    """The common type both operands of an arithmetic operator convert to."""
    if a.is_bool and b.is_bool:
        # two Python bools add as ints; a NumPy bool keeps bool (np.True_ + True)
        return T.BOOL if is_weak(an) is False or is_weak(bn) is False else T.INT64
    # weak Python numbers (NumPy 2 / NEP 50)
    if is_weak_int(bn, b) and (a.is_int or a.is_float or a.is_complex):
        return a
    if is_weak_int(an, a) and (b.is_int or b.is_float or b.is_complex):
        return b
    if is_weak_float(bn, b) and (a.is_float or a.is_complex):
        return a
    if is_weak_float(an, a) and (b.is_float or b.is_complex):
        return b
    if is_weak_complex(bn, b) and (a.is_float or a.is_complex):
        return T.COMPLEX64 if a in (T.FLOAT32, T.COMPLEX64) else T.COMPLEX128
    if is_weak_complex(an, a) and (b.is_float or b.is_complex):
        return T.COMPLEX64 if b in (T.FLOAT32, T.COMPLEX64) else T.COMPLEX128
    # a bool with an int: a NumPy integer keeps its type (np.int8 + True is int8)
    if a.is_bool and b.is_int:
        return b if is_weak(bn) is False else T.INT64
    if b.is_bool and a.is_int:
        return a if is_weak(an) is False else T.INT64
    return unify(a, b)


def _integer_operands(op, a, b, an, bn) -> T.Type:
    """The common type of a bitwise operator's or shift's integer operands; NumPy
    promotes int8 with uint64 to float64, where they do not apply (TypeError)."""
    t = arith_operands(a, b, an, bn)
    if not (t.is_int or t.is_bool):
        raise Incompatible(f"operator {op} on {a} and {b} (NumPy: no common integer type)")
    return t


def binop_type(op: str, a: T.Type, b: T.Type, an=None, bn=None) -> T.Type:
    """Result type of a Python binary operator on scalars; raises Incompatible."""
    if not (isinstance(a, T.Scalar) and isinstance(b, T.Scalar)):
        raise Incompatible(f"operator {op} on {a} and {b}")
    if op in ("bitand", "bitor", "bitxor"):
        if a.is_bool and b.is_bool:
            return T.BOOL
        if not ((a.is_int or a.is_bool) and (b.is_int or b.is_bool)):
            raise Incompatible(f"bitwise operator on {a} and {b}")
        return _integer_operands(op, a, b, an, bn)
    if op in ("lshift", "rshift"):
        if not ((a.is_int or a.is_bool) and (b.is_int or b.is_bool)):
            raise Incompatible(f"shift of {a} by {b}")
        return _integer_operands(op, a, b, an, bn)
    common = arith_operands(a, b, an, bn)
    if op == "truediv":
        if common.is_int or common.is_bool:
            return T.FLOAT64
        return common
    if op in ("floordiv", "mod") and common.is_complex:
        raise Incompatible(f"operator {op} on complex numbers")
    if op == "matmul":
        raise Incompatible("operator @ on scalars")
    return common


def same_kind(src: T.Scalar, dst: T.Scalar) -> bool:
    """NumPy's 'same_kind' casting from ``src`` to ``dst`` (allowed for in-place
    operators, ``out=`` and ``np.copyto``)."""
    if src.kind == "u" and dst.kind == "i":
        return True
    return "biufc".index(src.kind) <= "biufc".index(dst.kind)
