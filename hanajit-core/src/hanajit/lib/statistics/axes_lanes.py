"""The order of NumPy's float ``sum``/``prod``/``max``/``min`` over a tuple of
axes of a contiguous array (``a.sum(axis=(0, 1))``), in Python source compiled
by hanajit (see ``helpers``), so that such reductions are NumPy's bit for bit
(measured against NumPy 2.4).

NumPy's reduction iterator walks a contiguous operand in memory order.  Axes
of length 1 drop out, and neighbouring axes merge when both are reduced or both
are kept, so the array is a few merged axes, alternately reduced and kept
(``merge``).  The innermost merged axis is each call of the inner loop:

* reduced: each run is reduced on its own -- pairwise for a sum
  (``pairwise_sum.lane_sum``), NumPy's own min/max of a 1-D array -- and
  combined into the result element it belongs to (a product multiplies on,
  element by element, from the result's value);
* kept: the run is combined element by element into a run of results.

Runs come in memory order, so each result element meets them in that order:
``((0 + pw(run0)) + pw(run1)) + ...``.  Sums start from 0.0 and products from
1.0 (the identities: ``-0.0`` values sum to ``0.0``, as NumPy's); min/max
start from the first value they meet.

``reduce_axes(mem, shape, reduced, out, kind, zero)``: ``mem`` is the array's items
in memory order (``shape`` outermost first, for an F-ordered array its axes
reversed), ``reduced`` a flag per axis, ``out`` the results in the same order of
the kept axes, already holding 0.0 for a sum and 1.0 for a product; ``zero``
0.0 of the items' type.
"""
import numpy as np

from .pairwise_sum import lane_sum

SUM, PROD, MAX, MIN = 0, 1, 2, 3


def merge(shape, reduced, sizes, flags):
    """Fill ``sizes``/``flags`` with the merged axes, outermost first; return
    how many (0: no axis longer than 1)."""
    g = 0
    for k in range(shape.shape[0]):
        n = shape[k]
        if n == 1:
            continue
        if g > 0 and flags[g - 1] == reduced[k]:
            sizes[g - 1] *= n
        else:
            sizes[g] = n
            flags[g] = reduced[k]
            g += 1
    return g


def reduce_axes(mem, shape, reduced, out, kind, zero):
    """``out`` as NumPy's reduction ``kind`` (module docstring)."""
    nd = shape.shape[0]
    if mem.shape[0] == 0:
        return
    sizes = np.ones(nd + 1, np.int64)
    flags = np.zeros(nd + 1, np.int64)
    ng = merge(shape, reduced, sizes, flags)
    if ng == 0:                 # a single element
        _combine(mem, 0, out, 0, 1, kind, True)
        return
    inner = sizes[ng - 1]
    runs = mem.shape[0] // inner
    idx = np.zeros(ng, np.int64)
    for p in range(runs):
        # the result element (or first of a run of them) of this run
        k = 0
        first = True
        for g in range(ng - 1):
            if flags[g]:
                if idx[g] != 0:
                    first = False
            else:
                k = k * sizes[g] + idx[g]
        base = p * inner
        if flags[ng - 1]:
            _reduce_run(mem, base, inner, out, k, kind, first, zero)
        else:
            _combine(mem, base, out, k * inner, inner, kind, first)
        g = ng - 2
        while g >= 0:
            idx[g] += 1
            if idx[g] < sizes[g]:
                break
            idx[g] = 0
            g -= 1


def _reduce_run(mem, base, n, out, k, kind, first, zero):
    """Combine the run ``mem[base:base + n]``, reduced, into ``out[k]``."""
    if kind == SUM:
        out[k] = out[k] + lane_sum(mem, base, n, zero)
    elif kind == PROD:
        acc = out[k]
        for j in range(n):
            acc = acc * mem[base + j]
        out[k] = acc
    else:
        run = mem[base:base + n]
        v = np.max(run) if kind == MAX else np.min(run)
        if first:
            out[k] = v
        elif kind == MAX:
            out[k] = np.maximum(out[k], v)
        else:
            out[k] = np.minimum(out[k], v)


def _combine(mem, base, out, lo, n, kind, first):
    """Combine the run ``mem[base:base + n]`` into ``out[lo:lo + n]``, element by
    element."""
    if kind == SUM:
        for j in range(n):
            out[lo + j] = out[lo + j] + mem[base + j]
    elif kind == PROD:
        for j in range(n):
            out[lo + j] = out[lo + j] * mem[base + j]
    elif first:
        for j in range(n):
            out[lo + j] = mem[base + j]
    elif kind == MAX:
        for j in range(n):
            out[lo + j] = np.maximum(out[lo + j], mem[base + j])
    else:
        for j in range(n):
            out[lo + j] = np.minimum(out[lo + j], mem[base + j])


for _f in (merge, reduce_axes, _reduce_run, _combine):
    _f.hj_unchecked = True
