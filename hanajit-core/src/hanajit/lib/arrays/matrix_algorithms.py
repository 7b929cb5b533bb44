"""``np.fill_diagonal`` of a 2-D array, in Python source compiled by hanajit (see
``helpers``): NumPy's ``a.flat[:end:step] = val`` with ``step = M + 1`` and
``end = M * M`` unless ``wrap``; the values of ``val`` are used in order and
repeated, as a flat assignment repeats them."""


def fill_diagonal_2d(a, v, wrap):
    rows = a.shape[0]
    cols = a.shape[1]
    nv = len(v)
    if nv == 0 or cols == 0:
        return
    end = rows * cols
    if not wrap and cols * cols < end:
        end = cols * cols
    t = 0
    p = 0
    while p < end:
        a[p // cols, p % cols] = v[t % nv]
        t += 1
        p += cols + 1
