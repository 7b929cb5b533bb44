"""``np.split``, ``np.array_split``, ``np.hsplit``, ``np.vsplit`` and ``np.dsplit``
with a constant number of parts: a tuple of views of the array (compiled code has
no list type; ``frontend/split_lists.py`` hands a returned one back as a list).

NumPy's ``array_split`` (``numpy/lib/_shape_base_impl.py``) cuts the axis at
``div_points`` and slices ``swapaxes(ary, axis, 0)[st:end]``: with ``k`` sections
each part is ``n // k`` long, the first ``n % k`` one longer; with indices, the cut
points are ``[0] + indices + [n]`` read as a slice's bounds (negative from the end,
clamped to the axis).  Each part is a view: the array's strides, its data moved to
the part's start (an empty part starts at the array's data, as NumPy's empty slice
does).  ``np.split`` with ``k`` sections raises NumPy's ValueError at run time when
``k`` does not divide the length.

Compiled: an array of one dimension or more, a constant int ``k > 0`` or a
constant tuple/list of ints, a constant ``axis``.  Anything else (a number of parts
only the run time knows, ``k <= 0``, a 0-d array, an axis out of range, the
``ndim`` errors of ``hsplit``/``vsplit``/``dsplit``) falls back, and the
interpreter raises NumPy's error where there is one."""
from __future__ import annotations

import numbers

from ...errors import RERUN
from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..python.operators import C
from ..registry import CallTemplate, bind_arguments, register

I = T.INT64
_MSG = "array split does not result in an equal division"
MAX_PARTS = 64      # each part is its own view in the compiled code


class Split(CallTemplate):
    """One of the five; ``fixed_axis(ndim)`` gives ``hsplit``'s kind of axis
    (None: the ``axis`` argument), ``equal`` whether sections must be equal."""

    def __init__(self, name, equal, fixed_axis=None, min_ndim=1):
        self.name, self.equal = name, equal
        self.fixed_axis, self.min_ndim = fixed_axis, min_ndim
        self.paths = (f"numpy.{name}",)
        self.params = ("ary", "indices_or_sections") + (("axis",) if fixed_axis is None else ())

    def plan(self, call, t):
        """(axis, sections or None, indices or None) of the call on an array ``t``."""
        what = f"np.{self.name}()"
        nodes = bind_arguments(what, self.params, call.args, call.kwargs)
        if not isinstance(t, T.ArrayType):
            raise Incompatible(f"{what} of {t} (an array)")
        if t.ndim < self.min_ndim:
            raise Incompatible(f"{what} of a {t.ndim}-d array")
        if "indices_or_sections" not in nodes:
            raise Incompatible(f"{what} needs indices_or_sections")
        value = _const(nodes["indices_or_sections"], f"{what}: the sections or indices")
        if self.fixed_axis is not None:
            axis = self.fixed_axis(t.ndim)
        else:
            axis = _const(nodes["axis"], f"{what}: axis") if "axis" in nodes else 0
            if not isinstance(axis, numbers.Integral) or isinstance(axis, bool):
                raise Incompatible(f"{what}: axis must be a constant integer")
            if not -t.ndim <= axis < t.ndim:
                raise Incompatible(f"{what}: axis {axis} is out of range")
            axis = int(axis) % t.ndim
        if isinstance(value, (tuple, list)) or getattr(value, "ndim", None) == 1:
            items = list(value)
            if not all(isinstance(v, numbers.Integral) and not isinstance(v, bool)
                       for v in items):
                raise Incompatible(f"{what}: indices that are not integers")
            if len(items) >= MAX_PARTS:
                raise Incompatible(f"{what}: more than {MAX_PARTS} parts")
            return axis, None, [int(v) for v in items]
        if not isinstance(value, numbers.Integral) or isinstance(value, bool):
            raise Incompatible(f"{what}: the number of sections must be a constant integer")
        if value <= 0:
            raise Incompatible(f"{what}: {value} sections (NumPy raises)")
        if value > MAX_PARTS:
            raise Incompatible(f"{what}: more than {MAX_PARTS} parts")
        return axis, int(value), None

    def typer(self, inf, call, args, kwargs):
        t = args[0] if args else None
        axis, sections, indices = call.plan = self.plan(call, t)
        count = sections if sections is not None else len(indices) + 1
        if t.ndim == 1 or (axis == 0 and t.layout == "C") or \
                (axis == t.ndim - 1 and t.layout == "F"):
            part = t
        else:
            part = t.copy(layout="A")
        return T.TupleType(tuple([part] * count))

    def lower(self, L, call, args, kwargs):
        axis, sections, indices = call.plan
        arr = L.let(args[0])
        nd = arr.type.ndim
        n = L.let(N.ArrayAttr(arr, "shape", axis, I))
        if sections is not None:
            k = C(sections, I)
            extras = L.let(N.BinOp("srem", n, k, I))
            if self.equal:
                # NumPy raises it ``from None`` in an ``except TypeError`` (its
                # ``__context__`` the TypeError of ``len(sections)``): a pure call
                # re-runs in the interpreter, which raises it so
                L.emit(N.If(cond=N.Cmp("ne", extras, C(0, I), T.BOOL), line=L.line,
                            then=[N.Raise(exc=ValueError, message=_MSG, deopt=RERUN,
                                          line=L.line)]))
            each = L.let(N.BinOp("sdiv", n, k, I))
            bounds = []
            for i in range(sections):
                longer = N.Select(N.Cmp("lt", C(i, I), extras, T.BOOL), C(1, I), C(0, I), I)
                first = N.Select(N.Cmp("lt", C(i, I), extras, T.BOOL), C(i, I), extras, I)
                start = N.BinOp("add", N.BinOp("mul", C(i, I), each, I), first, I)
                size = L.let(N.BinOp("add", each, longer, I))
                empty = N.Cmp("eq", size, C(0, I), T.BOOL)      # (NumPy's empty slice)
                bounds.append((L.let(N.Select(empty, C(0, I), start, I)), size))
        else:
            points = [C(0, I)] + [L.let(_bound(p, n)) for p in indices] + [n]
            bounds = []
            for st, end in zip(points, points[1:]):
                size = N.BinOp("sub", end, st, I)
                empty = L.let(N.Cmp("le", size, C(0, I), T.BOOL))
                bounds.append((L.let(N.Select(empty, C(0, I), st, I)),
                               L.let(N.Select(empty, C(0, I), size, I))))
        stride = L.let(N.ArrayAttr(arr, "stride", axis, I))
        parts = []
        for (start, size), pt in zip(bounds, call.type.items):
            shape = [size if d == axis else N.ArrayAttr(arr, "shape", d, I) for d in range(nd)]
            strides = [N.ArrayAttr(arr, "stride", d, I) for d in range(nd)]
            offset = N.BinOp("mul", start, stride, I)
            parts.append(L.let(N.ArrayView(arr, offset, shape, strides, pt)))
        return N.MakeTuple(parts, call.type)


def _bound(p: int, n):
    """A slice bound ``p`` (a constant) of an axis of length ``n`` (Python's
    ``slice.indices`` for a step of 1): from the end when negative, clamped."""
    if p >= 0:
        return N.Select(N.Cmp("lt", C(p, I), n, T.BOOL), C(p, I), n, I)
    q = N.BinOp("add", C(p, I), n, I)
    return N.Select(N.Cmp("lt", q, C(0, I), T.BOOL), C(0, I), q, I)


def _const(node, what):
    value = node.value if isinstance(node, N.Const) else getattr(node, "obj", None)
    if value is None or isinstance(value, N.Expr):
        raise Incompatible(f"{what} must be a constant")
    return value


register(Split("split", True))
register(Split("array_split", False))
register(Split("hsplit", True, lambda nd: 1 if nd > 1 else 0))
register(Split("vsplit", True, lambda nd: 0, min_ndim=2))
register(Split("dsplit", True, lambda nd: 2, min_ndim=3))
