"""``np.fft.fft2``, ``ifft2``, ``fftn`` and ``ifftn`` (``a, s=None, axes=...,
norm=None``) as NumPy's ``_raw_fftnd`` computes them: one ``fft``/``ifft``
(``lib/numeric/fft.py``) per axis, the last axis first, each with ``n`` the
input's length along that axis -- NumPy's bits, dtype and order.  ``axes``
constant (None: every axis; ``fft2``'s default ``(-2, -1)``), an axis given twice
transformed twice as in NumPy.  Falls back: ``s=``, ``out=``, non-constant
``axes``/``norm``, a 0-D array (NumPy returns it unchanged), and what one
transform falls back for (strided views of more than 2 dimensions among them);
``rfft2``/``rfftn``/``irfft2``/``irfftn`` and the Hermitian transforms fall back.
"""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..registry import PlannedCall, bound_const, register
from .fft import TRANSFORMS

_PARAMS = ("a", "s", "axes", "norm", "out")


class FFTN(PlannedCall):
    params = _PARAMS

    def __init__(self, name, one, default_axes):
        self.fname, self.one, self.default_axes = name, TRANSFORMS[one], default_axes
        self.name = f"np.fft.{name}"
        self.paths = (f"numpy.fft.{name}",)

    def typer(self, inf, call, args, kwargs):
        self.one.host_calls = inf.ctx is None or inf.ctx.capabilities.host_calls
        return super().typer(inf, call, args, kwargs)

    def make_plan(self, call, nodes, types):
        what = self.name
        a = types.get("a")
        for k in ("s", "out"):
            if types.get(k, T.NONE) != T.NONE:
                raise Incompatible(f"{what}(): {k}= is not compiled")
        if not isinstance(a, T.ArrayType) or a.ndim == 0:
            raise Incompatible(f"{what}() of {a} (an array of at least one dimension)")
        axes = bound_const(call, nodes, "axes", self.default_axes)
        if axes is None:
            axes = tuple(range(a.ndim))
        if isinstance(axes, list):
            axes = tuple(axes)
        if not isinstance(axes, tuple) or not axes or not all(
                type(k) is int and -a.ndim <= k < a.ndim for k in axes):
            raise Incompatible(f"{what}(): axes must be constant axes of the array")
        norm = bound_const(call, nodes, "norm", None)
        steps, t = [], a
        # (the results of C- or Fortran-contiguous arrays are such arrays)
        contiguous = a.layout in ("C", "F")
        for axis in reversed(axes):
            p = self.one.plan(t, axis, norm, what, contiguous)
            steps.append(p)
            t = p.type
        return _Plan(t, steps)

    def lower(self, L, call, args, kwargs):
        out = L.let(ew.materialize(L, self.bound(args, kwargs)["a"]))
        # NumPy's ``s``: the input's lengths along the axes
        shape = [L.let(N.ArrayAttr(out, "shape", k, T.INT64)) for k in range(out.type.ndim)]
        for p in call.call_plan.steps:
            out = self.one.transform(L, p, out, shape[p.axis])
        return out


class _Plan:
    def __init__(self, type_, steps):
        self.type, self.steps = type_, steps


for _name, _one, _axes in (("fft2", "fft", (-2, -1)), ("ifft2", "ifft", (-2, -1)),
                           ("fftn", "fft", None), ("ifftn", "ifft", None)):
    register(FFTN(_name, _one, _axes))
