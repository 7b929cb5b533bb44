"""The loops of NumPy's ``np.einsum`` (``c_einsum``, ``optimize=False``), in
Python source compiled by hanajit (see ``lib/python/helpers.py``), so that its
float results are NumPy's bit for bit (measured against NumPy 2.4).

NumPy's einsum runs one ``nditer`` over every label -- the output's in order,
then the summed ones in alphabetical order -- and zeroes the output first:

* the labels are put in the iterator's order by the operands' strides
  (``sum_lanes.order_axes``: NumPy's stable insertion sort, the last label innermost
  first; a label of length 1 has stride 0 in every operand, the output's
  too), strides never negated;
* the output is allocated in that order (its strides grow from the innermost
  label out) and neighbouring labels merge where every operand's strides chain;
* for one or two operands the innermost merged label is walked whole when
  two or three merged labels are left (NumPy's unbuffered loops); otherwise,
  and always for three operands or more, the buffered iterator's inner loops
  (``buffer_setup``: its cost model picks the merged labels a loop spans, at
  most 8192 values, and which operands it copies into buffers, which then
  have stride 1), each by a "sum of products" loop chosen by the
  strides (``piece_two``/``piece_one``): element by element
  ``out[i] = a[i] * b[i] + out[i]`` where the output moves, and where it does not
  (a sum inside the piece) NumPy's SIMD loops of its baseline (128-bit vectors:
  ``W`` = 2 float64 or 4 float32 lanes): four vectors at a time chained as
  ``acc = a0*b0 + (a1*b1 + (a2*b2 + (a3*b3 + acc)))`` lane by lane, then one
  vector at a time (zeros past the end), the lanes summed as
  ``(l0 + l1) + (l2 + l3)``; a plain sum adds the four vectors as ``(v0 + v1) +
  (v2 + v3)`` into ``acc``; strided pieces add in order into a scalar.  The piece's
  value is then added to the output: ``out = out + value``.

``einsum_two(a, b, base, st, sizes, nout, out, ostr, W, zero)``: ``a``/``b`` are
1-D views of the operands' memory from their lowest element, ``base`` where
element 0 is in each, ``st[op, label]`` strides in items (0: label absent; a
repeated label's strides summed), ``sizes`` per label, the first ``nout`` the
output's; ``out`` zeroed, of the output's size; ``ostr`` receives the output's
strides per output label, in items.  ``einsum_one`` is the same for one operand,
``einsum_three`` for three integer operands and ``einsum_many`` for more (any
order of their sum is NumPy's), ``einsum_floats`` for three float operands or
more (NumPy's loops for them add in order: ``acc += a * b * c``).
"""
import numpy as np

from ..statistics.sum_lanes import advance, order_axes

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


def _positions(idx, gst, ng, base, nop, pos):
    """``pos``: where the inner loop starts in each operand and in the output,
    at the index ``idx`` of the outer merged labels."""
    for iop in range(nop + 1):
        p = base[iop] if iop < nop else 0
        for g in range(1, ng):
            p += idx[g] * gst[iop, g]
        pos[iop] = p


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
    idx = np.zeros(ng + 1, np.int64)
    pos = np.zeros(nop + 1, np.int64)
    while idx[ng] == 0:
        _positions(idx, gst, ng, base, nop, pos)
        if nop == 2:
            piece_two(a, pos[0], gst[0, 0], b, pos[1], gst[1, 0], out, pos[2], gst[2, 0],
                      inner, W, zero)
        else:
            piece_one(a, pos[0], gst[0, 0], out, pos[1], gst[1, 0], inner, W, zero)
        advance(idx, gsize, ng)


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
        left = n
        while left > 0:
            r = n0 - idx[0]
            if left < r:
                r = left
            advance_by(idx, pos, gsize, gst, ng, nop, r)
            left -= r
        i += n


def _piece(a, pa, sa, b, pb, sb, out, po, so, n, W, zero, nop):
    """:func:`piece_two` or (``nop`` 1) :func:`piece_one`: their one call in
    :func:`_buffered_pieces` (each is inlined where it is called)."""
    if nop == 2:
        piece_two(a, pa, sa, b, pb, sb, out, po, so, n, W, zero)
    else:
        piece_one(a, pa, sa, out, po, so, n, W, zero)


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
        _positions(idx, gst, ng, base, 3, pos)
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
        _positions(idx, gst, ng, base, nop, pos)
        po = pos[nop]
        for i in range(n):
            p = m[pos[0] + i * gst[0, 0]]
            for k in range(1, nop):
                p = p * m[pos[k] + i * gst[k, 0]]
            out[po + i * so] = p + out[po + i * so]
        advance(idx, gsize, ng)
    return 0


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
    chaining costs one buffer more (a cast one costs one from the start); the output's stride turning to or from 0
    (``summed``: a label is summed) is the reduction's outer label, beyond
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


def _products_sum(a, b, c, pos, gst, nop, r, acc):
    """``acc`` plus each of the ``r`` products from ``pos`` along merged label 0,
    in order (``accum += a * b * c``)."""
    if nop == 3:
        pa = pos[0]
        pb = pos[1]
        pc = pos[2]
        sa = gst[0, 0]
        sb = gst[1, 0]
        sc = gst[2, 0]
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
        pa = pos[0]
        pb = pos[1]
        pc = pos[2]
        sa = gst[0, 0]
        sb = gst[1, 0]
        sc = gst[2, 0]
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


def _total(a, pa, n, W, zero):
    """NumPy's ``sum_of_arr``: ``W`` lanes, four vectors added as ``(v0 + v1) +
    (v2 + v3)`` into the accumulator per step, the tail zero-padded."""
    acc0 = zero
    acc1 = zero
    acc2 = zero
    acc3 = zero
    i = 0
    if W == 2:
        while n - i >= 8:
            j = pa + i
            acc0 = ((a[j] + a[j + 2]) + (a[j + 4] + a[j + 6])) + acc0
            acc1 = ((a[j + 1] + a[j + 3]) + (a[j + 5] + a[j + 7])) + acc1
            i += 8
        while i < n:
            acc0 = a[pa + i] + acc0
            acc1 = (a[pa + i + 1] if i + 1 < n else zero) + acc1
            i += 2
        return acc0 + acc1
    while n - i >= 16:
        j = pa + i
        acc0 = ((a[j] + a[j + 4]) + (a[j + 8] + a[j + 12])) + acc0
        acc1 = ((a[j + 1] + a[j + 5]) + (a[j + 9] + a[j + 13])) + acc1
        acc2 = ((a[j + 2] + a[j + 6]) + (a[j + 10] + a[j + 14])) + acc2
        acc3 = ((a[j + 3] + a[j + 7]) + (a[j + 11] + a[j + 15])) + acc3
        i += 16
    while i < n:
        acc0 = a[pa + i] + acc0
        acc1 = (a[pa + i + 1] if i + 1 < n else zero) + acc1
        acc2 = (a[pa + i + 2] if i + 2 < n else zero) + acc2
        acc3 = (a[pa + i + 3] if i + 3 < n else zero) + acc3
        i += 4
    return (acc0 + acc1) + (acc2 + acc3)


for _f in (merged, merged_labels, _positions, einsum_two, einsum_one, _pieces, _whole_rows,
           einsum_three, einsum_many,
           buffer_setup, buffer_plan, iteration_start, loop_length, _buffered_pieces, _piece, gather,
           einsum_floats, _products_sum,
           _products_into, advance_by,
           piece_two, piece_one, _dot, _total):
    _f.hj_unchecked = True
advance_by.hj_inline = True
# (the inner loops inlined where they run: a call per row cost 'ij,jk->ik' of
# 200x200 a fifth of its time, and 'bij,bjk->bik' of 64x16x16 a third)
piece_two.hj_inline = True
piece_one.hj_inline = True
_piece.hj_inline = True
