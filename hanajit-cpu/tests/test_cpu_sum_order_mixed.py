"""np.sum/np.mean of expressions whose operands are in no one memory order (an
F-ordered matrix times a broadcast row or column, ``t * t`` of a transposed 3-D
array, stepped and reversed mixes): NumPy's temporary in its ufuncs' order of
the axes, summed as NumPy sums it -- bit for bit (``.tobytes()``)."""
import warnings

import numpy as np
import pytest

from hanajit import jit


def _whole(a, b):
    return np.sum(a * b)


def _ax0(a, b):
    return np.sum(a * b, axis=0)


def _ax1(a, b):
    return np.sum(a * b, axis=1)


def _axm1(a, b):
    return np.sum(a * b, axis=-1)


def _mean(a, b):
    return np.mean(a * b)


def _mean0(a, b):
    return np.mean(a * b, axis=0)


def _nested(a, b):
    return np.sum(a * b + a)


def _in_place(a, b):
    return np.sum(b * b + a)


def _in_place0(a, b):
    return np.sum(b * b + a, axis=0)


def _nested0(a, b):
    return np.sum(np.abs(a) * b - a, axis=0)


KERNELS = {f.__name__: (f, jit(f, fallback=False))
           for f in (_whole, _ax0, _ax1, _axm1, _mean, _mean0, _nested, _nested0,
                     _in_place, _in_place0)}


def _data(rng, shape, dtype):
    x = rng.standard_normal(shape) * 10.0 ** rng.uniform(-4, 4, shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape) * 10.0 ** rng.uniform(-4, 4, shape)
    return x.astype(dtype)


def _same(name, a, b):
    py, jf = KERNELS[name]
    want = py(a, b)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = jf(a, b)
    assert np.asarray(got).dtype == np.asarray(want).dtype, name
    assert np.shape(got) == np.shape(want), name
    assert np.asarray(got).tobytes() == np.asarray(want).tobytes(), (name, a.strides, b.strides)


# (float32 takes float64's code at another width: one case of it below)
DTYPES = [np.float64, np.complex128]


@pytest.mark.parametrize("dtype", DTYPES)
def test_fortran_times_broadcast_row_and_column(dtype):
    rng = np.random.default_rng(1)
    for m0, n0 in ((30, 17), (9, 40), (64, 3)):
        m = np.asfortranarray(_data(rng, (m0, n0), dtype))
        for b in (_data(rng, n0, dtype), _data(rng, (m0, 1), dtype),
                  _data(rng, (1, n0), dtype)):
            for name in ("_whole", "_ax0", "_ax1", "_mean0", "_nested"):
                _same(name, m, b)
            _same("_whole", b, m)


def test_float32_fortran_times_row():
    rng = np.random.default_rng(4)
    m = np.asfortranarray(_data(rng, (30, 17), np.float32))
    r = _data(rng, 17, np.float32)
    for name in ("_whole", "_ax0", "_ax1"):
        _same(name, m, r)


@pytest.mark.parametrize("dtype", DTYPES)
def test_transposed_3d(dtype):
    rng = np.random.default_rng(2)
    for shape in ((6, 20, 11), (3, 9, 17), (12, 1, 10)):
        x = _data(rng, shape, dtype)
        for perm in ((2, 0, 1), (1, 2, 0), (0, 2, 1), (1, 0, 2)):
            t = x.transpose(perm)
            u = _data(rng, t.shape, dtype)
            for a, b in ((t, t), (t, u), (u, t), (t, t[:, :, ::-1])):
                for name in ("_whole", "_ax0", "_ax1", "_axm1", "_mean", "_nested0"):
                    _same(name, a, b)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_random_layouts(dtype):
    """Stepped, reversed and transposed views of 3-D data with broadcast
    operands of every kind."""
    rng = np.random.default_rng(3)
    for trial in range(25):
        shape = tuple(int(k) for k in rng.integers(1, 9, 3))
        base = _data(rng, tuple(2 * k for k in shape), dtype)
        perm = tuple(rng.permutation(3))
        a = base.transpose(perm)[tuple(slice(None, 2 * shape[p], 2) for p in perm)]
        if rng.integers(2):
            a = a[::-1]
        if rng.integers(2):
            a = a[:, :, ::-1]
        bshape = tuple(1 if rng.integers(3) == 0 else k for k in a.shape)
        b = _data(rng, bshape, dtype)
        if rng.integers(2):
            b = np.asfortranarray(b)
        for name in ("_whole", "_ax0", "_ax1", "_axm1", "_mean0", "_nested"):
            _same(name, a, b)
        _same("_whole", b, a)


def test_empty_and_special_values():
    rng = np.random.default_rng(4)
    m = np.asfortranarray(_data(rng, (0, 5), np.float64))
    for name in ("_whole", "_ax0", "_ax1", "_mean0"):
        with np.errstate(all="ignore"):
            _same(name, m, _data(rng, 5, np.float64))
    x = _data(rng, (5, 9, 4), np.float64)
    x[1, 2, 3], x[0, 0, 0], x[2, 1, 0] = np.nan, np.inf, -0.0
    t = x.transpose(2, 0, 1)
    with np.errstate(all="ignore"):
        for name in ("_whole", "_ax0", "_ax1", "_axm1"):
            _same(name, t, t)


def test_in_place_temporary_left_to_numpy():
    """NumPy's operators write ``b * b + a``'s sum into ``b * b``'s temporary
    when it holds 256 KiB or more (keeping its F order, where a fresh one would
    be C-ordered by ``a``): that case re-runs in the interpreter -- NumPy's
    result either way."""
    rng = np.random.default_rng(5)
    for n in (40, 200):
        a = _data(rng, (n, n), np.float64)
        b = np.asfortranarray(_data(rng, (n, n), np.float64))
        for name in ("_in_place", "_in_place0"):
            _same(name, a, b)
            _same(name, a[::-1], b)
        a = _data(rng, (n, n), np.complex128)
        b = np.asfortranarray(_data(rng, (n, n), np.complex128))
        _same("_in_place", a, b)
        _same("_in_place0", a, b)


def _var_std(a):
    """(one kernel: each layout a compile of the three, not three compiles)"""
    return np.var(a), np.std(a, ddof=1), np.var(a, keepdims=True)


VAR_STD = jit(_var_std, fallback=False)


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_complex_var_std_whole(dtype):
    """NumPy's ``_var`` of complex data: the complex mean, the deviations'
    parts squared and added in a temporary of NumPy's layout, summed
    pairwise in its memory order."""
    rng = np.random.default_rng(6)
    z = _data(rng, (40, 30), dtype)
    x = _data(rng, (5, 6, 7), dtype)
    for a in (z, np.asfortranarray(z), z[::2, ::-1], z.T, x.transpose(2, 0, 1),
              x[:, ::-1, ::2], z[0], z[::-3, 1]):
        for k, (want, got) in enumerate(zip(_var_std(a), VAR_STD(a))):
            assert np.asarray(got).dtype == np.asarray(want).dtype
            assert np.shape(got) == np.shape(want)
            assert np.asarray(got).tobytes() == np.asarray(want).tobytes(), (k, a.strides)
