"""``np.histogram2d(x, y, bins=n)`` in Python source compiled by hanajit
(``histogram2d`` types the call): NumPy's ``histogramdd`` steps on the float64
columns -- ``_get_outer_edges`` (0 and 1 when empty, else min and max, NumPy's
ValueError when not finite, a half widened either way when equal),
``linspace`` edges, ``searchsorted(side='right')``, the last edge's points moved
one bin left, the counts of the bins inside as float64."""
import numpy as np

from ..python.helpers import Deopt

EXACT = 9007199254740992.0        # 2**53: integers beyond convert inexactly


def _edges(a, n, big):
    if a.shape[0] == 0:
        first = 0.0
        last = 1.0
    else:
        first = a.min()
        last = a.max()
        if big and (abs(first) >= EXACT or abs(last) >= EXACT):
            raise Deopt("np.histogram2d() of int64 data beyond 2**53")
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError(f"autodetected range of [{first}, {last}] is not finite")
    if first == last:
        first = first - 0.5
        last = last + 0.5
    return np.linspace(first, last, n + 1)


def histogram2d_bins(x, y, n, big):
    """``(hist, xedges, yedges)`` of float64 ``x``/``y`` (``big``: they were int64,
    whose values past 2**53 re-run the call) and ``n`` bins on each axis."""
    m = x.shape[0]
    if m != y.shape[0]:
        raise ValueError("x and y must have the same length.")
    if n < 1:
        raise ValueError("`bins[0]` must be positive, when an integer")
    xedges = _edges(x, n, big)
    yedges = _edges(y, n, big)
    cx = np.searchsorted(xedges, x, side="right")
    cy = np.searchsorted(yedges, y, side="right")
    hist = np.zeros((n, n), np.float64)
    lx = xedges[n]
    ly = yedges[n]
    for k in range(m):
        i = cx[k]
        j = cy[k]
        if x[k] == lx:
            i -= 1
        if y[k] == ly:
            j -= 1
        if 1 <= i and i <= n and 1 <= j and j <= n:
            hist[i - 1, j - 1] += 1.0
    return hist, xedges, yedges
