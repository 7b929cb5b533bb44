"""Where Python's ``random`` generators keep their state, for compiled calls.

A ``random.Random`` is CPython's ``_random.Random`` (``Modules/_randommodule.c``)
with a Python ``__dict__``: ``PyObject_HEAD``, ``int index`` at byte 16 and
``uint32_t state[624]`` at byte 20 -- the Mersenne Twister that ``random()``,
``getrandbits()`` and ``seed()`` use -- and ``gauss_next``, the second value
``gauss()`` keeps, an ordinary instance attribute.  Compiled code reads and
writes the MT words in place (``prims.pyrandom_mt``: 625 uint32 from byte 16,
the index first) and ``gauss_next`` through three small callbacks into this
process (``hj.host.pyrandom_gauss_*``, which the CPU engine links).  The
module-level functions (``random.random`` ...) are bound methods of one
instance, whose address the engine links as ``hj.python.random_global``.

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


def mt_view(address: int):
    """The 625 uint32 of a generator's MT: the index, then the state words."""
    return (ctypes.c_uint32 * 625).from_address(address + 16)


def global_instance():
    """The instance behind the module's functions (``random.random.__self__``),
    or None when they are not bound methods of an exact ``random.Random``."""
    import random
    inst = getattr(random.random, "__self__", None)
    return inst if type(inst) is random.Random else None


def global_addresses() -> dict:
    """``hj.python.random_global``: a cell holding the global instance's address
    (kept for the process: the module's functions stay bound to it)."""
    inst = global_instance()
    if inst is None or not layout_ok():
        from hanajit.errors import UnsupportedError
        raise UnsupportedError("Python's global random generator is not a "
                               "random.Random hanajit knows", construct="random")
    cell = _state.get("cell")
    if cell is None or cell.value != id(inst):
        cell = _state["cell"] = ctypes.c_int64(id(inst))
        _state["inst"] = inst
    return {"hj.python.random_global": ctypes.addressof(cell)}


# ``gauss_next``: 1 when it is a float (``gauss_value`` reads it), 0 when None,
# 2 for anything else (compiled code then refuses the call)
def gauss_has(address) -> int:
    z = getattr(_object(address), "gauss_next", ())
    return 1 if type(z) is float else 0 if z is None else 2


def gauss_value(address) -> float:
    return _object(address).gauss_next


def gauss_set(address, has, value) -> None:
    _object(address).gauss_next = value if has else None


def _object(address):
    return ctypes.cast(ctypes.c_void_p(address), ctypes.py_object).value


_CALLBACKS = {
    "pyrandom_gauss_has": (ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p), gauss_has),
    "pyrandom_gauss_value": (ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_void_p),
                             gauss_value),
    "pyrandom_gauss_set": (ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p,
                                            ctypes.c_double),
                           lambda a, has, v: gauss_set(a, bool(has), v)),
}


def callback_address(name: str):
    """The C address of callback ``name`` (``hj.host.<name>``), or None when
    ``name`` is not one of these.  The ctypes thunks take the GIL themselves."""
    if name not in _CALLBACKS:
        return None
    fn = _state.get(name)
    if fn is None:
        proto, impl = _CALLBACKS[name]
        fn = _state[name] = proto(impl)
    return ctypes.cast(fn, ctypes.c_void_p).value


def new_messages() -> bool:
    """Python 3.12's randrange messages (``empty range in randrange(a, b)``)
    rather than 3.10/3.11's (``empty range for randrange() (a, b, width)``)."""
    return sys.version_info >= (3, 12)
