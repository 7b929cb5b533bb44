"""The order of NumPy's ``add.reduce`` over a whole N-D array of any strides
(``np.sum(a)``), in Python source compiled by hanajit (see ``helpers``), so that
such sums are NumPy's bit for bit (measured against NumPy 2.4's iterator).

NumPy's reduction iterator (``nditer``, order 'K', strides never negated):

* sorts the axes by the absolute value of their strides with a stable insertion
  sort, the last axis innermost first (``npyiter_find_best_axis_ordering``; an
  axis of length 1 has stride 0 and is skipped in the comparisons);
* merges neighbouring axes whose strides chain (``npyiter_coalesce_axes``);
* when more than one merged axis is left, the operand needs buffering: its
  buffer (at most 8192 items) holds whole "cores" -- the innermost merged axes
  up to the one where the cost model of ``npyiter_find_buffering_setup`` stops
  -- and each fill, in iteration order, is one lane; otherwise the innermost
  merged axis is one lane, whatever its length.

The reduce loop adds the pairwise sum (``pairwise_sum``) of each lane to the
result, which starts from the identity: ``((0 + pw(lane0)) + pw(lane1)) + ...``.

``strided_sum(mem, start, shape, strides, zero)`` computes that: ``mem`` is a 1-D
contiguous view of the array's memory from its lowest element, ``start`` the
index of ``a[0, ..., 0]`` in it, ``strides`` in items.
"""
import numpy as np

from .pairwise_sum import lane_sum

BUFSIZE = 8192          # NPY_BUFSIZE, in items


def iteration_order(shape, strides):
    """The axes in NumPy's iteration order, innermost first (an axis of length 1
    counted as stride 0)."""
    nd = len(shape)
    order = np.empty(nd, np.int64)
    st = np.zeros((1, nd), np.int64)
    for k in range(nd):
        st[0, k] = 0 if shape[k] == 1 else strides[k]
    order_axes(st, 1, nd, order)
    return order


def temporary_strides(flat, nop, shape, item, out):
    """The strides (bytes) NumPy 2 gives the temporary of a ufunc expression of
    the result shape ``shape`` whose ``nop`` operands have the strides
    ``flat[op * nd + axis]`` (0 where an operand broadcasts or the axis has
    length 1): contiguous in its iterator's order of the axes
    (:func:`order_axes`), every stride positive, into ``out``.  Right for
    operands whose orders agree (checked on reversed, stepped, transposed and
    broadcast views: ``arrays/axis_reduce.float_over_axes``)."""
    nd = len(shape)
    st = np.zeros((nop, nd), np.int64)
    for op in range(nop):
        for k in range(nd):
            st[op, k] = 0 if shape[k] == 1 else flat[op * nd + k]
    perm = np.empty(nd, np.int64)
    order_axes(st, nop, nd, perm)
    acc = item
    for k in range(nd):
        ax = perm[k]
        out[ax] = acc
        acc *= shape[ax] if shape[ax] > 0 else 1
    return 0


def order_axes(st, nop, nd, perm):
    """``perm[0]`` innermost: NumPy's ``npyiter_find_best_axis_ordering`` over
    the strides ``st[op, axis]`` of ``nop`` operands -- a stable insertion sort,
    the last axis innermost first; a pair of axes is ambiguous until an operand
    has both strides non-zero, and C order wins conflicts between operands."""
    for k in range(nd):
        perm[k] = nd - 1 - k
    for i0 in range(1, nd):
        j0 = perm[i0]
        ipos = i0
        i1 = i0 - 1
        while i1 >= 0:
            j1 = perm[i1]
            ambig = True
            swap = False
            for iop in range(nop):
                s0 = st[iop, j0]
                s1 = st[iop, j1]
                if s0 != 0 and s1 != 0:
                    if abs(s1) <= abs(s0):
                        swap = False
                    elif ambig:
                        swap = True
                    ambig = False
            if not ambig:
                if swap:
                    ipos = i1
                else:
                    break
            i1 -= 1
        k = i0
        while k > ipos:
            perm[k] = perm[k - 1]
            k -= 1
        perm[ipos] = j0


def innermost_axis(shape, strides):
    """The axis NumPy's iterator makes innermost, axes of length 1 aside (-1
    when every axis has length 1)."""
    order = iteration_order(shape, strides)
    for k in range(len(order)):
        if shape[order[k]] != 1:
            return order[k]
    return -1


def merged_axes(shape, strides):
    """``(count, lengths, strides)`` of the merged axes, innermost first."""
    nd = len(shape)
    order = iteration_order(shape, strides)
    gshape = np.ones(nd + 1, np.int64)
    gstride = np.zeros(nd + 1, np.int64)
    g = 0
    j = order[0]
    gshape[0] = shape[j]
    gstride[0] = 0 if shape[j] == 1 else strides[j]
    for k in range(1, nd):
        j = order[k]
        s1 = shape[j]
        t1 = 0 if s1 == 1 else strides[j]
        s0 = gshape[g]
        t0 = gstride[g]
        if (s0 == 1 and t0 == 0) or (s1 == 1 and t1 == 0) or t0 * s0 == t1:
            gshape[g] = s0 * s1
            if t0 == 0:
                gstride[g] = t1
        else:
            g += 1
            gshape[g] = s1
            gstride[g] = t1
    return g + 1, gshape, gstride


def buffer_axes(count, gshape):
    """How many merged axes one buffer fill spans whole below the one it
    steps along (0: no buffering, the innermost merged axis is each lane)."""
    if count < 2:
        return 0
    cost = 2                    # the operand needs a buffer from the 2nd axis on
    best_dim = 0
    best_cost = 1
    best_size = gshape[0]
    size = gshape[0]
    for idim in range(1, count):
        if size >= BUFSIZE and cost > 1:
            break
        size *= gshape[idim]
        if size == 0:
            break
        bufsize = size if size <= BUFSIZE else BUFSIZE
        if cost * best_size <= best_cost * bufsize:
            best_cost = cost
            best_size = size
            best_dim = idim
    return best_dim


def strided_sum(mem, start, shape, strides, zero):
    """NumPy's ``np.sum`` of the array described (module docstring)."""
    count, gshape, gstride = merged_axes(shape, strides)
    total = zero
    size = 1
    for k in range(count):
        size *= gshape[k]
    if size == 0:
        return total
    bd = buffer_axes(count, gshape)
    if bd == 0:
        # one lane per index of the outer merged axes
        idx = np.zeros(count + 1, np.int64)
        n0 = gshape[0]
        s0 = gstride[0]
        while idx[count] == 0:
            off = start
            for k in range(1, count):
                off += idx[k] * gstride[k]
            total += lane(mem, off, n0, s0, zero)
            advance(idx, gshape, count)
        return total
    per = buffer_slices(gshape, bd)
    buf = np.full(core_size(gshape, bd) * per, zero)
    idx = np.zeros(count + 1, np.int64)      # over the axes above bd
    while idx[count] == 0:
        base = start
        for k in range(bd + 1, count):
            base += idx[k] * gstride[k]
        step = 0
        while step < gshape[bd]:
            take = min(gshape[bd] - step, per)
            n = fill_buffer(mem, base + step * gstride[bd], take, gstride[bd], bd, gshape,
                            gstride, buf)
            total += lane_sum(buf, 0, n, zero)
            step += take
        advance_from(idx, gshape, count, bd + 1)
    return total


def core_size(gshape, bd):
    """Items in one slice of merged axis ``bd``: the axes below it."""
    core = 1
    for k in range(bd):
        core *= gshape[k]
    return core


def buffer_slices(gshape, bd):
    """How many slices of merged axis ``bd`` one fill of the buffer takes."""
    return min(BUFSIZE // core_size(gshape, bd), gshape[bd])


def advance_from(idx, shape, count, first):
    """:func:`advance` from axis ``first`` up (``idx[count]`` becomes 1 after the
    last)."""
    k = first
    idx[k] += 1
    while k < count and idx[k] == shape[k]:
        idx[k] = 0
        k += 1
        idx[k] += 1


def lane(mem, off, n, stride, zero):
    """The pairwise sum of the ``n`` items from ``mem[off]`` every ``stride``."""
    if stride == 1:
        return lane_sum(mem[off:off + n], 0, n, zero)
    if stride > 0:
        return lane_sum(mem[off:off + (n - 1) * stride + 1:stride], 0, n, zero)
    if stride < 0:
        return lane_sum(mem[off + (n - 1) * stride:off + 1][::stride], 0, n, zero)
    return lane_sum(np.full(n, mem[off]), 0, n, zero)


def fill_buffer(mem, base, take, bstride, bd, gshape, gstride, buf):
    """Copy ``take`` slices of merged axis ``bd`` (each the axes below it, in
    iteration order) from ``mem[base]`` into ``buf``; return the item count."""
    n = 0
    idx = np.zeros(bd + 1, np.int64)
    n0 = gshape[0]
    s0 = gstride[0]
    for t in range(take):
        for k in range(bd + 1):
            idx[k] = 0
        while idx[bd] == 0:
            off = base + t * bstride
            for k in range(1, bd):
                off += idx[k] * gstride[k]
            for j in range(n0):
                buf[n + j] = mem[off + j * s0]
            n += n0
            advance(idx, gshape, bd)
    return n


def advance(idx, shape, count):
    """The next index of axes 1 .. count-1 (odometer order, axis 1 fastest);
    ``idx[count]`` becomes 1 after the last."""
    advance_from(idx, shape, count, 1)


for _f in (iteration_order, temporary_strides, order_axes, innermost_axis, merged_axes,
           buffer_axes, strided_sum, lane, fill_buffer, advance, advance_from, core_size,
           buffer_slices):
    _f.hj_unchecked = True
