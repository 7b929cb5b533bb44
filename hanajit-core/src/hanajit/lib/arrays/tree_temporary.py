"""NumPy's temporary of an elementwise expression whose operands are in no one
memory order (an F-ordered matrix times a broadcast row, ``t * t`` of a
transposed 3-D array): each ufunc of the expression allocates its result in its
iterator's order of the axes, positive strides (``statistics/temporary_order``
follows the tree, at run time); the result is that array, filled, so that a
sum of it (``sum_order.array_sum``/``array_axis``/``complex_whole``, which
follow NumPy's reduction iterator for any strides) adds as NumPy adds."""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ..python.operators import C

I = T.INT64


def tree_of(z):
    """The expression's tree of ufuncs (``Lazy.tree``), its root a ufunc (a
    bare array is copied by one); from its leaves alone (one ufunc of all of
    them) where the tree is not known.  None when the leaves are not known."""
    tree = getattr(z, "tree", None)
    if tree is None:
        if z.leaves is None:
            return None
        return tuple(z.leaves)
    return tree if isinstance(tree, tuple) else (tree,)


def general_tree(z):
    """:func:`tree_of` where the general path may be needed, None where the
    operands' types settle NumPy's temporary order at compile time: all arrays
    typed C-contiguous, or all F-contiguous, of the expression's dimensions --
    the C/F paths of ``sum_order`` decide those (and the general path, compiled
    beside them, would grow such sums' code by half: compile time)."""
    tree = tree_of(z)
    if tree is None:
        return None
    nd = len(z.dims)
    for order in ("C", "F"):
        if all(a.type.layout == order and a.type.ndim == nd for a in z.leaves):
            return None
    return tree


def tree_temporary(L, z):
    """NumPy's temporary of the lazy ``z`` (module docstring): an any-layout
    N-D array; re-run in the interpreter where NumPy's operators may have
    written a temporary in place (``temporary_order.tree_strides``)."""
    from .creation import allocate, fill
    from .reductions import total_size
    strides = temporary_strides(L, z)
    st = z.type.dtype
    dims = [L.let(d) for d in z.dims]
    buf = L.let(allocate(L, T.ArrayType(st, 1, "C"), [L.let(total_size(dims))]))
    view = L.let(N.ArrayView(buf, C(0, I), dims, strides, T.ArrayType(st, len(dims), "A")))
    fill(L, view, dims, z.elem, z.split)
    return view


def temporary_strides(L, z):
    """The strides (bytes, stable expressions) of NumPy's temporary of ``z``
    (:func:`tree_temporary`)."""
    from ..python.helpers import Deopt
    from ..statistics import temporary_order as to
    from .creation import allocate
    from .sum_order import int_array
    tree = tree_of(z)
    nd = len(z.dims)
    st = z.type.dtype
    leaves, kids = [], []

    def walk(node):
        if not isinstance(node, tuple):
            leaves.append(node)
            return ("leaf", len(leaves) - 1)
        return ("node", [walk(c) for c in node])
    root = walk(tree)
    nleaf = len(leaves)
    inner = []

    def number(w):
        if w[0] == "leaf":
            return w[1]
        ids = [number(c) for c in w[1]]
        inner.append(ids)
        return nleaf + len(inner) - 1
    number(root)
    for ids in inner:
        kids.extend([C(len(ids), I)] + [C(i, I) for i in ids])
    shapes, strides = [], []
    for a in leaves:
        off = nd - a.type.ndim
        for k in range(nd):
            if k < off:
                shapes.append(C(1, I))
                strides.append(C(0, I))
            else:
                shapes.append(N.ArrayAttr(a, "shape", k - off, I))
                strides.append(N.ArrayAttr(a, "stride", k - off, I))
    for _ in inner:
        shapes.extend([C(1, I)] * nd)
        strides.extend([C(0, I)] * nd)
    out = L.let(allocate(L, T.ArrayType(I, 1, "C"), [C(nd, I)]))
    elided = L.call_helper(to.tree_strides, [
        int_array(L, shapes), int_array(L, strides), C(nleaf, I), int_array(L, kids),
        C(nd, I), C(st.bits // 8, I), out])
    L.raise_if(N.Cmp("ne", elided, C(0, I), T.BOOL), Deopt,
               "a sum of an expression NumPy may write into one of its temporaries")
    return [L.let(N.Load(out, [C(k, I)], I)) for k in range(nd)]


def check_in_place(L, z):
    """Leave to the interpreter the sums of expressions where NumPy's operators
    may have written one ufunc's result into its operand's temporary, which
    keeps that temporary's order where a fresh one would take another
    (``b * b + a``, ``b`` F- and ``a`` C-ordered, 256 KiB or more): emits the
    check of :func:`temporary_strides` where the expression nests ufuncs of
    arrays that may lie in different orders (the C/F paths of ``sum_order``
    assume a fresh temporary)."""
    from .sum_order import unique_arrays
    tree = getattr(z, "tree", None)
    if not isinstance(tree, tuple) or not any(isinstance(c, tuple) for c in tree):
        return
    wide = [a for a in unique_arrays(z.leaves) if a.type.ndim >= 2]
    if len(wide) < 2 or all(a.type.layout == "C" for a in wide) or all(
            a.type.layout == "F" for a in wide):
        return
    temporary_strides(L, z)
