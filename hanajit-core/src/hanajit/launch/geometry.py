"""Launch geometry: ``grid=`` and ``block=`` as (x, y, z) tuples, with defaults.

A dimension is a positive int or 1 to 3 positive ints; missing axes are 1.
Without ``block``: :data:`DEFAULT_BLOCK` threads.  Without ``grid``: enough blocks
for one thread per element of the largest array argument (at least one block).
Each driver states its limits (``max_block`` threads per block, ``max_grid``
blocks per axis); a launch beyond them is a ValueError before anything runs.
"""
from __future__ import annotations

import numpy as np

DEFAULT_BLOCK = 256
MAX_BLOCK = 1024
MAX_GRID = (2**31 - 1, 65535, 65535)


def geometry(value, name) -> tuple:
    """A launch dimension as (x, y, z); ValueError for anything out of range."""
    if type(value) is int and value >= 1:
        return (value, 1, 1)
    if isinstance(value, (int, np.integer)):
        value = (int(value),)
    value = tuple(int(v) for v in value)
    if not 1 <= len(value) <= 3 or any(v < 1 for v in value):
        raise ValueError(f"launch: {name} must be 1 to 3 positive integers, got "
                         f"{value}")
    return value + (1,) * (3 - len(value))


def default_geometry(args, grid, block, max_block: int = MAX_BLOCK,
                     max_grid: tuple = MAX_GRID, default_block=DEFAULT_BLOCK):
    """``(grid, block)`` as (x, y, z) tuples from a launch's ``grid=`` and
    ``block=`` (either may be None) and its arguments."""
    block = geometry(block if block is not None else default_block, "block")
    if block[0] * block[1] * block[2] > max_block:
        raise ValueError(f"launch: a block has at most {max_block} threads, got "
                         f"{block[0]}x{block[1]}x{block[2]}")
    if grid is None:
        n = max([element_count(a) for a in args] + [1])
        grid = (max(1, -(-n // (block[0] * block[1] * block[2]))),)
    grid = geometry(grid, "grid")
    if any(g > m for g, m in zip(grid, max_grid)):
        raise ValueError(f"launch: grid {grid} exceeds {tuple(max_grid)}")
    return grid, block


def element_count(a) -> int:
    """The number of elements of an array argument (NumPy, a device array, any
    object with ``shape``), 0 for a scalar."""
    if isinstance(a, np.ndarray):
        return a.size
    cai = getattr(a, "__cuda_array_interface__", None)
    if cai is not None:
        return int(np.prod(cai["shape"], dtype=np.int64))
    size = getattr(a, "size", None)
    if type(size) is int and hasattr(a, "shape"):
        return size
    return 0
