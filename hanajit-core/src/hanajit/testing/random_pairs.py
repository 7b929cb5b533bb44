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
