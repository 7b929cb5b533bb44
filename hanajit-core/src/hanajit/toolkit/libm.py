"""The one table of C library math functions that backends read.

``ir.nodes.Intrinsic`` names a float function with C99 libm semantics; this is the
list of those names with their number of arguments, plus the few libm functions
that no ``Intrinsic`` names but that share the C library's symbol namespace.  The
C-family emitter (:mod:`hanajit.toolkit.c_family`) checks names against it, and
exporters use :func:`reserved_symbols` to keep a kernel's exported name clear of
libm's symbols (a kernel called ``sin`` must not shadow the C library's).
"""
from __future__ import annotations

#: Intrinsic name -> number of float arguments (C99 libm semantics on the float
#: type: ``sin`` for float64, ``sinf`` for float32)
FLOAT_FUNCTIONS: dict[str, int] = {
    **dict.fromkeys(
        "sqrt exp log log2 log10 log1p expm1 sin cos tan asin acos atan sinh cosh tanh "
        "asinh acosh atanh fabs floor ceil trunc rint erf erfc lgamma tgamma cbrt "
        "exp2".split(), 1),
    **dict.fromkeys("atan2 hypot pow fmod copysign".split(), 2),
    "fma": 3,
}

#: libm functions outside the Intrinsic set whose symbols still exist
OTHER_LIBM = ("nearbyint", "round", "fmin", "fmax")

#: integer intrinsics (``ir.nodes.Intrinsic``) that are no libm call
INTEGER_FUNCTIONS: dict[str, int] = {"smin": 2, "smax": 2, "umin": 2, "umax": 2,
                                     "ctpop": 1, "sadd_overflow": 2, "ssub_overflow": 2,
                                     "smul_overflow": 2}

#: the comparison that picks the first operand of each integer min/max
INT_MINMAX = {"smin": "<", "smax": ">", "umin": "<", "umax": ">"}

#: the overflow tests of signed ``+ - *`` (bool: the int64 result wraps)
OVERFLOW_FUNCTIONS = ("sadd_overflow", "ssub_overflow", "smul_overflow")


def libm_names() -> tuple[str, ...]:
    """Every double-precision libm name of the table, in a stable order."""
    return tuple(FLOAT_FUNCTIONS) + OTHER_LIBM


def reserved_symbols(*extra: str) -> frozenset:
    """libm's double and float (``f`` suffix) symbols, plus ``extra``: names a
    generated function must not take."""
    names = libm_names()
    return frozenset(names + tuple(n + "f" for n in names) + extra)
