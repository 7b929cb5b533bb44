"""print() in compiled functions: a call back into Python that prints exactly the
interpreter's text, in order with other Python output, into the current
``sys.stdout`` (pytest's capsys, a redirect); what it cannot print exactly falls
back with a warning naming the reason."""
import contextlib
import io
import warnings

import numpy as np
import pytest

from hanajit import jit, prange
from hanajit.errors import HanaJitFallbackWarning, HanaJitParallelWarning
from hanajit.testing.sourcefile import run_twice_cached


# ------------------------------------------------------------------ kernels
def scalars(i, x, b):
    print(i, x, b, None, "text", -i)
    print(0.1, 1e300, -0.0, 1e16, 1e-5, 123456789.0, 2.5e-310)
    print(x * 1e308 * 10.0, -x * 1e308 * 10.0, x * 1e308 * 10.0 - x * 1e308 * 10.0)
    print(True, False, i > 2, not b)
    print(complex(x, -i), 1j, complex(-0.0, 0.0))
    print(i ** 3 if i < 3 else i)
    return i + 1


def numpy_scalars(a, i):
    print(np.float32(0.1), np.float32(a[0]), a[0], np.float64(a[1]), a[1] * 2)
    print(np.int8(i), np.int8(-i), np.uint8(i), np.uint64(i), np.int32(i), np.int16(-i))
    print(np.bool_(i), a[0] > a[1], np.complex64(a[0]), np.complex128(complex(a[0], 1.0)))
    print(~np.uint64(i), ~np.uint64(0), np.int64(-9223372036854775807 - 1))
    return a.sum()


def options(x):
    print(x, x, sep="")
    print(x, "b", sep=", ", end="!\n")
    print("no newline", end="")
    print(x, end=None, sep=None)
    print(x, flush=True)
    print()
    print(sep="-", end="<end>\n")
    return x


def fstrings(x, i, f32):
    print(f"x={x} i={i} f32={f32}")
    print(f"{x:.3f}|{x:>12.4e}|{i:05d}|{i:x}|{i:+}|{x:%}|{i:,}|{x:_^20}")
    print(f"{x!r} {i!r} {f32!r} {f32!s} {x!s} {i!a} {'lit'!r:>6} {None}")
    print(f"{f32:.10f} {np.float32(x)!r} {np.int8(i)!r} {np.int8(i):>4}", f"{{braces}} {i}}}", 7)
    print(f"{x:g} {x * 1e20:g} {i / 3:.2}")
    return i


def loop_branch(a):
    s = 0.0
    for k in range(a.shape[0]):
        if a[k] > 0:
            print("pos", k, a[k])
            s += a[k]
        elif a[k] < 0:
            print(f"neg {k}: {a[k]:.2f}")
        else:
            continue
        s = s * 1.5
    print("total", s)
    return s


def vector_loop(a, b):
    n = 0
    for k in range(a.shape[0]):
        b[k] = a[k] * 2.0
        if k % 4 == 0:
            print(k)
        n += 1
    return n


def parallel_loop(a, out):
    for k in prange(a.shape[0]):
        out[k] = a[k] + 1.0
        print("item", k, out[k])
    return out.sum()


def to_file(x):
    import sys
    print(x, file=sys.stderr)
    return x


def of_tuple(a):
    t = (a, 2)
    print(t)
    return a


def nested_spec(x, w):
    print(f"{x:{w}}")
    return x


def arrays(a, b):
    c = a * 2
    print(a, b)
    print(c, a[::-1], a.T, f"{a[1:]!r}|{b!s}")
    print(np.arange(5.0) / 3, np.zeros((2, 0)), np.float32(1 / 3) * np.ones(2, np.float32))
    return c.sum()


def either(a, c):
    x = 0.0
    if c:
        x = a[0]
    print(x, f"{x} {x:.2f}")
    return c


def either_repr(a, c):
    x = 0.0
    if c:
        x = a[0]
    print(f"{x!r}")
    return c


def one_print(x):
    print("x is", x)
    return x * 2.0


def bad_spec(x):
    print(f"{x:d}")
    return x


# ------------------------------------------------------------------ helpers
def _compiled(fn):
    return jit(fn, fallback=False)


SCALARS, NUMPY_SCALARS, OPTIONS, FSTRINGS = (_compiled(scalars), _compiled(numpy_scalars),
                                             _compiled(options), _compiled(fstrings))
ARRAYS = _compiled(arrays)


def _same(capsys, fn, jitted, *args):
    """Run ``fn`` in the interpreter and compiled: the same output and result."""
    expected = fn(*args)
    want = capsys.readouterr().out
    got = jitted(*args)
    out = capsys.readouterr().out
    assert out == want
    if isinstance(expected, np.ndarray):
        assert got.tobytes() == expected.tobytes()
    else:
        assert type(got) is type(expected) and repr(got) == repr(expected)
    return out


# ------------------------------------------------------------------ tests
@pytest.mark.parametrize("args", [(3, 0.1, True), (0, -2.5, False), (-7, 1.0, True)])
def test_python_scalars(capsys, args):
    _same(capsys, scalars, SCALARS, *args)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_numpy_scalars(capsys, dtype):
    a = np.array([0.1, 1 / 3, 2.0], dtype=dtype)
    out = _same(capsys, numpy_scalars, NUMPY_SCALARS, a, 3)
    assert "0.1" in out


def test_sep_end_flush(capsys):
    _same(capsys, options, OPTIONS, 2.5)
    _same(capsys, options, OPTIONS, -1)


@pytest.mark.parametrize("args", [(0.1, 5, np.float32(0.1)), (-1234.5678, -25, np.float32(3)),
                                  (float("nan"), 0, np.float32("inf"))])
def test_fstrings(capsys, args):
    _same(capsys, fstrings, FSTRINGS, *args)


def test_loops_and_branches(capsys):
    jitted = _compiled(loop_branch)
    for a in (np.array([1.0, -2.25, 0.0, 3.5]), np.zeros(0), np.array([-0.0, np.nan])):
        _same(capsys, loop_branch, jitted, a)


def test_print_in_a_loop_llvm_would_vectorise(capsys):
    jitted = _compiled(vector_loop)
    a = np.arange(37.0)
    b1, b2 = np.zeros(37), np.zeros(37)
    expected = vector_loop(a, b1)
    want = capsys.readouterr().out
    assert jitted(a, b2) == expected
    assert capsys.readouterr().out == want
    assert b2.tobytes() == b1.tobytes()


def test_prange_prints_every_line(capsys):
    jitted = jit(parallel_loop, fallback=False, parallel=True)
    a = np.arange(50.0)
    out = np.zeros(50)
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitParallelWarning)    # (runs in parallel)
        got = jitted(a, out)
    assert got == parallel_loop(a, np.zeros(50))
    lines = capsys.readouterr().out.splitlines()
    want = sorted(f"item {k} {k + 1.0}" for k in range(50))
    assert sorted(lines[:len(lines) // 2]) == want == sorted(lines[len(lines) // 2:])


def test_interleaves_with_python_output(capsys):
    print("before")
    SCALARS(1, 2.0, False)
    print("after")
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "before" and out[1] == "1 2.0 False None text -1" and out[-1] == "after"


def test_prints_into_the_current_stdout(capsys):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        OPTIONS(7)
    options(7)
    assert buf.getvalue() == capsys.readouterr().out
    assert buf.getvalue().startswith("77\n")


@pytest.mark.parametrize("fn, reason", [
    (to_file, "file"),
    (of_tuple, "printing a value of type"),
    (nested_spec, "a format specification with replacement fields"),
    (either_repr, "a NumPy scalar on some paths"),
    (bad_spec, "format specification 'd'"),
])
def test_fallbacks_warn(capsys, fn, reason):
    jitted = jit(fn)
    args = {nested_spec: (1.5, 8), either_repr: (np.array([2.5]), False)}.get(fn, (1.5,))
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", HanaJitFallbackWarning)
        try:
            want = fn(*args)
        except ValueError:
            want = None
        out = capsys.readouterr()
        if want is None:
            with pytest.raises(ValueError):
                jitted(*args)
        else:
            assert repr(jitted(*args)) == repr(want)
            assert capsys.readouterr() == out
    assert any(reason in str(w.message) for w in seen
               if issubclass(w.category, HanaJitFallbackWarning)), [str(w.message) for w in seen]


@pytest.mark.parametrize("a, b", [
    (np.arange(6.0).reshape(2, 3), np.array([True, False])),
    (np.asfortranarray(np.arange(6).reshape(2, 3)), np.zeros((0, 3), np.complex64)),
    (np.arange(12, dtype=np.uint8).reshape(3, 4)[::-1, ::2], np.array([1 + 2j, -0.0j])),
    (np.array([[np.nan, -0.0, np.inf]], np.float32), np.arange(2000, dtype=np.int32)),
])
def test_arrays(capsys, a, b):
    _same(capsys, arrays, ARRAYS, a, b)


def test_python_number_or_numpy_scalar_by_path(capsys):
    jitted = _compiled(either)
    for c in (True, False):
        _same(capsys, either, jitted, np.array([2.5]), c)


def test_refused_where_code_runs_outside_python():
    from hanajit.errors import UnsupportedError
    jitted = jit(one_print)
    assert jitted(1.5) == 3.0
    with pytest.raises(UnsupportedError, match="calls back into Python"):
        jitted.ir_module("(float64,)")          # what exporters compile (host_calls=False)
    with pytest.raises(UnsupportedError, match="plain C function"):
        jitted.specialize("float64")


CACHED = '''
import contextlib, io
import numpy as np
from hanajit import jit

@jit(cache=True)
def kernel(a, n):
    s = 0.0
    for k in range(n):
        s += a[k]
        print(f"k={k} s={s:.4f}", np.float32(a[k]), k > 1, sep=" | ")
    print("done", s)
    return s

buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    r = kernel(np.array([0.1, 0.2, 0.3, 0.4]), 4)
print(repr((buf.getvalue(), r)))
'''


def test_disk_cache_prints_the_same(tmp_path):
    lines = run_twice_cached(tmp_path, CACHED, "print_kernels", "test-cpu-print")
    want = ("k=0 s=0.1000 | 0.1 | False\nk=1 s=0.3000 | 0.2 | False\n"
            "k=2 s=0.6000 | 0.3 | True\nk=3 s=1.0000 | 0.4 | True\ndone 1.0\n")
    assert lines[0] == lines[1] == repr((want, np.float64(1.0)))
    assert any((tmp_path / "cache").rglob("*"))
