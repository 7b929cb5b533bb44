"""``np.linalg.solve``, ``np.linalg.inv`` and ``np.linalg.det`` of 2-D arrays, by
the LAPACK functions NumPy itself calls (``lib/linalg/lapack.py``, ``solve_inv_det_algorithms``):
NumPy's results bit for bit, its ``LinAlgError``s ("Singular matrix", "Last 2
dimensions of the array must be square") and its gufunc's ValueError for a
right-hand side of the wrong length.

As in NumPy, the work is done in float64 (complex128 when any input is complex)
and the result cast to float32 (complex64) when every input is float32 or
complex64.  Stacks of matrices (more than two dimensions) loop over the stack as
NumPy's gufuncs do (``stacks``); a NumPy without its wheels' 64-bit-integer
OpenBLAS falls back.  The helpers' primitives
``prims.address`` and ``prims.lapack_*`` lower to ``ArrayAttr(a, "data")`` and
``ForeignCall``.
"""
from __future__ import annotations

import numpy as np

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from . import lapack
from . import solve_inv_det_algorithms as hl
from ..arrays.creation import allocate
from ..python.operators import C
from ..registry import CallTemplate, register
from .stacks import broadcast_stack, matrix_at, out_axes, over_stack

I = T.INT64
SQUARE = "Last 2 dimensions of the array must be square"


def result_dtype(*arrays) -> T.Scalar:
    """NumPy's ``_commonType``: float32 (complex64) only when every input is
    float32 or complex64, else float64 (complex128)."""
    single = all(a.dtype.is_float or a.dtype.is_complex for a in arrays) and all(
        (a.dtype.bits == 32 if a.dtype.is_float else a.dtype.bits == 64) for a in arrays)
    if any(a.dtype.is_complex for a in arrays):
        return T.COMPLEX64 if single else T.COMPLEX128
    return T.FLOAT32 if single else T.FLOAT64


def matrix_arg(t, name, what, stacked=False):
    """Incompatible unless ``t`` is a 2-D array (or, ``stacked``, a stack of
    matrices: 2-D or more) of numbers."""
    if not isinstance(t, T.ArrayType):
        raise Incompatible(f"np.linalg.{name}() of {t}")
    if t.ndim != 2 and not (stacked and t.ndim > 2):
        raise Incompatible(f"np.linalg.{name}() of a {t.ndim}-D {what} "
                           f"({'at least ' if stacked else ''}2-D only)")
    if not isinstance(t.dtype, T.Scalar):
        raise Incompatible(f"np.linalg.{name}() of {t}")


def need(routine, name):
    if not lapack.available(routine):
        raise Incompatible(f"np.linalg.{name}(): NumPy's LAPACK is not the 64-bit "
                           "OpenBLAS of its wheels here")


def square(L, a):
    """The size of ``a``'s square matrices (its last two dimensions), NumPy's
    LinAlgError when they are not square."""
    nd = a.type.ndim
    n = L.let(N.ArrayAttr(a, "shape", nd - 2, I))
    L.raise_if(N.Cmp("ne", n, N.ArrayAttr(a, "shape", nd - 1, I), T.BOOL),
               np.linalg.LinAlgError, SQUARE)
    return n


def work(L, complex_, size):
    return allocate(L, T.ArrayType(T.COMPLEX128 if complex_ else T.FLOAT64, 1, "C"),
                    [L.let(size)])


@register
class Solve(CallTemplate):
    paths = ("numpy.linalg.solve",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 2 or kwargs:
            raise Incompatible("np.linalg.solve(a, b)")
        a, b = args
        matrix_arg(a, "solve", "matrix", stacked=True)
        if not (isinstance(b, T.ArrayType) and b.ndim >= 1
                and isinstance(b.dtype, T.Scalar)):
            raise Incompatible(f"np.linalg.solve() with b of {b}")
        t = result_dtype(a, b)
        need("zgesv" if t.is_complex else "dgesv", "solve")
        if b.ndim == 1:                      # (solve1: b broadcast over a's stack)
            return T.ArrayType(t, a.ndim - 1, "C")
        return T.ArrayType(t, max(a.ndim, b.ndim), "C")

    def lower(self, L, call, args, kwargs):
        a, b = (L.let(ew.materialize(L, x)) for x in args)
        rt = call.type
        n = square(L, a)
        one = b.type.ndim == 1
        m = L.let(N.ArrayAttr(b, "shape", b.type.ndim - (1 if one else 2), I))
        sig = "(m,m),(m)->(m)" if one else "(m,m),(m,n)->(m,n)"
        L.emit(N.If(cond=N.Cmp("ne", m, n, T.BOOL), then=[N.Raise(
            exc=ValueError, args=[m, n], line=L.line,
            message=f"{'solve1' if one else 'solve'}: Input operand 1 has a mismatch in "
                    f"its core dimension 0, with gufunc signature {sig} (size {{}} is "
                    "different from {})")]))
        core = [n] if one else [n, L.let(N.ArrayAttr(b, "shape", b.type.ndim - 1, I))]
        bcore = len(core)
        stack, (sa, sb) = broadcast_stack(L, [(a, 2), (b, bcore)])
        x = L.let(allocate(L, rt, stack + core))
        z = rt.dtype.is_complex
        w = work(L, z, N.BinOp("mul", n, n, I))
        bw = work(L, z, n if one else N.BinOp("mul", n, core[1], I))
        over_stack(L, stack, lambda idx: L.call_helper(hl.solve1 if one else hl.solve, [
            matrix_at(L, a, sa, idx, 2), matrix_at(L, b, sb, idx, bcore),
            matrix_at(L, x, out_axes(stack), idx, bcore, "C"), w, bw]))
        return x


@register
class Inv(CallTemplate):
    paths = ("numpy.linalg.inv",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or kwargs:
            raise Incompatible("np.linalg.inv(a)")
        matrix_arg(args[0], "inv", "matrix", stacked=True)
        t = result_dtype(args[0])
        need("zgesv" if t.is_complex else "dgesv", "inv")
        return T.ArrayType(t, args[0].ndim, "C")

    def lower(self, L, call, args, kwargs):
        a = L.let(ew.materialize(L, args[0]))
        n = square(L, a)
        stack, (sa,) = broadcast_stack(L, [(a, 2)])
        x = L.let(allocate(L, call.type, stack + [n, n]))
        z = call.type.dtype.is_complex
        size = N.BinOp("mul", n, n, I)
        w, bw = work(L, z, size), work(L, z, size)
        over_stack(L, stack, lambda idx: L.call_helper(hl.inv, [
            matrix_at(L, a, sa, idx, 2), matrix_at(L, x, out_axes(stack), idx, 2, "C"),
            w, bw]))
        return x


@register
class Det(CallTemplate):
    paths = ("numpy.linalg.det",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or kwargs:
            raise Incompatible("np.linalg.det(a)")
        matrix_arg(args[0], "det", "matrix", stacked=True)
        t = result_dtype(args[0])
        need("zgetrf" if t.is_complex else "dgetrf", "det")
        return t if args[0].ndim == 2 else T.ArrayType(t, args[0].ndim - 2, "C")

    def lower(self, L, call, args, kwargs):
        from ..python import operators as ops
        a = L.let(ew.materialize(L, args[0]))
        n = square(L, a)
        t = call.type.dtype if isinstance(call.type, T.ArrayType) else call.type
        z = t.is_complex
        w = work(L, z, N.BinOp("mul", n, n, I))
        if a.type.ndim == 2:
            r = L.call_helper(hl.det_z if z else hl.det_d, [a, w])
            return ops.convert(L, r, t)
        stack, (sa,) = broadcast_stack(L, [(a, 2)])
        out = L.let(allocate(L, call.type, stack))

        def one(idx):
            r = L.call_helper(hl.det_z if z else hl.det_d, [matrix_at(L, a, sa, idx, 2), w])
            L.emit(N.Store(array=out, indices=idx, value=ops.convert(L, r, t)))
        over_stack(L, stack, one)
        return out


def option(call, pos, name, default, allowed):
    """A constant argument of the call (its default when absent), else
    Incompatible."""
    from ..statistics.var_std_norm import const_arg
    value = const_arg(call, pos, name, default)
    if type(value) not in (type(a) for a in allowed) or value not in allowed:
        raise Incompatible(f"np.linalg: {name} must be one of "
                           f"{', '.join(map(repr, allowed))}")
    return value


@register
class Cholesky(CallTemplate):
    """``np.linalg.cholesky(a, upper=False)``."""

    paths = ("numpy.linalg.cholesky",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or set(kwargs) - {"upper"}:
            raise Incompatible("np.linalg.cholesky(a, upper=False)")
        option(call, 99, "upper", False, (False, True))
        matrix_arg(args[0], "cholesky", "matrix", stacked=True)
        t = result_dtype(args[0])
        need("zpotrf" if t.is_complex else "dpotrf", "cholesky")
        return T.ArrayType(t, args[0].ndim, "C")

    def lower(self, L, call, args, kwargs):
        upper = option(call, 99, "upper", False, (False, True))
        a = L.let(ew.materialize(L, args[0]))
        n = square(L, a)
        stack, (sa,) = broadcast_stack(L, [(a, 2)])
        x = L.let(allocate(L, call.type, stack + [n, n]))
        z = call.type.dtype.is_complex
        w = work(L, z, N.BinOp("mul", n, n, I))
        over_stack(L, stack, lambda idx: L.call_helper(hl.cholesky, [
            matrix_at(L, a, sa, idx, 2), matrix_at(L, x, out_axes(stack), idx, 2, "C"), w,
            C(ord("U" if upper else "L"), I)]))
        return x


@register
class Eigvalsh(CallTemplate):
    """``np.linalg.eigvalsh(a, UPLO='L')``: ascending real eigenvalues."""

    paths = ("numpy.linalg.eigvalsh",)

    def typer(self, inf, call, args, kwargs):
        if len(args) not in (1, 2) or set(kwargs) - {"UPLO"} or (
                len(args) == 2 and kwargs):
            raise Incompatible("np.linalg.eigvalsh(a, UPLO='L')")
        option(call, 1, "UPLO", "L", ("L", "U", "l", "u"))
        matrix_arg(args[0], "eigvalsh", "matrix", stacked=True)
        t = result_dtype(args[0])
        need("zheevd" if t.is_complex else "dsyevd", "eigvalsh")
        return T.ArrayType(T.FLOAT32 if t in (T.FLOAT32, T.COMPLEX64) else T.FLOAT64,
                           args[0].ndim - 1, "C")

    def lower(self, L, call, args, kwargs):
        lower = option(call, 1, "UPLO", "L", ("L", "U", "l", "u")).upper() == "L"
        a = L.let(ew.materialize(L, args[0]))
        n = square(L, a)
        stack, (sa,) = broadcast_stack(L, [(a, 2)])
        x = L.let(allocate(L, call.type, stack + [n]))
        z = result_dtype(a.type).is_complex
        w = work(L, z, N.BinOp("mul", n, n, I))
        over_stack(L, stack, lambda idx: L.call_helper(hl.eigvalsh_z if z else hl.eigvalsh_d, [
            matrix_at(L, a, sa, idx, 2), matrix_at(L, x, out_axes(stack), idx, 1, "C"), w,
            C(ord("L" if lower else "U"), I)]))
        return x


def real_of(t: T.Scalar) -> T.Scalar:
    return T.FLOAT32 if t in (T.FLOAT32, T.COMPLEX64) else T.FLOAT64


def singular_values(L, a):
    """The float64 singular values of the 2-D ``a`` (descending), by ``?gesdd``."""
    m = L.let(N.ArrayAttr(a, "shape", 0, I))
    n = L.let(N.ArrayAttr(a, "shape", 1, I))
    k = L.let(N.Select(N.Cmp("lt", m, n, T.BOOL), m, n, I))
    s = allocate(L, T.ArrayType(T.FLOAT64, 1, "C"), [k])
    z = result_dtype(a.type).is_complex
    w = work(L, z, N.BinOp("mul", m, n, I))
    L.call_helper(hl.svdvals_z if z else hl.svdvals_d, [a, s, w])
    return s, m, n


def stacked_singular_values(L, a, rt):
    """The singular values of every matrix of the stack ``a``, C-ordered with the
    stack first, as ``svd`` rounds them to ``rt``'s dtype."""
    nd = a.type.ndim
    m = L.let(N.ArrayAttr(a, "shape", nd - 2, I))
    n = L.let(N.ArrayAttr(a, "shape", nd - 1, I))
    k = L.let(N.Select(N.Cmp("lt", m, n, T.BOOL), m, n, I))
    stack, (sa,) = broadcast_stack(L, [(a, 2)])
    s = L.let(allocate(L, rt, stack + [k]))
    z = result_dtype(a.type).is_complex
    w = work(L, z, N.BinOp("mul", m, n, I))
    over_stack(L, stack, lambda idx: L.call_helper(hl.svdvals_z if z else hl.svdvals_d, [
        matrix_at(L, a, sa, idx, 2), matrix_at(L, s, out_axes(stack), idx, 1, "C"), w]))
    return s


@register
class SingularValues(CallTemplate):
    """``np.linalg.svd(a, compute_uv=False)`` and ``np.linalg.svdvals(a)``: the
    singular values, descending (``full_matrices`` does not matter then)."""

    paths = ("numpy.linalg.svd",)

    def typer(self, inf, call, args, kwargs):
        if len(args) > 4 or not args or set(kwargs) - {"compute_uv", "full_matrices",
                                                        "hermitian"}:
            raise Incompatible("np.linalg.svd(a, full_matrices=True, compute_uv=True)")
        if option(call, 2, "compute_uv", True, (False, True)):
            from .decompositions import svd_type
            return svd_type(call, args)
        option(call, 1, "full_matrices", True, (False, True))
        option(call, 3, "hermitian", False, (False,))
        return self.values_type(args[0])

    @staticmethod
    def values_type(a):
        matrix_arg(a, "svd", "matrix", stacked=True)
        t = result_dtype(a)
        need("zgesdd" if t.is_complex else "dgesdd", "svd")
        return T.ArrayType(real_of(t), a.ndim - 1, "C")

    def lower(self, L, call, args, kwargs):
        from ..python import operators as ops
        from ..arrays.creation import fill
        if isinstance(call.type, T.TupleType):         # compute_uv=True: (U, S, Vh)
            from .decompositions import svd_lower
            return svd_lower(L, call, args)
        if args[0].type.ndim > 2:
            return stacked_singular_values(L, L.let(ew.materialize(L, args[0])), call.type)
        s, _, _ = singular_values(L, L.let(ew.materialize(L, args[0])))
        if call.type.dtype == T.FLOAT64:
            return s
        k = L.let(N.ArrayAttr(s, "shape", 0, I))
        out = allocate(L, call.type, [k])
        fill(L, out, [k], lambda idx: ops.convert(L, N.Load(s, [idx[0]], T.FLOAT64),
                                                  T.FLOAT32))
        return out


@register
class Svdvals(SingularValues):
    paths = ("numpy.linalg.svdvals",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or kwargs:
            raise Incompatible("np.linalg.svdvals(x)")
        return self.values_type(args[0])


@register
class MatrixRank(CallTemplate):
    """``np.linalg.matrix_rank(A)`` of a 2-D array (or a stack: an int64 array of
    the stack's shape) whose singular values are float64: how many exceed
    ``max(S) * max(M, N) * eps``."""

    paths = ("numpy.linalg.matrix_rank",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or kwargs:
            raise Incompatible("np.linalg.matrix_rank(A) without tol/rtol/hermitian")
        matrix_arg(args[0], "matrix_rank", "matrix", stacked=True)
        t = result_dtype(args[0])
        if real_of(t) != T.FLOAT64:
            raise Incompatible("np.linalg.matrix_rank() of a float32/complex64 matrix")
        need("zgesdd" if t.is_complex else "dgesdd", "matrix_rank")
        return I if args[0].ndim == 2 else T.ArrayType(I, args[0].ndim - 2, "C")

    def lower(self, L, call, args, kwargs):
        a = L.let(ew.materialize(L, args[0]))
        if a.type.ndim == 2:
            s, m, n = singular_values(L, a)
            return L.call_helper(hl.rank_of, [s, m, n])
        nd = a.type.ndim
        m, n = (L.let(N.ArrayAttr(a, "shape", k, I)) for k in (nd - 2, nd - 1))
        s = stacked_singular_values(L, a, T.ArrayType(T.FLOAT64, nd - 1, "C"))
        stack, _ = broadcast_stack(L, [(a, 2)])
        out = L.let(allocate(L, call.type, stack))
        over_stack(L, stack, lambda idx: L.emit(N.Store(array=out, indices=idx, value=(
            L.call_helper(hl.rank_of, [matrix_at(L, s, out_axes(stack), idx, 1, "C"),
                                       m, n])))))
        return out


class Address(CallTemplate):
    """``prims.address(a)``: the address of an array's first element."""

    paths = ("hanajit.lib.prims.address",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or not isinstance(args[0], T.ArrayType):
            raise Incompatible("prims.address(array)")
        return I

    def lower(self, L, call, args, kwargs):
        return N.ArrayAttr(args[0], "data", 0, I)


class Lapack(CallTemplate):
    """``prims.lapack_<routine>(addresses...)``: a ``ForeignCall``; with ``typed``,
    ``prims.lapack_<stem>(w, addresses...)`` calls ``d<stem>`` or ``z<stem>`` by
    the dtype of the work array ``w``."""

    def __init__(self, routine, typed=False):
        self.routine, self.typed = routine, typed
        self.paths = (f"hanajit.lib.prims.lapack_{routine}",)

    def typer(self, inf, call, args, kwargs):
        addresses = args[1:] if self.typed else args
        if kwargs or (self.typed and not (args and isinstance(args[0], T.ArrayType))) \
                or not all(isinstance(t, T.Scalar) and t.is_int for t in addresses):
            raise Incompatible(f"prims.lapack_{self.routine}(addresses...)")
        return T.NONE

    def lower(self, L, call, args, kwargs):
        from ..python import operators as ops
        routine = self.routine
        if self.typed:
            routine = ("z" if args[0].type.dtype.is_complex else "d") + routine
            args = args[1:]
        L.emit(N.ForeignCall(symbol=routine,
                             args=[L.let(ops.convert(L, a, I)) for a in args]))
        return C(None, T.NONE)


register(Address())
for _routine in ("dsyevd", "zheevd", "dgesdd", "zgesdd"):
    register(Lapack(_routine))
for _stem in ("gesv", "getrf", "potrf"):
    register(Lapack(_stem, typed=True))
