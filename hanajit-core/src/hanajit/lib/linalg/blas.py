"""``prims.blas_<op>(w, args...)``: the CBLAS functions of NumPy's own OpenBLAS
that ``np.dot``, ``@`` and ``np.vdot`` call, picked by the dtype of ``w`` (an
array or a number).

Each lowers to one ``ForeignCall`` of ``cblas_<letter><op>`` (``cblas_dgemm``,
``cblas_zdotu_sub``), with CBLAS's arguments as NumPy passes them: integers and
addresses as int64; ``alpha``/``beta``, written as Python floats, become the
dtype's float for real routines and a complex number passed by address for
complex ones.  ``prims.blas_dot``/``blas_dotc`` return the
dot product: ``?dot`` of real vectors returns it, the complex ``?dotu_sub``/
``?dotc_sub`` write it through a last pointer argument that the lowering provides
(``ForeignCall.result_arg``), so no array is allocated for it.  The helpers that
make these calls as NumPy does are ``dot_algorithms``.
"""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from . import lapack
from ..python.operators import C
from ..registry import CallTemplate, register

I = T.INT64

# op -> dtype -> (CBLAS function, the type it returns, or None)
_LETTER = {T.FLOAT64: "d", T.FLOAT32: "s", T.COMPLEX128: "z", T.COMPLEX64: "c"}
ROUTINES = {
    "dot": lambda t: ("cblas_" + _LETTER[t] + ("dotu_sub" if t.is_complex else "dot"),
                      None if t.is_complex else t),
    "dotc": lambda t: ("cblas_" + _LETTER[t] + ("dotc_sub" if t.is_complex else "dot"),
                       None if t.is_complex else t),
    "gemm": lambda t: ("cblas_" + _LETTER[t] + "gemm", None),
    "gemv": lambda t: ("cblas_" + _LETTER[t] + "gemv", None),
    "syrk": lambda t: ("cblas_" + _LETTER[t] + "syrk", None),
    "axpy": lambda t: ("cblas_" + _LETTER[t] + "axpy", None),
}

# CBLAS's enumerations
ROW_MAJOR, COL_MAJOR = 101, 102
NO_TRANS, TRANS = 111, 112
UPPER = 121


def blas_dtype(t) -> bool:
    """Does NumPy's BLAS path apply to arrays of this dtype?"""
    return t in _LETTER


def routine(op: str, t) -> tuple:
    return ROUTINES[op](t)


def available() -> bool:
    """Is NumPy's BLAS the 64-bit OpenBLAS of its wheels, found in the process?"""
    return all(lapack.available(routine(op, t)[0]) for op in ROUTINES for t in _LETTER)


def _dtype(t):
    """The dtype ``prims.blas_*`` computes in: of the array or number ``w``."""
    return t.dtype if isinstance(t, T.ArrayType) else t


class Blas(CallTemplate):
    def __init__(self, op):
        self.op = op
        self.paths = (f"hanajit.lib.prims.blas_{op}",)

    def typer(self, inf, call, args, kwargs):
        if kwargs or not args or not blas_dtype(_dtype(args[0])) \
                or not all(isinstance(t, T.Scalar) and not t.is_bool for t in args[1:]):
            raise Incompatible(f"prims.blas_{self.op}(w, args...)")
        return _dtype(args[0]) if self.op in ("dot", "dotc") else T.NONE

    def lower(self, L, call, args, kwargs):
        from ..python import operators as ops
        t = _dtype(args[0].type)
        symbol, _ = routine(self.op, t)
        out = []
        for a in args[1:]:
            # alpha and beta: real routines take the dtype's float, complex ones a
            # complex number by address (ForeignCall)
            at = I if a.type.is_int else t
            out.append(L.let(ops.convert(L, a, at)))
        if self.op not in ("dot", "dotc"):
            L.emit(N.ForeignCall(symbol=symbol, args=out))
            return C(None, T.NONE)
        target = L.temp(t, "dot")
        L.emit(N.Assign(target=target, value=ops.zero(t)))
        L.emit(N.ForeignCall(symbol=symbol, args=out, returns=t, target=target,
                             result_arg=t.is_complex))
        return N.Var(target, t)


for _op in ROUTINES:
    register(Blas(_op))
