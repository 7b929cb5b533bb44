"""``np.sum(a, where=mask)`` of a 1-D array as NumPy's reduction computes it
(compiled as hanajit helpers, ``masked_sums.py``): NumPy's masked loop hands
each run of consecutive selected elements to the add loop, which sums the run
pairwise and adds it to the total."""
from __future__ import annotations

import numpy as np


def masked_sum(x, m, z):
    """The sum, starting from ``z``, of the runs of ``x`` where ``m`` is true."""
    n = x.shape[0]
    acc = z
    i = 0
    while i < n:
        if m[i]:
            j = i + 1
            while j < n and m[j]:
                j += 1
            acc = acc + np.sum(x[i:j])
            i = j
        else:
            i += 1
    return acc
