"""Exact Python constants: folding constant expressions and fitting ints in int64.

A constant expression (``2**63``, ``1 << 63``, ``3**40``, ``float(2**63)``,
``-9223372036854775808``) is a Python value: the frontend folds it here with
Python's own arithmetic, so it is exactly what CPython computes (CPython's
compiler folds the same expressions).  An int that does not fit int64 is never
wrapped: type inference either decides its use as Python would where that is
exact (a comparison with an integer is settled by the integer type's range, a
float operand takes ``float(n)``: :func:`compare_rewrite`, :func:`float_operand`)
or refuses the function (:func:`not_int64`), as it refuses the literal.
"""
from __future__ import annotations

import math
import operator

from . import types as T

NUMBER_TYPES = (bool, int, float, complex)

# Folding stops (and the expression is refused) past this many bits: no int64
# use can come of such a value, and 2 ** 10 ** 9 must not take the compiler's time
MAX_BITS = 4096

_BINARY = {"add": operator.add, "sub": operator.sub, "mul": operator.mul,
           "truediv": operator.truediv, "floordiv": operator.floordiv,
           "mod": operator.mod, "pow": operator.pow, "lshift": operator.lshift,
           "rshift": operator.rshift, "bitand": operator.and_, "bitor": operator.or_,
           "bitxor": operator.xor}
_UNARY = {"neg": operator.neg, "pos": operator.pos, "invert": operator.invert,
          "not": operator.not_}
_COMPARE = {"lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge,
            "eq": operator.eq, "ne": operator.ne}
_MIRROR = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq", "ne": "ne"}


class NotFolded(Exception):
    """The expression is left to run time (not numbers, or Python raises)."""


class TooBig(Exception):
    """A constant int past :data:`MAX_BITS`: the function is refused."""


def is_number(v) -> bool:
    """A Python number (NumPy scalars are not folded: NumPy's rules differ)."""
    return type(v) in NUMBER_TYPES


def fits_int64(v) -> bool:
    return T.INT64_MIN <= v <= T.INT64_MAX


def is_big_int(v) -> bool:
    """A Python int (not bool) outside int64."""
    return type(v) is int and not fits_int64(v)


def not_int64(v) -> str:
    """The refusal reason for an int outside int64."""
    text = str(v) if v.bit_length() <= 128 else f"{'-' if v < 0 else ''}2**{abs(v).bit_length() - 1}+..."
    return f"the int {text} does not fit in int64 (compiled integers are 64-bit)"


def of_type(v: int, t: T.Scalar) -> int:
    """Integer constant ``v`` as a value of integer type ``t`` for a backend:
    ``v`` is a value of ``t`` or of its other-signed twin (a bit pattern:
    ``-1`` as uint64 is all ones); anything wider is an internal error, never
    wrapped silently."""
    if not -(1 << (t.bits - 1)) <= v < (1 << t.bits):
        raise AssertionError(f"constant {v} does not fit {t}")
    lo, hi = T.int_range(t)
    return (v - lo) % (hi - lo + 1) + lo


def _check_size(v):
    if type(v) is int and v.bit_length() > MAX_BITS:
        raise TooBig(v)
    return v


def fold_binop(op: str, a, b):
    """``a <op> b`` computed as CPython does; NotFolded when left to run time."""
    fn = _BINARY.get(op)
    if fn is None or not (is_number(a) and is_number(b)):
        raise NotFolded
    ia = type(a) in (int, bool)
    ib = type(b) in (int, bool)
    if op == "pow" and ia and ib and b > 0 and abs(a) > 1 \
            and a.bit_length() * b > MAX_BITS:
        raise TooBig(op)
    if op == "lshift" and ia and ib and a != 0 and 0 < b and a.bit_length() + b > MAX_BITS:
        raise TooBig(op)
    try:
        return _check_size(fn(a, b))
    except (ArithmeticError, ValueError, TypeError):
        raise NotFolded from None      # ZeroDivisionError ...: raised at run time


def fold_unop(op: str, a):
    fn = _UNARY.get(op)
    if fn is None or not is_number(a) or (op == "invert" and type(a) is bool):
        raise NotFolded            # (~True: deprecated, warned at run time)
    try:
        return fn(a)
    except (ArithmeticError, ValueError, TypeError):
        raise NotFolded from None


def fold_compare(ops: list, values: list):
    """A chained comparison of numbers, as CPython evaluates it."""
    if not all(is_number(v) for v in values) or not all(o in _COMPARE for o in ops):
        raise NotFolded
    try:
        return all(_COMPARE[o](x, y) for o, x, y in zip(ops, values, values[1:]))
    except TypeError:              # ordering complex numbers: raised at run time
        raise NotFolded from None


def fold_call(func, args: list):
    """``float(n)``, ``int(x)``, ``complex(x)``, ``abs(x)`` of number constants."""
    import builtins
    if func not in (builtins.float, builtins.int, builtins.complex, builtins.abs) \
            or not args or not all(is_number(a) for a in args) \
            or (func is not builtins.complex and len(args) != 1):
        raise NotFolded
    try:
        return _check_size(func(*args))
    except (ArithmeticError, ValueError, TypeError):
        raise NotFolded from None


def float_operand(n: int, exact: bool) -> float | None:
    """The float CPython converts int ``n`` to when it meets a float or complex
    (``PyLong_AsDouble``, correctly rounded; NumPy rounds it so for a float64
    scalar too); None when that raises OverflowError, or (``exact``: a float32
    or complex64 NumPy scalar, whose type rounds again) when ``n`` is not
    exactly a float."""
    try:
        f = float(n)
    except OverflowError:
        return None
    if exact and int(f) != n:
        return None
    return f


def compare_rewrite(op: str, n: int, left: bool, t: T.Scalar, strong: bool):
    """``x <op> n`` (``n`` on the right, or on the left when ``left``) with a big
    int ``n`` and a scalar ``x`` of type ``t``, as an equivalent comparison
    ``(op, constant)`` with ``x`` on the same side whose constant fits, or None
    (refuse).

    * an integer ``x``: the answer follows from ``t``'s range; it becomes
      ``x >= lo`` (true) or ``x < lo`` (false) with ``lo`` the range's minimum,
      so ``x`` is still evaluated;
    * a float ``x``: CPython compares exactly; ``n`` is a float already
      (``2**63``) or lies strictly between two floats ``lo < n < hi``, and then
      ``x < n`` is ``x <= lo``, ``x > n`` is ``x >= hi``, ``x == n`` never holds
      (``x == nan``) and ``x != n`` always does (``x != nan``).  A NumPy float64
      scalar compares with ``float(n)``, as NumPy rounds it; a float32 one
      only with an exact float.
    """
    if left:
        op = _MIRROR[op]
    if op not in _COMPARE:
        return None
    if t.is_bool or t.is_int:
        lo = 0 if (t.is_bool or not t.is_signed) else -(1 << (t.bits - 1))
        hi = 1 if t.is_bool else (1 << (t.bits - (1 if t.is_signed else 0))) - 1
        if lo <= n <= hi:
            return None                         # (a uint64 in its upper half)
        truth = _COMPARE[op](0, 1) if n > hi else _COMPARE[op](1, 0)
        return _unmirror("ge" if truth else "lt", left), lo
    if t.is_float or (t.is_complex and op in ("eq", "ne")):
        # NumPy rounds the int to float64 first (np.float64(2.0**63) == 2**63 + 1)
        f = float_operand(n, exact=not (strong and t == T.FLOAT64))
        if f is not None:
            return _unmirror(op, left), f
        if strong or t.is_complex:
            return None
        if op in ("eq", "ne"):
            return _unmirror(op, left), math.nan
        lo, hi = _neighbours(n)
        return _unmirror("le" if op in ("lt", "le") else "ge", left), \
            (lo if op in ("lt", "le") else hi)
    return None


def _unmirror(op: str, left: bool) -> str:
    return _MIRROR[op] if left else op


def _neighbours(n: int):
    """The floats just below and above an int ``n`` that no float equals."""
    try:
        f = float(n)
    except OverflowError:
        big = 1.7976931348623157e308
        return (big, math.inf) if n > 0 else (-math.inf, -big)
    if int(f) > n:
        return math.nextafter(f, -math.inf), f
    return f, math.nextafter(f, math.inf)
