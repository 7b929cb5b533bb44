"""The loops of NumPy's ``np.einsum`` of one or two operands (``c_einsum``,
``optimize=False``), in Python source compiled by hanajit (see
``lib/python/helpers.py``), so that float results are NumPy's bit for bit
(measured against NumPy 2.4).

NumPy's einsum runs one ``nditer`` over every label -- the output's in order,
then the summed ones in alphabetical order -- and zeroes the output first;
``einsum_iterator`` follows its order, merging and inner loops.  Each inner
loop runs a "sum of products" loop chosen by the strides NumPy's iterator gives
it (``piece_two``/``piece_one``; a buffered operand has stride 1): element by
element ``out[i] = a[i] * b[i] + out[i]`` where the output moves, and where it
does not (a sum inside the piece) NumPy's SIMD loops of its baseline (128-bit
vectors: ``W`` = 2 float64 or 4 float32 lanes): four vectors at a time chained
as ``acc = a0*b0 + (a1*b1 + (a2*b2 + (a3*b3 + acc)))`` lane by lane, then one
vector at a time (zeros past the end), the lanes summed as ``(l0 + l1) + (l2 +
l3)``; a plain sum adds the four vectors as ``(v0 + v1) + (v2 + v3)`` into
``acc``; strided pieces add in order into a scalar.  The piece's value is then
added to the output: ``out = out + value``.

``einsum_two(a, b, base, cast, st, sizes, nout, out, ostr, W, zero)``:
``a``/``b`` are 1-D views of the operands' memory from their lowest element
(an operand of another dtype cast first: ``cast[k]`` 1), ``base`` where element
0 is in each, ``st[op, label]`` strides in items (0: label absent; a repeated
label's strides summed), ``sizes`` per label, the first ``nout`` the output's;
``out`` zeroed, of the output's size; ``ostr`` receives the output's strides
per output label, in items.  ``einsum_one`` is the same for one operand;
three operands or more are in ``einsum_many``, complex ones in
``einsum_complex``.
"""
import numpy as np

from .einsum_iterator import (advance_by, buffer_plan, gather, iteration_start, loop_length,
                              merged_labels, positions, skip_by)
from ..statistics.sum_lanes import advance


def einsum_two(a, b, base, cast, st, sizes, nout, out, ostr, W, zero):
    """``out`` as NumPy's einsum of two operands (module docstring)."""
    return _pieces(a, b, 2, base, cast, st, sizes, nout, out, ostr, W, zero)


def einsum_one(a, base, cast, st, sizes, nout, out, ostr, W, zero):
    """``out`` as NumPy's einsum of one operand with a sum (module docstring)."""
    return _pieces(a, a, 1, base, cast, st, sizes, nout, out, ostr, W, zero)


def _pieces(a, b, nop, base, cast, st, sizes, nout, out, ostr, W, zero):
    """The iteration of ``nop`` (1 or 2) operands: the outer merged labels in
    order, the inner one whole (NumPy's unbuffered loops, two or three merged
    labels) or in the buffered iterator's inner loops (module docstring)."""
    gsize, gst, ng = merged_labels(st, sizes, nop, nout, ostr)
    casts = 0
    for k in range(nop):
        casts += cast[k]
    if (ng == 2 or ng == 3) and casts == 0:
        _whole_rows(a, b, nop, base, gsize, gst, ng, out, W, zero)
    elif ng > 0:
        _buffered_pieces(a, b, nop, base, cast, gsize, gst, ng, sizes.shape[0] > nout, out,
                         W, zero)
    return 0


def _whole_rows(a, b, nop, base, gsize, gst, ng, out, W, zero):
    """NumPy's unbuffered loops: the outer merged labels in order, the inner
    one whole."""
    inner = gsize[0]
    if nop == 2 and gst[2, 0] == 0 and gst[0, 0] == 1 and gst[1, 0] == 1:
        _dot_rows(a, b, base, gsize, gst, ng, out, W, zero)
        return
    if nop == 1 and gst[1, 0] == 0 and gst[0, 0] == 1:
        _total_rows(a, base, gsize, gst, ng, out, W, zero)
        return
    idx = np.zeros(ng + 1, np.int64)
    pos = np.zeros(nop + 1, np.int64)
    while idx[ng] == 0:
        positions(idx, gst, ng, base, nop, pos)
        if nop == 2:
            piece_two(a, pos[0], gst[0, 0], b, pos[1], gst[1, 0], out, pos[2], gst[2, 0],
                      inner, W, zero)
        else:
            piece_one(a, pos[0], gst[0, 0], out, pos[1], gst[1, 0], inner, W, zero)
        advance(idx, gsize, ng)


def _dot_rows(a, b, base, gsize, gst, ng, out, W, zero):
    """:func:`_whole_rows` of dot products of contiguous rows (``'ij,j->i'``,
    two or three merged labels), two rows at a time: each row's sum is its own
    chain of adds, so two rows wait half as long (the same operations per
    row, and the output's adds in the rows' order)."""
    inner = gsize[0]
    n1 = gsize[1]
    n2 = gsize[2] if ng == 3 else 1
    for t in range(n2):
        pa = base[0]
        pb = base[1]
        po = 0
        if ng == 3:
            pa += t * gst[0, 2]
            pb += t * gst[1, 2]
            po += t * gst[2, 2]
        r = 0
        while r + 1 < n1:
            d = _dot_pair(a, pa + r * gst[0, 1], pa + (r + 1) * gst[0, 1], b,
                          pb + r * gst[1, 1], pb + (r + 1) * gst[1, 1], inner, W, zero)
            o = po + r * gst[2, 1]
            out[o] = out[o] + d[0]
            o += gst[2, 1]
            out[o] = out[o] + d[1]
            r += 2
        if r < n1:
            o = po + r * gst[2, 1]
            out[o] = out[o] + _dot(a, pa + r * gst[0, 1], b, pb + r * gst[1, 1], inner, W,
                                   zero)


def _buffered_pieces(a, b, nop, base, cast, gsize, gst, ng, summed, out, W, zero):
    """:func:`_pieces` through NumPy's buffered iterator (one merged label, or
    four and more): its inner loops (:func:`buffer_setup`).  Where the output
    moves the loops' ends change nothing; where it does not, each inner loop is
    summed by the loop its operands' strides choose -- a buffered operand's
    values copied in the iterator's order (stride 1), or held as one value
    (stride 0) -- and the sum added to the output."""
    plan = buffer_plan(gsize, gst, ng, nop, summed, cast)
    piece = plan[0]
    total, idx, pos = iteration_start(gsize, ng, base, nop)
    n0 = gsize[0]
    if plan[3 + nop] != 0:
        while idx[ng] == 0:     # element by element, in the iterator's order
            r = n0 - idx[0]
            _piece(a, pos[0], gst[0, 0], b, pos[1], gst[1, 0], out, pos[nop], gst[nop, 0],
                   r, W, zero, nop)
            advance_by(idx, pos, gsize, gst, ng, nop, r)
        return
    bufa = np.empty(piece, a.dtype)
    bufb = np.empty(piece, b.dtype)
    i = 0
    while i < total:
        n = loop_length(i, plan)
        # (a buffered operand whose values lie contiguous already is read where
        # it is: the same values in the same order)
        row = n <= n0 - idx[0]
        va = a
        pa = pos[0]
        sa = plan[3]
        if sa == 1 and plan[4 + nop] == 1 and not (row and gst[0, 0] == 1):
            gather(a, pos[0], 0, idx, gsize, gst, ng, n, bufa, 1)
            va = bufa
            pa = 0
        vb = b
        pb = pos[1]
        sb = plan[4]
        if nop == 2 and sb == 1 and plan[5 + nop] == 1 and not (row and gst[1, 0] == 1):
            gather(b, pos[1], 1, idx, gsize, gst, ng, n, bufb, 1)
            vb = bufb
            pb = 0
        _piece(va, pa, sa, vb, pb, sb, out, pos[nop], 0, n, W, zero, nop)
        skip_by(idx, pos, gsize, gst, ng, nop, n)
        i += n


def _piece(a, pa, sa, b, pb, sb, out, po, so, n, W, zero, nop):
    """:func:`piece_two` or (``nop`` 1) :func:`piece_one`: their one call in
    :func:`_buffered_pieces` (each is inlined where it is called)."""
    if nop == 2:
        piece_two(a, pa, sa, b, pb, sb, out, po, so, n, W, zero)
    else:
        piece_one(a, pa, sa, out, po, so, n, W, zero)


def piece_two(a, pa, sa, b, pb, sb, out, po, so, n, W, zero):
    """One piece of the inner loop of a product of two operands (the contiguous
    cases apart, as vector code: the same operations)."""
    if so == 1 and sb == 1 and sa == 0:
        x = a[pa]
        for i in range(n):
            out[po + i] = x * b[pb + i] + out[po + i]
    elif so == 1 and sa == 1 and sb == 0:
        y = b[pb]
        for i in range(n):
            out[po + i] = a[pa + i] * y + out[po + i]
    elif so == 1 and sa == 1 and sb == 1:
        for i in range(n):
            out[po + i] = a[pa + i] * b[pb + i] + out[po + i]
    elif so != 0:
        for i in range(n):
            out[po + i * so] = a[pa + i * sa] * b[pb + i * sb] + out[po + i * so]
    elif sa == 1 and sb == 1:
        out[po] = out[po] + _dot(a, pa, b, pb, n, W, zero)
    elif sa == 0 and sb == 1:
        out[po] = out[po] + a[pa] * _total(b, pb, n, W, zero)
    elif sa == 1 and sb == 0:
        out[po] = out[po] + _total(a, pa, n, W, zero) * b[pb]
    else:
        acc = zero
        for i in range(n):
            acc = acc + a[pa + i * sa] * b[pb + i * sb]
        out[po] = out[po] + acc


def _total_rows(a, base, gsize, gst, ng, out, W, zero):
    """:func:`_whole_rows` of sums of contiguous rows (``'ij->i'``, two or three
    merged labels), two rows at a time, as :func:`_dot_rows` does dot products:
    each row's adds are :func:`_total`'s, and the output's in the rows' order."""
    inner = gsize[0]
    n1 = gsize[1]
    n2 = gsize[2] if ng == 3 else 1
    for t in range(n2):
        pa = base[0]
        po = 0
        if ng == 3:
            pa += t * gst[0, 2]
            po += t * gst[1, 2]
        r = 0
        while r + 1 < n1:
            if W == 2:
                d = _total2_pair(a, pa + r * gst[0, 1], pa + (r + 1) * gst[0, 1], inner,
                                 zero)
            else:
                d = _total4_pair(a, pa + r * gst[0, 1], pa + (r + 1) * gst[0, 1], inner,
                                 zero)
            o = po + r * gst[1, 1]
            out[o] = out[o] + d[0]
            o += gst[1, 1]
            out[o] = out[o] + d[1]
            r += 2
        if r < n1:
            o = po + r * gst[1, 1]
            out[o] = out[o] + _total(a, pa + r * gst[0, 1], inner, W, zero)


def piece_one(a, pa, sa, out, po, so, n, W, zero):
    """One piece of the inner loop of a sum of one operand."""
    if so == 1 and sa == 1:
        for i in range(n):
            out[po + i] = a[pa + i] + out[po + i]
    elif so != 0:
        for i in range(n):
            out[po + i * so] = a[pa + i * sa] + out[po + i * so]
    elif sa == 1:
        out[po] = out[po] + _total(a, pa, n, W, zero)
    else:
        acc = zero
        for i in range(n):
            acc = acc + a[pa + i * sa]
        out[po] = out[po] + acc


def _dot(a, pa, b, pb, n, W, zero):
    """NumPy's ``sum_of_products_contig_contig_outstride0_two``: ``W`` lanes
    (2 or 4), four vectors chained per step, the tail zero-padded."""
    acc0 = zero
    acc1 = zero
    acc2 = zero
    acc3 = zero
    i = 0
    if W == 2:
        while n - i >= 8:
            j = pa + i
            k = pb + i
            acc0 = a[j] * b[k] + (a[j + 2] * b[k + 2] + (a[j + 4] * b[k + 4] + (
                a[j + 6] * b[k + 6] + acc0)))
            acc1 = a[j + 1] * b[k + 1] + (a[j + 3] * b[k + 3] + (a[j + 5] * b[k + 5] + (
                a[j + 7] * b[k + 7] + acc1)))
            i += 8
        while i < n:
            acc0 = a[pa + i] * b[pb + i] + acc0
            if i + 1 < n:
                acc1 = a[pa + i + 1] * b[pb + i + 1] + acc1
            else:
                acc1 = zero * zero + acc1
            i += 2
        return acc0 + acc1
    while n - i >= 16:
        j = pa + i
        k = pb + i
        acc0 = a[j] * b[k] + (a[j + 4] * b[k + 4] + (a[j + 8] * b[k + 8] + (
            a[j + 12] * b[k + 12] + acc0)))
        acc1 = a[j + 1] * b[k + 1] + (a[j + 5] * b[k + 5] + (a[j + 9] * b[k + 9] + (
            a[j + 13] * b[k + 13] + acc1)))
        acc2 = a[j + 2] * b[k + 2] + (a[j + 6] * b[k + 6] + (a[j + 10] * b[k + 10] + (
            a[j + 14] * b[k + 14] + acc2)))
        acc3 = a[j + 3] * b[k + 3] + (a[j + 7] * b[k + 7] + (a[j + 11] * b[k + 11] + (
            a[j + 15] * b[k + 15] + acc3)))
        i += 16
    while i < n:
        acc0 = a[pa + i] * b[pb + i] + acc0
        acc1 = (a[pa + i + 1] * b[pb + i + 1] if i + 1 < n else zero * zero) + acc1
        acc2 = (a[pa + i + 2] * b[pb + i + 2] if i + 2 < n else zero * zero) + acc2
        acc3 = (a[pa + i + 3] * b[pb + i + 3] if i + 3 < n else zero * zero) + acc3
        i += 4
    return (acc0 + acc1) + (acc2 + acc3)


def _dot_pair(a, pa, qa, b, pb, qb, n, W, zero):
    """:func:`_dot` of the rows from ``pa``/``pb`` and from ``qa``/``qb`` at once
    (each row's operations are :func:`_dot`'s, so its bits too)."""
    x0 = zero
    x1 = zero
    x2 = zero
    x3 = zero
    y0 = zero
    y1 = zero
    y2 = zero
    y3 = zero
    i = 0
    if W == 2:
        while n - i >= 8:
            j = pa + i
            k = pb + i
            u = qa + i
            v = qb + i
            x0 = a[j] * b[k] + (a[j + 2] * b[k + 2] + (a[j + 4] * b[k + 4] + (
                a[j + 6] * b[k + 6] + x0)))
            x1 = a[j + 1] * b[k + 1] + (a[j + 3] * b[k + 3] + (a[j + 5] * b[k + 5] + (
                a[j + 7] * b[k + 7] + x1)))
            y0 = a[u] * b[v] + (a[u + 2] * b[v + 2] + (a[u + 4] * b[v + 4] + (
                a[u + 6] * b[v + 6] + y0)))
            y1 = a[u + 1] * b[v + 1] + (a[u + 3] * b[v + 3] + (a[u + 5] * b[v + 5] + (
                a[u + 7] * b[v + 7] + y1)))
            i += 8
        while i < n:
            x0 = a[pa + i] * b[pb + i] + x0
            y0 = a[qa + i] * b[qb + i] + y0
            if i + 1 < n:
                x1 = a[pa + i + 1] * b[pb + i + 1] + x1
                y1 = a[qa + i + 1] * b[qb + i + 1] + y1
            else:
                x1 = zero * zero + x1
                y1 = zero * zero + y1
            i += 2
        return x0 + x1, y0 + y1
    while n - i >= 16:
        j = pa + i
        k = pb + i
        u = qa + i
        v = qb + i
        x0 = a[j] * b[k] + (a[j + 4] * b[k + 4] + (a[j + 8] * b[k + 8] + (
            a[j + 12] * b[k + 12] + x0)))
        x1 = a[j + 1] * b[k + 1] + (a[j + 5] * b[k + 5] + (a[j + 9] * b[k + 9] + (
            a[j + 13] * b[k + 13] + x1)))
        x2 = a[j + 2] * b[k + 2] + (a[j + 6] * b[k + 6] + (a[j + 10] * b[k + 10] + (
            a[j + 14] * b[k + 14] + x2)))
        x3 = a[j + 3] * b[k + 3] + (a[j + 7] * b[k + 7] + (a[j + 11] * b[k + 11] + (
            a[j + 15] * b[k + 15] + x3)))
        y0 = a[u] * b[v] + (a[u + 4] * b[v + 4] + (a[u + 8] * b[v + 8] + (
            a[u + 12] * b[v + 12] + y0)))
        y1 = a[u + 1] * b[v + 1] + (a[u + 5] * b[v + 5] + (a[u + 9] * b[v + 9] + (
            a[u + 13] * b[v + 13] + y1)))
        y2 = a[u + 2] * b[v + 2] + (a[u + 6] * b[v + 6] + (a[u + 10] * b[v + 10] + (
            a[u + 14] * b[v + 14] + y2)))
        y3 = a[u + 3] * b[v + 3] + (a[u + 7] * b[v + 7] + (a[u + 11] * b[v + 11] + (
            a[u + 15] * b[v + 15] + y3)))
        i += 16
    while i < n:
        x0 = a[pa + i] * b[pb + i] + x0
        x1 = (a[pa + i + 1] * b[pb + i + 1] if i + 1 < n else zero * zero) + x1
        x2 = (a[pa + i + 2] * b[pb + i + 2] if i + 2 < n else zero * zero) + x2
        x3 = (a[pa + i + 3] * b[pb + i + 3] if i + 3 < n else zero * zero) + x3
        y0 = a[qa + i] * b[qb + i] + y0
        y1 = (a[qa + i + 1] * b[qb + i + 1] if i + 1 < n else zero * zero) + y1
        y2 = (a[qa + i + 2] * b[qb + i + 2] if i + 2 < n else zero * zero) + y2
        y3 = (a[qa + i + 3] * b[qb + i + 3] if i + 3 < n else zero * zero) + y3
        i += 4
    return (x0 + x1) + (x2 + x3), (y0 + y1) + (y2 + y3)


def _total(a, pa, n, W, zero):
    """NumPy's ``sum_of_arr``: ``W`` lanes, four vectors added as ``(v0 + v1) +
    (v2 + v3)`` into the accumulator per step, the tail zero-padded.  Two
    functions of the same shape, one per lane count, on purpose: one body for
    both, compiled in a shared piece where ``W`` is not a constant, lost its
    vector form (docs/architecture.md, shared pieces)."""
    if W == 2:
        return _total2(a, pa, n, zero)
    return _total4(a, pa, n, zero)


def _total2(a, pa, n, zero):
    """:func:`_total` of two lanes (float64)."""
    acc0 = zero
    acc1 = zero
    steps = n // 8
    for t in range(steps):
        j = pa + 8 * t
        acc0 = ((a[j] + a[j + 2]) + (a[j + 4] + a[j + 6])) + acc0
        acc1 = ((a[j + 1] + a[j + 3]) + (a[j + 5] + a[j + 7])) + acc1
    i = 8 * steps
    while i < n:
        acc0 = a[pa + i] + acc0
        acc1 = (a[pa + i + 1] if i + 1 < n else zero) + acc1
        i += 2
    return acc0 + acc1


def _total4(a, pa, n, zero):
    """:func:`_total` of four lanes (float32)."""
    acc0 = zero
    acc1 = zero
    acc2 = zero
    acc3 = zero
    steps = n // 16
    for t in range(steps):
        j = pa + 16 * t
        acc0 = ((a[j] + a[j + 4]) + (a[j + 8] + a[j + 12])) + acc0
        acc1 = ((a[j + 1] + a[j + 5]) + (a[j + 9] + a[j + 13])) + acc1
        acc2 = ((a[j + 2] + a[j + 6]) + (a[j + 10] + a[j + 14])) + acc2
        acc3 = ((a[j + 3] + a[j + 7]) + (a[j + 11] + a[j + 15])) + acc3
    i = 16 * steps
    while i < n:
        acc0 = a[pa + i] + acc0
        acc1 = (a[pa + i + 1] if i + 1 < n else zero) + acc1
        acc2 = (a[pa + i + 2] if i + 2 < n else zero) + acc2
        acc3 = (a[pa + i + 3] if i + 3 < n else zero) + acc3
        i += 4
    return (acc0 + acc1) + (acc2 + acc3)


def _total2_pair(a, pa, qa, n, zero):
    """:func:`_total2` of the rows from ``pa`` and from ``qa`` at once."""
    x0 = zero
    x1 = zero
    y0 = zero
    y1 = zero
    steps = n // 8
    for t in range(steps):
        j = pa + 8 * t
        u = qa + 8 * t
        x0 = ((a[j] + a[j + 2]) + (a[j + 4] + a[j + 6])) + x0
        x1 = ((a[j + 1] + a[j + 3]) + (a[j + 5] + a[j + 7])) + x1
        y0 = ((a[u] + a[u + 2]) + (a[u + 4] + a[u + 6])) + y0
        y1 = ((a[u + 1] + a[u + 3]) + (a[u + 5] + a[u + 7])) + y1
    i = 8 * steps
    while i < n:
        x0 = a[pa + i] + x0
        x1 = (a[pa + i + 1] if i + 1 < n else zero) + x1
        y0 = a[qa + i] + y0
        y1 = (a[qa + i + 1] if i + 1 < n else zero) + y1
        i += 2
    return x0 + x1, y0 + y1


def _total4_pair(a, pa, qa, n, zero):
    """:func:`_total4` of the rows from ``pa`` and from ``qa`` at once."""
    x0 = zero
    x1 = zero
    x2 = zero
    x3 = zero
    y0 = zero
    y1 = zero
    y2 = zero
    y3 = zero
    steps = n // 16
    for t in range(steps):
        j = pa + 16 * t
        u = qa + 16 * t
        x0 = ((a[j] + a[j + 4]) + (a[j + 8] + a[j + 12])) + x0
        x1 = ((a[j + 1] + a[j + 5]) + (a[j + 9] + a[j + 13])) + x1
        x2 = ((a[j + 2] + a[j + 6]) + (a[j + 10] + a[j + 14])) + x2
        x3 = ((a[j + 3] + a[j + 7]) + (a[j + 11] + a[j + 15])) + x3
        y0 = ((a[u] + a[u + 4]) + (a[u + 8] + a[u + 12])) + y0
        y1 = ((a[u + 1] + a[u + 5]) + (a[u + 9] + a[u + 13])) + y1
        y2 = ((a[u + 2] + a[u + 6]) + (a[u + 10] + a[u + 14])) + y2
        y3 = ((a[u + 3] + a[u + 7]) + (a[u + 11] + a[u + 15])) + y3
    i = 16 * steps
    while i < n:
        x0 = a[pa + i] + x0
        x1 = (a[pa + i + 1] if i + 1 < n else zero) + x1
        x2 = (a[pa + i + 2] if i + 2 < n else zero) + x2
        x3 = (a[pa + i + 3] if i + 3 < n else zero) + x3
        y0 = a[qa + i] + y0
        y1 = (a[qa + i + 1] if i + 1 < n else zero) + y1
        y2 = (a[qa + i + 2] if i + 2 < n else zero) + y2
        y3 = (a[qa + i + 3] if i + 3 < n else zero) + y3
        i += 4
    return (x0 + x1) + (x2 + x3), (y0 + y1) + (y2 + y3)


# every index above is in range by construction: no checks (pipeline.py)
for _f in (einsum_two, einsum_one, _pieces, _whole_rows, _dot_rows, _buffered_pieces, _piece,
           piece_two, piece_one, _dot, _dot_pair, _total, _total2, _total4, _total_rows,
           _total2_pair, _total4_pair):
    _f.hj_unchecked = True
# (the inner loops inlined where they run: a call per row cost 'ij,jk->ik' of
# 200x200 a fifth of its time, and 'bij,bjk->bik' of 64x16x16 a third)
piece_two.hj_inline = True
piece_one.hj_inline = True
_piece.hj_inline = True
# (the vector steps of the sums: SLP vectors of W lanes, as NumPy's; the loop
# vectoriser made each lane's adds scalar, one after another)
_total2.hj_short_loops = _total4.hj_short_loops = True
_total2_pair.hj_short_loops = _total4_pair.hj_short_loops = True
