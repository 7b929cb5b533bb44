"""Differential checking against CPython: run a function compiled and interpreted,
compare the outcomes.

An *outcome* is ``("ok", value)`` or ``("raise", exception type, message)``.  Values
compare exactly: same type (bool is not int, int is not float), floats bit for bit
up to NaN payloads (so ``-0.0 != 0.0`` and ``nan == nan``), tuples item by item.
The known, documented divergences have explicit switches:

* ``int_as_float`` -- a variable holding an int on one path and a float on another
  is a float (as in Numba), so an expected ``0`` may come back as ``0.0``;
* :func:`wrap_int64` -- int64 arithmetic wraps where CPython's ints grow;
* a NumPy scalar result must come back as the NumPy scalar of the same type
  (``docs/semantics.md``); either kind of the same value is still accepted
  where the interpreter's type depends on the path (the cases that doc lists:
  ``s = 0.0; for x in a: s += x`` over an empty ``a``);
* ``ulps`` -- NumPy's own vectorised transcendental functions may differ from the
  platform libm by an ulp.

The reference run is pure CPython: :func:`interpreted` replaces every jitted
function a function reaches through its globals with its plain Python function.
"""
from __future__ import annotations

import math
import struct
import types

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


def wrap_int64(v: int) -> int:
    """``v`` reduced to int64 two's complement, as compiled integer arithmetic gives."""
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >= 1 << 63 else v


def fits_int64(v) -> bool:
    return not isinstance(v, int) or isinstance(v, bool) or INT64_MIN <= v <= INT64_MAX


# ----------------------------------------------------------------- interpreter run
def interpreted(func, _memo=None):
    """A copy of ``func`` whose globals map every jitted function to an interpreted
    copy, recursively (self and mutual recursion included)."""
    from ..api import JitFunction
    memo = {} if _memo is None else _memo
    if isinstance(func, JitFunction):
        func = func.py_func
    if func in memo:
        return memo[func]
    names = _global_names(func.__code__)
    jitted = {n: func.__globals__[n] for n in names
              if isinstance(func.__globals__.get(n), JitFunction)}
    if not jitted:
        memo[func] = func
        return func
    env = dict(func.__globals__)
    clone = types.FunctionType(func.__code__, env, func.__name__, func.__defaults__,
                               func.__closure__)
    clone.__kwdefaults__ = func.__kwdefaults__
    memo[func] = clone
    for n, jf in jitted.items():
        env[n] = interpreted(jf.py_func, memo)
    return clone


def _global_names(code) -> set:
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names |= _global_names(c)
    return names


def outcome(func, args=(), kwargs=None):
    """``("ok", value)`` or ``("raise", type, message)`` of ``func(*args, **kwargs)``."""
    try:
        return ("ok", func(*args, **(kwargs or {})))
    except Exception as exc:        # noqa: BLE001 - every exception is an outcome
        return ("raise", type(exc), str(exc))


# --------------------------------------------------------------------- comparison
def _float_bits(x: float) -> int:
    return struct.unpack("<q", struct.pack("<d", x))[0]


def _ulp_distance(a: float, b: float) -> int:
    ia, ib = _float_bits(a), _float_bits(b)
    ia = ia if ia >= 0 else INT64_MIN - ia
    ib = ib if ib >= 0 else INT64_MIN - ib
    return abs(ia - ib)


def same_float(got: float, want: float, ulps: int = 0) -> bool:
    if math.isnan(want):
        return math.isnan(got)
    if math.isnan(got):
        return False
    if got == want:
        return math.copysign(1.0, got) == math.copysign(1.0, want)
    if ulps and math.isfinite(got) and math.isfinite(want):
        return _ulp_distance(got, want) <= ulps
    return False


def _python_number(v):
    """NumPy scalars as the Python number hanajit returns for them."""
    mod = type(v).__module__
    if mod == "numpy" and hasattr(v, "item"):
        return v.item()
    return v


def _is_numpy_scalar(v) -> bool:
    tp = type(v)
    return tp.__module__ == "numpy" and tp.__name__ != "ndarray" and hasattr(v, "item")


def same_value(got, want, *, int_as_float: bool = False, ulps: int = 0) -> bool:
    """Do ``got`` (compiled) and ``want`` (CPython) agree?  See the module doc."""
    if _is_numpy_scalar(got):
        if _is_numpy_scalar(want) and type(got) is not type(want):
            return False
        got = got.item()
    want = _python_number(want)
    if isinstance(want, tuple):
        return (type(got) is tuple and len(got) == len(want) and all(
            same_value(g, w, int_as_float=int_as_float, ulps=ulps)
            for g, w in zip(got, want)))
    if want is None:
        return got is None
    if type(want) is bool:
        return type(got) is bool and got == want
    if type(want) is int:
        if type(got) is int:
            return got == want
        return int_as_float and type(got) is float and got == want
    if type(want) is float:
        return type(got) is float and same_float(got, want, ulps)
    if type(want) is complex:
        return (type(got) is complex and same_float(got.real, want.real, ulps)
                and same_float(got.imag, want.imag, ulps))
    return type(got) is type(want) and got == want


def same_outcome(got, want, *, int_as_float=False, ulps=0, messages=False) -> bool:
    if got[0] != want[0]:
        return False
    if got[0] == "raise":
        return got[1] is want[1] and (not messages or got[2] == want[2])
    return same_value(got[1], want[1], int_as_float=int_as_float, ulps=ulps)


def describe(o) -> str:
    if o[0] == "ok":
        v = o[1]
        return f"{v!r} ({type(v).__name__})"
    return f"raises {o[1].__name__}({o[2]!r})"


def check(compiled, args=(), kwargs=None, *, reference=None, int_as_float=False,
          ulps=0, wrap=False, messages=False):
    """Assert ``compiled(*args)`` matches CPython running the same function.

    ``reference`` defaults to :func:`interpreted` of the jitted function.  With
    ``wrap`` an int result outside int64 may also come back wrapped (int64
    arithmetic wraps; conversions deoptimise and give the exact int).
    Returns the compiled outcome.
    """
    ref = reference or interpreted(compiled)
    want = outcome(ref, args, kwargs)
    got = outcome(compiled, args, kwargs)
    how = dict(int_as_float=int_as_float, ulps=ulps, messages=messages)
    if not same_outcome(got, want, **how) and not (
            wrap and want[0] == "ok" and same_outcome(got, ("ok", _wrap_all(want[1])),
                                                      **how)):
        name = getattr(compiled, "__qualname__", compiled)
        shown = ", ".join([repr(a) for a in args]
                          + [f"{k}={v!r}" for k, v in (kwargs or {}).items()])
        raise AssertionError(f"{name}({shown}): compiled {describe(got)}, "
                             f"CPython {describe(want)}")
    return got


def _wrap_all(v):
    if isinstance(v, tuple):
        return tuple(_wrap_all(x) for x in v)
    if type(v) is int:
        return wrap_int64(v)
    return v


def python_numbers(value):
    """``value`` with each NumPy scalar (in tuples too) as the Python number of the
    same value: what an exporter's program prints for a result the interpreter
    gives as a NumPy scalar (docs/exports.md)."""
    if isinstance(value, tuple):
        return tuple(python_numbers(v) for v in value)
    item = getattr(value, "item", None)
    if item is not None and getattr(value, "shape", None) == ():
        return item()
    return value
