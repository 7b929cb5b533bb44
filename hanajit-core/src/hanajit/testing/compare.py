"""Compiled against interpreted, on copies of the arguments (shared by tests)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest


def layout_copy(a: np.ndarray) -> np.ndarray:
    """A copy of ``a`` with ``a``'s strides (a Fortran-ordered, strided or reversed
    view stays one, over memory of its own), its dtype, shape and subclass."""
    if a.size == 0 or a.flags.c_contiguous:
        return a.copy(order="K")
    lo = sum(s * (n - 1) for s, n in zip(a.strides, a.shape) if s < 0)
    hi = sum(s * (n - 1) for s, n in zip(a.strides, a.shape) if s > 0) + a.itemsize
    memory = np.empty(hi - lo, np.uint8)
    out = np.ndarray(a.shape, a.dtype, buffer=memory, offset=-lo, strides=a.strides)
    out[...] = a
    return out.view(type(a)) if type(a) is not np.ndarray else out


def check_on_copies(fn, compiled, args, same) -> None:
    """Call ``fn`` (the interpreter) and ``compiled`` on separate copies of
    ``args``: ``same(got, expected)`` must hold for the results, or both must
    raise (NumPy raises subclasses of builtin exceptions, such as a TypeError
    subclass for casting; compiled code raises the builtin class, so the builtin
    base is compared), and every array argument must hold the same contents
    afterwards -- writes made before an exception included.  The copies keep each
    array's layout (:func:`layout_copy`): a view is tested as a view."""
    def copies():
        return [layout_copy(a) if isinstance(a, np.ndarray) else a for a in args]
    ca, pa = copies(), copies()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            expected = fn(*pa)
        except Exception as exc:      # noqa: BLE001 - compare exception types
            builtin = next(c for c in type(exc).__mro__ if c.__module__ == "builtins")
            with pytest.raises(builtin):
                compiled(*ca)
        else:
            same(compiled(*ca), expected)
    for c, p in zip(ca, pa):
        if isinstance(p, np.ndarray):
            np.testing.assert_array_equal(c, p)


def assert_same_bits(got, want) -> None:
    """``got`` is ``want`` bit for bit -- dtype, shape and every element, signed
    zeros included -- except that a NaN matches any NaN (a NaN's sign and payload
    are not specified: docs/semantics.md).  Complex elements are compared part by
    part; tuples element by element."""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), (got, want)
        for g, w in zip(got, want):
            assert_same_bits(g, w)
        return
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got, want)
    if want.dtype.kind == "c":
        part = np.dtype(f"f{want.dtype.itemsize // 2}")
        got, want = (np.ascontiguousarray(x).view(part) for x in (got, want))
    if want.dtype.kind in "fc":
        nan = np.isnan(want)
        assert (np.isnan(got) == nan).all(), (got, want)
        got, want = got[~nan], want[~nan]
    assert got.tobytes() == want.tobytes(), (got, want)


def same_arrays(got, want) -> bool:
    """``got`` is the ndarray ``want`` byte for byte (dtype, shape, every byte:
    NaN payloads too, which NumPy's moves of values keep), tuples item by item."""
    if isinstance(want, tuple):
        return isinstance(got, tuple) and len(got) == len(want) and all(
            same_arrays(g, w) for g, w in zip(got, want))
    return (isinstance(got, np.ndarray) and got.dtype == want.dtype
            and got.shape == want.shape
            and np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(want).tobytes())


def assert_same_value(got, want) -> None:
    """``got`` is ``want``: the same type (a Python number for a Python number, a
    NumPy scalar of the same dtype for a NumPy scalar), tuples and lists item by
    item, values bit for bit (:func:`assert_same_bits`)."""
    assert type(got) is type(want), (got, want)
    if isinstance(want, (tuple, list)):
        assert len(got) == len(want), (got, want)
        for g, w in zip(got, want):
            assert_same_value(g, w)
    else:
        assert_same_bits(got, want)


def check_call(fn, compiled, *args, message: bool = True) -> None:
    """``compiled(*args)`` gives what the interpreter's ``fn(*args)`` gives: the
    same value (:func:`assert_same_value`), or the same exception class -- and,
    with ``message``, the same text."""
    try:
        want = fn(*args)
    except Exception as e:          # noqa: BLE001 - the compiled one must match
        with pytest.raises(type(e)) as info:
            compiled(*args)
        if message:
            assert str(info.value) == str(e)
        return
    assert_same_value(compiled(*args), want)


def outcome(f, *args):
    """What calling ``f(*args)`` gives: ``(type, value)`` (a list of them for a
    tuple), or the exception's ``(class, text)``."""
    try:
        r = f(*args)
    except Exception as e:          # noqa: BLE001 - compared by class and text
        return type(e), str(e)
    return [(type(x), x) for x in r] if isinstance(r, tuple) else (type(r), r)


def check_fallback(f, args, reason: str) -> None:
    """``f`` does not compile -- ``jit(f, fallback=False)`` raises
    ``UnsupportedError`` matching ``reason`` -- and ``jit(f)`` runs it in the
    interpreter with a ``HanaJitFallbackWarning``, giving its :func:`outcome`."""
    from hanajit import jit
    from hanajit.errors import HanaJitFallbackWarning, UnsupportedError
    with pytest.raises(UnsupportedError, match=reason):
        jit(f, fallback=False)(*args)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert outcome(jit(f), *args) == outcome(f, *args)
    assert any(issubclass(x.category, HanaJitFallbackWarning) for x in w)


def strict_jit(f):
    """``jit(f, fallback=False)``, any warning while jitting an error."""
    from hanajit import jit
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return jit(f, fallback=False)
