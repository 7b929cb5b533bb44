"""Arrays rebuilt from other arrays' elements: ``np.outer``, ``np.diff``,
``np.roll``, ``np.tile``, ``np.repeat`` and ``np.copyto``.

Each result is a lazy (:mod:`elementwise`) whose element function reads the
source at remapped indices, so ``np.sum(np.diff(a) ** 2)`` needs no temporary.
"""
from __future__ import annotations

from ...typing_rules import Incompatible, same_kind
from ...ir import nodes as N
from ...ir import types as T
from . import elementwise as ew
from ..python import operators as ops
from .sizes import check_dims, itemsize, size_mul
from ..python.operators import C
from ..registry import CallTemplate, register

I = T.INT64


def _flat(L, a):
    """A 1-D lazy over ``a``'s elements in C order."""
    from .shape import contiguous, reshape_view
    src = contiguous(L, a)
    flat = L.let(reshape_view(L, src, [C(-1, I)], src.type.copy(ndim=1, layout="C")))
    return ew.to_lazy(L, flat)


def _const(call, pos, name, default):
    node = call.kwargs.get(name, call.args[pos] if len(call.args) > pos else None)
    if node is None:
        return default
    if not isinstance(node, N.Const):
        raise Incompatible(f"{name}= must be a constant")
    return node.value


def _axis(call, pos, ndim, default):
    axis = _const(call, pos, "axis", default)
    if axis is None:
        return None
    if type(axis) is not int or not -ndim <= axis < ndim:
        raise Incompatible(f"axis {axis!r} is out of bounds for array of dimension {ndim}")
    return axis % ndim


def _safe(d):
    """A divisor that is never zero (used only where the loop does not run)."""
    return N.Select(N.Cmp("eq", d, C(0, I), T.BOOL), C(1, I), d, I)


@register
class Outer(CallTemplate):
    """``np.outer(a, b)``: ``out[i, j] = a.flat[i] * b.flat[j]``."""

    paths = ("numpy.outer",)
    accepts_lazy = True
    copies_elements = True

    def typer(self, inf, call, args, kwargs):
        if len(args) != 2 or kwargs or not all(isinstance(a, T.ArrayType) for a in args):
            raise Incompatible("np.outer(a, b) of two arrays")
        return T.ArrayType(ew.result_dtype("mul", args[0], args[1]), 2, "C")

    def lower(self, L, call, args, kwargs):
        za, zb = _flat(L, args[0]), _flat(L, args[1])
        t = call.type.dtype
        check_dims(L, [L.let(za.dims[0]), L.let(zb.dims[0])], itemsize(call.type))
        return ew.Lazy(call.type, [za.dims[0], zb.dims[0]], lambda idx: ew.np_binop(
            L, "mul", za.elem([idx[0]]), zb.elem([idx[1]]), t))


@register
class Diff(CallTemplate):
    """``np.diff(a, n=1, axis=-1)`` with a constant ``n`` (``!=`` on booleans)."""

    paths = ("numpy.diff",)
    accepts_lazy = True
    copies_elements = True

    def typer(self, inf, call, args, kwargs):
        if not args or len(args) > 3 or set(kwargs) - {"n", "axis"}:
            raise Incompatible("np.diff(a, n=1, axis=-1) without prepend/append")
        at = args[0]
        if not isinstance(at, T.ArrayType):
            raise Incompatible(f"np.diff() of {at}")
        n = _const(call, 1, "n", 1)
        if type(n) is not int:
            raise Incompatible("n must be a constant integer")
        if n < 0:
            raise Incompatible(f"order must be non-negative but got {n}")
        if _axis(call, 2, at.ndim, -1) is None:      # (NumPy: TypeError)
            raise Incompatible("np.diff() with axis=None")
        if n == 0:
            return at
        return T.ArrayType(at.dtype, at.ndim, "C")

    def lower(self, L, call, args, kwargs):
        n = _const(call, 1, "n", 1)
        if n == 0:
            return args[0]
        axis = _axis(call, 2, call.type.ndim, -1)
        z = ew.once(L, args[0])          # (each element is read twice)
        t = call.type.dtype
        for k in range(n):
            if k:       # each further difference reads the previous one twice
                z = ew.to_lazy(L, ew.materialize(L, z))
            z = self.step(L, z, axis, t)
        return z

    @staticmethod
    def step(L, z, axis, t):
        d = z.dims[axis]
        dims = list(z.dims)
        dims[axis] = L.let(N.Select(N.Cmp("gt", d, C(0, I), T.BOOL),
                                    N.BinOp("sub", d, C(1, I), I), C(0, I), I))

        def elem(idx):
            nxt = list(idx)
            nxt[axis] = N.BinOp("add", idx[axis], C(1, I), I)
            hi, lo = L.let(z.elem(nxt)), L.let(z.elem(list(idx)))
            if t.is_bool:
                return N.BinOp("xor", hi, lo, T.BOOL)
            return ew.np_binop(L, "sub", hi, lo, t)
        return ew.Lazy(T.ArrayType(t, len(dims), "C"), dims, elem)


@register
class Roll(CallTemplate):
    """``np.roll(a, shift, axis=None)``: integer shifts (an int or a tuple of
    them), flattened or along constant axes (an int or a tuple), broadcast
    against each other and summed per axis as NumPy does; one axis at a time."""

    paths = ("numpy.roll",)
    accepts_lazy = True
    copies_elements = True

    @staticmethod
    def axes(call, ndim):
        """The axes (normalised; None: flattened) and how many there are."""
        axis = _const(call, 2, "axis", None)
        if axis is None:
            return None
        values = axis if isinstance(axis, tuple) else (axis,)
        if not values or not all(type(k) is int and -ndim <= k < ndim for k in values):
            raise Incompatible(f"axis {axis!r} is out of bounds for array of dimension {ndim}")
        return [k % ndim for k in values]

    def typer(self, inf, call, args, kwargs):
        vals = list(args[:2]) + [kwargs[k] for k in ("shift",) if k in kwargs]
        if len(vals) != 2 or set(kwargs) - {"shift", "axis"} or len(args) > 3 \
                or len(args) == 3 and "axis" in kwargs:
            raise Incompatible("np.roll(a, shift, axis=None) with integer shifts")
        at, st = vals
        if not isinstance(at, T.ArrayType):
            raise Incompatible(f"np.roll() of {at}")
        shifts = st.items if isinstance(st, T.TupleType) and st.items else (st,)
        if not all(isinstance(t, T.Scalar) and (t.is_int or t.is_bool) for t in shifts):
            raise Incompatible("np.roll() with a non-integer shift")
        axes = self.axes(call, at.ndim)
        n = len(axes) if axes is not None else 1
        if len(shifts) != n and 1 not in (len(shifts), n):
            raise Incompatible("np.roll(): shift and axis do not broadcast (NumPy's ValueError)")
        return T.ArrayType(at.dtype, at.ndim, "C")

    def lower(self, L, call, args, kwargs):
        from .shape import reshape_view
        shift = L.let(args[1] if len(args) > 1 else kwargs["shift"])
        if isinstance(shift.type, T.TupleType):
            shifts = [L.let(ops.convert_wrap(N.TupleGet(shift, k, t), I))
                      for k, t in enumerate(shift.type.items)]
        else:
            shifts = [L.let(ops.convert_wrap(shift, I))]
        axes = self.axes(call, call.type.ndim)
        flat = axes is None
        axes = axes or [0]
        if len(shifts) == 1:
            shifts = shifts * len(axes)
        elif len(axes) == 1:
            axes = axes * len(shifts)
        total = {}                              # NumPy sums the shifts of each axis
        for k, sh in zip(axes, shifts):
            total[k] = sh if k not in total else L.let(N.BinOp("add", total[k], sh, I))
        if flat:
            out = self.rolled(L, _flat(L, args[0]), 0, total[0])
            a = L.let(args[0]) if not isinstance(args[0], ew.Lazy) else None
            zd = args[0].dims if a is None else [
                L.let(N.ArrayAttr(a, "shape", k, I)) for k in range(call.type.ndim)]
            return reshape_view(L, out, zd, call.type)
        out = args[0]
        for k, sh in total.items():
            out = L.let(self.rolled(L, ew.to_lazy(L, out), k, sh))
        return out

    @staticmethod
    def rolled(L, z, axis, shift):
        """A new array of ``z`` rolled by ``shift`` along ``axis``: two block
        copies, ``out[r:] = z[:d - r]`` and ``out[:r] = z[d - r:]`` along the
        axis with ``r = shift % d`` as Python's ``%`` -- each a plain loop over
        neighbouring elements, not an index wrapped per element."""
        from .creation import allocate, broadcast_versions
        from .reductions import loops
        d = z.dims[axis]
        r = L.let(ops.mod_positive(shift, _safe(d), L))
        out = L.let(allocate(L, z.type.copy(layout="C"), list(z.dims)))
        rest = L.let(N.BinOp("sub", d, r, I))

        def block(length, src_from, dst_from):
            dims = [length if k == axis else n for k, n in enumerate(z.dims)]

            def body(idx):
                src = [_add(i, src_from) if k == axis else i for k, i in enumerate(idx)]
                dst = [_add(i, dst_from) if k == axis else i for k, i in enumerate(idx)]
                L.emit(N.Store(array=out, indices=dst, value=z.elem(src)))
            broadcast_versions(L, lambda: loops(L, dims, body))
        block(rest, C(0, I), r)
        block(r, rest, C(0, I))
        return out


def _add(a, b):
    return N.BinOp("add", a, b, I)


def _reps_arg(t):
    if isinstance(t, T.Scalar) and (t.is_int or t.is_bool):
        return 1
    if isinstance(t, T.TupleType) and all(isinstance(i, T.Scalar) and i.is_int
                                          for i in t.items):
        return len(t.items)
    raise Incompatible("reps must be an integer or a tuple of integers")


@register
class Tile(CallTemplate):
    """``np.tile(A, reps)``, ``reps`` an integer or a tuple of integers."""

    paths = ("numpy.tile",)
    accepts_lazy = True
    copies_elements = True

    def typer(self, inf, call, args, kwargs):
        if len(args) != 2 or kwargs or not isinstance(args[0], T.ArrayType):
            raise Incompatible("np.tile(A, reps) of an array")
        return T.ArrayType(args[0].dtype, max(args[0].ndim, _reps_arg(args[1])), "C")

    def lower(self, L, call, args, kwargs):
        from .creation import shape_values
        z = ew.once(L, args[0])          # (each element is read once per copy)
        reps = shape_values(L, args[1], check=False)
        nd = call.type.ndim
        reps = [C(1, I)] * (nd - len(reps)) + reps
        src = [C(1, I)] * (nd - len(z.dims)) + list(z.dims)
        dims = [size_mul(L, s, r) for s, r in zip(src, reps)]
        check_dims(L, dims, itemsize(call.type))
        off = nd - len(z.dims)
        src = [L.let(s) for s in src]

        def elem(idx):
            return z.elem([ew.tiled_source(idx[k], src[k]) for k in range(off, nd)])
        out = ew.Lazy(call.type, dims, elem)
        # materialised, the last axis loops over the copies and, inside, over the
        # source: no 64-bit remainder per element (``ew.tiled_source``)
        if nd:
            out.split = (nd - 1, reps[-1], src[-1])
        return out


@register
class Repeat(CallTemplate):
    """``np.repeat(a, repeats, axis=None)`` with an integer ``repeats``."""

    paths = ("numpy.repeat",)
    accepts_lazy = True
    copies_elements = True

    def typer(self, inf, call, args, kwargs):
        vals = list(args) + [kwargs[k] for k in ("repeats",) if k in kwargs]
        if len(vals) != 2 or set(kwargs) - {"repeats", "axis"} or len(args) > 3:
            raise Incompatible("np.repeat(a, repeats, axis=None)")
        at, rt = vals
        if not isinstance(at, T.ArrayType):
            raise Incompatible(f"np.repeat() of {at}")
        if not (isinstance(rt, T.Scalar) and (rt.is_int or rt.is_bool)):
            raise Incompatible("np.repeat() with an array of repeats")
        axis = _axis(call, 2, at.ndim, None)
        return T.ArrayType(at.dtype, 1 if axis is None else at.ndim, "C")

    def lower(self, L, call, args, kwargs):
        rep = args[1] if len(args) > 1 else kwargs["repeats"]
        rep = L.let(ops.convert_wrap(rep, I))
        axis = _axis(call, 2, args[0].type.ndim, None)
        z = _flat(L, args[0]) if axis is None else ew.to_lazy(L, args[0])
        axis = axis or 0
        dims = list(z.dims)
        dims[axis] = size_mul(L, dims[axis], rep)
        check_dims(L, dims, itemsize(call.type))

        def elem(idx):
            src = list(idx)
            src[axis] = ew.repeated_source(idx[axis], rep)
            return z.elem(src)
        # materialised, it loops over the source and stores each element (or
        # row) ``rep`` times: no 64-bit division per element (4x NumPy's time)
        out = ew.Lazy(call.type, dims, elem)
        out.split = (axis, z.dims[axis], rep)
        return out


@register
class CopyTo(CallTemplate):
    """``np.copyto(dst, src)``: broadcast ``src`` into ``dst`` (NumPy's 'same_kind'
    casting rule; overlapping memory is copied as NumPy does)."""

    paths = ("numpy.copyto",)
    accepts_lazy = True
    copies_elements = True

    def typer(self, inf, call, args, kwargs):
        if len(args) != 2 or kwargs:
            raise Incompatible("np.copyto(dst, src) without casting/where")
        dst, src = args
        if not isinstance(dst, T.ArrayType):
            raise Incompatible("np.copyto() destination must be an array")
        sd = ew.elem_type(src)
        if not isinstance(sd, T.Scalar):
            raise Incompatible(f"np.copyto() from {src}")
        return T.NONE

    def lower(self, L, call, args, kwargs):
        from ..indexing.elements import assign_to_view
        dst, src = L.let(args[0]), ew.materialize(L, args[1])
        sd, dd = ew.elem_type(src.type), dst.type.dtype
        weak = not isinstance(src.type, T.ArrayType)
        if not same_kind(sd, dd) and not (weak and sd.is_int and dd.is_int):
            L.emit(N.Raise(exc=TypeError, message=(
                f"Cannot cast {'scalar' if weak else 'array data'} from "
                f"dtype('{T.numpy_name(sd)}') to dtype('{T.numpy_name(dd)}') according "
                "to the rule 'same_kind'")))
            return C(None, T.NONE)
        if dst.type.readonly:
            L.emit(N.Raise(exc=ValueError, message="assignment destination is read-only"))
            return C(None, T.NONE)
        assign_to_view(L, dst, src)     # (leading length-1 axes of src allowed)
        return C(None, T.NONE)

