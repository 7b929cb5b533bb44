"""``np.choose(a, choices)`` (``mode='raise'``): ``a`` an integer array or
number, ``choices`` a tuple or list display of arrays and numbers; all broadcast
together and the result at each position is ``choices[a[...]][...]``, in the
choices' common dtype (NumPy's ``result_type``).  An entry of ``a`` outside
``[0, len(choices))`` raises NumPy's ValueError.  ``out=``, other modes, numbers
among the choices that are Python numbers with arrays of another kind (NEP 50
would weaken them), and boolean ``a`` fall back."""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible, promote
from ..arrays import elementwise as ew
from ..python import operators as ops
from ..python.operators import C
from ..registry import CallTemplate, bind_arguments, register

I = T.INT64


def _dtype(t):
    return t.dtype if isinstance(t, T.ArrayType) else t


@register
class Choose(CallTemplate):
    paths = ("numpy.choose",)
    params = ("a", "choices", "out", "mode")

    def typer(self, inf, call, args, kwargs):
        from ..registry import bound_const
        b = bind_arguments("np.choose", self.params, args, kwargs)
        nodes = bind_arguments("np.choose", self.params, call.args, call.kwargs)
        if "out" in b or bound_const(call, nodes, "mode", "raise") != "raise":
            raise Incompatible("np.choose(a, choices) (out= and other modes fall back)")
        a, ch = b.get("a"), b.get("choices")
        at = _dtype(a)
        if not (isinstance(at, T.Scalar) and at.is_int and not at.is_bool) or \
                at == T.UINT64:
            raise Incompatible(f"np.choose() with a of {a} (an integer array)")
        if not isinstance(ch, T.TupleType) or isinstance(ch, T.NamedTupleType) or \
                not ch.items:
            raise Incompatible(f"np.choose() with choices of {ch} (a tuple or list display)")
        dts = []
        for x in ch.items:
            if not isinstance(_dtype(x), T.Scalar):
                raise Incompatible(f"np.choose() with a choice of {x}")
            dts.append(_dtype(x))
        chn = nodes["choices"]
        if any(not isinstance(x, T.ArrayType) for x in ch.items) and (
                not isinstance(chn, N.MakeTuple) or any(
                    not isinstance(x, T.ArrayType) and not inf.is_strong(n)
                    for x, n in zip(ch.items, chn.items))):
            raise Incompatible("np.choose() with Python numbers among the choices")
        dt = dts[0]
        for d in dts[1:]:
            dt = promote(dt, d) if dt != d else dt
        ndim = max([x.ndim for x in ch.items if isinstance(x, T.ArrayType)] +
                   [a.ndim if isinstance(a, T.ArrayType) else 0])
        if not ndim:
            raise Incompatible("np.choose() of numbers only (a 0-d result)")
        return T.ArrayType(dt, ndim, "C")

    def lower(self, L, call, args, kwargs):
        from .elements import element_value
        b = bind_arguments("np.choose", self.params, args, kwargs)
        a, tup = L.let(b["a"]), L.let(b["choices"])
        items = [L.let(N.TupleGet(tup, k, x)) for k, x in enumerate(tup.type.items)]
        rt = call.type
        dt = rt.dtype
        n = len(items)

        def pick(av, *vals):
            k = L.let(ops.convert_wrap(av, I))
            L.emit(N.If(cond=ops.bor(N.Cmp("lt", k, C(0, I), T.BOOL),
                                     N.Cmp("ge", k, C(n, I), T.BOOL)),
                        then=[N.Raise(exc=ValueError, message="invalid entry in choice array",
                                      line=L.line)], line=L.line))
            out = element_value(L, vals[-1], dt)
            for j in range(n - 2, -1, -1):
                out = N.Select(N.Cmp("eq", k, C(j, I), T.BOOL), element_value(L, vals[j], dt),
                               out, dt)
            return out
        return ew.materialize(L, ew.lift(L, [a] + items, rt, pick))
