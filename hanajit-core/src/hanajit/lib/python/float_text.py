"""The text of a float in a str built at run time -- ``str(x)``, ``repr(x)``,
``f"{x}"``, ``format(x, spec)`` -- in Python source compiled by hanajit
(``strings.py`` types the calls): CPython's own ``PyOS_double_to_string``,
called in this process (``prims.pyapi_double_to_string``, the GIL taken as
``python_capi.py`` takes it), so the digits are the interpreter's by
construction: the shortest that read back as the same float (``repr``), or a
spec's code and precision.  What ``format`` adds around them -- the sign, the
fill, the width -- is ``string_algorithms.assemble``, as for an int.  Only
targets whose code runs in this process call it (``Capabilities.host_calls``);
elsewhere the typer refuses the call and the function runs in the interpreter."""
import numpy as np

from .. import prims
from .string_algorithms import assemble

R_CODE = 114                # 'r': repr's shortest round-trip digits
SIGN = 1                    # Py_DTSF_SIGN: a '+' before a positive number
ADD_DOT_0 = 2               # Py_DTSF_ADD_DOT_0: "1.0", not "1"
ALT = 4                     # Py_DTSF_ALT: the '#' of a spec


def float_digits(x, code, precision, flags):
    """``PyOS_double_to_string(x, code, precision, flags, NULL)`` as a str."""
    state = prims.pyapi_gil_ensure()
    p = prims.pyapi_double_to_string(x, code, precision, flags, 0)
    if p == 0:
        prims.pyapi_err_clear()
        prims.pyapi_gil_release(state)
        raise MemoryError()
    chars = prims.pyapi_chars(p)
    n = 0
    while chars[n] != 0:
        n += 1
    out = np.empty(n, np.int32)
    for i in range(n):
        out[i] = chars[i]
    prims.pyapi_mem_free(p)
    prims.pyapi_gil_release(state)
    return out


def float_repr(x):
    """``repr(x)`` (and ``str(x)``) of a float: CPython's ``float_repr``."""
    return float_digits(x, R_CODE, 0, ADD_DOT_0)


def complex_repr(re, im):
    """``repr(z)`` (and ``str(z)``) of a complex with parts ``re``, ``im``:
    CPython's ``complex_repr`` -- ``imj`` alone where the real part is +0.0,
    else ``(re±imj)``, each part's shortest digits without a ``.0`` (NumPy's
    ``str`` of an ``np.complex128`` is the same text)."""
    if re == 0.0 and prims.copysign(1.0, re) == 1.0:
        return complex_text(np.empty(0, np.int32), float_digits(im, R_CODE, 0, 0), 0)
    return complex_text(float_digits(re, R_CODE, 0, 0), float_digits(im, R_CODE, 0, SIGN), 1)


def complex_text(head, tail, parens):
    """``head tail j``, in parentheses if ``parens``: a complex's text from its
    parts' (also ``float32_text.complex64_text``)."""
    out = np.empty(len(head) + len(tail) + 1 + 2 * parens, np.int32)
    out[0] = 40                                 # '(' (overwritten without parens)
    k = parens
    for i in range(len(head)):
        out[k] = head[i]
        k += 1
    for i in range(len(tail)):
        out[k] = tail[i]
        k += 1
    out[k] = 106                                # 'j'
    if parens:
        out[k + 1] = 41                         # ')'
    return out


def formatted_float(x, code, precision, flags, percent, fill, align, sign, width):
    """``format(x, spec)`` of a float, as CPython's ``format_float_internal``:
    the digits (``code`` and ``precision`` already the spec's defaults; with
    ``percent``, of ``x * 100`` and a '%' after), their '-' taken as the sign
    (``sign`` 1: '+' else, 2: a space), padded as ``assemble`` pads an int."""
    if percent:
        x = x * 100.0
    body = float_digits(x, code, precision, flags)
    mark, first = 0, 0
    if len(body) > 0 and body[0] == 45:
        mark, first = 45, 1
    elif sign == 1:
        mark = 43
    elif sign == 2:
        mark = 32
    rest = np.empty(len(body) - first + (1 if percent else 0), np.int32)
    for i in range(first, len(body)):
        rest[i - first] = body[i]
    if percent:
        rest[len(rest) - 1] = 37
    return assemble(mark, 0, rest, fill, align, width)
