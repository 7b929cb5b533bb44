"""Matrices built or changed as NumPy does: ``np.eye``, ``np.identity``,
``np.tri``, ``np.tril``, ``np.triu`` and ``np.fill_diagonal``.

``tri(N, M=None, k=0, dtype=float)`` is ``i >= j - k`` at ``[i, j]`` in ``dtype``
(NumPy's ``greater_equal.outer`` of two ``arange``: a negative ``N`` or ``M`` is
an empty axis);
``eye(N, M=None, k=0, dtype=float)`` is zeros with ones on diagonal ``k``;
``tril``/``triu`` keep the elements on and below (above) diagonal ``k`` of the last
two axes and put zeros of the array's dtype elsewhere (a 1-D array is read as
the rows of a square matrix, as NumPy's broadcasting does); ``fill_diagonal``
writes ``val`` (a number, or its elements repeated in order) to ``a.flat[::M+1]``
of a 2-D ``a``, stopping after the first ``M`` rows unless ``wrap=True``.
"""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from . import elementwise as ew
from ..python import operators as ops
from .creation import const_dtype, bind_kw, allocate, fill
from ..python.operators import C
from ..registry import CallTemplate, register

I = T.INT64


def _bind(call, args, kwargs, names):
    """``bind_kw`` after NumPy's arity check (extra positional arguments: TypeError)."""
    if len(args) > len(names):
        raise Incompatible(f"{call.name}() takes at most {len(names)} arguments")
    return bind_kw(call, args, kwargs, names)


def _int(t, what, signed=False):
    if not (isinstance(t, T.Scalar) and t.is_int and not t.is_bool):
        raise Incompatible(f"{what} must be an integer")
    if signed and t.kind == "u":
        # (NumPy's tri() computes -k in k's type: an unsigned k wraps or overflows)
        raise Incompatible(f"{what} of an unsigned type")


def _one(dtype):
    if dtype.is_bool:
        return C(True, dtype)
    if dtype.is_complex:
        return C(1 + 0j, dtype)
    return C(1.0 if dtype.is_float else 1, dtype)


def _dim(L, e):
    d = L.let(ops.convert_wrap(e, I))
    L.raise_if(N.Cmp("lt", d, C(0, I), T.BOOL), ValueError,
               "negative dimensions are not allowed")
    return d


@register
class Eye(CallTemplate):
    paths = ("numpy.eye",)

    def bind(self, call, args, kwargs):
        return _bind(call, args, kwargs, ("N", "M", "k", "dtype", "order"))

    def typer(self, inf, call, args, kwargs):
        a = self.bind(call, args, kwargs)
        if a.get("N") is None:
            raise Incompatible("np.eye(N, M=None, k=0, dtype=float)")
        _int(a["N"], "N")
        if a.get("M") not in (None, T.NONE):
            _int(a["M"], "M")
        if a.get("k") is not None:
            _int(a["k"], "k", signed=True)
        order = a.get("order")
        if order is not None and not (isinstance(order, T.ConstType) and order.value == "C"):
            raise Incompatible("np.eye(): only order='C'")
        dt = a.get("dtype")
        return T.ArrayType(T.FLOAT64 if dt in (None, T.NONE) else const_dtype(dt), 2, "C")

    def lower(self, L, call, args, kwargs):
        a = self.bind(call, args, kwargs)
        t = call.type
        rows = _dim(L, a["N"])
        m = a.get("M")
        cols = rows if m is None or m.type == T.NONE else _dim(L, m)
        k = L.let(ops.convert_wrap(a["k"], I)) if a.get("k") is not None else C(0, I)
        out = allocate(L, t, [rows, cols])
        one, zero = _one(t.dtype), ops.zero(t.dtype)
        fill(L, out, [rows, cols], lambda idx: N.Select(
            N.Cmp("eq", N.BinOp("sub", idx[1], idx[0], I), k, T.BOOL), one, zero, t.dtype))
        return out


@register
class Identity(Eye):
    """``np.identity(n, dtype=None)``: ``np.eye(n, dtype=dtype)``."""

    paths = ("numpy.identity",)

    def bind(self, call, args, kwargs):
        a = _bind(call, args, kwargs, ("n", "dtype"))
        return {"N": a.get("n"), "dtype": a.get("dtype")}


@register
class Tri(Eye):
    paths = ("numpy.tri",)

    def bind(self, call, args, kwargs):
        return _bind(call, args, kwargs, ("N", "M", "k", "dtype"))

    def lower(self, L, call, args, kwargs):
        a = self.bind(call, args, kwargs)
        t = call.type

        def size(e):     # (arange of a negative length: empty)
            d = L.let(ops.convert_wrap(e, I))
            return L.let(N.Select(N.Cmp("lt", d, C(0, I), T.BOOL), C(0, I), d, I))
        rows = size(a["N"])
        m = a.get("M")
        cols = rows if m is None or m.type == T.NONE else size(m)
        k = L.let(ops.convert_wrap(a["k"], I)) if a.get("k") is not None else C(0, I)
        out = allocate(L, t, [rows, cols])
        one, zero = _one(t.dtype), ops.zero(t.dtype)
        fill(L, out, [rows, cols], lambda idx: N.Select(
            N.Cmp("le", N.BinOp("sub", idx[1], idx[0], I), k, T.BOOL), one, zero, t.dtype))
        return out


class _Triangle(CallTemplate):
    lower_part: bool

    def typer(self, inf, call, args, kwargs):
        a = _bind(call, args, kwargs, ("m", "k"))
        m = a.get("m")
        if not isinstance(m, T.ArrayType) or m.ndim < 1:
            raise Incompatible(f"np.{self.name}() of {m}")
        if a.get("k") is not None:
            _int(a["k"], "k", signed=True)
        return T.ArrayType(m.dtype, max(m.ndim, 2), "C")

    def lower(self, L, call, args, kwargs):
        a = _bind(call, args, kwargs, ("m", "k"))
        z = ew.to_lazy(L, L.let(ew.materialize(L, a["m"])))
        k = L.let(ops.convert_wrap(a["k"], I)) if a.get("k") is not None else C(0, I)
        t = call.type
        dims = list(z.dims) if len(z.dims) >= 2 else [z.dims[0], z.dims[0]]
        dims = [L.let(d) for d in dims]
        out = allocate(L, t, dims)
        zero = ops.zero(t.dtype)

        def value(idx):
            i, j = idx[-2], idx[-1]
            src = idx if len(z.dims) >= 2 else [j]
            bound = N.BinOp("add", i, k, I)
            keep = (N.Cmp("le", j, bound, T.BOOL) if self.lower_part
                    else N.Cmp("ge", j, bound, T.BOOL))
            return N.Select(keep, z.elem(src), zero, t.dtype)
        fill(L, out, dims, value)
        return out


@register
class Tril(_Triangle):
    name, paths, lower_part = "tril", ("numpy.tril",), True


@register
class Triu(_Triangle):
    name, paths, lower_part = "triu", ("numpy.triu",), False


@register
class FillDiagonal(CallTemplate):
    """``np.fill_diagonal(a, val, wrap=False)`` of a 2-D array (in place)."""

    paths = ("numpy.fill_diagonal",)

    def typer(self, inf, call, args, kwargs):
        from ..statistics.var_std_norm import const_arg
        a = _bind(call, args, kwargs, ("a", "val", "wrap"))
        arr, val = a.get("a"), a.get("val")
        if not isinstance(arr, T.ArrayType) or arr.ndim != 2:
            raise Incompatible("np.fill_diagonal() of a 2-D array only")
        if not isinstance(val, (T.Scalar, T.ArrayType)):
            raise Incompatible(f"np.fill_diagonal() with val of {val}")
        if const_arg(call, 2, "wrap", False) not in (False, True):
            raise Incompatible("np.fill_diagonal(): wrap must be a constant bool")
        node = _bind(call, call.args, call.kwargs, ("a", "val", "wrap")).get("val")
        call.plan = isinstance(val, T.Scalar) and not inf.is_strong(node)   # a Python number
        return T.NONE

    def lower(self, L, call, args, kwargs):
        from . import matrix_algorithms as hm
        from ..indexing.elements import flat_store_value
        from ..sorting.sort import fresh_copy
        from ..statistics.var_std_norm import const_arg
        a = _bind(call, args, kwargs, ("a", "val", "wrap"))
        arr, val = L.let(a["a"]), a["val"]
        t = arr.type
        if t.readonly:
            L.emit(N.Raise(exc=ValueError, message="assignment destination is read-only",
                           line=L.line))
            return C(None, T.NONE)
        if isinstance(val.type, T.ArrayType):
            _, flat = fresh_copy(L, val, t.dtype)
        else:
            flat = allocate(L, T.ArrayType(t.dtype, 1, "C"), [C(1, I)])
            L.emit(N.Store(array=flat, indices=[C(0, I)], value=L.let(
                flat_store_value(L, val, t.dtype, python=bool(call.plan)))))
        wrap = bool(const_arg(call, 2, "wrap", False))
        L.call_helper(hm.fill_diagonal_2d, [arr, flat, C(wrap, T.BOOL)])
        return C(None, T.NONE)
