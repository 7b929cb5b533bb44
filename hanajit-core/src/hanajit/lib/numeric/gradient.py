"""``np.gradient(f, *varargs, axis=None, edge_order=1)`` as NumPy 2 computes it,
value for value: no spacing, one number for every axis, or one spacing per axis
(a number, or a 1-D array of coordinates of the axis' length); ``axis`` a
constant int, tuple of ints or None; ``edge_order`` a constant 1 or 2.

Inside, NumPy's second-order central differences; at the ends its first-order
(``edge_order=1``) or second-order (``edge_order=2``) one-sided ones.  Each
operation is NumPy's, in NumPy's order and types (``gradient_stencil``): integer
data as float64, a Python-number spacing keeps float32 data float32, a NumPy
scalar (or the first difference of coordinates) promotes.  Coordinates are
differenced as NumPy does (integers as float64 first); whether the differences
are all equal -- NumPy then takes the uniform formulas, which round differently
-- is decided at run time, as NumPy decides it.  NumPy's errors, in its order:
TypeError for a wrong number of spacings, ValueError for spacing arrays not 1-D
or not of the axis' length, IndexError for coordinates of fewer than two values,
ValueError for an ``edge_order`` above 2 and for an axis too short for it,
ZeroDivisionError for a Python-number spacing 0 with ``edge_order=2``.

Complex data computes in NumPy's complex arithmetic (``gradient_stencil``): a
complex64 view of two or more dimensions read backwards, where products are
needed, re-runs in the interpreter.  Boolean data, 0-d, boolean or complex
spacings, and ``edge_order`` below 1 fall back."""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..arrays.creation import allocate
from ..python.operators import C
from ..registry import CallTemplate, register
from . import gradient_stencil as gs

I, F = T.INT64, T.FLOAT64
TOO_SMALL = ("Shape of array too small to calculate a numerical gradient, at least "
             "(edge_order + 1) elements are required.")
COUNT = "invalid number of arguments"
NOT_1D = "distances must be either scalars or 1d"
LENGTH = "when 1d, distances must match the length of the corresponding dimension"
EDGE = "'edge_order' greater than 2 not supported"
NO_DIFFERENCE = "index 0 is out of bounds for axis 0 with size 0"


def _const(call, name, default):
    node = call.kwargs.get(name)
    if node is None:
        return default
    if not isinstance(node, N.Const):
        raise Incompatible(f"np.gradient(): {name}= must be a constant")
    return node.value


def _axes(call, nd):
    """The axes (NumPy's normalize_axis_tuple) and whether the result is a tuple."""
    axis = _const(call, "axis", None)
    if axis is None:
        return list(range(nd)), nd > 1
    many = isinstance(axis, tuple)
    axes = axis if many else (axis,)
    if not all(type(a) is int and -nd <= a < nd for a in axes) or \
            len({a % nd for a in axes}) != len(axes):
        raise Incompatible("np.gradient(): axis must be None, or constant ints in range "
                           "and not repeated")
    return [a % nd for a in axes], len(axes) > 1


class Spacing:
    """One axis' spacing as typed: ``kind`` "one" (none given: 1.0), "number"
    (argument ``pos``; ``strong``: a NumPy scalar, not a Python number), "coords"
    (a 1-D array: ``dtype`` is its differences' type) or "not1d" (NumPy's
    ValueError, then computed as "one")."""

    def __init__(self, kind, pos=0, strong=False, dtype=F):
        self.kind, self.pos, self.strong, self.dtype = kind, pos, strong, dtype


def _spacing(inf, call, t, pos):
    if isinstance(t, T.Scalar):
        return Spacing("number", pos, inf.is_strong(call.args[pos]), t)
    if t.ndim > 1:
        return Spacing("not1d", pos)
    return Spacing("coords", pos, True, t.dtype if t.dtype.is_float else F)


def _spacings(inf, call, args, naxes):
    """A Spacing per axis, and whether NumPy raises its TypeError for the number
    of spacings (NumPy's branches of ``varargs``)."""
    given = args[1:]
    for t in given:
        if isinstance(t, T.Scalar) and not t.is_complex:
            continue
        if not (isinstance(t, T.ArrayType) and t.ndim > 0) or (
                t.ndim == 1 and t.dtype.kind not in "iuf"):
            raise Incompatible("np.gradient(): each spacing must be a real number or an "
                               "array of integer or float coordinates")
    if not given:
        return [Spacing("one")] * naxes, False
    if len(given) == 1 and isinstance(given[0], T.Scalar):
        return [_spacing(inf, call, given[0], 1)] * naxes, False
    if len(given) != naxes:
        return [Spacing("one")] * naxes, True
    return [_spacing(inf, call, t, 1 + k) for k, t in enumerate(given)], False


@register
class Gradient(CallTemplate):
    paths = ("numpy.gradient",)

    def plan(self, inf, call, args, kwargs):
        if not args or not isinstance(args[0], T.ArrayType) or args[0].ndim == 0:
            raise Incompatible("np.gradient(f, ...) of an array")
        if set(kwargs) - {"axis", "edge_order"}:
            raise Incompatible("np.gradient(f, *spacings, axis=None, edge_order=1)")
        edge = _const(call, "edge_order", 1)
        if type(edge) is not int or edge < 1:
            raise Incompatible("np.gradient(): edge_order must be a constant 1 or 2")
        f = args[0]
        axes, many = _axes(call, f.ndim)
        out = f.dtype if f.dtype.is_float or f.dtype.is_complex else (
            F if f.dtype.is_int else None)
        if out is None:             # (booleans: NumPy's subtraction raises)
            raise Incompatible(f"np.gradient() of {f.dtype} data")
        spacings, miscount = _spacings(inf, call, args, len(axes))
        return axes, many, out, edge, spacings, miscount

    def typer(self, inf, call, args, kwargs):
        call.plan = self.plan(inf, call, args, kwargs)
        axes, many, out = call.plan[:3]
        t = T.ArrayType(out, args[0].ndim, "C")
        return T.TupleType(tuple([t] * len(axes))) if many else t

    def lower(self, L, call, args, kwargs):
        axes, many, out, edge, spacings, miscount = call.plan
        f = L.let(args[0])
        nd = f.type.ndim
        dims = [L.let(N.ArrayAttr(f, "shape", k, I)) for k in range(nd)]
        # NumPy's checks of the spacings first, then of edge_order, then per axis
        if miscount:
            L.raise_if(C(True, T.BOOL), TypeError, COUNT)
        values = {}
        ready = [_prepare(L, args, sp, dims[axis], values) for axis, sp in zip(axes, spacings)]
        if edge > 2:
            L.raise_if(C(True, T.BOOL), ValueError, EDGE)
            edge = 1                # (not reached)
        results = []
        for axis, sp, spacing in zip(axes, spacings, ready):
            L.raise_if(N.Cmp("lt", dims[axis], C(edge + 1, I), T.BOOL), ValueError, TOO_SMALL)
            arr = L.let(allocate(L, T.ArrayType(out, nd, "C"), dims))
            st = gs.Stencil(L, f, arr, dims, axis, edge)
            if sp.kind != "coords":
                gs.uniform(st, spacing, sp.strong and sp.kind == "number")
            else:
                # NumPy's ``(diffx == diffx[0]).all()``: the uniform formulas
                # with the NumPy scalar ``diffx[0]``, else the coordinates'
                h, same = spacing
                then, _ = L.sub_block(lambda: gs.uniform(
                    st, L.let(N.Load(h, [C(0, I)], sp.dtype)), True))
                orelse, _ = L.sub_block(lambda: gs.coordinates(st, h))
                L.emit(N.If(cond=same, then=then, orelse=orelse))
            results.append(arr)
        if many:
            return N.MakeTuple(results, call.type)
        return results[0]


def _prepare(L, args, sp, n, values):
    """What one axis' spacing needs, after NumPy's checks of it: the number, or
    the coordinates' differences and whether they are all equal."""
    if sp.kind == "not1d":
        L.raise_if(C(True, T.BOOL), ValueError, NOT_1D)
    if sp.kind in ("one", "not1d"):
        return C(1.0, F)
    if sp.pos not in values:
        values[sp.pos] = L.let(args[sp.pos])
    x = values[sp.pos]
    if sp.kind == "number":
        return x
    L.raise_if(N.Cmp("ne", N.ArrayAttr(x, "shape", 0, I), n, T.BOOL), ValueError, LENGTH)
    L.raise_if(N.Cmp("lt", n, C(2, I), T.BOOL), IndexError, NO_DIFFERENCE)
    h = gs.differences(L, x, n, sp.dtype)
    return h, gs.all_equal(L, h)
