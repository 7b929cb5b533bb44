"""The array-API names NumPy 2 added to ``np.linalg`` (and ``np.vecdot``): thin
wrappers in NumPy's Python source over functions hanajit compiles.  Each call is
rewritten, while typing, into the call NumPy's source makes (``np.diagonal(x,
offset)``, ``np.linalg.norm(x, ord, (-2, -1), keepdims)`` ...) or into a helper
of ``array_api_algorithms`` that adds NumPy's checks; the rewritten call is then
typed and lowered as that function's own, so results are the same.

What the target does not compile, and keywords other than NumPy's, fall back.
"""
from __future__ import annotations

import numpy as np

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..registry import CallTemplate, lookup, register
from . import array_api_algorithms as aa


def _const(node, name):
    value = node.value if isinstance(node, N.Const) else getattr(node, "obj", node)
    if isinstance(node, N.MakeTuple):
        return tuple(_const(i, name) for i in node.items)
    if isinstance(value, N.Expr):
        raise Incompatible(f"{name}= must be a constant")
    return value


def _node(value):
    if isinstance(value, tuple):
        items = [_node(v) for v in value]
        return N.MakeTuple(items, T.TupleType(tuple(i.type for i in items)))
    if value is None:
        return N.Const(None, T.NONE)
    if isinstance(value, bool):
        return N.Const(value, T.BOOL)
    if isinstance(value, int):
        return N.Const(value, T.INT64)
    if isinstance(value, float):
        return N.Const(value, T.FLOAT64)
    from ...ir.frontend_nodes import ObjRef
    return ObjRef(value, repr(value))


class Forward(CallTemplate):
    """``np.linalg.<name>(positional..., *, keywords...)`` rewritten by
    :meth:`rewrite` (argument types and constant keywords -> the callee and its
    argument nodes)."""

    name = ""
    positional = 1
    keywords: dict = {}

    def __init__(self):
        self.paths = (f"numpy.linalg.{self.name}",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != self.positional or set(kwargs) - set(self.keywords):
            kw = "".join(f", {k}={v!r}" for k, v in self.keywords.items())
            raise Incompatible(f"np.linalg.{self.name}({self.positional} arrays{kw}) "
                               "(keywords by name)")
        consts = {k: _const(call.kwargs[k], k) if k in call.kwargs else v
                  for k, v in self.keywords.items()}
        for a in args:
            if not isinstance(a, T.ArrayType):
                raise Incompatible(f"np.linalg.{self.name}() of {a}")
        callee, extra, kws = self.rewrite(args, consts)
        call.callee = callee
        call.args = list(call.args[:self.positional]) + [_node(v) for v in extra]
        call.kwargs = {k: _node(v) for k, v in kws.items()}
        argtypes = [inf.arg_type(a, 0) for a in call.args]
        kwtypes = {k: inf.arg_type(v, 0) for k, v in call.kwargs.items()}
        jf = inf.ctx.as_jit_function(callee)
        if jf is not None:
            return inf.ctx.infer_call(inf, call, jf, argtypes, kwtypes, 0)
        from ..registry import call_type
        return call_type(inf, call, lookup(callee), argtypes, kwtypes)

    def rewrite(self, args, consts):
        raise NotImplementedError


@register
class MatrixTranspose(Forward):
    name = "matrix_transpose"

    def rewrite(self, args, consts):
        if args[0].ndim < 2:
            raise Incompatible("np.linalg.matrix_transpose() of fewer than 2 dimensions "
                               "(NumPy's ValueError)")
        return np.swapaxes, (-1, -2), {}


@register
class LinalgDiagonal(Forward):
    name = "diagonal"
    keywords = {"offset": 0}

    def rewrite(self, args, consts):
        if args[0].ndim != 2:
            raise Incompatible("np.linalg.diagonal() of a 2-D array only")
        return np.diagonal, (consts["offset"],), {}


@register
class LinalgTrace(Forward):
    name = "trace"
    keywords = {"offset": 0, "dtype": None}

    def rewrite(self, args, consts):
        if args[0].ndim != 2 or consts["offset"] != 0 or consts["dtype"] is not None:
            raise Incompatible("np.linalg.trace() of a 2-D array without offset/dtype")
        return np.trace, (), {}


@register
class LinalgOuter(Forward):
    name = "outer"
    positional = 2

    def rewrite(self, args, consts):
        if args[0].ndim != 1 or args[1].ndim != 1:
            raise Incompatible("np.linalg.outer() of arrays that are not 1-D "
                               "(NumPy's ValueError)")
        return np.outer, (), {}


@register
class LinalgMatmul(Forward):
    name = "matmul"
    positional = 2

    def rewrite(self, args, consts):
        return np.matmul, (), {}


@register
class LinalgTensordot(Forward):
    name = "tensordot"
    positional = 2
    keywords = {"axes": 2}

    def rewrite(self, args, consts):
        return np.tensordot, (), {"axes": consts["axes"]}


@register
class LinalgCross(Forward):
    name = "cross"
    positional = 2
    keywords = {"axis": -1}

    def rewrite(self, args, consts):
        if consts["axis"] != -1:
            raise Incompatible("np.linalg.cross(axis=...) (the last axis only)")
        return aa.cross, (), {}


@register
class MatrixNorm(Forward):
    name = "matrix_norm"
    keywords = {"keepdims": False, "ord": "fro"}

    def typer(self, inf, call, args, kwargs):
        o = _const(call.kwargs["ord"], "ord") if "ord" in call.kwargs else "fro"
        if o in (2, -2, "nuc") and not isinstance(o, bool) and not _lapack_svd(inf, args):
            raise Incompatible("np.linalg.matrix_norm(ord=2|-2|'nuc') where NumPy's "
                               "LAPACK cannot be called (Jacobi's singular values are "
                               "not its bits)")
        return super().typer(inf, call, args, kwargs)

    def rewrite(self, args, consts):
        return np.linalg.norm, (consts["ord"], (-2, -1), consts["keepdims"]), {}


@register
class VectorNorm(Forward):
    name = "vector_norm"
    keywords = {"axis": None, "keepdims": False, "ord": 2}

    def rewrite(self, args, consts):
        axis = consts["axis"]
        if axis is None and args[0].ndim != 1:
            raise Incompatible("np.linalg.vector_norm(axis=None) of a 1-D array only")
        if axis is not None and type(axis) is not int:
            raise Incompatible("np.linalg.vector_norm(): axis None or an int")
        return np.linalg.norm, (consts["ord"], 0 if axis is None else axis,
                                consts["keepdims"]), {}


def _lapack_svd(inf, args) -> bool:
    """Does ``norm`` take NumPy's ``?gesdd`` for these arguments' singular values
    (the CPU target, NumPy's 64-bit OpenBLAS)?"""
    from . import lapack
    complex_ = any(isinstance(a, T.ArrayType) and a.dtype.is_complex for a in args)
    return (inf.ctx is not None and inf.ctx.capabilities.host_calls
            and lapack.available("zgesdd" if complex_ else "dgesdd"))


def _vecdot_check(args):
    x, y = args
    if x.ndim != 1 or y.ndim != 1 or x.dtype != y.dtype or x.dtype.is_bool:
        raise Incompatible("vecdot() of two 1-D arrays of one numeric dtype")
    return aa.vecdot_complex if x.dtype.is_complex else aa.vecdot_real


@register
class LinalgVecdot(Forward):
    name = "vecdot"
    positional = 2
    keywords = {"axis": -1}

    def rewrite(self, args, consts):
        if consts["axis"] not in (-1, 0):
            raise Incompatible("np.linalg.vecdot(axis=...) of 1-D arrays")
        return _vecdot_check(args), (), {}


@register
class Vecdot(LinalgVecdot):
    def __init__(self):
        self.paths = ("numpy.vecdot",)
