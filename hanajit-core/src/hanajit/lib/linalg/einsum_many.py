"""The loops of NumPy's ``np.einsum`` of three operands or more (``c_einsum``,
``optimize=False``), in Python source compiled by hanajit (see
``lib/python/helpers.py``), in the iteration of ``einsum_iterator``.

NumPy has no SIMD loops for them: each element's product is
``((a * b) * c) * ...``, added into the output element by element, or where
the output does not move in an inner loop, summed in order from 0 and the sum
added to the output (``sum_of_products_three``, ``_outstride0_three``,
``_any``).  Integer operands (any order of their sums is NumPy's value) take
``einsum_three``/``einsum_many``, float ones ``einsum_floats``, whose inner
loops are the buffered iterator's.  The arguments are those of
``einsum_algorithms.einsum_two``; four operands or more come in one memory
(``m``, or passed three times).
"""
import numpy as np

from .einsum_iterator import (advance_by, buffer_plan, iteration_start, loop_length,
                              merged_labels, positions)
from ..statistics.sum_lanes import advance


def einsum_three(a, b, c, base, st, sizes, nout, out, ostr, W, zero):
    """``out`` as NumPy's einsum of three integer operands: ``out = (a * b) * c +
    out`` element by element in the iterator's order."""
    gsize, gst, ng = merged_labels(st, sizes, 3, nout, ostr)
    if ng == 0:
        return 0
    n = gsize[0]
    sa = gst[0, 0]
    sb = gst[1, 0]
    sc = gst[2, 0]
    so = gst[3, 0]
    idx = np.zeros(ng + 1, np.int64)
    pos = np.zeros(4, np.int64)
    while idx[ng] == 0:
        positions(idx, gst, ng, base, 3, pos)
        pa = pos[0]
        pb = pos[1]
        pc = pos[2]
        po = pos[3]
        if so == 0:
            acc = out[po]
            for i in range(n):
                acc = (a[pa + i * sa] * b[pb + i * sb]) * c[pc + i * sc] + acc
            out[po] = acc
        else:
            for i in range(n):
                out[po + i * so] = (a[pa + i * sa] * b[pb + i * sb]) * c[pc + i * sc] \
                    + out[po + i * so]
        advance(idx, gsize, ng)
    return 0


def einsum_many(m, base, st, sizes, nout, out, ostr, W, zero):
    """``out`` as NumPy's einsum of four or more integer operands, all in the
    one memory ``m`` (``base[k]``: where operand ``k``'s element 0 is): NumPy's
    generic loop ``out = ((a * b) * c) * ... + out`` element by element in the
    iterator's order (integers: any order is NumPy's value)."""
    nop = base.shape[0]
    gsize, gst, ng = merged_labels(st, sizes, nop, nout, ostr)
    if ng == 0:
        return 0
    n = gsize[0]
    so = gst[nop, 0]
    idx = np.zeros(ng + 1, np.int64)
    pos = np.zeros(nop + 1, np.int64)
    while idx[ng] == 0:
        positions(idx, gst, ng, base, nop, pos)
        po = pos[nop]
        for i in range(n):
            p = m[pos[0] + i * gst[0, 0]]
            for k in range(1, nop):
                p = p * m[pos[k] + i * gst[k, 0]]
            out[po + i * so] = p + out[po + i * so]
        advance(idx, gsize, ng)
    return 0


def einsum_floats(a, b, c, base, cast, st, sizes, nout, out, ostr, W, zero):
    """``out`` as NumPy's einsum of three float operands or more: ``a``, ``b``,
    ``c`` the three operands' memories, or for more operands all of them in
    one memory passed three times (``base[k]``: where operand ``k``'s element
    0 is).  NumPy's buffered iterator's inner loops (:func:`buffer_setup`),
    each over the elements in the iterator's order of ``((a * b) * c) * ...``:
    added into the output element by element, or where the output does not
    move, summed in order from 0 and the sum added to the output
    (``sum_of_products_three``, ``_outstride0_three``, ``_any``)."""
    nop = base.shape[0]
    gsize, gst, ng = merged_labels(st, sizes, nop, nout, ostr)
    if ng == 0:
        return 0
    plan = buffer_plan(gsize, gst, ng, nop, sizes.shape[0] > nout, cast)
    summing = plan[2] == 0
    total, idx, pos = iteration_start(gsize, ng, base, nop)
    n0 = gsize[0]
    i = 0
    while i < total:
        n = total - i
        if summing:     # (else the inner loops' ends change nothing)
            n = loop_length(i, plan)
        acc = zero
        po = pos[nop]
        left = n
        while left > 0:
            r = n0 - idx[0]
            if left < r:
                r = left
            if summing:
                acc = _products_sum(a, b, c, pos, gst, nop, r, acc)
            else:
                _products_into(a, b, c, pos, gst, nop, r, out)
            advance_by(idx, pos, gsize, gst, ng, nop, r)
            left -= r
        if summing:
            out[po] = acc + out[po]
        i += n
    return 0


def _three(pos, gst):
    """The three operands' positions and strides along merged label 0."""
    return pos[0], pos[1], pos[2], gst[0, 0], gst[1, 0], gst[2, 0]


def _products_sum(a, b, c, pos, gst, nop, r, acc):
    """``acc`` plus each of the ``r`` products from ``pos`` along merged label 0,
    in order (``accum += a * b * c``)."""
    if nop == 3:
        pa, pb, pc, sa, sb, sc = _three(pos, gst)
        for j in range(r):
            acc = acc + (a[pa + j * sa] * b[pb + j * sb]) * c[pc + j * sc]
        return acc
    for j in range(r):
        p = a[pos[0] + j * gst[0, 0]]
        for k in range(1, nop):
            p = p * a[pos[k] + j * gst[k, 0]]
        acc = acc + p
    return acc


def _products_into(a, b, c, pos, gst, nop, r, out):
    """Each of the ``r`` products from ``pos`` along merged label 0 added into
    its output element (``out = a * b * c + out``); a moving output with
    operands that move with it or stay has a loop of its own (vector code)."""
    po = pos[nop]
    so = gst[nop, 0]
    if nop == 3:
        pa, pb, pc, sa, sb, sc = _three(pos, gst)
        if so != 1 or sa > 1 or sb > 1 or sc > 1 or sa < 0 or sb < 0 or sc < 0:
            for j in range(r):
                out[po + j * so] = (a[pa + j * sa] * b[pb + j * sb]) * c[pc + j * sc] \
                    + out[po + j * so]
        elif sa == 1 and sb == 1:
            if sc == 1:
                for j in range(r):
                    out[po + j] = (a[pa + j] * b[pb + j]) * c[pc + j] + out[po + j]
            else:
                z = c[pc]
                for j in range(r):
                    out[po + j] = (a[pa + j] * b[pb + j]) * z + out[po + j]
        elif sa == 1:
            y = b[pb]
            if sc == 1:
                for j in range(r):
                    out[po + j] = (a[pa + j] * y) * c[pc + j] + out[po + j]
            else:
                z = c[pc]
                for j in range(r):
                    out[po + j] = (a[pa + j] * y) * z + out[po + j]
        elif sb == 1:
            x = a[pa]
            if sc == 1:
                for j in range(r):
                    out[po + j] = (x * b[pb + j]) * c[pc + j] + out[po + j]
            else:
                z = c[pc]
                for j in range(r):
                    out[po + j] = (x * b[pb + j]) * z + out[po + j]
        else:
            xy = a[pa] * b[pb]
            if sc == 1:
                for j in range(r):
                    out[po + j] = xy * c[pc + j] + out[po + j]
            else:
                p = xy * c[pc]
                for j in range(r):
                    out[po + j] = p + out[po + j]
        return
    for j in range(r):
        p = a[pos[0] + j * gst[0, 0]]
        for k in range(1, nop):
            p = p * a[pos[k] + j * gst[k, 0]]
        out[po + j * so] = p + out[po + j * so]


# every index above is in range by construction: no checks (pipeline.py)
for _f in (einsum_three, einsum_many, einsum_floats, _three, _products_sum, _products_into):
    _f.hj_unchecked = True
_three.hj_inline = True
