"""Shared pieces of the random-program fuzzers that compare compiled functions
with NumPy (``hanajit-cpu/tests/test_cpu_*_fuzz.py``): each fuzzer writes, from
a seed, the source of one function ``f`` and its arguments; these run it both
ways and report the outcomes, which the fuzzer compares its own way.

In CI the fuzzers draw the same seeds every run (:data:`DERANDOMIZE`), so a
failure is reproducible and CI does not turn red on a case no change caused;
``HANAJIT_FUZZ_RANDOM=1 pytest hanajit-cpu/tests/test_cpu_ufunc_fuzz.py
--hypothesis-seed=N`` (with more examples through a hypothesis profile) explores
new ones."""
from __future__ import annotations

import os
import random
import warnings

import numpy as np

from ..api import jit
from ..errors import HanaJitFallbackWarning
from .sourcefile import load_module

DERANDOMIZE = not os.environ.get("HANAJIT_FUZZ_RANDOM")


def builtin_class(exc: BaseException) -> type:
    """The builtin exception class ``exc`` is (NumPy raises subclasses of them)."""
    return next(c for c in type(exc).__mro__ if c.__module__ == "builtins")


def outcome(fn, args, result=np.asarray):
    """``("ok", result(fn(*args)))`` or ``("raise", builtin exception class)``,
    NumPy's RuntimeWarning and DeprecationWarning silenced."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            warnings.simplefilter("ignore", DeprecationWarning)
            r = fn(*args)
        return "ok", result(r)
    except Exception as exc:      # noqa: BLE001 - compare exception types
        return "raise", builtin_class(exc)


def copies(args) -> list:
    return [a.copy(order="K") if isinstance(a, np.ndarray) else a for a in args]


def run_both(src: str, args: list, want_args=None, result=np.asarray, stem="fuzz",
             compiled: list | None = None):
    """(compiled outcome, interpreted outcome) of the function ``f`` in ``src``:
    the interpreter runs on ``want_args`` (default: copies of ``args``), the
    compiled function (fallback warnings silenced) on ``args``.  ``compiled``, a
    list, gets whether the call ran compiled code (no fallback warning; compiled
    code raising counts): a fuzzer's check that most of its cases compile, on
    cases it compares too, compiles each once."""
    mod = load_module(src, stem)
    want = outcome(mod.f, copies(args) if want_args is None else want_args, result)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", HanaJitFallbackWarning)
        got = outcome(jit(mod.f), args, result)
    fell_back = False
    for w in caught:            # (the other warnings as they would have been given)
        if issubclass(w.category, HanaJitFallbackWarning):
            fell_back = True
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    if compiled is not None:
        compiled.append(not fell_back)
    return got, want


def with_layout(rng: random.Random, a: np.ndarray, choices=("C", "C", "F", "rev")):
    """``a`` as it is, Fortran-ordered, or reversed along its first axis."""
    layout = rng.choice(choices)
    if layout == "F":
        return np.asfortranarray(a)
    if layout == "rev" and a.ndim:
        return a[::-1]
    return a
