"""``np.random.Generator`` arguments in the generated dispatcher (``GeneratorType``),
Python's ``random.Random`` (``PyRandomType``: its address) and
``np.random.RandomState`` (``RandomStateType``: its ``bitgen_t`` copy's address).

A ``Generator`` keeps a copy of its bit generator's ``bitgen_t`` (state pointer,
``next_uint64``, ``next_uint32``, ``next_double``, ``next_raw``) inside the
object, which its own methods draw through.  The Python path reads the same four
words from the documented ``bit_generator.ctypes`` interface
(``cwrapper.generator_words``); the dispatcher loads them from the object, at
an offset found once per process: on generators of every bit generator NumPy
ships, the words at that offset must equal what ``ctypes`` reports, at the same
offset for all.  If anything disagrees (another NumPy build or version), calls
with a generator take the Python dispatcher, with the same results.

The check is ``ob_type`` equal to ``np.random.Generator`` (subclasses go to the
Python dispatcher, as ``typeof`` gives them no type).  The argument is borrowed
for the call; its state is only read and written through the state pointer.
"""
from __future__ import annotations

import ctypes
import sys

from llvmlite import ir

from hanajit.ir import types as T
from hanajit.lowering.llvm import I64, PTR

from .nativebox import OB_TYPE, STRUCTURED, CApi, continue_if, field

_state: dict = {}
_GAUSS_NEXT = sys.intern("gauss_next")      # outlives the generated code


def bitgen_offset():
    """The byte offset of the ``bitgen_t`` copy in a ``Generator``, or None."""
    if "offset" not in _state:
        try:
            _state["offset"] = _probe()
        except Exception:           # pragma: no cover - any surprise: Python path
            _state["offset"] = None
    return _state["offset"]


def _probe():
    import numpy as np

    from .cwrapper import generator_words
    if ctypes.sizeof(ctypes.c_void_p) != 8:
        return None
    found = set()
    kinds = ("PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64")
    for kind in kinds:
        for seed in (1, 2):
            g = np.random.Generator(getattr(np.random, kind)(seed))
            want = list(generator_words(g))
            nwords = type(g).__basicsize__ // 8
            words = (ctypes.c_uint64 * nwords).from_address(id(g))
            hits = {8 * k for k in range(2, nwords - 3) if list(words[k:k + 4]) == want}
            if len(hits) != 1:
                return None
            found |= hits
    return found.pop() if len(found) == 1 else None


def exactly(b, obj, cls, fail, name):
    """Go on only when ``obj``'s type is ``cls`` itself (not a subclass)."""
    same = b.icmp_unsigned("==", field(b, obj, OB_TYPE), CApi.address(id(cls)))
    continue_if(b, same, fail, name)


class GeneratorBoxing:
    """Emitters for ``GeneratorType`` (arguments only)."""

    box = None

    @staticmethod
    def supported(t) -> bool:
        return bitgen_offset() is not None

    @staticmethod
    def check(cx, b, obj, t, fail):
        import numpy as np
        exactly(b, obj, np.random.Generator, fail, "generator.type")

    @staticmethod
    def unbox(cx, b, obj, t, fail):
        base = bitgen_offset()
        return [field(b, obj, base + 8 * k, I64) for k in range(4)]


class PyRandomBoxing:
    """Emitters for ``PyRandomType`` (a ``random.Random`` argument, exactly that
    class): the object's address and three zero words, as ``cwrapper`` passes."""

    box = None

    @staticmethod
    def supported(t) -> bool:
        from hanajit.lib.random.python_random_state import layout_ok
        return layout_ok()

    @staticmethod
    def check(cx, b, obj, t, fail):
        """Exactly ``random.Random``, and no instance attribute but ``gauss_next``
        (``r.random = f`` would shadow a method), as ``typeof`` checks."""
        import random
        exactly(b, obj, random.Random, fail, "pyrandom.type")
        d = b.call(cx.PyObject_GenericGetDict, [obj, ir.Constant(PTR, None)])
        continue_if(b, b.icmp_unsigned("!=", d, ir.Constant(PTR, None)), fail,
                    "pyrandom.dict")
        size = b.call(cx.PyDict_Size, [d])
        has = b.call(cx.PyDict_Contains, [d, CApi.address(id(_GAUSS_NEXT))])
        b.call(cx.Py_DecRef, [d])
        only = b.or_(b.icmp_signed("==", size, ir.Constant(I64, 0)),
                     b.and_(b.icmp_signed("==", size, ir.Constant(I64, 1)),
                            b.icmp_signed("==", has, ir.Constant(ir.IntType(32), 1))))
        continue_if(b, only, fail, "pyrandom.attrs")

    @staticmethod
    def unbox(cx, b, obj, t, fail):
        zero = ir.Constant(I64, 0)
        return [b.ptrtoint(obj, I64), zero, zero, zero]


class RandomStateBoxing:
    """Emitters for ``RandomStateType`` (a ``np.random.RandomState`` argument,
    exactly that class): the address of its ``bitgen_t`` copy and three zero
    words, as ``cwrapper`` passes."""

    box = None

    @staticmethod
    def supported(t) -> bool:
        from hanajit.lib.random.legacy_state import randomstate_offset
        return randomstate_offset() is not None

    @staticmethod
    def check(cx, b, obj, t, fail):
        import numpy as np
        exactly(b, obj, np.random.RandomState, fail, "randomstate.type")

    @staticmethod
    def unbox(cx, b, obj, t, fail):
        from hanajit.lib.random.legacy_state import randomstate_offset
        zero = ir.Constant(I64, 0)
        at = b.add(b.ptrtoint(obj, I64), ir.Constant(I64, randomstate_offset()))
        return [at, zero, zero, zero]


STRUCTURED[T.GeneratorType] = GeneratorBoxing
STRUCTURED[T.PyRandomType] = PyRandomBoxing
STRUCTURED[T.RandomStateType] = RandomStateBoxing
