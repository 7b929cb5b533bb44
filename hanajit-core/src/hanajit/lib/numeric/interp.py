"""``np.interp(x, xp, fp, left=None, right=None)`` for real values: ``x`` of any
shape (or a number), ``xp``/``fp`` 1-D; all in float64 as NumPy converts them;
NumPy's ValueErrors for empty or mismatched sample arrays.  The computation is
``interp_algorithms`` (NumPy's C loop step for step); ``period=`` and complex
``fp`` fall back."""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from . import interp_algorithms as hi
from ..arrays.creation import allocate
from ..python.operators import C
from ..registry import CallTemplate, register

I = T.INT64
F = T.FLOAT64
_PARAMS = ("x", "xp", "fp", "left", "right")


def _real(t) -> bool:
    e = t.dtype if isinstance(t, T.ArrayType) else t
    return isinstance(e, T.Scalar) and not e.is_complex


@register
class Interp(CallTemplate):
    paths = ("numpy.interp",)
    array_like = (0, 1, 2, "x", "xp", "fp")      # (a list display too)

    def bind(self, call, args, kwargs):
        if len(args) > 5 or set(kwargs) - set(_PARAMS[3:]) or len(args) < 3:
            raise Incompatible("np.interp(x, xp, fp, left=None, right=None) without period")
        bound = dict(zip(_PARAMS, args))
        bound.update(kwargs)
        return bound

    def typer(self, inf, call, args, kwargs):
        b = self.bind(call, args, kwargs)
        for k in ("xp", "fp"):
            if not (isinstance(b[k], T.ArrayType) and b[k].ndim == 1 and _real(b[k])):
                raise Incompatible(f"np.interp(): {k} must be a 1-D real array")
        for k in ("left", "right"):
            if k in b and b[k] != T.NONE and not (isinstance(b[k], T.Scalar)
                                                   and not b[k].is_complex):
                raise Incompatible(f"np.interp(): {k} must be a real number or None")
        x = b["x"]
        if not _real(x):
            raise Incompatible(f"np.interp() of {x}")
        return T.ArrayType(F, x.ndim, "C") if isinstance(x, T.ArrayType) else F

    def lower(self, L, call, args, kwargs):
        from ..sorting.sort import fresh_copy
        b = self.bind(call, args, kwargs)
        dx, dy = (_samples(L, b[k]) for k in ("xp", "fp"))
        nx = L.let(N.ArrayAttr(dx, "shape", 0, I))
        L.raise_if(N.Cmp("eq", nx, C(0, I), T.BOOL), ValueError,
                   "array of sample points is empty")
        L.raise_if(N.Cmp("ne", nx, N.ArrayAttr(dy, "shape", 0, I), T.BOOL), ValueError,
                   "fp and xp are not of the same length.")
        ends = []
        for k in ("left", "right"):
            v = b.get(k)
            given = v is not None and v.type != T.NONE
            ends += [ops.convert(L, v, F) if given else C(0.0, F), C(given, T.BOOL)]
        x = b["x"]
        if isinstance(x.type, T.ArrayType):
            out, flat = fresh_copy(L, x, F)
        else:
            out = allocate(L, T.ArrayType(F, 1, "C"), [C(1, I)])
            L.emit(N.Store(array=out, indices=[C(0, I)], value=ops.convert(L, x, F)))
            flat = out
        L.call_helper(hi.interp_into, [flat, dx, dy, ends[0], ends[2], ends[1], ends[3]])
        if isinstance(x.type, T.ArrayType):
            return out
        return N.Load(out, [C(0, I)], F)


def _samples(L, e):
    """``xp`` or ``fp`` as float64: a float64 array itself (NumPy converts without
    a copy then; a copy of long samples would cost more than a few lookups),
    else a converted copy."""
    from ..arrays import elementwise as ew
    from ..sorting.sort import fresh_copy
    e = ew.materialize(L, e)
    if e.type.dtype == F:
        return L.let(e)
    return fresh_copy(L, e, F)[1]
