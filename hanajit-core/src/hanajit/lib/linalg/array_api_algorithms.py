"""Helpers of ``array_api``: NumPy's checks around the call its source makes."""
import numpy as np


def cross(x1, x2):
    """``np.linalg.cross(x1, x2)``: 3-vectors only, then ``np.cross``."""
    if x1.shape[-1] != 3 or x2.shape[-1] != 3:
        raise ValueError(f"Both input arrays must be (arrays of) 3-dimensional vectors, "
                         f"but they are {x1.shape[-1]} and {x2.shape[-1]} "
                         f"dimensional instead.")
    return np.cross(x1, x2)


def vecdot_real(x1, x2):
    """``vecdot`` of two 1-D real arrays: NumPy's gufunc loop is ``np.dot``'s."""
    return np.dot(x1, x2)


def vecdot_complex(x1, x2):
    """``vecdot`` of two 1-D complex arrays: the first conjugated (``np.vdot``'s
    loop)."""
    return np.vdot(x1, x2)
