"""Per-chunk random streams of a parallel loop, compiled by hanajit
(``lib/parallel/regions.py``; the Python side is :mod:`hanajit.parallel_streams`).

``open_streams`` makes one stream per chunk for the generator whose state
pointer and ``next_uint64`` are given and returns their words (four int64 per
chunk: state pointer, ``next_uint64``, ``next_uint32``, ``next_double``);
``close_streams`` ends them after the loop and advances the generator.
"""
import numpy as np

from .. import prims
from ..python.helpers import Deopt


def open_streams(state, next_uint64, count):
    words = np.empty(4 * count, np.int64)
    if prims.rng_streams_open(state, next_uint64, count, words) != 0:
        raise Deopt("a parallel loop draws from a generator whose bit generator is not "
                    "one of NumPy's (PCG64, PCG64DXSM, MT19937, Philox, SFC64)")
    return words


def close_streams(words):
    prims.rng_streams_close(words)
