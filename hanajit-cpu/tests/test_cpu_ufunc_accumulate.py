"""``np.maximum.accumulate`` / ``np.minimum.accumulate`` compiled: NumPy's values (bit
for bit: NaN, signed zeros), dtypes, shapes; what is not compiled falls back."""
import warnings

import numpy as np
import pytest

from hanajit import HanaJitFallbackWarning, jit


def _max(a):
    return np.maximum.accumulate(a)


def _min(a):
    return np.minimum.accumulate(a)


def _max_ax1(a):
    return np.maximum.accumulate(a, axis=1)


def _min_ax_last(a):
    return np.minimum.accumulate(a, -1)


def _drawdown(p):
    peak = np.maximum.accumulate(p)
    return ((p - peak) / peak).min()


def _list():
    return np.maximum.accumulate([3, 1, 4, 1, 5])


KERNELS = {f: jit(f, fallback=False) for f in
           (_max, _min, _max_ax1, _min_ax_last, _drawdown, _list)}


def same(got, want):
    g, w = np.asarray(got), np.asarray(want)
    assert type(got) is type(want)
    assert g.dtype == w.dtype and g.shape == w.shape
    assert g.tobytes() == w.tobytes()


def _special(dtype, n=64):
    rng = np.random.default_rng(5)
    a = rng.standard_normal(n).astype(dtype)
    a[rng.integers(0, n, 8)] = 0.0
    a[rng.integers(0, n, 8)] = -0.0
    a[n // 2] = np.inf
    a[n // 3] = -np.inf
    return a


ARRAYS = [
    np.random.default_rng(1).integers(-100, 100, 50),
    np.random.default_rng(2).integers(-100, 100, 50).astype(np.int32),
    np.random.default_rng(3).integers(0, 255, 50).astype(np.uint8),
    np.random.default_rng(4).random(40) < 0.3,
    _special(np.float64),
    _special(np.float32),
    np.array([-0.0, 0.0, -0.0, 0.0, 0.0, -0.0] * 4),
    np.array([1.0, 2.0, np.nan, 3.0, 0.5]),
    np.array([np.nan, 1.0, 2.0]),
    np.array([], dtype=np.float64),
    np.array([7.0]),
    _special(np.float64)[::-3],
]


@pytest.mark.parametrize("fn", [_max, _min])
@pytest.mark.parametrize("k", range(len(ARRAYS)))
def test_1d(fn, k):
    a = ARRAYS[k]
    same(KERNELS[fn](a), fn(a))


@pytest.mark.parametrize("fn", [_max, _min, _max_ax1, _min_ax_last])
@pytest.mark.parametrize("layout", ["C", "F", "strided", "empty"])
def test_2d(fn, layout):
    a = _special(np.float64, 48).reshape(6, 8)
    a = {"C": a, "F": np.asfortranarray(a), "strided": a[::-2, ::3],
         "empty": a[:0]}[layout]
    same(KERNELS[fn](a), fn(a))
    i = np.random.default_rng(6).integers(-9, 9, (4, 5, 3)).astype(np.int16)
    same(KERNELS[fn](i), fn(i))


def test_drawdown_and_list():
    p = np.cumprod(1.0 + 0.01 * np.random.default_rng(7).standard_normal(500))
    same(KERNELS[_drawdown](p), _drawdown(p))
    same(KERNELS[_list](), _list())


def _complex(a):
    return np.maximum.accumulate(a)


def _scalar(x):
    return np.maximum.accumulate(x)


def _bad_axis(a):
    return np.maximum.accumulate(a, axis=2)


def _fmax(a):
    return np.fmax.accumulate(a)


@pytest.mark.parametrize("fn, arg", [
    (_complex, np.array([1 + 2j, 2 - 1j])),
    (_scalar, np.float64(1.5)),
    (_bad_axis, np.zeros((2, 3))),
    (_fmax, np.array([1.0, np.nan, 0.5])),
])
def test_falls_back(fn, arg):
    """The interpreter runs what is not compiled (NumPy's result or error)."""
    f = jit(fn)
    try:
        want = fn(arg)
    except Exception as exc:          # noqa: BLE001 - NumPy's error, whichever
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", HanaJitFallbackWarning)
            with pytest.raises(type(exc)):
                f(arg)
        return
    with pytest.warns(HanaJitFallbackWarning):
        got = f(arg)
    same(got, want)
