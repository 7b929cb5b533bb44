"""``np.put`` / ``a.put`` in Python source compiled by hanajit (see ``helpers``):
NumPy's ``PyArray_PutTo``, step for step."""


def c_contiguous(a):
    """NumPy's C-contiguity flag (axes of length 1 do not count)."""
    s = a.itemsize
    for k in range(a.ndim - 1, -1, -1):
        if a.shape[k] != 1 and a.strides[k] != s:
            return False
        s *= a.shape[k]
    return True


def _slot(k, n, mode):
    """Flat index ``k`` into ``n`` elements: mode 0 raise, 1 wrap, 2 clip."""
    if mode == 1:
        return k % n
    if mode == 2:
        if k < 0:
            return 0
        if k >= n:
            return n - 1
        return k
    if k < -n or k >= n:
        raise IndexError(f"index {k} is out of bounds for axis 0 with size {n}")
    if k < 0:
        return k + n
    return k


def put(a, ind, v, mode):
    """``a.flat[ind[i]] = v[i % len(v)]`` for the flattened ``ind`` and ``v`` (cast
    to ``a``'s dtype first, as NumPy does)."""
    n = a.size
    flat_ind = ind.ravel()
    ni = len(flat_ind)
    if ni > 0 and n == 0:
        raise IndexError("cannot replace elements of an empty array")
    values = v.astype(a.dtype).ravel()
    nv = len(values)
    if nv == 0:
        return
    if mode == 0 and not c_contiguous(a):
        # NumPy writes into a contiguous copy and drops it on an error: no
        # element changes unless every index is valid
        for i in range(ni):
            _slot(int(flat_ind[i]), n, 0)
    for i in range(ni):
        a.flat[_slot(int(flat_ind[i]), n, mode)] = values[i % nv]
