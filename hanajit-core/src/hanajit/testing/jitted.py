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
    key = (fn, tuple(sorted((name, repr(value)) for name, value in options.items())),
           os.environ.get("HANAJIT_NATIVE_DISPATCH"))
    compiled = _MEMO.get(key)
    if compiled is None:
        from .. import jit
        compiled = _MEMO[key] = jit(fn, **options)
    return compiled


def strict(fn):
    """:func:`jitted` with ``fallback=False``: a fallback fails the test."""
    return jitted(fn, fallback=False)
