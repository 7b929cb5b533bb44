"""Which values a compiled exception message can format as the interpreter's
f-string does (``raise ValueError(f"{x} is not finite")``): the builder keeps
each field's conversion in the template (``{!s}``, ``{!r}``), inference asks
:func:`field_problem` once the field's type is known, and the lowering gives
each field its kind (``lib/python/operators.raise_fields``)."""
from __future__ import annotations

from ..ir import types as T


def field_problem(t, conversion: str, weak: bool = True, precision=None,
                  host: bool = True):
    """Why a compiled message cannot format a value of type ``t`` with the
    f-string ``conversion`` as the interpreter does (None: it can).  Integers
    print their digits; a float prints ``repr(float)``, which is what ``{x}`` and
    ``{x!s}`` print for a Python float and an ``np.float64`` and what ``{x}``
    prints for an ``np.float32`` -- but ``{x!r}`` of a NumPy float reads
    ``np.float64(...)`` and ``{x!s}`` of an ``np.float32`` its own shortest
    digits; ``{x!r}`` of a NumPy integer reads ``np.int64(...)``.  A str built at
    run time (``T.StrCodes``) is formatted as its text or ``repr``, cut to
    ``precision`` characters when given, where the code runs in this process
    (``host``: the runtime reads the str from the kernel's memory)."""
    if isinstance(t, T.StrCodes) and conversion in ("", "s", "r"):
        return None if host else "a str built at run time in the message, on a target " \
            "whose code runs outside this process"
    if precision is not None:
        return f"a precision in a field of type {t} (it cuts a str's text)"
    if conversion == "v":       # raise KeyError(k): the number is the argument
        if t is None or weak and isinstance(t, T.Scalar) and t != T.BOOL and (
                t.is_int or t == T.FLOAT64):
            return None
        return f"an exception argument of type {t}{'' if weak else ' (a NumPy scalar)'}" \
            " (a compiled raise carries a Python int or float as its argument)"
    if isinstance(t, T.Scalar) and t.is_int and conversion == "r" and not weak:
        return f"a {t} field with !r (the repr of a NumPy integer reads np.{t}(...))"
    if t is None or (isinstance(t, T.Scalar) and t.is_int):
        return None
    if isinstance(t, T.Scalar) and t.is_float and t.bits in (32, 64):
        if conversion == "r" and not (weak and t.bits == 64):   # (a Python float's repr)
            return f"a {t} field with !r (the repr of a NumPy float differs from a float's)"
        if conversion == "s" and t.bits == 32:
            return f"a {t} field with !s (str of an np.float32 prints its own digits)"
        return None
    return f"a field of type {t} (only integers and floats are formatted into " \
        "compiled messages)"
