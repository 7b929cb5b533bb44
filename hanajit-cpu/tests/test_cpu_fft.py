"""np.fft.fft/ifft/rfft/irfft against NumPy, bit for bit: NumPy's own pocketfft
loops (``lib/numeric/fft_loops.py``) called as ``_raw_fft`` calls them -- input
dtypes (float32 with the default norm runs NumPy's float64 loop), ``n`` shorter or
longer than the input, every norm, axis 0 and -1 of C, Fortran and strided
arrays, 3-D arrays, empty outer axes, NaN/inf/signed zeros, results used in the
function; the output's dtype, shape and strides (NumPy's order K); NumPy's
ValueError for fewer than one point; what falls back."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import jit
from hanajit.testing.jitted import strict as jitted


def fft_n(x, n):
    return np.fft.fft(x, n)


def ifft_n(x, n):
    return np.fft.ifft(x, n)


def rfft_n(x, n):
    return np.fft.rfft(x, n)


def irfft_n(x, n):
    return np.fft.irfft(x, n)


def fft_d(x):
    return np.fft.fft(x)


def ifft_d(x):
    return np.fft.ifft(x)


def rfft_d(x):
    return np.fft.rfft(x)


def irfft_d(x):
    return np.fft.irfft(x)


def fft_0(x):
    return np.fft.fft(x, axis=0)


def ifft_0(x):
    return np.fft.ifft(x, None, 0)


def rfft_0(x):
    return np.fft.rfft(x, axis=0)


def irfft_0(x):
    return np.fft.irfft(x, axis=0)


def fft_1_3d(x):
    return np.fft.fft(x, 5, axis=1)


def irfft_1_3d(x):
    return np.fft.irfft(x, 6, axis=1, norm="ortho")


def fft_ortho(x):
    return np.fft.fft(x, norm="ortho")


def fft_forward(x):
    return np.fft.fft(x, norm="forward")


def fft_backward(x):
    return np.fft.fft(x, norm="backward")


def ifft_ortho(x):
    return np.fft.ifft(x, norm="ortho")


def ifft_forward(x):
    return np.fft.ifft(x, norm="forward")


def ifft_backward(x):
    return np.fft.ifft(x, norm="backward")


def rfft_ortho(x):
    return np.fft.rfft(x, norm="ortho")


def rfft_forward(x):
    return np.fft.rfft(x, norm="forward")


def rfft_backward(x):
    return np.fft.rfft(x, norm="backward")


def irfft_ortho(x):
    return np.fft.irfft(x, norm="ortho")


def irfft_forward(x):
    return np.fft.irfft(x, norm="forward")


def irfft_backward(x):
    return np.fft.irfft(x, norm="backward")


def filtered(x, h):
    return np.fft.ifft(np.fft.fft(x) * h)


def smooth(x, h):
    y = np.fft.irfft(np.fft.rfft(x, axis=0) * h, x.shape[0], axis=0)
    return y.sum() + y[0]


def with_out(x, o):
    return np.fft.fft(x, out=o)


def rfft_3d(x):
    return np.fft.rfft(x, axis=1)


N_FUNCS = {"fft": fft_n, "ifft": ifft_n, "rfft": rfft_n, "irfft": irfft_n}
D_FUNCS = {"fft": fft_d, "ifft": ifft_d, "rfft": rfft_d, "irfft": irfft_d}
AXIS0 = {"fft": fft_0, "ifft": ifft_0, "rfft": rfft_0, "irfft": irfft_0}
NORMS = {(f.__name__.split("_")[0], f.__name__.split("_")[1]): f
         for f in (fft_ortho, fft_forward, fft_backward, ifft_ortho, ifft_forward,
                   ifft_backward, rfft_ortho, rfft_forward, rfft_backward, irfft_ortho,
                   irfft_forward, irfft_backward)}
def same(got, want):
    assert type(got) is type(want)
    if isinstance(want, np.ndarray):
        assert got.dtype == want.dtype
        assert got.shape == want.shape
        # (hanajit's new empty arrays have C strides, NumPy 2's zeros)
        assert got.strides == want.strides or want.size == 0
    assert np.asarray(got).tobytes() == np.asarray(want).tobytes()


def check(fn, *args):
    try:
        want = fn(*args)
    except ValueError as e:             # (irfft's default n of one point: 0)
        with pytest.raises(ValueError) as got:
            jitted(fn)(*args)
        assert str(got.value) == str(e)
        return
    same(jitted(fn)(*args), want)


RNG = np.random.default_rng(7)
DTYPES = (np.float64, np.float32, np.complex128, np.complex64, np.int64)


def data(shape, dt):
    x = RNG.standard_normal(shape) * 4
    if np.dtype(dt).kind == "c":
        x = x + 1j * RNG.standard_normal(shape)
    return x.astype(dt)


def real_ok(name, dt):
    return not (name == "rfft" and np.dtype(dt).kind == "c")


@pytest.mark.parametrize("name,dt", [(name, dt) for dt in DTYPES for name in N_FUNCS
                                     if real_ok(name, dt)])    # (rfft of complex: below)
def test_lengths_and_n(name, dt):
    for length in list(range(1, 18)) + [64, 100, 1000, 1009]:
        x = data(length, dt)
        for n in {length, max(1, length - 3), length + 5, 2 * length + 1}:
            check(N_FUNCS[name], x, n)
        check(D_FUNCS[name], x)


@pytest.mark.parametrize("name", list(N_FUNCS))
def test_int32_uint8_bool(name):
    for dt in (np.int32, np.uint8, np.bool_):
        x = (RNG.integers(0, 3, 13)).astype(dt)
        check(D_FUNCS[name], x)
        check(N_FUNCS[name], x, 20)


@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")
@pytest.mark.parametrize("name", list(N_FUNCS))
def test_special_values(name):
    x = np.array([0.0, -0.0, np.nan, 1.0, np.inf, -np.inf, 2.5, -0.0])
    check(D_FUNCS[name], x)
    check(D_FUNCS[name], np.array([-0.0, -0.0, -0.0, 0.0]))
    if name != "rfft":
        z = np.array([complex(-0.0, 0.0), complex(np.nan, 1), complex(1, np.inf), 3 - 2j])
        check(D_FUNCS[name], z)


@pytest.mark.parametrize("key", list(NORMS))
def test_norms(key):
    name, _ = key
    for dt in (np.float64, np.float32, np.complex64, np.int64):
        if real_ok(name, dt):
            for length in (1, 2, 7, 16, 1009) if name != "irfft" else (2, 7, 16, 1009):
                check(NORMS[key], data(length, dt))


def layouts(shape, dt):
    x = data(shape, dt)
    big = data((2 * shape[0] + 1, 3 * shape[1]), dt)
    return [x, np.asfortranarray(x), big[::2, ::3], big[::-2, 1::3], x.T.copy().T,
            data(shape[::-1], dt).T, big[1:shape[0] + 1, :shape[1]], x[:, ::-1]]


@pytest.mark.parametrize("name,dt", [(name, dt) for dt in (np.float64, np.complex64)
                                     for name in N_FUNCS if real_ok(name, dt)])
def test_axes_and_layouts(name, dt):
    for shape in ((5, 8), (6, 7), (1, 9), (9, 1), (4, 4)):
        for x in layouts(shape, dt):
            check(D_FUNCS[name], x)
            check(AXIS0[name], x)
            check(N_FUNCS[name], x, 6)


def test_3d_and_empty_outer():
    for x in (data((3, 4, 5), np.complex128), np.asfortranarray(data((3, 4, 2), np.float32)),
              data((2, 3, 4), np.int64)):
        check(fft_1_3d, x)
        check(irfft_1_3d, x)
    check(fft_d, np.zeros((0, 5)))
    check(rfft_d, np.zeros((3, 0, 5)))
    check(fft_0, np.zeros((5, 0), np.complex64))
    check(fft_n, np.zeros(0), 4)
    check(irfft_n, np.zeros((0, 2)), 3)
    # (NumPy's irfft of an empty axis reads past it: the interpreter runs it)
    assert jitted(irfft_n)(np.zeros((2, 0)), 3).shape == (2, 3)


def test_used_inside():
    for length in (8, 13, 100):
        x = data(length, np.float64)
        h = data(length, np.complex128)
        check(filtered, x, h)
        check(filtered, x.astype(np.float32), h.astype(np.complex64))
        xr = data((length, 3), np.float64)
        check(smooth, xr, data((length // 2 + 1, 1), np.float64))


@pytest.mark.parametrize("name", list(N_FUNCS))
def test_invalid_n(name):
    for n in (0, -3):
        with pytest.raises(ValueError) as want:
            N_FUNCS[name](np.ones(4), n)
        with pytest.raises(ValueError) as got:
            jitted(N_FUNCS[name])(np.ones(4), n)
        assert str(got.value) == str(want.value)
    with pytest.raises(ValueError) as want:
        D_FUNCS[name](np.ones((2, 0)))
    with pytest.raises(ValueError) as got:
        jitted(D_FUNCS[name])(np.ones((2, 0)))
    assert str(got.value) == str(want.value)
    if name == "irfft":                 # default n: (1 - 1) * 2
        with pytest.raises(ValueError, match=r"\(0\)"):
            jitted(irfft_d)(np.ones(1, complex))


def test_fallbacks():
    def quiet(fn, *args):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return jit(fn)(*args)
    x = data((3, 4, 6), np.float64)
    v = x[:, ::2, ::-1]                 # a strided 3-D view: NumPy's order of the output
    same(quiet(rfft_3d, v), rfft_3d(v))
    o = np.empty(6, complex)
    same(quiet(with_out, x[0, 0], o), with_out(x[0, 0], o))
    with pytest.raises(TypeError):      # rfft of complex: NumPy's own TypeError
        quiet(rfft_d, data(4, np.complex128))
    with pytest.raises(Exception):
        jit(rfft_d, fallback=False)(data(4, np.complex128))


def test_refused_where_code_runs_outside_python():
    from hanajit.errors import UnsupportedError
    with pytest.raises(UnsupportedError, match="pocketfft loops"):
        jit(fft_d).ir_module("(float64[:],)")   # what exporters compile (host_calls=False)


LATE_IMPORT = '''
import random, sys, warnings
import numpy as np
import numpy.random
import hanajit
warnings.simplefilter("error")

def first(a):
    return np.sum(np.sqrt(a))

def later(a):
    return np.fft.fft(a)

assert "numpy.fft" not in sys.modules        # (NumPy 2 imports it on first use)
hanajit.jit(first)(np.arange(3.0))           # the registry resolves NumPy's functions
a = np.arange(5.0)
assert hanajit.jit(later)(a).tobytes() == later(a).tobytes()
print("ok")
'''


def test_numpy_fft_imported_after_the_first_compile(tmp_path):
    """``np.fft`` is imported by NumPy on first use, after the registry first
    resolved NumPy's functions: its functions are found then."""
    import subprocess
    import sys
    script = tmp_path / "late_fft.py"
    script.write_text(LATE_IMPORT)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]
