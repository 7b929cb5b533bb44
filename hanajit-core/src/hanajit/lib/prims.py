"""Primitive math with C99 semantics, for hanajit's own helpers (``helpers``).

Each function lowers to one ``Intrinsic`` node with no Python-level checks (C
``fmod(inf, 1)`` is NaN where ``math.fmod`` raises).  The Python bodies are only
used when a helper runs in the interpreter.
"""
import math

import numpy as np


def fmod(x, y):
    try:
        return math.fmod(x, y)
    except ValueError:
        return math.nan


def fdiv(x, y):
    try:
        return x / y
    except ZeroDivisionError:
        if x != x or x == 0.0:
            return math.nan
        return math.copysign(math.inf, x) * math.copysign(1.0, y)


def floor(x):
    return float(math.floor(x)) if math.isfinite(x) else x


def copysign(x, y):
    return math.copysign(x, y)


def fabs(x):
    return math.fabs(x)


def isinf(x):
    return math.isinf(x)


def pow(x, y):
    try:
        return math.pow(x, y)
    except OverflowError:
        return math.inf


def pow_scalar(x, y):
    """``pow`` that a vectorised loop calls element by element (never a vector
    math variant, which may differ from libm in the last bits): a rare slow path
    under a branch stays a branch instead of a vector ``pow`` of every lane."""
    return pow(x, y)


def rint(x):
    return float(round(x)) if math.isfinite(x) else x


def fma(x, y, z):
    from fractions import Fraction
    return float(Fraction(x) * Fraction(y) + Fraction(z))


def log(x):
    """C ``log`` (no ValueError)."""
    if x != x or x == math.inf:  # noqa: PLR0124
        return x
    if x == 0.0:
        return -math.inf
    return math.log(x) if x > 0.0 else math.nan


def exp(x):
    """C ``exp`` (inf on overflow)."""
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def to_int64(x):
    """C's ``(int64_t)x`` of a float known to lie in ``(-2**63, 2**63)``: its
    integer part, with none of ``int()``'s checks for NaN, infinities and big
    values -- a loop of them vectorises.  (Outside that range the compiled
    result is undefined.)"""
    return int(x)


def to_int32(x):
    """C's ``(int32_t)x`` of a float known to lie in ``(-2**31, 2**31)``, an
    ``np.int32``: a loop of them vectorises well on every x86-64 CPU (AVX2
    converts four doubles to int32 and back in one instruction each, but has no
    such instruction for int64, so :func:`to_int64`'s vector code converts one
    lane at a time).  (Outside that range the compiled result is undefined.)"""
    return np.int32(int(x))


def hypot(x, y):
    return math.hypot(x, y)


def atan2(y, x):
    return math.atan2(y, x)


def cos(x):
    """C ``cos`` (NaN for an infinity, no ValueError)."""
    return math.cos(x) if math.isfinite(x) else math.nan


def sin(x):
    """C ``sin`` (NaN for an infinity, no ValueError)."""
    return math.sin(x) if math.isfinite(x) else math.nan


def address(a):
    """The address of the first element of the array ``a`` (an int)."""
    return a.ctypes.data


# NumPy's LAPACK routines (``lib/linalg/lapack.py``), every argument an address: a call
# of the routine, for its effects on the memory the addresses point to.  The
# gesv/getrf/potrf forms take the work array first: ``d`` or ``z`` by its dtype


def _typed(stem, w):
    return ("z" if w.dtype.kind == "c" else "d") + stem


def lapack_gesv(w, *addresses):
    from .linalg.lapack import call
    call(_typed("gesv", w), *addresses)


def lapack_getrf(w, *addresses):
    from .linalg.lapack import call
    call(_typed("getrf", w), *addresses)


def lapack_potrf(w, *addresses):
    from .linalg.lapack import call
    call(_typed("potrf", w), *addresses)
def lapack_dgesv(*addresses):
    from .linalg.lapack import call
    call("dgesv", *addresses)


def lapack_dsyevd(*addresses):
    from .linalg.lapack import call
    call("dsyevd", *addresses)


def lapack_zheevd(*addresses):
    from .linalg.lapack import call
    call("zheevd", *addresses)


def lapack_dgeev(*addresses):
    from .linalg.lapack import call
    call("dgeev", *addresses)


def lapack_zgeev(*addresses):
    from .linalg.lapack import call
    call("zgeev", *addresses)


def lapack_dgesdd(*addresses):
    from .linalg.lapack import call
    call("dgesdd", *addresses)


def lapack_zgesdd(*addresses):
    from .linalg.lapack import call
    call("zgesdd", *addresses)


def lapack_dgeqrf(*addresses):
    from .linalg.lapack import call
    call("dgeqrf", *addresses)


def lapack_zgeqrf(*addresses):
    from .linalg.lapack import call
    call("zgeqrf", *addresses)


def lapack_dorgqr(*addresses):
    from .linalg.lapack import call
    call("dorgqr", *addresses)


def lapack_zungqr(*addresses):
    from .linalg.lapack import call
    call("zungqr", *addresses)


def lapack_dgelsd(*addresses):
    from .linalg.lapack import call
    call("dgelsd", *addresses)


def lapack_zgelsd(*addresses):
    from .linalg.lapack import call
    call("zgelsd", *addresses)


def _blas(op, w, args):
    """The interpreter's path of ``prims.blas_*`` (``blas``): integers and
    addresses as int64, floats as the routine's float type; the dot products
    return their value."""
    import ctypes

    import numpy as np

    from ..ir.types import from_numpy_dtype
    from .linalg.lapack import function
    from .linalg.blas import routine
    w = np.asarray(w)
    t = from_numpy_dtype(w.dtype)
    name, returns = routine(op, t)
    single = w.dtype in (np.float32, np.complex64)
    real = ctypes.c_float if single else ctypes.c_double
    fn = function(name)
    conv = []
    for a in args:
        if isinstance(a, (float, complex)) and w.dtype.kind == "c":   # by address
            keep = np.array([a], w.dtype)
            conv.append(ctypes.c_void_p(keep.ctypes.data))
            conv[-1]._keep = keep
        elif isinstance(a, float):
            conv.append(real(a))
        else:
            conv.append(ctypes.c_int64(a))
    if op not in ("dot", "dotc"):
        fn.restype = None
        fn(*conv)
        return None
    if returns is not None:
        fn.restype = real
        return w.dtype.type(fn(*conv))
    out = np.zeros(1, w.dtype)
    fn.restype = None
    fn(*conv, ctypes.c_void_p(out.ctypes.data))
    return out[0]


def blas_dot(w, *args):
    return _blas("dot", w, args)


def blas_dotc(w, *args):
    return _blas("dotc", w, args)


def blas_gemm(w, *args):
    _blas("gemm", w, args)


def blas_gemv(w, *args):
    _blas("gemv", w, args)


def blas_syrk(w, *args):
    _blas("syrk", w, args)


def blas_axpy(w, *args):
    _blas("axpy", w, args)


def log1p(x):
    """C ``log1p`` (no ValueError)."""
    if x == -1.0:
        return -math.inf
    if x < -1.0:
        return math.nan
    return math.log1p(x)


def need_int64(what):
    """Refuse ``what`` (a library function's name) when compiled for a target
    without 64-bit integers (``Capabilities.int64``); nothing here."""
    return None


def as_uint64(x):
    """The bits of an int64 as a uint64 (C's cast): ``-1`` is ``2**64 - 1``."""
    import numpy as np
    return np.uint64(int(x) & 0xFFFFFFFFFFFFFFFF)


def as_int64(x):
    """The bits of a uint64 as an int64 (C's cast): ``2**64 - 1`` is ``-1``."""
    import numpy as np
    x = int(x)
    return np.int64(x - (1 << 64) if x >= 1 << 63 else x)


# One draw from a ``np.random.Generator``'s bit generator (``lib/random/generator.py``):
# a ``RandomBits`` of the generator value, a call through ``bit_generator.ctypes``


def _draw(rng, k, restype):
    """Call function ``k`` (1: next_uint64, 2: next_uint32, 3: next_double) of a
    Generator or of the four words of ``make_generator``."""
    import ctypes
    if isinstance(rng, tuple):
        words = rng
    else:
        c = rng.bit_generator.ctypes
        words = (c.state_address,) + tuple(
            ctypes.cast(f, ctypes.c_void_p).value
            for f in (c.next_uint64, c.next_uint32, c.next_double))
    return ctypes.CFUNCTYPE(restype, ctypes.c_void_p)(words[k])(words[0])


def rng_next_uint64(rng):
    import ctypes

    import numpy as np
    return np.uint64(_draw(rng, 1, ctypes.c_uint64))


def rng_next_uint32(rng):
    import ctypes

    import numpy as np
    return np.uint32(_draw(rng, 2, ctypes.c_uint32))


def rng_next_double(rng):
    import ctypes
    return float(_draw(rng, 3, ctypes.c_double))


# A RandomState's state (``lib/random/legacy.py``, ``random_state.py``): ``st``
# is the address of its ``bitgen_t`` copy (``legacy_bitgen``: the global one's
# four int64 words); ``legacy_words(st)`` those words, ``legacy_flags(st)`` and
# ``legacy_cache(st)`` its ``aug_bitgen_t`` after them, ``has_gauss`` as int32
# element 2 and ``gauss`` as float64 element 2; ``make_generator`` a generator
# value from the four words


def legacy_bitgen():
    from .random.legacy_state import view
    return view("legacy_bitgen", "int64", 4)


def legacy_words(st):
    from .random.legacy_state import view_at
    return view_at(st, "int64", 4)


def legacy_flags(st):
    from .random.legacy_state import AUG, view_at
    return view_at(int(st) + AUG, "int32", 6)


def legacy_cache(st):
    from .random.legacy_state import AUG, view_at
    return view_at(int(st) + AUG, "float64", 3)


def legacy_mt19937_functions():
    """MT19937's ``next_uint64``, ``next_uint32``, ``next_double``, ``next_raw``."""
    from .random.legacy_state import view
    return view("mt19937_functions", "int64", 4)


def legacy_bitgen_tags():
    """The ``next_double`` of PCG64, PCG64DXSM, Philox and SFC64 (legacy_state)."""
    from .random.legacy_state import view
    return view("bitgen_tags", "int64", 4)


def make_generator(words):
    return tuple(int(w) for w in words[:4])


def legacy_mt19937_tag():
    """One int64: the address of MT19937's ``next_double`` (0 if unknown)."""
    from .random.legacy_state import view
    return view("mt19937_tag", "int64", 1)


def mt19937_key(address):
    """``uint32_t key[624]`` then ``int pos`` of an MT19937 state, as 625 uint32."""
    from .random.legacy_state import view_at
    return view_at(address, "uint32", 625)


# Python's ``random`` generators (``lib/random/python_random.py``): the global instance's
# address (one int64), an instance's MT as 625 uint32 (``index`` first), and
# its ``gauss_next`` (compiled: ``lib/random/python_capi.py``; here
# ``lib/random/python_random_state.py``)


def pyrandom_global():
    from .random.python_random_state import python_addresses
    from .random.legacy_state import view_at
    return view_at(python_addresses()["hj.python.random_global"], "int64", 1)


def pyrandom_mt(address):
    from .random.python_random_state import MT_OFFSET
    from .random.legacy_state import view_at
    return view_at(int(address) + MT_OFFSET, "uint32", 625)


def pyrandom_address(r):
    return id(r)


def pyrandom_gauss_has(address):
    from .random.python_random_state import gauss_has
    return gauss_has(int(address))


def pyrandom_gauss_value(address):
    from .random.python_random_state import gauss_value
    return gauss_value(int(address))


def pyrandom_gauss_set(address, has, value):
    from .random.python_random_state import gauss_set
    gauss_set(int(address), bool(has), float(value))


# CPython's C API (``lib/random/python_capi.py``: ``gauss_next`` from compiled
# code); the interpreter's path calls the same functions through ctypes


def _capi(name, restype, argtypes, *args):
    import ctypes
    fn = ctypes.PYFUNCTYPE(restype, *argtypes)(   # keeps the GIL
        ctypes.cast(getattr(ctypes.pythonapi, name), ctypes.c_void_p).value)
    return fn(*args)


def pyapi_consts():
    from .random.python_random_state import python_addresses
    from .random.legacy_state import view_at
    return view_at(python_addresses()["hj.python.pyapi_consts"], "int64", 3)


def pyapi_words(address):
    from .random.legacy_state import view_at
    return view_at(address, "int64", 2)


def pyapi_gil_ensure():
    import ctypes
    return _capi("PyGILState_Ensure", ctypes.c_int, ())


def pyapi_gil_release(state):
    import ctypes
    _capi("PyGILState_Release", None, (ctypes.c_int,), int(state))


def pyapi_getattr(obj, name):
    import ctypes
    return _capi("PyObject_GetAttr", ctypes.c_void_p, (ctypes.c_void_p, ctypes.c_void_p),
                 int(obj), int(name)) or 0


def pyapi_setattr(obj, name, value):
    import ctypes
    return _capi("PyObject_SetAttr", ctypes.c_int,
                 (ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p),
                 int(obj), int(name), int(value))


def pyapi_float_from(x):
    import ctypes
    return _capi("PyFloat_FromDouble", ctypes.c_void_p, (ctypes.c_double,), float(x))


def pyapi_float_as(o):
    import ctypes
    return _capi("PyFloat_AsDouble", ctypes.c_double, (ctypes.c_void_p,), int(o))


def pyapi_decref(o):
    import ctypes
    _capi("Py_DecRef", None, (ctypes.c_void_p,), int(o))


def pyapi_err_clear():
    _capi("PyErr_Clear", None, ())


# ``str(x)``/``format(x, spec)`` of a float (``lib/python/float_text.py``):
# CPython's own ``PyOS_double_to_string`` and ``PyMem_Free``


def pyapi_double_to_string(x, code, precision, flags, kind):
    import ctypes
    return _capi("PyOS_double_to_string", ctypes.c_void_p,
                 (ctypes.c_double, ctypes.c_char, ctypes.c_int, ctypes.c_int,
                  ctypes.c_void_p), float(x), bytes([int(code)]), int(precision),
                 int(flags), int(kind) or None) or 0


def pyapi_mem_free(p):
    import ctypes
    _capi("PyMem_Free", None, (ctypes.c_void_p,), int(p))


def pyapi_chars(address):
    """The NUL-terminated bytes at ``address`` (the NUL too), as uint8."""
    import ctypes
    import numpy as np
    return np.frombuffer(ctypes.string_at(int(address)) + b"\0", np.uint8)


def rng_streams_open(state, next_uint64, count, words):
    from hanajit.parallel_streams import open_streams
    return open_streams(int(state), int(next_uint64), int(count),
                         words.ctypes.data)


def rng_streams_close(words):
    from hanajit.parallel_streams import close_streams
    return close_streams(words.ctypes.data)


# A generator made in the function (``lib/random/local_generator.py``): NumPy's
# PCG64 functions (three int64) and 128 bits of OS entropy written into ``e``


def pcg64_functions():
    import numpy as np

    from .random.local_state import pcg64_addresses
    from .random.legacy_state import view_at
    return view_at(pcg64_addresses()["hj.pcg64.functions"], np.int64, 3)


def os_entropy(e):
    from .random.local_state import os_entropy as entropy
    return entropy(e.ctypes.data)


def warn(category, message, *ints):
    """``warnings.warn(message, <builtin category>)``, the integers ``ints``
    filling the message's ``{}`` fields: 0, or 1 if it raised
    (``lib/python/warning_calls.py``; the interpreter's path warns here)."""
    import builtins
    import warnings
    if ints:
        message = message.format(*(int(i) for i in ints))
    try:
        warnings.warn(message, getattr(builtins, category), stacklevel=2)
    except Exception:
        return 1
    return 0
