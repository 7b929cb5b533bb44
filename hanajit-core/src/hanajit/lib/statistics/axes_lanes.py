"""The order of NumPy's float ``sum``/``prod``/``max``/``min`` over a tuple of
axes of an array of any strides (``a.sum(axis=(0, 1))``), in Python source
compiled by hanajit (see ``helpers``), so that such reductions are NumPy's bit
for bit (measured against NumPy 2.4).

NumPy's reduction iterator puts the axes in its order (by the sizes of their
strides: memory order for a C- or F-ordered array), drops axes of length 1 and
merges neighbouring axes that are both reduced or both kept where their
strides chain, so the array is a few merged axes, alternately reduced and
kept.  The innermost merged axis is each call of the inner loop:

* reduced: each run is reduced on its own -- pairwise for a sum
  (``pairwise_sum.lane_sum``), NumPy's vector loop for min/max -- and
  combined into the result element it belongs to (a product multiplies on,
  element by element, from the result's value);
* kept: the run is combined element by element into a run of results.

When the two innermost merged axes or more are reduced, NumPy buffers them as
for a whole sum, and each fill of its buffer is one run.  Runs come in
iteration order, so each result element meets them in that order:
``((0 + pw(run0)) + pw(run1)) + ...``.  Sums start from 0.0 and products from
1.0 (the identities: ``-0.0`` values sum to ``0.0``, as NumPy's); min/max
start from the first value they meet.
"""
import numpy as np

from ..arrays.extreme_lanes import LANES, extreme_at
from ..arrays.minmax_algorithms import contiguous
from .pairwise_sum import lane_sum
from .sum_lanes import (advance_from, buffer_axes, buffer_slices, core_size, fill_buffer,
                        iteration_order, lane)

SUM, PROD, MAX, MIN = 0, 1, 2, 3


def _extreme_from(mem, off, n, stride, init, kind, scratch, nans, model):
    """NumPy's max (``kind``) or min of the run of ``n`` items from ``mem[off]``
    every ``stride`` reduced on from ``init``, the result element's value so
    far.  A contiguous run goes through NumPy's vector loop, whose lanes all
    start from ``init`` (``acc = setall(out)``): so which of equal zeros it
    keeps is that of ``np.max`` of ``[init] + run`` -- not of ``np.max(run)``
    put with ``init`` afterwards; only a zero result is recomputed so (a copy).
    A strided run is NumPy's scalar loop, in order from ``init``.  ``model``:
    the host NumPy's lanes (:func:`_numpy_zero`)."""
    if stride == 1:
        v = extreme_at(mem, off, n, kind == MAX, scratch, nans)
        r = np.maximum(init, v) if kind == MAX else np.minimum(init, v)
        if r != 0:
            return r        # (a value no other equals, or a NaN: the same in any order)
        tmp = np.empty(n + 1, mem.dtype)
        tmp[0] = init
        for j in range(n):
            tmp[j + 1] = mem[off + j]
        return _numpy_zero(tmp, 0, n + 1, r, kind, model)
    r = init
    for j in range(n):
        x = mem[off + j * stride]
        r = np.maximum(r, x) if kind == MAX else np.minimum(r, x)
    return r


def _numpy_zero(mem, off, n, r, kind, model):
    """The zero ``np.max`` (``kind``) or ``np.min`` of the ``n`` items from
    ``mem[off]``, whose extreme ``r`` is a zero, returns: NumPy's contiguous
    loop with ``model[0]`` lanes folded from ``model[1]`` bytes
    (``minmax_algorithms.contiguous``; ``zero_pick.simd_model``), or ``r``
    where no model of the host's NumPy fits."""
    if model[0] == 0:
        return r
    return contiguous(mem[off:off + n], kind == MAX, model[0], model[1])


def _combine(mem, base, out, lo, n, kind):
    """Combine the run ``mem[base:base + n]`` into ``out[lo:lo + n]``, element by
    element (a contiguous kept run: loops that vectorise)."""
    if kind == SUM:
        for j in range(n):
            out[lo + j] = out[lo + j] + mem[base + j]
    elif kind == PROD:
        for j in range(n):
            out[lo + j] = out[lo + j] * mem[base + j]
    elif kind == MAX:
        for j in range(n):
            out[lo + j] = np.maximum(out[lo + j], mem[base + j])
    else:
        for j in range(n):
            out[lo + j] = np.minimum(out[lo + j], mem[base + j])


def reduce_strided(mem, start, shape, strides, reduced, out, ostr, kind, zero, model):
    """``out`` as NumPy's reduction ``kind`` of an array of any strides: ``mem``
    a 1-D view of its memory from its lowest element, ``start`` the index of
    its first element there, ``strides`` in items, ``reduced`` a flag per axis;
    ``out`` holds the kept axes in NumPy's iteration order (their strides in
    ``out`` are written to ``ostr``, 0 for a reduced axis), already holding
    the reduction's start (``kind``'s identity, or an infinity for min/max);
    ``model`` the host NumPy's lanes for a zero min/max (:func:`_numpy_zero`).

    The iterator puts the axes in its order (``sum_lanes.iteration_order``,
    strides never negated) and merges neighbours that are both reduced or
    both kept where the strides chain.  When the two innermost merged axes or
    more are reduced, the operand is buffered as for a whole sum
    (``sum_lanes.buffer_axes``): each fill of the buffer is one run, combined
    into the result element it belongs to.  Otherwise the innermost merged
    axis is each run: reduced, combined into its result element; kept,
    combined element by element into a run of results."""
    g, gsize, gst, gost, gflag = reduction_axes(shape, strides, reduced, ostr)
    if g < 0:
        return
    if g == 0:                  # a single element
        _into(out, 0, mem[start], kind)
        return
    seen = np.zeros(len(out), np.bool_)   # (max/min: has the element had a run)
    scratch = np.empty(LANES, mem.dtype)
    nans = np.empty(LANES, np.bool_)
    inner = 0
    while inner < g and gflag[inner]:
        inner += 1
    bd = buffer_axes(inner, gsize) if inner >= 2 else 0
    if bd > 0:
        _buffered(mem, start, gsize, gst, gost, g, bd, out, kind, zero, seen, scratch, nans,
                  model)
        return
    idx = np.zeros(g + 1, np.int64)
    pos = np.zeros(2, np.int64)
    n0 = gsize[0]
    s0 = gst[0]
    o0 = gost[0]
    off = start
    o = 0
    while True:
        if gflag[0]:
            _run(mem, off, n0, s0, out, o, kind, zero, seen, scratch, nans, model)
        elif s0 == 1 and o0 == 1:
            _combine(mem, off, out, o, n0, kind)
        else:
            for j in range(n0):
                _into(out, o + j * o0, mem[off + j * s0], kind)
        # the next run: odometer over the merged axes above the innermost
        pos[0] = off
        pos[1] = o
        if next_run(idx, gsize, gst, gost, g, pos):
            return
        off = pos[0]
        o = pos[1]


def reduction_axes(shape, strides, reduced, ostr):
    """NumPy's reduction iterator over an array of ``shape`` and ``strides``
    (items) reducing the axes flagged in ``reduced``: ``(count, sizes,
    strides, out strides, reduced flags)`` of its merged axes, innermost first
    -- its axis order, axes of length 1 dropped, neighbours both reduced or both
    kept merged where their strides chain; ``count`` -1 for an empty array.
    The kept axes' strides in the result (in that order) are written to
    ``ostr``, 0 for a reduced axis."""
    nd = len(shape)
    order = iteration_order(shape, strides)
    total = 1
    for k in range(nd):
        total *= shape[k]
    s = 1
    for q in range(nd):
        k = order[q]
        ostr[k] = 0
        if not reduced[k]:
            ostr[k] = s
            s *= shape[k]
    gsize = np.ones(nd + 1, np.int64)
    gst = np.zeros(nd + 1, np.int64)
    gost = np.zeros(nd + 1, np.int64)
    gflag = np.zeros(nd + 1, np.int64)
    g = 0
    for q in range(nd):
        k = order[q]
        n = shape[k]
        if n == 1:
            continue
        if g > 0 and gflag[g - 1] == reduced[k] and strides[k] == gst[g - 1] * gsize[g - 1]:
            gsize[g - 1] *= n
        else:
            gsize[g] = n
            gst[g] = strides[k]
            gost[g] = ostr[k]
            gflag[g] = reduced[k]
            g += 1
    if total == 0:
        g = -1
    return g, gsize, gst, gost, gflag


def next_run(idx, gsize, gst, gost, g, pos):
    """Step the odometer ``idx`` over the merged axes above the innermost to the
    next run, moving its offsets ``pos`` (``[in the data, in the result]``);
    True after the last."""
    k = 1
    while k < g:
        idx[k] += 1
        pos[0] += gst[k]
        pos[1] += gost[k]
        if idx[k] < gsize[k]:
            return False
        pos[0] -= gsize[k] * gst[k]
        pos[1] -= gsize[k] * gost[k]
        idx[k] = 0
        k += 1
    return True


def _buffered(mem, start, gsize, gst, gost, g, bd, out, kind, zero, seen, scratch, nans,
              model):
    """:func:`reduce_strided` through the buffer: ``per`` slices of merged axis
    ``bd`` (each the axes below it, in iteration order) a fill."""
    per = buffer_slices(gsize, bd)
    buf = np.full(core_size(gsize, bd) * per, zero)
    idx = np.zeros(g + 1, np.int64)      # over the merged axes above bd
    while idx[g] == 0:
        base = start
        o = 0
        for k in range(bd + 1, g):
            base += idx[k] * gst[k]
            o += idx[k] * gost[k]
        step = 0
        while step < gsize[bd]:
            take = min(gsize[bd] - step, per)
            n = fill_buffer(mem, base + step * gst[bd], take, gst[bd], bd, gsize, gst, buf)
            _run(buf, 0, n, 1, out, o, kind, zero, seen, scratch, nans, model)
            step += take
        advance_from(idx, gsize, g, bd + 1)


def _run(mem, off, n, stride, out, k, kind, zero, seen, scratch, nans, model):
    """The ``n`` items from ``mem[off]`` every ``stride`` reduced into ``out[k]``:
    a pairwise sum added, multiplied on one at a time; for max/min NumPy's
    reduce on from ``out[k]`` (:func:`_extreme_from`), or for the element's
    first run (``seen[k]`` not yet set) from the run's first value."""
    if kind == SUM:
        if stride == 1:
            out[k] = out[k] + lane_sum(mem, off, n, zero)
        else:
            out[k] = out[k] + lane(mem, off, n, stride, zero)
    elif kind == PROD:
        acc = out[k]
        if stride == 1:
            for j in range(n):
                acc = acc * mem[off + j]
        else:
            for j in range(n):
                acc = acc * mem[off + j * stride]
        out[k] = acc
    elif seen[k]:
        out[k] = _extreme_from(mem, off, n, stride, out[k], kind, scratch, nans, model)
    else:
        # the first run of the element: NumPy starts from its first value
        # (copied, then skipped)
        r = extreme_at(mem, off, n, kind == MAX, scratch, nans) if stride == 1 \
            else _extreme_from(mem, off, n, stride, mem[off], kind, scratch, nans, model)
        if r == 0 and stride == 1:      # np.max of the run picks its zero
            r = _numpy_zero(mem, off, n, r, kind, model)
        out[k] = r
        seen[k] = True


def _into(out, k, v, kind):
    """``v`` combined into ``out[k]`` (after the values before it)."""
    if kind == SUM:
        out[k] = out[k] + v
    elif kind == PROD:
        out[k] = out[k] * v
    elif kind == MAX:
        out[k] = np.maximum(out[k], v)
    else:
        out[k] = np.minimum(out[k], v)


for _f in (_extreme_from, _numpy_zero, _combine, reduce_strided, reduction_axes, next_run,
           _buffered, _run, _into):
    _f.hj_unchecked = True
_run.hj_inline = True
_into.hj_inline = True
