"""``np.linalg.matrix_power(a, n)`` and ``np.linalg.multi_dot(arrays)``: NumPy's
Python source step by step (``chain_algorithms``), so every product is the
``matmul``/``dot`` NumPy computes, on the same operands, and the bits are NumPy's.

``matrix_power``: a 2-D square ``a`` (stacks fall back), ``n`` a constant or a
run-time int; ``n == 0`` is the identity in ``empty_like(a)``, negative ``n``
goes through ``inv`` (a float64 result for integer and boolean ``a``: with a
run-time ``n`` that is negative the call re-runs in the interpreter, whose
result's dtype depends on ``n``'s value).

``multi_dot``: a list or tuple display of 2 to 6 arrays.  Two are ``np.dot``;
for three or more a 1-D first operand is a row (``a[np.newaxis, :]``), a 1-D
last one a column, the others must be 2-D; three take NumPy's run-time choice
between ``(AB)C`` and ``A(BC)``, four to six its optimal chain order (computed at
run time from the shapes, every parenthesisation compiled), which needs the
operands of one dtype.
"""
from __future__ import annotations

import numpy as np

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..arrays.creation import allocate
from ..python.operators import C
from ..registry import CallTemplate, register, typed_helper
from . import chain_algorithms as ca

I = T.INT64
MAX_CHAIN = 6




def _call(L, helper, args):
    spec = L.ctx.specialize(helper, tuple(a.type for a in args))
    return L.call_symbol(spec.symbol, [L.let(a) for a in args], spec.return_type)


def _const_int(call, pos):
    node = call.args[pos] if len(call.args) > pos else call.kwargs.get("n")
    value = node.value if isinstance(node, N.Const) else getattr(node, "obj", None)
    return value if type(value) is int else None


@register
class MatrixPower(CallTemplate):
    paths = ("numpy.linalg.matrix_power",)

    def typer(self, inf, call, args, kwargs):
        if len(args) + len(kwargs) != 2 or set(kwargs) - {"a", "n"} or (
                args and "a" in kwargs):
            raise Incompatible("np.linalg.matrix_power(a, n)")
        a = args[0] if args else kwargs["a"]
        n = args[1] if len(args) == 2 else kwargs["n"]
        if not isinstance(a, T.ArrayType) or not isinstance(a.dtype, T.Scalar):
            raise Incompatible(f"np.linalg.matrix_power() of {a}")
        if a.ndim != 2:
            raise Incompatible(f"np.linalg.matrix_power() of a {a.ndim}-D array "
                               "(2-D only; NumPy's LinAlgError below two dimensions)")
        if a.dtype.is_bool:
            raise Incompatible("np.linalg.matrix_power() of a boolean matrix")
        if not (isinstance(n, T.Scalar) and (n.is_int or n.is_bool)):
            raise Incompatible(f"np.linalg.matrix_power() with n of {n} (an int)")
        k = _const_int(call, 1)
        if a.dtype.is_float or a.dtype.is_complex:
            helper, deopt = ca.power, False
        elif k is not None and k < 0:
            helper, deopt = ca.inverse_power, False
        else:
            helper, deopt = ca.nonnegative_power, True
        spec = typed_helper(inf, helper, (a, I))
        call.plan = (spec, deopt)
        return spec.return_type

    def lower(self, L, call, args, kwargs):
        from ..python import operators as ops
        spec, deopt = call.plan
        a = L.let(args[0] if args else kwargs["a"])
        n = L.let(ops.convert(L, args[1] if len(args) == 2 else kwargs["n"], I))
        rows = L.let(N.ArrayAttr(a, "shape", 0, I))
        L.raise_if(N.Cmp("ne", rows, N.ArrayAttr(a, "shape", 1, I), T.BOOL),
                   np.linalg.LinAlgError, "Last 2 dimensions of the array must be square")
        if deopt:
            L.emit(N.If(cond=N.Cmp("lt", n, C(0, I), T.BOOL), then=[N.Raise(
                exc=ValueError, deopt=True, line=L.line,
                message="np.linalg.matrix_power() of an integer matrix with a negative "
                        "run-time n (a float result)")]))
        return L.call_symbol(spec.symbol, [a, n], spec.return_type)


def _items(t):
    if not isinstance(t, T.TupleType) or isinstance(t, T.NamedTupleType):
        raise Incompatible("np.linalg.multi_dot() of a list or tuple display of arrays")
    if not 2 <= len(t.items) <= MAX_CHAIN:
        raise Incompatible(f"np.linalg.multi_dot() of {len(t.items)} arrays "
                           f"(2 to {MAX_CHAIN})")
    for x in t.items:
        if not isinstance(x, T.ArrayType) or not isinstance(x.dtype, T.Scalar):
            raise Incompatible(f"np.linalg.multi_dot() of {x}")
    return t.items


@register
class MultiDot(CallTemplate):
    paths = ("numpy.linalg.multi_dot",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or kwargs:
            raise Incompatible("np.linalg.multi_dot(arrays) without out=")
        items = _items(args[0])
        if len(items) == 2:
            spec = typed_helper(inf, ca.dot2, items)
            call.plan = spec
            return spec.return_type
        first, last = items[0].ndim, items[-1].ndim
        if first not in (1, 2) or last not in (1, 2) or any(
                x.ndim != 2 for x in items[1:-1]):
            raise Incompatible("np.linalg.multi_dot(): every array 2-D but a 1-D first "
                               "or last one (NumPy's LinAlgError otherwise)")
        mats = [typed_helper(inf, ca.row, (items[0],)).return_type if first == 1 else items[0]]
        mats += list(items[1:-1])
        mats.append(typed_helper(inf, ca.column, (items[-1],)).return_type if last == 1
                    else items[-1])
        if len(items) == 3:
            rt = typed_helper(inf, ca.three, mats).return_type
        else:
            if len({x.dtype for x in items}) != 1:
                raise Incompatible("np.linalg.multi_dot() of four or more arrays of "
                                   "different dtypes")
            rt = self._chain_type(inf, mats)
        if first == 1 and last == 1:
            return typed_helper(inf, ca.first_element, (rt,)).return_type
        if first == 1 or last == 1:
            return typed_helper(inf, ca.flat, (rt,)).return_type
        return rt

    @staticmethod
    def _chain_type(inf, mats):
        """The type of every partial product (one, as the dtypes are)."""
        rt = None
        for x in mats:
            for y in mats:
                t = typed_helper(inf, ca.dot2, (x, y)).return_type
                for z in mats:
                    typed_helper(inf, ca.dot2, (t, z))
                    typed_helper(inf, ca.dot2, (z, t))
                if rt is not None and t != rt:
                    raise Incompatible("np.linalg.multi_dot(): partial products of "
                                       "different types")
                rt = t
        typed_helper(inf, ca.dot2, (rt, rt))
        return rt

    def lower(self, L, call, args, kwargs):
        tup = L.let(args[0])
        arrs = [L.let(N.TupleGet(tup, k, t)) for k, t in enumerate(tup.type.items)]
        if len(arrs) == 2:
            spec = call.plan
            return L.call_symbol(spec.symbol, arrs, spec.return_type)
        first, last = arrs[0].type.ndim, arrs[-1].type.ndim
        if first == 1:
            arrs[0] = _call(L, ca.row, [arrs[0]])
        if last == 1:
            arrs[-1] = _call(L, ca.column, [arrs[-1]])
        if len(arrs) == 3:
            r = _call(L, ca.three, arrs)
        else:
            r = self._chain(L, arrs)
        if first == 1 and last == 1:
            return _call(L, ca.first_element, [r])
        if first == 1 or last == 1:
            return _call(L, ca.flat, [r])
        return r

    @staticmethod
    def _chain(L, arrs):
        n = len(arrs)
        p = allocate(L, T.ArrayType(I, 1, "C"), [C(n + 1, I)])
        for k, x in enumerate(arrs):
            L.emit(N.Store(array=p, indices=[C(k, I)],
                           value=L.let(N.ArrayAttr(x, "shape", 0, I))))
        L.emit(N.Store(array=p, indices=[C(n, I)],
                       value=L.let(N.ArrayAttr(arrs[-1], "shape", 1, I))))
        s = L.let(_call(L, ca.chain_order, [p]))

        def product(i, j):
            """NumPy's ``_multi_dot(arrays, order, i, j)``: one branch per split."""
            if i == j:
                return arrs[i]
            res = None
            branches = []
            for k in range(i, j):
                def build(k=k):
                    return _call(L, ca.dot2, [L.let(product(i, k)),
                                              L.let(product(k + 1, j))])
                stmts, value = L.sub_block(build)
                if res is None:
                    res = L.temp(value.type, "chain")
                stmts.append(N.Assign(target=res, value=value))
                branches.append((k, stmts))
            body = branches[-1][1]
            split = L.let(N.Load(s, [C(i, I), C(j, I)], I))
            for k, stmts in reversed(branches[:-1]):
                body = [N.If(cond=N.Cmp("eq", split, C(k, I), T.BOOL), then=stmts,
                             orelse=body)]
            L.out.extend(body)
            return N.Var(res, L.fn.locals[res])

        return product(0, n - 1)
