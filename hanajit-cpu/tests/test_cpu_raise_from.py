"""``raise X(...) from e`` / ``from None`` / ``from OtherError`` in compiled code:
compiled code has no exception objects to give a cause, so the raise re-runs a
pure call in the interpreter when it leaves the function (frontend/
try_statements.check_cause) -- the caller sees CPython's exception, its
``__cause__``, ``__context__`` and ``__suppress_context__`` -- while a ``try`` of
the function still catches it; a function that may write into arrays falls back."""
import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning, UnsupportedError


def from_caught(n):
    try:
        if n > 0:
            raise KeyError(n)
        return 1
    except KeyError as e:
        raise ValueError(f"bad {n}") from e


def from_none(a, i):
    try:
        return a[i]
    except IndexError:
        raise ValueError("bad index") from None


def from_class(a, i):
    try:
        return a[i] * 2.0
    except IndexError:
        raise LookupError("outside") from RuntimeError


def caught_inside(a, i):
    try:
        try:
            return a[i]
        except IndexError as e:
            raise ValueError("bad") from e
    except ValueError:
        return -1


def _outcome(f, *args):
    try:
        return "ok", f(*args)
    except Exception as e:
        c = e.__cause__
        return (type(e), str(e), type(c), str(c) if c is not None else None,
                type(e.__context__), str(e.__context__), e.__suppress_context__)


@pytest.mark.parametrize("f,calls", [
    (from_caught, [(3,), (0,)]),
    (from_none, [(np.arange(3), 5), (np.arange(3), 1), (np.arange(3.0), -4)]),
    (from_class, [(np.arange(3), 7), (np.arange(3), 2)]),
    (caught_inside, [(np.arange(3), 5), (np.arange(3), 0)])])
def test_like_cpython(f, calls):
    jf = jit(f, fallback=False)
    for args in calls:
        got, want = _outcome(jf, *args), _outcome(f, *args)
        assert got == want, (f.__name__, args, got, want)


def writes_then_raises(a, i):
    a[0] = 7
    try:
        return a[i]
    except IndexError:
        raise ValueError("bad") from None


def reraised_from(n):
    try:
        raise KeyError(n)
    except KeyError as e:
        raise e from None


def draws_then_raises(rng, a, i):
    x = rng.random()
    try:
        return a[i] + x
    except IndexError as e:
        raise ValueError("bad") from e


def test_what_falls_back():
    # a generator argument's draws would repeat in a re-run (it raised ValueError
    # without __cause__)
    with pytest.raises(UnsupportedError, match="draw from a generator argument"):
        jit(draws_then_raises, fallback=False)(np.random.default_rng(1), np.arange(3.0), 5)
    with pytest.warns(HanaJitFallbackWarning), pytest.raises(ValueError) as info:
        jit(draws_then_raises)(np.random.default_rng(1), np.arange(3.0), 5)
    assert isinstance(info.value.__cause__, IndexError)
    with pytest.raises(UnsupportedError, match="may write into arrays"):
        jit(writes_then_raises, fallback=False)(np.arange(3), 5)
    a = np.arange(3)
    with pytest.warns(HanaJitFallbackWarning), pytest.raises(ValueError) as info:
        jit(writes_then_raises)(a, 5)
    assert info.value.__suppress_context__ and a[0] == 7
    with pytest.raises(UnsupportedError, match="of a caught exception"):
        jit(reraised_from, fallback=False)(1)
