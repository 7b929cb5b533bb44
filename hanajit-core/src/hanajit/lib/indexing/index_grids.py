"""``np.r_[...]``, ``np.c_[...]``, ``np.mgrid[...]`` and ``np.ogrid[...]``: the
subscripts of NumPy's index-trick objects, which the frontend turns into calls
of the markers below (``frontend/index_grid_calls.py``): the items as
arguments (a slice's start, stop and step), their kinds in the call's
``trick_kinds`` (``"s"`` a slice, ``"v"`` a value; a leading ``"t:"`` when the
subscript is a tuple).

The typer rewrites the call into the NumPy calls NumPy's own ``__getitem__``
makes (``lib/index_tricks_impl.py``), typed as any call: a slice is
``np.arange(start, stop, step)``, or ``np.linspace(start, stop,
num=int(abs(step)))`` for an imaginary step; ``np.r_`` concatenates its pieces
along axis 0 after ``array(item, ndmin=1)``, ``np.c_`` along the last axis
after NumPy's ``ndmin=2, trans1d=0`` (a 1-D piece a column), both in
``np.result_type`` of the pieces (numbers weak); ``np.mgrid``/``np.ogrid`` of
one slice is the slice's range (an imaginary step: ``arange(0, n, 1.0) * step +
start``), of a tuple of slices the grid of per-axis ``arange(n) * step + start``
in ``result_type`` of all bounds (int64 or float64) -- ``np.mgrid`` the dense
stack (NumPy's ValueError for a negative size), ``np.ogrid`` a tuple of open
views.  String directives (``np.r_['0,2', ...]``, ``np.r_['r', ...]``), list
displays, a Python int variable beside arrays of a narrower integer dtype
(NumPy's OverflowError out of its bounds) and bounds that are not Python ints
or floats fall back."""
from __future__ import annotations

import math

import numpy as np

from ...ir import nodes as N
from ...ir import types as T
from ...ir.frontend_nodes import ObjRef
from ...typing_rules import Incompatible
from ..python.operators import C
from ..registry import CallTemplate, CompiledOnly, register


r_ = CompiledOnly("np.r_[]")
c_ = CompiledOnly("np.c_[]")
mgrid = CompiledOnly("np.mgrid[]")
ogrid = CompiledOnly("np.ogrid[]")


def marker(obj):
    """The marker the frontend calls for the NumPy object ``obj``, else None."""
    for real, m in ((np.r_, r_), (np.c_, c_), (np.mgrid, mgrid), (np.ogrid, ogrid)):
        if obj is real:
            return m
    return None


# -- compiled pieces (Python source) ------------------------------------------------

def _linspace(start, stop, step):
    return np.linspace(start, stop, num=int(abs(step)))


def _column(x):
    return x[:, None]


def _grid_linspace(start, stop, step):
    length = int(abs(step))
    if length != 1:
        st = (stop - start) / float(length - 1)
        return np.arange(0, length, 1, dtype=np.float64) * st + start
    return np.arange(0, length, 1, dtype=np.float64) * 1 + start


def _int_axis(start, stop, step, dense):
    n = math.ceil((stop - start) / step)
    if dense and n < 0:
        raise ValueError("negative dimensions are not allowed")
    return np.arange(n, dtype=np.int64) * step + start


def _float_axis(start, stop, step, dense):
    n = math.ceil((stop - start) / step)
    if dense and n < 0:
        raise ValueError("negative dimensions are not allowed")
    return np.arange(n, dtype=np.float64) * step + start


def _complex_axis(start, stop, step, dense):
    n = int(abs(step))
    if n != 1:
        return np.arange(n, dtype=np.float64) * ((stop - start) / float(n - 1)) + start
    return np.arange(n, dtype=np.float64) * 1 + start


_casts: dict = {}


def _cast(dt):
    f = _casts.get(dt)
    if f is None:
        d = getattr(np, dt.name)

        def f(x):
            return x.astype(d)
        f.__name__ = f.__qualname__ = f"as_{dt.name}"
        _casts[dt] = f
    return f


_fills: dict = {}


def _fill(dt, nd):
    """``np.array(x, ndmin=nd, dtype=dt)`` of a number ``x``."""
    f = _fills.get((dt, nd))
    if f is None:
        d = getattr(np, dt.name)
        if nd == 1:
            def f(x):
                return np.full(1, x, dtype=d)
        else:
            def f(x):
                return np.full((1, 1), x, dtype=d)
        f.__name__ = f.__qualname__ = f"fill_{dt.name}_{nd}"
        _fills[(dt, nd)] = f
    return f


# -- typing: the rewrite ------------------------------------------------------------

def _np_dtype(t: T.Scalar):
    return np.dtype("bool" if t.is_bool else t.name)


_WEAK = {"b": False, "i": 0, "u": 0, "f": 0.0, "c": 0j}


def _call(fn, args, kwargs=None, name=None):
    return N.PyCall(callee=fn, args=list(args), kwargs=dict(kwargs or {}),
                    name=name or getattr(fn, "__name__", "call"))


def _parse(call, what):
    """``(is_tuple, [("s", start, stop, step) | ("v", node)])`` of the call's
    arguments."""
    tup, _, kinds = call.trick_kinds.partition(":")
    rest = list(call.args)
    items = []
    for k in kinds:
        if k == "s":
            items.append(("s", rest.pop(0), rest.pop(0), rest.pop(0)))
        else:
            items.append(("v", rest.pop(0)))
    return tup == "t", items


def _none(node) -> bool:
    return isinstance(node, N.Const) and node.value is None


def _slice_piece(inf, start, stop, step, what):
    """The node of a slice's range in ``np.r_``/``np.c_``, typed."""
    start = C(0, T.INT64) if _none(start) else start
    step = C(1, T.INT64) if _none(step) else step
    if _none(stop):
        raise Incompatible(f"{what}: a slice without a stop")
    st = inf.expr(step, 0)
    if isinstance(st, T.Scalar) and st.is_complex:
        node = _call(_linspace, [start, stop, step])
    else:
        node = _call(np.arange, [start, stop, step], name="np.arange")
    inf.expr(node, 0)
    return node


class _Concat(CallTemplate):
    """``np.r_[...]`` (axis 0, ndmin 1) / ``np.c_[...]`` (last axis, ndmin 2, a
    1-D piece a column)."""

    def __init__(self, marker_, column):
        self.paths = (f"{__name__}.{'c_' if column else 'r_'}",)
        self.column = column
        self.what = marker_.__name__

    def typer(self, inf, call, args, kwargs):
        if getattr(call, "rewritten", False):
            return inf.expr(call.args[0], 0)
        _, items = _parse(call, self.what)
        if not items:
            raise Incompatible(f"{self.what} of no items")
        pieces, objs = [], []
        nd = 2 if self.column else 1
        for item in items:
            if item[0] == "s":
                node = _slice_piece(inf, *item[1:], self.what)
                if self.column:
                    node = _call(_column, [node])
                    inf.expr(node, 0)
                pieces.append((node, False))
                dt = _np_dtype(node.type.dtype)
                objs.append(dt)
                continue
            node = item[1]
            t = inf.expr(node, 0)
            if isinstance(t, T.ArrayType):
                if t.ndim == 0:
                    node = _call(np.atleast_1d if nd == 1 else np.atleast_2d, [node],
                                 name=f"np.atleast_{nd}d")
                elif t.ndim == 1 and nd == 2:
                    node = _call(_column, [node])
                inf.expr(node, 0)
                pieces.append((node, False))
                objs.append(_np_dtype(t.dtype))
            elif isinstance(t, T.Scalar):
                dt = _np_dtype(t)
                weak = not inf.is_strong(node)          # a Python number (NEP 50)
                pieces.append((node, True))
                objs.append(_WEAK[dt.kind] if weak else dt)
                if weak and dt.kind in "iu":
                    pieces[-1] = (node, node.value if isinstance(node, N.Const) else None)
            else:
                raise Incompatible(f"{self.what} of {t} (numbers, arrays and slices)")
        final = np.result_type(*objs)
        out = []
        for node, scalar in pieces:
            if scalar is not False:
                if scalar is None and final.kind in "iu" and final != np.int64:
                    raise Incompatible(f"{self.what}: a Python int argument beside {final} "
                                       "arrays (NumPy's OverflowError out of its bounds)")
                if scalar is not True and scalar is not None and final.kind in "iu" and not (
                        np.iinfo(final).min <= scalar <= np.iinfo(final).max):
                    raise Incompatible(f"{self.what}: Python integer {scalar} out of "
                                       f"bounds for {final} (NumPy's OverflowError)")
                node = _call(_fill(final, nd), [node])
            elif _np_dtype(node.type.dtype) != final:
                node = _call(_cast(final), [node])
            out.append(node)
        tup = N.MakeTuple(out)
        new = _call(np.concatenate, [tup], {"axis": C(-1 if self.column else 0, T.INT64)},
                    name="np.concatenate")
        t = inf.expr(new, 0)
        call.args, call.kwargs, call.rewritten = [new], {}, True
        return t

    def lower(self, L, call, args, kwargs):
        return args[0]


_PYTHON_NUMBERS = (T.INT64, T.FLOAT64)


class _Grid(CallTemplate):
    """``np.mgrid[...]`` (dense) / ``np.ogrid[...]`` (open)."""

    def __init__(self, marker_, dense):
        self.paths = (f"{__name__}.{'mgrid' if dense else 'ogrid'}",)
        self.dense = dense
        self.what = marker_.__name__

    def typer(self, inf, call, args, kwargs):
        if getattr(call, "rewritten", False):
            return inf.expr(call.args[0], 0)
        tup, items = _parse(call, self.what)
        if not items or any(i[0] != "s" for i in items):
            raise Incompatible(f"{self.what} of slices")
        bounds = []
        complex_steps = []
        for _, start, stop, step in items:
            start = C(0, T.INT64) if _none(start) else start
            if _none(stop):
                raise Incompatible(f"{self.what}: a slice without a stop")
            ts = [inf.expr(x, 0) for x in (start, stop)]
            cstep = False
            if not _none(step):
                st = inf.expr(step, 0)
                cstep = st == T.COMPLEX128
                if not cstep:
                    ts.append(st)
            if any(t not in _PYTHON_NUMBERS for t in ts):
                raise Incompatible(f"{self.what}: slice bounds must be Python ints or "
                                   "floats (an imaginary step a complex)")
            bounds.append((start, stop, step, ts))
            complex_steps.append(cstep)
        if not tup:
            start, stop, step, _ = bounds[0]
            if complex_steps[0]:
                new = _call(_grid_linspace, [start, stop, step])
            elif _none(step):
                new = _call(np.arange, [start, stop], name="np.arange")
            else:
                new = _call(np.arange, [start, stop, step], name="np.arange")
        else:
            floats = any(complex_steps) or any(
                t == T.FLOAT64 for b in bounds for t in b[3])
            axes = []
            for (start, stop, step, _), cstep in zip(bounds, complex_steps):
                step = C(1, T.INT64) if _none(step) else step
                fn = _complex_axis if cstep else _float_axis if floats else _int_axis
                axes.append(_call(fn, [start, stop, step, C(self.dense, T.BOOL)]))
            if self.dense:
                mesh = _call(np.meshgrid, axes, {"indexing": ObjRef("ij", "'ij'")},
                             name="np.meshgrid")
                new = _call(np.stack, [mesh], name="np.stack")
            else:
                new = _call(np.ix_, axes, name="np.ix_")
        t = inf.expr(new, 0)
        call.args, call.kwargs, call.rewritten = [new], {}, True
        return t

    def lower(self, L, call, args, kwargs):
        return args[0]


register(_Concat(r_, False))
register(_Concat(c_, True))
register(_Grid(mgrid, True))
register(_Grid(ogrid, False))
