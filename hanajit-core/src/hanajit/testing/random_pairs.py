"""Pairs of NumPy generators for comparing compiled draws with the interpreter's."""
from __future__ import annotations

import numpy as np


def pair(kind: str, seed):
    """Two ``np.random.Generator``s of bit generator ``kind`` in the same state."""
    bg = getattr(np.random, kind)
    return np.random.Generator(bg(seed)), np.random.Generator(bg(seed))


def same_state(x, y) -> bool:
    """Are two ``bit_generator.state`` dicts (or ``np.random.get_state()``
    tuples) equal, arrays by value?"""
    if isinstance(x, dict):
        return x.keys() == y.keys() and all(same_state(x[k], y[k]) for k in x)
    if isinstance(x, tuple):
        return len(x) == len(y) and all(same_state(a, b) for a, b in zip(x, y))
    return np.array_equal(x, y)


def same(got, want) -> bool:
    """Equal values of the same types: arrays by dtype, shape and bytes, scalars
    by type and bits (tuples item by item)."""
    if isinstance(want, tuple):
        return isinstance(got, tuple) and len(got) == len(want) and \
            all(same(g, w) for g, w in zip(got, want))
    if isinstance(want, np.ndarray):
        return isinstance(got, np.ndarray) and got.dtype == want.dtype and \
            got.shape == want.shape and got.tobytes() == want.tobytes()
    if isinstance(want, (int, np.integer)):         # (exactly: beyond 2**53 too)
        return type(got) is type(want) and got == want
    return type(got) is type(want) and np.float64(got).tobytes() == np.float64(want).tobytes()


def outcome(f, *args):
    """``("ok", f(*args))``, or ``("raise", message)`` of its ValueError."""
    try:
        return ("ok", f(*args))
    except ValueError as e:
        return ("raise", str(e))


def compare(jf, py, kind, seed, *args) -> None:
    """``jf`` and ``py`` called with generators of ``kind`` seeded alike give the
    same values or ValueError messages, and leave the same state."""
    r1, r2 = pair(kind, seed)
    got, want = outcome(jf, r1, *args), outcome(py, r2, *args)
    assert got[0] == want[0], (py.__name__, args, got, want)
    assert same(got[1], want[1]) if got[0] == "ok" else got == want, (py.__name__, args)
    assert same_state(r1.bit_generator.state, r2.bit_generator.state), (py.__name__, args)
