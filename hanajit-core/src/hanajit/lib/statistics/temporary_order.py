"""The memory order of NumPy's temporary for a tree of ufuncs (``a * b + c``),
in Python source compiled by hanajit (see ``helpers``): each ufunc of the tree
allocates its result contiguous in the order its iterator gives the axes
(``sum_lanes.order_axes`` over the strides of its operands -- arrays, or the
temporaries of the ufuncs below it), every stride positive.  The reduction
that follows then meets those strides (``arrays/sum_order.tree_temporary``).

``tree_strides(shapes, strides, nleaf, kids, nd, item, out)``: node ``i``'s
lengths are ``shapes[i * nd:(i + 1) * nd]`` (of a leaf, the array's, padded
with 1 in front to ``nd`` axes) and its strides (bytes) ``strides[i * nd:...]``
(a leaf's given, an inner node's computed here); the inner nodes follow the
``nleaf`` leaves, children first, each as ``count, child, child ...`` in
``kids``; the last is the root, whose strides go to ``out``.

NumPy's operators write a temporary operand's result into it in place
(temporary elision) when it holds at least 256 KiB: the result then keeps that
operand's layout.  Where that layout differs from the one the iterator would
choose, ``tree_strides`` returns 1 (the caller leaves the sum to the
interpreter: whether NumPy elided depends on how the expression was written).
"""
import numpy as np

from .sum_lanes import order_axes

ELIDE_BYTES = 256 * 1024        # NPY_MIN_ELIDE_BYTES


def tree_strides(shapes, strides, nleaf, kids, nd, item, out):
    nnode = len(shapes) // nd
    pos = 0
    elided = 0
    for node in range(nleaf, nnode):
        count = kids[pos]
        for k in range(nd):
            shapes[node * nd + k] = 1
        for c in range(count):
            child = kids[pos + 1 + c]
            for k in range(nd):
                if shapes[child * nd + k] != 1:
                    shapes[node * nd + k] = shapes[child * nd + k]
        st = np.zeros((count, nd), np.int64)
        for c in range(count):
            child = kids[pos + 1 + c]
            for k in range(nd):
                if shapes[child * nd + k] != 1:
                    st[c, k] = strides[child * nd + k]
        perm = np.empty(nd, np.int64)
        order_axes(st, count, nd, perm)
        acc = item
        for k in range(nd):
            ax = perm[k]
            strides[node * nd + ax] = acc
            n = shapes[node * nd + ax]
            acc *= n if n > 0 else 1
        if acc >= ELIDE_BYTES:
            for c in range(count):
                child = kids[pos + 1 + c]
                if child >= nleaf and same_lengths(shapes, child, node, nd) and \
                        not same_strides(shapes, strides, child, node, nd):
                    elided = 1
        pos += count + 1
    root = nnode - 1
    for k in range(nd):
        out[k] = strides[root * nd + k]
    return elided


def same_lengths(shapes, a, b, nd):
    for k in range(nd):
        if shapes[a * nd + k] != shapes[b * nd + k]:
            return False
    return True


def same_strides(shapes, strides, a, b, nd):
    """Do nodes ``a`` and ``b`` (of one shape) lay their values out alike
    (axes of length 1 aside)?"""
    for k in range(nd):
        if shapes[a * nd + k] != 1 and strides[a * nd + k] != strides[b * nd + k]:
            return False
    return True


for _f in (tree_strides, same_lengths, same_strides):
    _f.hj_unchecked = True
