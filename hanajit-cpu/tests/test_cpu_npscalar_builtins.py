"""Python's builtins and ``math`` functions of NumPy scalars of every type, compiled,
against the interpreter: the same value (floats bit for bit), the same type, the
same exception.  ``int(x)`` and ``round(x)`` give Python ints (beyond int64 the call
re-runs in the interpreter), ``x.real``/``x.imag``/``x.conjugate()`` keep
NumPy scalars (of ``np.bool_`` too), ``math.floor``/``ceil`` round the float of a NumPy
integer, ``math.trunc`` and ``round`` raise where the scalar type has no such
method, ``round(x, n)`` and ``divmod`` keep NumPy scalars, and a local that is a
Python int on one path and a uint64 on another runs in the interpreter.
(``min``/``max``/``a if c else b`` of mixed types give the common type:
``docs/semantics.md``.)"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.testing.sourcefile import load_module

BODIES = {
    "float_of": "return float(x) * 0.1",
    "int_of": "return int(x) * 3",
    "int_floordiv": "return int(x) // 2 ** 3",
    "round_int": "return round(x)",
    "round_digits": "return round(x, 1)",
    "round_tens": "return round(x, -1)",
    "floor": "return math.floor(x)",
    "ceil": "return math.ceil(x)",
    "trunc": "return math.trunc(x)",
    "sqrt": "return math.sqrt(abs(x))",
    "item": "return x.item() * 2",
    "abs": "return abs(x)",
    "divmod": "return divmod(x, 7)",
    "divmod_float": "return divmod(x, 0.5)",
    "power": "return x ** 2",
    "bool_plus": "return bool(x) + 1",
    "sum_list": "return sum([x, x, 1])",
    "hash_step": "h = 17\n    h = h * 31 + x\n    return h",
    "accumulate": "s = 0\n    for i in range(3):\n        s = s + x\n    return s",
    "accumulate_float": "s = 0.0\n    for i in range(3):\n        s += x\n    return s",
    "real": "return x.real",
    "imag": "return x.imag",
    "conjugate": "return x.conjugate()",
    "is_integer": "return float(x).is_integer(), x.is_integer()",
}
VALUES = [np.int8(-7), np.int8(127), np.uint8(200), np.int16(-300), np.uint16(65535),
          np.int32(-5), np.uint32(7), np.int64(9), np.int64(-2**63), np.int64(2**62 + 1),
          np.uint64(2**64 - 1), np.uint64(2**63 + 3), np.float32(2.5), np.float32(-0.0),
          np.float64(3.75), np.float64(-2.5), np.bool_(True), np.bool_(False),
          np.complex64(1 - 2j), np.complex128(-0.0 + 3j)]


def _outcome(f, x):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            return "ok", f(x)
        except HanaJitFallbackWarning as exc:      # (its reason in the report)
            return "fell back", str(exc)
        except Exception as exc:         # noqa: BLE001 - compared by class
            return "raise", type(exc)


def _same(got, want) -> bool:
    if type(got) is not type(want):
        return False
    if isinstance(got, tuple):
        return len(got) == len(want) and all(_same(a, b) for a, b in zip(got, want))
    if isinstance(got, (float, np.floating)):
        return np.array(got).tobytes() == np.array(want).tobytes()
    return got == want


@pytest.mark.parametrize("name", sorted(BODIES))
def test_builtins_of_numpy_scalars_match_the_interpreter(name):
    mod = load_module(f"import math\n\n\ndef f(x):\n    {BODIES[name]}\n", name)
    compiled = jit(mod.f)
    for x in VALUES:
        want = _outcome(mod.f, x)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", HanaJitFallbackWarning)
            got = _outcome(compiled, x)
        assert got[0] == want[0] and _same(got[1], want[1]), (x, got, want)


def test_a_python_int_then_a_uint64_runs_in_the_interpreter():
    """No one type holds a Python int and a uint64 (float64, their NumPy common
    type, rounds both): the function falls back, saying how to keep it compiled."""
    mod = load_module("def f(x, n):\n    s = 0\n    for i in range(n):\n"
                      "        s = s + x\n    return s\n", "weak_uint64")
    with pytest.warns(HanaJitFallbackWarning, match=r"'s' is a Python int .* uint64"):
        got = jit(mod.f)(np.uint64(2**64 - 1), 3)
    assert type(got) is np.uint64 and got == mod.f(np.uint64(2**64 - 1), 3)
    g = load_module("import numpy as np\n\n\ndef f(x, n):\n    s = np.uint64(0)\n"
                    "    for i in range(n):\n        s = s + x\n    return s\n", "u64")
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        got = jit(g.f)(np.uint64(2**64 - 1), 3)
    assert type(got) is np.uint64 and got == np.uint64(2**64 - 3)


def _round(x, n):
    return round(x, n)


@pytest.mark.parametrize("t", [np.float64, np.float32, np.int64, np.int8, np.uint64,
                               np.int32])
def test_round_of_numpy_scalars_is_numpys(t):
    """round(np.float64(770.0915), 3) is NumPy's 770.092 (x * 1000, rint, / 1000),
    not Python's correctly rounded 770.091; integers go through float64 for n < 0."""
    rng = np.random.default_rng(5)
    f = jit(_round)
    if np.issubdtype(t, np.floating):
        # decimal-looking values (ties after scaling), nudged
        xs = [round(v, int(k)) for v, k in zip(rng.uniform(-1000, 1000, 3000),
                                                rng.integers(0, 5, 3000))]
        xs = np.array(xs) + rng.choice([0.0, 1e-12, -1e-12, 5e-4], 3000)
        xs = list(xs) + [0.0, -0.0, np.inf, np.nan, 1e300, 2.5, -0.5]
        ns = rng.integers(-3, 12, len(xs))
    else:
        info = np.iinfo(t)
        xs = list(rng.integers(info.min, info.max, 3000, dtype=t, endpoint=True)) + [
            info.min, info.max, 0, 5, 15, 25]
        ns = rng.integers(-20, 3, len(xs))
    xs, ns = xs + [xs[0]] * 4, list(ns) + [2**31, -2**31 - 1, 2**31 - 1, 2**40]
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        for x, n in zip(xs, ns):
            want, got = _outcome(lambda v: _round(v, int(n)), t(x)), \
                _outcome(lambda v: f(v, int(n)), t(x))
            assert got[0] == want[0] and _same(got[1], want[1]), (t(x), n, got, want)


def _weighted(a):
    t = 0
    for i, v in enumerate(a):
        t += i * v
    return t


def _pairs(a, b):
    t = 0.0
    for k, (x, y) in enumerate(zip(a, b)):
        t = t + k + x * y
    return t


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int64, np.uint64, np.float32,
                                   np.float64, np.complex64])
def test_enumerate_index_is_a_python_int(dtype):
    """``for i, v in enumerate(a)``: ``i`` is a Python int (weak: ``i * v`` keeps
    v's type, and an ``i`` beyond int8 raises NumPy's OverflowError for int8 ``v``)
    while ``v`` is a NumPy scalar -- not both NumPy scalars."""
    for n in (3, 200):
        a = (np.arange(n) % 5 + 1).astype(dtype)
        want = _outcome(_weighted, a)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", HanaJitFallbackWarning)   # (uint64: falls back)
            got = _outcome(jit(_weighted), a)
        assert got[0] == want[0] and _same(got[1], want[1]), (n, got, want)
        b = a[::-1].copy()
        want, got = _outcome(lambda x: _pairs(x, b), a), _outcome(lambda x: jit(_pairs)(x, b), a)
        assert got[0] == want[0] and _same(got[1], want[1]), (n, got, want)
