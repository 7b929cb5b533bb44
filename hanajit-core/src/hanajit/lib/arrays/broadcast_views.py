"""``np.broadcast_to(array, shape)``: NumPy's read-only view of ``array`` with
``shape`` (an int or a tuple of ints, their values known at run time), the
stride of every new leading axis and of every axis of length 1 zero, the others
``array``'s own.  A negative length raises NumPy's ValueError, as do lengths the
array does not broadcast to; a shape of fewer dimensions than the array falls
back (NumPy's ValueError); so do numbers and sequences (not arrays).  Writes
through the view raise ValueError as NumPy's do (it is typed read-only)."""
from __future__ import annotations

from ...errors import RERUN
from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..python import operators as ops
from ..python.operators import C
from ..registry import CallTemplate, bind_arguments, register

I = T.INT64


def _lengths(t):
    """The number of lengths of a ``shape`` argument of type ``t``, or None."""
    if isinstance(t, T.Scalar) and t.is_int and not t.is_bool:
        return 1
    if isinstance(t, T.TupleType) and not isinstance(t, T.NamedTupleType) and all(
            isinstance(i, T.Scalar) and i.is_int and not i.is_bool for i in t.items):
        return len(t.items)
    return None


@register
class BroadcastTo(CallTemplate):
    paths = ("numpy.broadcast_to",)
    params = ("array", "shape", "subok")

    def typer(self, inf, call, args, kwargs):
        b = bind_arguments("np.broadcast_to", self.params, args, kwargs)
        a, shape = b.get("array"), b.get("shape")
        if "subok" in b:
            raise Incompatible("np.broadcast_to() with subok=")
        if not isinstance(a, T.ArrayType):
            raise Incompatible(f"np.broadcast_to() of {a} (an array)")
        n = _lengths(shape)
        if n is None:
            raise Incompatible(f"np.broadcast_to() to a shape of {shape} (ints)")
        if n < a.ndim:
            raise Incompatible("np.broadcast_to() to fewer dimensions than the array's "
                               "(NumPy's ValueError)")
        return a.copy(ndim=n, layout="A", readonly=True)

    def lower(self, L, call, args, kwargs):
        b = bind_arguments("np.broadcast_to", self.params, args, kwargs)
        arr, shape = L.let(b["array"]), L.let(b["shape"])
        if isinstance(shape.type, T.TupleType):
            lengths = [L.let(ops.convert_wrap(N.TupleGet(shape, k, it), I))
                       for k, it in enumerate(shape.type.items)]
        else:
            lengths = [L.let(ops.convert_wrap(shape, I))]
        for d in lengths:
            L.raise_if(N.Cmp("lt", d, C(0, I), T.BOOL), ValueError,
                       "all elements of broadcast shape must be non-negative")
        lead = len(lengths) - arr.type.ndim
        strides = [C(0, I)] * lead
        for k in range(arr.type.ndim):
            d = L.let(N.ArrayAttr(arr, "shape", k, I))
            full = lengths[lead + k]
            # NumPy's text prints both whole shapes ("...: (4,)  and requested shape
            # (3,5)"): a pure call re-runs in the interpreter, which words it so
            L.emit(N.If(cond=ops.band(N.Cmp("ne", d, full, T.BOOL),
                                      N.Cmp("ne", d, C(1, I), T.BOOL)),
                        then=[N.Raise(exc=ValueError, deopt=RERUN, line=L.line,
                                      message="operands could not be broadcast together "
                                      "with remapped shapes [original->remapped]")],
                        line=L.line))
            strides.append(L.let(N.Select(N.Cmp("eq", d, C(1, I), T.BOOL), C(0, I),
                                          N.ArrayAttr(arr, "stride", k, I), I)))
        return N.ArrayView(arr, C(0, I), lengths, strides, call.type)
