"""NumPy's own FFT loops: the inner loops of the gufuncs of
``numpy.fft._pocketfft_umath`` (``fft``, ``ifft``, ``rfft_n_even``, ``rfft_n_odd``,
``irfft``), which ``np.fft.fft`` and friends call, found in the ufunc objects and
called from compiled code (a ``ForeignCall`` of the symbol :func:`symbol`) on
targets whose code runs in this process (``Capabilities.host_calls``).

A gufunc loop is ``void loop(char **args, npy_intp const *dimensions, npy_intp
const *steps, void *data)``: ``args`` the input, the factor ``fct`` and the
output; ``dimensions`` the outer count, the input's and the output's core
lengths; ``steps`` the outer steps of the three operands, then the input's and
the output's core steps (bytes).  ``fft`` and ``ifft`` share one function and
differ by ``data``, the address of a C++ ``bool`` (true: forward); the real
transforms have no data (NULL).  The loop pads the input with zeros or drops its
end to the output's length.

The addresses are read with ctypes from NumPy's public ``PyUFuncObject``
(``PyObject_HEAD; int nin, nout, nargs, identity; PyUFuncGenericFunction
*functions; void *const *data; int ntypes; ...``), its layout checked (``nin``,
``nout`` and ``ntypes`` read back as the ufunc reports them, ``data`` as
described), and each loop checked once per process to give NumPy's bits on a few
inputs, called exactly as compiled code calls it; where a check fails, the FFTs
fall back to the interpreter.
"""
from __future__ import annotations

import ctypes
import functools
import sys

UFUNCS = ("fft", "ifft", "rfft_n_even", "rfft_n_odd", "irfft")
# loop types: input, factor and output type chars per ufunc and precision
TYPES = {"fft": ("Dd->D", "Ff->F"), "ifft": ("Dd->D", "Ff->F"),
         "rfft_n_even": ("dd->D", "ff->F"), "rfft_n_odd": ("dd->D", "ff->F"),
         "irfft": ("Dd->d", "Ff->f")}
DIRECTION = {"fft": 1, "ifft": 0}     # the bool ``data`` points at
_LOOP = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                         ctypes.c_void_p)


class _UFunc(ctypes.Structure):
    _fields_ = [("ob_refcnt", ctypes.c_ssize_t), ("ob_type", ctypes.c_void_p),
                ("nin", ctypes.c_int), ("nout", ctypes.c_int), ("nargs", ctypes.c_int),
                ("identity", ctypes.c_int),
                ("functions", ctypes.POINTER(ctypes.c_void_p)),
                ("data", ctypes.POINTER(ctypes.c_void_p)), ("ntypes", ctypes.c_int)]


def symbol(ufunc: str, single: bool) -> str:
    """``numpy_pocketfft_<ufunc>_<d|f>``."""
    return f"numpy_pocketfft_{ufunc}_{'f' if single else 'd'}"


def _found(ufunc: str, types: str):
    """(the loop's address, the byte its data points at or None) of ``ufunc``'s
    loop for ``types``, read from the ufunc object; None where the object does
    not look as expected."""
    import numpy.fft._pocketfft_umath as pfu
    u = getattr(pfu, ufunc, None)
    if u is None or types not in u.types:
        return None
    s = _UFunc.from_address(id(u))
    if (s.nin, s.nout, s.nargs, s.ntypes) != (u.nin, u.nout, u.nin + u.nout, u.ntypes) \
            or (u.nin, u.nout) != (2, 1):
        return None
    i = u.types.index(types)
    fn = s.functions[i]
    if not fn:
        return None
    if ufunc in DIRECTION:
        if not s.data or not s.data[i]:
            return None
        flag = ctypes.c_uint8.from_address(s.data[i]).value
        if flag != DIRECTION[ufunc]:
            return None
    elif s.data:
        return None
    return fn


def call(ufunc: str, single: bool, a, fct, out, fn=None) -> None:
    """Call the loop on the 1-D or 2-D (transform along the last axis) arrays
    ``a`` and ``out`` with the factor ``fct`` (a 0-D array), as compiled code
    does: one call, the outer count the first axis's length."""
    import numpy as np
    fn = fn if fn is not None else address(symbol(ufunc, single))
    a2, o2 = (x.reshape(1, -1) if x.ndim == 1 else x for x in (a, out))
    buf = np.zeros(12, np.int64)
    buf[:3] = (a2.ctypes.data, fct.ctypes.data, o2.ctypes.data)
    buf[3:6] = (a2.shape[0], a2.shape[1], o2.shape[1])
    buf[6:11] = (a2.strides[0], 0, o2.strides[0], a2.strides[1], o2.strides[1])
    buf[11] = DIRECTION.get(ufunc, 0)
    at = buf.ctypes.data
    _LOOP(fn)(at, at + 24, at + 48, at + 88 if ufunc in DIRECTION else None)


def _agrees(ufunc: str, single: bool, fn) -> bool:
    """Does the loop at ``fn`` give the ufunc's own bits on a few inputs?"""
    import numpy as np
    import numpy.fft._pocketfft_umath as pfu
    u = getattr(pfu, ufunc)
    real, cplx = (np.float32, np.complex64) if single else (np.float64, np.complex128)
    rng = np.random.default_rng(5)
    for rows, nin, nout in ((1, 7, 7), (3, 16, 16), (5, 12, 9), (2, 5, 11)):
        if ufunc.startswith("rfft"):
            x = rng.standard_normal((rows, nin)).astype(real)
            out_t = cplx
        else:
            x = (rng.standard_normal((rows, nin))
                 + 1j * rng.standard_normal((rows, nin))).astype(cplx)
            out_t = real if ufunc == "irfft" else cplx
        fct = np.array(1 / 3, real)
        want = u(x, fct, axes=[(1,), (), (1,)], out=np.empty((rows, nout), out_t))
        got = np.empty((rows, nout), out_t)
        call(ufunc, single, x, fct, got, fn)
        if got.tobytes() != want.tobytes():
            return False
    return True


@functools.cache
def _checked(ufunc: str, single: bool) -> int | None:
    if sys.byteorder != "little" or ufunc not in UFUNCS:     # (the direction flag)
        return None
    try:
        fn = _found(ufunc, TYPES[ufunc][single])
        if fn is None or not _agrees(ufunc, single, fn):
            return None
        return fn
    except Exception:           # noqa: BLE001 - another NumPy: the interpreter's FFTs
        return None


def available(single: bool, *ufuncs: str) -> bool:
    return all(_checked(u, single) is not None for u in ufuncs)


def address(name: str) -> int | None:
    """The address behind the symbol ``name`` (:func:`symbol`), else None."""
    if not name.startswith("numpy_pocketfft_") or name[-2:] not in ("_d", "_f"):
        return None
    return _checked(name[len("numpy_pocketfft_"):-2], name.endswith("_f"))
