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
from .sum_lanes import advance_from, buffer_axes, buffer_slices, core_size, fill_buffer
from .sum_lanes import iteration_order


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
    if total == 0:
        return
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
    idx = np.zeros(g + 1, np.int64)
    n0 = gsize[0]
    s0 = gst[0]
    o0 = gost[0]
    form = fused if s0 >= 0 else fused_back
    off = start
    o = 0
    while True:
        if gflag[0]:
            _reduce_run(mem, off, n0, s0, out, o)
        else:
            for j in range(n0):
                out[o + j * o0] = _times(out[o + j * o0], mem[off + j * s0], form)
        k = 1
        while k < g:
            idx[k] += 1
            off += gst[k]
            o += gost[k]
            if idx[k] < gsize[k]:
                break
            off -= gsize[k] * gst[k]
            o -= gsize[k] * gost[k]
            idx[k] = 0
            k += 1
        if k >= g:
            return


for _f in (_times, _reduce_run, prod_strided):
    _f.hj_unchecked = True
_times.hj_inline = True
