"""The loops of NumPy's ``np.einsum`` for complex operands (``c_einsum``,
``optimize=False``), in Python source compiled by hanajit (see
``lib/python/helpers.py``), so that complex results are NumPy's bit for bit.

The iteration is the one of ``einsum_iterator``: labels in the iterator's
order, merged, the inner loops of NumPy's unbuffered loops (one or two
operands, two or three merged labels) or of its buffered iterator
(``einsum_iterator.buffer_setup``).  NumPy's complex loops have no SIMD
forms but one: each element's product is ``re, im = a`` then, operand by
operand, ``re, im = re * br - im * bi, re * bi + im * br``, added into the
output part by part, or where the output does not move summed in order from
0 into ``accum_re``/``accum_im`` and then added to it.  The one exception is
the sum of one contiguous operand (``sum_of_products_contig_outstride0_one``):
four values a step, ``accum_re += (d0 + d1) + (d2 + d3)`` of their real
parts (the imaginary ones alike) while more than four are left, then one by
one (:func:`_contiguous_sum`).

``einsum_complex(a, b, c, base, cast, st, sizes, nout, out, ostr, zero)``:
``a``, ``b``, ``c`` the operands' memories as real arrays (two items a value;
for one or two operands the last repeated, for four or more all of them in
one memory passed three times; an operand of another dtype cast to complex
first, ``cast[k]`` 1: NumPy buffers it), ``base``/``st``/``sizes``/``ostr`` as
for ``einsum_algorithms.einsum_two`` in values, ``out`` the zeroed result as a
real array, ``zero`` 0.0 of the parts' type.
"""
import numpy as np

from .einsum_iterator import (advance_by, buffer_plan, gather, iteration_start, loop_length,
                              merged_labels, skip_by)


def einsum_complex(a, b, c, base, cast, st, sizes, nout, out, ostr, zero):
    """``out`` as NumPy's einsum of complex operands (module docstring)."""
    nop = base.shape[0]
    gsize, gst, ng = merged_labels(st, sizes, nop, nout, ostr)
    if ng == 0:
        return 0
    casts = 0
    for k in range(nop):
        casts += cast[k]
    if nop <= 2 and (ng == 2 or ng == 3) and casts == 0:
        # NumPy's unbuffered loops: each inner loop a whole row, strides as they are
        plan = np.zeros(3 + 2 * (nop + 1), np.int64)
        plan[0] = gsize[0]
        plan[1] = gsize[0]
        plan[2] = gst[nop, 0]
        plan[3] = gst[0, 0]
    else:
        plan = buffer_plan(gsize, gst, ng, nop, sizes.shape[0] > nout, cast)
    summing = plan[2] == 0
    total, idx, pos = iteration_start(gsize, ng, base, nop)
    n0 = gsize[0]
    buf = np.empty(2 * plan[0] if nop == 1 and summing and plan[3] == 1 else 0, a.dtype)
    acc = np.zeros(2, a.dtype)
    i = 0
    while i < total:
        n = total - i
        if summing:     # (else the inner loops' ends change nothing)
            n = loop_length(i, plan)
        po = pos[nop]
        if nop == 1 and summing and plan[3] == 1:
            src = a
            p = pos[0]
            if not (n <= n0 - idx[0] and gst[0, 0] == 1):
                gather(a, pos[0], 0, idx, gsize, gst, ng, n, buf, 2)
                src = buf
                p = 0
            _contiguous_sum(src, p, n, out, po, zero)
            skip_by(idx, pos, gsize, gst, ng, nop, n)
        else:
            acc[0] = zero
            acc[1] = zero
            left = n
            while left > 0:
                r = n0 - idx[0]
                if left < r:
                    r = left
                _run(a, b, c, pos, gst, nop, r, out, summing, acc)
                advance_by(idx, pos, gsize, gst, ng, nop, r)
                left -= r
            if summing:
                out[2 * po] = out[2 * po] + acc[0]
                out[2 * po + 1] = out[2 * po + 1] + acc[1]
        i += n
    return 0


def _run(a, b, c, pos, gst, nop, r, out, summing, acc):
    """The ``r`` products from ``pos`` along merged label 0, each summed into
    ``acc`` (real, imaginary) in order, or added into its output element."""
    if nop > 3:
        _run_many(a, pos, gst, nop, r, out, summing, acc)
        return
    po = pos[nop]
    so = gst[nop, 0]
    pa = 2 * pos[0]
    sa = 2 * gst[0, 0]
    pb = 2 * pos[1] if nop > 1 else 0
    sb = 2 * gst[1, 0] if nop > 1 else 0
    pc = 2 * pos[2] if nop > 2 else 0
    sc = 2 * gst[2, 0] if nop > 2 else 0
    # (one copy of the loop per operand count, and one with constant strides
    # for contiguous operands and output, which LLVM turns into vector loads:
    # compiled apart from its caller, as a shared piece, nothing here is a
    # constant otherwise)
    fast = sa == 2 and (nop < 2 or sb == 2) and (nop < 3 or sc == 2) and (summing or so == 1)
    if nop == 1:
        if fast and not summing:
            for j in range(2 * r):
                out[2 * po + j] = a[pa + j] + out[2 * po + j]
        else:
            _loop(a, pa, sa, b, pb, sb, c, pc, sc, 1, r, out, po, so, summing, acc)
    elif nop == 2:
        if fast:
            _loop(a, pa, 2, b, pb, 2, c, pc, 2, 2, r, out, po, 1, summing, acc)
        else:
            _loop(a, pa, sa, b, pb, sb, c, pc, sc, 2, r, out, po, so, summing, acc)
    elif fast:
        _loop(a, pa, 2, b, pb, 2, c, pc, 2, 3, r, out, po, 1, summing, acc)
    else:
        _loop(a, pa, sa, b, pb, sb, c, pc, sc, 3, r, out, po, so, summing, acc)


def _loop(a, pa, sa, b, pb, sb, c, pc, sc, nop, r, out, po, so, summing, acc):
    """:func:`_run`'s loop over its operands' parts (``p*`` where a run
    starts in each real array, ``s*`` its steps there)."""
    acc_re = acc[0]
    acc_im = acc[1]
    for j in range(r):
        re = a[pa + j * sa]
        im = a[pa + j * sa + 1]
        if nop > 1:
            re, im = _times(re, im, b[pb + j * sb], b[pb + j * sb + 1])
        if nop > 2:
            re, im = _times(re, im, c[pc + j * sc], c[pc + j * sc + 1])
        if summing:
            acc_re = acc_re + re
            acc_im = acc_im + im
        else:
            q = 2 * (po + j * so)
            out[q] = re + out[q]
            out[q + 1] = im + out[q + 1]
    acc[0] = acc_re
    acc[1] = acc_im


def _run_many(a, pos, gst, nop, r, out, summing, acc):
    """:func:`_run` of four operands or more, all in ``a``."""
    po = pos[nop]
    so = gst[nop, 0]
    for j in range(r):
        q = 2 * (pos[0] + j * gst[0, 0])
        re = a[q]
        im = a[q + 1]
        for k in range(1, nop):
            q = 2 * (pos[k] + j * gst[k, 0])
            re, im = _times(re, im, a[q], a[q + 1])
        if summing:
            acc[0] = acc[0] + re
            acc[1] = acc[1] + im
        else:
            q = 2 * (po + j * so)
            out[q] = re + out[q]
            out[q + 1] = im + out[q + 1]


def _times(re, im, br, bi):
    """``(re + im j) * (br + bi j)`` as NumPy's complex loops compute it."""
    return re * br - im * bi, re * bi + im * br


def _contiguous_sum(d, p, n, out, po, zero):
    """NumPy's ``sum_of_products_contig_outstride0_one`` for complex values:
    the ``n`` values from ``d[2 * p]`` summed into the output element
    ``po``."""
    acc_re = zero
    acc_im = zero
    q = 2 * p
    while n > 4:
        acc_re = acc_re + ((d[q] + d[q + 2]) + (d[q + 4] + d[q + 6]))
        acc_im = acc_im + ((d[q + 1] + d[q + 3]) + (d[q + 5] + d[q + 7]))
        q += 8
        n -= 4
    while n > 0:
        acc_re = acc_re + d[q]
        acc_im = acc_im + d[q + 1]
        q += 2
        n -= 1
    out[2 * po] = out[2 * po] + acc_re
    out[2 * po + 1] = out[2 * po + 1] + acc_im


# every index above is in range by construction: no checks (pipeline.py)
for _f in (einsum_complex, _run, _loop, _run_many, _contiguous_sum):
    _f.hj_unchecked = True
_run.hj_inline = True
_loop.hj_inline = True
_times.hj_inline = True
