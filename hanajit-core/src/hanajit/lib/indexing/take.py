"""``np.take(a, indices, axis=None)`` and ``a.take(indices, axis=None)``.

NumPy defines them as indexing: without ``axis`` the flattened array
``a.ravel()[indices]``, with it ``a[:, ..., :, indices]`` (``indices`` on axis
``axis``).  They lower to exactly that -- the basic or advanced indexing of
:mod:`hanajit.lib.indexing.views` / :mod:`hanajit.lib.indexing.fancy` -- so bounds, negative indices
and the result's shape, dtype and copy/view status are those of indexing.
``mode="wrap"`` and ``mode="clip"`` first map the indices into the axis (Python's
modulo; clamping, negative indices to 0), as NumPy does; ``out=`` is not
compiled.
"""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from ..python.operators import C
from ..registry import CallTemplate, register

I = T.INT64


def _axis(call, args, kwargs):
    """The constant axis (None: the flattened array), checking the options."""
    if set(kwargs) - {"axis", "mode"} or len(args) > 3:
        raise Incompatible("np.take(a, indices, axis=None) (mode='raise', no out=)")
    if take_mode(call) not in ("raise", "wrap", "clip"):
        raise Incompatible("np.take: mode must be 'raise', 'wrap' or 'clip'")
    node = call.args[2] if len(call.args) > 2 else call.kwargs.get("axis")
    if node is None or (isinstance(node, N.Const) and node.value is None):
        return None
    if not (isinstance(node, N.Const) and type(node.value) is int):
        raise Incompatible("np.take: axis must be a constant integer")
    return node.value


def take_mode(call, position=None):
    """The constant ``mode`` -- a keyword, or the argument at ``position`` --
    ("raise" when not given; None when not a constant)."""
    node = call.kwargs.get("mode")
    if node is None and position is not None and len(call.args) > position:
        node = call.args[position]
    if node is None:
        return "raise"
    t = getattr(node, "type", None)
    if isinstance(t, T.ConstType):
        return t.value
    return node.value if isinstance(node, N.Const) else None


def _plan(a, idx, axis):
    """(the array type indexed, the index type, the axis) for ``np.take``."""
    if not isinstance(a, T.ArrayType):
        raise Incompatible(f"np.take of {a}")
    if isinstance(idx, T.ArrayType):
        if not idx.dtype.is_int:
            # NumPy casts a boolean array to 0/1 indices here, unlike indexing
            raise Incompatible(f"np.take with indices of dtype {idx.dtype}")
        if idx.ndim == 0:
            raise Incompatible("np.take with 0-d index arrays")
    elif not (isinstance(idx, T.Scalar) and idx.is_int):
        raise Incompatible(f"np.take with indices of type {idx}")
    if axis is None:
        return a.copy(ndim=1, layout="C"), idx, None
    if not -a.ndim <= axis < a.ndim:
        raise Incompatible(f"axis {axis} is out of bounds for array of dimension {a.ndim}")
    axis %= a.ndim
    return a, T.TupleType((T.SliceType(True),) * axis + (idx,)), axis


class Take(CallTemplate):
    paths = ("numpy.take",)
    array_like = (1, "indices")          # (a list display too)

    def typer(self, inf, call, args, kwargs):
        from .views import result_type
        if len(args) < 2:
            raise Incompatible("np.take(a, indices, axis=None)")
        src, index_type, _ = _plan(args[0], args[1], _axis(call, args, kwargs))
        rt = result_type(src, index_type)
        # always a new array (a[:, i] would be a view)
        return rt.copy(layout="C", readonly=False) if isinstance(rt, T.ArrayType) else rt

    def lower(self, L, call, args, kwargs):
        from ..arrays.methods import copy_array
        from ..arrays.shape import contiguous, reshape_view
        from ..arrays.elementwise import Lazy, materialize
        from ..arrays.creation import allocate
        from .views import lower_index
        src, index_type, axis = _plan(args[0].type, args[1].type, _axis(call, args, kwargs))
        a, idx = L.let(args[0]), args[1]
        rt = call.type
        if take_mode(call) != "raise":
            idx, index_type = _into_axis(L, a, idx, index_type, axis, take_mode(call))
        if axis is None:
            if a.type.ndim != 1:        # a.ravel(): a view when contiguous, else a copy
                a = reshape_view(L, contiguous(L, a), [C(-1, I)], src)
            r = lower_index(L, a, idx, index_type)
            return materialize(L, r) if isinstance(r, Lazy) else r
        full = N.PySlice(C(None, T.NONE), C(None, T.NONE), C(None, T.NONE),
                         T.SliceType(True))
        index = N.MakeTuple([full] * axis + [idx], index_type)
        out = L.temp(rt, "take")

        def taken():
            r = lower_index(L, a, index, index_type)
            r = materialize(L, r) if isinstance(r, Lazy) else copy_array(L, L.let(r), rt)
            L.emit(N.Assign(target=out, value=r))
        stmts, _ = L.sub_block(taken)
        if axis == 0:
            L.out.extend(stmts)
            return N.Var(out, rt)
        # NumPy checks the indices only while copying: with no elements before the
        # axis nothing is read, and any index is accepted (indexing would raise)
        shape = [N.ArrayAttr(a, "shape", k, I) for k in range(a.type.ndim)]
        before = shape[0]
        for d in shape[1:axis]:
            before = N.BinOp("mul", before, d, I)
        idims = [N.ArrayAttr(idx, "shape", k, I) for k in range(idx.type.ndim)] \
            if isinstance(idx.type, T.ArrayType) else []
        empty, _ = L.sub_block(lambda: L.emit(N.Assign(target=out, value=allocate(
            L, rt, shape[:axis] + idims + shape[axis + 1:]))))
        L.emit(N.If(cond=N.Cmp("eq", before, C(0, I), T.BOOL), then=empty, orelse=stmts))
        return N.Var(out, rt)


def _into_axis(L, a, idx, index_type, axis, mode):
    """``mode="wrap"``/``"clip"``: the indices mapped into the axis (int64), and the
    index type to use.  On an empty axis they stay out of bounds: NumPy raises
    IndexError there, and so does the indexing."""
    from ..arrays.elementwise import lift, materialize
    from ..python.operators import convert
    if axis is None:
        n = C(1, I)
        for k in range(a.type.ndim):
            n = N.BinOp("mul", n, N.ArrayAttr(a, "shape", k, I), I)
    else:
        n = N.ArrayAttr(a, "shape", axis, I)
    n = L.let(n)
    empty = N.Cmp("eq", n, C(0, I), T.BOOL)

    def into(x):
        x = L.let(convert(L, x, I))
        if mode == "clip":        # negative indices clip to 0 (they do not count back)
            hi = N.BinOp("sub", n, C(1, I), I)
            low = N.Select(N.Cmp("lt", x, C(0, I), T.BOOL), C(0, I), x, I)
            return N.Select(N.Cmp("gt", low, hi, T.BOOL), hi, low, I)
        safe = N.Select(empty, C(1, I), n, I)
        return N.Select(empty, x, ops.mod_positive(x, safe, L), I)
    if isinstance(idx.type, T.ArrayType):
        it = T.ArrayType(I, idx.type.ndim, "C")
        new = materialize(L, lift(L, [idx], it, into))
    else:
        it, new = I, L.let(into(idx))
    if axis is None:
        return new, it
    return new, T.TupleType(index_type.items[:-1] + (it,))


register(Take())
METHODS = {"take": Take()}
