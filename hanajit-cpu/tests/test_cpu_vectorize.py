"""``np.vectorize(f)(...)`` compiled (``lib/python/vectorize.py``), against NumPy:
NumPy's output dtype (``f`` of the first elements as NumPy scalars), the other
calls on Python numbers, shapes and layouts, numbers beside arrays, empty
arguments, a module-level vectorized function; arguments that broadcast re-run
in the interpreter, and the rest falls back naming the call."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.testing.compare import assert_same_bits
from hanajit.testing.jitted import strict
from hanajit.testing.sourcefile import load_sibling

vc = load_sibling(__file__, "vectorize_cases.py", "hanajit_vectorize_cases")

M = np.arange(-3.0, 9.0).reshape(3, 4)


def check(fn, *args):
    try:
        want = fn(*args)
    except Exception as exc:              # noqa: BLE001 - same exception type
        with pytest.raises(type(exc)):
            strict(fn)(*args)
        return
    assert_same_bits(strict(fn)(*args), want)


@pytest.mark.parametrize("a", [
    np.arange(6.0), M, M.T, M[:, ::2], np.arange(5, dtype=np.int8),
    np.array([1.5, 2.5, 3.5], np.float32),
    np.array([100, 3], np.int8),          # 100 * 100 into int8: NumPy's OverflowError
    np.zeros(0), 2.5, 3, np.float32(1.5)], ids=repr)
def test_one_argument(a):
    check(vc.one, a)
    check(vc.through_global, a)


@pytest.mark.parametrize("a,b", [
    (np.arange(3.0), np.arange(3.0)), (M, M.T.copy()), (np.arange(4), 1.5),
    (2, np.arange(4.0)), (np.int8(3), np.arange(4, dtype=np.int8)),
    (np.arange(3.0), np.arange(6.0).reshape(2, 3)[0]),
    (np.arange(3.0).reshape(1, 3), np.arange(6.0).reshape(2, 3)),   # broadcast: re-run
], ids=repr)
def test_two_arguments(a, b):
    check(vc.two, a, b)
    check(vc.lambdas, a, b)


def test_three_arguments():
    check(vc.three, np.linspace(-2.0, 3.0, 7), np.zeros(7), np.full(7, 1.5))
    check(vc.three, M, M * 0, M * 0 + 2)


@pytest.mark.parametrize("fn,args,why", [
    (vc.two, (np.arange(3.0), np.arange(6.0).reshape(2, 3)), "different numbers"),
    (vc.with_options, (np.arange(3.0),), "made with options"),
])
def test_the_rest_falls_back(fn, args, why):
    with pytest.warns(HanaJitFallbackWarning, match=why):
        got = jit(fn)(*args)
    assert_same_bits(got, fn(*args))


def test_numpy_bool_elements_raise_numpys_error():
    """``sq`` negates the first element, an ``np.bool_`` (NumPy's TypeError): the
    function runs in the interpreter, which raises it."""
    with pytest.warns(HanaJitFallbackWarning, match="NumPy bool"):
        with pytest.raises(TypeError):
            jit(vc.one)(np.array([True, False]))


USER = """
import numpy as np
import hanajit

def f(v):
    return v * {k}

@hanajit.jit
def apply(a):
    return np.vectorize(f)(a)

print(apply(np.arange(3.0)).tolist())
"""


def test_helpers_of_function_arguments_are_not_kept_for_other_processes(tmp_path):
    """Two programs with a function of the same name: the second computes its own
    (the helper specialised at ``f`` is not taken from the library cache)."""
    env = dict(os.environ, HANAJIT_CACHE_DIR=str(tmp_path / "cache"))
    for k in (2, 5):
        src = tmp_path / f"prog{k}"
        src.mkdir()
        (src / "main.py").write_text(USER.format(k=k))
        out = subprocess.run([sys.executable, "main.py"], cwd=src, env=env,
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr[-2000:]
        assert out.stdout.split()[-3:] == ["[0.0,", f"{float(k)},", f"{2.0 * k}]"]
