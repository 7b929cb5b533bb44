"""NumPy's ``nditer`` as ``np.einsum`` runs it (``c_einsum``,
``optimize=False``), in Python source compiled by hanajit (see
``lib/python/helpers.py``): the order of the labels, their merging and the
inner loops of its buffered iteration, which decide the order of a float
einsum's sums (measured against NumPy 2.4; ``einsum_algorithms`` and
``einsum_many`` run the loops, ``einsum_complex`` the complex ones).

* The labels are put in the iterator's order by the operands' strides
  (``sum_lanes.order_axes``: NumPy's stable insertion sort, the last label
  innermost first; a label of length 1 has stride 0 in every operand, the
  output's too), strides never negated; the output is allocated in that
  order (its strides grow from the innermost label out) and neighbouring
  labels merge where every operand's strides chain (:func:`merged`).
* Without casts, one or two operands over two or three merged labels run
  NumPy's unbuffered loops (the innermost label whole).  Otherwise the
  iterator is buffered (no ``GROWINNER``): :func:`buffer_setup` finds how many
  merged labels an inner loop spans (at most 8192 values), where inner loops
  end, and each operand's stride in them -- its own, or 1 where NumPy copies it
  into a buffer (a cast operand always), or 0 where the buffer holds one value.

Positions and strides are in values of the operands' memories (``base[k]``:
where operand ``k``'s element 0 is); ``gsize``/``gst`` the merged labels,
innermost first, and their strides per operand, the output's last.
"""
import numpy as np

from ..statistics.sum_lanes import order_axes

PIECE = 8192            # NPY_BUFSIZE: the inner loop's longest piece


def merged(st, sizes, nop, nout, ostr, gsize, gst):
    """The iterator's merged labels, innermost first, into ``gsize``/``gst``
    (strides of the operands, then of the output); their count (0: the
    iteration is empty)."""
    nl = sizes.shape[0]
    all_st = np.zeros((nop + 1, nl), np.int64)
    for iop in range(nop):
        for k in range(nl):
            if sizes[k] != 1:
                all_st[iop, k] = st[iop, k]
    perm = np.empty(nl, np.int64)
    order_axes(all_st, nop, nl, perm)
    s = 1
    for q in range(nl):
        k = perm[q]
        if k < nout:
            if sizes[k] != 1:
                all_st[nop, k] = s
            ostr[k] = s
            s *= sizes[k]
    ng = 0
    for q in range(nl):
        k = perm[q]
        if sizes[k] == 0:
            return 0
        if ng > 0:
            chain = True
            n0 = gsize[ng - 1]
            n1 = sizes[k]
            for iop in range(nop + 1):
                s0 = gst[iop, ng - 1]
                s1 = all_st[iop, k]
                if not ((n0 == 1 and s0 == 0) or (n1 == 1 and s1 == 0)) and s0 * n0 != s1:
                    chain = False
            if chain:
                for iop in range(nop + 1):
                    if gst[iop, ng - 1] == 0 and n0 == 1:
                        gst[iop, ng - 1] = all_st[iop, k]
                gsize[ng - 1] = n0 * n1
                continue
        gsize[ng] = sizes[k]
        for iop in range(nop + 1):
            gst[iop, ng] = all_st[iop, k]
        ng += 1
    return ng


def merged_labels(st, sizes, nop, nout, ostr):
    """:func:`merged` into new arrays: ``(gsize, gst, count)``."""
    nl = sizes.shape[0]
    gsize = np.ones(nl + 1, np.int64)
    gst = np.zeros((nop + 1, nl + 1), np.int64)
    return gsize, gst, merged(st, sizes, nop, nout, ostr, gsize, gst)


def positions(idx, gst, ng, base, nop, pos):
    """``pos``: where the inner loop starts in each operand and in the output,
    at the index ``idx`` of the outer merged labels."""
    for iop in range(nop + 1):
        p = base[iop] if iop < nop else 0
        for g in range(1, ng):
            p += idx[g] * gst[iop, g]
        pos[iop] = p


def buffer_setup(gsize, gst, ng, nop, summed, cast, plan):
    """NumPy's buffered iterator for einsum (its ``npyiter_find_buffering_setup``,
    no ``GROWINNER``; ``cast[k]`` 1 for an operand NumPy casts): ``plan[0]`` the
    length of an inner loop, ``plan[1]`` the span (merged labels ``0 ..
    outer``) inner loops never cross, ``plan[2]`` the output's stride in them
    (0: each inner loop is summed on its own); ``plan[3 + k]`` operand ``k``'s
    stride in them and ``plan[4 + nop + k]`` 1 where it is buffered (the output
    is operand ``nop``).

    From the innermost merged label out, while the span is below the buffer
    size (8192) and no reduction flip is met: an operand whose strides stop
    chaining costs one buffer more (a cast one costs one from the start); the
    output's stride turning to or from 0 (``summed``: a label is summed) is
    the reduction's outer label, beyond
    which the span never grows; the span ending at the label with the least
    cost per item (``(1 + buffers) / min(span, 8192)``, the later label on a
    tie) is kept.  Where that label is the reduction's, an inner loop is one
    core (the labels inside it); else a buffer, the span cut at a multiple of
    the core below 8192."""
    cost = 1
    for k in range(nop):
        cost += cast[k]             # (an operand cast is always buffered)
    single = np.ones(nop + 1, np.int64)
    outer_reduce = 0
    size = gsize[0]
    best_dim = 0
    best_cost = cost
    best_size = size
    best_core = 1
    for idim in range(1, ng):
        if outer_reduce != 0 or size >= PIECE:
            break
        pshape = gsize[idim - 1]
        for iop in range(nop + 1):
            ps = gst[iop, idim - 1]
            s = gst[iop, idim]
            if single[iop] == idim:
                if ps * pshape == s:
                    single[iop] += 1
                    continue
                if iop == nop or cast[iop] == 0:
                    cost += 1
            if iop == nop and summed and (s == 0 or ps == 0):
                outer_reduce = idim
        core = size
        size *= gsize[idim]
        if size == 0:
            break
        bufsize = size if size < PIECE else PIECE
        if cost * best_size <= best_cost * bufsize:
            best_cost = cost
            best_core = core
            best_size = size
            best_dim = idim
    using_reduce = outer_reduce != 0 and best_dim == outer_reduce
    for o in range(nop + 1):
        # each operand's stride in the inner loops: its own, or 1 (a buffer of
        # its values in the iterator's order), or 0 (one value for the loop)
        casted = o < nop and cast[o] != 0
        reduce_op = using_reduce and ((o == nop and outer_reduce == best_dim)
                                      or (single[o] == best_dim and not casted)
                                      or (gst[o, best_dim] == 0 and single[o] <= best_dim))
        one_stride = single[o] + (1 if reduce_op else 0) > best_dim
        plan[4 + nop + o] = 1           # (buffered)
        if one_stride and not casted:
            plan[3 + o] = gst[o, 0]
            plan[4 + nop + o] = 0
        elif reduce_op:
            plan[3 + o] = 1 if gst[o, best_dim] == 0 else 0
        elif one_stride and gst[o, 0] == 0:
            plan[3 + o] = 0
        else:
            plan[3 + o] = 1
    plan[2] = plan[3 + nop]
    if PIECE < best_size:
        best_size = best_core * (PIECE // best_core)
    plan[0] = best_core if using_reduce else best_size
    block = 1
    for g in range(best_dim + 1):
        block *= gsize[g]
    plan[1] = block


def buffer_plan(gsize, gst, ng, nop, summed, cast):
    """:func:`buffer_setup` into a new array."""
    plan = np.zeros(3 + 2 * (nop + 1), np.int64)
    buffer_setup(gsize, gst, ng, nop, summed, cast, plan)
    return plan


def iteration_start(gsize, ng, base, nop):
    """``(total, idx, pos)``: the iteration's element count, its index over the
    merged labels and its position in each operand and the output, at the
    start."""
    total = 1
    for g in range(ng):
        total *= gsize[g]
    idx = np.zeros(ng + 1, np.int64)
    pos = np.zeros(nop + 1, np.int64)
    for iop in range(nop):
        pos[iop] = base[iop]
    return total, idx, pos


def loop_length(i, plan):
    """The length of the inner loop that starts at element ``i`` of the
    iteration (:func:`buffer_setup`'s ``plan``): to the end of its piece, not
    past its span."""
    at = i % plan[1]
    n = plan[0] - at % plan[0]
    return n if n < plan[1] - at else plan[1] - at


def advance_by(idx, pos, gsize, gst, ng, nop, r):
    """Move the iteration ``r`` elements on along merged label 0 (not past its
    end), carrying into the outer labels; ``idx[ng]`` becomes 1 after the
    last."""
    idx[0] += r
    for k in range(nop + 1):
        pos[k] += r * gst[k, 0]
    if idx[0] < gsize[0]:
        return
    g = 0
    while g < ng and idx[g] == gsize[g]:
        for k in range(nop + 1):
            pos[k] -= gsize[g] * gst[k, g]
        idx[g] = 0
        g += 1
        if g < ng:
            idx[g] += 1
            for k in range(nop + 1):
                pos[k] += gst[k, g]
    if g == ng:
        idx[ng] = 1


def skip_by(idx, pos, gsize, gst, ng, nop, n):
    """Move the iteration ``n`` elements on (:func:`advance_by` label 0's
    rows at a time)."""
    left = n
    while left > 0:
        r = gsize[0] - idx[0]
        if left < r:
            r = left
        advance_by(idx, pos, gsize, gst, ng, nop, r)
        left -= r


def gather(m, p, k, idx, gsize, gst, ng, n, buf, w):
    """Copy operand ``k``'s ``n`` values from the iterator's position ``idx``
    (``p`` in memory ``m``), in its order, into ``buf`` (NumPy's buffer); a
    value is ``w`` items (2: a complex one's real and imaginary parts, ``p``
    and the strides counted in values)."""
    j = idx[0]
    g1 = 1
    at = 0
    outer = np.zeros(ng + 1, np.int64)
    for g in range(ng):
        outer[g] = idx[g]
    while at < n:
        r = gsize[0] - j
        if n - at < r:
            r = n - at
        s0 = gst[k, 0]
        if w == 1:
            for t in range(r):
                buf[at + t] = m[p + t * s0]
        else:
            for t in range(r):
                for e in range(w):
                    buf[(at + t) * w + e] = m[(p + t * s0) * w + e]
        at += r
        p += r * s0
        j += r
        if j == gsize[0] and at < n:
            p -= gsize[0] * s0
            j = 0
            g1 = 1
            while g1 < ng:
                outer[g1] += 1
                p += gst[k, g1]
                if outer[g1] < gsize[g1]:
                    break
                p -= gsize[g1] * gst[k, g1]
                outer[g1] = 0
                g1 += 1


# every index above is in range by construction: no checks (pipeline.py)
for _f in (merged, merged_labels, positions, buffer_setup, buffer_plan, iteration_start,
           loop_length, advance_by, skip_by, gather):
    _f.hj_unchecked = True
advance_by.hj_inline = True
