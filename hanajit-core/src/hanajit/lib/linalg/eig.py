"""``np.linalg.eig`` and ``np.linalg.eigvals`` of 2-D square arrays by the LAPACK
function NumPy itself calls (``?geev``, ``eig_algorithms``): NumPy's results bit
for bit.

As in NumPy the work is done in float64 (``dgeev``) or complex128 (``zgeev``) and
cast to float32/complex64 for float32/complex64 input.  NumPy's result dtype for
real input depends on the values (real when every eigenvalue is real, else
complex): the compiled call is typed real, and complex eigenvalues re-run the call
in the interpreter.  ``eig`` returns NumPy's ``EigResult`` (``T.NamedTupleType``).
Stacks of matrices fall back.
"""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..arrays import elementwise as ew
from ..arrays.creation import allocate
from ..registry import CallTemplate, register
from . import eig_algorithms as ea
from .solve_inv_det import Lapack, matrix_arg, need, result_dtype, square, work

I = T.INT64


def _dtype(call, args, kwargs, name):
    if len(args) != 1 or kwargs:
        raise Incompatible(f"np.linalg.{name}(a)")
    matrix_arg(args[0], name, "matrix")
    t = result_dtype(args[0])
    need("zgeev" if t.is_complex else "dgeev", name)
    return t


@register
class Eig(CallTemplate):
    """``np.linalg.eig(a)``: ``EigResult(eigenvalues, eigenvectors)``, the
    eigenvectors the columns."""

    paths = ("numpy.linalg.eig",)

    def typer(self, inf, call, args, kwargs):
        t = _dtype(call, args, kwargs, "eig")
        return T.NamedTupleType((T.ArrayType(t, 1, "C"), T.ArrayType(t, 2, "C")),
                                name="EigResult", fields=("eigenvalues", "eigenvectors"))

    def lower(self, L, call, args, kwargs):
        a = L.let(ew.materialize(L, args[0]))
        n = square(L, a)
        wt, vt = call.type.items
        ev, v = allocate(L, wt, [n]), allocate(L, vt, [n, n])
        z = wt.dtype.is_complex
        w = work(L, z, N.BinOp("mul", n, n, I))
        L.call_helper(ea.eig_z if z else ea.eig_d, [a, ev, v, w])
        return N.MakeTuple([ev, v], call.type)


@register
class Eigvals(CallTemplate):
    """``np.linalg.eigvals(a)``: the eigenvalues, in LAPACK's order."""

    paths = ("numpy.linalg.eigvals",)

    def typer(self, inf, call, args, kwargs):
        return T.ArrayType(_dtype(call, args, kwargs, "eigvals"), 1, "C")

    def lower(self, L, call, args, kwargs):
        a = L.let(ew.materialize(L, args[0]))
        n = square(L, a)
        ev = allocate(L, call.type, [n])
        z = call.type.dtype.is_complex
        w = work(L, z, N.BinOp("mul", n, n, I))
        L.call_helper(ea.eigvals_z if z else ea.eigvals_d, [a, ev, w])
        return ev


for _routine in ("dgeev", "zgeev"):
    register(Lapack(_routine))
