"""Checking an ``evolve`` candidate against the baseline: same bits, or (hyper) close.

``outcome(runner, args)`` runs on copies of the array arguments (so mutating
kernels never touch the caller's arrays and every run starts from the same data)
and records the return value or the exception raised, and every array argument
after the call (so the writes made before an exception count too).  ``same_bits`` compares two outcomes exactly: arrays by dtype,
shape and raw bytes (``-0.0`` included), floats by their IEEE bits, exceptions by
type and message -- except that a NaN matches any NaN: which NaN an operation on
two NaNs returns (its sign and payload) depends on the operand order LLVM picks for
a commutative ``fadd``/``fmul``, which LLVM leaves unspecified, so no compilation
promises it (a reordered loop nest computing the very same expressions can flip
it).  ``close`` is evolve_hyper's comparison:
NaN where NaN, infinities equal, finite values within ``rtol``/``atol``.

``random_args`` makes fresh arguments of the same types as the example ones:
same shapes, dtypes and layouts; float arrays get a few NaN, inf and -0.0 among
normal values; integers stay within the example's magnitude, so loop counts do not
explode.
"""

from __future__ import annotations

import math
import random
import struct

import numpy as np

from ..typing_rules import typeof


def copy_args(args):
    return tuple(_copy(a) for a in args)


def _copy(a, values=None):
    """A copy of ``a`` (holding ``values`` if given) with the same hanajit type:
    dtype, ndim, layout (C, F or strided) and writeability."""
    if isinstance(a, tuple):
        return tuple(_copy(x) for x in a)
    if not isinstance(a, np.ndarray):
        return a
    src = a if values is None else values
    if a.flags.c_contiguous:
        out = np.array(src, dtype=a.dtype, order="C")
    elif a.flags.f_contiguous:
        out = np.array(src, dtype=a.dtype, order="F")
    else:  # strided: every other element of a larger array
        big = np.empty((*a.shape[:-1], 2 * a.shape[-1]), dtype=a.dtype)
        out = big[..., ::2]
        out[...] = src
    if not a.flags.writeable:
        out.flags.writeable = False
    return out if typeof(out) == typeof(a) else a.copy()


class Outcome:
    def __init__(self, value=None, arrays=(), error=None):
        self.value, self.arrays, self.error = value, arrays, error


def outcome(runner, args) -> Outcome:
    args = copy_args(args)
    arrays = tuple(a for a in args if isinstance(a, np.ndarray))
    try:
        value = runner(*args)
    except Exception as exc:  # noqa: BLE001 -- the same exception is part of the result
        # and so are the writes made before it
        return Outcome(error=(type(exc), str(exc)), arrays=arrays)
    return Outcome(value=value, arrays=arrays)


def _canonical_nans(x: np.ndarray) -> np.ndarray:
    x = np.ascontiguousarray(x)
    if x.dtype.kind in "fc":
        nan = np.isnan(x)
        if nan.any():
            x = x.copy()
            if x.dtype.kind == "f":
                x[nan] = np.nan
            else:  # each part on its own
                re, im = x.real.copy(), x.imag.copy()
                re[np.isnan(re)] = np.nan
                im[np.isnan(im)] = np.nan
                x = re + 1j * im if x.dtype == np.complex128 else (
                    re + 1j * im).astype(x.dtype)
    return x


def _bits(x, y) -> bool:
    if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
        if not (isinstance(x, np.ndarray) and isinstance(y, np.ndarray)):
            return False
        return (
            x.dtype == y.dtype
            and x.shape == y.shape
            and _canonical_nans(x).tobytes() == _canonical_nans(y).tobytes()
        )
    if isinstance(x, tuple) or isinstance(y, tuple):
        return (
            isinstance(x, tuple)
            and isinstance(y, tuple)
            and len(x) == len(y)
            and all(_bits(a, b) for a, b in zip(x, y))
        )
    if type(x) is not type(y):
        return False
    if isinstance(x, (float, np.floating)):
        if math.isnan(x) and math.isnan(y):
            return True
        return struct.pack("<d", float(x)) == struct.pack("<d", float(y))
    if isinstance(x, (complex, np.complexfloating)):
        return _bits(complex(x).real, complex(y).real) and _bits(
            complex(x).imag, complex(y).imag
        )
    return x == y


def same_bits(a: Outcome, b: Outcome) -> bool:
    if a.error or b.error:
        return a.error == b.error and _bits(a.arrays, b.arrays)
    return _bits(a.value, b.value) and _bits(a.arrays, b.arrays)


def _close(x, y, rtol, atol) -> bool:
    if isinstance(x, tuple):
        return (
            isinstance(y, tuple)
            and len(x) == len(y)
            and all(_close(a, b, rtol, atol) for a, b in zip(x, y))
        )
    xa, ya = np.asarray(x), np.asarray(y)
    if xa.shape != ya.shape or xa.dtype != ya.dtype:
        return False
    if xa.dtype.kind not in "fc":
        return bool(np.array_equal(xa, ya))
    return bool(np.allclose(xa, ya, rtol=rtol, atol=atol, equal_nan=True)) and bool(
        np.array_equal(np.isnan(xa), np.isnan(ya))
    )


def close(a: Outcome, b: Outcome, rtol: float, atol: float) -> bool:
    if a.error or b.error:
        return a.error == b.error and _close(a.arrays, b.arrays, rtol, atol)
    return _close(a.value, b.value, rtol, atol) and _close(
        a.arrays, b.arrays, rtol, atol
    )


# ------------------------------------------------------------------ fresh arguments


def random_args(args, rng: random.Random, specials: bool = True):
    """Arguments of the same types as ``args`` with fresh values (None where a
    value of the same type cannot be made: the caller uses the example then)."""
    nprng = np.random.default_rng(rng.getrandbits(32))
    return tuple(_fresh(a, rng, nprng, specials) for a in args)


def _fresh(a, rng, nprng, specials):
    if isinstance(a, bool):
        return rng.random() < 0.5
    if isinstance(a, int):
        lo, hi = min(0, a), max(0, a)
        return rng.randint(lo - 2, hi + 2) if abs(a) > 2 else rng.randint(lo, hi)
    if isinstance(a, float):
        if not math.isfinite(a):
            return a
        return a * rng.uniform(0.5, 2.0) + rng.gauss(0.0, 1.0)
    if isinstance(a, complex):
        return complex(
            _fresh(a.real, rng, nprng, specials), _fresh(a.imag, rng, nprng, specials)
        )
    if isinstance(a, tuple):
        return tuple(_fresh(x, rng, nprng, specials) for x in a)
    if isinstance(a, np.ndarray):
        return _fresh_array(a, nprng, specials)
    return a


def _fresh_array(a, nprng, specials):
    if a.size == 0:
        return _copy(a)
    kind = a.dtype.kind
    if kind == "f":
        finite = a[np.isfinite(a)]
        scale = float(np.abs(finite).max()) if finite.size else 1.0
        scale = min(scale, 1e100) or 1.0  # (an output array may hold garbage)
        vals = nprng.standard_normal(a.shape) * scale
        if specials and a.size >= 8:
            flat = vals.reshape(-1)
            for v in (np.nan, np.inf, -np.inf, -0.0):
                flat[nprng.integers(0, flat.size)] = v
    elif kind == "c":
        vals = nprng.standard_normal(a.shape) + 1j * nprng.standard_normal(a.shape)
    elif kind in "iu":
        vals = nprng.integers(
            int(a.min()), int(a.max()) + 1, size=a.shape, dtype=a.dtype
        )
    elif kind == "b":
        vals = nprng.random(a.shape) < 0.5
    else:
        vals = a
    return _copy(a, vals)
