"""``np.matvec(A, v)`` and ``np.vecmat(v, A)`` (NumPy 2.2's gufuncs
``(m,n),(n)->(m)`` and ``(n),(n,m)->(m)``) where their loops give the bits of
``np.matmul(A, v)`` / ``np.matmul(v, A)``, which the call then is (its
template, ``lib/linalg/dot.py``): integer operands (exact sums), and float or
complex operands of one dtype with ``A`` C-contiguous, or a single
Fortran-ordered matrix (NumPy's matvec calls the same ``gemv`` as matmul
there).  ``v`` must be 1-D.

Falls back: a stacked ``v``; a strided, reversed or stacked Fortran-ordered
float ``A`` (NumPy's gufunc loop takes a row-by-row ``dot`` or another ``gemv``
than matmul's); floats of mixed dtypes (a cast copy changes the loop);
``np.vecmat`` of complex numbers (its conjugating ``gemv`` rounds otherwise than
``matmul(v.conj(), A)``); keywords."""
from __future__ import annotations

from ...ir import types as T
from ...typing_rules import Incompatible
from ..registry import CallTemplate, register


def _check(name, a, v):
    """Incompatible unless ``name(…)`` of the matrix ``a`` and vector ``v`` types
    is ``np.matmul``'s bits."""
    if not (isinstance(a, T.ArrayType) and isinstance(v, T.ArrayType)):
        raise Incompatible(f"{name}() of arrays")
    if v.ndim != 1:
        raise Incompatible(f"{name}() of a stack of vectors (a 1-D vector compiles)")
    if a.ndim < 2:
        raise Incompatible(f"{name}(): the matrix needs two dimensions (NumPy's ValueError)")
    da, dv = a.dtype, v.dtype
    if (da.is_int or da.is_bool) and (dv.is_int or dv.is_bool) and not (
            da.is_bool and dv.is_bool):
        return
    if da.is_bool or dv.is_bool or da != dv:
        raise Incompatible(f"{name}() of {da} and {dv} (one float or complex dtype "
                           "compiles)")
    if not (a.layout == "C" or a.layout == "F" and a.ndim == 2):
        kind = "stacked Fortran-ordered" if a.layout == "F" else "strided"
        raise Incompatible(f"{name}() of a {kind} float matrix (NumPy's loop differs "
                           "from matmul's there)")


class _MatVec(CallTemplate):
    def typer(self, inf, call, args, kwargs):
        import numpy
        from .dot import dot_type
        name = self.name
        if len(args) != 2 or kwargs:
            raise Incompatible(f"{name}(x1, x2) (keywords fall back)")
        if self.matrix_first:
            _check(name, args[0], args[1])
        else:
            _check(name, args[1], args[0])
            if args[0].dtype.is_complex:
                raise Incompatible("np.vecmat() of complex numbers (NumPy's conjugating "
                                   "gemv rounds otherwise than matmul(v.conj(), A))")
        call.callee = numpy.matmul          # (its template types and lowers it from now on)
        return dot_type(*args, matmul=True)

    def lower(self, L, call, args, kwargs):         # (never: the callee is matmul now)
        from .dot import dot
        return dot(L, args[0], args[1], call.type, "matmul")


@register
class MatVec(_MatVec):
    paths = ("numpy.matvec",)
    name, matrix_first = "np.matvec", True


@register
class VecMat(_MatVec):
    paths = ("numpy.vecmat",)
    name, matrix_first = "np.vecmat", False
