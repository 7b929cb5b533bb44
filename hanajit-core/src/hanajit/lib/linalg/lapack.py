"""NumPy's own LAPACK and BLAS: the functions ``numpy.linalg``, ``np.dot`` and
``@`` call, found in the process.

NumPy's wheels bundle OpenBLAS with 64-bit integers and prefixed names
(``scipy_dgesv_64_``); ``numpy/linalg/_umath_linalg`` calls them.  Calling the
very same functions on the same Fortran-ordered copies gives NumPy's results bit
for bit (``solve_inv_det_algorithms``).  A NumPy built on another LAPACK (32-bit integers,
other names) is not supported here: ``np.linalg.solve`` and friends then fall
back to the interpreter.
"""
from __future__ import annotations

import ctypes
import functools

# routine -> candidates for its symbol (64-bit integer interfaces only)
PREFIXES = ("scipy_", "")
SUFFIX = "_64_"


@functools.cache
def _library() -> ctypes.CDLL | None:
    """The loaded shared library that holds NumPy's LAPACK, or None."""
    import numpy.linalg._umath_linalg  # noqa: F401  (loads the library)
    try:
        with open("/proc/self/maps") as fh:
            paths = {line.split()[-1] for line in fh
                     if line.rstrip().endswith(".so") or ".so." in line}
    except OSError:
        return None
    for path in sorted(paths):
        name = path.rsplit("/", 1)[-1].lower()
        if "openblas" in name or "lapack" in name:
            try:
                lib = ctypes.CDLL(path)
            except OSError:
                continue
            if _find(lib, "dgesv") is not None:
                return lib
    return None


def _find(lib, routine: str):
    # Fortran routines end in ``_64_`` (``scipy_dgemm_64_``), CBLAS functions in
    # ``64_`` (``scipy_cblas_ddot64_``)
    suffix = "64_" if routine.startswith("cblas_") else SUFFIX
    for prefix in PREFIXES:
        try:
            return getattr(lib, f"{prefix}{routine}{suffix}")
        except AttributeError:
            pass
    return None


@functools.cache
def function(routine: str):
    """The ctypes function of ``routine`` (``dgesv``) in NumPy's LAPACK, or None."""
    lib = _library()
    return None if lib is None else _find(lib, routine)


def available(routine: str) -> bool:
    return function(routine) is not None


def address(routine: str) -> int:
    """The address of ``routine`` (KeyError when NumPy's LAPACK lacks it)."""
    fn = function(routine)
    if fn is None:
        raise KeyError(routine)
    return ctypes.cast(fn, ctypes.c_void_p).value


def call(routine: str, *addresses: int) -> None:
    """Call ``routine`` with every argument by address (the interpreter's path of
    ``prims.lapack_*``)."""
    function(routine)(*[ctypes.c_void_p(a) for a in addresses])
