"""``np.convolve(a, v, mode)`` and ``np.correlate(a, v, mode)`` of vectors of one
float or complex dtype, as NumPy computes them: each output a BLAS dot product
of the overlap, the full overlaps of short real kernels as NumPy's unrolled sums
(``convolve_algorithms``).  CPU target only (NumPy's BLAS);
other dtypes and targets fall back.
"""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from ..arrays.creation import allocate
from ..python.operators import C
from ..registry import CallTemplate, register

I = T.INT64
_MODES = {"valid": 0, "same": 1, "full": 2}


class Correlation(CallTemplate):
    def __init__(self, name, default):
        self.name, self.default = name, default
        self.paths = (f"numpy.{name}",)

    def _mode(self, call):
        from ..statistics.var_std_norm import const_arg
        mode = const_arg(call, 2, "mode", self.default)
        if mode not in _MODES:
            raise Incompatible(f"np.{self.name}(a, v, mode): mode 'valid', 'same' or "
                               "'full'")
        return _MODES[mode]

    def typer(self, inf, call, args, kwargs):
        from . import blas
        if len(args) + len(kwargs) not in (2, 3) or set(kwargs) - {"mode"} \
                or not all(isinstance(a, T.ArrayType) and a.ndim == 1 for a in args[:2]):
            raise Incompatible(f"np.{self.name}(a, v, mode) of 1-D arrays")
        ta, tv = args[0].dtype, args[1].dtype
        if ta != tv or not blas.blas_dtype(ta):
            raise Incompatible(f"np.{self.name}() of two arrays of one float or complex "
                               "dtype")
        self._mode(call)
        return T.ArrayType(ta, 1, "C")

    def lower(self, L, call, args, kwargs):
        from . import convolve_algorithms as hb
        from .dot import uses_numpys_blas
        a, v = (L.let(x) for x in args[:2])
        t = a.type.dtype
        if not uses_numpys_blas(L, a.type, v.type):
            raise Incompatible(f"np.{self.name}() needs NumPy's BLAS (the CPU target)")
        mode = self._mode(call)
        na = L.let(N.ArrayAttr(a, "shape", 0, I))
        nv = L.let(N.ArrayAttr(v, "shape", 0, I))
        L.raise_if(N.Cmp("eq", na, C(0, I), T.BOOL), ValueError,
                   "a cannot be empty" if self.name == "convolve"
                   else "first array argument cannot be empty")
        L.raise_if(N.Cmp("eq", nv, C(0, I), T.BOOL), ValueError,
                   "v cannot be empty" if self.name == "convolve"
                   else "second array argument cannot be empty")
        length = L.let(L.call_helper(hb.correlate_length, [
            N.Select(N.Cmp("ge", na, nv, T.BOOL), na, nv, I),
            N.Select(N.Cmp("ge", na, nv, T.BOOL), nv, na, I), C(mode, I)]))
        out = allocate(L, call.type, [length])
        L.emit(N.ExprStmt(value=L.call_helper(getattr(hb, self.name), [
            a, v, out, ops.zero(t), C(mode, I), C(int(t.is_float), I)])))
        return out


register(Correlation("convolve", "full"))
register(Correlation("correlate", "valid"))
