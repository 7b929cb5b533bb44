"""Where Python's ``random`` generators keep their state, for compiled calls.

A ``random.Random`` is CPython's ``_random.Random`` (``Modules/_randommodule.c``)
with a Python ``__dict__``: ``PyObject_HEAD``, ``int index`` at byte 16 and
``uint32_t state[624]`` at byte 20 -- the Mersenne Twister that ``random()``,
``getrandbits()`` and ``seed()`` use -- and ``gauss_next``, the second value
``gauss()`` keeps, an ordinary instance attribute.  Compiled code reads and
writes the MT words in place (``prims.pyrandom_mt``: 625 uint32 from byte 16,
the index first) and ``gauss_next`` through this process's C API
(``python_capi.py``; the CPU engine links the functions as
``hj.host.<name>``).  The module-level functions (``random.random`` ...)
are bound methods of one instance, whose address the engine links as
``hj.python.random_global``.

The layout is checked once per process against ``getstate()`` on fresh
generators; anything unexpected (another Python, a build with another layout)
makes :func:`layout_ok` false and every call falls back to the interpreter.
"""
from __future__ import annotations

import ctypes
import sys

_state: dict = {}

# the methods of ``random.Random`` compiled code reproduces: a generator whose
# class is exactly ``random.Random`` (subclasses are never compiled)
METHODS = ("random", "uniform", "randint", "randrange", "getrandbits", "gauss",
           "normalvariate", "seed")


def layout_ok() -> bool:
    """Is ``_random.Random``'s state where this module expects it (checked on
    this interpreter, once)?"""
    if "layout" not in _state:
        try:
            _state["layout"] = _probe()
        except Exception:           # pragma: no cover - any surprise: refuse
            _state["layout"] = False
    return _state["layout"]


def _probe() -> bool:
    import random
    if ctypes.sizeof(ctypes.c_void_p) != 8 or ctypes.sizeof(ctypes.c_int) != 4:
        return False
    base = random.Random.__mro__[1]
    if base.__module__ != "_random" or base.__basicsize__ < 20 + 4 * 624:
        return False
    # the methods used are _random's own and random.py's rejection sampler
    if random.Random.random is not base.random or \
            random.Random.getrandbits is not base.getrandbits or \
            random.Random._randbelow is not random.Random._randbelow_with_getrandbits:
        return False
    for seed, draws in ((12345, 7), (2**40 + 3, 700)):
        r = random.Random(seed)
        for _ in range(draws):
            r.random()
        _version, words, _gauss = r.getstate()
        if list(mt_view(id(r))) != [words[-1]] + list(words[:-1]):
            return False
    return True


MT_OFFSET = 16       # after PyObject_HEAD: int index, then uint32 state[624]


def mt_view(address: int):
    """The 625 uint32 of a generator's MT: the index, then the state words."""
    return (ctypes.c_uint32 * 625).from_address(address + MT_OFFSET)


def global_instance():
    """The instance behind the module's functions (``random.random.__self__``),
    or None when they are not bound methods of an exact ``random.Random``."""
    import random
    inst = getattr(random.random, "__self__", None)
    return inst if type(inst) is random.Random else None


def python_addresses() -> dict:
    """The cells compiled code links as ``hj.python.*``: ``random_global``, the
    address of the global instance (kept for the process: the module's
    functions stay bound to it), when it is a ``random.Random``; and
    ``pyapi_consts``: the addresses of ``None``, ``float`` and the interned
    ``"gauss_next"`` (``python_capi.py``)."""
    out = {}
    if "consts" not in _state:
        name = _state["name"] = sys.intern("gauss_next")
        _state["consts"] = (ctypes.c_int64 * 3)(id(None), id(float), id(name))
    out["hj.python.pyapi_consts"] = ctypes.addressof(_state["consts"])
    inst = global_instance()
    if inst is not None and layout_ok():
        cell = _state.get("cell")
        if cell is None or cell.value != id(inst):
            cell = _state["cell"] = ctypes.c_int64(id(inst))
            _state["inst"] = inst
        out["hj.python.random_global"] = ctypes.addressof(cell)
    return out


# ``gauss_next`` in the interpreter's path of ``prims.pyrandom_gauss_*``: 1 when
# it is a float (``gauss_value`` reads it), 0 when None, 2 for anything else
# (compiled code then refuses the call)
def gauss_has(address) -> int:
    z = getattr(_object(address), "gauss_next", ())
    return 1 if type(z) is float else 0 if z is None else 2


def gauss_value(address) -> float:
    return _object(address).gauss_next


def gauss_set(address, has, value) -> None:
    _object(address).gauss_next = value if has else None


def _object(address):
    return ctypes.cast(ctypes.c_void_p(address), ctypes.py_object).value


# the C API functions ``python_capi.py`` calls (``hj.host.<name>``), and those of
# the text of a float (``lib/python/float_text.py``)
C_API = ("PyGILState_Ensure", "PyGILState_Release", "PyObject_GetAttr",
         "PyObject_SetAttr", "PyFloat_FromDouble", "PyFloat_AsDouble", "Py_DecRef",
         "PyErr_Clear", "PyOS_double_to_string", "PyMem_Free")


def c_api_address(name: str):
    """The address of CPython's C function ``name`` when it is one of
    :data:`C_API`, else None."""
    if name not in C_API:
        return None
    return ctypes.cast(getattr(ctypes.pythonapi, name), ctypes.c_void_p).value


def new_messages() -> bool:
    """Python 3.12's randrange messages (``empty range in randrange(a, b)``)
    rather than 3.10/3.11's (``empty range for randrange() (a, b, width)``)."""
    return sys.version_info >= (3, 12)
