"""The boundary of an exported function, described once.

Every exporter crosses the same boundary: text (or host values) in, the
function's result out as Python prints it, a raise as Python names it, and an
exit status.  This module says what that boundary is, as data; the generators
print it in each language -- :mod:`.boundary_c` the C of the executable's
``main`` and of the HLS C-simulation testbench, :mod:`.boundary_js` the
JavaScript of the wasm loader -- so no exporter formats or parses on its own.

Results print as ``print(f(*args))`` prints the value the CPU JIT returns
(:func:`python_text` is that reference, and the tests hold every generator to it):

* ``float``: ``repr(float)``, the shortest digits that read back as the same
  double, in fixed notation from 1e-4 up to 1e16 (``1.0``, ``0.0001``,
  ``1234.5``) and in exponent notation outside (``1e-05``, ``1e+16``,
  ``5e-324``: at least two exponent digits, always signed), ``.0`` on integral
  values in fixed notation only, ``inf``, ``-inf``, ``nan`` (a NaN's sign is not
  shown), ``-0.0``.  A float32 result is the double the JIT returns for it
  (``float(np.float32(0.1))`` prints ``0.10000000149011612``; CPython's
  ``np.float32`` would print ``0.1``, but the JIT returns a Python float).
* ``complex``: ``repr(complex)``: ``1j`` and ``-0j`` when the real part is +0.0,
  else ``(1+2j)``, ``(-0-1j)``, ``(nan+infj)``; the parts as floats print but
  without ``.0``.
* ``bool``: ``True``/``False``; integers of every width in decimal; ``None``.
* tuples: ``(1, 2.5)``, ``(1,)``, ``()``; arrays as ``print(a.tolist())`` (exe).

Arguments given as text (the executable's ``argv``) are parsed per type:
decimal integers range-checked for the declared width, anything C's ``strtod``
reads for floats (``1e999`` gives ``inf``, as Python's ``float()`` does),
:data:`BOOL_ARGS` for bools, and for complex what Python's ``complex()`` reads
(``1+2j``, ``(1-2j)``, ``2j``, ``1.5``, ``nan+infj``).

A raise is reported as Python's traceback ends: ``Name: message``, or ``Name``
alone for an empty message, where the name is :func:`exception_name` (the
module is shown for exceptions outside ``builtins``:
``numpy.linalg.LinAlgError``).  Messages are templates whose ``{}`` take the
kernel's integers (:func:`hanajit.errors.kernel_message`).  :class:`Exit` lists
the exit statuses of a program.
"""
from __future__ import annotations

import enum
import math

from ..errors import CLEAN
from ..ir import types as T


class Exit(enum.IntEnum):
    """Exit statuses of an exported program (sysexits.h values from 64 on)."""

    OK = 0               # the result is on stdout
    RAISED = 1           # the function raised: "Name: message" on stderr
    USAGE = 64           # wrong number of arguments, unparsable text, a bad .npy file
    NO_CUDA = 70         # cuda="required" and CUDA cannot run (EX_SOFTWARE)
    CANT_CREATE = 73     # an output file cannot be written (EX_CANTCREAT)
    IO_ERROR = 74        # writing stdout failed (EX_IOERR)


EXIT_MEANING = {
    Exit.OK: "success; the result is on stdout",
    Exit.RAISED: "the function raised: `Name: message` on stderr",
    Exit.USAGE: "wrong number of arguments, unparsable text or a file that does "
                "not fit the signature (usage on stderr)",
    Exit.NO_CUDA: "`cuda=\"required\"`: CUDA cannot run (the reason on stderr)",
    Exit.CANT_CREATE: "an output file could not be written",
    Exit.IO_ERROR: "writing the result to stdout failed",
}

# the texts a bool argument may be given as
BOOL_ARGS = {"True": True, "true": True, "1": True,
             "False": False, "false": False, "0": False}
BOOL_TEXT = ("False", "True")
NONE_TEXT = "None"
# repr(float): exponent notation when the decimal exponent is below EXP_LOW or
# at least EXP_HIGH, with at least EXP_DIGITS digits after its sign
EXP_LOW, EXP_HIGH, EXP_DIGITS = -4, 16, 2
INF_TEXT, NAN_TEXT = "inf", "nan"
UNKNOWN_RAISE = ("SystemError", "unknown error code")


def exception_name(cls) -> str:
    """The name Python's traceback shows for an exception class: the qualified
    name, with the module in front unless it is ``builtins`` or ``__main__``."""
    if isinstance(cls, str):
        return cls
    name = getattr(cls, "__qualname__", None) or getattr(cls, "__name__", str(cls))
    module = getattr(cls, "__module__", "builtins")
    return name if module in ("builtins", "__main__") else f"{module}.{name}"


def raise_table(raises) -> list:
    """``[(name, message template)]`` for ``Module.raises``, in code order (code
    ``k`` is entry ``k - 1``).  A deoptimisation entry (where CPython computes a
    result the compiled code cannot represent) keeps the bare class name
    (``Deopt``): no Python traceback ever shows it."""
    return [(getattr(exc, "__name__", str(exc)) if deopt in (True, CLEAN) else exception_name(exc),
             message) for exc, message, deopt in raises]


def raise_text(name: str, message: str) -> str:
    """The last line of Python's traceback: ``Name: message``, or ``Name``."""
    return f"{name}: {message}" if message else name


def leaf_kind(t: T.Scalar) -> str:
    """How a scalar crosses the boundary: ``bool``, ``int``, ``uint``, ``float``
    or ``complex``."""
    if t.is_bool:
        return "bool"
    if t.is_complex:
        return "complex"
    if t.is_float:
        return "float"
    return "int" if t.is_signed else "uint"


def python_value(value, t: T.Type):
    """``value`` (what a compiled function or a NumPy computation gives for type
    ``t``) as the Python object the CPU JIT returns: float32 as the float holding
    it, NumPy scalars as Python scalars, arrays as nested lists."""
    if isinstance(t, T.TupleType):
        return tuple(python_value(v, it) for v, it in zip(value, t.items))
    if isinstance(t, T.ArrayType):
        import numpy as np
        return np.asarray(value).tolist()
    if t == T.NONE or value is None:
        return None
    if t.is_bool:
        return bool(value)
    if t.is_complex:
        return complex(value)
    if t.is_float:
        return float(value)
    return int(value)


def python_text(value, t: T.Type) -> str:
    """What ``print(f(*args))`` shows for a result ``value`` of type ``t``: the
    text every exporter prints."""
    return repr(python_value(value, t))


def float_text(v: float, dot0: bool = True) -> str:
    """``repr(v)`` built from the rules above (``dot0``: add ``.0`` to integral
    values, as ``repr(float)`` does and a complex number's parts do not).  The
    generated C and JavaScript follow this function step by step."""
    if math.isnan(v):
        return NAN_TEXT
    if math.isinf(v):
        return INF_TEXT if v > 0 else "-" + INF_TEXT
    sign, digits, exp = shortest_digits(v)
    if exp < EXP_LOW or exp >= EXP_HIGH:
        mant = digits[0] + ("." + digits[1:] if digits[1:] else "")
        return f"{sign}{mant}e{'-' if exp < 0 else '+'}{abs(exp):0{EXP_DIGITS}d}"
    point = exp + 1
    if point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    if point < len(digits):
        return f"{sign}{digits[:point]}.{digits[point:]}"
    return sign + digits + "0" * (point - len(digits)) + (".0" if dot0 else "")


def shortest_digits(v: float) -> tuple:
    """``(sign, digits, exp)``: ``v == ±d.ddd × 10**exp`` with the fewest digits
    that read back as ``v``.  At each precision the correctly rounded decimal is
    tried, then the next one up in magnitude (the only other candidate: next to
    a power of two the gap above a double is twice the gap below)."""
    for prec in range(1, 18):
        text = "%.*e" % (prec - 1, v)
        if float(text) == v:
            break
        up = _next_up(text)
        if float(up) == v:
            text = up
            break
    mant, exp = text.split("e")
    sign = "-" if mant.startswith("-") else ""
    digits = mant.lstrip("-").replace(".", "").rstrip("0") or "0"
    return sign, digits, int(exp)


def _next_up(text: str) -> str:
    """The decimal ``text`` (``%e`` form) with its last digit one higher."""
    mant, exp = text.split("e")
    sign = "-" if mant.startswith("-") else ""
    digits = mant.lstrip("-").replace(".", "")
    up, e = str(int(digits) + 1), int(exp)
    if len(up) > len(digits):          # 9.99 -> 10.0: one more in the exponent
        up, e = up[:-1], e + 1
    return f"{sign}{up[0]}{'.' + up[1:] if up[1:] else ''}e{e}"


def complex_text(re: float, im: float) -> str:
    """``repr(complex(re, im))`` built from :func:`float_text`."""
    if re == 0.0 and math.copysign(1.0, re) > 0:
        return float_text(im, dot0=False) + "j"
    imag = float_text(im, dot0=False)
    if not imag.startswith("-"):
        imag = "+" + imag
    return f"({float_text(re, dot0=False)}{imag}j)"
