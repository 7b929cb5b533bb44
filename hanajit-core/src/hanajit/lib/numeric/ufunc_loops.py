"""Ufuncs typed by NumPy's own choice of loop (``ufunc.resolve_dtypes``): the
loop's input dtypes (what each operand is cast to) and output dtypes, from the
operands' dtypes and NEP 50's weak Python numbers.  :class:`LoopUfunc` is the
template of such a function: the subclass gives the element computation on the
cast operands (:meth:`LoopUfunc.element`); on arrays it is lifted over the
broadcast operands (``ew.lift``), on scalars it gives NumPy scalars; with two
outputs (``np.modf``, ``np.frexp``) the result is a tuple, as NumPy's.

NumPy's own resolution covers the odd cases without a table here: ``np.ldexp(5,
int32_array)`` computes in float16 (a Python int adapts to the first loop),
``np.gcd`` of two bools has no loop (TypeError), ``np.frexp`` of int16 is float32.
A loop hanajit has no type for (float16, longdouble) and a TypeError of NumPy's
make the call fall back, with the reason."""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..registry import CallTemplate

_WEAK_PROBE = {"i": int, "f": float, "c": complex}


def _probe(t: T.Scalar, weak: bool):
    import numpy as np
    if weak and t in (T.INT64, T.FLOAT64, T.COMPLEX128):
        return _WEAK_PROBE[t.kind]          # (a Python bool is NumPy's bool: strong)
    return np.dtype(t.name)


def loop_dtypes(label: str, ufunc, nout: int, inf, call, args):
    """(input dtypes, output dtypes, positions of the Python ints) of NumPy's
    loop for ``ufunc`` called on ``args`` (types; arrays or scalars)."""
    whole = [n.type if isinstance(getattr(n, "type", None), T.ArrayType) else a
             for n, a in zip(call.args, args)]
    weak = [not isinstance(w, T.ArrayType) and inf.weak(n)
            for w, n in zip(whole, call.args)]
    elems = [ew.elem_type(w) for w in whole]
    shown = ", ".join(map(str, elems))
    try:
        dts = ufunc.resolve_dtypes(tuple(_probe(e, w) for e, w in zip(elems, weak))
                                   + (None,) * nout)
    except TypeError:
        raise Incompatible(f"{label}() of {shown} (NumPy has no loop for them: "
                           "TypeError)") from None
    ts = [T.from_numpy_dtype(d) for d in dts]
    for d, t in zip(dts, ts):
        if t is None:
            raise Incompatible(f"{label}() of {shown} computes in {d} (NumPy's loop), "
                               "which hanajit does not support")
    n = len(args)
    ints = tuple(k for k in range(n) if weak[k] and elems[k] == T.INT64)
    return tuple(ts[:n]), tuple(ts[n:]), ints


def shaped(args, t):
    """``t``, or an array of ``t`` broadcast from the array operands."""
    if any(isinstance(a, T.ArrayType) for a in args):
        return T.ArrayType(t, ew.broadcast_ndim(*args), "C")
    return t


class LoopUfunc(CallTemplate):
    """A NumPy ufunc (or a function that is one, ``np.fix``: ``numpy_ufunc``) of
    ``nin`` operands and ``nout`` results, positional operands only; ``out=``
    with one result."""

    nin = 1
    nout = 1

    def __init__(self, name, numpy_ufunc=None):
        self.name = name
        self.numpy_ufunc = numpy_ufunc or name
        self.paths = (f"numpy.{name}",)

    @property
    def accepts_out(self):          # (ufuncs.takes_out)
        return self.nout == 1

    @property
    def nargs(self):
        return self.nin

    def check_loop(self, ins, outs):
        """Refuse (Incompatible) a loop NumPy has but this template does not."""

    def typer(self, inf, call, args, kwargs):
        import numpy
        label = f"np.{self.name}"
        kwargs = {k: v for k, v in kwargs.items() if not (k == "out" and v == T.NONE)}
        if "out" in kwargs or len(args) > self.nin:
            raise Incompatible(f"{label}() with out= (of its {self.nout} results)")
        if kwargs or len(args) != self.nin:
            raise Incompatible(f"{label}() takes {self.nin} positional operand(s) here "
                               "(no where=, dtype=, casting=)")
        for a in args:
            if not isinstance(ew.elem_type(a), T.Scalar):
                raise Incompatible(f"{label}() of {a}")
        ins, outs, ints = loop_dtypes(label, getattr(numpy, self.numpy_ufunc), self.nout,
                                      inf, call, args)
        self.check_loop(ins, outs)
        for node, t in zip(call.args, args):
            inf.mark_weak(node, t)
        call.ufunc_loop = (ins, outs, ints)
        types = tuple(shaped(args, t) for t in outs)
        return types[0] if self.nout == 1 else T.TupleType(types)

    def element(self, L, xs, outs, k):
        """The ``k``-th result (of dtype ``outs[k]``) for the operands ``xs``, each
        of its loop's input dtype and bound once."""
        raise NotImplementedError

    def lower(self, L, call, args, kwargs):
        ins, outs, ints = call.ufunc_loop
        args = list(args)
        for k in ints:              # a Python int must fit the loop's integer type
            if ins[k].is_int and args[k].type == T.INT64:
                args[k] = ew.python_int_fits(L, [args[k]], ins[k])[0]
        rt = call.type
        types = rt.items if self.nout > 1 else (rt,)
        values = []
        for k, t in enumerate(types):
            def elem(*xs, k=k):
                xs = [L.let(ew.cast_to(L, x, i)) for x, i in zip(xs, ins)]
                return self.element(L, xs, outs, k)
            if isinstance(t, T.ArrayType):
                v = ew.lift(L, args, t, elem)
                if self.nout > 1:
                    v = L.let(ew.materialize(L, v))
            else:
                v = elem(*[L.let(a) for a in args])
                if self.nout > 1:
                    v = L.let(v)
            values.append(v)
        return values[0] if self.nout == 1 else N.MakeTuple(values, rt)
