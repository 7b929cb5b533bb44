"""``np.delete`` and ``np.insert`` in Python source compiled by hanajit (see
``lib/python/helpers.py``): NumPy's ``numpy/lib/_function_base_impl.py`` steps
on arrays whose chosen axis was moved first (``insert_delete``), so every row
here is ``a[i]`` -- an element of a 1-D array, a sub-array otherwise."""
import numpy as np

from ..python.helpers import Deopt


def keep_one(n, obj, axis):
    """``delete``'s single index ``obj`` (an int) on an axis of ``n``: the rows kept."""
    if obj < -n or obj >= n:
        raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {n}")
    if obj < 0:
        obj += n
    keep = np.ones(n, np.bool_)
    keep[obj] = False
    return keep


def keep_indices(n, obj, axis):
    """``delete`` of the flattened integer array ``obj``: one element is the single
    index (``obj.item()``), more mark each index deleted (``keep[obj,] = False``)."""
    if obj.shape[0] == 1:
        return keep_one(n, int(obj[0]), axis)
    keep = np.ones(n, np.bool_)
    for i in range(obj.shape[0]):
        k = int(obj[i])
        if k < -n or k >= n:
            raise IndexError(f"index {k} is out of bounds for axis 0 with size {n}")
        if k < 0:
            k += n
        keep[k] = False
    return keep


def keep_mask(n, mask):
    """``delete`` of a 1-D boolean ``mask`` of the axis' length: its negation."""
    if mask.shape[0] != n:
        raise ValueError("boolean array argument obj to delete must be one dimensional "
                         f"and match the axis length of {n}")
    keep = np.ones(n, np.bool_)
    for i in range(n):
        if mask[i]:
            keep[i] = False
    return keep


def count_true(keep):
    c = 0
    for i in range(keep.shape[0]):
        if keep[i]:
            c += 1
    return c


def delete_fill(out, a, keep):
    """The kept rows of ``a``, in order, into ``out``."""
    j = 0
    for i in range(keep.shape[0]):
        if keep[i]:
            out[j] = a[i]
            j += 1
    return j


def single_positions(n, index, numnew, axis, bracket):
    """``insert``'s single index: NumPy's bounds check (``bracket``: the index was
    a one-element array, printed as ``[k]``), then the ``numnew`` positions the
    values take in the result."""
    if index < -n or index > n:
        if bracket:
            raise IndexError(f"index [{index}] is out of bounds for axis {axis} "
                             f"with size {n}")
        raise IndexError(f"index {index} is out of bounds for axis {axis} with size {n}")
    if index < 0:
        index += n
    idx = np.empty(numnew, np.int64)
    for i in range(numnew):
        idx[i] = index + i
    return idx


def array_positions(n, obj, numnew, axis):
    """``insert``'s positions for the flattened integer indices ``obj``: one index
    is the single-index case (``numnew`` values from the moved values' first
    axis), more are shifted as NumPy shifts them: negatives by ``n``, then each
    by its rank in a stable sort."""
    if obj.shape[0] == 1:
        return single_positions(n, int(obj[0]), numnew, axis, True)
    count = obj.shape[0]
    idx = np.empty(count, np.int64)
    for i in range(count):
        k = int(obj[i])
        if k < 0:
            k += n
        idx[i] = k
    order = np.argsort(idx, kind="stable")
    for i in range(count):
        idx[order[i]] += i
    return idx


def flat_true(mask):
    """``np.flatnonzero`` of a 1-D boolean array."""
    idx = np.empty(count_true(mask), np.int64)
    j = 0
    for i in range(mask.shape[0]):
        if mask[i]:
            idx[j] = i
            j += 1
    return idx


def old_mask(m, idx):
    """``old_mask[indices] = False`` on ``m`` rows: NumPy's IndexError for an
    index out of bounds, a negative one counted from the end."""
    old = np.ones(m, np.bool_)
    for i in range(idx.shape[0]):
        k = idx[i]
        if k < -m or k >= m:
            raise IndexError(f"index {k} is out of bounds for axis 0 with size {m}")
        if k < 0:
            k += m
        old[k] = False
    return old


def insert_fill(out, a, v, idx, old):
    """``new[indices] = values`` (the values' first axis of length 1 or one per
    index, later indices winning), then ``new[old_mask] = arr``."""
    m = out.shape[0]
    if count_true(old) != a.shape[0]:
        # NumPy's "boolean array indexing assignment cannot assign ..." ValueError
        raise Deopt("np.insert(): repeated positions")
    one = v.shape[0] == 1
    for i in range(idx.shape[0]):
        k = idx[i]
        if k < 0:
            k += m
        if one:
            out[k] = v[0]
        else:
            out[k] = v[i]
    j = 0
    for i in range(m):
        if old[i]:
            out[i] = a[j]
            j += 1
    return j
