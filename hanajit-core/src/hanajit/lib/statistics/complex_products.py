"""NumPy's complex ``np.prod`` over axes of an array of any strides, in Python
source compiled by hanajit (see ``helpers``), bit for bit.

The order is that of ``axes_lanes.reduce_strided`` (NumPy's reduction iterator:
its axis order, axes of length 1 dropped, neighbours merged where their strides
chain, the two innermost merged axes buffered when both are reduced), from the
identity ``1 + 0j``.  What is particular to complex numbers is the rounding of
each product (``complex.product_forms``): where the innermost merged axis is
reduced, NumPy's reduce loop multiplies in its plain scalar code; where it is
kept, each run of results is ``np.multiply(out, run, out=out)``, NumPy's
binary loop, which on AVX2+FMA and AVX-512 hosts fuses the products
(``fused``: the form of an operand read forwards, ``fused_back`` backwards:
``product_forms`` paths ``prod_kept`` and ``prod_kept_reversed``).
"""
import numpy as np

from .. import prims
from .axes_lanes import next_run, reduction_axes
from .sum_lanes import advance_from, buffer_axes, buffer_slices, core_size, fill_buffer


def _times(a, b, fused):
    """``a * b`` rounded as NumPy's plain (``fused`` 0) or SIMD (1) loop."""
    if fused:
        re = prims.fma(a.real, b.real, -(a.imag * b.imag))
        im = prims.fma(a.real, b.imag, a.imag * b.real)
    else:
        re = a.real * b.real - a.imag * b.imag
        im = a.real * b.imag + a.imag * b.real
    return complex(re, im)


def _reduce_run(mem, off, n, stride, out, k):
    """The ``n`` numbers from ``mem[off]`` every ``stride`` multiplied on into
    ``out[k]``, in NumPy's reduce loop (plain)."""
    for j in range(n):      # (through ``out``: each product rounded to its dtype)
        out[k] = _times(out[k], mem[off + j * stride], 0)


def prod_strided(mem, start, shape, strides, reduced, out, ostr, fused, fused_back):
    """``out`` (the kept axes in NumPy's iteration order, holding 1) times
    NumPy's product over the ``reduced`` axes of the complex array described as
    for ``axes_lanes.reduce_strided`` (``mem`` a 1-D view of its memory,
    ``start`` the index of its first element there, ``strides`` in items); the
    kept axes' strides in ``out`` are written to ``ostr``."""
    g, gsize, gst, gost, gflag = reduction_axes(shape, strides, reduced, ostr)
    if g < 0:
        return
    if g == 0:                  # a single number
        out[0] = _times(out[0], mem[start], 0)
        return
    inner = 0
    while inner < g and gflag[inner]:
        inner += 1
    bd = buffer_axes(inner, gsize) if inner >= 2 else 0
    if bd > 0:
        per = buffer_slices(gsize, bd)
        buf = np.zeros(core_size(gsize, bd) * per, mem.dtype)
        top = np.zeros(g + 1, np.int64)      # over the merged axes above bd
        while top[g] == 0:
            base = start
            o = 0
            for k in range(bd + 1, g):
                base += top[k] * gst[k]
                o += top[k] * gost[k]
            step = 0
            while step < gsize[bd]:
                take = min(gsize[bd] - step, per)
                n = fill_buffer(mem, base + step * gst[bd], take, gst[bd], bd, gsize, gst, buf)
                _reduce_run(buf, 0, n, 1, out, o)
                step += take
            advance_from(top, gsize, g, bd + 1)
        return
    n0 = gsize[0]
    s0 = gst[0]
    o0 = gost[0]
    form = fused if s0 >= 0 else fused_back
    if g == 2 and not gflag[0] and gflag[1]:        # np.prod(m, axis=0) of a matrix
        _kept_rows(mem, start, n0, s0, gsize[1], gst[1], out, o0, form)
        return
    idx = np.zeros(g + 1, np.int64)
    pos = np.zeros(2, np.int64)
    off = start
    o = 0
    while True:
        if gflag[0]:
            _reduce_run(mem, off, n0, s0, out, o)
        else:
            for j in range(n0):
                out[o + j * o0] = _times(out[o + j * o0], mem[off + j * s0], form)
        pos[0] = off
        pos[1] = o
        if next_run(idx, gsize, gst, gost, g, pos):
            return
        off = pos[0]
        o = pos[1]


def _kept_rows(mem, start, n, step, rows, row_step, out, ostep, fused):
    """``out[j * ostep]`` (``j < n``) times the ``rows`` runs of ``n`` numbers
    of ``mem`` from ``start`` every ``step``, each run ``row_step`` after the
    one before, as NumPy's multiply loop rounds each product (``fused`` or
    plain): the products kept as real and imaginary parts apart while the runs
    last, so that each run's numbers are split into parts as they are read and
    the products never are (as complex numbers in and out, the vector loop
    split both and interleaved the result again: 679 us for 1000x1000
    complex128 against NumPy's 551; 550 this way).  The same roundings in the
    same order: each product is ``(ar*br - ai*bi, ar*bi + ai*br)`` (or its
    fused form) of the parts before it."""
    if n == 0:
        return
    re = np.full(n, out[0].real)
    im = np.full(n, out[0].real)
    for j in range(n):
        re[j] = out[j * ostep].real
        im[j] = out[j * ostep].imag
    for r in range(rows):
        off = start + r * row_step
        if fused:
            for j in range(n):
                b = mem[off + j * step]
                ar = re[j]
                ai = im[j]
                re[j] = prims.fma(ar, b.real, -(ai * b.imag))
                im[j] = prims.fma(ar, b.imag, ai * b.real)
        else:
            for j in range(n):
                b = mem[off + j * step]
                ar = re[j]
                ai = im[j]
                re[j] = ar * b.real - ai * b.imag
                im[j] = ar * b.imag + ai * b.real
    for j in range(n):
        out[j * ostep] = complex(re[j], im[j])


for _f in (_times, _reduce_run, prod_strided, _kept_rows):
    _f.hj_unchecked = True
_times.hj_inline = True
