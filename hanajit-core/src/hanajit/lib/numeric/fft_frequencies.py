"""``np.fft.fftfreq(n, d=1.0)``, ``np.fft.rfftfreq(n, d=1.0)`` (NumPy's source,
``fft_frequencies_algorithms``) and ``np.fft.fftshift(x, axes=None)``,
``np.fft.ifftshift`` (``np.roll`` by half of each axis, as NumPy's source does).

``n`` an integer, ``d`` a Python int or float (NumPy scalars of other types and
arrays fall back: NEP 50 changes the arithmetic); ``device=`` falls back.  The
shifts take constant ``axes`` (None, an int or a tuple); arrays of more than one
dimension that are not C-contiguous by type fall back (NumPy's ``empty_like``
order of the result)."""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..arrays.rebuild import Roll
from ..python.operators import C
from ..registry import CallTemplate, bind_arguments, register
from . import fft_frequencies_algorithms as hf

I = T.INT64


class Frequencies(CallTemplate):
    def __init__(self, name):
        self.name = name
        self.paths = (f"numpy.fft.{name}",)

    def typer(self, inf, call, args, kwargs):
        b = bind_arguments(f"np.fft.{self.name}", ("n", "d"), args, kwargs)
        n, d = b.get("n"), b.get("d", T.FLOAT64)
        if not (isinstance(n, T.Scalar) and n.is_int and not n.is_bool):
            raise Incompatible(f"np.fft.{self.name}(): n must be an integer")
        if n.kind == "u":               # (NumPy's -(n // 2) wraps around)
            raise Incompatible(f"np.fft.{self.name}() of an unsigned n")
        if d not in (T.FLOAT64, T.INT64):
            raise Incompatible(f"np.fft.{self.name}(): d must be a Python int or float")
        return T.ArrayType(T.FLOAT64, 1, "C")

    def lower(self, L, call, args, kwargs):
        b = bind_arguments(f"np.fft.{self.name}", ("n", "d"), args, kwargs)
        n = L.let(N.Cast(b["n"], I) if b["n"].type != I else b["n"])
        d = b.get("d", C(1.0, T.FLOAT64))
        return L.call_helper(getattr(hf, self.name), [n, d])


class Shift(CallTemplate):
    accepts_lazy = True

    def __init__(self, name):
        self.name = name
        self.paths = (f"numpy.fft.{name}",)

    def axes(self, call, ndim):
        from ..registry import bound_const
        nodes = bind_arguments(f"np.fft.{self.name}", ("x", "axes"), call.args, call.kwargs)
        axes = bound_const(call, nodes, "axes", None)
        if axes is None:
            return list(range(ndim))
        values = axes if isinstance(axes, tuple) else (axes,)
        if not all(type(k) is int and -ndim <= k < ndim for k in values):
            raise Incompatible(f"np.fft.{self.name}(): axes must be constant axes of the "
                               "array")
        return [k % ndim for k in values]

    def typer(self, inf, call, args, kwargs):
        b = bind_arguments(f"np.fft.{self.name}", ("x", "axes"), args, kwargs)
        x = b.get("x")
        if not isinstance(x, T.ArrayType):
            raise Incompatible(f"np.fft.{self.name}() of {x} (an array only)")
        if x.ndim == 0:                 # (np.roll of a 0-d array: NumPy's ValueError)
            raise Incompatible(f"np.fft.{self.name}() of a 0-d array")
        if x.ndim > 1 and x.layout != "C":
            raise Incompatible(f"np.fft.{self.name}() of an array that may not be "
                               "C-contiguous (NumPy's order of the result)")
        self.axes(call, x.ndim)
        return T.ArrayType(x.dtype, x.ndim, "C")

    def lower(self, L, call, args, kwargs):
        b = bind_arguments(f"np.fft.{self.name}", ("x", "axes"), args, kwargs)
        out = b["x"]
        axes = self.axes(call, call.type.ndim)
        if not axes:
            return L.let(ew.materialize(L, ew.to_lazy(L, out)))   # roll(x, [], ()): a copy
        total = {}
        for k in axes:
            z = ew.to_lazy(L, out)
            half = N.BinOp("sdiv", z.dims[k], C(2, I), I)
            shift = half if self.name == "fftshift" else N.BinOp("sub", C(0, I), half, I)
            # (NumPy sums the shifts of an axis named twice)
            total[k] = shift if k not in total else N.BinOp("add", total[k], shift, I)
        for k, shift in total.items():
            out = L.let(Roll.rolled(L, ew.to_lazy(L, out), k, L.let(shift)))
        return out


for _name in ("fftfreq", "rfftfreq"):
    register(Frequencies(_name))
for _name in ("fftshift", "ifftshift"):
    register(Shift(_name))
