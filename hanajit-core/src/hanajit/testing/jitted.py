"""One compiled function per Python function and options, for the whole test
process: a sweep that checks a function on many arguments compiles each
specialisation once, where a fresh ``jit(f)`` per case starts with none and
compiles every case again.

::

    from hanajit.testing.jitted import jitted

    for a in cases:
        assert same(jitted(f, fallback=False)(a), f(a))

Use ``jit`` itself where a test needs a function of its own: one whose first
compile, warnings, specialisation list or lifetime the test checks.
"""
from __future__ import annotations

import os

_MEMO: dict = {}


def jitted(fn, **options):
    """``jit(fn, **options)``, made once per ``(fn, options)`` and dispatch mode
    (``HANAJIT_NATIVE_DISPATCH``, which a function reads when it is made:
    :mod:`.dispatch_modes`) and kept."""
    return _memo(fn, options, ())


def jitted_for(fn, args, **options):
    """:func:`jitted`, one per ``(fn, options)`` and also per the dispatch types of
    ``args`` (call it with ``args``): a sweep over layouts compiles every layout it
    meets, where one shared function would run a C- or F-ordered array through a
    specialisation made before for an any-layout ("A") array of the same dtype and
    ndim (which accepts it), and never compile the contiguous code."""
    from ..typing_rules import argtypeof
    return _memo(fn, options, tuple(map(argtypeof, args)))


def _memo(fn, options, types):
    key = (fn, tuple(sorted((name, repr(value)) for name, value in options.items())),
           os.environ.get("HANAJIT_NATIVE_DISPATCH"), types)
    compiled = _MEMO.get(key)
    if compiled is None:
        from .. import jit
        compiled = _MEMO[key] = jit(fn, **options)
    return compiled


def strict(fn):
    """:func:`jitted` with ``fallback=False``: a fallback fails the test."""
    return jitted(fn, fallback=False)
